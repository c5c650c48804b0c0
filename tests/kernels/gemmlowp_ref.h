// A second, independent transcription of gemmlowp's fixed-point exp / logistic / tanh /
// reciprocal (fixedpoint/fixedpoint.h), for the tests of the integer SOFTMAX, LOGISTIC
// and TANH kernels. Unlike kernels/quant/fixed_point.h it keeps gemmlowp's typed
// structure: a FixedPoint<IntegerBits> value class whose operator* changes the type,
// Rescale<> between types and constants given as doubles, and it builds on the 128-bit
// model in quant_test_util.h. Two transcriptions in different styles agreeing on every
// input is the check.
#pragma once

#include <math.h>
#include <stdint.h>

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

// One row of TFLite's int8 softmax.
inline std::vector<int8_t> softmax_s8(const std::vector<int8_t>& row, int32_t multiplier,
                                      int32_t left_shift, int32_t diff_min) {
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
  const int exponent = bits_over_unit + 31 - 8;
  std::vector<int8_t> out;
  for (int8_t v : row) {
    const int32_t diff = v - max;
    if (diff < diff_min) {
      out.push_back(-128);
      continue;
    }
    const int32_t unsat = ref_rdbpot((scale * exp_of(diff)).raw, exponent);
    out.push_back(static_cast<int8_t>(ref_clamp(int64_t{unsat} - 128, -128, 127)));
  }
  return out;
}

}  // namespace mote::testing::gemmlowp_ref
