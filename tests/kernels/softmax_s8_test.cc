// int8 softmax against the independent gemmlowp transcription (gemmlowp_ref.h) of
// TFLite's reference_ops::Softmax<int8_t, int8_t>, hand-computed rows, and accuracy.
#include <gtest/gtest.h>
#include <math.h>

#include <vector>

#include "gemmlowp_ref.h"
#include "kernel_test_util.h"
#include "quant/quant_math.h"
#include "quant_test_util.h"
#include "softmax/softmax.h"

namespace mote {
namespace softmax_s8_test {

using testing::TestOp;

std::vector<int8_t> run_softmax(const SoftmaxS8Params& p, const std::vector<uint32_t>& dims,
                                const std::vector<int8_t>& x) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt8, dims);
  const uint32_t out = op.add_output(DType::kInt8, dims);
  op.set_params(p);
  op.set_data(in, x);
  EXPECT_EQ(op.check(kSoftmaxS8Entry), Status::kOk);
  op.run(kSoftmaxS8Entry);
  return op.data<int8_t>(out);
}

SoftmaxS8Params params_for(float beta, float input_scale) {
  SoftmaxS8Params p{};
  EXPECT_TRUE(softmax_s8_params(beta, input_scale, &p.input_multiplier, &p.input_left_shift,
                                &p.diff_min));
  return p;
}

TEST(SoftmaxS8, HandComputedRows) {
  const SoftmaxS8Params p = params_for(1.0f, 0.1f);
  // One element: probability 1 -> 256 - 128 saturates at 127.
  EXPECT_EQ(run_softmax(p, {1, 1}, {5}), (std::vector<int8_t>{127}));
  // Two equal elements: 1/2 each -> 128 - 128 = 0.
  EXPECT_EQ(run_softmax(p, {1, 2}, {-40, -40}), (std::vector<int8_t>{0, 0}));
  // Four equal elements: 64 - 128 = -64.
  EXPECT_EQ(run_softmax(p, {1, 4}, {7, 7, 7, 7}), (std::vector<int8_t>{-64, -64, -64, -64}));
  // A difference far below diff_min: exactly -128 and the maximum takes everything.
  EXPECT_EQ(run_softmax(p, {1, 2}, {127, -128}), (std::vector<int8_t>{127, -128}));
}

TEST(SoftmaxS8, MatchesTranscriptionOfTfliteOnRandomRows) {
  // Scales of real models (kws, vww, resnet, micro_speech presoftmax tensors are in this
  // range), tiny and large beta * scale, rows of many lengths.
  const float scales[] = {0.0039215f, 0.0625f, 0.1f, 0.21f, 0.5f, 1.7f, 25.0f};
  const uint32_t depths[] = {1, 2, 3, 4, 10, 12, 31, 100, 300};
  uint32_t seed = 1;
  for (float scale : scales) {
    for (float beta : {1.0f, 0.5f}) {
      const SoftmaxS8Params p = params_for(beta, scale);
      for (uint32_t depth : depths) {
        const uint32_t rows = 3;
        // Half the rows full range, half clustered (many elements near the maximum).
        std::vector<int8_t> x = testing::random_full_range<int8_t>(rows * depth, seed++);
        for (uint32_t i = depth; i < rows * depth; ++i) x[i] = static_cast<int8_t>(x[i] / 16 + 90);
        const auto got = run_softmax(p, {rows, depth}, x);
        for (uint32_t r = 0; r < rows; ++r) {
          const std::vector<int8_t> row(x.begin() + r * depth, x.begin() + (r + 1) * depth);
          const auto expected = testing::gemmlowp_ref::softmax_s8(row, p.input_multiplier,
                                                                  p.input_left_shift, p.diff_min);
          for (uint32_t c = 0; c < depth; ++c) {
            ASSERT_EQ(got[r * depth + c], expected[c])
                << "scale " << scale << " beta " << beta << " depth " << depth << " row " << r;
          }
        }
      }
    }
  }
}

TEST(SoftmaxS8, CloseToRealSoftmax) {
  const float scale = 0.05f;
  const SoftmaxS8Params p = params_for(1.0f, scale);
  const uint32_t depth = 10;
  const auto x = testing::random_full_range<int8_t>(depth * 20, 99);
  const auto got = run_softmax(p, {20, depth}, x);
  for (uint32_t r = 0; r < 20; ++r) {
    double denom = 0;
    for (uint32_t c = 0; c < depth; ++c) denom += exp(scale * x[r * depth + c]);
    for (uint32_t c = 0; c < depth; ++c) {
      const double prob = exp(scale * x[r * depth + c]) / denom;
      EXPECT_NEAR(got[r * depth + c], std::min(127.0, prob * 256 - 128), 1.0);
    }
  }
}

TEST(SoftmaxS8Check, Rejections) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt8, {2, 5});
  const uint32_t out = op.add_output(DType::kInt8, {2, 5});
  op.set_params(SoftmaxS8Params{1 << 30, 20, -1000});
  ASSERT_EQ(op.check(kSoftmaxS8Entry), Status::kOk);
  op.params<SoftmaxS8Params>().input_left_shift = 32;
  EXPECT_EQ(op.check(kSoftmaxS8Entry), Status::kBadParams);
  op.params<SoftmaxS8Params>().input_left_shift = -1;
  EXPECT_EQ(op.check(kSoftmaxS8Entry), Status::kBadParams);
  op.params<SoftmaxS8Params>().input_left_shift = 31;
  op.params<SoftmaxS8Params>().diff_min = 1;
  EXPECT_EQ(op.check(kSoftmaxS8Entry), Status::kBadParams);
  op.params<SoftmaxS8Params>().diff_min = 0;
  EXPECT_EQ(op.check(kSoftmaxS8Entry), Status::kOk);
  op.desc(out).dims[1] = 4;
  EXPECT_EQ(op.check(kSoftmaxS8Entry), Status::kBadParams);
  op.desc(out).dims[1] = 5;
  op.desc(in).dtype = static_cast<uint8_t>(DType::kInt16);
  EXPECT_EQ(op.check(kSoftmaxS8Entry), Status::kBadParams);
}

}  // namespace softmax_s8_test
}  // namespace mote
