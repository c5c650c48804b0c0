// avg_pool2d_s8__mve / max_pool2d_s8__mve against the reference avg_pool2d_s8 /
// max_pool2d_s8, bit for bit, on seeded random cases (through the portable
// kernels/isa/mve.h on the host), the average's rounding on sums chosen around every
// tie, and check() rejections.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "kernel_test_util.h"
#include "pool2d/pool2d.h"

namespace mote {
namespace pool2d_mve_test {

using testing::TestOp;

struct Case {
  uint32_t n, h, w, c;
  Pool2dS8Params p;
  uint32_t out_h() const { return (h + p.window.pad_top + p.window.pad_bottom - p.kernel_h) / p.window.stride_h + 1; }
  uint32_t out_w() const { return (w + p.window.pad_left + p.window.pad_right - p.kernel_w) / p.window.stride_w + 1; }
};

struct Result {
  Status check;
  std::vector<int8_t> out;
};

Result run_pool(const KernelEntry& entry, const Case& cs, const std::vector<int8_t>& x) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt8, {cs.n, cs.h, cs.w, cs.c});
  const uint32_t out = op.add_output(DType::kInt8, {cs.n, cs.out_h(), cs.out_w(), cs.c});
  op.set_params(cs.p);
  op.set_data(in, x);
  Result r;
  r.check = op.check(entry);
  if (r.check == Status::kOk) {
    op.run(entry);
    r.out = op.data<int8_t>(out);
  }
  return r;
}

void expect_same(const Case& cs, const std::vector<int8_t>& x, const char* what) {
  const Result avg_ref = run_pool(kAvgPool2dS8Entry, cs, x);
  const Result avg_mve = run_pool(kAvgPool2dS8MveEntry, cs, x);
  ASSERT_EQ(avg_ref.check, Status::kOk) << what;
  ASSERT_EQ(avg_mve.check, Status::kOk) << what;
  ASSERT_EQ(avg_ref.out, avg_mve.out) << what << " (average)";
  const Result max_ref = run_pool(kMaxPool2dS8Entry, cs, x);
  const Result max_mve = run_pool(kMaxPool2dS8MveEntry, cs, x);
  ASSERT_EQ(max_mve.check, Status::kOk) << what;
  ASSERT_EQ(max_ref.out, max_mve.out) << what << " (max)";
}

TEST(Pool2dS8Mve, MatchesReferenceOnRandomCases) {
  for (uint32_t seed = 1; seed <= 500; ++seed) {
    std::mt19937 rng(seed);
    auto uni = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    Case cs{};
    cs.n = static_cast<uint32_t>(uni(1, 2));
    cs.c = static_cast<uint32_t>(uni(1, 40));
    Pool2dS8Params& p = cs.p;
    p.kernel_h = uni(1, 5);
    p.kernel_w = uni(1, 5);
    p.window.stride_h = uni(1, 3);
    p.window.stride_w = uni(1, 3);
    p.window.dilation_h = p.window.dilation_w = 1;
    p.window.pad_top = uni(0, p.kernel_h - 1);
    p.window.pad_bottom = uni(0, p.kernel_h - 1);
    p.window.pad_left = uni(0, p.kernel_w - 1);
    p.window.pad_right = uni(0, p.kernel_w - 1);
    cs.h = static_cast<uint32_t>(uni(std::max(1, p.kernel_h - p.window.pad_top - p.window.pad_bottom), 10));
    cs.w = static_cast<uint32_t>(uni(std::max(1, p.kernel_w - p.window.pad_left - p.window.pad_right), 12));
    p.act_min = uni(-128, 20);
    p.act_max = uni(p.act_min, 127);
    if (uni(0, 2) == 0) {
      p.act_min = -128;
      p.act_max = 127;
    }
    std::vector<int8_t> x(testing::product({cs.n, cs.h, cs.w, cs.c}));
    const int kind = uni(0, 3);
    for (int8_t& v : x) {
      v = static_cast<int8_t>(kind == 0 ? (uni(0, 1) ? -128 : 127)
                                        : (kind == 1 ? uni(-3, 3) : uni(-128, 127)));
    }
    expect_same(cs, x, ("seed " + std::to_string(seed)).c_str());
    if (::testing::Test::HasFatalFailure()) return;
  }
}

