// Reference float32 transposed convolution, bit-exact with TFLite's float
// reference_ops::TransposeConv: the same products summed in the same order from 0.0f,
// then the bias, then the fused activation.
#include "transpose_conv/transpose_conv_gather.h"

namespace mote {

void transpose_conv_f32(const TransposeConvF32Params& params, const TransposeConvShape& shape,
                        const float* input, const float* filter, const float* bias, float* output) {
  transpose_conv_gather<float>(
      params, shape, input, filter, output, [](float acc, float x, float w) { return acc + x * w; },
      [&](float acc, int32_t oc) {
        if (bias != nullptr) acc += bias[oc];
        return clamp_value(acc, params.act_min, params.act_max);
      });
}

Status transpose_conv_f32_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 2, 3, 1));
  if (ctx.params_bytes() != sizeof(TransposeConvF32Params)) return Status::kBadParams;
  const TransposeConvF32Params& p = ctx.params<TransposeConvF32Params>();
  if (!is_f32(ctx.input_desc(0)) || !is_f32(ctx.input_desc(1)) || !is_f32(ctx.output_desc(0))) {
    return Status::kBadParams;
  }
  if (!transpose_conv_tensors_valid(ctx, p)) return Status::kBadParams;
  if (ctx.input_count() == 3 && ctx.has_input(2) && !is_f32(ctx.input_desc(2))) return Status::kBadParams;
  if (!valid_act_range(p.act_min, p.act_max)) return Status::kBadParams;
  return Status::kOk;
}

void transpose_conv_f32_run(const OpContext& ctx) {
  transpose_conv_f32(ctx.params<TransposeConvF32Params>(), window_shape(ctx.input_desc(0), ctx.input_desc(1), ctx.output_desc(0)),
                     static_cast<const float*>(ctx.input_data(0)), static_cast<const float*>(ctx.input_data(1)),
                     transpose_conv_bias<float>(ctx), static_cast<float*>(ctx.output_data(0)));
}

const KernelEntry kTransposeConvF32Entry = {transpose_conv_f32_check, transpose_conv_f32_run};

}  // namespace mote
