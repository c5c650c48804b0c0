// add_s8__mve against the reference add_s8, bit for bit, on seeded random cases
// (through the portable kernels/isa/mve.h on the host), plus its check() rejections.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "elementwise/elementwise.h"
#include "kernel_test_util.h"

namespace mote {
namespace elementwise_mve_test {

using Result = testing::BinaryResult<int8_t>;

Result run_add(const KernelEntry& entry, const QuantAddSubParams& p,
               const std::vector<uint32_t>& a_dims, const std::vector<uint32_t>& b_dims,
               const std::vector<uint32_t>& out_dims, const std::vector<int8_t>& a,
               const std::vector<int8_t>& b) {
  return testing::run_binary(entry, DType::kInt8, p, a_dims, b_dims, out_dims, a, b);
}

QuantAddSubParams random_params(std::mt19937& rng) {
  auto uni = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  auto multiplier = [&]() {
    const int kind = uni(0, 5);
    if (kind == 0) return INT32_MAX;
    if (kind == 1) return int32_t{1} << 30;
    if (kind == 2) return static_cast<int32_t>(rng() % 100000);
    return static_cast<int32_t>((1u << 30) + rng() % (1u << 30));
  };
  auto shift = [&]() {
    const int kind = uni(0, 5);
    if (kind == 0) return 0;
    if (kind == 1) return -31;
    if (kind == 2) return -uni(0, 31);
    return -uni(0, 4);
  };
  QuantAddSubParams p{};
  p.input1_zero_point = uni(-128, 127);
  p.input2_zero_point = uni(-128, 127);
  p.output_zero_point = uni(-128, 127);
  p.input1_multiplier = multiplier();
  p.input1_shift = shift();
  p.input2_multiplier = multiplier();
  p.input2_shift = shift();
  p.output_multiplier = multiplier();
  p.output_shift = uni(0, 1) ? -uni(10, 31) : shift();
  p.act_min = uni(-128, 30);
  p.act_max = uni(p.act_min, 127);
  if (uni(0, 2) == 0) {
    p.act_min = -128;
    p.act_max = 127;
  }
  return p;
}

TEST(AddS8Mve, MatchesReferenceOnRandomCases) {
  for (uint32_t seed = 1; seed <= 800; ++seed) {
    std::mt19937 rng(seed);
    const QuantAddSubParams p = random_params(rng);
    const uint32_t n = 1 + rng() % 2;
    const uint32_t c = 1 + rng() % 37;
    const uint32_t w = 1 + rng() % 5;
    const std::vector<uint32_t> dims = {n, w, c};
    std::vector<int8_t> a(testing::product(dims)), b(a.size());
    const bool extremes = rng() % 6 == 0;
    for (size_t i = 0; i < a.size(); ++i) {
      a[i] = extremes ? (rng() % 2 ? int8_t{-128} : int8_t{127}) : static_cast<int8_t>(rng());
      b[i] = extremes ? (rng() % 2 ? int8_t{-128} : int8_t{127}) : static_cast<int8_t>(rng());
    }
    const Result ref = run_add(kAddS8Entry, p, dims, dims, dims, a, b);
    const Result mve = run_add(kAddS8MveEntry, p, dims, dims, dims, a, b);
    ASSERT_EQ(ref.check, Status::kOk);
    ASSERT_EQ(mve.check, Status::kOk);
    ASSERT_EQ(ref.out, mve.out) << "seed " << seed;
  }
}

TEST(AddS8Mve, EveryLengthTailAndAllInputPairs) {
  // Every (a, b) pair of int8 values, over lengths that end in each tail size.
  std::mt19937 rng(77);
  for (uint32_t len = 1; len <= 33; ++len) {
    const QuantAddSubParams p = random_params(rng);
    for (int start = 0; start < 256 * 256; start += 4096) {
      std::vector<int8_t> a(len), b(len);
      for (uint32_t i = 0; i < len; ++i) {
        const int k = (start + static_cast<int>(i) * 131) % (256 * 256);
        a[i] = static_cast<int8_t>(k & 0xFF);
        b[i] = static_cast<int8_t>(k >> 8);
      }
      const Result ref = run_add(kAddS8Entry, p, {len}, {len}, {len}, a, b);
      const Result mve = run_add(kAddS8MveEntry, p, {len}, {len}, {len}, a, b);
      ASSERT_EQ(ref.out, mve.out) << "len " << len;
    }
  }
}

TEST(AddS8Mve, CheckRejectsBroadcastAndBadParams) {
  QuantAddSubParams p{0, 0, 0, 1 << 30, -1, 1 << 30, -1, 1 << 30, -20, -128, 127};
  const std::vector<int8_t> six(6, 1), two(2, 1), three(3, 1);
  EXPECT_EQ(run_add(kAddS8MveEntry, p, {2, 3}, {2, 3}, {2, 3}, six, six).check, Status::kOk);
  // Broadcast inputs: the reference accepts them, the variant does not.
  EXPECT_EQ(run_add(kAddS8Entry, p, {2, 3}, {1, 3}, {2, 3}, six, three).check, Status::kOk);
  EXPECT_EQ(run_add(kAddS8MveEntry, p, {2, 3}, {1, 3}, {2, 3}, six, three).check,
            Status::kBadParams);
  EXPECT_EQ(run_add(kAddS8MveEntry, p, {2, 1}, {2, 3}, {2, 3}, two, six).check,
            Status::kBadParams);
  // Positive shift, as the reference.
  QuantAddSubParams bad = p;
  bad.input1_shift = 1;
  EXPECT_EQ(run_add(kAddS8MveEntry, bad, {2, 3}, {2, 3}, {2, 3}, six, six).check,
            Status::kBadParams);
  bad = p;
  bad.output_zero_point = 128;
  EXPECT_EQ(run_add(kAddS8MveEntry, bad, {2, 3}, {2, 3}, {2, 3}, six, six).check,
            Status::kBadParams);
}

}  // namespace elementwise_mve_test
}  // namespace mote
