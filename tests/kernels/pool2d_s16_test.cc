// int16 average and max pooling against the int16 overloads of TFLite's
// reference_integer_ops::AveragePool / MaxPool, modelled with exact rational rounding.
#include <gtest/gtest.h>

#include <vector>

#include "kernel_test_util.h"
#include "pool2d/pool2d.h"
#include "quant_test_util.h"

namespace mote {
namespace pool2d_s16_test {

using testing::TestOp;

struct Case {
  uint32_t n, h, w, c;
  Pool2dS16Params p;
  uint32_t out_h() const { return (h + p.window.pad_top + p.window.pad_bottom - p.kernel_h) / p.window.stride_h + 1; }
  uint32_t out_w() const { return (w + p.window.pad_left + p.window.pad_right - p.kernel_w) / p.window.stride_w + 1; }
};

// Average of the taps inside the image, rounded half away from zero (exact rationals).
int32_t ref_average(int64_t sum, int64_t count) {
  const int64_t mag = sum < 0 ? -sum : sum;
  const int64_t q = (2 * mag + count) / (2 * count);
  return static_cast<int32_t>(sum < 0 ? -q : q);
}

void run_case(const Case& cs, bool average, uint32_t seed, int16_t lo = -32768, int16_t hi = 32767) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt16, {cs.n, cs.h, cs.w, cs.c});
  const uint32_t out = op.add_output(DType::kInt16, {cs.n, cs.out_h(), cs.out_w(), cs.c});
  op.set_params(cs.p);
  const auto x = testing::random_ints<int16_t>(testing::product({cs.n, cs.h, cs.w, cs.c}), seed, lo, hi);
  op.set_data(in, x);
  const KernelEntry& entry = average ? kAvgPool2dS16Entry : kMaxPool2dS16Entry;
  ASSERT_EQ(op.check(entry), Status::kOk);
  op.run(entry);
  const auto result = op.data<int16_t>(out);
  size_t i = 0;
  int unsaturated = 0;
  for (uint32_t b = 0; b < cs.n; ++b)
    for (uint32_t oy = 0; oy < cs.out_h(); ++oy)
      for (uint32_t ox = 0; ox < cs.out_w(); ++ox)
        for (uint32_t c = 0; c < cs.c; ++c, ++i) {
          int64_t sum = 0, count = 0, max = -32768;
          for (int32_t ky = 0; ky < cs.p.kernel_h; ++ky)
            for (int32_t kx = 0; kx < cs.p.kernel_w; ++kx) {
              const int64_t iy = int64_t{oy} * cs.p.window.stride_h - cs.p.window.pad_top + ky;
              const int64_t ix = int64_t{ox} * cs.p.window.stride_w - cs.p.window.pad_left + kx;
              if (iy < 0 || iy >= cs.h || ix < 0 || ix >= cs.w) continue;
              const int64_t v = x[((b * cs.h + iy) * cs.w + ix) * cs.c + c];
              sum += v;
              ++count;
              if (v > max) max = v;
            }
          ASSERT_GT(count, 0);
          const int32_t expected =
              testing::ref_clamp(average ? ref_average(sum, count) : max, cs.p.act_min, cs.p.act_max);
          ASSERT_EQ(result[i], expected) << i;
          unsaturated += expected != cs.p.act_min && expected != cs.p.act_max;
        }
  EXPECT_GT(unsaturated, 0);
}

TEST(AvgPool2dS16, HandComputedRoundingHalfAwayFromZero) {
  // 2x2 window: (-1001 - 2 + 0 + 0) / 4 = -250.75 -> -251, (1 + 1) / 4 = 0.5 -> 1,
  // (-1 - 1) / 4 = -0.5 -> -1, 4 * 32767 / 4 = 32767 (the sum leaves int16).
  const Pool2dS16Params p{2, 2, {1, 1, 1, 1, 0, 0, 0, 0}, -32768, 32767};
  const std::vector<std::vector<int16_t>> inputs = {
      {-1001, -2, 0, 0}, {1, 1, 0, 0}, {-1, -1, 0, 0}, {32767, 32767, 32767, 32767}};
  const std::vector<int16_t> expected = {-251, 1, -1, 32767};
  for (size_t k = 0; k < inputs.size(); ++k) {
    TestOp op;
    const uint32_t in = op.add_input(DType::kInt16, {1, 2, 2, 1});
    const uint32_t out = op.add_output(DType::kInt16, {1, 1, 1, 1});
    op.set_params(p);
    op.set_data(in, inputs[k]);
    ASSERT_EQ(op.check(kAvgPool2dS16Entry), Status::kOk);
    op.run(kAvgPool2dS16Entry);
    EXPECT_EQ(op.data<int16_t>(out)[0], expected[k]) << k;
  }
}

