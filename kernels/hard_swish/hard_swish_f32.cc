// Reference float32 hard swish, the float form of TFLite's reference_ops::HardSwish.
#include "hard_swish/hard_swish.h"
#include "kernel_util.h"

namespace mote {

void hard_swish_f32(uint32_t count, const float* input, float* output) {
  for (uint32_t i = 0; i < count; ++i) {
    const float x = input[i];
    const float shifted = x + 3.0f;
    // max(0, x + 3) then min(6, .): TFLite's order (a NaN input gives 0 here, then NaN).
    const float above_zero = 0.0f < shifted ? shifted : 0.0f;
    const float relu6 = above_zero < 6.0f ? above_zero : 6.0f;
    output[i] = x * relu6 / 6.0f;
  }
}

Status hard_swish_f32_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 1, 1, 1));
  if (ctx.params_bytes() != 0) return Status::kBadParams;
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  if (!is_f32(in) || !is_f32(out) || !same_shape(in, out)) return Status::kBadParams;
  return Status::kOk;
}

void hard_swish_f32_run(const OpContext& ctx) {
  hard_swish_f32(element_count(ctx.input_desc(0)), static_cast<const float*>(ctx.input_data(0)),
                 static_cast<float*>(ctx.output_data(0)));
}

const KernelEntry kHardSwishF32Entry = {hard_swish_f32_check, hard_swish_f32_run};

}  // namespace mote
