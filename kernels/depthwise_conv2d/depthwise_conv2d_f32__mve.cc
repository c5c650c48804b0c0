// float32 depthwise convolution for Helium cores with floating point (MVE-F, cortex-m55),
// depth multiplier 1, any KH x KW, stride, dilation and padding; each output sums the
// reference's products in its order (bias, then the taps inside the image in (ky, kx)
// order, one fused multiply-add each, as depthwise_conv2d_f32 compiled for the core
// does), so on the core the two agree bit for bit; the conformance suite allows the
// rounding of any order.
//
// Vectors run across four channels (input, filter and output channels are contiguous):
// per tap one load of the weights and one of each pixel's inputs, a VFMA per pixel. Output
// pixels pair up as in depthwise_conv2d_f32__fpu (two pixels whose windows the image
// border cuts alike share each weight vector); the last 1..3 channels run predicated.
// Windows of 3x3 taps inside the image run unrolled (window_3x3). Activation per lane as
// clamp_value. No scratch.
#include "depthwise_conv2d/depthwise_conv2d.h"
#include "depthwise_conv2d/depthwise_conv2d_f32_pairs.h"
#include "isa/mve_f32.h"
#include "kernel_util.h"
#include "pixel_pairs.h"

namespace mote {
namespace {

using mve::float32x4_t;

// Loads and stores of a block of four channels: all four, or the first ones (kTail: the
// predicate's lanes; the others read as 0 and are not written).
template <bool kTail>
inline float32x4_t load4(const float* p, mve::mve_pred16_t pred) {
  return kTail ? mve::vldrwq_z_f32(p, pred) : mve::vldrwq_f32(p);
}
template <bool kTail>
inline void store4(float* p, float32x4_t v, mve::mve_pred16_t pred) {
  if (kTail) {
    mve::vstrwq_p_f32(p, v, pred);
  } else {
    mve::vstrwq_f32(p, v);
  }
}

// A 3x3 window inside the image, fully unrolled: per window row three weight vectors and
// each pixel's three input vectors (kAdjacent: b's window starts one column after a's, so
// the pair reads four input vectors, b's first two being a's last two).
template <bool kPair, bool kAdjacent, bool kTail>
__attribute__((always_inline)) inline void window_3x3(const DepthwiseSteps& s, const float* xa, const float* xb,
                                                      const float* w, mve::mve_pred16_t pred, float32x4_t& acc_a,
                                                      float32x4_t& acc_b) {
  const int32_t col = s.col, c = s.c;
  for (int ky = 0; ky < 3; ++ky, xa += s.row, xb += s.row, w += s.filter_row) {
    const float32x4_t w0 = load4<kTail>(w, pred);
    const float32x4_t w1 = load4<kTail>(w + c, pred);
    const float32x4_t w2 = load4<kTail>(w + 2 * c, pred);
    const float32x4_t x0 = load4<kTail>(xa, pred);
    const float32x4_t x1 = load4<kTail>(xa + col, pred);
    acc_a = mve::vfmaq_f32(acc_a, x0, w0);
    acc_a = mve::vfmaq_f32(acc_a, x1, w1);
    const float32x4_t x2 = load4<kTail>(xa + 2 * col, pred);
    acc_a = mve::vfmaq_f32(acc_a, x2, w2);
    if (kPair && kAdjacent) {
      acc_b = mve::vfmaq_f32(acc_b, x1, w0);
      acc_b = mve::vfmaq_f32(acc_b, x2, w1);
      acc_b = mve::vfmaq_f32(acc_b, load4<kTail>(xa + 3 * col, pred), w2);
    } else if (kPair) {
      acc_b = mve::vfmaq_f32(acc_b, load4<kTail>(xb, pred), w0);
      acc_b = mve::vfmaq_f32(acc_b, load4<kTail>(xb + col, pred), w1);
      acc_b = mve::vfmaq_f32(acc_b, load4<kTail>(xb + 2 * col, pred), w2);
    }
  }
}

// The activation and the stores of pixel a's (and b's) channels c .. c + 3 (out_b is null
// without kPair).
template <bool kPair, bool kClamp, bool kTail>
__attribute__((always_inline)) inline void finish(float32x4_t acc_a, float32x4_t acc_b, mve::mve_pred16_t pred,
                                                  float32x4_t lo, float32x4_t hi, float* out_a, float* out_b,
                                                  int32_t c) {
  if (kClamp) acc_a = mve::clamp_lanes(acc_a, lo, hi);
  store4<kTail>(out_a + c, acc_a, pred);
  if (kPair) {
    if (kClamp) acc_b = mve::clamp_lanes(acc_b, lo, hi);
    store4<kTail>(out_b + c, acc_b, pred);
  }
}

// Every channel of pixel a (and b) whose windows are 3x3 taps inside the image. Not
// inlined, and without the pre-allocation scheduler, which hoists the loads of all three
// rows and spills vectors in the window functions it is inlined into.
template <bool kPair, bool kAdjacent, bool kClamp>
__attribute__((noinline, optimize("no-schedule-insns"))) void pixels_3x3(
    const DepthwiseSteps& s, const float* xa, const float* xb, const float* w, const float* bias, float32x4_t lo,
    float32x4_t hi, float* out_a, float* out_b) {
  int32_t c = 0;
  for (; c + 4 <= s.c; c += 4) {
    float32x4_t acc_a = bias != nullptr ? mve::vldrwq_f32(bias + c) : mve::vdupq_n_f32(0.0f);
    float32x4_t acc_b = acc_a;
    window_3x3<kPair, kAdjacent, false>(s, xa + c, xb + c, w + c, 0, acc_a, acc_b);
    finish<kPair, kClamp, false>(acc_a, acc_b, 0, lo, hi, out_a, out_b, c);
  }
  if (c < s.c) {
    const mve::mve_pred16_t pred = mve::vctp32q(static_cast<uint32_t>(s.c - c));
    float32x4_t acc_a = bias != nullptr ? mve::vldrwq_z_f32(bias + c, pred) : mve::vdupq_n_f32(0.0f);
    float32x4_t acc_b = acc_a;
    window_3x3<kPair, kAdjacent, true>(s, xa + c, xb + c, w + c, pred, acc_a, acc_b);
    finish<kPair, kClamp, true>(acc_a, acc_b, pred, lo, hi, out_a, out_b, c);
  }
}

struct Block {
  // Channels c .. c + 3 of pixel a (and b when kPair).
  template <bool kPair, bool kClamp, bool kTail>
  static void channels(const DepthwiseSteps& s, const PixelWindow& wa, const float* origin_b, const float* w_first,
                       const float* bias, int32_t c, mve::mve_pred16_t pred, float32x4_t lo, float32x4_t hi,
                       float* out_a, float* out_b) {
    float32x4_t acc_a = bias != nullptr ? load4<kTail>(bias + c, pred) : mve::vdupq_n_f32(0.0f);
    float32x4_t acc_b = acc_a;
    const float* xa_row = wa.origin + c;
    const float* xb_row = (kPair ? origin_b : wa.origin) + c;
    const float* w_row = w_first + c;
    for (int32_t ky = 0; ky < wa.ky_count; ++ky, xa_row += s.row, xb_row += s.row, w_row += s.filter_row) {
      const float* xa = xa_row;
      const float* xb = xb_row;
      const float* w = w_row;
      for (int32_t kx = 0; kx < wa.kx_count; ++kx, xa += s.col, xb += s.col, w += s.c) {
        const float32x4_t wv = load4<kTail>(w, pred);
        acc_a = mve::vfmaq_f32(acc_a, load4<kTail>(xa, pred), wv);
        if (kPair) acc_b = mve::vfmaq_f32(acc_b, load4<kTail>(xb, pred), wv);
      }
    }
    finish<kPair, kClamp, kTail>(acc_a, acc_b, pred, lo, hi, out_a, out_b, c);
  }

