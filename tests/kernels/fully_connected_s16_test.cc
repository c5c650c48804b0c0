// 16x8 fully connected (int16 activations, int8 weights) against the model of the int16
// instantiations of TFLite's FullyConnected / FullyConnectedPerChannel, for both
// accumulators TFLite Micro picks (int64 with an int64 bias or none, int32 with an int32
// bias).
#include <gtest/gtest.h>

#include <vector>

#include "fully_connected/fully_connected.h"
#include "kernel_test_util.h"
#include "quant/quant_math.h"
#include "quant_test_util.h"

namespace mote {
namespace fully_connected_s16_test {

using testing::Multiplier;
using testing::TestOp;

struct Case {
  uint32_t batches, in_features, out_features;
  int32_t filter_zp;
  int32_t accumulator;
  int32_t act_min, act_max;
  bool per_channel, bias;
  int32_t shift_lo, shift_hi;
  int64_t bias_magnitude;
};

struct Op {
  TestOp op;
  uint32_t in, weights, bias, out;
};

void build(const Case& cs, const std::vector<Multiplier>& m, Op* c,
           std::vector<uint32_t> in_dims = {}) {
  if (in_dims.empty()) in_dims = {cs.batches, cs.in_features};
  c->in = c->op.add_input(DType::kInt16, in_dims);
  c->weights = c->op.add_input(DType::kInt8, {cs.out_features, cs.in_features});
  const DType bias_dtype = cs.accumulator == 64 ? DType::kInt64 : DType::kInt32;
  c->bias = cs.bias ? c->op.add_input(bias_dtype, {cs.out_features}) : kNoTensor;
  c->out = c->op.add_output(DType::kInt16, {cs.batches, cs.out_features});
  c->op.set_raw_params(testing::params_bytes(
      FullyConnectedS16Params{cs.filter_zp, cs.accumulator, cs.act_min, cs.act_max,
                              static_cast<uint32_t>(m.size())},
      m));
}

// Expected output from the exact (128-bit) sum: int64 accumulation never overflows for
// these sizes; int32 accumulation wraps like TFLite's.
int32_t expected_output(const Case& cs, testing::i128 acc, const Multiplier& m) {
  const int32_t scaled = cs.accumulator == 64
                             ? testing::ref_mbqm64(static_cast<int64_t>(acc), m.multiplier, m.shift)
                             : testing::ref_mbqm(testing::wrap32(acc), m.multiplier, m.shift);
  return testing::ref_clamp(scaled, cs.act_min, cs.act_max);
}

void run_case(const Case& cs, uint32_t seed, std::vector<uint32_t> in_dims = {}) {
  const auto m = testing::random_multipliers(cs.per_channel ? cs.out_features : 1, seed,
                                             cs.shift_lo, cs.shift_hi);
  Op c;
  build(cs, m, &c, in_dims);
  const auto in = testing::random_full_range<int16_t>(size_t{cs.batches} * cs.in_features, seed + 1);
  const auto w = testing::random_full_range<int8_t>(size_t{cs.out_features} * cs.in_features, seed + 2);
  const auto bias64 = testing::random_ints<int64_t>(cs.out_features, seed + 3, -cs.bias_magnitude,
                                                    cs.bias_magnitude);
  c.op.set_data(c.in, in);
  c.op.set_data(c.weights, w);
  if (cs.bias && cs.accumulator == 64) c.op.set_data(c.bias, bias64);
  if (cs.bias && cs.accumulator == 32) {
    c.op.set_data(c.bias, std::vector<int32_t>(bias64.begin(), bias64.end()));
  }
  ASSERT_EQ(c.op.check(kFullyConnectedS16Entry), Status::kOk);
  c.op.run(kFullyConnectedS16Entry);
  const auto out = c.op.data<int16_t>(c.out);
  int unsaturated = 0;
  for (uint32_t b = 0; b < cs.batches; ++b) {
    for (uint32_t n = 0; n < cs.out_features; ++n) {
      testing::i128 acc = cs.bias ? bias64[n] : 0;
      for (uint32_t k = 0; k < cs.in_features; ++k) {
        acc += (testing::i128{w[n * cs.in_features + k]} - cs.filter_zp) *
               in[b * cs.in_features + k];
      }
      const int32_t expected = expected_output(cs, acc, m[cs.per_channel ? n : 0]);
      ASSERT_EQ(out[b * cs.out_features + n], expected) << b << " " << n;
      unsaturated += expected != cs.act_min && expected != cs.act_max;
    }
  }
  EXPECT_GT(unsaturated, 0);
}

TEST(FullyConnectedS16, HandComputedInt64Rounding) {
  // in [3, -5], weights [[1, 1], [2, 1]], bias [0, -1]; multiplier 0.5 (reduced to
  // 2^14, shift 0): n0: -2 * 0.5 = -1.0 -> -1; n1: (6 - 5 - 1) = 0 -> 0.
  // Second row in [1, 0]: n0: 1 * 0.5 = 0.5 -> 1 (ties up); n1: (2 - 1) * 0.5 -> 1.
  Case cs{2, 2, 2, 0, 64, -32768, 32767, false, true, 0, 0, 0};
  Op c;
  build(cs, {{1 << 30, 0}}, &c);
  c.op.set_data(c.in, std::vector<int16_t>{3, -5, 1, 0});
  c.op.set_data(c.weights, std::vector<int8_t>{1, 1, 2, 1});
  c.op.set_data(c.bias, std::vector<int64_t>{0, -1});
  ASSERT_EQ(c.op.check(kFullyConnectedS16Entry), Status::kOk);
  c.op.run(kFullyConnectedS16Entry);
  EXPECT_EQ(c.op.data<int16_t>(c.out), (std::vector<int16_t>{-1, 0, 1, 1}));
}

TEST(FullyConnectedS16, Int64AccumulatorRoundsTheReducedMultiplier) {
  // The int64 path rounds the multiplier to 16 bits first: 0x7FFF8000 reduces to 0x7FFF
  // (not 0x8000), so 2^15 * 0x7FFF / 2^15 = 32767 rather than 32768 (saturated).
  Case cs{1, 1, 1, 0, 64, -32768, 32767, false, false, 0, 0, 0};
  Op c;
  build(cs, {{0x7FFF8000, 0}}, &c);
  c.op.set_data(c.in, std::vector<int16_t>{-32768});
  c.op.set_data(c.weights, std::vector<int8_t>{-1});
  ASSERT_EQ(c.op.check(kFullyConnectedS16Entry), Status::kOk);
  c.op.run(kFullyConnectedS16Entry);
  EXPECT_EQ(c.op.data<int16_t>(c.out), (std::vector<int16_t>{32767}));
  EXPECT_EQ(testing::ref_mbqm64(32768, 0x7FFF8000, 0), 32767);
}

TEST(FullyConnectedS16, MatchesModelInt64PerChannel) {
  run_case({4, 33, 12, 0, 64, -32768, 32767, true, true, -22, -14, int64_t{1} << 24}, 10);
  // Biases beyond int32: the int64 accumulator keeps them.
  run_case({2, 5, 8, 0, 64, -32768, 32767, true, true, -31, -22, int64_t{1} << 40}, 15);
  run_case({1, 640, 16, 0, 64, -32768, 32767, true, true, -26, -18, int64_t{1} << 30}, 20);
  run_case({3, 7, 5, 0, 64, 0, 32767, true, false, -20, -12, 0}, 30);  // ReLU, no bias
  run_case({2, 3, 6, 0, 64, -32768, 32767, true, true, -16, 6, 1000}, 40);  // multipliers > 1
}

TEST(FullyConnectedS16, MatchesModelInt64PerTensorWithFilterZeroPoint) {
  run_case({3, 17, 5, 0, 64, -32768, 32767, false, true, -24, -20, int64_t{1} << 33}, 50);
  run_case({2, 9, 3, -128, 64, -32768, 32767, false, true, -22, -14, 100000}, 60);
  run_case({2, 9, 3, 127, 64, -1000, 20000, false, false, -22, -14, 0}, 70);
}

TEST(FullyConnectedS16, MatchesModelInt32Accumulator) {
  run_case({3, 17, 5, 0, 32, -32768, 32767, true, true, -18, -10, 1 << 24}, 80);
  run_case({2, 300, 4, 0, 32, -32768, 32767, false, true, -24, -16, 1 << 20}, 90);
  // Large K with the filter offset (weights + 128 in [0, 255]).
  run_case({1, 4096, 3, -128, 32, -32768, 32767, false, false, -24, -18, 0}, 100);
}

TEST(FullyConnectedS16, Int32AccumulatorWraps) {
  // Each term is (-128 - 127) * -32767 = 8,355,585; 1024 of them sum to 8,556,119,040,
  // which int32 holds as 8,556,119,040 - 2^33 = -33,815,552.
  const uint32_t k = 1024;
  Case cs{1, k, 1, 127, 32, -32768, 32767, false, false, 0, 0, 0};
  Op c;
  build(cs, {{1 << 30, -16}}, &c);
  c.op.set_data(c.in, std::vector<int16_t>(k, -32767));
  c.op.set_data(c.weights, std::vector<int8_t>(k, -128));
  ASSERT_EQ(c.op.check(kFullyConnectedS16Entry), Status::kOk);
  c.op.run(kFullyConnectedS16Entry);
  const int64_t exact = int64_t{k} * 255 * 32767;
  const int32_t wrapped = static_cast<int32_t>(exact - (int64_t{1} << 33));
  EXPECT_EQ(c.op.data<int16_t>(c.out)[0], testing::ref_clamp(testing::ref_mbqm(wrapped, 1 << 30, -16),
                                                           -32768, 32767));
  EXPECT_NE(c.op.data<int16_t>(c.out)[0], 32767);  // the exact sum would saturate
}

TEST(FullyConnectedS16, InputOfAnyShapeWithBTimesKElements) {
  run_case({1, 24, 5, 0, 64, -32768, 32767, false, true, -20, -12, 1 << 20}, 110, {1, 2, 3, 4});
}

TEST(FullyConnectedS16, MultipliersFromScalesPerTensorUsesTheFloatProduct) {
  std::vector<Multiplier> m(1);
  fully_connected_multiplier(0.00012f, 0.0117f, 0.00031f, &m[0].multiplier, &m[0].shift);
  Case cs{2, 16, 3, 0, 64, -32768, 32767, false, true, 0, 0, 0};
  Op c;
  build(cs, m, &c);
  const auto in = testing::random_full_range<int16_t>(32, 1);
  const auto w = testing::random_full_range<int8_t>(48, 2);
  const auto bias = testing::random_ints<int64_t>(3, 3, -100000, 100000);
  c.op.set_data(c.in, in);
  c.op.set_data(c.weights, w);
  c.op.set_data(c.bias, bias);
  ASSERT_EQ(c.op.check(kFullyConnectedS16Entry), Status::kOk);
  c.op.run(kFullyConnectedS16Entry);
  const auto out = c.op.data<int16_t>(c.out);
  for (uint32_t b = 0; b < 2; ++b)
    for (uint32_t n = 0; n < 3; ++n) {
      testing::i128 acc = bias[n];
      for (uint32_t i = 0; i < 16; ++i) acc += testing::i128{w[n * 16 + i]} * in[b * 16 + i];
      ASSERT_EQ(out[b * 3 + n], expected_output(cs, acc, m[0])) << b << " " << n;
    }
}

TEST(FullyConnectedS16Check, Rejections) {
  Case cs{2, 8, 4, 0, 64, -32768, 32767, true, true, -8, -6, 0};
  Op c;
  build(cs, testing::random_multipliers(4, 1, -8, -6), &c);
  ASSERT_EQ(c.op.check(kFullyConnectedS16Entry), Status::kOk);
  auto& p = c.op.params<FullyConnectedS16Params>();
  p.channel_count = 3;  // neither 1 nor N
  EXPECT_EQ(c.op.check(kFullyConnectedS16Entry), Status::kBadParams);
  p.channel_count = 1;  // 1 but the params hold 4 channels
  EXPECT_EQ(c.op.check(kFullyConnectedS16Entry), Status::kBadParams);
  p.channel_count = 4;
  p.filter_zero_point = 128;
  EXPECT_EQ(c.op.check(kFullyConnectedS16Entry), Status::kBadParams);
  p.filter_zero_point = 0;
  p.accumulator = 32;  // int32 accumulation needs an int32 bias
  EXPECT_EQ(c.op.check(kFullyConnectedS16Entry), Status::kBadParams);
  p.accumulator = 16;
  EXPECT_EQ(c.op.check(kFullyConnectedS16Entry), Status::kBadParams);
  p.accumulator = 64;
  p.act_min = -32769;
  EXPECT_EQ(c.op.check(kFullyConnectedS16Entry), Status::kBadParams);
  p.act_min = 100;
  p.act_max = 99;
  EXPECT_EQ(c.op.check(kFullyConnectedS16Entry), Status::kBadParams);
  p.act_min = -32768;
  p.act_max = 32767;
  testing::params_array_of<FullyConnectedS16Params>(c.op, 1, 4)[2] = 15;  // 15 - shift >= 1
  EXPECT_EQ(c.op.check(kFullyConnectedS16Entry), Status::kBadParams);
  testing::params_array_of<FullyConnectedS16Params>(c.op, 1, 4)[2] = -32;
  EXPECT_EQ(c.op.check(kFullyConnectedS16Entry), Status::kBadParams);
  testing::params_array_of<FullyConnectedS16Params>(c.op, 1, 4)[2] = 14;
  ASSERT_EQ(c.op.check(kFullyConnectedS16Entry), Status::kOk);
  c.op.desc(c.in).dims[1] = 9;  // 18 elements is not B * K
  EXPECT_EQ(c.op.check(kFullyConnectedS16Entry), Status::kBadParams);
  c.op.desc(c.in).dims[1] = 8;
  c.op.desc(c.in).dtype = static_cast<uint8_t>(DType::kInt8);
  EXPECT_EQ(c.op.check(kFullyConnectedS16Entry), Status::kBadParams);
  c.op.desc(c.in).dtype = static_cast<uint8_t>(DType::kInt16);
  c.op.desc(c.out).dims[1] = 5;
  EXPECT_EQ(c.op.check(kFullyConnectedS16Entry), Status::kBadParams);
  c.op.desc(c.out).dims[1] = 4;
  c.op.desc(c.bias).dims[0] = 3;
  EXPECT_EQ(c.op.check(kFullyConnectedS16Entry), Status::kBadParams);
  c.op.desc(c.bias).dims[0] = 4;
  c.op.desc(c.bias).dtype = static_cast<uint8_t>(DType::kInt32);  // int32 bias, 64-bit acc
  EXPECT_EQ(c.op.check(kFullyConnectedS16Entry), Status::kBadParams);
  c.op.desc(c.bias).dtype = static_cast<uint8_t>(DType::kInt64);
  ASSERT_EQ(c.op.check(kFullyConnectedS16Entry), Status::kOk);
  c.op.set_params_bytes(8);  // shorter than the header
  EXPECT_EQ(c.op.check(kFullyConnectedS16Entry), Status::kBadParams);
}

TEST(FullyConnectedS16Check, Int32AccumulatorAllowsShiftsUpTo30) {
  Case cs{1, 4, 2, 0, 32, -32768, 32767, true, true, 0, 0, 0};
  Op c;
  build(cs, {{1 << 30, 15}, {1 << 30, 30}}, &c);
  EXPECT_EQ(c.op.check(kFullyConnectedS16Entry), Status::kOk);
  testing::params_array_of<FullyConnectedS16Params>(c.op, 1, 2)[1] = 31;
  EXPECT_EQ(c.op.check(kFullyConnectedS16Entry), Status::kBadParams);
}

}  // namespace fully_connected_s16_test
}  // namespace mote
