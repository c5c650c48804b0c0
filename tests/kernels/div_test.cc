// The integer DIV kernels div_s8 and div_s32: div_s8 against the transcription of TFLite's
// reference arithmetic (div_ref.h) on every int8 pair for several parameter sets
// (including the zero divisor and the exponents of 32 and more TFLite reaches), the
// values TFLite leaves undefined, broadcasting in place, and check() against corrupted
// descriptors and parameters. tests/ops/div_test.cc runs them through compiled models.
#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "div_ref.h"
#include "elementwise/elementwise.h"
#include "kernel_test_util.h"
#include "quant_test_util.h"

namespace mote {
namespace div_test {

using testing::TestOp;

QuantMulParams params(int32_t zp1, int32_t zp2, int32_t zpo, int32_t multiplier, int32_t shift,
                      int32_t lo = -128, int32_t hi = 127) {
  return QuantMulParams{zp1, zp2, zpo, multiplier, shift, lo, hi};
}

TEST(DivS8, EveryPairAsTfliteReference) {
  const std::vector<QuantMulParams> sets = {
      params(0, 0, 0, 1 << 30, 1),                  // x / y exactly
      params(-3, 10, 2, 1288490189, 3),             // typical scales
      params(127, -128, -128, 1073741824, -25),     // the smallest shift: exponents up to 63
      params(-128, 127, 127, 2147483647, 22),       // the largest shift
      params(5, -7, 100, 0, 0),                     // a multiplier flushed to zero
      params(0, 0, 0, 1 << 30, 6, -20, 30),         // a clamp range
  };
  for (const QuantMulParams& p : sets) {
    const testing::DivS8Ref r{p.input1_zero_point, p.input2_zero_point, p.output_zero_point, p.output_multiplier,
                              p.output_shift,      p.act_min,           p.act_max};
    for (int a = -128; a <= 127; ++a) {
      for (int b = -128; b <= 127; ++b) {
        const int8_t got = div_s8_value(p, static_cast<int8_t>(a), static_cast<int8_t>(b));
        ASSERT_EQ(got, testing::ref_div_s8(r, static_cast<int8_t>(a), static_cast<int8_t>(b)))
            << a << " / " << b << " shift " << p.output_shift;
      }
    }
  }
}

TEST(DivS8, ZeroDividendGivesTheZeroPointPlusOneWhereTfliteShiftsBy32) {
  // 0 / d: n = 0 has 31 sign bits, so the exponent is 31 + floor(log2 d) - shift: from
  // 32 on TFLite's RoundingDivideByPOT adds its rounding bit to a zero quotient.
  const QuantMulParams p = params(0, 0, 0, 1 << 30, 1);
  EXPECT_EQ(div_s8_value(p, 0, 1), 0);   // exponent 30
  EXPECT_EQ(div_s8_value(p, 0, 3), 0);   // exponent 31
  EXPECT_EQ(div_s8_value(p, 0, 4), 1);   // exponent 32
  EXPECT_EQ(div_s8_value(p, 0, -100), 1);
  EXPECT_EQ(div_s8_value(p, 100, 4), 25);
  EXPECT_EQ(div_s8_value(p, -100, 3), -33);
  EXPECT_EQ(div_s8_value(p, 127, -1), -127);
}

TEST(DivS32, TruncatesAndDefinesWhatTfliteLeavesUndefined) {
  EXPECT_EQ(div_s32_value(-7, 2), -3);
  EXPECT_EQ(div_s32_value(7, -2), -3);
  EXPECT_EQ(div_s32_value(-7, -2), 3);
  EXPECT_EQ(div_s32_value(5, 0), 0);
  EXPECT_EQ(div_s32_value(INT32_MIN, -1), INT32_MIN);
  EXPECT_EQ(div_s32_value(INT32_MAX, -1), -INT32_MAX);
  EXPECT_EQ(div_s32_value(INT32_MIN, INT32_MIN), 1);
}

TEST(DivS32, BroadcastsInPlaceAndClamps) {
  TestOp op;
  const uint32_t a = op.add_input(DType::kInt32, {2, 3});
  const uint32_t b = op.add_input(DType::kInt32, {3});
  op.add_output_tensor(a);  // the output over input a
  op.set_params(BinaryS32Params{0, 6});
  op.set_data(a, std::vector<int32_t>{100, -9, 13, 12, 0, -50});
  op.set_data(b, std::vector<int32_t>{10, -3, 2});
  ASSERT_EQ(op.check(kDivS32Entry), Status::kOk);
  op.run(kDivS32Entry);
  EXPECT_EQ(op.data<int32_t>(a), (std::vector<int32_t>{6, 3, 6, 1, 0, 0}));
}

TEST(DivS8, CheckRefusesCorruptParamsAndDescriptors) {
  TestOp op;
  const uint32_t a = op.add_input(DType::kInt8, {4});
  const uint32_t b = op.add_input(DType::kInt8, {4});
  const uint32_t y = op.add_output(DType::kInt8, {4});
  op.set_params(params(0, 0, 0, 1 << 30, 1));
  ASSERT_EQ(op.check(kDivS8Entry), Status::kOk);
  op.params<QuantMulParams>().output_shift = kDivS8MaxShift + 1;
  EXPECT_EQ(op.check(kDivS8Entry), Status::kBadParams);
  op.params<QuantMulParams>().output_shift = kDivS8MinShift - 1;
  EXPECT_EQ(op.check(kDivS8Entry), Status::kBadParams);
  op.params<QuantMulParams>().output_shift = 0;
  op.params<QuantMulParams>().output_multiplier = -1;
  EXPECT_EQ(op.check(kDivS8Entry), Status::kBadParams);
  op.params<QuantMulParams>().output_multiplier = 1 << 30;
  op.params<QuantMulParams>().input2_zero_point = 128;
  EXPECT_EQ(op.check(kDivS8Entry), Status::kBadParams);
  op.params<QuantMulParams>().input2_zero_point = 0;
  op.params<QuantMulParams>().act_min = 5;
  op.params<QuantMulParams>().act_max = 4;
  EXPECT_EQ(op.check(kDivS8Entry), Status::kBadParams);
  op.params<QuantMulParams>().act_max = 127;
  ASSERT_EQ(op.check(kDivS8Entry), Status::kOk);
  op.set_dims(b, {3});
  EXPECT_EQ(op.check(kDivS8Entry), Status::kBadParams);
  op.set_dims(b, {4});
  op.desc(y).dtype = static_cast<uint8_t>(DType::kInt16);
  EXPECT_EQ(op.check(kDivS8Entry), Status::kBadParams);
  op.desc(y).dtype = static_cast<uint8_t>(DType::kInt8);
  op.set_params_bytes(sizeof(QuantMulParams) - 4);
  EXPECT_EQ(op.check(kDivS8Entry), Status::kBadParams);
  (void)a;
}

TEST(DivS32, CheckRefusesAnEmptyRangeAndOtherTypes) {
  TestOp op;
  op.add_input(DType::kInt32, {4});
  const uint32_t b = op.add_input(DType::kInt32, {4});
  op.add_output(DType::kInt32, {4});
  op.set_params(BinaryS32Params{1, 0});
  EXPECT_EQ(op.check(kDivS32Entry), Status::kBadParams);
  op.params<BinaryS32Params>().act_min = INT32_MIN;
  op.params<BinaryS32Params>().act_max = INT32_MAX;
  ASSERT_EQ(op.check(kDivS32Entry), Status::kOk);
  op.desc(b).dtype = static_cast<uint8_t>(DType::kFloat32);
  EXPECT_EQ(op.check(kDivS32Entry), Status::kBadParams);
}

}  // namespace div_test
}  // namespace mote
