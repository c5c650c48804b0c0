// int16 softmax and int8 -> int16 softmax against transcriptions of TFLite Micro's
// arithmetic (softmax_s16_ref.h: the tables, LUTLookup, SoftmaxInt16; gemmlowp_ref.h:
// Softmax<int8_t, int16_t>), hand-computed rows, and check() refusals.
#include <gtest/gtest.h>

#include <vector>

#include "gemmlowp_ref.h"
#include "kernel_test_util.h"
#include "quant/quant_math.h"
#include "quant_test_util.h"
#include "softmax/softmax.h"
#include "softmax_s16_ref.h"

namespace mote {
namespace softmax_s16_test {

using testing::TestOp;

SoftmaxS16Params s16_params(float beta, float input_scale) {
  SoftmaxS16Params p{};
  quantize_multiplier(static_cast<double>(input_scale) * static_cast<double>(beta) / (10.0 / 65535.0),
                      &p.input_multiplier, &p.input_left_shift);
  softmax_s16_tables(p.exp_lut, p.one_over_one_plus_x_lut);
  return p;
}

std::vector<int16_t> run_s16(const SoftmaxS16Params& p, uint32_t rows, uint32_t depth, const std::vector<int16_t>& x) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt16, {rows, depth});
  const uint32_t out = op.add_output(DType::kInt16, {rows, depth});
  op.set_params(p);
  op.set_data(in, x);
  EXPECT_EQ(op.check(kSoftmaxS16Entry), Status::kOk);
  op.run(kSoftmaxS16Entry);
  return op.data<int16_t>(out);
}

TEST(SoftmaxS16, TablesAreTfliteMicros) {
  SoftmaxS16Params p{};
  softmax_s16_tables(p.exp_lut, p.one_over_one_plus_x_lut);
  const std::vector<int16_t> exp_lut = testing::ref_softmax_exp_lut();
  const std::vector<int16_t> recip_lut = testing::ref_softmax_reciprocal_lut();
  for (int i = 0; i < kSoftmaxS16LutSize; ++i) {
    EXPECT_EQ(p.exp_lut[i], exp_lut[static_cast<size_t>(i)]) << i;
    EXPECT_EQ(p.one_over_one_plus_x_lut[i], recip_lut[static_cast<size_t>(i)]) << i;
  }
  // exp(0) and 1 / (1 + 0) are the table's top value; exp(-10) and 1 / 2 its ends.
  EXPECT_EQ(p.exp_lut[512], 32767);
  EXPECT_EQ(p.one_over_one_plus_x_lut[0], 32767);
  EXPECT_EQ(p.one_over_one_plus_x_lut[512], 16384);
}

TEST(SoftmaxS16, LookupInterpolates) {
  SoftmaxS16Params p{};
  for (int i = 0; i < kSoftmaxS16LutSize; ++i) p.exp_lut[i] = static_cast<int16_t>(i * 64 - 16384);
  EXPECT_EQ(softmax_s16_lut_lookup(p.exp_lut, -32768), -16384);
  EXPECT_EQ(softmax_s16_lut_lookup(p.exp_lut, 0), 0);
  EXPECT_EQ(softmax_s16_lut_lookup(p.exp_lut, 64), 32);  // halfway: slope 64 * 64 / 128
  EXPECT_EQ(softmax_s16_lut_lookup(p.exp_lut, 32767), 16384);  // 16320 + (64 * 127 + 64) >> 7
}

TEST(SoftmaxS16, HandComputedRows) {
  const SoftmaxS16Params p = s16_params(1.0f, 1.0f / 4096);
  EXPECT_EQ(run_s16(p, 1, 1, {1234}), (std::vector<int16_t>{32767}));
  const std::vector<int16_t> halves = run_s16(p, 1, 2, {-500, -500});
  EXPECT_NEAR(halves[0], 16384, 2);
  EXPECT_EQ(halves[0], halves[1]);
}

TEST(SoftmaxS16, MatchesTranscriptionOfTfliteMicro) {
  const float scales[] = {1.0f / 32768, 1.0f / 4096, 0.0005f, 0.01f, 0.3f};
  const uint32_t depths[] = {1, 2, 3, 7, 16, 100, 1000};
  uint32_t seed = 11;
  for (float scale : scales) {
    for (float beta : {1.0f, 0.25f, 3.0f}) {
      const SoftmaxS16Params p = s16_params(beta, scale);
      for (uint32_t depth : depths) {
        const uint32_t rows = 3;
        std::vector<int16_t> x = testing::random_full_range<int16_t>(rows * depth, seed++);
        for (uint32_t i = depth; i < 2 * depth; ++i) x[i] = static_cast<int16_t>(x[i] / 64 + 20000);  // clustered
        for (uint32_t i = 2 * depth; i < 3 * depth; ++i) x[i] = -32768;                            // all equal
        const std::vector<int16_t> got = run_s16(p, rows, depth, x);
        for (uint32_t r = 0; r < rows; ++r) {
          const std::vector<int16_t> row(x.begin() + r * depth, x.begin() + (r + 1) * depth);
          const std::vector<int16_t> expected = testing::ref_softmax_s16(row, p.input_multiplier, p.input_left_shift);
          for (uint32_t c = 0; c < depth; ++c)
            ASSERT_EQ(got[r * depth + c], expected[c]) << "scale " << scale << " beta " << beta << " depth " << depth;
        }
      }
    }
  }
}

