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

// TFLite's SaturatingRoundingMultiplyByPOTParam for exponent in [0, 30]: x * 2^exponent
// saturated to int32.
inline int32_t saturating_multiply_by_pot(int32_t x, int exponent) {
  return exponent == 0 ? x : saturating_left_shift(x, exponent);
}

// TFLite's SaturatingAddNonGemmlowp / SaturatingSub on int32: exact, saturated.
inline int32_t saturating_add(int32_t a, int32_t b) {
  const int64_t sum = static_cast<int64_t>(a) + b;
  return static_cast<int32_t>(sum > INT32_MAX ? INT32_MAX : (sum < INT32_MIN ? INT32_MIN : sum));
}
inline int32_t saturating_sub(int32_t a, int32_t b) {
  const int64_t diff = static_cast<int64_t>(a) - b;
  return static_cast<int32_t>(diff > INT32_MAX ? INT32_MAX : (diff < INT32_MIN ? INT32_MIN : diff));
}

// gemmlowp Rescale<kTo> of a Q(kFrom) value: a saturating left shift when kFrom > kTo,
// a rounding right shift when kFrom < kTo.
template <int kFrom, int kTo>
inline int32_t rescale(int32_t a) {
  if constexpr (kFrom > kTo) return saturating_left_shift(a, kFrom - kTo);
  if constexpr (kFrom < kTo) return rounding_divide_by_pot(a, kTo - kFrom);
  return a;
}

// TFLite's GetInvSqrtQuantizedMultiplierExp(input, kReverseShift = -1, ...)
// (kernels/internal/common.h): 1 / sqrt(input) as a multiplier and a left shift for
// multiply_by_quantized_multiplier, input >= 0; 0 and 1 give (INT32_MAX, 0). The input is
// brought into [2^27, 2^29) by pairs of bits (the shift keeps count, starting at 11), then
// five Newton-Raphson steps x = 1.5 x - (input / 2) x^3 in Q3 from x = 1, times sqrt(2)/2.
inline void inv_sqrt_multiplier_exp(int32_t input, int32_t* multiplier, int32_t* shift) {
  if (input <= 1) {
    *multiplier = INT32_MAX;
    *shift = 0;
    return;
  }
  int32_t right_shift = 11;
  while (input >= (1 << 29)) {
    input /= 4;
    ++right_shift;
  }
  const int32_t bit_pairs = (count_leading_zeros(static_cast<uint32_t>(input)) - 1) / 2 - 1;
  right_shift -= bit_pairs;
  input <<= 2 * bit_pairs;
  const int32_t half_input = rounding_divide_by_pot(input >> 1, 1);  // Q3
  const int32_t half_three = (1 << 28) + (1 << 27);                  // 1.5 in Q3
  int32_t x = 1 << 28;                                               // 1 in Q3
  for (int i = 0; i < 5; ++i) {
    const int32_t x3 = rescale<9, 3>(mul(mul(x, x), x));
    x = rescale<6, 3>(wrapping_sub(mul(half_three, x), mul(half_input, x3)));
  }
  x = mul(x, 1518500250);  // sqrt(2) / 2 in Q0
  if (right_shift < 0) {
    x = static_cast<int32_t>(static_cast<uint32_t>(x) << -right_shift);
    right_shift = 0;
  }
  *multiplier = x;
  *shift = -right_shift;
}

// TFLite's log_x_for_x_greater_than_or_equal_to_1 (kernels/internal/common.h): ln(x) for
// x >= 1 in Q(kInputIntegerBits), result in Q(kOutputIntegerBits). x = 2^k * r with r in
// [sqrt(1/2), sqrt(2)) chosen from two candidate normalisations (the one with r nearer 1),
// then ln(x) = k * ln 2 + a rational approximation of ln(r), accumulated in
// Q(kOutputIntegerBits + 1) and rescaled. x must be positive.
template <int kOutputIntegerBits, int kInputIntegerBits>
inline int32_t log_x_for_x_greater_than_or_equal_to_1(int32_t x) {
  constexpr int kAccumIntegerBits = kOutputIntegerBits + 1;
  constexpr int32_t kLog2 = 1488522236;          // ln 2, Q0
  constexpr int32_t kSqrtSqrtHalf = 1805811301;  // 0.5^(1/4)
  constexpr int32_t kSqrtHalf = 1518500250;      // 0.5^(1/2)
  constexpr int32_t kOneQuarter = 536870912;
  constexpr int32_t kAlphaN = 117049297;    // 11/240 * 2^(1/4)
  constexpr int32_t kAlphaD = 127690142;    // 1/20 * 2^(1/4)
  constexpr int32_t kAlphaI = 1057819769;   // 2 / 2^(1/4) - 2^(1/4)
  constexpr int32_t kAlphaF = 638450708;    // 1/4 * 2^(1/4)
  const int32_t shifted_quarter = rescale<0, kAccumIntegerBits>(kOneQuarter);

  // Candidate a: x normalised to [1/2, 1), times sqrt(1/2) and 2.
  const int z_a_headroom_plus_1 = count_leading_zeros(static_cast<uint32_t>(x));
  const int32_t r_a_tmp = saturating_multiply_by_pot(x, z_a_headroom_plus_1 - 1);
  const int32_t r_a = saturating_multiply_by_pot(mul(r_a_tmp, kSqrtHalf), 1);
  const int32_t z_a_pow_2_adj = saturating_add(
      saturating_multiply_by_pot(kInputIntegerBits - z_a_headroom_plus_1, 31 - kAccumIntegerBits),
      shifted_quarter);
  // Candidate b: x * sqrt(1/2) normalised.
  const int32_t z_b = mul(x, kSqrtHalf);
  const int z_b_headroom = count_leading_zeros(static_cast<uint32_t>(z_b)) - 1;
  const int32_t r_b = saturating_multiply_by_pot(x, z_b_headroom);
  const int32_t z_b_pow_2_adj = saturating_sub(
      saturating_multiply_by_pot(kInputIntegerBits - z_b_headroom, 31 - kAccumIntegerBits),
      shifted_quarter);

  const int32_t r = r_a < r_b ? r_a : r_b;
  const int32_t z_pow_2_adj = z_a_pow_2_adj > z_b_pow_2_adj ? z_a_pow_2_adj : z_b_pow_2_adj;

  const int32_t p = rounding_half_sum(r, kSqrtSqrtHalf);
  int32_t q = wrapping_sub(r, kSqrtSqrtHalf);
  q = wrapping_add(q, q);
  const int32_t common_sq = mul(q, q);
  const int32_t num = wrapping_add(mul(q, r), mul(mul(q, common_sq), kAlphaN));
  const int32_t denom_minus_one =
      wrapping_add(mul(p, wrapping_add(wrapping_add(kAlphaI, q), mul(kAlphaD, common_sq))), mul(kAlphaF, q));
  const int32_t recip_denom = one_over_one_plus_x_for_x_in_0_1(denom_minus_one);
  const int32_t num_scaled = rescale<0, kAccumIntegerBits>(num);
  return rescale<kAccumIntegerBits, kOutputIntegerBits>(
      wrapping_add(mul(z_pow_2_adj, kLog2), mul(num_scaled, recip_denom)));
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
