// QUANTIZE (float -> int8/int16), DEQUANTIZE and integer requantization against
// TFLite's AffineQuantize / Dequantize / Requantize arithmetic.
#include "quantize/quantize.h"

#include <gtest/gtest.h>
#include <math.h>
#include <string.h>

#include <random>
#include <vector>

#include "isa/fpu.h"
#include "isa/fpu_reciprocal.h"
#include "kernel_test_util.h"
#include "quant/quant_math.h"
#include "quant_test_util.h"

namespace mote {
namespace quantize_test {

using testing::TestOp;

template <typename T>
std::vector<T> run_quantize(const KernelEntry& entry, AffineQuantParams p, const std::vector<float>& x) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kFloat32, {static_cast<uint32_t>(x.size())});
  const uint32_t out = op.add_output(sizeof(T) == 1 ? DType::kInt8 : DType::kInt16,
                                     {static_cast<uint32_t>(x.size())});
  op.set_params(p);
  op.set_data(in, x);
  EXPECT_EQ(op.check(entry), Status::kOk);
  op.run(entry);
  return op.data<T>(out);
}

TEST(QuantizeF32S8, HandComputedRoundHalfAwayAndClamp) {
  // scale 0.5, zp -3: x / 0.5 = 2.5 -> 3, -2.5 -> -3 (half away from zero), then + zp.
  const auto q = run_quantize<int8_t>(kQuantizeF32S8Entry, {0.5f, -3},
                                      {1.25f, -1.25f, 0.0f, 100.0f, -100.0f, 62.0f, 1e30f, -1e30f});
  EXPECT_EQ(q, (std::vector<int8_t>{0, -6, -3, 127, -128, 121, 127, -128}));
}

TEST(QuantizeF32S8, NanAndInfinities) {
  const auto q = run_quantize<int8_t>(kQuantizeF32S8Entry, {0.1f, 7}, {NAN, INFINITY, -INFINITY});
  EXPECT_EQ(q, (std::vector<int8_t>{7, 127, -128}));
}

// The rounding avoids roundf (no VRINTA on Armv7E-M): ties, values that are whole
// floats, the ends of the exact-truncation range and values just below a tie all round as
// roundf does. scale 1 so the quotient is the input itself; int16 so the edges show.
TEST(QuantizeF32S16, RoundsTiesAndEdgesAsRoundf) {
  const std::vector<float> x = {0.5f,      -0.5f,     1.5f,        -1.5f,       2.5f,
                                0.49999997f, -0.49999997f, 8388608.0f, -8388607.0f, 8388607.5f,
                                32766.5f,  -32767.5f, 32767.49f,   -32768.49f,  65535.5f,
                                -65535.5f, 65536.0f,  -65536.0f,   1.0e-45f,    -0.0f};
  const auto q = run_quantize<int16_t>(kQuantizeF32S16Entry, {1.0f, 0}, x);
  for (size_t i = 0; i < x.size(); ++i) {
    const float r = roundf(x[i]);
    const int64_t want = r > 40000.0f ? 32767 : r < -40000.0f ? -32768 : static_cast<int64_t>(r);
    ASSERT_EQ(q[i], testing::ref_clamp(want, -32768, 32767)) << "x=" << x[i];
  }
    // Both rounding forms (the host runs the roundf one in the kernel) on the same values and
  // on every float whose quotient is within 2^17, stepping through the bit patterns.
  for (float v : x) {
    ASSERT_EQ(fpu::round_saturated_by_truncation(v), fpu::round_saturated_by_roundf(v)) << "v=" << v;
    ASSERT_EQ(fpu::round_saturated_by_truncation(-v), fpu::round_saturated_by_roundf(-v)) << "v=" << -v;
  }
  uint32_t compared = 0;
  for (uint32_t bits = 0; bits < 0x48000000u; bits += 997) {
    float v;
    memcpy(&v, &bits, sizeof v);
    for (float s : {v, -v}) {
      ASSERT_EQ(fpu::round_saturated_by_truncation(s), fpu::round_saturated_by_roundf(s)) << "v=" << s;
      ++compared;
    }
  }
  EXPECT_GT(compared, 2400000u);
  for (float s : {NAN, INFINITY, -INFINITY, 131072.0f, -1.0e30f, 65535.5f, -65535.5f, 65535.49f, 2147483648.0f,
                  -2147483648.0f, 3.0e9f}) {
    EXPECT_EQ(fpu::round_saturated_by_truncation(s), fpu::round_saturated_by_roundf(s)) << "v=" << s;
  }
  // The same ties through the zero point: 0.5 + zp 10 is 11, -0.5 + 10 is 9.
  EXPECT_EQ(run_quantize<int16_t>(kQuantizeF32S16Entry, {1.0f, 10}, {0.5f, -0.5f, 32766.5f}),
            (std::vector<int16_t>{11, 9, 32767}));
}

