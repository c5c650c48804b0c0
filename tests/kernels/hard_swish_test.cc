// Hard swish: float32 against x * relu6(x + 3) / 6 in double; int8 against the model of
// TFLite's fixed-point reference_ops::HardSwish (hard_swish_ref.h), every int8 input,
// with scales that make the reluish exponent positive, zero and negative and the output
// exponent 0, moderate and below -15.
#include "hard_swish/hard_swish.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "hard_swish_ref.h"
#include "kernel_test_util.h"
#include "quant/quant_math.h"

namespace mote {
namespace hard_swish_test {

using testing::TestOp;

TEST(HardSwishF32, MatchesDoubleFormula) {
  std::vector<float> x = {-1e30f, -7.0f, -6.0f, -3.0f, -2.9999998f, -1.5f, -0.0f, 0.0f,
                          0.5f,   2.9999998f, 3.0f, 3.0000002f, 6.0f, 100.0f, 1e30f};
  for (int i = -400; i <= 400; ++i) x.push_back(static_cast<float>(i) * 0.01875f);
  TestOp op;
  const uint32_t in = op.add_input(DType::kFloat32, {static_cast<uint32_t>(x.size())});
  const uint32_t out = op.add_output(DType::kFloat32, {static_cast<uint32_t>(x.size())});
  op.set_data(in, x);
  ASSERT_EQ(op.check(kHardSwishF32Entry), Status::kOk);
  op.run(kHardSwishF32Entry);
  const std::vector<float> y = op.data<float>(out);
  for (size_t i = 0; i < x.size(); ++i) {
    const double v = x[i];
    const double expected = v * std::min(6.0, std::max(0.0, v + 3.0)) / 6.0;
    EXPECT_TRUE(std::fabs(y[i] - expected) <= 1e-7 + 1e-6 * std::fabs(expected)) << x[i] << " -> " << y[i];
  }
}

TEST(HardSwishF32, NanStaysNan) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kFloat32, {1});
  const uint32_t out = op.add_output(DType::kFloat32, {1});
  op.set_data(in, std::vector<float>{std::numeric_limits<float>::quiet_NaN()});
  ASSERT_EQ(op.check(kHardSwishF32Entry), Status::kOk);
  op.run(kHardSwishF32Entry);
  EXPECT_TRUE(std::isnan(op.data<float>(out)[0]));
}

HardSwishS8Params params_for(float in_scale, int32_t in_zp, float out_scale, int32_t out_zp) {
  HardSwishS8Params p{in_zp, out_zp, 0, 0, 0, 0};
  hard_swish_s8_multipliers(in_scale, out_scale, &p.reluish_multiplier, &p.reluish_exponent,
                            &p.output_multiplier, &p.output_exponent);
  return p;
}

void expect_all_inputs(const HardSwishS8Params& p) {
  SCOPED_TRACE(::testing::Message() << "reluish " << p.reluish_multiplier << "/" << p.reluish_exponent
                                    << " output " << p.output_multiplier << "/" << p.output_exponent);
  std::vector<int8_t> x;
  for (int v = -128; v <= 127; ++v) x.push_back(static_cast<int8_t>(v));
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt8, {256});
  const uint32_t out = op.add_output(DType::kInt8, {256});
  op.set_params(p);
  op.set_data(in, x);
  ASSERT_EQ(op.check(kHardSwishS8Entry), Status::kOk);
  op.run(kHardSwishS8Entry);
  const std::vector<int8_t> y = op.data<int8_t>(out);
  const testing::RefHardSwishParams r{p.input_zero_point,  p.output_zero_point, p.reluish_multiplier,
                                      p.reluish_exponent,  p.output_multiplier, p.output_exponent};
  for (size_t i = 0; i < x.size(); ++i) ASSERT_EQ(y[i], testing::ref_hard_swish_s8(x[i], r)) << int{x[i]};
}

