// float32 and int8 transposed convolution against models of TFLite's scatter formulation
// (reference_ops::TransposeConv, reference_integer_ops::TransposeConv): the kernels gather,
// and must agree bit for bit, the float sums included (same terms, same order).
#include "transpose_conv/transpose_conv.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "kernel_test_util.h"
#include "quant_test_util.h"

namespace mote {
namespace transpose_conv_test {

using testing::TestOp;

struct Case {
  uint32_t n, h, w, c, o, kh, kw, out_h, out_w;
  int32_t stride_h, stride_w, pad_top, pad_left;
  bool bias;
  int32_t dilation_h = 1, dilation_w = 1, groups = 1;  // ONNX ConvTranspose's extras
};

// TFLite's scatter: acc[output element] += term(input index, filter index), visiting the
// input in order (batch, row, column, channel), then the taps, then the output channels;
// with ONNX's dilations and groups (filter [O, KH, KW, C/groups]) as the ONNX spec
// scatters.
template <typename Acc, typename Term>
std::vector<Acc> scatter(const Case& cs, Term term) {
  std::vector<Acc> acc(testing::product({cs.n, cs.out_h, cs.out_w, cs.o}), Acc{0});
  for (uint32_t b = 0; b < cs.n; ++b)
    for (uint32_t iy = 0; iy < cs.h; ++iy)
      for (uint32_t ix = 0; ix < cs.w; ++ix)
        for (uint32_t ic = 0; ic < cs.c; ++ic)
          for (uint32_t ky = 0; ky < cs.kh; ++ky)
            for (uint32_t kx = 0; kx < cs.kw; ++kx)
              for (uint32_t oc = 0; oc < cs.o; ++oc) {
                const uint32_t group_c = cs.c / cs.groups, group = ic / group_c;
                if (oc / (cs.o / cs.groups) != group) continue;
                const int64_t oy = int64_t{iy} * cs.stride_h - cs.pad_top + int64_t{ky} * cs.dilation_h;
                const int64_t ox = int64_t{ix} * cs.stride_w - cs.pad_left + int64_t{kx} * cs.dilation_w;
                if (oy < 0 || oy >= cs.out_h || ox < 0 || ox >= cs.out_w) continue;
                Acc& a = acc[((b * cs.out_h + oy) * cs.out_w + ox) * cs.o + oc];
                a = term(a, ((b * cs.h + iy) * cs.w + ix) * cs.c + ic,
                         ((oc * cs.kh + ky) * cs.kw + kx) * group_c + ic % group_c);
              }
  return acc;
}

const Case kCases[] = {
    {1, 3, 4, 3, 4, 3, 3, 6, 8, 2, 2, 1, 1, true},
    {2, 3, 4, 3, 5, 3, 3, 6, 8, 2, 2, 0, 0, false},
    {1, 4, 3, 2, 3, 2, 5, 9, 7, 3, 2, 1, 2, true},
    {1, 2, 2, 1, 1, 4, 4, 5, 5, 3, 3, 2, 2, false},   // stride < kernel
    {1, 2, 2, 3, 2, 2, 2, 9, 9, 4, 4, 0, 0, true},    // stride > kernel: outputs no tap reaches
    {1, 1, 5, 16, 8, 3, 4, 3, 12, 1, 2, 0, 0, true},  // SeaNet-like 1-row geometry
    // ONNX ConvTranspose: dilations, groups, negative pads (output_shape), output_padding.
    {1, 3, 4, 4, 6, 3, 2, 10, 11, 2, 3, 1, 0, true, 2, 3, 2},
    {1, 1, 7, 4, 4, 1, 3, 1, 17, 1, 2, 0, 1, false, 1, 2, 4},  // 1-D, depthwise-like
    {2, 3, 3, 2, 4, 2, 2, 9, 8, 3, 2, -1, -2, true, 1, 1, 2},  // outputs before the first tap
    {1, 2, 3, 6, 3, 3, 3, 8, 9, 2, 2, 0, 1, true, 2, 1, 3},    // trailing output_padding row
};

void add_tensors(TestOp* op, const Case& cs, DType act, DType bias_dtype, uint32_t* in_t, uint32_t* filter_t,
                 uint32_t* bias_t, uint32_t* out_t) {
  *in_t = op->add_input(act, {cs.n, cs.h, cs.w, cs.c});
  *filter_t = op->add_input(act == DType::kFloat32 ? DType::kFloat32 : DType::kInt8,
                            {cs.o, cs.kh, cs.kw, cs.c / static_cast<uint32_t>(cs.groups)});
  *bias_t = cs.bias ? op->add_input(bias_dtype, {cs.o}) : kNoTensor;
  *out_t = op->add_output(act, {cs.n, cs.out_h, cs.out_w, cs.o});
}

void run_f32(const Case& cs, uint32_t seed, float act_min, float act_max) {
  TestOp op;
  uint32_t in_t, filter_t, bias_t, out_t;
  add_tensors(&op, cs, DType::kFloat32, DType::kFloat32, &in_t, &filter_t, &bias_t, &out_t);
  op.set_params(TransposeConvF32Params{cs.stride_h, cs.stride_w, cs.pad_top, cs.pad_left, act_min, act_max,
                                       cs.dilation_h, cs.dilation_w, cs.groups});
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-2.0f, 2.0f);
  const uint32_t group_c = cs.c / static_cast<uint32_t>(cs.groups);
  std::vector<float> in(testing::product({cs.n, cs.h, cs.w, cs.c})), filter(testing::product({cs.o, cs.kh, cs.kw, group_c})),
      bias(cs.o);
  for (float& v : in) v = dist(rng);
  for (float& v : filter) v = dist(rng);
  for (float& v : bias) v = dist(rng);
  op.set_data(in_t, in);
  op.set_data(filter_t, filter);
  if (cs.bias) op.set_data(bias_t, bias);
  ASSERT_EQ(op.check(kTransposeConvF32Entry), Status::kOk);
  op.run(kTransposeConvF32Entry);

