// Reference float32 ELU (TFLite reference_ops::Elu).
#include <math.h>

#include "activation/activation.h"
#include "elu/elu.h"
#include "kernel_util.h"

namespace mote {

void elu_f32(uint32_t count, const float* input, float* output) {
  for (uint32_t i = 0; i < count; ++i) {
    const float x = input[i];
    output[i] = x < 0.0f ? expm1f(x) : x;
  }
}

void elu_f32_run(const OpContext& ctx) {
  elu_f32(element_count(ctx.input_desc(0)), static_cast<const float*>(ctx.input_data(0)),
          static_cast<float*>(ctx.output_data(0)));
}

// The float32 unary check (one float32 input, one output of its shape, no params).
const KernelEntry kEluF32Entry = {unary_f32_check, elu_f32_run};

}  // namespace mote
