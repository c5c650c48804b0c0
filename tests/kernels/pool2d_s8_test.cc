// int8 average and max pooling against TFLite's reference_integer_ops::AveragePool /
// MaxPool, modelled with exact rational rounding.
#include <gtest/gtest.h>

#include <vector>

#include "kernel_test_util.h"
#include "pool2d/pool2d.h"
#include "quant_test_util.h"

namespace mote {
namespace pool2d_s8_test {

using testing::TestOp;

struct Case {
  uint32_t n, h, w, c;
  Pool2dS8Params p;
  uint32_t out_h() const { return (h + p.window.pad_top + p.window.pad_bottom - p.kernel_h) / p.window.stride_h + 1; }
  uint32_t out_w() const { return (w + p.window.pad_left + p.window.pad_right - p.kernel_w) / p.window.stride_w + 1; }
};

// Average of the taps inside the image, rounded half away from zero (exact rationals).
int32_t ref_average(int64_t sum, int64_t count) {
  const int64_t mag = sum < 0 ? -sum : sum;
  const int64_t q = (2 * mag + count) / (2 * count);
  return static_cast<int32_t>(sum < 0 ? -q : q);
}

void run_case(const Case& cs, bool average, uint32_t seed) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt8, {cs.n, cs.h, cs.w, cs.c});
  const uint32_t out = op.add_output(DType::kInt8, {cs.n, cs.out_h(), cs.out_w(), cs.c});
  op.set_params(cs.p);
  const auto x = testing::random_full_range<int8_t>(testing::product({cs.n, cs.h, cs.w, cs.c}), seed);
  op.set_data(in, x);
  const KernelEntry& entry = average ? kAvgPool2dS8Entry : kMaxPool2dS8Entry;
  ASSERT_EQ(op.check(entry), Status::kOk);
  op.run(entry);
  const auto result = op.data<int8_t>(out);
  size_t i = 0;
  for (uint32_t b = 0; b < cs.n; ++b)
    for (uint32_t oy = 0; oy < cs.out_h(); ++oy)
      for (uint32_t ox = 0; ox < cs.out_w(); ++ox)
        for (uint32_t c = 0; c < cs.c; ++c, ++i) {
          int64_t sum = 0, count = 0, max = -128;
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
          const int64_t v = average ? ref_average(sum, count) : max;
          ASSERT_EQ(result[i], testing::ref_clamp(v, cs.p.act_min, cs.p.act_max)) << i;
        }
}

TEST(AvgPool2dS8, HandComputedRoundingHalfAwayFromZero) {
  // 1x2x2x1 image, 2x2 window: sums 1+2+... per case; (-1 -2 + 0 + 0)/4 = -0.75 -> -1,
  // (1 + 1 + 0 + 0) / 4 = 0.5 -> 1, (-1 - 1) / 4 = -0.5 -> -1.
  const Pool2dS8Params p{2, 2, {1, 1, 1, 1, 0, 0, 0, 0}, -128, 127};
  const std::vector<std::vector<int8_t>> inputs = {{-1, -2, 0, 0}, {1, 1, 0, 0}, {-1, -1, 0, 0}};
  const std::vector<int8_t> expected = {-1, 1, -1};
  for (size_t k = 0; k < inputs.size(); ++k) {
    TestOp op;
    const uint32_t in = op.add_input(DType::kInt8, {1, 2, 2, 1});
    const uint32_t out = op.add_output(DType::kInt8, {1, 1, 1, 1});
    op.set_params(p);
    op.set_data(in, inputs[k]);
    ASSERT_EQ(op.check(kAvgPool2dS8Entry), Status::kOk);
    op.run(kAvgPool2dS8Entry);
    EXPECT_EQ(op.data<int8_t>(out)[0], expected[k]) << k;
  }
}

TEST(AvgPool2dS8, PaddingIsNotCounted) {
  // 3x3 window, pad 1: the corner window sees 4 pixels of value 100 -> 100, not 44.
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt8, {1, 2, 2, 1});
  const uint32_t out = op.add_output(DType::kInt8, {1, 2, 2, 1});
  op.set_params(Pool2dS8Params{3, 3, {1, 1, 1, 1, 1, 1, 1, 1}, -128, 127});
  op.set_data(in, std::vector<int8_t>{100, 100, 100, 100});
  ASSERT_EQ(op.check(kAvgPool2dS8Entry), Status::kOk);
  op.run(kAvgPool2dS8Entry);
  EXPECT_EQ(op.data<int8_t>(out), (std::vector<int8_t>{100, 100, 100, 100}));
}

