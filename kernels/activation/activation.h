// Unary activations, elementwise, output shape == input shape (may run in place).
//   clamp:   out = min(max(x, min), max)   (ReLU: [0, inf], ReLU6: [0, 6], Clip)
//   sigmoid: out = 1 / (1 + exp(-x))
//   tanh:    out = tanh(x)
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

struct ClampParams {
  float min, max;
};

void clamp_f32(const ClampParams& params, uint32_t count, const float* input, float* output);
void sigmoid_f32(uint32_t count, const float* input, float* output);
void tanh_f32(uint32_t count, const float* input, float* output);

Status clamp_f32_check(const OpContext& ctx);
Status unary_f32_check(const OpContext& ctx);  // sigmoid, tanh: no params
void clamp_f32_run(const OpContext& ctx);
void sigmoid_f32_run(const OpContext& ctx);
void tanh_f32_run(const OpContext& ctx);
extern const KernelEntry kClampF32Entry;
extern const KernelEntry kSigmoidF32Entry;
extern const KernelEntry kTanhF32Entry;

}  // namespace mote
