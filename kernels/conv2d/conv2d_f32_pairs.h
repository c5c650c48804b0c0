// What the float32 convolution variants that take output pixels two at a time share (the
// FPU and Helium ones): the walk over pixel pairs with the activation chosen once per op,
// the check (groups == 1 on top of the reference's) and the run glue.
#pragma once

#include "conv2d/conv2d.h"
#include "kernel_util.h"
#include "pixel_pairs.h"

namespace mote {

// Every output of the op through Block::pixels<kPair, kClamp>(params, runs, out_c, wa,
// origin_b, filter, bias, out_a, out_b), which computes every output channel of pixel a
// (and of the next pixel, whose window starts at origin_b, when kPair).
template <typename Block>
void conv2d_f32_by_pixel_pairs(const Conv2dParams& params, const Conv2dShape& shape, const float* input,
                               const float* filter, const float* bias, float* output) {
  const bool clamp = !float_act_is_identity(params.act_min, params.act_max);
  const int32_t out_c = shape.out_c;
  for_pixel_pairs(params.window, shape, input, [&](const PixelWindow& wa, const float* origin_b, int32_t p) {
    const WindowRuns runs = window_runs(params.window, shape, wa);
    float* out_a = output + p * out_c;
    float* out_b = out_a + out_c;
    if (origin_b != nullptr) {
      if (clamp) {
        Block::template pixels<true, true>(params, runs, out_c, wa, origin_b, filter, bias, out_a, out_b);
      } else {
        Block::template pixels<true, false>(params, runs, out_c, wa, origin_b, filter, bias, out_a, out_b);
      }
    } else if (clamp) {
      Block::template pixels<false, true>(params, runs, out_c, wa, nullptr, filter, bias, out_a, nullptr);
    } else {
      Block::template pixels<false, false>(params, runs, out_c, wa, nullptr, filter, bias, out_a, nullptr);
    }
  });
}

// The reference's check and groups == 1.
inline Status conv2d_f32_ungrouped_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(conv2d_f32_check(ctx));
  if (ctx.params<Conv2dParams>().groups != 1) return Status::kBadParams;
  return Status::kOk;
}

// Runs kernel (a function of conv2d_f32's signature) on the op.
template <void (*kernel)(const Conv2dParams&, const Conv2dShape&, const float*, const float*, const float*, float*)>
void conv2d_f32_run_op(const OpContext& ctx) {
  const Conv2dShape shape = window_shape(ctx.input_desc(0), ctx.input_desc(1), ctx.output_desc(0));
  const float* bias = ctx.input_count() == 3 ? static_cast<const float*>(ctx.input_data(2)) : nullptr;
  kernel(ctx.params<Conv2dParams>(), shape, static_cast<const float*>(ctx.input_data(0)),
         static_cast<const float*>(ctx.input_data(1)), bias, static_cast<float*>(ctx.output_data(0)));
}

}  // namespace mote
