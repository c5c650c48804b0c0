// The fixed-point primitives against the independent 128-bit model, and the host-side
// parameter derivation against known TFLite values.
#include "quant/quant_math.h"

#include <gtest/gtest.h>
#include <math.h>

#include <random>
#include <vector>

#include "gemmlowp_ref.h"
#include "quant/fixed_point.h"
#include "quant_test_util.h"

namespace mote {
namespace quant_math_test {

using testing::ref_mbqm;
using testing::ref_mbqm64;
using testing::ref_rdbpot;
using testing::ref_srdhm;

std::vector<int32_t> edge_values() {
  return {INT32_MIN, INT32_MIN + 1, -(1 << 30) - 1, -(1 << 30), -65536, -32769, -256, -129,
          -128,      -3,            -2,             -1,         0,      1,      2,    3,
          127,       128,           255,            32767,      65535,  1 << 30, (1 << 30) + 1,
          INT32_MAX - 1, INT32_MAX};
}

TEST(QuantMath, SaturatingRoundingDoublingHighMulHandValues) {
  EXPECT_EQ(saturating_rounding_doubling_high_mul(INT32_MIN, INT32_MIN), INT32_MAX);
  EXPECT_EQ(saturating_rounding_doubling_high_mul(1 << 30, 1 << 30), 1 << 29);  // 0.5 * 0.5
  // 3 * 2^30 / 2^31 = 1.5 -> 2 (ties up); -1.5 -> -1 (ties up, toward +inf).
  EXPECT_EQ(saturating_rounding_doubling_high_mul(3, 1 << 30), 2);
  EXPECT_EQ(saturating_rounding_doubling_high_mul(-3, 1 << 30), -1);
  EXPECT_EQ(saturating_rounding_doubling_high_mul(-1, 1 << 30), 0);  // -0.5 -> 0
  EXPECT_EQ(saturating_rounding_doubling_high_mul(1, 1 << 30), 1);   // 0.5 -> 1
  EXPECT_EQ(saturating_rounding_doubling_high_mul(INT32_MAX, INT32_MAX), INT32_MAX - 1);
}

TEST(QuantMath, RoundingDivideByPotHandValues) {
  EXPECT_EQ(rounding_divide_by_pot(5, 1), 3);    // 2.5 -> 3
  EXPECT_EQ(rounding_divide_by_pot(-5, 1), -3);  // -2.5 -> -3 (away from zero)
  EXPECT_EQ(rounding_divide_by_pot(-6, 2), -2);  // -1.5 -> -2
  EXPECT_EQ(rounding_divide_by_pot(-5, 2), -1);  // -1.25 -> -1
  EXPECT_EQ(rounding_divide_by_pot(7, 0), 7);
  EXPECT_EQ(rounding_divide_by_pot(INT32_MAX, 31), 1);
  EXPECT_EQ(rounding_divide_by_pot(INT32_MIN, 31), -1);
  EXPECT_EQ(rounding_divide_by_pot(-(1 << 30), 31), -1);  // -0.5 -> -1
  EXPECT_EQ(rounding_divide_by_pot((1 << 30) - 1, 31), 0);
}

TEST(QuantMath, PrimitivesMatchModelOnEdgesAndRandom) {
  std::vector<int32_t> values = edge_values();
  std::mt19937 rng(7);
  std::uniform_int_distribution<int32_t> any(INT32_MIN, INT32_MAX);
  for (int i = 0; i < 200; ++i) values.push_back(any(rng));
  for (int32_t a : values) {
    for (int32_t b : values) {
      ASSERT_EQ(saturating_rounding_doubling_high_mul(a, b), ref_srdhm(a, b)) << a << " " << b;
    }
    for (int e = 0; e <= 31; ++e) {
      ASSERT_EQ(rounding_divide_by_pot(a, e), ref_rdbpot(a, e)) << a << " >> " << e;
    }
  }
}

TEST(QuantMath, MultiplyByQuantizedMultiplierMatchesModel) {
  std::mt19937 rng(11);
  std::uniform_int_distribution<int32_t> any(INT32_MIN, INT32_MAX);
  std::uniform_int_distribution<int32_t> small(-70000, 70000);
  std::uniform_int_distribution<int32_t> mult(1 << 30, INT32_MAX);
  const std::vector<int32_t> edges = edge_values();
  for (int32_t shift = kMinShift; shift <= kMaxShift; ++shift) {
    for (int i = 0; i < 400; ++i) {
      const int32_t x = i < 100 ? small(rng) : (i < 125 ? edges[i - 100] : any(rng));
      const int32_t m = i % 7 == 0 ? edges[i % edges.size()] : mult(rng);
      ASSERT_EQ(multiply_by_quantized_multiplier(x, m, shift), ref_mbqm(x, m, shift))
          << x << " " << m << " " << shift;
    }
  }
}

TEST(QuantMath, MultiplyByQuantizedMultiplierHandValues) {
  // 0.5 * 2^-1: 100 -> 25; 0.5 as (2^30, 0): 3 -> 2 (1.5 rounds up), -3 -> -1.
  EXPECT_EQ(multiply_by_quantized_multiplier(100, 1 << 30, -1), 25);
  EXPECT_EQ(multiply_by_quantized_multiplier(3, 1 << 30, 0), 2);
  EXPECT_EQ(multiply_by_quantized_multiplier(-3, 1 << 30, 0), -1);
  // Double rounding: 0.75 * 5 / 2 = 1.875 -> srdhm(5, 0.75) = round(3.75) = 4, then
  // 4 / 2 = 2. One rounding would give 2 as well; 0.75*7/2 = 2.625: srdhm 5.25 -> 5,
  // 5/2 = 2.5 -> 3.
  EXPECT_EQ(multiply_by_quantized_multiplier(7, 3 << 29, -1), 3);
  // A multiplier above one: 2^30 with shift 2 is 2.0.
  EXPECT_EQ(multiply_by_quantized_multiplier(-21, 1 << 30, 2), -42);
}

TEST(QuantMath, MultiplyByQuantizedMultiplier64MatchesModel) {
  std::mt19937_64 rng(13);
  std::uniform_int_distribution<int64_t> acc(-(int64_t{1} << 47), (int64_t{1} << 47) - 1);
  std::uniform_int_distribution<int64_t> small(-(int64_t{1} << 24), int64_t{1} << 24);
  std::uniform_int_distribution<int32_t> mult(1 << 30, INT32_MAX);
  const int32_t special[] = {0x7FFEFFFF, 0x7FFF0000, 0x7FFF8000, INT32_MAX, 1 << 30,
                             (1 << 30) + (1 << 15) - 1, (1 << 30) + (1 << 15)};
  for (int32_t shift = kMinShift; shift <= kMaxShift64; ++shift) {
    for (int i = 0; i < 300; ++i) {
      const int64_t x = i % 2 == 0 ? acc(rng) : small(rng);
      const int32_t m = i % 5 == 0 ? special[i % 7] : mult(rng);
      ASSERT_EQ(multiply_by_quantized_multiplier64(x, m, shift), ref_mbqm64(x, m, shift))
          << x << " " << m << " " << shift;
    }
  }
  // Hand value: multiplier 2^30 reduces to 2^14; shift -1: total 16;
  // x * 2^14 / 2^16 = x / 4, ties up: 6 -> 1.5 -> 2, -6 -> -1.5 -> -1.
  EXPECT_EQ(multiply_by_quantized_multiplier64(6, 1 << 30, -1), 2);
  EXPECT_EQ(multiply_by_quantized_multiplier64(-6, 1 << 30, -1), -1);
  // Multipliers from 0x7FFF0000 up reduce to 0x7FFF instead of overflowing to 0x8000.
  EXPECT_EQ(multiply_by_quantized_multiplier64(1 << 16, INT32_MAX, 0), 0x7FFF * 2);
}

TEST(QuantMath, SaturatingLeftShiftAndLeadingZeros) {
  EXPECT_EQ(saturating_left_shift(3, 2), 12);
  EXPECT_EQ(saturating_left_shift(1 << 29, 2), INT32_MAX);
  EXPECT_EQ(saturating_left_shift(-(1 << 29), 2), INT32_MIN);
  EXPECT_EQ(saturating_left_shift((1 << 29) - 1, 2), ((1 << 29) - 1) * 4);
  EXPECT_EQ(count_leading_zeros(0), 32);
  EXPECT_EQ(count_leading_zeros(1), 31);
  EXPECT_EQ(count_leading_zeros(0x80000000u), 0);
  EXPECT_EQ(count_leading_zeros(1u << 20), 11);
}

// ---- Host side ------------------------------------------------------------------------

struct QmCase {
  double real;
  int32_t multiplier;
  int32_t shift;
};

TEST(QuantizeMultiplier, KnownTfliteValues) {
  const QmCase cases[] = {
      {0.0, 0, 0},
      {0.5, 1 << 30, 0},
      {0.25, 1 << 30, -1},
      {1.0, 1 << 30, 1},
      {2.0, 1 << 30, 2},
      {0.75, 3 << 29, 0},
      {-0.5, -(1 << 30), 0},
      {ldexp(1.0, -32), 1 << 30, -31},  // smallest kept
      {ldexp(1.0, -33), 0, 0},          // flushed to zero
      {ldexp(1.0, 40), 1 << 30, 41},    // not capped at 30 (double rounding build)
      // Just below 1: q * 2^31 rounds up to 2^31, so TFLite halves it and bumps the shift.
      {1.0 - ldexp(1.0, -33), 1 << 30, 1},
      {0.5 - ldexp(1.0, -34), 1 << 30, 0},
      // Just far enough below 1 not to round up.
      {1.0 - ldexp(1.0, -31), INT32_MAX, 0},
      // Rounding of the fraction: 0.6 * 2^31 = 1288490188.8 -> 1288490189.
      {0.6, 1288490189, 0},
      {0.1, 1717986918, -3},
  };
  for (const QmCase& c : cases) {
    int32_t m = -1;
    int32_t s = -1;
    quantize_multiplier(c.real, &m, &s);
    EXPECT_EQ(m, c.multiplier) << c.real;
    EXPECT_EQ(s, c.shift) << c.real;
  }
}

TEST(QuantizeMultiplier, RoundTripsWithinHalfAnUlp) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> mantissa(0.5, 1.0);
  std::uniform_int_distribution<int> exponent(-30, 20);
  for (int i = 0; i < 5000; ++i) {
    const double real = ldexp(mantissa(rng), exponent(rng));
    int32_t m = 0;
    int32_t s = 0;
    quantize_multiplier(real, &m, &s);
    ASSERT_GE(m, 1 << 30);
    const double back = ldexp(static_cast<double>(m), s - 31);
    ASSERT_LE(fabs(back - real), ldexp(1.0, s - 32)) << real;
  }
}

TEST(QuantizeMultiplier, SmallerAndGreaterThanOneRefuseTheirOutsides) {
  int32_t m = 0;
  int32_t s = 0;
  EXPECT_TRUE(quantize_multiplier_smaller_than_one(0.3, &m, &s));
  EXPECT_LE(s, 0);
  EXPECT_FALSE(quantize_multiplier_smaller_than_one(1.0, &m, &s));
  EXPECT_FALSE(quantize_multiplier_smaller_than_one(0.0, &m, &s));
  EXPECT_TRUE(quantize_multiplier_greater_than_one(3.0, &m, &s));
  EXPECT_EQ(m, 3 << 29);
  EXPECT_EQ(s, 2);
  EXPECT_FALSE(quantize_multiplier_greater_than_one(1.0, &m, &s));
}

TEST(QuantHost, InputRadius) {
  // floor(31 * 2^26 / 2^20) and floor(15 * 2^27 / 2^20).
  EXPECT_EQ(calculate_input_radius(5, 20), 1984);
  EXPECT_EQ(calculate_input_radius(4, 20), 1920);
  EXPECT_EQ(calculate_input_radius(5, 31), 0);  // 31 * 2^26 / 2^31 = 0.97 -> 0
  EXPECT_EQ(calculate_input_radius(4, 23), 240);
}

TEST(QuantHost, ActivationRange) {
  int32_t lo = 0;
  int32_t hi = 0;
  ASSERT_TRUE(activation_range_quantized(FusedActivation::kNone, 0.1f, 5, -128, 127, &lo, &hi));
  EXPECT_EQ(lo, -128);
  EXPECT_EQ(hi, 127);
  ASSERT_TRUE(activation_range_quantized(FusedActivation::kRelu, 0.1f, -20, -128, 127, &lo, &hi));
  EXPECT_EQ(lo, -20);
  EXPECT_EQ(hi, 127);
  // 6 / 0.05 = 120 -> zp -100 + 120 = 20.
  ASSERT_TRUE(activation_range_quantized(FusedActivation::kRelu6, 0.05f, -100, -128, 127, &lo, &hi));
  EXPECT_EQ(lo, -100);
  EXPECT_EQ(hi, 20);
  // Clamped to the type: 6 / 0.01 = 600.
  ASSERT_TRUE(activation_range_quantized(FusedActivation::kRelu6, 0.01f, 0, -128, 127, &lo, &hi));
  EXPECT_EQ(hi, 127);
  ASSERT_TRUE(
      activation_range_quantized(FusedActivation::kReluN1To1, 0.25f, 3, -128, 127, &lo, &hi));
  EXPECT_EQ(lo, -1);
  EXPECT_EQ(hi, 7);
  // roundf(0.5 / 1) = 1 (half away from zero): RELU with zero point -128 and a bound that
  // quantizes exactly is just zp; an int16 range.
  ASSERT_TRUE(activation_range_quantized(FusedActivation::kRelu, 1e-3f, 0, -32768, 32767, &lo, &hi));
  EXPECT_EQ(lo, 0);
  EXPECT_EQ(hi, 32767);
  // A scale so small that 6 / scale overflows int32: TFLite fails.
  EXPECT_FALSE(activation_range_quantized(FusedActivation::kRelu6, 1e-12f, 0, -128, 127, &lo, &hi));
}

TEST(QuantHost, ConvAndFullyConnectedMultipliers) {
  int32_t m = 0;
  int32_t s = 0;
  conv_channel_multiplier(0.5f, 0.25f, 0.125f, &m, &s);  // 1.0
  EXPECT_EQ(m, 1 << 30);
  EXPECT_EQ(s, 1);
  // The per-channel form multiplies in double, the per-tensor FC form in float; each
  // matches its own formula, and the two do differ for some real scales.
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> scale(1e-4f, 1e-1f);
  int differing = 0;
  for (int i = 0; i < 200; ++i) {
    const float in = scale(rng), w = scale(rng) * 0.01f, out = scale(rng);
    int32_t m_double = 0, s_double = 0, m_float = 0, s_float = 0, m_expect = 0, s_expect = 0;
    conv_channel_multiplier(in, w, out, &m_double, &s_double);
    fully_connected_multiplier(in, w, out, &m_float, &s_float);
    quantize_multiplier(static_cast<double>(in * w) / static_cast<double>(out), &m_expect,
                        &s_expect);
    ASSERT_EQ(m_float, m_expect);
    ASSERT_EQ(s_float, s_expect);
    quantize_multiplier(static_cast<double>(in) * static_cast<double>(w) / static_cast<double>(out),
                        &m_expect, &s_expect);
    ASSERT_EQ(m_double, m_expect);
    ASSERT_EQ(s_double, s_expect);
    differing += m_double != m_float;
  }
  EXPECT_GT(differing, 0);
}

TEST(QuantHost, AddAndSubMultipliers) {
  AddSubMultipliers add{};
  ASSERT_TRUE(add_multipliers(0.5f, 0.25f, 1.0f, 20, &add));
  // in1 = 0.5 / 1.0 = 0.5 -> (2^30, 0); in2 = 0.25 -> (2^30, -1);
  // out = 1.0 / (2^20 * 1.0) = 2^-20 -> (2^30, -19).
  EXPECT_EQ(add.input1_multiplier, 1 << 30);
  EXPECT_EQ(add.input1_shift, 0);
  EXPECT_EQ(add.input2_multiplier, 1 << 30);
  EXPECT_EQ(add.input2_shift, -1);
  EXPECT_EQ(add.output_multiplier, 1 << 30);
  EXPECT_EQ(add.output_shift, -19);
  // SUB takes TFLite's double-precision multipliers, identical to ADD's.
  AddSubMultipliers sub{};
  const float s1 = 0.0009693716f, s2 = 8.709842e-06f, so = 0.0005941494f;
  ASSERT_TRUE(sub_multipliers(s1, s2, so, 15, &sub));
  ASSERT_TRUE(add_multipliers(s1, s2, so, 15, &add));
  int32_t m = 0, s = 0;
  quantize_multiplier(static_cast<double>(s2) / (2 * static_cast<double>(s1)), &m, &s);
  EXPECT_EQ(add.input2_multiplier, m);
  EXPECT_EQ(add.input2_shift, s);
  EXPECT_EQ(sub.input2_multiplier, add.input2_multiplier);
  EXPECT_EQ(sub.output_multiplier, add.output_multiplier);
  EXPECT_EQ(sub.output_shift, add.output_shift);
  // TFLM's float ratio would be lower in the last places: (1234894464, -7).
  EXPECT_EQ(add.input2_multiplier, 1234894487);
  EXPECT_EQ(add.input2_shift, -7);
  // Equal scales give an input multiplier of exactly 0.5.
  ASSERT_TRUE(add_multipliers(0.3f, 0.3f, 0.6f, 20, &add));
  EXPECT_EQ(add.input1_multiplier, 1 << 30);
  EXPECT_EQ(add.input1_shift, 0);
}

TEST(QuantHost, MeanMultiplierFoldsTheCount) {
  int32_t m = 0;
  int32_t s = 0;
  // Same scales: (2^30, 1); n = 4: k = 2 -> m = 2^32 / 4 = 2^30, shift = -1.
  mean_multiplier(0.5f, 0.5f, 4, &m, &s);
  EXPECT_EQ(m, 1 << 30);
  EXPECT_EQ(s, -1);
  // n = 3: k = 1 -> m = 2^31 / 3 = 715827882, shift 0.
  mean_multiplier(0.5f, 0.5f, 3, &m, &s);
  EXPECT_EQ(m, 715827882);
  EXPECT_EQ(s, 0);
  // n = 49 (7x7 global pool): k = 5 -> m = 2^35 / 49.
  mean_multiplier(0.5f, 0.5f, 49, &m, &s);
  EXPECT_EQ(m, static_cast<int32_t>((int64_t{1} << 35) / 49));
  EXPECT_EQ(s, 1 - 5);
  // k is capped at 31 + shift: a tiny ratio (shift -30) with n = 16 keeps k = 1.
  mean_multiplier(1.0f, static_cast<float>(ldexp(1.0, 31)), 16, &m, &s);
  EXPECT_EQ(s, -30 - 1);
  EXPECT_EQ(m, static_cast<int32_t>((int64_t{1} << 31) / 16));
}

TEST(QuantHost, SoftmaxParams) {
  int32_t m = 0, shift = 0, diff_min = 0;
  // beta 1, scale 1/16: real = 2^22 -> (2^30, 23); radius floor(31 * 2^26 / 2^23) = 248.
  ASSERT_TRUE(softmax_s8_params(1.0f, 0.0625f, &m, &shift, &diff_min));
  EXPECT_EQ(m, 1 << 30);
  EXPECT_EQ(shift, 23);
  EXPECT_EQ(diff_min, -248);
  // Capped at 2^31 - 1: shift 31, radius 0.
  ASSERT_TRUE(softmax_s8_params(1.0f, 100.0f, &m, &shift, &diff_min));
  EXPECT_EQ(m, INT32_MAX);
  EXPECT_EQ(shift, 31);
  EXPECT_EQ(diff_min, 0);
  // beta * scale * 2^26 <= 1: TFLite aborts.
  EXPECT_FALSE(softmax_s8_params(1.0f, 1e-9f, &m, &shift, &diff_min));
}

TEST(QuantHost, SigmoidTanhParams) {
  int32_t m = 0, shift = 0, radius = 0;
  // scale 1/16: 2^27 / 2^4 = 2^23 -> frexp (0.5, 24): m = 2^30, shift 24,
  // radius floor(15 * 2^27 / 2^24) = 120.
  ASSERT_TRUE(sigmoid_tanh_s8_params(0.0625f, &m, &shift, &radius));
  EXPECT_EQ(m, 1 << 30);
  EXPECT_EQ(shift, 24);
  EXPECT_EQ(radius, 120);
  ASSERT_TRUE(sigmoid_tanh_s8_params(0.1f, &m, &shift, &radius));
  int exponent = 0;
  const double q = frexp(0.1f * 134217728.0, &exponent);
  EXPECT_EQ(m, static_cast<int32_t>(round(q * 2147483648.0)));
  EXPECT_EQ(shift, exponent);
  EXPECT_FALSE(sigmoid_tanh_s8_params(1e-12f, &m, &shift, &radius));  // negative shift
}

TEST(QuantHost, LeakyReluMultipliers) {
  int32_t am = 0, as = 0, im = 0, is = 0;
  leaky_relu_multipliers(0.5f, 0.25f, 0.5f, &am, &as, &im, &is);
  EXPECT_EQ(am, 1 << 30);
  EXPECT_EQ(as, -1);
  EXPECT_EQ(im, 1 << 30);
  EXPECT_EQ(is, 1);
  leaky_relu_multipliers(0.5f, -0.25f, 0.5f, &am, &as, &im, &is);
  EXPECT_EQ(am, -(1 << 30));
  EXPECT_EQ(as, -1);
}

// ---- gemmlowp fixed point -------------------------------------------------------------

// gemmlowp's series keeps terms to x^4 around -1/8: about 22 correct bits, not 31.
TEST(FixedPoint, ExpOnNegativeValuesIsExpTo22Bits) {
  for (int32_t raw = 0; raw > -(31 << 26); raw -= 999983) {
    const double x = raw / static_cast<double>(1 << 26);  // Q5.26
    const double expected = exp(x) * 2147483648.0;
    EXPECT_NEAR(fixed_point::exp_on_negative_values<5>(raw), expected, 3e-7 * 2147483648.0) << x;
  }
  EXPECT_EQ(fixed_point::exp_on_negative_values<5>(0), INT32_MAX);
}

TEST(FixedPoint, ReciprocalAndTanhLogisticAccuracy) {
  for (int32_t raw = 0; raw < INT32_MAX - 4000000; raw += 4000000) {
    const double x = raw / 2147483648.0;
    EXPECT_NEAR(fixed_point::one_over_one_plus_x_for_x_in_0_1(raw) / 2147483648.0, 1 / (1 + x),
                3e-7);
    EXPECT_NEAR(fixed_point::one_minus_x_over_one_plus_x_for_x_in_0_1(raw) / 2147483648.0,
                (1 - x) / (1 + x), 3e-7);
  }
  for (int32_t raw = -(15 << 27); raw < (15 << 27); raw += 3333331) {
    const double x = raw / static_cast<double>(1 << 27);  // Q4.27
    EXPECT_NEAR(fixed_point::logistic_q4(raw) / 2147483648.0, 1 / (1 + exp(-x)), 3e-7) << x;
    EXPECT_NEAR(fixed_point::tanh_q4(raw) / 2147483648.0, tanh(x), 3e-7) << x;
  }
  EXPECT_EQ(fixed_point::logistic_q4(0), 1 << 30);
  EXPECT_EQ(fixed_point::tanh_q4(0), 0);
}

// gemmlowp checks each raw constant against FromDouble of its value in debug builds;
// so do we, for both transcriptions' literals.
TEST(FixedPoint, GemmlowpConstantsAreTheirDoubles) {
  using testing::gemmlowp_ref::Fx;
  EXPECT_EQ(Fx<0>::from_double(exp(-1.0 / 8.0)).raw, 1895147668);
  EXPECT_EQ(Fx<0>::from_double(1.0 / 3.0).raw, 715827883);
  EXPECT_EQ(Fx<2>::from_double(48.0 / 17.0).raw, 1515870810);
  EXPECT_EQ(Fx<2>::from_double(-32.0 / 17.0).raw, -1010580540);
  const int32_t barrel[] = {1672461947, 1302514674, 790015084, 290630308, 39332535, 720401, 242};
  for (int e = -2; e <= 4; ++e) {
    EXPECT_EQ(Fx<0>::from_double(exp(-pow(2.0, e))).raw, barrel[e + 2]) << e;
  }
}

TEST(FixedPoint, BothTranscriptionsAgreeEverywhere) {
  namespace ref = testing::gemmlowp_ref;
  std::mt19937 rng(17);
  std::uniform_int_distribution<int32_t> any(INT32_MIN, INT32_MAX);
  std::uniform_int_distribution<int32_t> q4(-(15 << 27), 15 << 27);
  for (int i = 0; i < 20000; ++i) {
    const int32_t neg = -static_cast<int32_t>(static_cast<uint32_t>(any(rng)) >> 1);
    ASSERT_EQ(fixed_point::exp_on_negative_values<5>(neg), ref::exp_on_negative_values(ref::Fx<5>{neg}).raw);
    ASSERT_EQ(fixed_point::exp_on_negative_values<4>(neg), ref::exp_on_negative_values(ref::Fx<4>{neg}).raw);
    const int32_t unit = static_cast<int32_t>(static_cast<uint32_t>(any(rng)) >> 1);
    ASSERT_EQ(fixed_point::one_over_one_plus_x_for_x_in_0_1(unit), ref::one_over_one_plus_x(ref::Fx<0>{unit}).raw);
    ASSERT_EQ(fixed_point::one_minus_x_over_one_plus_x_for_x_in_0_1(unit),
              ref::one_minus_x_over_one_plus_x(ref::Fx<0>{unit}).raw);
    const int32_t x = i % 2 == 0 ? q4(rng) : any(rng) / 2;
    ASSERT_EQ(fixed_point::logistic_q4(x), ref::logistic(ref::Fx<4>{x}).raw) << x;
    ASSERT_EQ(fixed_point::tanh_q4(x), ref::tanh(ref::Fx<4>{x}).raw) << x;
  }
}

}  // namespace quant_math_test
}  // namespace mote
