// A second, independent transcription of gemmlowp's fixed-point exp / logistic / tanh /
// reciprocal (fixedpoint/fixedpoint.h) and TFLite's log_x_for_x_greater_than_or_equal_to_1,
// for the tests of the integer SOFTMAX, LOG_SOFTMAX, LOGISTIC and TANH kernels. Unlike kernels/quant/fixed_point.h it keeps gemmlowp's typed
// structure: a FixedPoint<IntegerBits> value class whose operator* changes the type,
// Rescale<> between types and constants given as doubles, and it builds on the 128-bit
// model in quant_test_util.h. Two transcriptions in different styles agreeing on every
// input is the check.
#pragma once

#include <math.h>
#include <stdint.h>

#include <limits>
#include <vector>

#include "quant_test_util.h"

namespace mote::testing::gemmlowp_ref {

template <int kIntegerBits>
struct Fx {
  static constexpr int kFractionalBits = 31 - kIntegerBits;
  int32_t raw;

  static Fx from_raw(int64_t r) { return Fx{static_cast<int32_t>(r)}; }
  // gemmlowp's constants are raw values; FromDouble is how they were derived, checked
  // here against the literals.
  static Fx from_double(double x) {
    const double scaled = round(x * static_cast<double>(int64_t{1} << kFractionalBits));
    const double clamped = scaled > 2147483647.0 ? 2147483647.0 : (scaled < -2147483648.0 ? -2147483648.0 : scaled);
    return Fx{static_cast<int32_t>(clamped)};
  }
  static Fx one() {
    return Fx{kIntegerBits == 0 ? INT32_MAX : static_cast<int32_t>(int64_t{1} << kFractionalBits)};
  }
  static Fx pot(int exponent) {  // 2^exponent, exactly representable
    return Fx{static_cast<int32_t>(int64_t{1} << (kFractionalBits + exponent))};
  }
};

template <int A, int B>
Fx<A + B> operator*(Fx<A> a, Fx<B> b) {
  return Fx<A + B>{ref_srdhm(a.raw, b.raw)};
}
template <int A>
Fx<A> operator+(Fx<A> a, Fx<A> b) {
  return Fx<A>{wrap32(static_cast<i128>(a.raw) + b.raw)};
}
template <int A>
Fx<A> operator-(Fx<A> a, Fx<A> b) {
  return Fx<A>{wrap32(static_cast<i128>(a.raw) - b.raw)};
}

// x * 2^e with saturation for e > 0, rounding half away from zero for e < 0.
inline int32_t multiply_by_pot(int32_t x, int e) {
  if (e == 0) return x;
  if (e < 0) return ref_rdbpot(x, -e);
  const i128 v = static_cast<i128>(x) * (static_cast<i128>(1) << e);
  return v > INT32_MAX ? INT32_MAX : (v < INT32_MIN ? INT32_MIN : static_cast<int32_t>(v));
}

template <int To, int From>
Fx<To> rescale(Fx<From> x) {
  return Fx<To>{multiply_by_pot(x.raw, From - To)};
}

inline Fx<0> exp_quarter_interval(Fx<0> a) {
  const Fx<0> constant_term{1895147668};
  const Fx<0> one_third{715827883};
  const Fx<0> x = a + Fx<0>::pot(-3);
  const Fx<0> x2 = x * x;
  const Fx<0> x3 = x2 * x;
  const Fx<0> x4 = x2 * x2;
  const Fx<0> x4_over_4{multiply_by_pot(x4.raw, -2)};
  const Fx<0> poly{multiply_by_pot((((x4_over_4 + x3) * one_third) + x2).raw, -1)};
  return constant_term + constant_term * (x + poly);
}

template <int kIntegerBits>
Fx<0> exp_on_negative_values(Fx<kIntegerBits> a) {
  using In = Fx<kIntegerBits>;
  const In one_quarter = In::pot(-2);
  const In mask{one_quarter.raw - 1};
  const In a_mod = In{a.raw & mask.raw} - one_quarter;
  Fx<0> result = exp_quarter_interval(rescale<0>(a_mod));
  const int32_t remainder = (a_mod - a).raw;
  const struct {
    int exponent;
    int32_t multiplier;
  } barrel[] = {{-2, 1672461947}, {-1, 1302514674}, {0, 790015084}, {1, 290630308},
                {2, 39332535},    {3, 720401},      {4, 242}};
  for (const auto& step : barrel) {
    if (kIntegerBits > step.exponent) {
      const int bit = In::kFractionalBits + step.exponent;
      if ((remainder >> bit) & 1) result = result * Fx<0>{step.multiplier};
    }
  }
  return a.raw == 0 ? Fx<0>::one() : result;
}

// Shared Newton-Raphson of one_over_one_plus_x / one_minus_x_over_one_plus_x.
inline Fx<2> newton_reciprocal(Fx<0> half_denominator) {
  const Fx<2> c48_17{1515870810};
  const Fx<2> cm32_17{-1010580540};
  Fx<2> x = c48_17 + half_denominator * cm32_17;
  for (int i = 0; i < 3; ++i) {
    const Fx<2> one_minus = Fx<2>::one() - half_denominator * x;
    x = x + rescale<2>(x * one_minus);
  }
  return x;
}

inline Fx<0> half_sum_with_one(Fx<0> a) {
  const int64_t sum = static_cast<int64_t>(a.raw) + INT32_MAX;
  return Fx<0>{static_cast<int32_t>((sum + (sum >= 0 ? 1 : -1)) / 2)};
}

inline Fx<0> one_over_one_plus_x(Fx<0> a) {
  const Fx<2> x = newton_reciprocal(half_sum_with_one(a));
  return rescale<0>(Fx<1>{x.raw});  // x / 2, then to Q0
}

inline Fx<0> one_minus_x_over_one_plus_x(Fx<0> a) {
  const Fx<2> x = newton_reciprocal(half_sum_with_one(a));
  return rescale<0>(x - Fx<2>::one());
}

inline Fx<0> logistic(Fx<4> a) {
  const Fx<4> abs_a{a.raw > 0 ? a.raw : wrap32(-static_cast<i128>(a.raw))};
  const Fx<0> positive = one_over_one_plus_x(exp_on_negative_values(Fx<4>{wrap32(-static_cast<i128>(abs_a.raw))}));
  if (a.raw == 0) return Fx<0>{1 << 30};
  return a.raw > 0 ? positive : Fx<0>::one() - positive;
}

inline Fx<0> tanh(Fx<4> a) {
  const int32_t n = a.raw < 0 ? a.raw : wrap32(-static_cast<i128>(a.raw));
  const Fx<0> t = one_minus_x_over_one_plus_x(exp_on_negative_values(Fx<5>{n}));
  if (a.raw == 0) return Fx<0>{0};
  return a.raw < 0 ? Fx<0>{wrap32(-static_cast<i128>(t.raw))} : t;
}

// ---- The int8 kernels on top, following TFLite's reference loops ----------------------

inline int8_t sigmoid_s8(int8_t input, int32_t zero_point, int32_t radius, int32_t multiplier,
                         int32_t left_shift) {
  const int32_t x = input - zero_point;
  if (x <= -radius) return -128;
  if (x >= radius) return 127;
  const Fx<0> y = logistic(Fx<4>{ref_mbqm(x, multiplier, left_shift)});
  return static_cast<int8_t>(ref_clamp(int64_t{ref_rdbpot(y.raw, 23)} - 128, -128, 127));
}

inline int8_t tanh_s8(int8_t input, int32_t zero_point, int32_t radius, int32_t multiplier,
                      int32_t left_shift) {
  const int32_t x = input - zero_point;
  if (x <= -radius) return -128;
  if (x >= radius) return 127;
  const Fx<0> y = tanh(Fx<4>{ref_mbqm(x, multiplier, left_shift)});
  return static_cast<int8_t>(ref_clamp(ref_rdbpot(y.raw, 24), -128, 127));
}

// One row of TFLite's softmax of int8 input, int8 or int16 output (OutT).
template <typename OutT>
std::vector<OutT> softmax_s8_to(const std::vector<int8_t>& row, int32_t multiplier, int32_t left_shift,
                                int32_t diff_min) {
  constexpr int64_t kOutMin = std::numeric_limits<OutT>::min(), kOutMax = std::numeric_limits<OutT>::max();
  int32_t max = -128;
  for (int8_t v : row) max = v > max ? v : max;
  auto exp_of = [&](int32_t diff) {
    const int32_t shifted = wrap32(static_cast<i128>(diff) * (static_cast<i128>(1) << left_shift));
    return exp_on_negative_values(Fx<5>{ref_srdhm(shifted, multiplier)});
  };
  Fx<12> sum{0};
  for (int8_t v : row) {
    const int32_t diff = v - max;
    if (diff >= diff_min) sum = sum + rescale<12>(exp_of(diff));
  }
  // GetReciprocal.
  int headroom = 0;
  while (headroom < 32 && ((static_cast<uint32_t>(sum.raw) << headroom) & 0x80000000u) == 0) {
    ++headroom;
  }
  const int bits_over_unit = 12 - headroom;
  const uint32_t normalized = headroom < 32 ? static_cast<uint32_t>(sum.raw) << headroom : 0;
  const Fx<0> scale = one_over_one_plus_x(Fx<0>{static_cast<int32_t>(normalized - 0x80000000u)});
  const int exponent = bits_over_unit + 31 - static_cast<int>(8 * sizeof(OutT));
  std::vector<OutT> out;
  for (int8_t v : row) {
    const int32_t diff = v - max;
    if (diff < diff_min) {
      out.push_back(static_cast<OutT>(kOutMin));
      continue;
    }
    const int32_t unsat = ref_rdbpot((scale * exp_of(diff)).raw, exponent);
    out.push_back(static_cast<OutT>(ref_clamp(int64_t{unsat} + kOutMin, kOutMin, kOutMax)));
  }
  return out;
}

// One row of TFLite's int8 softmax.
inline std::vector<int8_t> softmax_s8(const std::vector<int8_t>& row, int32_t multiplier,
                                      int32_t left_shift, int32_t diff_min) {
  return softmax_s8_to<int8_t>(row, multiplier, left_shift, diff_min);
}

// TFLite's log_x_for_x_greater_than_or_equal_to_1 (kernels/internal/common.h), typed.
inline int32_t saturate32(i128 v) { return v > INT32_MAX ? INT32_MAX : (v < INT32_MIN ? INT32_MIN : static_cast<int32_t>(v)); }

inline int leading_zeros(uint32_t x) {
  int n = 0;
  while (n < 32 && ((x << n) & 0x80000000u) == 0) ++n;
  return n;
}

template <int kOut, int kIn>
Fx<kOut> log_x_ge_1(Fx<kIn> input) {
  constexpr int kAccum = kOut + 1;
  using Acc = Fx<kAccum>;
  const Fx<0> log_2 = Fx<0>::from_double(log(2.0));
  const Fx<0> sqrt_sqrt_half = Fx<0>::from_double(sqrt(sqrt(0.5)));
  const Fx<0> sqrt_half = Fx<0>::from_double(sqrt(0.5));
  const Fx<0> one_quarter = Fx<0>::from_double(0.25);
  const Fx<0> alpha_n = Fx<0>::from_double(11.0 / 240.0 * sqrt(sqrt(2.0)));
  const Fx<0> alpha_d = Fx<0>::from_double(1.0 / 20.0 * sqrt(sqrt(2.0)));
  const Fx<0> alpha_i = Fx<0>::from_double(2.0 / sqrt(sqrt(2.0)) - sqrt(sqrt(2.0)));
  const Fx<0> alpha_f = Fx<0>::from_double(1.0 / 4.0 * sqrt(sqrt(2.0)));
  const Acc quarter = rescale<kAccum>(one_quarter);

  const Fx<0> z_a{input.raw};
  const int a_headroom_plus_1 = leading_zeros(static_cast<uint32_t>(z_a.raw));
  const Fx<0> r_a_tmp{multiply_by_pot(z_a.raw, a_headroom_plus_1 - 1)};
  const int32_t r_a = multiply_by_pot((r_a_tmp * sqrt_half).raw, 1);
  const Acc a_pow2{saturate32(static_cast<i128>(multiply_by_pot(kIn - a_headroom_plus_1, 31 - kAccum)) + quarter.raw)};
  const Fx<0> z_b = z_a * sqrt_half;
  const int b_headroom = leading_zeros(static_cast<uint32_t>(z_b.raw)) - 1;
  const int32_t r_b = multiply_by_pot(z_a.raw, b_headroom);
  const Acc b_pow2{saturate32(static_cast<i128>(multiply_by_pot(kIn - b_headroom, 31 - kAccum)) - quarter.raw)};

  const Fx<0> r{r_a < r_b ? r_a : r_b};
  const Acc pow2{a_pow2.raw > b_pow2.raw ? a_pow2.raw : b_pow2.raw};
  const int64_t half_sum = static_cast<int64_t>(r.raw) + sqrt_sqrt_half.raw;
  const Fx<0> p{static_cast<int32_t>((half_sum + (half_sum >= 0 ? 1 : -1)) / 2)};
  Fx<0> q = r - sqrt_sqrt_half;
  q = q + q;
  const Fx<0> common_sq = q * q;
  const Fx<0> num = q * r + q * common_sq * alpha_n;
  const Fx<0> denom_minus_one = p * (alpha_i + q + alpha_d * common_sq) + alpha_f * q;
  const Fx<0> recip = one_over_one_plus_x(denom_minus_one);
  const Acc num_scaled = rescale<kAccum>(num);
  return rescale<kOut>(pow2 * log_2 + num_scaled * recip);
}

// One row of TFLite's int8 LOG_SOFTMAX (reference_ops::LogSoftmaxQuantized).
inline std::vector<int8_t> log_softmax_s8(const std::vector<int8_t>& row, int32_t multiplier, int32_t left_shift,
                                          int32_t reverse_divisor, int32_t reverse_right_shift, int32_t diff_min) {
  int32_t max = -128;
  for (int8_t v : row) max = v > max ? v : max;
  Fx<12> sum{0};
  for (int8_t v : row) {
    const int32_t diff = v - max;
    if (diff >= diff_min) sum = sum + rescale<12>(exp_on_negative_values(Fx<5>{ref_mbqm(diff, multiplier, left_shift)}));
  }
  const Fx<5> log_sum = log_x_ge_1<5>(sum);
  const int32_t limit_from_log = ref_mbqm(wrap32(static_cast<i128>(log_sum.raw) + INT32_MIN), reverse_divisor,
                                          -reverse_right_shift);
  const int32_t limit = diff_min - 1 > limit_from_log ? diff_min - 1 : limit_from_log;
  std::vector<int8_t> out;
  for (int8_t v : row) {
    const int32_t diff = v - max;
    if (diff <= limit) {
      out.push_back(-128);
      continue;
    }
    const int32_t d = ref_mbqm(diff, multiplier, left_shift);
    const int64_t o = int64_t{ref_rdbpot(wrap32(static_cast<i128>(d) - log_sum.raw), 22)} + 127;
    out.push_back(static_cast<int8_t>(ref_clamp(o, -128, 127)));
  }
  return out;
}

}  // namespace mote::testing::gemmlowp_ref