TEST(SoftmaxS16, CheckRefusesMalformedPrograms) {
  SoftmaxS16Params p = s16_params(1.0f, 0.001f);
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt16, {2, 5});
  const uint32_t out = op.add_output(DType::kInt16, {2, 5});
  op.set_params(p);
  ASSERT_EQ(op.check(kSoftmaxS16Entry), Status::kOk);
  op.params<SoftmaxS16Params>().input_left_shift = 31;
  EXPECT_EQ(op.check(kSoftmaxS16Entry), Status::kBadParams);
  op.params<SoftmaxS16Params>().input_left_shift = p.input_left_shift;
  op.set_dims(out, {5, 2});
  EXPECT_EQ(op.check(kSoftmaxS16Entry), Status::kBadParams);
  op.set_dims(out, {2, 5});
  op.set_dims(in, {2, 0});
  op.set_dims(out, {2, 0});
  EXPECT_EQ(op.check(kSoftmaxS16Entry), Status::kBadParams);
  op.set_dims(in, {1, kSoftmaxS16MaxDepth + 1});
  op.set_dims(out, {1, kSoftmaxS16MaxDepth + 1});
  EXPECT_EQ(op.check(kSoftmaxS16Entry), Status::kBadParams);
  op.set_dims(in, {2, 5});
  op.set_dims(out, {2, 5});
  op.desc(out).dtype = static_cast<uint8_t>(DType::kInt8);
  EXPECT_EQ(op.check(kSoftmaxS16Entry), Status::kBadParams);
  op.desc(out).dtype = static_cast<uint8_t>(DType::kInt16);
  op.set_params_bytes(8);
  EXPECT_EQ(op.check(kSoftmaxS16Entry), Status::kBadParams);
}

TEST(SoftmaxS8S16, MatchesTranscriptionOfTflite) {
  const float scales[] = {0.0039215f, 0.1f, 0.5f, 25.0f};
  const uint32_t depths[] = {1, 2, 10, 100, 300};
  uint32_t seed = 40;
  for (float scale : scales) {
    SoftmaxS8Params p{};
    ASSERT_TRUE(softmax_s8_params(1.0f, scale, &p.input_multiplier, &p.input_left_shift, &p.diff_min));
    for (uint32_t depth : depths) {
      std::vector<int8_t> x = testing::random_full_range<int8_t>(2 * depth, seed++);
      for (uint32_t i = depth; i < 2 * depth; ++i) x[i] = static_cast<int8_t>(x[i] / 16 + 90);
      TestOp op;
      const uint32_t in = op.add_input(DType::kInt8, {2, depth});
      const uint32_t out = op.add_output(DType::kInt16, {2, depth});
      op.set_params(p);
      op.set_data(in, x);
      ASSERT_EQ(op.check(kSoftmaxS8S16Entry), Status::kOk);
      op.run(kSoftmaxS8S16Entry);
      const std::vector<int16_t> got = op.data<int16_t>(out);
      for (uint32_t r = 0; r < 2; ++r) {
        const std::vector<int8_t> row(x.begin() + r * depth, x.begin() + (r + 1) * depth);
        const auto expected = testing::gemmlowp_ref::softmax_s8_to<int16_t>(row, p.input_multiplier,
                                                                             p.input_left_shift, p.diff_min);
        for (uint32_t c = 0; c < depth; ++c)
          ASSERT_EQ(got[r * depth + c], expected[c]) << "scale " << scale << " depth " << depth;
      }
    }
  }
  // One element: probability 1 saturates at 32767; the int8 check refuses an int16 output.
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt8, {1, 1});
  const uint32_t out = op.add_output(DType::kInt16, {1, 1});
  SoftmaxS8Params p{};
  ASSERT_TRUE(softmax_s8_params(1.0f, 0.1f, &p.input_multiplier, &p.input_left_shift, &p.diff_min));
  op.set_params(p);
  op.set_data(in, std::vector<int8_t>{3});
  EXPECT_EQ(op.check(kSoftmaxS8Entry), Status::kBadParams);
  ASSERT_EQ(op.check(kSoftmaxS8S16Entry), Status::kOk);
  op.run(kSoftmaxS8S16Entry);
  EXPECT_EQ(op.data<int16_t>(out), (std::vector<int16_t>{32767}));
}

}  // namespace softmax_s16_test
}  // namespace mote