TEST(QuantizeF32, MatchesFloatFormula) {
  const auto x = testing::random_floats(2000, 5, -40.0f, 40.0f);
  const float scales[] = {0.003921569f, 0.1017157f, 0.5847029f, 0.0009051731f};
  for (float scale : scales) {
    for (int32_t zp : {-128, 0, 89, 127}) {
      const auto q = run_quantize<int8_t>(kQuantizeF32S8Entry, {scale, zp}, x);
      for (size_t i = 0; i < x.size(); ++i) {
        // TFLite: (int32)TfLiteRound(val / (float)scale) + zp in float.
        const float r = roundf(x[i] / scale);
        const double v = static_cast<double>(r) + zp;
        ASSERT_EQ(q[i], testing::ref_clamp(static_cast<int64_t>(std::max(-1e9, std::min(1e9, v))), -128, 127));
      }
      const auto q16 = run_quantize<int16_t>(kQuantizeF32S16Entry, {scale, zp * 200}, x);
      for (size_t i = 0; i < x.size(); ++i) {
        const double v = static_cast<double>(roundf(x[i] / scale)) + zp * 200;
        ASSERT_EQ(q16[i], testing::ref_clamp(static_cast<int64_t>(std::max(-1e9, std::min(1e9, v))),
                                             -32768, 32767));
      }
    }
  }
}

// The division-free rounding (isa/fpu_reciprocal.h): both forms equal round_saturated of
// the float quotient for every (x, scale) drawn: quotients at and a few ulp around
// half-integers (where the near-tie test must send them to the division), whole
// quotients, random bit patterns, and the edge values (zeros, denormals, NaN, infinities,
// the int8 / int16 / round_saturated saturation points). About 24 million pairs. The
// multiply form's int8 window (exact below 2^9) is held to its contract.
namespace {

std::vector<float> reciprocal_test_scales() {
  std::vector<float> scales = {1.0f / 255.0f, 0.0078125f, 0.003921569f, 0.1017157f, 0.5847029f, 0.0009051731f,
                               1.0f,          3.0f,       1.0e-6f,      1.0e3f,     1.0e-30f,   1.0e30f,
                               1.0e33f,       1.0e-33f};
  for (int k = 0; k <= 30; ++k) scales.push_back(ldexpf(1.0f, -k));
  std::mt19937 rng(2020);
  std::uniform_real_distribution<float> exponent(-6.0f, 3.0f);
  for (int i = 0; i < 120; ++i) scales.push_back(powf(10.0f, exponent(rng)));
  return scales;
}

}  // namespace