  const std::vector<float> acc = scatter<float>(cs, [&](float a, size_t i, size_t f) { return a + in[i] * filter[f]; });
  const auto out = op.data<float>(out_t);
  ASSERT_EQ(out.size(), acc.size());
  for (size_t i = 0; i < out.size(); ++i) {
    float v = acc[i];
    if (cs.bias) v += bias[i % cs.o];
    const float expected = std::min(std::max(v, act_min), act_max);  // ActivationFunctionWithMinMax
    uint32_t got_bits, expected_bits;
    std::memcpy(&got_bits, &out[i], 4);
    std::memcpy(&expected_bits, &expected, 4);
    ASSERT_EQ(got_bits, expected_bits) << i << ": " << out[i] << " vs " << expected;
  }
}

TEST(TransposeConvF32, MatchesScatterBitForBit) {
  uint32_t seed = 1;
  for (const Case& cs : kCases) {
    run_f32(cs, seed++, -INFINITY, INFINITY);
    run_f32(cs, seed++, 0.0f, 6.0f);
  }
}

TEST(TransposeConvF32, NanAndInfinityPropagate) {
  // 1x2 input, 1x3 filter, stride 2, pad 1, output width 4: input 0 reaches x = 0, 1;
  // input 1 reaches x = 1, 2, 3.
  TestOp op;
  const uint32_t in = op.add_input(DType::kFloat32, {1, 1, 2, 1});
  const uint32_t filter = op.add_input(DType::kFloat32, {1, 1, 3, 1});
  const uint32_t out = op.add_output(DType::kFloat32, {1, 1, 4, 1});
  op.set_params(TransposeConvF32Params{1, 2, 0, 1, -INFINITY, INFINITY});
  op.set_data(in, std::vector<float>{NAN, INFINITY});
  op.set_data(filter, std::vector<float>{1.0f, 2.0f, 3.0f});
  ASSERT_EQ(op.check(kTransposeConvF32Entry), Status::kOk);
  op.run(kTransposeConvF32Entry);
  const auto y = op.data<float>(out);
  EXPECT_TRUE(std::isnan(y[0]));
  EXPECT_TRUE(std::isnan(y[1]));
  EXPECT_EQ(y[2], INFINITY);
  EXPECT_EQ(y[3], INFINITY);
}

void run_s8(const Case& cs, uint32_t seed, int32_t shift_lo, int32_t shift_hi, int32_t act_min, int32_t act_max,
            int32_t bias_range, std::vector<int32_t> bias_override = {}) {
  const auto m = testing::random_multipliers(cs.o, seed, shift_lo, shift_hi);
  const int32_t in_zp = static_cast<int32_t>(seed % 50) - 25, out_zp = 10 - static_cast<int32_t>(seed % 20);
  TestOp op;
  uint32_t in_t, filter_t, bias_t, out_t;
  add_tensors(&op, cs, DType::kInt8, DType::kInt32, &in_t, &filter_t, &bias_t, &out_t);
  op.set_raw_params(testing::params_bytes(
      TransposeConvS8Params{cs.stride_h, cs.stride_w, cs.pad_top, cs.pad_left, in_zp, out_zp, act_min, act_max,
                                  cs.dilation_h, cs.dilation_w, cs.groups}, m));
  const auto in = testing::random_full_range<int8_t>(testing::product({cs.n, cs.h, cs.w, cs.c}), seed + 1);
  const uint32_t group_c = cs.c / static_cast<uint32_t>(cs.groups);
  const auto filter = testing::random_full_range<int8_t>(testing::product({cs.o, cs.kh, cs.kw, group_c}), seed + 2);
  const auto bias = bias_override.empty() ? testing::random_ints<int32_t>(cs.o, seed + 3, -bias_range, bias_range)
                                          : bias_override;
  op.set_data(in_t, in);
  op.set_data(filter_t, filter);
  if (cs.bias) op.set_data(bias_t, bias);
  ASSERT_EQ(op.check(kTransposeConvS8Entry), Status::kOk);
  op.run(kTransposeConvS8Entry);

  // TFLite: int32 scratch (wrapping here: the sums in these cases fit, except where a bias
  // near INT32_MAX is meant to wrap, which the kernel does as two's complement).
  const std::vector<int32_t> acc = scatter<int32_t>(cs, [&](int32_t a, size_t i, size_t f) {
    return testing::wrap32(static_cast<testing::i128>(a) + (in[i] - in_zp) * filter[f]);
  });
  const auto out = op.data<int8_t>(out_t);
  ASSERT_EQ(out.size(), acc.size());
  int unsaturated = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    const uint32_t oc = i % cs.o;
    const int32_t sum = testing::wrap32(static_cast<testing::i128>(acc[i]) + (cs.bias ? bias[oc] : 0));
    const int32_t v = testing::ref_mbqm(sum, m[oc].multiplier, m[oc].shift);
    const int32_t expected = testing::ref_clamp(int64_t{v} + out_zp, act_min, act_max);
    ASSERT_EQ(out[i], expected) << i;
    unsaturated += expected != act_min && expected != act_max;
  }
  EXPECT_GT(unsaturated, 0);
}

