// GELU: gelu_f32 (exact and tanh) against a double-precision reference, the int8 table
// against quantizing that reference, and check() against corrupted descriptors/params.
#include "gelu/gelu.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "kernel_test_util.h"

namespace mote {
namespace gelu_test {

using testing::TestOp;

double gelu(double x, bool approximate) {
  if (approximate) return 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
  return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0)));
}

TEST(GeluF32, ExactAndTanhThroughTheEntry) {
  const std::vector<float> x = {-6.0f, -2.5f, -1.0f, -0.25f, 0.0f, 0.3f, 1.0f, 2.0f, 7.5f, 40.0f};
  for (int32_t approximate = 0; approximate <= 1; ++approximate) {
    TestOp op;
    const uint32_t in = op.add_input(DType::kFloat32, {2, 5});
    const uint32_t out = op.add_output(DType::kFloat32, {2, 5});
    op.set_params(GeluF32Params{approximate});
    op.set_data(in, x);
    ASSERT_EQ(op.check(kGeluF32Entry), Status::kOk);
    op.run(kGeluF32Entry);
    const std::vector<float> y = op.data<float>(out);
    for (size_t i = 0; i < x.size(); ++i)
      EXPECT_NEAR(y[i], gelu(x[i], approximate != 0), 1e-6 * std::max(1.0, std::fabs(double(x[i]))))
          << approximate << " " << x[i];
  }
}

TEST(GeluF32, CheckRefusesBadParamsAndDtypes) {
  TestOp op;
  op.add_input(DType::kFloat32, {4});
  const uint32_t out = op.add_output(DType::kFloat32, {4});
  op.set_params(GeluF32Params{2});
  EXPECT_EQ(op.check(kGeluF32Entry), Status::kBadParams);
  op.params<GeluF32Params>().approximate = 0;
  ASSERT_EQ(op.check(kGeluF32Entry), Status::kOk);
  op.desc(out).dtype = static_cast<uint8_t>(DType::kInt8);
  EXPECT_EQ(op.check(kGeluF32Entry), Status::kBadParams);
  op.desc(out).dtype = static_cast<uint8_t>(DType::kFloat32);
  op.set_dims(out, {5});
  EXPECT_EQ(op.check(kGeluF32Entry), Status::kBadParams);
}

TEST(GeluS8, TableQuantizesTheFloatFunction) {
  const float in_scale = 0.05f, out_scale = 0.03f;
  const int32_t in_zp = -10, out_zp = -100;
  GeluS8Params p{};
  gelu_s8_table(false, in_scale, in_zp, out_scale, out_zp, p.table);
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt8, {256});
  const uint32_t out = op.add_output(DType::kInt8, {256});
  std::vector<int8_t> x(256);
  for (int v = 0; v < 256; ++v) x[v] = static_cast<int8_t>(v - 128);
  op.set_params(p);
  op.set_data(in, x);
  ASSERT_EQ(op.check(kGeluS8Entry), Status::kOk);
  op.run(kGeluS8Entry);
  const std::vector<int8_t> y = op.data<int8_t>(out);
  for (int v = -128; v <= 127; ++v) {
    const double real = gelu(in_scale * (v - in_zp), false);
    const double q = std::clamp(std::round(real / out_scale) + out_zp, -128.0, 127.0);
    EXPECT_NEAR(y[v + 128], q, 1.0) << v;  // float vs double rounding of the same value
  }
  EXPECT_EQ(y[in_zp + 128], out_zp);  // gelu(0) = 0
  op.set_params_bytes(255);
  EXPECT_EQ(op.check(kGeluS8Entry), Status::kBadParams);
}

}  // namespace gelu_test
}  // namespace mote
