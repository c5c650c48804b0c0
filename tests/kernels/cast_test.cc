// cast: the conversions cast.h defines (low bits, truncation with saturation, NaN 0,
// bool 0/1) and check() against pairs TFLM does not convert.
#include "cast/cast.h"

#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "kernel_test_util.h"

namespace mote {
namespace cast_test {

using testing::TestOp;

TEST(Cast, FloatToIntegersAsArm) {
  const std::vector<float> x = {2.7f, -2.7f, 300.5f, -1e10f, 1e10f, std::numeric_limits<float>::quiet_NaN()};
  TestOp op;
  const uint32_t in = op.add_input(DType::kFloat32, {6});
  const uint32_t out = op.add_output(DType::kInt8, {6});
  op.set_data(in, x);
  ASSERT_EQ(op.check(kCastEntry), Status::kOk);
  op.run(kCastEntry);
  // 300 -> 44 (low byte); -1e10 -> INT32_MIN -> 0; 1e10 -> INT32_MAX -> -1.
  EXPECT_EQ(op.data<int8_t>(out), (std::vector<int8_t>{2, -2, 44, 0, -1, 0}));
  op.desc(out).dtype = static_cast<uint8_t>(DType::kInt32);
  op.desc(out).bytes = 24;
  EXPECT_EQ(op.check(kCastEntry), Status::kOk);
}

TEST(Cast, BoolAndIntegers) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kBool, {4});
  const uint32_t out = op.add_output(DType::kFloat32, {4});
  op.set_data(in, std::vector<uint8_t>{0, 1, 2, 255});
  ASSERT_EQ(op.check(kCastEntry), Status::kOk);
  op.run(kCastEntry);
  EXPECT_EQ(op.data<float>(out), (std::vector<float>{0, 1, 1, 1}));

  TestOp wide;
  const uint32_t a = wide.add_input(DType::kInt32, {3});
  const uint32_t b = wide.add_output(DType::kInt16, {3});
  wide.set_data(a, std::vector<int32_t>{65537, -32769, INT32_MIN});
  ASSERT_EQ(wide.check(kCastEntry), Status::kOk);
  wide.run(kCastEntry);
  EXPECT_EQ(wide.data<int16_t>(b), (std::vector<int16_t>{1, 32767, 0}));
}

TEST(Cast, CheckRefusesPairsTfliteMicroDoesNotConvert) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kFloat32, {4});
  const uint32_t out = op.add_output(DType::kBool, {4});
  EXPECT_EQ(op.check(kCastEntry), Status::kBadParams);  // TFLM writes no bool
  op.desc(out).dtype = static_cast<uint8_t>(DType::kUInt8);
  EXPECT_EQ(op.check(kCastEntry), Status::kBadParams);
  op.desc(out).dtype = static_cast<uint8_t>(DType::kFloat32);
  op.desc(in).dtype = static_cast<uint8_t>(DType::kInt64);
  EXPECT_EQ(op.check(kCastEntry), Status::kBadParams);
  op.desc(in).dtype = static_cast<uint8_t>(DType::kFloat32);
  ASSERT_EQ(op.check(kCastEntry), Status::kOk);
  op.set_dims(out, {2, 2});
  EXPECT_EQ(op.check(kCastEntry), Status::kBadParams);
  op.set_dims(out, {4});
  op.set_params_bytes(4);
  EXPECT_EQ(op.check(kCastEntry), Status::kBadParams);
}

}  // namespace cast_test
}  // namespace mote