TEST(QuantizeReciprocal, BothFormsEqualTheDivision) {
  const std::vector<float> scales = reciprocal_test_scales();
  std::mt19937 rng(7);
  uint64_t compared = 0;
  for (float scale : scales) {
    const fpu::Reciprocal r = fpu::prepare_reciprocal(scale);
    ASSERT_TRUE(r.usable) << "scale=" << scale;
    const auto expect_exact = [&](float x) {
      const int32_t want = fpu::round_saturated_by_roundf(x / scale);
      ASSERT_EQ(fpu::divide_round_saturated_by_multiply(r, x), want) << "x=" << x << " scale=" << scale;
      ASSERT_EQ(fpu::divide_round_saturated_by_integer(r, x), want) << "x=" << x << " scale=" << scale;
      ASSERT_EQ(fpu::divide_round_saturated_by_integer(r, x, -77), want - 77) << "x=" << x;
      // The int8 window: exact below 2^9, beyond at least 511 in magnitude.
      const int32_t int8_form = fpu::divide_round_saturated_by_multiply<9>(r, x, 5) - 5;
      if (want >= -511 && want <= 511) {
        ASSERT_EQ(int8_form, want) << "x=" << x << " scale=" << scale;
      } else {
        ASSERT_TRUE(want > 0 ? int8_form >= 511 : int8_form <= -511) << "x=" << x << " scale=" << scale;
      }
      ++compared;
    };
    for (float x : {0.0f, -0.0f, 1.0e-45f, -1.0e-45f, 1.1754942e-38f, 1.17549435e-38f, NAN, -NAN, INFINITY,
                    -INFINITY, 3.40282347e38f, -3.40282347e38f}) {
      expect_exact(x);
    }
    for (float q : {127.5f, 128.0f, 383.5f, 384.0f, 511.5f, 512.0f, 32767.5f, 32768.0f, 65535.5f, 65536.0f,
                    65537.0f, 131071.5f, 1.0e6f}) {
      for (int d = -3; d <= 3; ++d) {
        const float x = fpu::float_from_bits(fpu::float_bits(q * scale) + d);
        expect_exact(x);
        expect_exact(-x);
      }
    }
    for (int i = 0; i < 20000; ++i) {
      // Half-integer quotients k + 0.5 (small k most often), then up to 4 ulp either side.
      const uint32_t range = i % 4 == 0 ? 140000u : (i % 4 == 1 ? 1100u : 64u);
      const float k = static_cast<float>(static_cast<int32_t>(rng() % range) - static_cast<int32_t>(range / 2));
      const float tie = (k + 0.5f) * scale;
      for (int d = -4; d <= 4; ++d) {
        const float x = fpu::float_from_bits(fpu::float_bits(tie) + d);
        expect_exact(x);
        expect_exact(-x);
      }
      expect_exact(k * scale);
      expect_exact(fpu::float_from_bits(rng()));
    }
  }
  EXPECT_GT(compared, 24000000u);
}

// Scales whose reciprocal forms leave the normal range fall back to the division.
TEST(QuantizeReciprocal, ExtremeScalesDivide) {
  EXPECT_FALSE(fpu::prepare_reciprocal(1.0e-39f).usable);
  EXPECT_FALSE(fpu::prepare_reciprocal(2.0e-38f).usable);
  EXPECT_FALSE(fpu::prepare_reciprocal(3.0e-34f).usable);
  EXPECT_FALSE(fpu::prepare_reciprocal(2.0e34f).usable);
  EXPECT_TRUE(fpu::prepare_reciprocal(4.0e-34f).usable);
  EXPECT_TRUE(fpu::prepare_reciprocal(1.0e34f).usable);
  const std::vector<float> x = {0.0f, 1.5e-39f, -1.5e-39f, 5.0e-40f, 1.0e-45f, 1.0f, NAN};
  const auto q = run_quantize<int8_t>(kQuantizeF32S8Entry, {1.0e-39f, 3}, x);
  for (size_t i = 0; i + 2 < x.size(); ++i) {
    EXPECT_EQ(q[i], testing::ref_clamp(static_cast<int64_t>(roundf(x[i] / 1.0e-39f)) + 3, -128, 127)) << x[i];
  }
  EXPECT_EQ(q[x.size() - 2], 127);  // 1 / 1e-39 overflows to infinity
  EXPECT_EQ(q.back(), 3);
}

// The kernels at near-tie inputs, against TFLite's formula, int8 and int16.
TEST(QuantizeF32, NearTiesMatchFloatFormula) {
  std::mt19937 rng(11);
  for (float scale : {1.0f / 255.0f, 0.0078125f, 0.02352941f, 0.000123f}) {
    std::vector<float> x;
    for (int i = 0; i < 4000; ++i) {
      const float k = static_cast<float>(static_cast<int32_t>(rng() % 900) - 450);
      x.push_back(fpu::float_from_bits(fpu::float_bits((k + 0.5f) * scale) + static_cast<int32_t>(rng() % 7) - 3));
    }
    for (int32_t zp : {-128, 0, 127}) {
      const auto q8 = run_quantize<int8_t>(kQuantizeF32S8Entry, {scale, zp}, x);
      const auto q16 = run_quantize<int16_t>(kQuantizeF32S16Entry, {scale, zp * 256}, x);
      for (size_t i = 0; i < x.size(); ++i) {
        const int64_t r = static_cast<int64_t>(roundf(x[i] / scale));
        ASSERT_EQ(q8[i], testing::ref_clamp(r + zp, -128, 127)) << "x=" << x[i];
        ASSERT_EQ(q16[i], testing::ref_clamp(r + zp * 256, -32768, 32767)) << "x=" << x[i];
      }
    }
  }
}

