// The unary math kernels (math_f32, abs_s8, abs_s16, rsqrt_s8) and logical_not: results
// against hand-computed values and a double-precision reference, and check() against
// corrupted descriptors and parameters. The per-op tests (tests/ops/unary_test.cc)
// check the arithmetic against TFLite's on every dtype.
#include "unary/unary.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "kernel_test_util.h"
#include "logical/logical.h"
#include "quant_test_util.h"

namespace mote {
namespace unary_test {

using testing::TestOp;

uint32_t bits(float v) {
  uint32_t b;
  std::memcpy(&b, &v, 4);
  return b;
}

TEST(MathF32, RoundIsHalfToEvenWithTfliteSignOfZero) {
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> x = {0.5f, 1.5f, 2.5f, -2.5f, -0.3f, -0.5f, -0.0f, 8388607.5f, inf, -inf};
  const std::vector<float> y = {0.0f, 2.0f, 2.0f, -2.0f, 0.0f, 0.0f, -0.0f, 8388608.0f, inf, -inf};
  for (size_t i = 0; i < x.size(); ++i)
    EXPECT_EQ(bits(math_f32_value(UnaryFn::kRound, x[i])), bits(y[i])) << x[i];  // +0 for -0.3, -0.5
  EXPECT_TRUE(std::isnan(math_f32_value(UnaryFn::kRound, std::numeric_limits<float>::quiet_NaN())));
}

TEST(MathF32, EveryFunctionThroughTheEntry) {
  const std::vector<float> x = {-2.25f, 0.0f, 0.5f, 4.0f, 9.5f, -7.75f};
  for (int32_t fn = 0; fn < kUnaryFnCount; ++fn) {
    TestOp op;
    const uint32_t in = op.add_input(DType::kFloat32, {2, 3});
    const uint32_t out = op.add_output(DType::kFloat32, {2, 3});
    op.set_params(MathF32Params{fn});
    op.set_data(in, x);
    ASSERT_EQ(op.check(kMathF32Entry), Status::kOk);
    op.run(kMathF32Entry);
    const std::vector<float> y = op.data<float>(out);
    for (size_t i = 0; i < x.size(); ++i) {
      const double v = x[i];
      double expected = 0;
      switch (static_cast<UnaryFn>(fn)) {
        case UnaryFn::kAbs: expected = std::fabs(v); break;
        case UnaryFn::kNeg: expected = -v; break;
        case UnaryFn::kSin: expected = std::sin(v); break;
        case UnaryFn::kCos: expected = std::cos(v); break;
        case UnaryFn::kLog: expected = std::log(v); break;
        case UnaryFn::kSqrt: expected = std::sqrt(v); break;
        case UnaryFn::kRsqrt: expected = 1.0 / std::sqrt(v); break;
        case UnaryFn::kSquare: expected = v * v; break;
        case UnaryFn::kExp: expected = std::exp(v); break;
        case UnaryFn::kFloor: expected = std::floor(v); break;
        case UnaryFn::kCeil: expected = std::ceil(v); break;
        case UnaryFn::kRound: expected = std::nearbyint(v); break;
        case UnaryFn::kErf: expected = std::erf(v); break;
        case UnaryFn::kSoftplus: expected = std::log1p(std::exp(v)); break;
        case UnaryFn::kSign: expected = v > 0 ? 1.0 : v < 0 ? -1.0 : 0.0; break;
      }
      if (std::isnan(expected)) {
        EXPECT_TRUE(std::isnan(y[i])) << fn << " " << x[i];
      } else if (std::isinf(expected)) {
        EXPECT_EQ(y[i], expected) << fn << " " << x[i];
      } else {
        EXPECT_NEAR(y[i], expected, 4.8e-7 * std::fabs(expected)) << fn << " " << x[i];
      }
    }
  }
}

TEST(MathF32, SoftplusDoesNotOverflow) {
  // ln(1 + e^x) for large |x|: x itself above, e^x below (expf(100) alone is inf).
  EXPECT_EQ(math_f32_value(UnaryFn::kSoftplus, 100.0f), 100.0f);
  EXPECT_EQ(math_f32_value(UnaryFn::kSoftplus, 1e30f), 1e30f);
  EXPECT_NEAR(math_f32_value(UnaryFn::kSoftplus, -30.0f), std::exp(-30.0), 1e-20);
  EXPECT_EQ(math_f32_value(UnaryFn::kSoftplus, -200.0f), 0.0f);
  EXPECT_EQ(math_f32_value(UnaryFn::kErf, 10.0f), 1.0f);
  EXPECT_EQ(math_f32_value(UnaryFn::kErf, -10.0f), -1.0f);
}

TEST(MathF32, CheckRefusesUnknownFunctionsAndDtypes) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kFloat32, {4});
  const uint32_t out = op.add_output(DType::kFloat32, {4});
  op.set_params(MathF32Params{kUnaryFnCount});
  EXPECT_EQ(op.check(kMathF32Entry), Status::kBadParams);
  op.params<MathF32Params>().fn = -1;
  EXPECT_EQ(op.check(kMathF32Entry), Status::kBadParams);
  op.params<MathF32Params>().fn = 0;
  ASSERT_EQ(op.check(kMathF32Entry), Status::kOk);
  op.desc(out).dtype = static_cast<uint8_t>(DType::kInt32);
  EXPECT_EQ(op.check(kMathF32Entry), Status::kBadParams);
  op.desc(out).dtype = static_cast<uint8_t>(DType::kFloat32);
  op.set_dims(in, {2, 2});
  EXPECT_EQ(op.check(kMathF32Entry), Status::kBadParams);
  op.set_dims(in, {4});
  op.set_params_bytes(8);
  EXPECT_EQ(op.check(kMathF32Entry), Status::kBadParams);
}

