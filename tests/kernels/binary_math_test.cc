// The broadcasting binary math kernels (min_max_*, squared_difference_*, floor_div_*,
// floor_mod_*, compare_*), logical_binary and select: hand-computed results, the edges
// where Mote defines what TFLite leaves to an error (zero divisors), and check() against
// corrupted descriptors and parameters. tests/ops/binary_math_test.cc checks every dtype
// against TFLite's semantics through compiled models.
#include "binary_math/binary_math.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "kernel_test_util.h"
#include "logical/logical.h"
#include "select/select.h"

namespace mote {
namespace binary_math_test {

using testing::TestOp;

TEST(FloorDivS32, ExactFloorAndDefinedEdges) {
  EXPECT_EQ(floor_div_s32_value(7, 2), 3);
  EXPECT_EQ(floor_div_s32_value(-7, 2), -4);
  EXPECT_EQ(floor_div_s32_value(7, -2), -4);
  EXPECT_EQ(floor_div_s32_value(-7, -2), 3);
  EXPECT_EQ(floor_div_s32_value(-6, 3), -2);
  EXPECT_EQ(floor_div_s32_value(5, 0), 0);
  EXPECT_EQ(floor_div_s32_value(INT32_MIN, -1), INT32_MAX);
  EXPECT_EQ(floor_div_s32_value(INT32_MIN, 1), INT32_MIN);
  EXPECT_EQ(floor_div_s32_value(INT32_MAX, INT32_MIN), -1);
}

TEST(FloorModS32, SignOfTheDivisorAndDefinedEdges) {
  EXPECT_EQ(floor_mod_s32_value(7, 2), 1);
  EXPECT_EQ(floor_mod_s32_value(-7, 2), 1);
  EXPECT_EQ(floor_mod_s32_value(7, -2), -1);
  EXPECT_EQ(floor_mod_s32_value(-7, -2), -1);
  EXPECT_EQ(floor_mod_s32_value(5, 0), 0);
  EXPECT_EQ(floor_mod_s32_value(INT32_MIN, -1), 0);
  EXPECT_EQ(floor_mod_s32_value(INT32_MIN, INT32_MAX), INT32_MAX - 1);
}

TEST(FloorDivModF32, AsTflite) {
  EXPECT_EQ(floor_div_f32_value(7.0f, -2.0f), -4.0f);
  EXPECT_EQ(floor_div_f32_value(1.0f, 0.0f), std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(floor_div_f32_value(0.0f, 0.0f)));
  EXPECT_EQ(floor_mod_f32_value(-7.5f, 2.0f), 0.5f);
  EXPECT_EQ(floor_mod_f32_value(7.5f, -2.0f), -0.5f);
  EXPECT_TRUE(std::isnan(floor_mod_f32_value(1.0f, 0.0f)));
}

TEST(PowF32, BroadcastExponentAsPowf) {
  TestOp op;
  const uint32_t a = op.add_input(DType::kFloat32, {2, 3});
  const uint32_t b = op.add_input(DType::kFloat32, {3});
  const uint32_t y = op.add_output(DType::kFloat32, {2, 3});
  op.set_data(a, std::vector<float>{2.0f, -2.0f, 0.0f, 9.0f, -8.0f, 4.0f});
  op.set_data(b, std::vector<float>{3.0f, 2.0f, -1.0f});
  ASSERT_EQ(op.check(kPowF32Entry), Status::kOk);
  op.run(kPowF32Entry);
  const std::vector<float> got = op.data<float>(y);
  const std::vector<float> want = {8.0f, 4.0f, std::numeric_limits<float>::infinity(), 729.0f, 64.0f, 0.25f};
  EXPECT_EQ(got, want);
  EXPECT_TRUE(std::isnan(pow_f32_value(-2.0f, 0.5f)));
  EXPECT_EQ(pow_f32_value(std::numeric_limits<float>::quiet_NaN(), 0.0f), 1.0f);
  op.desc(y).dtype = static_cast<uint8_t>(DType::kInt32);
  EXPECT_EQ(op.check(kPowF32Entry), Status::kBadParams);
}

TEST(MinMax, BroadcastRowAgainstMatrix) {
  TestOp op;
  const uint32_t a = op.add_input(DType::kInt16, {2, 3});
  const uint32_t b = op.add_input(DType::kInt16, {3});
  const uint32_t y = op.add_output(DType::kInt16, {2, 3});
  op.set_params(MinMaxParams{1});
  op.set_data(a, std::vector<int16_t>{-32768, 5, 7, 0, 32767, -1});
  op.set_data(b, std::vector<int16_t>{-5, 6, 7});
  ASSERT_EQ(op.check(kMinMaxS16Entry), Status::kOk);
  op.run(kMinMaxS16Entry);
  EXPECT_EQ(op.data<int16_t>(y), (std::vector<int16_t>{-5, 6, 7, 0, 32767, 7}));
  op.params<MinMaxParams>().maximum = 0;
  op.run(kMinMaxS16Entry);
  EXPECT_EQ(op.data<int16_t>(y), (std::vector<int16_t>{-32768, 5, 7, -5, 6, -1}));
  op.params<MinMaxParams>().maximum = 2;
  EXPECT_EQ(op.check(kMinMaxS16Entry), Status::kBadParams);
  op.params<MinMaxParams>().maximum = 1;
  EXPECT_EQ(op.check(kMinMaxS8Entry), Status::kBadParams);  // int16 tensors
  EXPECT_EQ(op.check(kMinMaxS64Entry), Status::kBadParams);
  op.set_dims(b, {2});
  EXPECT_EQ(op.check(kMinMaxS16Entry), Status::kBadParams);  // does not broadcast
}

TEST(SquaredDifferenceQuant, CheckRefusesBadShiftsAndZeroPoints) {
  TestOp op;
  op.add_input(DType::kInt8, {4});
  op.add_input(DType::kInt8, {4});
  op.add_output(DType::kInt8, {4});
  op.set_params(SquaredDifferenceQuantParams{0, 0, 0, 1 << 30, -1, 1 << 30, -1, 1 << 30, 3});
  ASSERT_EQ(op.check(kSquaredDifferenceS8Entry), Status::kOk);
  op.params<SquaredDifferenceQuantParams>().input1_shift = 1;  // the input multipliers are below 1
  EXPECT_EQ(op.check(kSquaredDifferenceS8Entry), Status::kBadParams);
  op.params<SquaredDifferenceQuantParams>().input1_shift = -1;
  op.params<SquaredDifferenceQuantParams>().output_shift = 31;
  EXPECT_EQ(op.check(kSquaredDifferenceS8Entry), Status::kBadParams);
  op.params<SquaredDifferenceQuantParams>().output_shift = 3;
  op.params<SquaredDifferenceQuantParams>().output_zero_point = -129;
  EXPECT_EQ(op.check(kSquaredDifferenceS8Entry), Status::kBadParams);
  op.params<SquaredDifferenceQuantParams>().output_zero_point = 0;
  EXPECT_EQ(op.check(kSquaredDifferenceS16Entry), Status::kBadParams);  // int8 tensors
  op.set_params_bytes(4);
  EXPECT_EQ(op.check(kSquaredDifferenceS8Entry), Status::kBadParams);
}

TEST(CompareS8, RescaledBeforeComparing) {
  // a: scale 1/2, zp 0 (multiplier 2^30, shift 0); b: scale 1/4, zp 0 (2^30, -1).
  // a = 2 means 1.0, b = 4 means 1.0: equal after rescaling, not as raw values.
  TestOp op;
  const uint32_t a = op.add_input(DType::kInt8, {3});
  const uint32_t b = op.add_input(DType::kInt8, {3});
  const uint32_t y = op.add_output(DType::kBool, {3});
  op.set_params(CompareS8Params{static_cast<int32_t>(CompareFn::kEqual), 0, 1 << 30, 0, 0, 1 << 30, -1});
  op.set_data(a, std::vector<int8_t>{2, -3, 5});
  op.set_data(b, std::vector<int8_t>{4, -6, 9});
  ASSERT_EQ(op.check(kCompareS8Entry), Status::kOk);
  op.run(kCompareS8Entry);
  EXPECT_EQ(op.data<uint8_t>(y), (std::vector<uint8_t>{1, 1, 0}));
  op.params<CompareS8Params>().fn = static_cast<int32_t>(CompareFn::kGreater);
  op.run(kCompareS8Entry);
  EXPECT_EQ(op.data<uint8_t>(y), (std::vector<uint8_t>{0, 0, 1}));
  op.params<CompareS8Params>().fn = kCompareFnCount;
  EXPECT_EQ(op.check(kCompareS8Entry), Status::kBadParams);
  op.params<CompareS8Params>().fn = 0;
  op.params<CompareS8Params>().input2_shift = 1;
  EXPECT_EQ(op.check(kCompareS8Entry), Status::kBadParams);
}

TEST(CompareBool, EqualAndNotEqualOnly) {
  TestOp op;
  const uint32_t a = op.add_input(DType::kBool, {4});
  const uint32_t b = op.add_input(DType::kBool, {1});
  const uint32_t y = op.add_output(DType::kBool, {4});
  op.set_params(CompareParams{static_cast<int32_t>(CompareFn::kNotEqual)});
  op.set_data(a, std::vector<uint8_t>{0, 1, 2, 0});
  op.set_data(b, std::vector<uint8_t>{1});
  ASSERT_EQ(op.check(kCompareBoolEntry), Status::kOk);
  op.run(kCompareBoolEntry);
  EXPECT_EQ(op.data<uint8_t>(y), (std::vector<uint8_t>{1, 0, 0, 1}));  // 2 reads as true
  op.params<CompareParams>().fn = static_cast<int32_t>(CompareFn::kLess);
  EXPECT_EQ(op.check(kCompareBoolEntry), Status::kBadParams);
  EXPECT_EQ(op.check(kCompareS64Entry), Status::kBadParams);  // bool inputs
  op.desc(y).dtype = static_cast<uint8_t>(DType::kInt8);
  op.params<CompareParams>().fn = 0;
  EXPECT_EQ(op.check(kCompareBoolEntry), Status::kBadParams);
}

TEST(LogicalBinary, AndOrAndCheck) {
  TestOp op;
  const uint32_t a = op.add_input(DType::kBool, {2, 2});
  const uint32_t b = op.add_input(DType::kBool, {2, 1});
  const uint32_t y = op.add_output(DType::kBool, {2, 2});
  op.set_params(LogicalBinaryParams{0});
  op.set_data(a, std::vector<uint8_t>{0, 1, 0, 1});
  op.set_data(b, std::vector<uint8_t>{1, 0});
  ASSERT_EQ(op.check(kLogicalBinaryEntry), Status::kOk);
  op.run(kLogicalBinaryEntry);
  EXPECT_EQ(op.data<uint8_t>(y), (std::vector<uint8_t>{0, 1, 0, 0}));
  op.params<LogicalBinaryParams>().is_or = 1;
  op.run(kLogicalBinaryEntry);
  EXPECT_EQ(op.data<uint8_t>(y), (std::vector<uint8_t>{1, 1, 0, 1}));
  op.params<LogicalBinaryParams>().is_or = -1;
  EXPECT_EQ(op.check(kLogicalBinaryEntry), Status::kBadParams);
}

TEST(Select, ThreeWayBroadcastAndCheck) {
  TestOp op;
  const uint32_t c = op.add_input(DType::kBool, {2, 1});
  const uint32_t x = op.add_input(DType::kInt16, {3});
  const uint32_t y = op.add_input(DType::kInt16, {2, 3});
  const uint32_t out = op.add_output(DType::kInt16, {2, 3});
  op.set_data(c, std::vector<uint8_t>{1, 0});
  op.set_data(x, std::vector<int16_t>{1, 2, 3});
  op.set_data(y, std::vector<int16_t>{-1, -2, -3, -4, -5, -6});
  ASSERT_EQ(op.check(kSelectEntry), Status::kOk);
  op.run(kSelectEntry);
  EXPECT_EQ(op.data<int16_t>(out), (std::vector<int16_t>{1, 2, 3, -4, -5, -6}));
  op.desc(c).dtype = static_cast<uint8_t>(DType::kInt8);
  EXPECT_EQ(op.check(kSelectEntry), Status::kBadParams);
  op.desc(c).dtype = static_cast<uint8_t>(DType::kBool);
  op.desc(y).dtype = static_cast<uint8_t>(DType::kInt8);
  EXPECT_EQ(op.check(kSelectEntry), Status::kBadParams);
  op.desc(y).dtype = static_cast<uint8_t>(DType::kInt16);
  op.set_dims(out, {3, 3});
  EXPECT_EQ(op.check(kSelectEntry), Status::kBadParams);
  op.set_dims(out, {1, 2, 3});  // a rank above every input's
  EXPECT_EQ(op.check(kSelectEntry), Status::kBadParams);
}

}  // namespace binary_math_test
}  // namespace mote
