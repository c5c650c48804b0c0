// Log-softmax: float32 against x - max - ln(sum(exp(x - max))) in double; int8 against the
// typed transcription of TFLite's LogSoftmaxQuantized (gemmlowp_ref.h), over input scales
// from fine to coarse and rows of 1 to 300 elements.
#include "log_softmax/log_softmax.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "gemmlowp_ref.h"
#include "kernel_test_util.h"
#include "quant/quant_math.h"
#include "quant_test_util.h"

namespace mote {
namespace log_softmax_test {

using testing::TestOp;

TEST(LogSoftmaxF32, MatchesDoubleFormula) {
  std::mt19937 rng(50);
  const uint32_t rows = 7, depth = 33;
  std::vector<float> x(rows * depth);
  for (float& v : x) v = std::uniform_real_distribution<float>(-20.0f, 20.0f)(rng);
  TestOp op;
  const uint32_t in = op.add_input(DType::kFloat32, {rows, depth});
  const uint32_t out = op.add_output(DType::kFloat32, {rows, depth});
  op.set_data(in, x);
  ASSERT_EQ(op.check(kLogSoftmaxF32Entry), Status::kOk);
  op.run(kLogSoftmaxF32Entry);
  const std::vector<float> y = op.data<float>(out);
  for (uint32_t r = 0; r < rows; ++r) {
    double max = -1e300, sum = 0;
    for (uint32_t c = 0; c < depth; ++c) max = std::max(max, static_cast<double>(x[r * depth + c]));
    for (uint32_t c = 0; c < depth; ++c) sum += std::exp(x[r * depth + c] - max);
    for (uint32_t c = 0; c < depth; ++c) {
      const double expected = x[r * depth + c] - max - std::log(sum);
      EXPECT_TRUE(std::fabs(y[r * depth + c] - expected) <= 1e-5 + 1e-6 * std::fabs(expected)) << r << "," << c;
    }
  }
}

TEST(LogSoftmaxS8, ReferenceConstantsAreTflites) {
  using testing::gemmlowp_ref::Fx;
  EXPECT_EQ(Fx<0>::from_double(std::log(2.0)).raw, 1488522236);
  EXPECT_EQ(Fx<0>::from_double(std::sqrt(std::sqrt(0.5))).raw, 1805811301);
  EXPECT_EQ(Fx<0>::from_double(std::sqrt(0.5)).raw, 1518500250);
  EXPECT_EQ(Fx<0>::from_double(11.0 / 240.0 * std::sqrt(std::sqrt(2.0))).raw, 117049297);
  EXPECT_EQ(Fx<0>::from_double(1.0 / 20.0 * std::sqrt(std::sqrt(2.0))).raw, 127690142);
  EXPECT_EQ(Fx<0>::from_double(2.0 / std::sqrt(std::sqrt(2.0)) - std::sqrt(std::sqrt(2.0))).raw, 1057819769);
  EXPECT_EQ(Fx<0>::from_double(1.0 / 4.0 * std::sqrt(std::sqrt(2.0))).raw, 638450708);
}

TEST(LogSoftmaxS8, MatchesModelAcrossScalesAndDepths) {
  std::mt19937 rng(51);
  const float scales[] = {0.002f, 0.01f, 0.05f, 0.1f, 0.25f, 1.0f, 4.0f};
  const uint32_t depths[] = {1, 2, 10, 64, 300};
  for (const float scale : scales) {
    LogSoftmaxS8Params p{};
    ASSERT_TRUE(log_softmax_s8_params(scale, &p.input_multiplier, &p.input_left_shift, &p.reverse_scaling_divisor,
                                      &p.reverse_scaling_right_shift, &p.diff_min))
        << scale;
    for (const uint32_t depth : depths) {
      const uint32_t rows = 3;
      std::vector<int8_t> x = testing::random_full_range<int8_t>(rows * depth, rng());
      if (depth > 2) x[1] = x[0];  // ties for the maximum
      TestOp op;
      const uint32_t in = op.add_input(DType::kInt8, {rows, depth});
      const uint32_t out = op.add_output(DType::kInt8, {rows, depth});
      op.set_params(p);
      op.set_data(in, x);
      ASSERT_EQ(op.check(kLogSoftmaxS8Entry), Status::kOk);
      op.run(kLogSoftmaxS8Entry);
      const std::vector<int8_t> y = op.data<int8_t>(out);
      for (uint32_t r = 0; r < rows; ++r) {
        const std::vector<int8_t> row(x.begin() + r * depth, x.begin() + (r + 1) * depth);
        const std::vector<int8_t> expected = testing::gemmlowp_ref::log_softmax_s8(
            row, p.input_multiplier, p.input_left_shift, p.reverse_scaling_divisor, p.reverse_scaling_right_shift,
            p.diff_min);
        for (uint32_t c = 0; c < depth; ++c)
          ASSERT_EQ(y[r * depth + c], expected[c]) << "scale " << scale << " depth " << depth << " at " << r << "," << c;
        // And the fixed-point result is log-softmax: within one output step (1/16) of the
        // real value wherever it is not clamped at -128 (ln below -15.9).
        double max = -1e300, sum = 0;
        for (int8_t v : row) max = std::max(max, scale * static_cast<double>(v));
        for (int8_t v : row) sum += std::exp(scale * static_cast<double>(v) - max);
        for (uint32_t c = 0; c < depth; ++c) {
          const double real = scale * static_cast<double>(row[c]) - max - std::log(sum);
          if (y[r * depth + c] > -128) {
            EXPECT_NEAR((y[r * depth + c] - 127) / 16.0, real, 1.0 / 16) << scale;
          }
        }
      }
    }
  }
}

TEST(LogSoftmaxCheck, Rejections) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt8, {2, 4});
  op.add_output(DType::kInt8, {2, 4});
  LogSoftmaxS8Params p{};
  ASSERT_TRUE(log_softmax_s8_params(0.1f, &p.input_multiplier, &p.input_left_shift, &p.reverse_scaling_divisor,
                                    &p.reverse_scaling_right_shift, &p.diff_min));
  op.set_params(p);
  ASSERT_EQ(op.check(kLogSoftmaxS8Entry), Status::kOk);
  EXPECT_EQ(op.check(kLogSoftmaxF32Entry), Status::kBadParams);
  op.params<LogSoftmaxS8Params>().reverse_scaling_right_shift = 32;
  EXPECT_EQ(op.check(kLogSoftmaxS8Entry), Status::kBadParams);
  op.params<LogSoftmaxS8Params>().reverse_scaling_right_shift = p.reverse_scaling_right_shift;
  op.params<LogSoftmaxS8Params>().diff_min = 1;
  EXPECT_EQ(op.check(kLogSoftmaxS8Entry), Status::kBadParams);
  op.params<LogSoftmaxS8Params>().diff_min = p.diff_min;
  op.params<LogSoftmaxS8Params>().input_left_shift = 31;
  EXPECT_EQ(op.check(kLogSoftmaxS8Entry), Status::kBadParams);
  op.params<LogSoftmaxS8Params>().input_left_shift = p.input_left_shift;
  ASSERT_EQ(op.check(kLogSoftmaxS8Entry), Status::kOk);
  op.desc(in).dims[1] = 5;
  EXPECT_EQ(op.check(kLogSoftmaxS8Entry), Status::kBadParams);
}

}  // namespace log_softmax_test
}  // namespace mote
