// Float32 leaky ReLU against TFLite's reference_ops::LeakyRelu written here (x > 0 ? x :
// x * alpha), bit for bit: signed zeros, NaN, infinities, alphas below 0 and above 1.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "kernel_test_util.h"
#include "leaky_relu/leaky_relu.h"

namespace mote {
namespace leaky_relu_f32_test {

using testing::TestOp;

uint32_t bits(float v) {
  uint32_t b;
  memcpy(&b, &v, sizeof b);
  return b;
}

TEST(LeakyReluF32, MatchesTfliteBitForBit) {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> x = {-inf, -3e38f, -2.5f, -1e-40f, -0.0f, 0.0f, 1e-40f, 1.0f, 3e38f, inf,
                          std::numeric_limits<float>::quiet_NaN()};
  for (int i = -200; i <= 200; ++i) x.push_back(static_cast<float>(i) * 0.173f);
  for (float alpha : {0.2f, 0.0f, -0.5f, 1.7f, 1e-30f}) {
    TestOp op;
    const uint32_t in = op.add_input(DType::kFloat32, {static_cast<uint32_t>(x.size())});
    const uint32_t out = op.add_output(DType::kFloat32, {static_cast<uint32_t>(x.size())});
    op.set_params(LeakyReluF32Params{alpha});
    op.set_data(in, x);
    ASSERT_EQ(op.check(kLeakyReluF32Entry), Status::kOk);
    op.run(kLeakyReluF32Entry);
    const std::vector<float> y = op.data<float>(out);
    for (size_t i = 0; i < x.size(); ++i) {
      const float expected = x[i] > 0 ? x[i] : x[i] * alpha;
      if (std::isnan(expected)) {
        EXPECT_TRUE(std::isnan(y[i])) << i;
      } else {
        EXPECT_EQ(bits(y[i]), bits(expected)) << "alpha " << alpha << " x " << x[i] << " -> " << y[i];
      }
    }
  }
}

TEST(LeakyReluF32, CheckRefusesMalformedPrograms) {
  TestOp op;
  op.add_input(DType::kFloat32, {2, 3});
  const uint32_t out = op.add_output(DType::kFloat32, {2, 3});
  op.set_params(LeakyReluF32Params{0.1f});
  ASSERT_EQ(op.check(kLeakyReluF32Entry), Status::kOk);
  op.params<LeakyReluF32Params>().alpha = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(op.check(kLeakyReluF32Entry), Status::kBadParams);
  op.params<LeakyReluF32Params>().alpha = std::numeric_limits<float>::infinity();
  EXPECT_EQ(op.check(kLeakyReluF32Entry), Status::kBadParams);
  op.params<LeakyReluF32Params>().alpha = 0.1f;
  op.set_dims(out, {3, 2});
  EXPECT_EQ(op.check(kLeakyReluF32Entry), Status::kBadParams);
  op.set_dims(out, {2, 3});
  op.set_params_bytes(8);
  EXPECT_EQ(op.check(kLeakyReluF32Entry), Status::kBadParams);

  TestOp s8;
  s8.add_input(DType::kInt8, {4});
  s8.add_output(DType::kFloat32, {4});
  s8.set_params(LeakyReluF32Params{0.1f});
  EXPECT_EQ(s8.check(kLeakyReluF32Entry), Status::kBadParams);
}

}  // namespace leaky_relu_f32_test
}  // namespace mote
