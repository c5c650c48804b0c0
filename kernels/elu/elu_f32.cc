// Reference float32 ELU (TFLite reference_ops::Elu).
#include <math.h>

#include "elu/elu.h"
#include "kernel_util.h"

namespace mote {

void elu_f32(uint32_t count, const float* input, float* output) {
  for (uint32_t i = 0; i < count; ++i) {
    const float x = input[i];
    output[i] = x < 0.0f ? expm1f(x) : x;
  }
}

Status elu_f32_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 1, 1, 1));
  if (ctx.params_bytes() != 0) return Status::kBadParams;
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  if (!is_f32(in) || !is_f32(out) || !same_shape(in, out)) return Status::kBadParams;
  return Status::kOk;
}

void elu_f32_run(const OpContext& ctx) {
  elu_f32(element_count(ctx.input_desc(0)), static_cast<const float*>(ctx.input_data(0)),
          static_cast<float*>(ctx.output_data(0)));
}

const KernelEntry kEluF32Entry = {elu_f32_check, elu_f32_run};

}  // namespace mote