TEST(DequantizeToF32, MatchesTheDoubleProductRoundedToFloat) {
  const float scales[] = {0.003921569f, 0.1017157f, 1.7e-5f, 3.0f};
  for (float scale : scales) {
    for (int32_t zp : {-128, -5, 0, 127}) {
      std::vector<int8_t> x;
      for (int i = -128; i <= 127; ++i) x.push_back(static_cast<int8_t>(i));
      TestOp op;
      const uint32_t in = op.add_input(DType::kInt8, {256});
      const uint32_t out = op.add_output(DType::kFloat32, {256});
      op.set_params(AffineQuantParams{scale, zp});
      op.set_data(in, x);
      ASSERT_EQ(op.check(kDequantizeS8F32Entry), Status::kOk);
      op.run(kDequantizeS8F32Entry);
      const auto y = op.data<float>(out);
      for (size_t i = 0; i < x.size(); ++i) {
        // TFLite: static_cast<float>(double(scale) * (val - zero_point)).
        ASSERT_EQ(y[i], static_cast<float>(static_cast<double>(scale) * (x[i] - zp)));
      }
    }
  }
  const auto x16 = testing::random_full_range<int16_t>(3000, 9);
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt16, {3000});
  const uint32_t out = op.add_output(DType::kFloat32, {3000});
  op.set_params(AffineQuantParams{0.000123f, -32768});
  op.set_data(in, x16);
  ASSERT_EQ(op.check(kDequantizeS16F32Entry), Status::kOk);
  op.run(kDequantizeS16F32Entry);
  const auto y = op.data<float>(out);
  for (size_t i = 0; i < x16.size(); ++i) {
    ASSERT_EQ(y[i], static_cast<float>(static_cast<double>(0.000123f) * (x16[i] + 32768)));
  }
}

TEST(AffineQuantCheck, Rejections) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kFloat32, {3});
  const uint32_t out = op.add_output(DType::kInt8, {3});
  op.set_params(AffineQuantParams{0.1f, 0});
  ASSERT_EQ(op.check(kQuantizeF32S8Entry), Status::kOk);
  EXPECT_EQ(op.check(kQuantizeF32S16Entry), Status::kBadParams);
  EXPECT_EQ(op.check(kDequantizeS8F32Entry), Status::kBadParams);
  for (float bad : {0.0f, -0.1f, NAN, INFINITY}) {
    op.params<AffineQuantParams>().scale = bad;
    EXPECT_EQ(op.check(kQuantizeF32S8Entry), Status::kBadParams) << bad;
  }
  op.params<AffineQuantParams>().scale = 0.1f;
  op.params<AffineQuantParams>().zero_point = 128;
  EXPECT_EQ(op.check(kQuantizeF32S8Entry), Status::kBadParams);
  op.params<AffineQuantParams>().zero_point = 0;
  op.desc(out).dims[0] = 2;
  EXPECT_EQ(op.check(kQuantizeF32S8Entry), Status::kBadParams);
  op.desc(out).dims[0] = 3;
  op.desc(in).dtype = static_cast<uint8_t>(DType::kInt32);
  EXPECT_EQ(op.check(kQuantizeF32S8Entry), Status::kBadParams);
}

// ---- requantize -----------------------------------------------------------------------

template <typename In, typename Out>
void run_requantize(const KernelEntry& entry, float in_scale, int32_t in_zp, float out_scale,
                    int32_t out_zp, const std::vector<In>& x) {
  constexpr DType kIn = sizeof(In) == 1 ? DType::kInt8 : (sizeof(In) == 2 ? DType::kInt16 : DType::kInt32);
  constexpr DType kOut = sizeof(Out) == 1 ? DType::kInt8 : (sizeof(Out) == 2 ? DType::kInt16 : DType::kInt32);
  RequantizeParams p{in_zp, out_zp, 0, 0};
  requantize_multiplier(in_scale, out_scale, &p.multiplier, &p.shift);
  TestOp op;
  const uint32_t in = op.add_input(kIn, {static_cast<uint32_t>(x.size())});
  const uint32_t out = op.add_output(kOut, {static_cast<uint32_t>(x.size())});
  op.set_params(p);
  op.set_data(in, x);
  ASSERT_EQ(op.check(entry), Status::kOk);
  op.run(entry);
  const auto y = op.data<Out>(out);
  for (size_t i = 0; i < x.size(); ++i) {
    const int32_t centered = testing::wrap32(int64_t{x[i]} - in_zp);
    const int64_t v = int64_t{testing::ref_mbqm(centered, p.multiplier, p.shift)} + out_zp;
    ASSERT_EQ(y[i], testing::ref_clamp(testing::wrap32(v), std::numeric_limits<Out>::min(),
                                       std::numeric_limits<Out>::max()))
        << i;
  }
}

