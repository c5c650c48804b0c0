// The int8 fully connected __dsp variant against the reference kernel, bit for bit, on
// seeded random shapes (feature tails, row tails, batches), zero points (incl. a filter
// zero point), clamps, per-tensor and per-channel multipliers (incl. extreme ones) and
// biases, aligned and misaligned weight rows, rows longer than 1024 features (no
// scratch) and the per-tensor fast loop's edges; plus check() refusals (too little
// scratch).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "fully_connected/fully_connected.h"
#include "kernel_test_util.h"
#include "quant_test_util.h"

namespace mote {
namespace fully_connected_variants_test {

using testing::Multiplier;
using testing::TestOp;

struct Case {
  uint32_t batches, in_features, out_features;
  bool per_channel;
  int32_t input_zp, filter_zp, output_zp, act_min, act_max;
  bool bias, big_bias, extreme;
};

struct Built {
  TestOp op;
  uint32_t out;
};

void build(const Case& cs, uint32_t seed, uint32_t scratch_bytes, Built* b) {
  std::mt19937 rng(seed);
  TestOp& op = b->op;
  const uint32_t in = op.add_input(DType::kInt8, {cs.batches, cs.in_features});
  const uint32_t weights = op.add_input(DType::kInt8, {cs.out_features, cs.in_features});
  uint32_t bias = kNoTensor;
  if (cs.bias) bias = op.add_input(DType::kInt32, {cs.out_features});
  b->out = op.add_output(DType::kInt8, {cs.batches, cs.out_features});
  const uint32_t channels = cs.per_channel ? cs.out_features : 1;
  auto mult = testing::random_multipliers(channels, rng(), -14, 2);
  if (cs.extreme) {
    const int32_t edge_m[] = {INT32_MIN, INT32_MAX, 0, 1, -(1 << 30), 1 << 30};
    const int32_t edge_s[] = {-31, 30, 0, -1, 1, -30};
    for (Multiplier& x : mult) {
      if (rng() % 2 == 0) x.multiplier = edge_m[rng() % 6];
      if (rng() % 2 == 0) x.shift = edge_s[rng() % 6];
    }
  }
  op.set_raw_params(testing::params_bytes(
      FullyConnectedS8Params{cs.input_zp, cs.filter_zp, cs.output_zp, cs.act_min, cs.act_max,
                             channels},
      mult));
  op.set_data(in, testing::random_full_range<int8_t>(size_t{cs.batches} * cs.in_features, seed + 1));
  op.set_data(weights, testing::random_full_range<int8_t>(size_t{cs.out_features} * cs.in_features,
                                                          seed + 2));
  if (cs.bias) {
    op.set_data(bias, cs.big_bias ? testing::random_full_range<int32_t>(cs.out_features, seed + 3)
                                  : testing::random_ints<int32_t>(cs.out_features, seed + 3,
                                                                  -100000, 100000));
  }
  op.add_scratch(scratch_bytes);
}

void expect_same(const Case& cs, uint32_t seed) {
  Built b;
  build(cs, seed, fully_connected_s8__dsp_scratch_bytes(static_cast<int32_t>(cs.in_features)), &b);
  ASSERT_EQ(b.op.check(kFullyConnectedS8Entry), Status::kOk);
  b.op.run(kFullyConnectedS8Entry);
  const auto expected = b.op.data<int8_t>(b.out);
  b.op.set_data(b.out, std::vector<int8_t>(expected.size(), 0x55));
  ASSERT_EQ(b.op.check(kFullyConnectedS8DspEntry), Status::kOk);
  b.op.run(kFullyConnectedS8DspEntry);
  const auto actual = b.op.data<int8_t>(b.out);
  for (size_t i = 0; i < expected.size(); ++i) {
    ASSERT_EQ(expected[i], actual[i]) << "element " << i << " seed " << seed << " B"
                                      << cs.batches << " K" << cs.in_features << " N"
                                      << cs.out_features;
  }
}

TEST(FullyConnectedS8Dsp, MatchesReferenceOnRandomCases) {
  std::mt19937 rng(31337);
  auto u = [&](int lo, int hi) { return static_cast<int32_t>(lo + rng() % (hi - lo + 1)); };
  for (uint32_t i = 0; i < 600; ++i) {
    Case cs{};
    cs.batches = u(0, 3) == 0 ? u(2, 4) : 1;
    cs.in_features = u(0, 3) == 0 ? u(1, 9) : u(1, 200);
    cs.out_features = u(0, 3) == 0 ? u(1, 9) : u(1, 70);
    cs.per_channel = u(0, 1) == 1;
    cs.input_zp = u(-128, 127);
    cs.filter_zp = cs.per_channel ? 0 : (u(0, 2) == 0 ? u(-128, 127) : 0);
    cs.output_zp = u(-128, 127);
    cs.act_min = u(0, 3) == 0 ? u(-128, 0) : -128;
    cs.act_max = u(0, 3) == 0 ? u(cs.act_min, 127) : 127;
    cs.bias = u(0, 4) != 0;
    cs.big_bias = u(0, 5) == 0;
    cs.extreme = u(0, 4) == 0;
    expect_same(cs, 100 + i);
    if (HasFatalFailure()) return;
  }
}

TEST(FullyConnectedS8Dsp, MatchesReferenceOnModelShapes) {
  const uint32_t shapes[][2] = {{640, 128}, {128, 128}, {128, 8}, {8, 128}, {128, 640},
                                {250, 12}, {1, 1}, {3, 5}};
  uint32_t seed = 5;
  for (const auto& s : shapes) {
    for (int zp = 0; zp < 2; ++zp) {
      Case cs{1, s[0], s[1], zp == 0, -3, zp == 0 ? 0 : 17, 4, -128, 127, true, false, false};
      expect_same(cs, seed++);
      if (HasFatalFailure()) return;
    }
  }
  // Filter zero point at the int8 extremes with accumulators that wrap.
  Case wrap{2, 1000, 6, false, -128, -128, 127, -128, 127, true, true, false};
  expect_same(wrap, 99);
  wrap.filter_zp = 127;
  wrap.input_zp = 127;
  expect_same(wrap, 100);
}

TEST(FullyConnectedS8Dsp, CheckRefusesTooLittleScratch) {
  Case cs{1, 37, 5, true, 0, 0, 0, -128, 127, true, false, false};
  Built b;
  build(cs, 1, fully_connected_s8__dsp_scratch_bytes(37) - 4, &b);
  EXPECT_EQ(b.op.check(kFullyConnectedS8Entry), Status::kOk);
  EXPECT_EQ(b.op.check(kFullyConnectedS8DspEntry), Status::kBadParams);
  Built ok;
  build(cs, 1, fully_connected_s8__dsp_scratch_bytes(37), &ok);
  EXPECT_EQ(ok.op.check(kFullyConnectedS8DspEntry), Status::kOk);
  // A bad parameter the reference refuses is refused too.
  ok.op.params<FullyConnectedS8Params>().output_zero_point = -200;
  EXPECT_EQ(ok.op.check(kFullyConnectedS8DspEntry), Status::kBadParams);
}

TEST(FullyConnectedS8Dsp, ScratchBytes) {
  EXPECT_EQ(fully_connected_s8__dsp_scratch_bytes(3), 0u);
  EXPECT_EQ(fully_connected_s8__dsp_scratch_bytes(4), 8u);
  EXPECT_EQ(fully_connected_s8__dsp_scratch_bytes(640), 1280u);
  EXPECT_EQ(fully_connected_s8__dsp_scratch_bytes(1024), 2048u);
  // Longer rows are widened on the fly: no scratch.
  EXPECT_EQ(fully_connected_s8__dsp_scratch_bytes(1025), 0u);
  EXPECT_EQ(fully_connected_s8__dsp_scratch_bytes(4000), 0u);
}

// The plain function against the reference with the weights at byte offset
// `weight_offset` (misaligned rows take the word-load path, aligned ones the LDRD path).
void expect_same_direct(const Case& cs, uint32_t seed, uint32_t weight_offset) {
  std::mt19937 rng(seed);
  const int32_t k = static_cast<int32_t>(cs.in_features);
  const int32_t n = static_cast<int32_t>(cs.out_features);
  const int32_t batches = static_cast<int32_t>(cs.batches);
  const uint32_t channels = cs.per_channel ? cs.out_features : 1;
  auto mult = testing::random_multipliers(channels, rng(), -24, 2);
  if (cs.extreme) {
    const int32_t edge_m[] = {INT32_MIN, INT32_MAX, 0, 1, -(1 << 30), 1 << 30};
    const int32_t edge_s[] = {-31, 30, 0, -1, -22, -23};
    for (Multiplier& x : mult) {
      if (rng() % 2 == 0) x.multiplier = edge_m[rng() % 6];
      if (rng() % 2 == 0) x.shift = edge_s[rng() % 6];
    }
  }
  std::vector<int32_t> multipliers, shifts;
  for (const Multiplier& x : mult) {
    multipliers.push_back(x.multiplier);
    shifts.push_back(x.shift);
  }
  const FullyConnectedS8Params p{cs.input_zp, cs.filter_zp, cs.output_zp, cs.act_min, cs.act_max,
                                 channels};
  const auto input = testing::random_full_range<int8_t>(size_t{cs.batches} * cs.in_features, seed + 1);
  // Weights in a word buffer so that the offset alone decides their alignment.
  const size_t weight_count = size_t{cs.out_features} * cs.in_features;
  std::vector<uint32_t> weight_words((weight_count + weight_offset) / 4 + 1, 0);
  const auto w = testing::random_full_range<int8_t>(weight_count, seed + 2);
  int8_t* weights = reinterpret_cast<int8_t*>(weight_words.data()) + weight_offset;
  std::copy(w.begin(), w.end(), weights);
  const auto bias = cs.big_bias ? testing::random_full_range<int32_t>(cs.out_features, seed + 3)
                                : testing::random_ints<int32_t>(cs.out_features, seed + 3,
                                                                -100000, 100000);
  const int32_t* b = cs.bias ? bias.data() : nullptr;
  std::vector<int8_t> expected(size_t{cs.batches} * cs.out_features, 0x11);
  std::vector<int8_t> actual(expected.size(), 0x55);
  std::vector<uint32_t> scratch(fully_connected_s8__dsp_scratch_bytes(k) / 4 + 1, 0xA5A5A5A5u);
  fully_connected_s8(p, multipliers.data(), shifts.data(), batches, k, n, input.data(), weights, b,
                     expected.data());
  fully_connected_s8__dsp(p, multipliers.data(), shifts.data(), batches, k, n, input.data(),
                          weights, b, actual.data(), scratch.data());
  for (size_t i = 0; i < expected.size(); ++i) {
    ASSERT_EQ(expected[i], actual[i]) << "element " << i << " seed " << seed << " B"
                                      << cs.batches << " K" << k << " N" << n << " offset "
                                      << weight_offset;
  }
}

TEST(FullyConnectedS8Dsp, MatchesReferenceWithAlignedAndMisalignedWeights) {
  std::mt19937 rng(777);
  auto u = [&](int lo, int hi) { return static_cast<int32_t>(lo + rng() % (hi - lo + 1)); };
  for (uint32_t i = 0; i < 400; ++i) {
    Case cs{};
    cs.batches = u(0, 3) == 0 ? u(2, 3) : 1;
    // Multiples of 4 (the LDRD path), of 8 and 16 (whole loop passes), odd groups of four.
    cs.in_features = u(0, 2) == 0 ? static_cast<uint32_t>(4 * u(1, 80)) : static_cast<uint32_t>(u(1, 300));
    cs.out_features = static_cast<uint32_t>(u(0, 3) == 0 ? u(1, 5) : u(1, 75));
    cs.per_channel = u(0, 1) == 1;
    cs.input_zp = u(-128, 127);
    cs.filter_zp = cs.per_channel ? 0 : (u(0, 3) == 0 ? u(-128, 127) : 0);
    cs.output_zp = u(-128, 127);
    cs.act_min = u(0, 3) == 0 ? u(-128, 0) : -128;
    cs.act_max = u(0, 3) == 0 ? u(cs.act_min, 127) : 127;
    cs.bias = u(0, 5) != 0;
    cs.big_bias = u(0, 5) == 0;
    cs.extreme = u(0, 4) == 0;
    expect_same_direct(cs, 5000 + i, static_cast<uint32_t>(u(0, 3)));
    if (HasFatalFailure()) return;
  }
}

TEST(FullyConnectedS8Dsp, MatchesReferenceOnLongRowsWithoutScratch) {
  // Rows longer than 1024 features are widened on the fly (micro_speech's 4000 -> 4).
  const uint32_t shapes[][3] = {{1, 4000, 4}, {2, 1025, 7}, {3, 1500, 9}, {1, 2051, 1}};
  uint32_t seed = 60;
  for (const auto& s : shapes) {
    for (int variant = 0; variant < 3; ++variant) {
      Case cs{s[0], s[1], s[2], variant == 1, -5 + 40 * variant, variant == 2 ? 9 : 0, 12,
              -128, 127, variant != 2, variant == 2, variant == 1};
      expect_same_direct(cs, seed++, variant == 0 ? 0 : 1);
      if (HasFatalFailure()) return;
    }
  }
}

TEST(FullyConnectedS8Dsp, PerTensorFastPathEdges) {
  // Per-tensor shifts around the fast loop's range [-22, -1], accumulators near +-2^30
  // (big biases), clamps inside the int8 range.
  uint32_t seed = 900;
  for (int32_t shift : {-31, -23, -22, -21, -8, -1, 0, 1}) {
    for (bool big : {false, true}) {
      Case cs{1, 256, 40, false, -128, 0, -128, -100, 100, true, big, false};
      const int32_t k = static_cast<int32_t>(cs.in_features);
      const int32_t n = static_cast<int32_t>(cs.out_features);
      std::vector<int32_t> m = {1518500250}, s = {shift};
      const FullyConnectedS8Params p{cs.input_zp, 0, cs.output_zp, cs.act_min, cs.act_max, 1};
      const auto input = testing::random_full_range<int8_t>(cs.in_features, seed);
      const auto weights = testing::random_full_range<int8_t>(size_t{cs.in_features} * cs.out_features, seed + 1);
      std::vector<int32_t> bias = testing::random_ints<int32_t>(cs.out_features, seed + 2, -1000, 1000);
      if (big) {
        for (size_t i = 0; i < bias.size(); ++i) {
          const int32_t edges[] = {(1 << 30) - 1, -(1 << 30), 1 << 30, INT32_MAX, INT32_MIN};
          bias[i] = static_cast<int32_t>(static_cast<uint32_t>(edges[i % 5]) -
                                         static_cast<uint32_t>(i % 3));  // wrapping
        }
      }
      std::vector<int8_t> expected(cs.out_features), actual(cs.out_features, 0x55);
      std::vector<uint32_t> scratch(fully_connected_s8__dsp_scratch_bytes(k) / 4 + 1);
      fully_connected_s8(p, m.data(), s.data(), 1, k, n, input.data(), weights.data(), bias.data(),
                         expected.data());
      fully_connected_s8__dsp(p, m.data(), s.data(), 1, k, n, input.data(), weights.data(),
                              bias.data(), actual.data(), scratch.data());
      EXPECT_EQ(expected, actual) << "shift " << shift << " big " << big;
      ++seed;
    }
  }
}

}  // namespace fully_connected_variants_test
}  // namespace mote