TEST(TransposeConvS8, MatchesScatterModel) {
  uint32_t seed = 10;
  for (const Case& cs : kCases) {
    run_s8(cs, seed++, -18, -10, -128, 127, 20000);
    run_s8(cs, seed++, -16, -8, -20, 90, 5000);  // a fused activation's range
  }
}

TEST(TransposeConvS8, BiasWrapsLikeInt32) {
  // Biases at the int32 ends: sums of either sign wrap as two's complement, in any order
  // (scaled down by 2^-25 so the wrapped results are not all saturated).
  const Case cs = {1, 2, 3, 4, 3, 3, 3, 4, 6, 2, 2, 1, 1, true};
  run_s8(cs, 40, -25, -25, -128, 127, 0, {INT32_MAX - 1000, INT32_MIN + 1000, INT32_MAX});
}

TEST(TransposeConvS8, HandComputed) {
  // 1x2 input [3, 5] with zero point 1 -> [2, 4], 1x3 filter [1, 2, 3], stride 2, pad 1,
  // output width 4: x0 = 2*2 = 4; x1 = 2*3 + 4*1 = 10; x2 = 4*2 = 8; x3 = 4*3 = 12; bias 1;
  // times 1/2 (multiplier 2^30, shift 0), rounded half away from zero; output zero point -3.
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt8, {1, 1, 2, 1});
  const uint32_t filter = op.add_input(DType::kInt8, {1, 1, 3, 1});
  const uint32_t bias = op.add_input(DType::kInt32, {1});
  const uint32_t out = op.add_output(DType::kInt8, {1, 1, 4, 1});
  op.set_raw_params(testing::params_bytes(TransposeConvS8Params{1, 2, 0, 1, 1, -3, -128, 127}, {{1 << 30, 0}}));
  op.set_data(in, std::vector<int8_t>{3, 5});
  op.set_data(filter, std::vector<int8_t>{1, 2, 3});
  op.set_data(bias, std::vector<int32_t>{1});
  ASSERT_EQ(op.check(kTransposeConvS8Entry), Status::kOk);
  op.run(kTransposeConvS8Entry);
  EXPECT_EQ(op.data<int8_t>(out), (std::vector<int8_t>{0, 3, 2, 4}));
}