TEST(Requantize, AllTypePairsMatchModel) {
  const auto s8 = testing::random_full_range<int8_t>(500, 1);
  const auto s16 = testing::random_full_range<int16_t>(500, 2);
  auto s32 = testing::random_ints<int32_t>(500, 3, -(1 << 24), 1 << 24);
  s32[0] = INT32_MIN;
  s32[1] = INT32_MAX;
  run_requantize<int8_t, int8_t>(kRequantizeS8S8Entry, 0.02f, -128, 0.015f, 5, s8);
  run_requantize<int8_t, int8_t>(kRequantizeS8S8Entry, 0.02f, 127, 0.2f, -128, s8);
  run_requantize<int8_t, int16_t>(kRequantizeS8S16Entry, 0.02f, 3, 0.0001f, 0, s8);
  run_requantize<int8_t, int32_t>(kRequantizeS8S32Entry, 0.02f, 3, 1e-6f, 0, s8);
  run_requantize<int16_t, int8_t>(kRequantizeS16S8Entry, 0.0003f, 0, 0.05f, -7, s16);
  run_requantize<int16_t, int16_t>(kRequantizeS16S16Entry, 0.0003f, 0, 0.0002f, 0, s16);
  run_requantize<int32_t, int8_t>(kRequantizeS32S8Entry, 1e-5f, 17, 0.01f, 0, s32);
}

TEST(Requantize, SeanetQuantizeLayersInt32AndInt16) {
  // The SeaNet quantize layers convert between an int32 tensor and int16 (zero points 0).
  const auto s16 = testing::random_full_range<int16_t>(1000, 4);
  const auto s32 = testing::random_ints<int32_t>(1000, 5, -(1 << 30), 1 << 30);
  run_requantize<int16_t, int32_t>(kRequantizeS16S32Entry, 0.001748823f, 0, 8.7e-7f, 0, s16);
  run_requantize<int32_t, int16_t>(kRequantizeS32S16Entry, 8.7e-7f, 0, 0.001748823f, 0, s32);
  run_requantize<int32_t, int16_t>(kRequantizeS32S16Entry, 1.3e-9f, 0, 0.0009f, 0, s32);
}

TEST(Requantize, HandComputed) {
  // Same scale: multiplier 2^30, shift 1 (1.0); zero points move the values: x - 3 + 10.
  RequantizeParams p{3, 10, 1 << 30, 1};
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt8, {4});
  const uint32_t out = op.add_output(DType::kInt8, {4});
  op.set_params(p);
  op.set_data(in, std::vector<int8_t>{3, -128, 127, 0});
  ASSERT_EQ(op.check(kRequantizeS8S8Entry), Status::kOk);
  op.run(kRequantizeS8S8Entry);
  EXPECT_EQ(op.data<int8_t>(out), (std::vector<int8_t>{10, -121, 127, 7}));
}

TEST(RequantizeCheck, Rejections) {
  TestOp op;
  op.add_input(DType::kInt16, {4});
  const uint32_t out = op.add_output(DType::kInt32, {4});
  op.set_params(RequantizeParams{0, 0, 1 << 30, 0});
  ASSERT_EQ(op.check(kRequantizeS16S32Entry), Status::kOk);
  EXPECT_EQ(op.check(kRequantizeS32S16Entry), Status::kBadParams);  // wrong direction
  auto& p = op.params<RequantizeParams>();
  p.shift = 31;
  EXPECT_EQ(op.check(kRequantizeS16S32Entry), Status::kBadParams);
  p.shift = 0;
  p.input_zero_point = 40000;  // outside int16
  EXPECT_EQ(op.check(kRequantizeS16S32Entry), Status::kBadParams);
  p.input_zero_point = 0;
  op.desc(out).dims[0] = 3;
  EXPECT_EQ(op.check(kRequantizeS16S32Entry), Status::kBadParams);
}

}  // namespace quantize_test
}  // namespace mote
