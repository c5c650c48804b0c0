// gemmlowp's fixed-point transcendental functions (fixedpoint/fixedpoint.h at commit
// 719139ce, the version TFLite Micro 90b983c2 downloads), on scalar int32 values, as
// used by TFLite's integer SOFTMAX, LOGISTIC and TANH reference kernels. Device side,
// integer only.
//
// A value "Qn" is an int32 with n integer bits and 31 - n fractional bits: raw / 2^(31-n).
// Q0 holds [-1, 1); its "one" is INT32_MAX. Products of a Qa and a Qb are
// saturating_rounding_doubling_high_mul results in Q(a+b); additions are plain (here
// wrapping) int32 additions, as in gemmlowp.
#pragma once

#include <stdint.h>

#include "quant/quant_math.h"

namespace mote {
namespace fixed_point {

inline int32_t mul(int32_t a, int32_t b) { return saturating_rounding_doubling_high_mul(a, b); }

// gemmlowp RoundingHalfSum: (a + b) / 2 rounded half away from zero, in 64 bits.
inline int32_t rounding_half_sum(int32_t a, int32_t b) {
  const int64_t sum = static_cast<int64_t>(a) + static_cast<int64_t>(b);
  const int64_t sign = sum >= 0 ? 1 : -1;
  return static_cast<int32_t>((sum + sign) / 2);
}

// exp(a) for a in [-1/4, 0), a and result in Q0: Taylor series around -1/8.
inline int32_t exp_on_interval_between_negative_one_quarter_and_0_excl(int32_t a) {
  constexpr int32_t kConstantTerm = 1895147668;    // exp(-1/8) in Q0
  constexpr int32_t kConstantOneThird = 715827883;  // 1/3 in Q0
  const int32_t x = wrapping_add(a, 1 << 28);       // a + 1/8
  const int32_t x2 = mul(x, x);
  const int32_t x3 = mul(x2, x);
  const int32_t x4 = mul(x2, x2);
  const int32_t x4_over_4 = rounding_divide_by_pot(x4, 2);
  const int32_t x4_over_24_plus_x3_over_6_plus_x2_over_2 = rounding_divide_by_pot(
      wrapping_add(mul(wrapping_add(x4_over_4, x3), kConstantOneThird), x2), 1);
  return wrapping_add(kConstantTerm,
                      mul(kConstantTerm, wrapping_add(x, x4_over_24_plus_x3_over_6_plus_x2_over_2)));
}

// exp(a) for a <= 0, a in Q(kIntegerBits) (kIntegerBits in [1, 5]), result in Q0.
// Splits a into a multiple of 1/4 and a remainder in [-1/4, 0): the remainder goes
// through the series above, each set bit of the multiple multiplies by a constant
// exp(-2^k). exp(0) is exactly INT32_MAX.
template <int kIntegerBits>
inline int32_t exp_on_negative_values(int32_t a) {
  static_assert(kIntegerBits >= 1 && kIntegerBits <= 5, "gemmlowp clamp path not needed");
  constexpr int kFractionalBits = 31 - kIntegerBits;
  constexpr int32_t kOneQuarter = int32_t{1} << (kFractionalBits - 2);
  constexpr int32_t kMask = kOneQuarter - 1;
  const int32_t a_mod_quarter_minus_one_quarter = wrapping_sub(a & kMask, kOneQuarter);
  // Rescale<0>: Q(kIntegerBits) -> Q0 is a saturating left shift by kIntegerBits.
  int32_t result = exp_on_interval_between_negative_one_quarter_and_0_excl(
      saturating_left_shift(a_mod_quarter_minus_one_quarter, kIntegerBits));
  const int32_t remainder = wrapping_sub(a_mod_quarter_minus_one_quarter, a);

  // exp(-2^exponent) in Q0, for exponent = -2 .. 4.
  constexpr int32_t kMultipliers[7] = {1672461947, 1302514674, 790015084, 290630308,
                                       39332535,   720401,     242};
  for (int exponent = -2; exponent <= 4; ++exponent) {
    if (kIntegerBits > exponent) {
      const int shift = kFractionalBits + exponent;
      if ((remainder & (int32_t{1} << shift)) != 0) {
        result = mul(result, kMultipliers[exponent + 2]);
      }
    }
  }
  return a == 0 ? INT32_MAX : result;
}

// Newton-Raphson iterations shared by the two functions below: x ~= 1 / half_denominator
// in Q2, with half_denominator = (1 + a) / 2 in Q0.
inline int32_t reciprocal_of_half_denominator_q2(int32_t half_denominator) {
  constexpr int32_t kConstant48Over17 = 1515870810;      // Q2
  constexpr int32_t kConstantNeg32Over17 = -1010580540;  // Q2
  constexpr int32_t kOneQ2 = int32_t{1} << 29;
  int32_t x = wrapping_add(kConstant48Over17, mul(half_denominator, kConstantNeg32Over17));
  for (int i = 0; i < 3; ++i) {
    const int32_t half_denominator_times_x = mul(half_denominator, x);
    const int32_t one_minus_half_denominator_times_x = wrapping_sub(kOneQ2, half_denominator_times_x);
    // Q2 * Q2 = Q4, rescaled to Q2: saturating left shift by 2.
    x = wrapping_add(x, saturating_left_shift(mul(x, one_minus_half_denominator_times_x), 2));
  }
  return x;
}

// 1 / (1 + a) for a in [0, 1), Q0 in and out.
inline int32_t one_over_one_plus_x_for_x_in_0_1(int32_t a) {
  const int32_t half_denominator = rounding_half_sum(a, INT32_MAX);
  const int32_t x = reciprocal_of_half_denominator_q2(half_denominator);
  // x / 2 (Q2 -> Q1 by reinterpretation), then Q1 -> Q0: saturating left shift by 1.
  return saturating_left_shift(x, 1);
}

// (1 - a) / (1 + a) for a in [0, 1), Q0 in and out.
inline int32_t one_minus_x_over_one_plus_x_for_x_in_0_1(int32_t a) {
  const int32_t half_denominator = rounding_half_sum(a, INT32_MAX);
  const int32_t x = reciprocal_of_half_denominator_q2(half_denominator);
  return saturating_left_shift(wrapping_sub(x, int32_t{1} << 29), 2);
}

// gemmlowp logistic(): 1 / (1 + exp(-a)) for a in Q4, result in Q0.
inline int32_t logistic_q4(int32_t a) {
  const int32_t abs_a = a > 0 ? a : wrapping_neg(a);
  const int32_t result_if_positive =
      one_over_one_plus_x_for_x_in_0_1(exp_on_negative_values<4>(wrapping_neg(abs_a)));
  if (a == 0) return int32_t{1} << 30;  // one half
  return a > 0 ? result_if_positive : wrapping_sub(INT32_MAX, result_if_positive);
}

// gemmlowp tanh(): a in Q4, result in Q0. exp(2 * -|a|) reads the Q4 raw value as Q5.
inline int32_t tanh_q4(int32_t a) {
  const int32_t neg_abs_a = a < 0 ? a : wrapping_neg(a);
  const int32_t t =
      one_minus_x_over_one_plus_x_for_x_in_0_1(exp_on_negative_values<5>(neg_abs_a));
  if (a == 0) return 0;
  return a < 0 ? wrapping_neg(t) : t;
}

// TFLite's GetInvSqrtQuantizedMultiplierExp(input, kReverseShift = -1): 1 / sqrt(input)
// as multiplier * 2^(shift - 31) for input >= 2 (multiplier INT32_MAX, shift 0 for
// input <= 1, as TFLite treats 0 and 1). The input is scaled by powers of 4 into
// [2^27, 2^29), then five Newton-Raphson steps x = 3/2 x - input/2 x^3 in Q3 (gemmlowp
// fixed point, starting at 1) and a final multiply by sqrt(2)/2. A negative shift
// moves into the multiplier (a wrapping left shift, as TFLite's int32 shift).
inline void inv_sqrt_quantized_multiplier_exp(int32_t input, int32_t* multiplier, int32_t* shift) {
  if (input <= 1) {
    *multiplier = INT32_MAX;
    *shift = 0;
    return;
  }
  int32_t right_shift = 11;
  while (input >= (int32_t{1} << 29)) {
    input /= 4;
    ++right_shift;
  }
  const int32_t left_shift_bit_pairs = (count_leading_zeros(static_cast<uint32_t>(input)) - 1) / 2 - 1;
  right_shift -= left_shift_bit_pairs;
  input <<= 2 * left_shift_bit_pairs;
  constexpr int32_t kOneQ3 = int32_t{1} << 28;
  constexpr int32_t kThreeHalvesQ3 = (int32_t{1} << 28) + (int32_t{1} << 27);
  constexpr int32_t kHalfSqrt2Q0 = 1518500250;
  const int32_t half_input = rounding_divide_by_pot(input >> 1, 1);  // Q3
  int32_t x = kOneQ3;
  for (int i = 0; i < 5; ++i) {
    const int32_t x3 = saturating_left_shift(mul(mul(x, x), x), 6);  // Q9 -> Q3
    x = saturating_left_shift(wrapping_sub(mul(kThreeHalvesQ3, x), mul(half_input, x3)), 3);  // Q6 -> Q3
  }
  x = mul(x, kHalfSqrt2Q0);
  if (right_shift < 0) {
    x = static_cast<int32_t>(static_cast<uint32_t>(x) << -right_shift);
    right_shift = 0;
  }
  *multiplier = x;
  *shift = -right_shift;
}

}  // namespace fixed_point
}  // namespace mote
