// float32 convolution for Helium cores with floating point (MVE-F, cortex-m55), groups ==
// 1, any KH x KW, stride, dilation and padding; each output sums the reference's products
// in its order (bias, then the taps inside the image in (ky, kx, channel) order, one
// fused multiply-add each, as conv2d_f32 compiled for the core does), so on the core the
// two agree bit for bit; the conformance suite allows the rounding of any order.
//
// Vectors run across four output channels: for each window value the four channels'
// weights (OHWI: K values apart) come in with one gather load (four address lanes that
// step on by one float, mve::RowsCursor) and are multiplied by the pixel's input value
// (VFMA by scalar). Output pixels pair up as in conv2d_f32__fpu (two pixels whose windows
// the image border cuts alike share each gathered vector); the last 1..3 channels run
// predicated. Activation per lane as clamp_value. No scratch.
#include "conv2d/conv2d.h"
#include "conv2d/conv2d_f32_pairs.h"
#include "isa/mve_f32.h"
#include "kernel_util.h"
#include "pixel_pairs.h"

namespace mote {
namespace {

using mve::float32x4_t;

// Four channels of pixel a (and b when kPair) over one window's runs; w is the first
// channel's filter at the window's first tap, `offsets` the four channels' offsets.
template <bool kPair>
__attribute__((always_inline)) inline void window(float32x4_t& acc_a, float32x4_t& acc_b, const WindowRuns& runs,
                                                  int32_t ky_count, const float* xa, const float* xb, const float* w,
                                                  const uint32_t offsets[4]) {
  const auto run = [&](const float* ra, const float* rb, const float* rw) {
    mve::RowsCursor rows(rw, offsets);
    for (int32_t i = 0; i < runs.run_length; ++i) {
      const float32x4_t wv = rows.next();
      acc_a = mve::vfmaq_n_f32(acc_a, wv, ra[i]);
      if (kPair) acc_b = mve::vfmaq_n_f32(acc_b, wv, rb[i]);
    }
  };
  if (ky_count == 1 && runs.runs_per_row == 1) {  // e.g. every 1x1 convolution: one run
    run(xa, xb, w);
    return;
  }
  for (int32_t ky = 0; ky < ky_count; ++ky, xa += runs.row_step, xb += runs.row_step, w += runs.filter_row) {
    const float* ra = xa;
    const float* rb = xb;
    const float* rw = w;
    for (int32_t r = 0; r < runs.runs_per_row; ++r, ra += runs.run_step, rb += runs.run_step, rw += runs.in_c) {
      run(ra, rb, rw);
    }
  }
}

struct Block {
  // Channels oc .. oc + 3 of pixel a (and b when kPair); kTail: only the predicate's lanes
  // are stored (the others gather channel oc's weights, `offsets` says so).
  template <bool kPair, bool kClamp, bool kTail>
  static void channels(const WindowRuns& runs, const PixelWindow& wa, const float* origin_b, const float* filter,
                       const float* bias, int32_t oc, const uint32_t offsets[4], mve::mve_pred16_t pred,
                       float32x4_t lo, float32x4_t hi, float* out_a, float* out_b) {
    float32x4_t acc_a = mve::vdupq_n_f32(0.0f);
    if (bias != nullptr) acc_a = kTail ? mve::vldrwq_z_f32(bias + oc, pred) : mve::vldrwq_f32(bias + oc);
    float32x4_t acc_b = acc_a;
    window<kPair>(acc_a, acc_b, runs, wa.ky_count, wa.origin, kPair ? origin_b : wa.origin,
                  filter + oc * runs.filter_oc + wa.filter_offset, offsets);
    if (kClamp) acc_a = mve::clamp_lanes(acc_a, lo, hi);
    if (kClamp && kPair) acc_b = mve::clamp_lanes(acc_b, lo, hi);
    if (kTail) {
      mve::vstrwq_p_f32(out_a + oc, acc_a, pred);
      if (kPair) mve::vstrwq_p_f32(out_b + oc, acc_b, pred);
    } else {
      mve::vstrwq_f32(out_a + oc, acc_a);
      if (kPair) mve::vstrwq_f32(out_b + oc, acc_b);
    }
  }

  template <bool kPair, bool kClamp>
  static void pixels(const Conv2dParams& params, const WindowRuns runs, int32_t out_c, const PixelWindow& wa,
                     const float* origin_b, const float* filter, const float* bias, float* out_a, float* out_b) {
    const float32x4_t lo = mve::vdupq_n_f32(params.act_min);
    const float32x4_t hi = mve::vdupq_n_f32(params.act_max);
    const uint32_t fs = static_cast<uint32_t>(runs.filter_oc);
    const uint32_t all[4] = {0, fs, 2 * fs, 3 * fs};
    int32_t oc = 0;
    for (; oc + 4 <= out_c; oc += 4) {
      channels<kPair, kClamp, false>(runs, wa, origin_b, filter, bias, oc, all, mve::vctp32q(4), lo, hi, out_a,
                                     out_b);
    }
    if (oc < out_c) {
      const int32_t left = out_c - oc;
      const uint32_t tail[4] = {0, left > 1 ? fs : 0, left > 2 ? 2 * fs : 0, 0};
      channels<kPair, kClamp, true>(runs, wa, origin_b, filter, bias, oc, tail,
                                    mve::vctp32q(static_cast<uint32_t>(left)), lo, hi, out_a, out_b);
    }
  }
};

}  // namespace

void conv2d_f32__mve(const Conv2dParams& params, const Conv2dShape& shape, const float* input, const float* filter,
                     const float* bias, float* output) {
  conv2d_f32_by_pixel_pairs<Block>(params, shape, input, filter, bias, output);
}

Status conv2d_f32__mve_check(const OpContext& ctx) { return conv2d_f32_ungrouped_check(ctx); }

void conv2d_f32__mve_run(const OpContext& ctx) { conv2d_f32_run_op<conv2d_f32__mve>(ctx); }

const KernelEntry kConv2dF32MveEntry = {conv2d_f32__mve_check, conv2d_f32__mve_run};

}  // namespace mote
