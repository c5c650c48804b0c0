// Reference float32 leaky ReLU, as TFLite's reference_ops::LeakyRelu.
#include <math.h>

#include "kernel_util.h"
#include "leaky_relu/leaky_relu.h"

namespace mote {

void leaky_relu_f32(const LeakyReluF32Params& params, uint32_t count, const float* input, float* output) {
  const float alpha = params.alpha;
  for (uint32_t i = 0; i < count; ++i) {
    const float x = input[i];
    output[i] = x > 0.0f ? x : x * alpha;
  }
}

Status leaky_relu_f32_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 1, 1, 1));
  if (ctx.params_bytes() != sizeof(LeakyReluF32Params)) return Status::kBadParams;
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  if (!is_f32(in) || !is_f32(out) || !same_shape(in, out)) return Status::kBadParams;
  if (!isfinite(ctx.params<LeakyReluF32Params>().alpha)) return Status::kBadParams;
  return Status::kOk;
}

void leaky_relu_f32_run(const OpContext& ctx) {
  leaky_relu_f32(ctx.params<LeakyReluF32Params>(), element_count(ctx.input_desc(0)),
                 static_cast<const float*>(ctx.input_data(0)), static_cast<float*>(ctx.output_data(0)));
}

const KernelEntry kLeakyReluF32Entry = {leaky_relu_f32_check, leaky_relu_f32_run};

}  // namespace mote
