// avg_pool2d_s8__dsp and max_pool2d_s8__dsp against the reference int8 pools, bit for
// bit, through check() and run(): seeded random shapes (channels not a multiple of 4,
// padding, strides, batch, clamps), global pooling past 256 taps, and check() agreeing
// with the reference's.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "kernel_test_util.h"
#include "pool2d/pool2d.h"

namespace mote {
namespace pool2d_variants_test {

using testing::TestOp;

struct PoolCase {
  Pool2dS8Params p;
  int32_t n, h, w, c, oh, ow;
  std::vector<int8_t> input;
};

int32_t pick(std::mt19937& rng, int32_t lo, int32_t hi) {
  return std::uniform_int_distribution<int32_t>(lo, hi)(rng);
}

PoolCase random_case(std::mt19937& rng, bool global) {
  PoolCase k;
  Pool2dS8Params& p = k.p;
  k.n = pick(rng, 1, 2);
  k.h = pick(rng, 1, global ? 20 : 10);
  k.w = pick(rng, 1, global ? 20 : 10);
  k.c = pick(rng, 0, 1) ? 4 * pick(rng, 1, 16) : pick(rng, 1, 37);
  if (global) {
    p.kernel_h = k.h;
    p.kernel_w = k.w;
    p.window.stride_h = p.window.stride_w = 1;
  } else {
    p.kernel_h = pick(rng, 1, std::min(4, k.h));
    p.kernel_w = pick(rng, 1, std::min(4, k.w));
    p.window.stride_h = pick(rng, 1, 3);
    p.window.stride_w = pick(rng, 1, 3);
  }
  p.window.dilation_h = p.window.dilation_w = 1;
  p.window.pad_top = pick(rng, 0, p.kernel_h - 1);
  p.window.pad_bottom = pick(rng, 0, p.kernel_h - 1);
  p.window.pad_left = pick(rng, 0, p.kernel_w - 1);
  p.window.pad_right = pick(rng, 0, p.kernel_w - 1);
  p.act_min = pick(rng, 0, 1) ? -128 : pick(rng, -128, 127);
  p.act_max = pick(rng, 0, 1) ? 127 : pick(rng, p.act_min, 127);
  k.oh = (k.h + p.window.pad_top + p.window.pad_bottom - p.kernel_h) / p.window.stride_h + 1;
  k.ow = (k.w + p.window.pad_left + p.window.pad_right - p.kernel_w) / p.window.stride_w + 1;
  k.input.resize(static_cast<size_t>(k.n) * k.h * k.w * k.c);
  const bool saturated = pick(rng, 0, 3) == 0;
  for (auto& v : k.input) {
    v = static_cast<int8_t>(saturated ? (pick(rng, 0, 1) ? 127 : -128) : pick(rng, -128, 127));
  }
  return k;
}

std::vector<int8_t> run_pool(const KernelEntry& entry, const PoolCase& k) {
  TestOp op;
  const auto u = [](int32_t v) { return static_cast<uint32_t>(v); };
  const uint32_t in = op.add_input(DType::kInt8, {u(k.n), u(k.h), u(k.w), u(k.c)});
  const uint32_t out = op.add_output(DType::kInt8, {u(k.n), u(k.oh), u(k.ow), u(k.c)});
  op.set_params(k.p);
  op.set_data(in, k.input);
  EXPECT_EQ(op.check(entry), Status::kOk);
  op.run(entry);
  return op.data<int8_t>(out);
}

TEST(Pool2dS8Dsp, AvgRandomMatchesReference) {
  std::mt19937 rng(1129);
  for (int i = 0; i < 400; ++i) {
    const PoolCase k = random_case(rng, i % 5 == 0);
    ASSERT_EQ(run_pool(kAvgPool2dS8DspEntry, k), run_pool(kAvgPool2dS8Entry, k)) << "case " << i;
  }
}

TEST(Pool2dS8Dsp, MaxRandomMatchesReference) {
  std::mt19937 rng(2211);
  for (int i = 0; i < 400; ++i) {
    const PoolCase k = random_case(rng, i % 5 == 0);
    ASSERT_EQ(run_pool(kMaxPool2dS8DspEntry, k), run_pool(kMaxPool2dS8Entry, k)) << "case " << i;
  }
}

TEST(Pool2dS8Dsp, WindowsAroundTheHalfLimit) {
  // 16x16 = 256 taps (int16 halves), 16x17 = 272 (reference fallback), all -128 / 127.
  std::mt19937 rng(5);
  for (int32_t w : {16, 17}) {
    for (int8_t fill : {int8_t{-128}, int8_t{127}}) {
      PoolCase k = random_case(rng, true);
      k.n = 1;
      k.h = 16;
      k.w = w;
      k.c = 8;
      k.p.kernel_h = 16;
      k.p.kernel_w = w;
      k.p.window.pad_top = k.p.window.pad_bottom = k.p.window.pad_left = k.p.window.pad_right = 0;
      k.p.act_min = -128;
      k.p.act_max = 127;
      k.oh = k.ow = 1;
      k.input.assign(static_cast<size_t>(16) * w * 8, fill);
      EXPECT_EQ(run_pool(kAvgPool2dS8DspEntry, k), run_pool(kAvgPool2dS8Entry, k)) << w;
      EXPECT_EQ(run_pool(kAvgPool2dS8DspEntry, k), std::vector<int8_t>(8, fill)) << w;
    }
  }
}

TEST(Pool2dS8Dsp, CheckAgreesWithReference) {
  std::mt19937 rng(9);
  PoolCase k = random_case(rng, false);
  for (int bad = 0; bad < 3; ++bad) {
    TestOp op;
    const auto u = [](int32_t v) { return static_cast<uint32_t>(v); };
    op.add_input(DType::kInt8, {u(k.n), u(k.h), u(k.w), u(k.c)});
    op.add_output(DType::kInt8, {u(k.n), u(k.oh), u(k.ow), u(k.c + (bad == 1 ? 1 : 0))});
    Pool2dS8Params p = k.p;
    if (bad == 2) p.window.pad_top = p.kernel_h;
    op.set_params(p);
    EXPECT_EQ(op.check(kAvgPool2dS8DspEntry), op.check(kAvgPool2dS8Entry)) << bad;
    EXPECT_EQ(op.check(kMaxPool2dS8DspEntry), op.check(kMaxPool2dS8Entry)) << bad;
  }
}

}  // namespace pool2d_variants_test
}  // namespace mote