TEST(AvgPool2dS16, PaddingIsNotCounted) {
  // 3x3 window, pad 1: the corner window sees 4 pixels of value 30000 -> 30000.
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt16, {1, 2, 2, 1});
  const uint32_t out = op.add_output(DType::kInt16, {1, 2, 2, 1});
  op.set_params(Pool2dS16Params{3, 3, {1, 1, 1, 1, 1, 1, 1, 1}, -32768, 32767});
  op.set_data(in, std::vector<int16_t>{30000, 30000, 30000, 30000});
  ASSERT_EQ(op.check(kAvgPool2dS16Entry), Status::kOk);
  op.run(kAvgPool2dS16Entry);
  EXPECT_EQ(op.data<int16_t>(out), (std::vector<int16_t>{30000, 30000, 30000, 30000}));
}

TEST(AvgPool2dS16, MatchesModel) {
  run_case({1, 25, 5, 64, {25, 5, {25, 5, 1, 1, 0, 0, 0, 0}, -32768, 32767}}, true, 1);  // global pool
  run_case({2, 7, 9, 3, {3, 2, {2, 1, 1, 1, 1, 0, 1, 1}, -32768, 32767}}, true, 2);
  run_case({1, 8, 8, 40, {2, 2, {2, 2, 1, 1, 0, 0, 0, 0}, -2000, 3000}}, true, 3);       // > one channel block
  run_case({1, 5, 6, 33, {4, 3, {3, 2, 1, 1, 3, 2, 2, 1}, 0, 32767}}, true, 4);          // ReLU range
  // Extreme values: all-minimum windows average to -32768 exactly.
  run_case({1, 6, 6, 2, {3, 3, {3, 3, 1, 1, 0, 0, 0, 0}, -32768, 32767}}, true, 5, -32768, -32700);
}

TEST(AvgPool2dS16, LargestWindowOfExtremeValues) {
  // 255 x 257 = 65535 cells of -32768: the sum -2,147,450,880 and the rounding stay in
  // int32; the average is exactly -32768.
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt16, {1, 255, 257, 1});
  const uint32_t out = op.add_output(DType::kInt16, {1, 1, 1, 1});
  op.set_params(Pool2dS16Params{255, 257, {1, 1, 1, 1, 0, 0, 0, 0}, -32768, 32767});
  op.set_data(in, std::vector<int16_t>(255 * 257, -32768));
  ASSERT_EQ(op.check(kAvgPool2dS16Entry), Status::kOk);
  op.run(kAvgPool2dS16Entry);
  EXPECT_EQ(op.data<int16_t>(out)[0], -32768);
}

TEST(MaxPool2dS16, MatchesModel) {
  run_case({2, 7, 9, 3, {3, 2, {2, 1, 1, 1, 1, 0, 1, 1}, -32768, 32767}}, false, 6);
  run_case({1, 9, 9, 5, {3, 3, {2, 2, 1, 1, 1, 1, 1, 1}, 0, 32767}}, false, 7);
  run_case({1, 4, 4, 2, {2, 2, {2, 2, 1, 1, 0, 0, 0, 0}, -32768, 32767}}, false, 8);
  run_case({1, 6, 5, 3, {2, 3, {1, 2, 1, 1, 1, 2, 0, 1}, -100, 100}}, false, 9, -300, 300);
}

TEST(MaxPool2dS16, AllMinimumWindowGivesMinimum) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt16, {1, 2, 2, 1});
  const uint32_t out = op.add_output(DType::kInt16, {1, 1, 1, 1});
  op.set_params(Pool2dS16Params{2, 2, {1, 1, 1, 1, 0, 0, 0, 0}, -32768, 32767});
  op.set_data(in, std::vector<int16_t>(4, -32768));
  ASSERT_EQ(op.check(kMaxPool2dS16Entry), Status::kOk);
  op.run(kMaxPool2dS16Entry);
  EXPECT_EQ(op.data<int16_t>(out)[0], -32768);
}