TEST(TransposeConvCheck, Rejections) {
  TestOp op;
  op.add_input(DType::kInt8, {1, 2, 2, 3});
  const uint32_t filter = op.add_input(DType::kInt8, {4, 3, 3, 3});
  const uint32_t bias = op.add_input(DType::kInt32, {4});
  const uint32_t out = op.add_output(DType::kInt8, {1, 4, 4, 4});
  op.set_raw_params(testing::params_bytes(TransposeConvS8Params{2, 2, 1, 1, 0, 0, -128, 127},
                                          testing::random_multipliers(4, 1, -20, -10)));
  ASSERT_EQ(op.check(kTransposeConvS8Entry), Status::kOk);
  auto& p = op.params<TransposeConvS8Params>();
  p.stride_h = 0;
  EXPECT_EQ(op.check(kTransposeConvS8Entry), Status::kBadParams);
  p.stride_h = 2;
  p.pad_left = -(1 << 30);
  EXPECT_EQ(op.check(kTransposeConvS8Entry), Status::kBadParams);
  p.pad_left = -1;  // negative pads are ONNX output_shape's
  EXPECT_EQ(op.check(kTransposeConvS8Entry), Status::kOk);
  p.pad_left = INT32_MAX - 2;
  EXPECT_EQ(op.check(kTransposeConvS8Entry), Status::kBadParams);
  p.pad_left = 1;
  p.input_zero_point = 128;
  EXPECT_EQ(op.check(kTransposeConvS8Entry), Status::kBadParams);
  p.input_zero_point = 0;
  p.act_min = 100;
  p.act_max = 99;
  EXPECT_EQ(op.check(kTransposeConvS8Entry), Status::kBadParams);
  p.act_min = -128;
  p.act_max = 127;
  testing::params_array_of<TransposeConvS8Params>(op, 1, 4)[2] = 31;
  EXPECT_EQ(op.check(kTransposeConvS8Entry), Status::kBadParams);
  testing::params_array_of<TransposeConvS8Params>(op, 1, 4)[2] = -10;
  ASSERT_EQ(op.check(kTransposeConvS8Entry), Status::kOk);
  op.desc(filter).dims[3] = 2;
  EXPECT_EQ(op.check(kTransposeConvS8Entry), Status::kBadParams);
  op.desc(filter).dims[3] = 3;
  op.desc(out).dims[0] = 2;
  EXPECT_EQ(op.check(kTransposeConvS8Entry), Status::kBadParams);
  op.desc(out).dims[0] = 1;
  op.desc(bias).dtype = static_cast<uint8_t>(DType::kInt64);
  EXPECT_EQ(op.check(kTransposeConvS8Entry), Status::kBadParams);
  op.desc(bias).dtype = static_cast<uint8_t>(DType::kInt32);
  op.desc(bias).dims[0] = 3;
  EXPECT_EQ(op.check(kTransposeConvS8Entry), Status::kBadParams);
  op.desc(bias).dims[0] = 4;
  // The float kernel takes neither these tensors nor these params.
  EXPECT_EQ(op.check(kTransposeConvF32Entry), Status::kBadParams);
  ASSERT_EQ(op.check(kTransposeConvS8Entry), Status::kOk);
}

TEST(TransposeConvF32Check, Rejections) {
  TestOp op;
  op.add_input(DType::kFloat32, {1, 2, 2, 3});
  op.add_input(DType::kFloat32, {4, 3, 3, 3});
  const uint32_t bias = op.add_input(DType::kFloat32, {4});
  op.add_output(DType::kFloat32, {1, 4, 4, 4});
  op.set_params(TransposeConvF32Params{2, 2, 1, 1, 0.0f, 6.0f});
  ASSERT_EQ(op.check(kTransposeConvF32Entry), Status::kOk);
  auto& p = op.params<TransposeConvF32Params>();
  p.act_min = 7.0f;
  EXPECT_EQ(op.check(kTransposeConvF32Entry), Status::kBadParams);
  p.act_min = 0.0f;
  p.stride_w = -1;
  EXPECT_EQ(op.check(kTransposeConvF32Entry), Status::kBadParams);
  p.stride_w = 2;
  p.dilation_h = 0;
  EXPECT_EQ(op.check(kTransposeConvF32Entry), Status::kBadParams);
  p.dilation_h = 1;
  p.groups = 2;  // 3 input channels
  EXPECT_EQ(op.check(kTransposeConvF32Entry), Status::kBadParams);
  p.groups = 0;
  EXPECT_EQ(op.check(kTransposeConvF32Entry), Status::kBadParams);
  p.groups = 1;
  op.desc(bias).dtype = static_cast<uint8_t>(DType::kInt32);
  EXPECT_EQ(op.check(kTransposeConvF32Entry), Status::kBadParams);
  op.desc(bias).dtype = static_cast<uint8_t>(DType::kFloat32);
  EXPECT_EQ(op.check(kTransposeConvS8Entry), Status::kBadParams);
  EXPECT_EQ(op.check(kTransposeConvF32Entry), Status::kOk);
}

}  // namespace transpose_conv_test
}  // namespace mote
