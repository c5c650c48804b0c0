// Softmax over the last axis: out[i] = exp(beta * (x[i] - max)) / sum_j exp(beta * (x[j] - max)).
//   input 0 [..., D], output 0 same shape. (The compiler moves another axis last with a
//   transpose, or reshapes when the ONNX-13 "axis" semantics allow.)
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

struct SoftmaxParams {
  float beta;
};

void softmax_f32(const SoftmaxParams& params, uint32_t outer, uint32_t depth, const float* input,
                 float* output);

Status softmax_f32_check(const OpContext& ctx);
void softmax_f32_run(const OpContext& ctx);
extern const KernelEntry kSoftmaxF32Entry;

}  // namespace mote