TEST(AbsS8, HandComputed) {
  // zero point -3 in, 10 out, one scale: |x + 3| + 10, clamped.
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt8, {5});
  const uint32_t out = op.add_output(DType::kInt8, {5});
  op.set_params(AbsQuantParams{-3, 10, 0, 0, 0});
  op.set_data(in, std::vector<int8_t>{-3, -10, 5, -128, 127});
  ASSERT_EQ(op.check(kAbsS8Entry), Status::kOk);
  op.run(kAbsS8Entry);
  EXPECT_EQ(op.data<int8_t>(out), (std::vector<int8_t>{10, 17, 18, 127, 127}));
  // Rescaled by one half (2^30, shift 0): |-7| = 7 -> 3.5 -> 4 (half away from zero).
  op.params<AbsQuantParams>() = AbsQuantParams{0, 0, 1 << 30, 0, 1};
  op.set_data(in, std::vector<int8_t>{-7, 6, 0, -128, 1});
  ASSERT_EQ(op.check(kAbsS8Entry), Status::kOk);
  op.run(kAbsS8Entry);
  EXPECT_EQ(op.data<int8_t>(out), (std::vector<int8_t>{4, 3, 0, 64, 1}));
}

TEST(AbsS16, MinimumSaturates) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt16, {3});
  const uint32_t out = op.add_output(DType::kInt16, {3});
  op.set_params(AbsQuantParams{0, 0, 0, 0, 0});
  op.set_data(in, std::vector<int16_t>{-32768, -5, 32767});
  ASSERT_EQ(op.check(kAbsS16Entry), Status::kOk);
  op.run(kAbsS16Entry);
  EXPECT_EQ(op.data<int16_t>(out), (std::vector<int16_t>{32767, 5, 32767}));
}

TEST(AbsS16, UnquantizedKeepsTheLowBitsAsTflm) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt16, {3});
  const uint32_t out = op.add_output(DType::kInt16, {3});
  op.set_params(AbsQuantParams{0, 0, 0, 0, static_cast<int32_t>(AbsMode::kAbsUnquantized)});
  op.set_data(in, std::vector<int16_t>{-32768, -5, 32767});
  ASSERT_EQ(op.check(kAbsS16Entry), Status::kOk);
  op.run(kAbsS16Entry);
  EXPECT_EQ(op.data<int16_t>(out), (std::vector<int16_t>{-32768, 5, 32767}));
  op.params<AbsQuantParams>().input_zero_point = 1;
  EXPECT_EQ(op.check(kAbsS16Entry), Status::kBadParams);
}