TEST(Pool2dS16Check, Rejections) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt16, {1, 5, 5, 2});
  const uint32_t out = op.add_output(DType::kInt16, {1, 3, 3, 2});
  op.set_params(Pool2dS16Params{3, 3, {2, 2, 1, 1, 1, 1, 1, 1}, -32768, 32767});
  ASSERT_EQ(op.check(kAvgPool2dS16Entry), Status::kOk);
  ASSERT_EQ(op.check(kMaxPool2dS16Entry), Status::kOk);
  auto& p = op.params<Pool2dS16Params>();
  // A pad as large as the kernel could give windows with no tap (TFLite fails there).
  p.window.pad_top = 3;
  p.window.pad_bottom = 3;
  op.desc(out).dims[1] = 5;
  EXPECT_EQ(op.check(kAvgPool2dS16Entry), Status::kBadParams);
  EXPECT_EQ(op.check(kMaxPool2dS16Entry), Status::kBadParams);
  p.window.pad_top = p.window.pad_bottom = 1;
  op.desc(out).dims[1] = 3;
  ASSERT_EQ(op.check(kAvgPool2dS16Entry), Status::kOk);
  op.desc(out).dims[2] = 2;  // output width inconsistent
  EXPECT_EQ(op.check(kAvgPool2dS16Entry), Status::kBadParams);
  op.desc(out).dims[2] = 3;
  p.act_min = -32769;
  EXPECT_EQ(op.check(kAvgPool2dS16Entry), Status::kBadParams);
  p.act_min = 10;
  p.act_max = 9;
  EXPECT_EQ(op.check(kMaxPool2dS16Entry), Status::kBadParams);
  p.act_min = -32768;
  p.act_max = 32768;
  EXPECT_EQ(op.check(kMaxPool2dS16Entry), Status::kBadParams);
  p.act_max = 32767;
  p.window.stride_w = 0;
  EXPECT_EQ(op.check(kAvgPool2dS16Entry), Status::kBadParams);
  p.window.stride_w = 2;
  // No dilation (TFLite has none): a dilated window whose output size fits is refused.
  p.window.dilation_w = 2;
  op.desc(out).dims[2] = 2;  // (5 + 1 + 1 - 5) / 2 + 1
  EXPECT_EQ(op.check(kAvgPool2dS16Entry), Status::kBadParams);
  EXPECT_EQ(op.check(kMaxPool2dS16Entry), Status::kBadParams);
  p.window.dilation_w = 0;
  EXPECT_EQ(op.check(kAvgPool2dS16Entry), Status::kBadParams);
  p.window.dilation_w = 1;
  op.desc(out).dims[2] = 3;
  ASSERT_EQ(op.check(kAvgPool2dS16Entry), Status::kOk);
  op.desc(in).dtype = static_cast<uint8_t>(DType::kInt8);  // int8 data is pool2d_s8's
  EXPECT_EQ(op.check(kAvgPool2dS16Entry), Status::kBadParams);
  op.desc(in).dtype = static_cast<uint8_t>(DType::kInt16);
  ASSERT_EQ(op.check(kAvgPool2dS16Entry), Status::kOk);
  op.set_params_bytes(sizeof(Pool2dS16Params) - 4);
  EXPECT_EQ(op.check(kAvgPool2dS16Entry), Status::kBadParams);
}

TEST(Pool2dS16Check, AverageWindowOfMoreThan65535CellsIsRejected) {
  // 65536 cells of -32768 would sum to -2^31, and the rounding would overflow; the max
  // has no sum and takes any window (TFLite bounds neither).
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt16, {1, 256, 256, 1});
  const uint32_t out = op.add_output(DType::kInt16, {1, 1, 1, 1});
  op.set_params(Pool2dS16Params{256, 256, {1, 1, 1, 1, 0, 0, 0, 0}, -32768, 32767});
  op.set_data(in, std::vector<int16_t>(256 * 256, -32768));
  EXPECT_EQ(op.check(kAvgPool2dS16Entry), Status::kBadParams);
  ASSERT_EQ(op.check(kMaxPool2dS16Entry), Status::kOk);
  op.run(kMaxPool2dS16Entry);
  EXPECT_EQ(op.data<int16_t>(out)[0], -32768);
}

}  // namespace pool2d_s16_test
}  // namespace mote
