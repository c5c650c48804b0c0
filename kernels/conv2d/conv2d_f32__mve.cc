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
// predicated. Activation per lane as clamp_value. No scratch. Pointwise layers (1x1,
// stride 1, no padding) take blocks of four pixels instead (Pointwise below).
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

// Pointwise layers (1x1, stride 1, no padding): the input is a [pixels, in_c] matrix and
// the output a [pixels, out_c] one. Blocks of kPixels (1..4) pixels and four channels:
// each gathered weight vector serves kPixels VFMAs (10 instructions per 16 MACs at four
// pixels against 6 per 8 for a pixel pair), and no window is walked.
struct Pointwise {
  int32_t in_c, out_c;
  const float* filter;
  const float* bias;
  float32x4_t lo, hi;
  mve::uint32x4_t rows;       // byte offsets of four channels' filter rows
  mve::uint32x4_t tail_rows;  // .. of the last 1..3 channels (the others read the first's)
  mve::mve_pred16_t tail;     // the last channels' lanes
};

template <bool kClamp, bool kTail>
__attribute__((always_inline)) inline void store(const Pointwise& pw, float32x4_t acc, mve::mve_pred16_t pred,
                                                 float* out) {
  if (kClamp) acc = mve::clamp_lanes(acc, pw.lo, pw.hi);
  if (kTail) {
    mve::vstrwq_p_f32(out, acc, pred);
  } else {
    mve::vstrwq_f32(out, acc);
  }
}

template <int kPixels, bool kClamp, bool kTail>
__attribute__((always_inline)) inline void pointwise_block(const Pointwise& pw, const float* x, int32_t oc,
                                                           float* out) {
  const mve::mve_pred16_t pred = kTail ? pw.tail : mve::vctp32q(4);
  float32x4_t a0 = mve::vdupq_n_f32(0.0f);
  if (pw.bias != nullptr) a0 = kTail ? mve::vldrwq_z_f32(pw.bias + oc, pred) : mve::vldrwq_f32(pw.bias + oc);
  float32x4_t a1 = a0, a2 = a0, a3 = a0;
  const int32_t k = pw.in_c;
  mve::RowsCursor rows(pw.filter + oc * k, kTail ? pw.tail_rows : pw.rows);
  for (int32_t i = 0; i < k; ++i) {
    const float32x4_t wv = rows.next();
    a0 = mve::vfmaq_n_f32(a0, wv, x[i]);
    if (kPixels > 1) a1 = mve::vfmaq_n_f32(a1, wv, x[k + i]);
    if (kPixels > 2) a2 = mve::vfmaq_n_f32(a2, wv, x[2 * k + i]);
    if (kPixels > 3) a3 = mve::vfmaq_n_f32(a3, wv, x[3 * k + i]);
  }
  out += oc;
  store<kClamp, kTail>(pw, a0, pred, out);
  if (kPixels > 1) store<kClamp, kTail>(pw, a1, pred, out + pw.out_c);
  if (kPixels > 2) store<kClamp, kTail>(pw, a2, pred, out + 2 * pw.out_c);
  if (kPixels > 3) store<kClamp, kTail>(pw, a3, pred, out + 3 * pw.out_c);
}

// Every output channel of kPixels pixels from x (their inputs) to out.
template <int kPixels, bool kClamp>
void pointwise_pixels(const Pointwise& pw, const float* x, float* out) {
  int32_t oc = 0;
  for (; oc + 4 <= pw.out_c; oc += 4) pointwise_block<kPixels, kClamp, false>(pw, x, oc, out);
  if (oc < pw.out_c) pointwise_block<kPixels, kClamp, true>(pw, x, oc, out);
}

template <bool kClamp>
void pointwise(const Pointwise& pw, int32_t pixels, const float* input, float* output) {
  int32_t p = 0;
  for (; p + 4 <= pixels; p += 4) pointwise_pixels<4, kClamp>(pw, input + p * pw.in_c, output + p * pw.out_c);
  const float* x = input + p * pw.in_c;
  float* out = output + p * pw.out_c;
  switch (pixels - p) {
    case 3: pointwise_pixels<3, kClamp>(pw, x, out); break;
    case 2: pointwise_pixels<2, kClamp>(pw, x, out); break;
    case 1: pointwise_pixels<1, kClamp>(pw, x, out); break;
    default: break;
  }
}

bool is_pointwise(const WindowGeometry& w, const Conv2dShape& shape) {
  return shape.kernel_h == 1 && shape.kernel_w == 1 && w.stride_h == 1 && w.stride_w == 1 && w.pad_top == 0 &&
         w.pad_left == 0 && w.pad_bottom == 0 && w.pad_right == 0 && shape.out_h == shape.in_h &&
         shape.out_w == shape.in_w;
}

}  // namespace

void conv2d_f32__mve(const Conv2dParams& params, const Conv2dShape& shape, const float* input, const float* filter,
                     const float* bias, float* output) {
  if (is_pointwise(params.window, shape)) {
    const uint32_t row = 4u * static_cast<uint32_t>(shape.in_c);  // filter bytes per channel
    const uint32_t left = static_cast<uint32_t>(shape.out_c % 4);
    const uint32_t rows[4] = {0, row, 2 * row, 3 * row};
    const uint32_t tail_rows[4] = {0, left > 1 ? row : 0, left > 2 ? 2 * row : 0, 0};
    const Pointwise pw = {shape.in_c,
                          shape.out_c,
                          filter,
                          bias,
                          mve::vdupq_n_f32(params.act_min),
                          mve::vdupq_n_f32(params.act_max),
                          mve::vldrwq_u32(rows),
                          mve::vldrwq_u32(tail_rows),
                          mve::vctp32q(left)};
    const int32_t pixels = shape.batch * shape.out_h * shape.out_w;
    if (float_act_is_identity(params.act_min, params.act_max)) {
      pointwise<false>(pw, pixels, input, output);
    } else {
      pointwise<true>(pw, pixels, input, output);
    }
    return;
  }
  conv2d_f32_by_pixel_pairs<Block>(params, shape, input, filter, bias, output);
}

Status conv2d_f32__mve_check(const OpContext& ctx) { return conv2d_f32_ungrouped_check(ctx); }

void conv2d_f32__mve_run(const OpContext& ctx) { conv2d_f32_run_op<conv2d_f32__mve>(ctx); }

const KernelEntry kConv2dF32MveEntry = {conv2d_f32__mve_check, conv2d_f32__mve_run};

}  // namespace mote