TEST(AbsQuant, CheckRefusesBadParams) {
  TestOp op;
  op.add_input(DType::kInt8, {4});
  const uint32_t out = op.add_output(DType::kInt8, {4});
  op.set_params(AbsQuantParams{0, 0, 1 << 30, -31, 1});
  ASSERT_EQ(op.check(kAbsS8Entry), Status::kOk);
  op.params<AbsQuantParams>().shift = -32;
  EXPECT_EQ(op.check(kAbsS8Entry), Status::kBadParams);
  op.params<AbsQuantParams>().mode = 0;  // the shift is not read
  EXPECT_EQ(op.check(kAbsS8Entry), Status::kOk);
  op.params<AbsQuantParams>().mode = 2;  // unquantized: int16 only
  EXPECT_EQ(op.check(kAbsS8Entry), Status::kBadParams);
  op.params<AbsQuantParams>().mode = 3;
  EXPECT_EQ(op.check(kAbsS8Entry), Status::kBadParams);
  op.params<AbsQuantParams>() = AbsQuantParams{128, 0, 0, 0, 0};
  EXPECT_EQ(op.check(kAbsS8Entry), Status::kBadParams);
  op.params<AbsQuantParams>() = AbsQuantParams{0, 0, 0, 0, 0};
  EXPECT_EQ(op.check(kAbsS16Entry), Status::kBadParams);  // int8 tensors
  op.desc(out).dtype = static_cast<uint8_t>(DType::kInt16);
  EXPECT_EQ(op.check(kAbsS8Entry), Status::kBadParams);
}

TEST(RsqrtS8, HandComputedAndNonPositiveInputs) {
  // Input scale 1/4, output scale 1/64: 1 / (sqrt(1/4) * 1/64) = 128 = (2^30, shift 8).
  // Output zero point -64. v = 4 means 1.0 -> rsqrt 1 -> 64 - 64 = 0; v = 16 means 4 ->
  // 0.5 -> 32 - 64; v = 1 means 1/4 -> 2 -> 128 - 64.
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt8, {6});
  const uint32_t out = op.add_output(DType::kInt8, {6});
  op.set_params(RsqrtQuantParams{-10, -64, 1 << 30, 8});
  op.set_data(in, std::vector<int8_t>{-6, 6, -9, -10, -11, -128});
  ASSERT_EQ(op.check(kRsqrtS8Entry), Status::kOk);
  op.run(kRsqrtS8Entry);
  // The zero point and anything below it give 127 (TFLite: 127 at the zero point, an
  // error below it).
  EXPECT_EQ(op.data<int8_t>(out), (std::vector<int8_t>{0, -32, 64, 127, 127, 127}));
}

TEST(RsqrtS8, CheckRefusesShiftsOutsideTheKernelRange) {
  TestOp op;
  op.add_input(DType::kInt8, {4});
  op.add_output(DType::kInt8, {4});
  op.set_params(RsqrtQuantParams{0, 0, 1 << 30, kRsqrtShift - 31});
  ASSERT_EQ(op.check(kRsqrtS8Entry), Status::kOk);
  op.params<RsqrtQuantParams>().shift = kRsqrtShift - 32;
  EXPECT_EQ(op.check(kRsqrtS8Entry), Status::kBadParams);
  op.params<RsqrtQuantParams>().shift = kRsqrtShift + 31;
  EXPECT_EQ(op.check(kRsqrtS8Entry), Status::kBadParams);
  op.params<RsqrtQuantParams>().shift = std::numeric_limits<int32_t>::min();
  EXPECT_EQ(op.check(kRsqrtS8Entry), Status::kBadParams);
}

TEST(LogicalNot, NonZeroBytesAreTrue) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kBool, {4});
  const uint32_t out = op.add_output(DType::kBool, {4});
  op.set_data(in, std::vector<uint8_t>{0, 1, 2, 255});
  ASSERT_EQ(op.check(kLogicalNotEntry), Status::kOk);
  op.run(kLogicalNotEntry);
  EXPECT_EQ(op.data<uint8_t>(out), (std::vector<uint8_t>{1, 0, 0, 0}));
  op.desc(out).dtype = static_cast<uint8_t>(DType::kInt8);
  EXPECT_EQ(op.check(kLogicalNotEntry), Status::kBadParams);
}

}  // namespace unary_test
}  // namespace mote
