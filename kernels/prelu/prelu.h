// PReLU with a broadcast alpha (TFLite PRELU; TensorFlow Lite Micro's
// BroadcastPrelu4DSlowFloat and reference_ops::BroadcastPrelu4DSlow):
//   inputs:  0 x, 1 alpha    ranks <= 4, numpy (right-aligned) broadcast
//   output:  0               the broadcast shape (rank = max rank of x, alpha)
// float32: out = x >= 0 ? x : x * alpha.
// int8 (x, alpha, out int8) and int16 (x, out int16, alpha int8). With
// v = x - input_zero_point:
//   v >= 0: y = multiply_by_quantized_multiplier(v, identity_multiplier, identity_shift)
//   v <  0: y = multiply_by_quantized_multiplier(v * (alpha - alpha_zero_point),
//                                                alpha_multiplier, alpha_shift)
//   out = clamp(y + output_zero_point, type min, type max)
// The compiler fills the multipliers with prelu_multipliers() (quant/quant_math.h).
// check(): zero points in their types, shifts in [-31, 30]. Output element i is written
// after input elements at index i are read (may run over an input of the output's shape).
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

struct PreluQuantParams {
  int32_t input_zero_point;
  int32_t alpha_zero_point;
  int32_t output_zero_point;
  int32_t identity_multiplier, identity_shift;
  int32_t alpha_multiplier, alpha_shift;
};

Status prelu_f32_check(const OpContext& ctx);
Status prelu_s8_check(const OpContext& ctx);
Status prelu_s16_check(const OpContext& ctx);
void prelu_f32_run(const OpContext& ctx);
void prelu_s8_run(const OpContext& ctx);
void prelu_s16_run(const OpContext& ctx);
extern const KernelEntry kPreluF32Entry;
extern const KernelEntry kPreluS8Entry;
extern const KernelEntry kPreluS16Entry;

}  // namespace mote
