// int16 MEAN against the model of TFLite's QuantizedMeanOrSum<int16_t, int32_t> (sum,
// zero point times n, the multiplier with 1/n folded in by mean_multiplier(), clamp to
// int16).
#include <gtest/gtest.h>

#include <vector>

#include "kernel_test_util.h"
#include "mean/mean.h"
#include "quant/quant_math.h"
#include "quant_test_util.h"

namespace mote {
namespace mean_s16_test {

using testing::TestOp;

struct Data {
  int16_t lo, hi;  // input values are drawn from [lo, hi]
};

void run_case(const std::vector<uint32_t>& in_dims, uint32_t axes_mask, float in_scale,
              int32_t in_zp, float out_scale, int32_t out_zp, uint32_t seed,
              Data data = {-32768, 32767}) {
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
  MeanS16Params p{axes_mask, in_zp, out_zp, 0, 0};
  mean_multiplier(in_scale, out_scale, n, &p.multiplier, &p.shift);
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt16, in_dims);
  const uint32_t out = op.add_output(DType::kInt16, out_dims);
  op.set_params(p);
  const auto x = testing::random_ints<int16_t>(testing::product(in_dims), seed, data.lo, data.hi);
  op.set_data(in, x);
  ASSERT_EQ(op.check(kMeanS16Entry), Status::kOk);
  op.run(kMeanS16Entry);
  const auto y = op.data<int16_t>(out);
  std::vector<int64_t> sums(testing::product(out_dims), 0);
  for (size_t i = 0; i < x.size(); ++i) {
    const auto idx = testing::unflatten(i, in_dims);
    size_t o = 0;
    for (size_t d = 0; d < in_dims.size(); ++d) o = o * out_dims[d] + ((axes_mask >> d & 1u) ? 0 : idx[d]);
    sums[o] += x[i];
  }
  int unsaturated = 0;
  for (size_t o = 0; o < sums.size(); ++o) {
    // TFLite sums in int32 and narrows sum - zp * n to int32.
    const int32_t shifted = testing::wrap32(int64_t{testing::wrap32(sums[o])} - int64_t{in_zp} * n);
    const int64_t v = int64_t{testing::ref_mbqm(shifted, p.multiplier, p.shift)} + out_zp;
    const int32_t expected = testing::ref_clamp(v, -32768, 32767);
    ASSERT_EQ(y[o], expected) << o;
    unsaturated += expected != -32768 && expected != 32767;
  }
  EXPECT_GT(unsaturated, 0);
}

TEST(MeanS16, HandComputed) {
  // Mean over the last axis of [[1000, 2000, 4001], [-3, -3, -4]] with equal scales and
  // zero points 0: 7001/3 = 2333.67 -> 2334, -10/3 = -3.33 -> -3.
  MeanS16Params p{2u, 0, 0, 0, 0};
  mean_multiplier(0.5f, 0.5f, 3, &p.multiplier, &p.shift);
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt16, {2, 3});
  const uint32_t out = op.add_output(DType::kInt16, {2});
  op.set_params(p);
  op.set_data(in, std::vector<int16_t>{1000, 2000, 4001, -3, -3, -4});
  ASSERT_EQ(op.check(kMeanS16Entry), Status::kOk);
  op.run(kMeanS16Entry);
  EXPECT_EQ(op.data<int16_t>(out), (std::vector<int16_t>{2334, -3}));
}

TEST(MeanS16, MatchesModelGlobalPoolAndOtherAxes) {
  run_case({1, 7, 7, 16}, 0b0110, 0.0005f, 0, 0.0003f, 0, 1);      // global average pool
  run_case({2, 5, 3, 4}, 0b0110, 0.001f, 0, 0.001f, 0, 2);
  run_case({3, 4, 5}, 0b001, 0.0002f, 0, 0.0001f, 0, 3);
  run_case({6, 2, 2, 3, 2}, 0b11111, 0.002f, 0, 0.0005f, 0, 5);     // everything
  run_case({4, 9}, 0b10, 1.0f, 0, 5.0f, 0, 6);
  run_case({5, 3}, 0b01, 0.01f, 0, 0.04f, 0, 7);                     // multiplier < 1/n
}

