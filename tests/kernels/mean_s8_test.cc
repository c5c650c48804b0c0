// int8 MEAN against the model of TFLite's QuantizedMeanOrSum (sum, zero point times n,
// the multiplier with 1/n folded in by mean_multiplier()).
#include <gtest/gtest.h>

#include <vector>

#include "kernel_test_util.h"
#include "mean/mean.h"
#include "quant/quant_math.h"
#include "quant_test_util.h"

namespace mote {
namespace mean_s8_test {

using testing::TestOp;

void run_case(const std::vector<uint32_t>& in_dims, uint32_t axes_mask, float in_scale,
              int32_t in_zp, float out_scale, int32_t out_zp, uint32_t seed) {
  std::vector<uint32_t> out_dims;
  int64_t n = 1;
  for (size_t i = 0; i < in_dims.size(); ++i) {
    if ((axes_mask >> i & 1u) != 0) {
      n *= in_dims[i];
      out_dims.push_back(1);  // keep_dims
    } else {
      out_dims.push_back(in_dims[i]);
    }
  }
  MeanS8Params p{axes_mask, in_zp, out_zp, 0, 0};
  mean_multiplier(in_scale, out_scale, n, &p.multiplier, &p.shift);
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt8, in_dims);
  const uint32_t out = op.add_output(DType::kInt8, out_dims);
  op.set_params(p);
  const auto x = testing::random_full_range<int8_t>(testing::product(in_dims), seed);
  op.set_data(in, x);
  ASSERT_EQ(op.check(kMeanS8Entry), Status::kOk);
  op.run(kMeanS8Entry);
  const auto y = op.data<int8_t>(out);
  std::vector<int64_t> sums(testing::product(out_dims), 0);
  for (size_t i = 0; i < x.size(); ++i) {
    const auto idx = testing::unflatten(i, in_dims);
    size_t o = 0;
    for (size_t d = 0; d < in_dims.size(); ++d) o = o * out_dims[d] + ((axes_mask >> d & 1u) ? 0 : idx[d]);
    sums[o] += x[i];
  }
  int unsaturated = 0;
  for (size_t o = 0; o < sums.size(); ++o) {
    const int32_t shifted = testing::wrap32(sums[o] - int64_t{in_zp} * n);
    const int64_t v = int64_t{testing::ref_mbqm(shifted, p.multiplier, p.shift)} + out_zp;
    const int32_t expected = testing::ref_clamp(v, -128, 127);
    ASSERT_EQ(y[o], expected) << o;
    unsaturated += expected != -128 && expected != 127;
  }
  EXPECT_GT(unsaturated, 0);
}

TEST(MeanS8, HandComputed) {
  // Mean over the last axis of [[1, 2, 4], [-3, -3, -4]] with equal scales and zero
  // points 0: 7/3 = 2.33 -> 2, -10/3 = -3.33 -> -3.
  MeanS8Params p{2u, 0, 0, 0, 0};
  mean_multiplier(0.5f, 0.5f, 3, &p.multiplier, &p.shift);
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt8, {2, 3});
  const uint32_t out = op.add_output(DType::kInt8, {2});
  op.set_params(p);
  op.set_data(in, std::vector<int8_t>{1, 2, 4, -3, -3, -4});
  ASSERT_EQ(op.check(kMeanS8Entry), Status::kOk);
  op.run(kMeanS8Entry);
  EXPECT_EQ(op.data<int8_t>(out), (std::vector<int8_t>{2, -3}));
}

TEST(MeanS8, MatchesModelGlobalPoolAndOtherAxes) {
  run_case({1, 7, 7, 16}, 0b0110, 0.05f, -128, 0.03f, -100, 1);   // global average pool
  run_case({2, 5, 3, 4}, 0b0110, 0.1f, 127, 0.1f, 127, 2);
  run_case({3, 4, 5}, 0b001, 0.02f, 5, 0.01f, -3, 3);
  run_case({3, 4, 5}, 0b101, 0.02f, -128, 0.02f, -128, 4);
  run_case({6, 2, 2, 3, 2}, 0b11111, 0.2f, 10, 0.05f, 0, 5);       // everything
  run_case({4, 9}, 0b10, 1.0f, 0, 5.0f, 0, 6);
}

TEST(MeanS8, EmptyReductionWritesZeros) {
  MeanS8Params p{0b10u, 3, 4, 1 << 30, 0};
  TestOp op;
  op.add_input(DType::kInt8, {3, 0});
  const uint32_t out = op.add_output(DType::kInt8, {3});
  op.set_params(p);
  ASSERT_EQ(op.check(kMeanS8Entry), Status::kOk);
  op.run(kMeanS8Entry);
  EXPECT_EQ(op.data<int8_t>(out), (std::vector<int8_t>{0, 0, 0}));
}

TEST(MeanS8Check, Rejections) {
  TestOp op;
  op.add_input(DType::kInt8, {2, 3, 4});
  const uint32_t out = op.add_output(DType::kInt8, {2, 4});
  op.set_params(MeanS8Params{0b010u, 0, 0, 1 << 30, 0});
  ASSERT_EQ(op.check(kMeanS8Entry), Status::kOk);
  auto& p = op.params<MeanS8Params>();
  p.axes_mask = 0b1010;  // axis 3 of a rank-3 input
  EXPECT_EQ(op.check(kMeanS8Entry), Status::kBadParams);
  p.axes_mask = 0b001;  // kept elements 12 != 8
  EXPECT_EQ(op.check(kMeanS8Entry), Status::kBadParams);
  p.axes_mask = 0b010;
  p.shift = -32;
  EXPECT_EQ(op.check(kMeanS8Entry), Status::kBadParams);
  p.shift = 0;
  p.output_zero_point = 300;
  EXPECT_EQ(op.check(kMeanS8Entry), Status::kBadParams);
  p.output_zero_point = 0;
  op.desc(out).dtype = static_cast<uint8_t>(DType::kFloat32);
  EXPECT_EQ(op.check(kMeanS8Entry), Status::kBadParams);
}

}  // namespace mean_s8_test
}  // namespace mote
