// L2_NORMALIZATION: the inverse square root (quant/fixed_point.h) against the test's
// transcription of TFLite's GetInvSqrtQuantizedMultiplierExp and against 1/sqrt, the int8
// kernel against TFLite's integer L2Normalization written here, the float kernel against
// float division by the norm, and check() against corrupted descriptors.
#include "l2_normalization/l2_normalization.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "kernel_test_util.h"
#include "quant/fixed_point.h"
#include "quant_test_util.h"

namespace mote {
namespace l2_normalization_test {

using testing::ref_inv_sqrt_multiplier_exp;
using testing::TestOp;

TEST(L2Normalization, InvSqrtAsTfliteAndNearOneOverSqrt) {
  std::vector<int32_t> inputs = {0, 1, 2, 3, 4, 5, 100, 16129, 65025, (1 << 27) - 1, 1 << 27, (1 << 29) - 1,
                                 1 << 29, INT32_MAX};
  for (int32_t v = 6; v < 2000000; v = v * 3 / 2 + 1) inputs.push_back(v);
  for (int32_t input : inputs) {
    int32_t m = 0, s = 0, ref_m = 0, ref_s = 0;
    fixed_point::inv_sqrt_multiplier_exp(input, &m, &s);
    ref_inv_sqrt_multiplier_exp(input, &ref_m, &ref_s);
    EXPECT_EQ(m, ref_m) << input;
    EXPECT_EQ(s, ref_s) << input;
    if (input >= 2) {
      const double value = m * std::ldexp(1.0, s - 31);
      EXPECT_NEAR(value * std::sqrt(static_cast<double>(input)), 1.0, 1e-5) << input;  // five Newton steps
    }
  }
}

TEST(L2Normalization, Int8AsTfliteL2Normalization) {
  const std::vector<uint32_t> dims = {4, 9};
  for (int32_t zp : {0, -128, 127, 5}) {
    auto x = testing::random_ints<int8_t>(36, 50 + static_cast<uint32_t>(zp + 128), -128, 127);
    for (size_t c = 0; c < 9; ++c) x[c] = static_cast<int8_t>(zp);  // a zero vector
    x[9] = static_cast<int8_t>(zp == 127 ? 126 : zp + 1);            // |d| = 1 once
    TestOp op;
    const uint32_t in = op.add_input(DType::kInt8, dims);
    const uint32_t out = op.add_output(DType::kInt8, dims);
    op.set_params(L2NormalizationS8Params{zp});
    op.set_data(in, x);
    ASSERT_EQ(op.check(kL2NormalizationS8Entry), Status::kOk);
    op.run(kL2NormalizationS8Entry);
    std::vector<int8_t> expected(36);
    for (size_t v = 0; v < 4; ++v) testing::ref_l2_normalize_s8(&x[v * 9], 9, zp, &expected[v * 9]);
    EXPECT_EQ(op.data<int8_t>(out), expected) << zp;
  }
}

TEST(L2Normalization, Float32DividesByTheNorm) {
  auto x = testing::random_floats(30, 61, -5.0f, 5.0f);
  for (size_t c = 0; c < 6; ++c) x[c] = 0.0f;  // norm 0: divided by epsilon
  TestOp op;
  const uint32_t in = op.add_input(DType::kFloat32, {5, 6});
  const uint32_t out = op.add_output(DType::kFloat32, {5, 6});
  op.set_data(in, x);
  ASSERT_EQ(op.check(kL2NormalizationF32Entry), Status::kOk);
  op.run(kL2NormalizationF32Entry);
  const auto y = op.data<float>(out);
  for (size_t v = 0; v < 5; ++v) {
    double sq = 0;
    for (size_t c = 0; c < 6; ++c) sq += double{x[v * 6 + c]} * x[v * 6 + c];
    const double norm = std::max(std::sqrt(sq), 1e-6);
    for (size_t c = 0; c < 6; ++c) EXPECT_NEAR(y[v * 6 + c], x[v * 6 + c] / norm, 1e-6) << v << " " << c;
  }
}

TEST(L2Normalization, CheckRefusesCorruptDescriptors) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt8, {2, 3});
  const uint32_t out = op.add_output(DType::kInt8, {2, 3});
  op.set_params(L2NormalizationS8Params{3});
  ASSERT_EQ(op.check(kL2NormalizationS8Entry), Status::kOk);
  op.params<L2NormalizationS8Params>().input_zero_point = 128;
  EXPECT_EQ(op.check(kL2NormalizationS8Entry), Status::kBadParams);
  op.params<L2NormalizationS8Params>().input_zero_point = 3;
  op.set_dims(out, {3, 2});
  EXPECT_EQ(op.check(kL2NormalizationS8Entry), Status::kBadParams);
  op.set_dims(out, {2, 3});
  op.set_dims(in, {1, 1, 1, 2, 3});
  op.set_dims(out, {1, 1, 1, 2, 3});
  EXPECT_EQ(op.check(kL2NormalizationS8Entry), Status::kBadParams);  // rank 5
  EXPECT_EQ(op.check(kL2NormalizationF32Entry), Status::kBadParams);
}

}  // namespace l2_normalization_test
}  // namespace mote
