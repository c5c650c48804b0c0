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
// Activation per lane as clamp_value. No scratch.
#include "depthwise_conv2d/depthwise_conv2d.h"
#include "depthwise_conv2d/depthwise_conv2d_f32_pairs.h"
#include "isa/mve_f32.h"
#include "kernel_util.h"
#include "pixel_pairs.h"

namespace mote {
namespace {

using mve::float32x4_t;

struct Block {
  template <bool kPair, bool kClamp>
  static void pixels(const DepthwiseConv2dParams& params, const DepthwiseSteps s, const PixelWindow& wa,
                     const float* origin_b, const float* filter, const float* bias, float* out_a, float* out_b) {
    const float32x4_t lo = mve::vdupq_n_f32(params.act_min);
    const float32x4_t hi = mve::vdupq_n_f32(params.act_max);
    const float* const w_first = filter + wa.filter_offset;
    for (int32_t c = 0; c < s.c; c += 4) {
      const mve::mve_pred16_t pred = mve::vctp32q(static_cast<uint32_t>(s.c - c));
      float32x4_t acc_a = bias != nullptr ? mve::vldrwq_z_f32(bias + c, pred) : mve::vdupq_n_f32(0.0f);
      float32x4_t acc_b = acc_a;
      const float* xa_row = wa.origin + c;
      const float* xb_row = (kPair ? origin_b : wa.origin) + c;
      const float* w_row = w_first + c;
      for (int32_t ky = 0; ky < wa.ky_count; ++ky, xa_row += s.row, xb_row += s.row, w_row += s.filter_row) {
        const float* xa = xa_row;
        const float* xb = xb_row;
        const float* w = w_row;
        for (int32_t kx = 0; kx < wa.kx_count; ++kx, xa += s.col, xb += s.col, w += s.c) {
          const float32x4_t wv = mve::vldrwq_z_f32(w, pred);
          acc_a = mve::vfmaq_f32(acc_a, mve::vldrwq_z_f32(xa, pred), wv);
          if (kPair) acc_b = mve::vfmaq_f32(acc_b, mve::vldrwq_z_f32(xb, pred), wv);
        }
      }
      if (kClamp) acc_a = mve::clamp_lanes(acc_a, lo, hi);
      mve::vstrwq_p_f32(out_a + c, acc_a, pred);
      if (kPair) {
        if (kClamp) acc_b = mve::clamp_lanes(acc_b, lo, hi);
        mve::vstrwq_p_f32(out_b + c, acc_b, pred);
      }
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
