// The int8 fully connected __dsp variant against the reference kernel, bit for bit, on
// seeded random shapes (feature tails, row tails, batches), zero points (incl. a filter
// zero point), clamps, per-tensor and per-channel multipliers (incl. extreme ones) and
// biases; plus check() refusals (too little scratch).
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "fully_connected/fully_connected.h"
#include "kernel_test_util.h"
#include "quant_test_util.h"

namespace mote {
namespace {

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
}

}  // namespace
}  // namespace mote
