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

// ---------------------------------------------------------------------------------------
// int8 in, int8 out (TFLite SOFTMAX, reference_ops::Softmax<int8_t, int8_t>): the gemmlowp
// fixed-point path, not a lookup table (TFLM's reference kernel builds LUTs only for
// int16 input). The output has scale 1/256 and zero point -128 (TFLite requires it).
// Per row of the last axis, with max = the row's largest input:
//   diff = x - max (<= 0); only elements with diff >= diff_min contribute (others give -128)
//   e(x) = exp_on_negative_values<5>(saturating_rounding_doubling_high_mul(
//              diff * 2^input_left_shift, input_multiplier))          (Q5.26 -> Q0.31)
//   sum  = sum of rounding_divide_by_pot(e, 12)                          (Q12.19)
//   recip, bits = TFLite GetReciprocal(sum, 12)  (one_over_one_plus_x_for_x_in_0_1)
//   out  = clamp(rounding_divide_by_pot(srdhm(recip, e), bits + 23) - 128, -128, 127)
// Params from softmax_s8_params(beta, input_scale, ..) (quant/quant_math.h).
// check(): input_left_shift in [0, 31], diff_min <= 0.
// TFLite aborts when bits + 23 > 31 (rows of 512 or more near-equal values); this kernel
// then divides by 2^31.
struct SoftmaxS8Params {
  int32_t input_multiplier;
  int32_t input_left_shift;
  int32_t diff_min;
};

void softmax_s8(const SoftmaxS8Params& params, uint32_t outer, uint32_t depth, const int8_t* input,
                int8_t* output);

Status softmax_s8_check(const OpContext& ctx);
void softmax_s8_run(const OpContext& ctx);
extern const KernelEntry kSoftmaxS8Entry;

}  // namespace mote
