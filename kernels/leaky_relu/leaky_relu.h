// Leaky ReLU (TFLite LEAKY_RELU).
//
// leaky_relu_f32 (LeakyReluF32Params): y = x > 0 ? x : x * alpha (reference_ops::LeakyRelu:
//   the comparison is strict, so -0 gives -0 * alpha and a NaN gives NaN). check(): one
//   float32 input, an output of its shape, alpha finite. May run in place.
//
// Quantized leaky ReLU, int8 and int16 (reference_ops::QuantizeLeakyRelu).
//   input 0, output 0: same shape, both int8 or both int16 (may run in place).
// For x = input - input_zero_point:
//   x >= 0: y = multiply_by_quantized_multiplier(x, identity_multiplier, identity_shift)
//   x <  0: y = multiply_by_quantized_multiplier(x, |alpha_multiplier|, alpha_shift),
//           negated when alpha_multiplier < 0 (a negative alpha, as TFLite handles it)
//   out = clamp(y + output_zero_point, type min, type max)
// The compiler fills the multipliers with leaky_relu_multipliers(input_scale, alpha,
// output_scale, ..) (quant/quant_math.h). check(): zero points in the type's range,
// shifts in [-31, 30], alpha_multiplier != INT32_MIN.
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

struct LeakyReluF32Params {
  float alpha;
};

void leaky_relu_f32(const LeakyReluF32Params& params, uint32_t count, const float* input, float* output);
Status leaky_relu_f32_check(const OpContext& ctx);
void leaky_relu_f32_run(const OpContext& ctx);
extern const KernelEntry kLeakyReluF32Entry;

struct LeakyReluQuantParams {
  int32_t input_zero_point;
  int32_t output_zero_point;
  int32_t identity_multiplier, identity_shift;
  int32_t alpha_multiplier, alpha_shift;
};

void leaky_relu_s8(const LeakyReluQuantParams& params, uint32_t count, const int8_t* input,
                   int8_t* output);
void leaky_relu_s16(const LeakyReluQuantParams& params, uint32_t count, const int16_t* input,
                    int16_t* output);

Status leaky_relu_s8_check(const OpContext& ctx);
Status leaky_relu_s16_check(const OpContext& ctx);
void leaky_relu_s8_run(const OpContext& ctx);
void leaky_relu_s16_run(const OpContext& ctx);
extern const KernelEntry kLeakyReluS8Entry;
extern const KernelEntry kLeakyReluS16Entry;

}  // namespace mote
