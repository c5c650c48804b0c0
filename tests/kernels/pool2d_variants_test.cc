// avg_pool2d_s8__dsp and max_pool2d_s8__dsp against the reference int8 pools, bit for
// bit, through check() and run(): seeded random shapes (channels not a multiple of 4,
// padding, strides, batch, clamps), global pooling past 256 taps, and check() agreeing
// with the reference's. The int16 variants (__dsp, __mve, __v6m) the same way, through
// their entries: SAME/VALID windows, global pools and check() against the reference's
// (the Helium average also refusing windows past kAvgPool2dS16MveMaxTaps cells).
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

struct PoolCaseS16 {
  Pool2dS16Params p;
  int32_t n, h, w, c, oh, ow;
  std::vector<int16_t> input;
};

PoolCaseS16 random_case_s16(std::mt19937& rng, bool global) {
  PoolCaseS16 k;
  Pool2dS16Params& p = k.p;
  k.n = pick(rng, 1, 2);
  k.h = pick(rng, 1, global ? 16 : 10);
  k.w = pick(rng, 1, global ? 16 : 10);
  k.c = pick(rng, 0, 1) ? 8 * pick(rng, 1, 8) : pick(rng, 1, 37);
  p.kernel_h = global ? k.h : pick(rng, 1, std::min(7, k.h));
  p.kernel_w = global ? k.w : pick(rng, 1, std::min(7, k.w));
  p.window.stride_h = global ? 1 : pick(rng, 1, 3);
  p.window.stride_w = global ? 1 : pick(rng, 1, 3);
  p.window.dilation_h = p.window.dilation_w = 1;
  p.window.pad_top = pick(rng, 0, p.kernel_h - 1);
  p.window.pad_bottom = pick(rng, 0, p.kernel_h - 1);
  p.window.pad_left = pick(rng, 0, p.kernel_w - 1);
  p.window.pad_right = pick(rng, 0, p.kernel_w - 1);
  p.act_min = pick(rng, 0, 1) ? -32768 : pick(rng, -32768, 32767);
  p.act_max = pick(rng, 0, 1) ? 32767 : pick(rng, p.act_min, 32767);
  k.oh = (k.h + p.window.pad_top + p.window.pad_bottom - p.kernel_h) / p.window.stride_h + 1;
  k.ow = (k.w + p.window.pad_left + p.window.pad_right - p.kernel_w) / p.window.stride_w + 1;
  k.input.resize(static_cast<size_t>(k.n) * k.h * k.w * k.c);
  const bool saturated = pick(rng, 0, 3) == 0;
  for (auto& v : k.input) {
    v = static_cast<int16_t>(saturated ? (pick(rng, 0, 1) ? 32767 : -32768) : pick(rng, -32768, 32767));
  }
  return k;
}

TestOp pool_op_s16(const PoolCaseS16& k, const Pool2dS16Params& p, int32_t out_c) {
  TestOp op;
  const auto u = [](int32_t v) { return static_cast<uint32_t>(v); };
  op.add_input(DType::kInt16, {u(k.n), u(k.h), u(k.w), u(k.c)});
  op.add_output(DType::kInt16, {u(k.n), u(k.oh), u(k.ow), u(out_c)});
  op.set_params(p);
  op.set_data(0, k.input);
  return op;
}

std::vector<int16_t> run_pool_s16(const KernelEntry& entry, const PoolCaseS16& k) {
  TestOp op = pool_op_s16(k, k.p, k.c);
  EXPECT_EQ(op.check(entry), Status::kOk);
  op.run(entry);
  return op.data<int16_t>(1);
}

struct S16Variants {
  const KernelEntry* reference;
  const KernelEntry* variants[3];
};
const S16Variants kS16Variants[] = {
    {&kAvgPool2dS16Entry, {&kAvgPool2dS16DspEntry, &kAvgPool2dS16MveEntry, &kAvgPool2dS16V6mEntry}},
    {&kMaxPool2dS16Entry, {&kMaxPool2dS16DspEntry, &kMaxPool2dS16MveEntry, &kMaxPool2dS16V6mEntry}},
};

TEST(Pool2dS16Variants, RandomMatchesReference) {
  std::mt19937 rng(16);
  for (int i = 0; i < 200; ++i) {
    const PoolCaseS16 k = random_case_s16(rng, i % 5 == 0);
    for (const S16Variants& v : kS16Variants) {
      const std::vector<int16_t> expected = run_pool_s16(*v.reference, k);
      for (const KernelEntry* variant : v.variants) ASSERT_EQ(run_pool_s16(*variant, k), expected) << "case " << i;
    }
  }
}

TEST(Pool2dS16Variants, CheckAgreesWithReference) {
  std::mt19937 rng(17);
  const PoolCaseS16 k = random_case_s16(rng, false);
  for (int bad = 0; bad < 4; ++bad) {
    Pool2dS16Params p = k.p;
    if (bad == 2) p.window.pad_top = p.kernel_h;
    if (bad == 3) p.window.dilation_w = 2;
    TestOp op = pool_op_s16(k, p, k.c + (bad == 1 ? 1 : 0));
    for (const S16Variants& v : kS16Variants) {
      for (const KernelEntry* variant : v.variants) EXPECT_EQ(op.check(*variant), op.check(*v.reference)) << bad;
    }
  }
}

// The Helium average's division is exact up to kAvgPool2dS16MveMaxTaps cells: its check()
// takes a global pool of that many and refuses one more, which the reference takes.
TEST(Pool2dS16Variants, HeliumAverageWindowBound) {
  PoolCaseS16 k;
  k.p.window = WindowGeometry{};
  k.p.window.stride_h = k.p.window.stride_w = 1;
  k.p.window.dilation_h = k.p.window.dilation_w = 1;
  k.p.act_min = -32768;
  k.p.act_max = 32767;
  k.n = k.h = k.c = k.oh = k.ow = 1;
  for (const int32_t cells : {static_cast<int32_t>(kAvgPool2dS16MveMaxTaps), static_cast<int32_t>(kAvgPool2dS16MveMaxTaps) + 1}) {
    k.w = k.p.kernel_w = cells;
    k.p.kernel_h = 1;
    k.input.assign(static_cast<size_t>(cells), -32768);
    k.input[0] = -32767;  // sum = -32768 n + 1: rounds to -32768 only by the exact division
    TestOp op = pool_op_s16(k, k.p, 1);
    ASSERT_EQ(op.check(kAvgPool2dS16Entry), Status::kOk);
    const bool within = cells <= kAvgPool2dS16MveMaxTaps;
    EXPECT_EQ(op.check(kAvgPool2dS16MveEntry), within ? Status::kOk : Status::kBadParams);
    if (within) {
      EXPECT_EQ(run_pool_s16(kAvgPool2dS16MveEntry, k), run_pool_s16(kAvgPool2dS16Entry, k));
    }
  }
}

}  // namespace pool2d_variants_test
}  // namespace mote
