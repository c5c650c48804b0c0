// Reference float32 GELU (gelu.h) and the int8 table built from it.
#include <math.h>

#include "gelu/gelu.h"
#include "kernel_util.h"

namespace mote {

float gelu_f32_value(bool approximate, float x) {
  if (approximate) {
    const float inner = 0.7978845608028654f * (x + 0.044715f * x * x * x);  // sqrt(2 / pi)
    return 0.5f * x * (1.0f + tanhf(inner));
  }
  return 0.5f * x * (1.0f + erff(x * 0.7071067811865476f));  // 1 / sqrt(2)
}

void gelu_f32(const GeluF32Params& params, uint32_t count, const float* input, float* output) {
  const bool approximate = params.approximate != 0;
  for (uint32_t i = 0; i < count; ++i) output[i] = gelu_f32_value(approximate, input[i]);
}

void gelu_s8_table(bool approximate, float input_scale, int32_t input_zero_point, float output_scale,
                   int32_t output_zero_point, int8_t table[256]) {
  for (int32_t v = -128; v <= 127; ++v) {
    const float x = input_scale * static_cast<float>(v - input_zero_point);
    const double q = round(static_cast<double>(gelu_f32_value(approximate, x)) / output_scale) + output_zero_point;
    table[v + 128] = static_cast<int8_t>(q < -128.0 ? -128.0 : (q > 127.0 ? 127.0 : q));
  }
}

Status gelu_f32_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 1, 1, 1));
  if (ctx.params_bytes() != sizeof(GeluF32Params)) return Status::kBadParams;
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  if (!is_f32(in) || !is_f32(out) || !same_shape(in, out)) return Status::kBadParams;
  const int32_t approximate = ctx.params<GeluF32Params>().approximate;
  return approximate == 0 || approximate == 1 ? Status::kOk : Status::kBadParams;
}

void gelu_f32_run(const OpContext& ctx) {
  gelu_f32(ctx.params<GeluF32Params>(), element_count(ctx.input_desc(0)),
           static_cast<const float*>(ctx.input_data(0)), static_cast<float*>(ctx.output_data(0)));
}

const KernelEntry kGeluF32Entry = {gelu_f32_check, gelu_f32_run};

}  // namespace mote
