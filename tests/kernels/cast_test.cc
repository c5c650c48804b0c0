// cast: the conversions cast.h defines (low bits, truncation with saturation, NaN 0,
// bool 0/1, int64 input and output) and check() against pairs it does not convert.
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

// ONNX's int64 indices and shapes: the low bits to integers, rounded to nearest to float
// (not through int32: 2^40 + 1 stays 2^40).
TEST(Cast, Int64ToIntegersAndFloat) {
  const std::vector<int64_t> x = {7, -3, (int64_t{1} << 32) + 5, INT64_MIN, (int64_t{1} << 40) + 1};
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt64, {5});
  const uint32_t out = op.add_output(DType::kInt32, {5});
  op.set_data(in, x);
  ASSERT_EQ(op.check(kCastEntry), Status::kOk);
  op.run(kCastEntry);
  EXPECT_EQ(op.data<int32_t>(out), (std::vector<int32_t>{7, -3, 5, 0, 1}));

  TestOp to_float;
  const uint32_t a = to_float.add_input(DType::kInt64, {5});
  const uint32_t b = to_float.add_output(DType::kFloat32, {5});
  to_float.set_data(a, x);
  ASSERT_EQ(to_float.check(kCastEntry), Status::kOk);
  to_float.run(kCastEntry);
  EXPECT_EQ(to_float.data<float>(b), (std::vector<float>{7.0f, -3.0f, 4294967296.0f, -9223372036854775808.0f,
                                                         1099511627776.0f}));
}

// To int64 (an int64 graph output the ONNX importer computed in int32): integers
// sign-extended, bool 0/1, float32 truncated and saturated to the int64 range, NaN 0.
TEST(Cast, ToInt64) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt32, {3});
  const uint32_t out = op.add_output(DType::kInt64, {3});
  op.set_data(in, std::vector<int32_t>{5, -1, INT32_MIN});
  ASSERT_EQ(op.check(kCastEntry), Status::kOk);
  op.run(kCastEntry);
  EXPECT_EQ(op.data<int64_t>(out), (std::vector<int64_t>{5, -1, INT32_MIN}));

  TestOp small;
  const uint32_t a = small.add_input(DType::kInt8, {2});
  const uint32_t b = small.add_output(DType::kInt64, {2});
  small.set_data(a, std::vector<int8_t>{-128, 127});
  ASSERT_EQ(small.check(kCastEntry), Status::kOk);
  small.run(kCastEntry);
  EXPECT_EQ(small.data<int64_t>(b), (std::vector<int64_t>{-128, 127}));

  TestOp flag;
  const uint32_t c = flag.add_input(DType::kBool, {3});
  const uint32_t d = flag.add_output(DType::kInt64, {3});
  flag.set_data(c, std::vector<uint8_t>{0, 1, 7});
  ASSERT_EQ(flag.check(kCastEntry), Status::kOk);
  flag.run(kCastEntry);
  EXPECT_EQ(flag.data<int64_t>(d), (std::vector<int64_t>{0, 1, 1}));

  TestOp real;
  const uint32_t e = real.add_input(DType::kFloat32, {5});
  const uint32_t f = real.add_output(DType::kInt64, {5});
  real.set_data(e, std::vector<float>{-2.7f, 1e10f, 1e30f, -1e30f, std::numeric_limits<float>::quiet_NaN()});
  ASSERT_EQ(real.check(kCastEntry), Status::kOk);
  real.run(kCastEntry);
  EXPECT_EQ(real.data<int64_t>(f), (std::vector<int64_t>{-2, 10000000000, INT64_MAX, INT64_MIN, 0}));

  TestOp same;
  const uint32_t g = same.add_input(DType::kInt64, {1});
  const uint32_t h = same.add_output(DType::kInt64, {1});
  same.set_data(g, std::vector<int64_t>{INT64_MIN + 3});
  ASSERT_EQ(same.check(kCastEntry), Status::kOk);
  same.run(kCastEntry);
  EXPECT_EQ(same.data<int64_t>(h), (std::vector<int64_t>{INT64_MIN + 3}));
}

TEST(Cast, CheckRefusesPairsTfliteMicroDoesNotConvert) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kFloat32, {4});
  const uint32_t out = op.add_output(DType::kBool, {4});
  EXPECT_EQ(op.check(kCastEntry), Status::kBadParams);  // TFLM writes no bool
  op.desc(out).dtype = static_cast<uint8_t>(DType::kUInt8);
  EXPECT_EQ(op.check(kCastEntry), Status::kBadParams);
  op.desc(out).dtype = static_cast<uint8_t>(DType::kFloat32);
  op.desc(in).dtype = static_cast<uint8_t>(DType::kUInt8);
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