// One window of n = kernel_w taps over 1 x n x C; channel j's taps sum to sums[j].
TEST(Pool2dS8Mve, AverageRoundsLikeTheReferenceAroundEveryTie) {
  const int32_t counts[] = {2, 3, 4, 5, 6, 7, 9, 10, 25, 49, 64, 100, 127, 255, 256, 257, 1000,
                            2047, 4080};
  std::mt19937 rng(5);
  for (const int32_t n : counts) {
    std::vector<int32_t> sums;
    for (int32_t s : {-128 * n, 127 * n, 0, 1, -1}) sums.push_back(s);
    // Around the ties k*n + n/2 (and - n/2) for random k.
    for (int i = 0; i < 60; ++i) {
      const int32_t k = std::uniform_int_distribution<int32_t>(-128, 127)(rng);
      for (int32_t d = -1; d <= 1; ++d) {
        for (int32_t s : {k * n + n / 2 + d, k * n - n / 2 + d, k * n + d}) {
          if (s >= -128 * n && s <= 127 * n) sums.push_back(s);
        }
      }
    }
    Case cs{1, 1, static_cast<uint32_t>(n), static_cast<uint32_t>(sums.size()),
            Pool2dS8Params{1, n, {1, 1, 1, 1, 0, 0, 0, 0}, -128, 127}};
    std::vector<int8_t> x(static_cast<size_t>(n) * sums.size());
    for (size_t j = 0; j < sums.size(); ++j) {
      int32_t remaining = sums[j];
      for (int32_t t = 0; t < n; ++t) {
        const int32_t left = n - 1 - t;  // taps after this one
        int32_t v = remaining;
        if (v > 127) v = 127;
        if (v < -128) v = -128;
        // Leave a reachable remainder for the later taps.
        if (remaining - v > 127 * left) v = remaining - 127 * left;
        if (remaining - v < -128 * left) v = remaining + 128 * left;
        x[static_cast<size_t>(t) * sums.size() + j] = static_cast<int8_t>(v);
        remaining -= v;
      }
      ASSERT_EQ(remaining, 0);
    }
    expect_same(cs, x, ("count " + std::to_string(n)).c_str());
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST(Pool2dS8Mve, CheckRejects) {
  Case cs{1, 4, 4, 3, Pool2dS8Params{2, 2, {2, 2, 1, 1, 0, 0, 0, 0}, -128, 127}};
  const std::vector<int8_t> x(48, 1);
  EXPECT_EQ(run_pool(kAvgPool2dS8MveEntry, cs, x).check, Status::kOk);
  Case bad = cs;
  bad.p.window.pad_top = 2;  // pad >= kernel, as the reference
  EXPECT_EQ(run_pool(kAvgPool2dS8MveEntry, bad, x).check, Status::kBadParams);
  EXPECT_EQ(run_pool(kMaxPool2dS8MveEntry, bad, x).check, Status::kBadParams);
  bad = cs;
  bad.p.act_max = 128;
  EXPECT_EQ(run_pool(kMaxPool2dS8MveEntry, bad, x).check, Status::kBadParams);
  // A window beyond the exact range of the average's reciprocal.
  Case big{1, 1, 4081, 1, Pool2dS8Params{1, 4081, {1, 1, 1, 1, 0, 0, 0, 0}, -128, 127}};
  const std::vector<int8_t> bx(4081, 3);
  EXPECT_EQ(run_pool(kAvgPool2dS8Entry, big, bx).check, Status::kOk);
  EXPECT_EQ(run_pool(kAvgPool2dS8MveEntry, big, bx).check, Status::kBadParams);
  EXPECT_EQ(run_pool(kMaxPool2dS8MveEntry, big, bx).check, Status::kOk);
}

}  // namespace pool2d_mve_test
}  // namespace mote
