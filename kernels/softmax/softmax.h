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

// int8 in, int16 out (reference_ops::Softmax<int8_t, int16_t>, which TFLM runs): the
// int8 kernel's arithmetic and params with the output scale 1/65536, zero point -32768:
//   out = clamp(rounding_divide_by_pot(srdhm(recip, e), bits + 15) - 32768, int16)
// (elements below diff_min give -32768). Same checks as softmax_s8, output int16.
void softmax_s8_s16(const SoftmaxS8Params& params, uint32_t outer, uint32_t depth, const int8_t* input,
                    int16_t* output);
Status softmax_s8_s16_check(const OpContext& ctx);
void softmax_s8_s16_run(const OpContext& ctx);
extern const KernelEntry kSoftmaxS8S16Entry;

// ---------------------------------------------------------------------------------------
// int16 in, int16 out (reference_ops::SoftmaxInt16, as TFLM runs it): input zero point 0,
// output scale 1/32768 and zero point 0. Two 513-entry tables (TFLM's LUTPopulate<int16_t>
// of exp over [-10, 0] and of 1 / (1 + x) over [0, 1], the compiler computes them as TFLM's
// Prepare does, in float) are read with lut_lookup: index = 256 + (v >> 7), offset = v & 127,
// lut[index] + ((lut[index + 1] - lut[index]) * offset + 64) >> 7 (the difference and the
// result truncated to int16). Per row, with max = the row's largest input:
//   e[c]  = lut_lookup(exp_lut, sat16(mbqm(x[c] - max, input_multiplier, input_left_shift) + 32767))
//   sum   = sum of e[c]                                   (int32)
//   h     = clz(sum)   shifted = ((int64 sum << (h - 1)) + 2^13) >> 14
//   recip = lut_lookup(one_over_one_plus_x_lut, sat16(shifted - 3 * 2^15))
//   out   = clamp((int64 e[c] * recip + 2^(30 - h)) >> (31 - h), 0, 32767)
// The e[c] are kept in the output row between the two passes (no scratch), as TFLite.
// input_multiplier and input_left_shift: quantize_multiplier(input_scale * beta /
// (10 / 65535)). check(): params of exactly sizeof(SoftmaxS16Params), the shift in
// [kMinShift, kMaxShift], rows of 1 to kSoftmaxS16MaxDepth elements: every entry is at
// most 32767, so the sum stays below 2^31 (TFLM's tables give the row maximum 32767, so
// the sum is positive; for a corrupted table that makes it 0 or negative the kernel keeps
// h in [1, 30], its shifts defined, and only the values are wrong).
inline constexpr int32_t kSoftmaxS16LutSize = 513;
inline constexpr uint32_t kSoftmaxS16MaxDepth = 65536;
struct SoftmaxS16Params {
  int32_t input_multiplier;
  int32_t input_left_shift;
  int16_t exp_lut[kSoftmaxS16LutSize];
  int16_t one_over_one_plus_x_lut[kSoftmaxS16LutSize];
};
// TFLite's LUTLookup(value, lut) for a 513-entry table.
int16_t softmax_s16_lut_lookup(const int16_t* lut, int16_t value);
void softmax_s16(const SoftmaxS16Params& params, uint32_t outer, uint32_t depth, const int16_t* input,
                 int16_t* output);
Status softmax_s16_check(const OpContext& ctx);
void softmax_s16_run(const OpContext& ctx);
extern const KernelEntry kSoftmaxS16Entry;

}  // namespace mote
