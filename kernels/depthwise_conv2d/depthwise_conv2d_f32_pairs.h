// What the float32 depthwise variants that take output pixels two at a time share (the
// FPU and Helium ones): the input steps of a window, the walk over pixel pairs with the
// activation chosen once per op, the check (depth multiplier 1 on top of the reference's)
// and the run glue.
#pragma once

#include "depthwise_conv2d/depthwise_conv2d.h"
#include "kernel_util.h"
#include "pixel_pairs.h"

namespace mote {

struct DepthwiseSteps {
  int32_t row;         // input values between window rows (dilation_h rows)
  int32_t col;         // input values between window columns (dilation_w pixels)
  int32_t filter_row;  // filter values per filter row (KW * C)
  int32_t c;           // channels (filter values per tap)
};

// Every output of the op through Block::pixels<kPair, kClamp>(params, steps, wa,
// origin_b, filter, bias, out_a, out_b), which computes every channel of pixel a (and of
// the next pixel, whose window starts at origin_b, when kPair).
template <typename Block>
void depthwise_conv2d_f32_by_pixel_pairs(const DepthwiseConv2dParams& params, const DepthwiseConv2dShape& shape,
                                         const float* input, const float* filter, const float* bias, float* output) {
  const WindowGeometry& g = params.window;
  DepthwiseSteps s;
  s.row = g.dilation_h * shape.in_w * shape.in_c;
  s.col = g.dilation_w * shape.in_c;
  s.filter_row = shape.kernel_w * shape.in_c;
  s.c = shape.in_c;
  const bool clamp = !float_act_is_identity(params.act_min, params.act_max);
  const int32_t out_c = shape.out_c;
  for_pixel_pairs(g, shape, input, [&](const PixelWindow& wa, const float* origin_b, int32_t p) {
    float* out_a = output + p * out_c;
    float* out_b = out_a + out_c;
    if (origin_b != nullptr) {
      if (clamp) {
        Block::template pixels<true, true>(params, s, wa, origin_b, filter, bias, out_a, out_b);
      } else {
        Block::template pixels<true, false>(params, s, wa, origin_b, filter, bias, out_a, out_b);
      }
    } else if (clamp) {
      Block::template pixels<false, true>(params, s, wa, nullptr, filter, bias, out_a, nullptr);
    } else {
      Block::template pixels<false, false>(params, s, wa, nullptr, filter, bias, out_a, nullptr);
    }
  });
}

// The reference's check and depth multiplier 1.
inline Status depthwise_conv2d_f32_multiplier_1_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(depthwise_conv2d_f32_check(ctx));
  if (ctx.params<DepthwiseConv2dParams>().depth_multiplier != 1) return Status::kBadParams;
  return Status::kOk;
}

// Runs kernel (a function of depthwise_conv2d_f32's signature) on the op.
template <void (*kernel)(const DepthwiseConv2dParams&, const DepthwiseConv2dShape&, const float*, const float*,
                         const float*, float*)>
void depthwise_conv2d_f32_run_op(const OpContext& ctx) {
  const DepthwiseConv2dShape shape = window_shape(ctx.input_desc(0), ctx.input_desc(1), ctx.output_desc(0));
  const float* bias = ctx.input_count() == 3 ? static_cast<const float*>(ctx.input_data(2)) : nullptr;
  kernel(ctx.params<DepthwiseConv2dParams>(), shape, static_cast<const float*>(ctx.input_data(0)),
         static_cast<const float*>(ctx.input_data(1)), bias, static_cast<float*>(ctx.output_data(0)));
}

}  // namespace mote