TEST(MeanS16, MatchesModelWithZeroPoints) {
  // TFLite Micro applies int16 zero points exactly as int8 ones.
  run_case({3, 4, 5}, 0b101, 0.02f, -32768, 0.02f, -32768, 8);
  run_case({2, 6, 3}, 0b010, 0.01f, 32767, 0.015f, -1200, 9);
  run_case({2, 6, 3}, 0b110, 0.01f, 1234, 0.007f, 4321, 10, {1000, 1500});
}

TEST(MeanS16, Int32SumWrapsPast65536Elements) {
  // 70000 elements of 32767 sum to 2,293,690,000 > 2^31: TFLite's int32 sum wraps (the
  // mean is then garbage, as on TFLite); the kernel must wrap the same way.
  run_case({1, 70000}, 0b10, 0.001f, 0, 0.001f, 0, 11, {32000, 32767});
  run_case({2, 40000, 1}, 0b010, 0.001f, 0, 0.00001f, 0, 12, {-3, 3});
}

TEST(MeanS16, EmptyReductionWritesZeros) {
  MeanS16Params p{0b10u, 3, 4, 1 << 30, 0};
  TestOp op;
  op.add_input(DType::kInt16, {3, 0});
  const uint32_t out = op.add_output(DType::kInt16, {3});
  op.set_params(p);
  ASSERT_EQ(op.check(kMeanS16Entry), Status::kOk);
  op.run(kMeanS16Entry);
  EXPECT_EQ(op.data<int16_t>(out), (std::vector<int16_t>{0, 0, 0}));
}

TEST(MeanS16Check, Rejections) {
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt16, {2, 3, 4});
  const uint32_t out = op.add_output(DType::kInt16, {2, 4});
  op.set_params(MeanS16Params{0b010u, -32768, 32767, 1 << 30, 0});
  ASSERT_EQ(op.check(kMeanS16Entry), Status::kOk);
  auto& p = op.params<MeanS16Params>();
  p.axes_mask = 0b1010;  // axis 3 of a rank-3 input
  EXPECT_EQ(op.check(kMeanS16Entry), Status::kBadParams);
  p.axes_mask = 0b001;  // kept elements 12 != 8
  EXPECT_EQ(op.check(kMeanS16Entry), Status::kBadParams);
  p.axes_mask = 0b010;
  p.shift = -32;
  EXPECT_EQ(op.check(kMeanS16Entry), Status::kBadParams);
  p.shift = 31;
  EXPECT_EQ(op.check(kMeanS16Entry), Status::kBadParams);
  p.shift = 0;
  p.output_zero_point = 32768;
  EXPECT_EQ(op.check(kMeanS16Entry), Status::kBadParams);
  p.output_zero_point = 0;
  p.input_zero_point = -32769;
  EXPECT_EQ(op.check(kMeanS16Entry), Status::kBadParams);
  p.input_zero_point = 0;
  ASSERT_EQ(op.check(kMeanS16Entry), Status::kOk);
  op.desc(in).dtype = static_cast<uint8_t>(DType::kInt8);  // int8 data is mean_s8's
  EXPECT_EQ(op.check(kMeanS16Entry), Status::kBadParams);
  op.desc(in).dtype = static_cast<uint8_t>(DType::kInt16);
  op.desc(out).dtype = static_cast<uint8_t>(DType::kFloat32);
  EXPECT_EQ(op.check(kMeanS16Entry), Status::kBadParams);
  op.desc(out).dtype = static_cast<uint8_t>(DType::kInt16);
  op.set_params_bytes(sizeof(MeanS16Params) - 4);
  EXPECT_EQ(op.check(kMeanS16Entry), Status::kBadParams);
}

}  // namespace mean_s16_test
}  // namespace mote