TEST(HardSwishS8, EveryInputAcrossExponents) {
  struct Scales {
    float in_scale;
    int32_t in_zp;
    float out_scale;
    int32_t out_zp;
    int32_t reluish_exponent, output_exponent;  // what the scales give
  };
  const Scales cases[] = {
      {0.02f, -10, 0.015f, -100, 1, -6},
      {0.3f, 3, 0.25f, -3, 5, -6},
      {0.008f, 0, 0.006f, -128, 0, -6},
      {0.001f, 5, 0.0008f, -120, -3, -6},
      {0.000005f, -128, 0.000004f, 127, -11, -6},
      {0.5f, 0, 0.005f, 0, 6, 0},       // output multiplier in [0.5, 1): no output shift
      {0.01f, 17, 6.0f, -1, 0, -16},    // output exponent 16: gemmlowp's int16 mask quirk
      {0.01f, -40, 40.0f, 0, 0, -18},
  };
  for (const Scales& c : cases) {
    const HardSwishS8Params p = params_for(c.in_scale, c.in_zp, c.out_scale, c.out_zp);
    ASSERT_EQ(p.reluish_exponent, c.reluish_exponent) << c.in_scale;
    ASSERT_EQ(p.output_exponent, c.output_exponent) << c.in_scale << " " << c.out_scale;
    expect_all_inputs(p);
  }
  // Random 16-bit multipliers and exponents over the whole valid range.
  std::mt19937 rng(17);
  std::uniform_int_distribution<int32_t> zp(-128, 127), m(0, 32767), re(-31, 30), oe(-31, 0);
  for (int k = 0; k < 200; ++k) expect_all_inputs({zp(rng), zp(rng), m(rng), re(rng), m(rng), oe(rng)});
}

TEST(HardSwishS8, HandComputed) {
  // Input scale 3/256 makes the reluish multiplier exactly 1 (16384, exponent 1); equal
  // output scale: output multiplier 1/128 (16384, exponent -6). Real 127 * 3/256 = 1.488
  // -> 1.113 -> 95; -1.5 -> -0.375 -> -32; -0.75 -> -0.28125 -> -24.
  const HardSwishS8Params p = params_for(3.0f / 256.0f, 0, 3.0f / 256.0f, 0);
  ASSERT_EQ(p.reluish_multiplier, 16384);
  ASSERT_EQ(p.reluish_exponent, 1);
  ASSERT_EQ(p.output_multiplier, 16384);
  ASSERT_EQ(p.output_exponent, -6);
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt8, {4});
  const uint32_t out = op.add_output(DType::kInt8, {4});
  op.set_params(p);
  op.set_data(in, std::vector<int8_t>{127, -128, 0, -64});
  ASSERT_EQ(op.check(kHardSwishS8Entry), Status::kOk);
  op.run(kHardSwishS8Entry);
  EXPECT_EQ(op.data<int8_t>(out), (std::vector<int8_t>{95, -32, 0, -24}));
}

TEST(HardSwishCheck, Rejections) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt8, {4});
  op.add_output(DType::kInt8, {4});
  op.set_params(params_for(0.02f, 0, 0.02f, 0));
  ASSERT_EQ(op.check(kHardSwishS8Entry), Status::kOk);
  EXPECT_EQ(op.check(kHardSwishF32Entry), Status::kBadParams);
  auto& p = op.params<HardSwishS8Params>();
  p.output_exponent = 1;
  EXPECT_EQ(op.check(kHardSwishS8Entry), Status::kBadParams);
  p.output_exponent = -32;
  EXPECT_EQ(op.check(kHardSwishS8Entry), Status::kBadParams);
  p.output_exponent = -6;
  p.reluish_exponent = 31;
  EXPECT_EQ(op.check(kHardSwishS8Entry), Status::kBadParams);
  p.reluish_exponent = 1;
  p.reluish_multiplier = 32768;
  EXPECT_EQ(op.check(kHardSwishS8Entry), Status::kBadParams);
  p.reluish_multiplier = -1;
  EXPECT_EQ(op.check(kHardSwishS8Entry), Status::kBadParams);
  p.reluish_multiplier = 16384;
  p.output_zero_point = 128;
  EXPECT_EQ(op.check(kHardSwishS8Entry), Status::kBadParams);
  p.output_zero_point = 0;
  ASSERT_EQ(op.check(kHardSwishS8Entry), Status::kOk);
  op.desc(in).dims[0] = 5;
  EXPECT_EQ(op.check(kHardSwishS8Entry), Status::kBadParams);

  TestOp f;
  f.add_input(DType::kFloat32, {4});
  f.add_output(DType::kFloat32, {4});
  ASSERT_EQ(f.check(kHardSwishF32Entry), Status::kOk);
  f.set_params(int32_t{0});
  EXPECT_EQ(f.check(kHardSwishF32Entry), Status::kBadParams);
}

}  // namespace hard_swish_test
}  // namespace mote
