// int8 fully connected against the model of TFLite's FullyConnected /
// FullyConnectedPerChannel.
#include <gtest/gtest.h>

#include <vector>

#include "fully_connected/fully_connected.h"
#include "kernel_test_util.h"
#include "quant/quant_math.h"
#include "quant_test_util.h"

namespace mote {
namespace fully_connected_s8_test {

using testing::Multiplier;
using testing::TestOp;

struct Case {
  uint32_t batches, in_features, out_features;
  int32_t input_zp, filter_zp, output_zp, act_min, act_max;
  bool per_channel, bias;
  int32_t shift_lo, shift_hi;
};

struct Op {
  TestOp op;
  uint32_t in, weights, bias, out;
};

void build(const Case& cs, const std::vector<Multiplier>& m, Op* c,
           std::vector<uint32_t> in_dims = {}) {
  if (in_dims.empty()) in_dims = {cs.batches, cs.in_features};
  c->in = c->op.add_input(DType::kInt8, in_dims);
  c->weights = c->op.add_input(DType::kInt8, {cs.out_features, cs.in_features});
  c->bias = cs.bias ? c->op.add_input(DType::kInt32, {cs.out_features}) : kNoTensor;
  c->out = c->op.add_output(DType::kInt8, {cs.batches, cs.out_features});
  c->op.set_raw_params(testing::params_bytes(
      FullyConnectedS8Params{cs.input_zp, cs.filter_zp, cs.output_zp, cs.act_min, cs.act_max,
                             static_cast<uint32_t>(m.size())},
      m));
}

void run_case(const Case& cs, uint32_t seed, std::vector<uint32_t> in_dims = {}) {
  const auto m = testing::random_multipliers(cs.per_channel ? cs.out_features : 1, seed,
                                             cs.shift_lo, cs.shift_hi);
  Op c;
  build(cs, m, &c, in_dims);
  const auto in = testing::random_full_range<int8_t>(size_t{cs.batches} * cs.in_features, seed + 1);
  const auto w = testing::random_full_range<int8_t>(size_t{cs.out_features} * cs.in_features, seed + 2);
  const auto bias = testing::random_ints<int32_t>(cs.out_features, seed + 3, -50000, 50000);
  c.op.set_data(c.in, in);
  c.op.set_data(c.weights, w);
  if (cs.bias) c.op.set_data(c.bias, bias);
  ASSERT_EQ(c.op.check(kFullyConnectedS8Entry), Status::kOk);
  c.op.run(kFullyConnectedS8Entry);
  const auto out = c.op.data<int8_t>(c.out);
  int unsaturated = 0;
  for (uint32_t b = 0; b < cs.batches; ++b) {
    for (uint32_t n = 0; n < cs.out_features; ++n) {
      int64_t acc = cs.bias ? bias[n] : 0;
      for (uint32_t k = 0; k < cs.in_features; ++k) {
        acc += (int64_t{w[n * cs.in_features + k]} - cs.filter_zp) *
               (int64_t{in[b * cs.in_features + k]} - cs.input_zp);
      }
      const Multiplier& mm = m[cs.per_channel ? n : 0];
      const int64_t v =
          int64_t{testing::ref_mbqm(testing::wrap32(acc), mm.multiplier, mm.shift)} + cs.output_zp;
      const int32_t expected = testing::ref_clamp(v, cs.act_min, cs.act_max);
      ASSERT_EQ(out[b * cs.out_features + n], expected) << b << " " << n;
      unsaturated += expected != cs.act_min && expected != cs.act_max;
    }
  }
  EXPECT_GT(unsaturated, 0);
}

TEST(FullyConnectedS8, HandComputed) {
  // in [2, 4] with zp -1 -> [3, 5]; weights [[1, 1], [2, -1]] with filter zp 1 ->
  // [[0, 0], [1, -2]]; bias [10, 0]; multiplier 0.5, output zp 5:
  // n0: 10 * 0.5 + 5 = 10; n1: (3 - 10) = -7 * 0.5 = -3.5 -> -3 (ties up) + 5 = 2.
  Case cs{1, 2, 2, -1, 1, 5, -128, 127, false, true, 0, 0};
  Op c;
  build(cs, {{1 << 30, 0}}, &c);
  c.op.set_data(c.in, std::vector<int8_t>{2, 4});
  c.op.set_data(c.weights, std::vector<int8_t>{1, 1, 2, -1});
  c.op.set_data(c.bias, std::vector<int32_t>{10, 0});
  ASSERT_EQ(c.op.check(kFullyConnectedS8Entry), Status::kOk);
  c.op.run(kFullyConnectedS8Entry);
  EXPECT_EQ(c.op.data<int8_t>(c.out), (std::vector<int8_t>{10, 2}));
}

TEST(FullyConnectedS8, MatchesModelPerTensor) {
  run_case({3, 17, 5, 89, 0, 96, -128, 127, false, true, -12, -8}, 10);
  run_case({1, 640, 128, -128, 0, -128, -128, 127, false, true, -14, -10}, 20);  // ad01 shape, ReLU-ish
  run_case({2, 9, 3, 127, -128, 0, -128, 127, false, false, -14, -10}, 30);      // filter zp
}

TEST(FullyConnectedS8, MatchesModelPerChannel) {
  run_case({4, 33, 12, -5, 0, 3, -128, 127, true, true, -12, -8}, 40);
  run_case({1, 10, 7, 0, 0, 0, -10, 10, true, true, -14, -10}, 50);
  run_case({2, 3, 6, 100, 0, -100, -128, 127, true, false, -16, 2}, 60);  // up to multipliers > 1
}

TEST(FullyConnectedS8, InputOfAnyShapeWithBTimesKElements) {
  // A [1, 2, 3, 4] input feeding K = 24 (no reshape needed).
  run_case({1, 24, 5, 0, 0, 0, -128, 127, false, true, -11, -7}, 70, {1, 2, 3, 4});
}

TEST(FullyConnectedS8, MultipliersFromScalesPerTensorUsesTheFloatProduct) {
  Case cs{2, 16, 3, -128, 0, 5, -128, 127, false, true, 0, 0};
  std::vector<Multiplier> m(1);
  fully_connected_multiplier(0.02448012f, 0.0117f, 0.008290957f, &m[0].multiplier, &m[0].shift);
  Op c;
  build(cs, m, &c);
  const auto in = testing::random_full_range<int8_t>(32, 1);
  const auto w = testing::random_full_range<int8_t>(48, 2);
  const auto bias = testing::random_ints<int32_t>(3, 3, -1000, 1000);
  c.op.set_data(c.in, in);
  c.op.set_data(c.weights, w);
  c.op.set_data(c.bias, bias);
  ASSERT_EQ(c.op.check(kFullyConnectedS8Entry), Status::kOk);
  c.op.run(kFullyConnectedS8Entry);
  const auto out = c.op.data<int8_t>(c.out);
  for (uint32_t b = 0; b < 2; ++b)
    for (uint32_t n = 0; n < 3; ++n) {
      int64_t acc = bias[n];
      for (uint32_t k = 0; k < 16; ++k) acc += int64_t{w[n * 16 + k]} * (in[b * 16 + k] + 128);
      const int64_t v = int64_t{testing::ref_mbqm(testing::wrap32(acc), m[0].multiplier, m[0].shift)} + 5;
      ASSERT_EQ(out[b * 3 + n], testing::ref_clamp(v, -128, 127));
    }
}

TEST(FullyConnectedS8Check, Rejections) {
  Case cs{2, 8, 4, 0, 0, 0, -128, 127, true, true, -8, -6};
  Op c;
  build(cs, testing::random_multipliers(4, 1, -8, -6), &c);
  ASSERT_EQ(c.op.check(kFullyConnectedS8Entry), Status::kOk);
  auto& p = c.op.params<FullyConnectedS8Params>();
  p.channel_count = 3;  // neither 1 nor N
  EXPECT_EQ(c.op.check(kFullyConnectedS8Entry), Status::kBadParams);
  p.channel_count = 1;  // 1 but the params hold 4 channels
  EXPECT_EQ(c.op.check(kFullyConnectedS8Entry), Status::kBadParams);
  p.channel_count = 4;
  p.filter_zero_point = 128;
  EXPECT_EQ(c.op.check(kFullyConnectedS8Entry), Status::kBadParams);
  p.filter_zero_point = 0;
  testing::params_array_of<FullyConnectedS8Params>(c.op, 1, 4)[2] = -32;
  EXPECT_EQ(c.op.check(kFullyConnectedS8Entry), Status::kBadParams);
  testing::params_array_of<FullyConnectedS8Params>(c.op, 1, 4)[2] = -6;
  c.op.desc(c.in).dims[1] = 9;  // 18 elements is not B * K
  EXPECT_EQ(c.op.check(kFullyConnectedS8Entry), Status::kBadParams);
  c.op.desc(c.in).dims[1] = 8;
  c.op.desc(c.out).dims[1] = 5;
  EXPECT_EQ(c.op.check(kFullyConnectedS8Entry), Status::kBadParams);
  c.op.desc(c.out).dims[1] = 4;
  c.op.desc(c.bias).dims[0] = 3;
  EXPECT_EQ(c.op.check(kFullyConnectedS8Entry), Status::kBadParams);
  c.op.desc(c.bias).dims[0] = 4;
  c.op.set_params_bytes(8);  // shorter than the header
  EXPECT_EQ(c.op.check(kFullyConnectedS8Entry), Status::kBadParams);
}

}  // namespace fully_connected_s8_test
}  // namespace mote
