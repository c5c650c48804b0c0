// Reference float32 hard swish, the float form of TFLite's reference_ops::HardSwish.
#include "activation/activation.h"
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

void hard_swish_f32_run(const OpContext& ctx) {
  hard_swish_f32(element_count(ctx.input_desc(0)), static_cast<const float*>(ctx.input_data(0)),
                 static_cast<float*>(ctx.output_data(0)));
}

// The float32 unary check (one float32 input, one output of its shape, no params).
const KernelEntry kHardSwishF32Entry = {unary_f32_check, hard_swish_f32_run};

}  // namespace mote