TEST(AvgPool2dS8, MatchesModel) {
  run_case({1, 25, 5, 64, {25, 5, {25, 5, 1, 1, 0, 0, 0, 0}, -128, 127}}, true, 1);  // kws global pool
  run_case({2, 7, 9, 3, {3, 2, {2, 1, 1, 1, 1, 0, 1, 1}, -128, 127}}, true, 2);
  run_case({1, 8, 8, 40, {2, 2, {2, 2, 1, 1, 0, 0, 0, 0}, -20, 30}}, true, 3);       // > one channel block
  run_case({1, 5, 6, 33, {4, 3, {3, 2, 1, 1, 3, 2, 2, 1}, -128, 127}}, true, 4);
}

TEST(MaxPool2dS8, MatchesModel) {
  run_case({2, 7, 9, 3, {3, 2, {2, 1, 1, 1, 1, 0, 1, 1}, -128, 127}}, false, 5);
  run_case({1, 9, 9, 5, {3, 3, {2, 2, 1, 1, 1, 1, 1, 1}, 0, 127}}, false, 6);
  run_case({1, 4, 4, 2, {2, 2, {2, 2, 1, 1, 0, 0, 0, 0}, -128, 127}}, false, 7);
}

TEST(Pool2dS8Check, Rejections) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt8, {1, 5, 5, 2});
  const uint32_t out = op.add_output(DType::kInt8, {1, 3, 3, 2});
  op.set_params(Pool2dS8Params{3, 3, {2, 2, 1, 1, 1, 1, 1, 1}, -128, 127});
  ASSERT_EQ(op.check(kAvgPool2dS8Entry), Status::kOk);
  auto& p = op.params<Pool2dS8Params>();
  // A pad as large as the kernel could give windows with no tap (TFLite fails there).
  p.window.pad_top = 3;
  p.window.pad_bottom = 3;
  op.desc(out).dims[1] = 5;
  EXPECT_EQ(op.check(kAvgPool2dS8Entry), Status::kBadParams);
  EXPECT_EQ(op.check(kMaxPool2dS8Entry), Status::kBadParams);
  p.window.pad_top = p.window.pad_bottom = 1;
  op.desc(out).dims[1] = 3;
  ASSERT_EQ(op.check(kAvgPool2dS8Entry), Status::kOk);
  op.desc(out).dims[2] = 2;  // output width inconsistent
  EXPECT_EQ(op.check(kAvgPool2dS8Entry), Status::kBadParams);
  op.desc(out).dims[2] = 3;
  p.act_min = -129;
  EXPECT_EQ(op.check(kAvgPool2dS8Entry), Status::kBadParams);
  p.act_min = -128;
  p.window.stride_w = 0;
  EXPECT_EQ(op.check(kAvgPool2dS8Entry), Status::kBadParams);
  p.window.stride_w = 2;
  // No dilation (TFLite has none): a dilated window whose output size fits is refused.
  p.window.dilation_w = 2;
  op.desc(out).dims[2] = 2;  // (5 + 1 + 1 - 5) / 2 + 1
  EXPECT_EQ(op.check(kAvgPool2dS8Entry), Status::kBadParams);
  EXPECT_EQ(op.check(kMaxPool2dS8Entry), Status::kBadParams);
  for (const KernelEntry* variant : {&kAvgPool2dS8DspEntry, &kMaxPool2dS8DspEntry,
                                     &kAvgPool2dS8MveEntry, &kMaxPool2dS8MveEntry})
    EXPECT_EQ(op.check(*variant), Status::kBadParams);
  p.window.dilation_w = 0;
  EXPECT_EQ(op.check(kAvgPool2dS8Entry), Status::kBadParams);
  p.window.dilation_w = 1;
  op.desc(out).dims[2] = 3;
  ASSERT_EQ(op.check(kAvgPool2dS8Entry), Status::kOk);
  op.desc(in).dtype = static_cast<uint8_t>(DType::kInt16);
  EXPECT_EQ(op.check(kAvgPool2dS8Entry), Status::kBadParams);
  op.desc(in).dtype = static_cast<uint8_t>(DType::kInt8);
  // An empty image with a valid geometry (pads 2 < kernel 3): every window is empty.
  p.window.pad_top = p.window.pad_bottom = 2;
  op.desc(in).dims[1] = 0;
  op.desc(out).dims[1] = 1;
  EXPECT_EQ(op.check(kAvgPool2dS8Entry), Status::kBadParams);
}

}  // namespace pool2d_s8_test
}  // namespace mote
