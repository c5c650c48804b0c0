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

// Casts `x` of `from` to int64 and returns the result.
template <typename From>
std::vector<int64_t> cast_to_int64(DType from, const std::vector<From>& x) {
  TestOp op;
  const uint32_t in = op.add_input(from, {static_cast<uint32_t>(x.size())});
  const uint32_t out = op.add_output(DType::kInt64, {static_cast<uint32_t>(x.size())});
  op.set_data(in, x);
  EXPECT_EQ(op.check(kCastEntry), Status::kOk);
  op.run(kCastEntry);
  return op.data<int64_t>(out);
}

// To int64 (an int64 graph output the ONNX importer computed in int32): integers
// sign-extended, bool 0/1, float32 truncated and saturated to the int64 range, NaN 0.
TEST(Cast, ToInt64) {
  EXPECT_EQ(cast_to_int64(DType::kInt32, std::vector<int32_t>{5, -1, INT32_MIN}),
            (std::vector<int64_t>{5, -1, INT32_MIN}));
  EXPECT_EQ(cast_to_int64(DType::kInt8, std::vector<int8_t>{-128, 127}), (std::vector<int64_t>{-128, 127}));
  EXPECT_EQ(cast_to_int64(DType::kBool, std::vector<uint8_t>{0, 1, 7}), (std::vector<int64_t>{0, 1, 1}));
  EXPECT_EQ(cast_to_int64(DType::kFloat32,
                          std::vector<float>{-2.7f, 1e10f, 1e30f, -1e30f, std::numeric_limits<float>::quiet_NaN()}),
            (std::vector<int64_t>{-2, 10000000000, INT64_MAX, INT64_MIN, 0}));
  EXPECT_EQ(cast_to_int64(DType::kInt64, std::vector<int64_t>{INT64_MIN + 3}), (std::vector<int64_t>{INT64_MIN + 3}));
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
