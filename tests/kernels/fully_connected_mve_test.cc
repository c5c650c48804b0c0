// The Helium int8 fully connected variant (fully_connected_s8__mve) against the reference
// fully_connected_s8, bit for bit, on seeded random cases: feature tails (K and N in
// 1..17 and beyond), batches, per-tensor and per-channel multipliers, input and filter
// zero points, clamps, extreme shifts and wrapping accumulators. On the host this runs the
// portable definitions of kernels/isa/mve.h.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "fully_connected/fully_connected.h"
#include "kernel_test_util.h"
#include "quant/quant_math.h"
#include "quant_test_util.h"

namespace mote {
namespace fully_connected_mve_test {

using testing::Multiplier;

struct Case {
  FullyConnectedS8Params p;
  int32_t batches, in_features, out_features;
  bool bias;
  std::vector<int8_t> input, weights;
  std::vector<int32_t> bias_values, multipliers, shifts;
};

Case random_case(std::mt19937& rng, int32_t k, int32_t n) {
  auto uni = [&](int32_t lo, int32_t hi) {
    return std::uniform_int_distribution<int32_t>(lo, hi)(rng);
  };
  Case c{};
  c.batches = uni(1, 3);
  c.in_features = k;
  c.out_features = n;
  const bool per_channel = uni(0, 1) == 1;
  c.p.input_zero_point = uni(0, 4) == 0 ? 0 : uni(-128, 127);
  c.p.filter_zero_point = per_channel || uni(0, 2) == 0 ? 0 : uni(-128, 127);
  c.p.output_zero_point = uni(-128, 127);
  c.p.act_min = -128;
  c.p.act_max = 127;
  if (uni(0, 2) == 0) {
    c.p.act_min = uni(-128, 127);
    c.p.act_max = uni(c.p.act_min, 127);
  }
  c.p.channel_count = per_channel ? static_cast<uint32_t>(n) : 1u;
  c.bias = uni(0, 3) != 0;
  const uint32_t seed = rng();
  c.input = testing::random_full_range<int8_t>(size_t(c.batches) * k, seed);
  c.weights = testing::random_full_range<int8_t>(size_t(n) * k, seed + 1);
  const bool huge = uni(0, 4) == 0;
  c.bias_values = testing::random_ints<int32_t>(n, seed + 2, huge ? INT32_MIN : -40000,
                                                huge ? INT32_MAX : 40000);
  const bool extreme = uni(0, 4) == 0;
  const auto m = testing::random_multipliers(c.p.channel_count, seed + 3,
                                             extreme ? kMinShift : -12, extreme ? kMaxShift : 1);
  for (const Multiplier& x : m) {
    c.multipliers.push_back(x.multiplier);
    c.shifts.push_back(x.shift);
  }
  return c;
}

void expect_matches(const Case& c, const std::string& what) {
  const size_t count = size_t(c.batches) * c.out_features;
  std::vector<int8_t> expected(count), out(count, 0x55);
  const int32_t* bias = c.bias ? c.bias_values.data() : nullptr;
  fully_connected_s8(c.p, c.multipliers.data(), c.shifts.data(), c.batches, c.in_features,
                     c.out_features, c.input.data(), c.weights.data(), bias, expected.data());
  fully_connected_s8__mve(c.p, c.multipliers.data(), c.shifts.data(), c.batches, c.in_features,
                          c.out_features, c.input.data(), c.weights.data(), bias, out.data());
  ASSERT_EQ(out, expected) << what << ": B" << c.batches << " K" << c.in_features << " N"
                           << c.out_features << " zp " << c.p.input_zero_point << "/"
                           << c.p.filter_zero_point << "/" << c.p.output_zero_point
                           << " channels " << c.p.channel_count;
}

TEST(FullyConnectedS8Mve, AllFeatureTails) {
  std::mt19937 rng(3);
  for (int32_t k = 1; k <= 17; ++k) {
    for (int32_t n = 1; n <= 17; ++n) {
      expect_matches(random_case(rng, k, n), "tails");
    }
  }
}

TEST(FullyConnectedS8Mve, MatchesReferenceOnRandomCases) {
  std::mt19937 rng(20261129);
  for (int i = 0; i < 400; ++i) {
    const int32_t k = std::uniform_int_distribution<int32_t>(1, 300)(rng);
    const int32_t n = std::uniform_int_distribution<int32_t>(1, 40)(rng);
    expect_matches(random_case(rng, k, n), "case " + std::to_string(i));
  }
}

// input_zero_point -128 (input offset 128, which takes two int8 offset vectors) and the
// other extreme, with and without a filter zero point.
TEST(FullyConnectedS8Mve, ExtremeInputZeroPoints) {
  std::mt19937 rng(17);
  for (int i = 0; i < 80; ++i) {
    Case c = random_case(rng, 1 + i * 5 % 70, 1 + i % 13);
    c.p.input_zero_point = i % 2 == 0 ? -128 : 127;
    if (c.p.channel_count == 1 && i % 4 < 2) c.p.filter_zero_point = i % 3 - 1;
    expect_matches(c, "extreme zero point " + std::to_string(i));
  }
}

// Through the entry: check() is the reference's and run() matches the reference entry.
TEST(FullyConnectedS8Mve, EntryCheckAndRun) {
  std::mt19937 rng(8);
  for (int i = 0; i < 20; ++i) {
    Case c = random_case(rng, 1 + i * 7, 1 + i % 9);
    c.bias = true;
    testing::TestOp ops[2];
    uint32_t outs[2];
    for (testing::TestOp& op : ops) {
      const uint32_t in =
          op.add_input(DType::kInt8, {uint32_t(c.batches), uint32_t(c.in_features)});
      const uint32_t w =
          op.add_input(DType::kInt8, {uint32_t(c.out_features), uint32_t(c.in_features)});
      const uint32_t b = op.add_input(DType::kInt32, {uint32_t(c.out_features)});
      outs[&op - ops] =
          op.add_output(DType::kInt8, {uint32_t(c.batches), uint32_t(c.out_features)});
      std::vector<Multiplier> m;
      for (size_t j = 0; j < c.multipliers.size(); ++j) {
        m.push_back({c.multipliers[j], c.shifts[j]});
      }
      op.set_raw_params(testing::params_bytes(c.p, m));
      op.set_data(in, c.input);
      op.set_data(w, c.weights);
      op.set_data(b, c.bias_values);
    }
    ASSERT_EQ(ops[0].check(kFullyConnectedS8Entry), Status::kOk);
    ASSERT_EQ(ops[1].check(kFullyConnectedS8MveEntry), Status::kOk);
    ops[0].run(kFullyConnectedS8Entry);
    ops[1].run(kFullyConnectedS8MveEntry);
    ASSERT_EQ(ops[1].data<int8_t>(outs[1]), ops[0].data<int8_t>(outs[0]));
    // A corrupted channel count is rejected like the reference does.
    ops[1].params<FullyConnectedS8Params>().channel_count = uint32_t(c.out_features) + 1;
    EXPECT_EQ(ops[1].check(kFullyConnectedS8MveEntry), Status::kBadParams);
  }
}

}  // namespace fully_connected_mve_test
}  // namespace mote
