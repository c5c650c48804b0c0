// TFLite's L2_NORMALIZATION as TensorFlow Lite Micro's l2norm.cc runs it: every vector
// along the last axis divided by its L2 norm.
//   input 0   [d0 .. d(r-1)], 1 <= r <= 4
//   output 0  the input's shape and dtype
// l2_normalization_f32 (no params; reference_ops::L2Normalization with epsilon 1e-6):
//   n = sqrtf(x0*x0 + x1*x1 + ...) summed in float from 0; out = x / max(n, 1e-6f).
// l2_normalization_s8 (L2NormalizationS8Params; reference_integer_ops::L2Normalization):
//   d = x - input_zero_point, acc = sum d*d (int32), (m, s) = inv_sqrt_multiplier_exp(acc)
//   (quant/fixed_point.h), out = clamp(mbqm(d, m, s + 7), -128, 127): the output is in
//   steps of 1/128 with zero point 0, which TFLite requires of the output tensor.
// check(): dtypes, equal shapes, rank 1..4, the zero point within int8.
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

struct L2NormalizationS8Params {
  int32_t input_zero_point;
};

Status l2_normalization_f32_check(const OpContext& ctx);
void l2_normalization_f32_run(const OpContext& ctx);
Status l2_normalization_s8_check(const OpContext& ctx);
void l2_normalization_s8_run(const OpContext& ctx);

extern const KernelEntry kL2NormalizationF32Entry;
extern const KernelEntry kL2NormalizationS8Entry;

}  // namespace mote
