// ELU: float32 against exp(x) - 1 in double; int8: the kernel looks every input up in its
// table, and elu_s8_table builds the table TFLite Micro's Prepare builds (float steps
// written here).
#include "elu/elu.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "kernel_test_util.h"
#include "quant/quant_math.h"

namespace mote {
namespace elu_test {

using testing::TestOp;

TEST(EluF32, MatchesDoubleFormula) {
  std::vector<float> x = {-100.0f, -20.0f, -1.0f, -1e-6f, -0.0f, 0.0f, 1e-6f, 3.0f, 1e30f};
  for (int i = -300; i <= 300; ++i) x.push_back(static_cast<float>(i) * 0.027f);
  TestOp op;
  const uint32_t in = op.add_input(DType::kFloat32, {static_cast<uint32_t>(x.size())});
  const uint32_t out = op.add_output(DType::kFloat32, {static_cast<uint32_t>(x.size())});
  op.set_data(in, x);
  ASSERT_EQ(op.check(kEluF32Entry), Status::kOk);
  op.run(kEluF32Entry);
  const std::vector<float> y = op.data<float>(out);
  for (size_t i = 0; i < x.size(); ++i) {
    const double v = x[i];
    const double expected = v < 0 ? std::expm1(v) : v;
    EXPECT_TRUE(std::fabs(y[i] - expected) <= 1e-7 * std::fabs(expected) + 1e-12) << x[i] << " -> " << y[i];
  }
}

TEST(EluS8, LooksEveryInputUp) {
  EluS8Params p{};
  for (int i = 0; i < 256; ++i) p.table[i] = static_cast<int8_t>(127 - i);  // any table: out = table[in + 128]
  std::vector<int8_t> x;
  for (int v = -128; v <= 127; ++v) x.push_back(static_cast<int8_t>(v));
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt8, {16, 16});
  const uint32_t out = op.add_output(DType::kInt8, {16, 16});
  op.set_params(p);
  op.set_data(in, x);
  ASSERT_EQ(op.check(kEluS8Entry), Status::kOk);
  op.run(kEluS8Entry);
  const std::vector<int8_t> y = op.data<int8_t>(out);
  for (size_t i = 0; i < x.size(); ++i) EXPECT_EQ(y[i], p.table[x[i] + 128]) << int{x[i]};
}

TEST(EluS8, TableAsTfliteMicroPrepare) {
  struct Case {
    float in_scale;
    int32_t in_zp;
    float out_scale;
    int32_t out_zp;
  };
  for (const Case& c : {Case{0.05f, -10, 0.03f, 20}, Case{0.1f, 127, 0.004f, -128}, Case{0.002f, 0, 0.002f, 0},
                        Case{1.0f, -128, 0.5f, -120}}) {
    int8_t table[256];
    elu_s8_table(c.in_scale, c.in_zp, c.out_scale, c.out_zp, table);
    for (int v = -128; v <= 127; ++v) {
      const float x = c.in_scale * static_cast<float>(v - c.in_zp);
      const float t = x < 0.0f ? std::exp(x) - 1.0f : x;
      const float q = std::round(t * (1.0f / c.out_scale)) + static_cast<float>(c.out_zp);
      const int32_t expected = std::isnan(q) ? 0 : static_cast<int32_t>(std::fmin(127.0f, std::fmax(-128.0f, q)));
      ASSERT_EQ(table[v + 128], expected) << c.in_scale << " " << v;
    }
  }
}

TEST(EluCheck, Rejections) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt8, {4});
  op.add_output(DType::kInt8, {4});
  op.set_params(EluS8Params{});
  ASSERT_EQ(op.check(kEluS8Entry), Status::kOk);
  EXPECT_EQ(op.check(kEluF32Entry), Status::kBadParams);
  op.set_params(int32_t{0});
  EXPECT_EQ(op.check(kEluS8Entry), Status::kBadParams);
  op.set_params(EluS8Params{});
  op.desc(in).dims[0] = 5;
  EXPECT_EQ(op.check(kEluS8Entry), Status::kBadParams);
}

}  // namespace elu_test
}  // namespace mote