  template <bool kPair, bool kClamp>
  static void pixels(const DepthwiseConv2dParams& params, const DepthwiseSteps s, const PixelWindow& wa,
                     const float* origin_b, const float* filter, const float* bias, float* out_a, float* out_b) {
    const float32x4_t lo = mve::vdupq_n_f32(params.act_min);
    const float32x4_t hi = mve::vdupq_n_f32(params.act_max);
    const float* const w_first = filter + wa.filter_offset;
    if (wa.ky_count == 3 && wa.kx_count == 3) {  // e.g. MobileNet's 3x3 inside the image
      if (kPair && origin_b == wa.origin + s.col) {
        pixels_3x3<kPair, true, kClamp>(s, wa.origin, origin_b, w_first, bias, lo, hi, out_a, out_b);
      } else {
        pixels_3x3<kPair, false, kClamp>(s, wa.origin, kPair ? origin_b : wa.origin, w_first, bias, lo, hi, out_a,
                                         out_b);
      }
      return;
    }
    const mve::mve_pred16_t all = mve::vctp32q(4);
    int32_t c = 0;
    for (; c + 4 <= s.c; c += 4) {
      channels<kPair, kClamp, false>(s, wa, origin_b, w_first, bias, c, all, lo, hi, out_a, out_b);
    }
    if (c < s.c) {
      const mve::mve_pred16_t pred = mve::vctp32q(static_cast<uint32_t>(s.c - c));
      channels<kPair, kClamp, true>(s, wa, origin_b, w_first, bias, c, pred, lo, hi, out_a, out_b);
    }
  }
};

}  // namespace

void depthwise_conv2d_f32__mve(const DepthwiseConv2dParams& params, const DepthwiseConv2dShape& shape,
                               const float* input, const float* filter, const float* bias, float* output) {
  depthwise_conv2d_f32_by_pixel_pairs<Block>(params, shape, input, filter, bias, output);
}

Status depthwise_conv2d_f32__mve_check(const OpContext& ctx) { return depthwise_conv2d_f32_multiplier_1_check(ctx); }

void depthwise_conv2d_f32__mve_run(const OpContext& ctx) {
  depthwise_conv2d_f32_run_op<depthwise_conv2d_f32__mve>(ctx);
}

const KernelEntry kDepthwiseConv2dF32MveEntry = {depthwise_conv2d_f32__mve_check, depthwise_conv2d_f32__mve_run};

}  // namespace mote
