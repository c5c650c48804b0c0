// int8 and 16x8 depthwise conv2d against the model of TFLite's DepthwiseConvPerChannel.
#include <gtest/gtest.h>

#include <vector>

#include "depthwise_conv2d/depthwise_conv2d.h"
#include "kernel_test_util.h"
#include "quant_test_util.h"

namespace mote {
namespace depthwise_conv2d_quant_test {

using testing::Multiplier;
using testing::TestOp;

struct Geometry {
  uint32_t n, h, w, c, m, kh, kw;
  int32_t stride_h, stride_w, dilation_h, dilation_w;
  int32_t pad_top, pad_left, pad_bottom, pad_right;
  uint32_t out_c() const { return c * m; }
  uint32_t out_h() const {
    return (h + pad_top + pad_bottom - dilation_h * (kh - 1) - 1) / stride_h + 1;
  }
  uint32_t out_w() const {
    return (w + pad_left + pad_right - dilation_w * (kw - 1) - 1) / stride_w + 1;
  }
};

template <typename In>
std::vector<int64_t> accumulate(const Geometry& g, const std::vector<In>& in,
                                const std::vector<int8_t>& filter, int32_t input_offset) {
  std::vector<int64_t> acc;
  for (uint32_t b = 0; b < g.n; ++b)
    for (uint32_t y = 0; y < g.out_h(); ++y)
      for (uint32_t x = 0; x < g.out_w(); ++x)
        for (uint32_t ic = 0; ic < g.c; ++ic)
          for (uint32_t mm = 0; mm < g.m; ++mm) {
            const uint32_t oc = ic * g.m + mm;
            int64_t sum = 0;
            for (uint32_t ky = 0; ky < g.kh; ++ky)
              for (uint32_t kx = 0; kx < g.kw; ++kx) {
                const int64_t iy = int64_t{y} * g.stride_h - g.pad_top + int64_t{ky} * g.dilation_h;
                const int64_t ix = int64_t{x} * g.stride_w - g.pad_left + int64_t{kx} * g.dilation_w;
                if (iy < 0 || iy >= g.h || ix < 0 || ix >= g.w) continue;
                const int64_t v = in[((b * g.h + iy) * g.w + ix) * g.c + ic];
                const int64_t f = filter[(ky * g.kw + kx) * g.out_c() + oc];
                sum += f * (v + input_offset);
              }
            acc.push_back(sum);
          }
  return acc;
}

struct S8Case {
  Geometry g;
  int32_t input_zp, output_zp, act_min, act_max;
  bool bias;
  int32_t shift_lo, shift_hi;
};

struct Op {
  TestOp op;
  uint32_t in, filter, bias, out;
};

void build_s8(const S8Case& cs, const std::vector<Multiplier>& m, Op* c) {
  const Geometry& g = cs.g;
  c->in = c->op.add_input(DType::kInt8, {g.n, g.h, g.w, g.c});
  c->filter = c->op.add_input(DType::kInt8, {1, g.kh, g.kw, g.out_c()});
  c->bias = cs.bias ? c->op.add_input(DType::kInt32, {g.out_c()}) : kNoTensor;
  c->out = c->op.add_output(DType::kInt8, {g.n, g.out_h(), g.out_w(), g.out_c()});
  c->op.set_raw_params(testing::params_bytes(
      DepthwiseConv2dS8Params{g.stride_h, g.stride_w, g.dilation_h, g.dilation_w, g.pad_top,
                              g.pad_left, g.pad_bottom, g.pad_right, static_cast<int32_t>(g.m),
                              cs.input_zp, cs.output_zp, cs.act_min, cs.act_max},
      m));
}

void run_s8_case(const S8Case& cs, uint32_t seed) {
  const Geometry& g = cs.g;
  const auto m = testing::random_multipliers(g.out_c(), seed, cs.shift_lo, cs.shift_hi);
  Op c;
  build_s8(cs, m, &c);
  const auto in = testing::random_full_range<int8_t>(size_t{g.n} * g.h * g.w * g.c, seed + 1);
  const auto filter = testing::random_full_range<int8_t>(size_t{g.kh} * g.kw * g.out_c(), seed + 2);
  const auto bias = testing::random_ints<int32_t>(g.out_c(), seed + 3, -20000, 20000);
  c.op.set_data(c.in, in);
  c.op.set_data(c.filter, filter);
  if (cs.bias) c.op.set_data(c.bias, bias);
  ASSERT_EQ(c.op.check(kDepthwiseConv2dS8Entry), Status::kOk);
  c.op.run(kDepthwiseConv2dS8Entry);
  const auto acc = accumulate(g, in, filter, -cs.input_zp);
  const auto out = c.op.data<int8_t>(c.out);
  ASSERT_EQ(out.size(), acc.size());
  int unsaturated = 0;
  for (size_t i = 0; i < acc.size(); ++i) {
    const uint32_t o = i % g.out_c();
    const int32_t a = testing::wrap32(acc[i] + (cs.bias ? bias[o] : 0));
    const int64_t v = int64_t{testing::ref_mbqm(a, m[o].multiplier, m[o].shift)} + cs.output_zp;
    const int32_t expected = testing::ref_clamp(v, cs.act_min, cs.act_max);
    ASSERT_EQ(out[i], expected) << "element " << i;
    unsaturated += expected != cs.act_min && expected != cs.act_max;
  }
  EXPECT_GT(unsaturated, 0);
}

TEST(DepthwiseConv2dS8, HandComputed) {
  // Two channels, depth multiplier 1, 2x2 image, 1x1 filter [2, -1], multiplier 1.0
  // (2^30, shift 1), input zp 1, output zp 0: channel 0 doubles (x - 1), channel 1 negates.
  S8Case cs{{1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0}, 1, 0, -128, 127, false, 0, 0};
  Op c;
  build_s8(cs, {{1 << 30, 1}, {1 << 30, 1}}, &c);
  c.op.set_data(c.in, std::vector<int8_t>{1, 1, 2, 2, 3, 3, 100, -128});
  c.op.set_data(c.filter, std::vector<int8_t>{2, -1});
  ASSERT_EQ(c.op.check(kDepthwiseConv2dS8Entry), Status::kOk);
  c.op.run(kDepthwiseConv2dS8Entry);
  EXPECT_EQ(c.op.data<int8_t>(c.out), (std::vector<int8_t>{0, 0, 2, -1, 4, -2, 127, 127}));
}

TEST(DepthwiseConv2dS8, MatchesModel) {
  run_s8_case({{1, 7, 9, 3, 1, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, -128, 127, -128, 127, true, -10, -6}, 10);
  run_s8_case({{2, 6, 5, 2, 3, 3, 2, 2, 1, 1, 2, 1, 0, 1, 1}, 127, -128, -128, 127, true, -10, -6}, 20);
  run_s8_case({{1, 49, 10, 4, 1, 10, 8, 2, 2, 1, 1, 4, 3, 5, 4}, 83, -20, -20, 127, true, -12, -8},
              30);  // micro_speech-like geometry, ReLU
  run_s8_case({{1, 11, 4, 5, 2, 5, 2, 3, 1, 2, 3, 2, 0, 3, 3}, -3, 9, -50, 50, false, -9, -3}, 40);
  run_s8_case({{1, 3, 3, 2, 1, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, 0, 0, -128, 127, true, -3, 4}, 50);
}

TEST(DepthwiseConv2dS8Check, Rejections) {
  S8Case cs{{1, 5, 5, 3, 2, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, 0, 0, -128, 127, true, -8, -6};
  Op c;
  build_s8(cs, testing::random_multipliers(6, 1, -8, -6), &c);
  ASSERT_EQ(c.op.check(kDepthwiseConv2dS8Entry), Status::kOk);
  auto& p = c.op.params<DepthwiseConv2dS8Params>();
  p.depth_multiplier = 3;
  EXPECT_EQ(c.op.check(kDepthwiseConv2dS8Entry), Status::kBadParams);
  p.depth_multiplier = 2;
  testing::params_array_of<DepthwiseConv2dS8Params>(c.op, 1, 6)[5] = 31;
  EXPECT_EQ(c.op.check(kDepthwiseConv2dS8Entry), Status::kBadParams);
  testing::params_array_of<DepthwiseConv2dS8Params>(c.op, 1, 6)[5] = -7;
  p.input_zero_point = 200;
  EXPECT_EQ(c.op.check(kDepthwiseConv2dS8Entry), Status::kBadParams);
  p.input_zero_point = 0;
  c.op.set_params_bytes(sizeof(DepthwiseConv2dS8Params) + 6 * 8 + 4);
  EXPECT_EQ(c.op.check(kDepthwiseConv2dS8Entry), Status::kBadParams);
  c.op.set_params_bytes(sizeof(DepthwiseConv2dS8Params) + 6 * 8);
  EXPECT_EQ(c.op.check(kDepthwiseConv2dS8Entry), Status::kOk);
  c.op.desc(c.filter).dims[0] = 2;
  EXPECT_EQ(c.op.check(kDepthwiseConv2dS8Entry), Status::kBadParams);
  c.op.desc(c.filter).dims[0] = 1;
  c.op.desc(c.bias).dtype = static_cast<uint8_t>(DType::kInt64);
  EXPECT_EQ(c.op.check(kDepthwiseConv2dS8Entry), Status::kBadParams);
}

TEST(DepthwiseConv2dS16, MatchesModel) {
  const Geometry geometries[] = {{1, 6, 7, 3, 2, 3, 3, 1, 2, 1, 1, 1, 1, 1, 1},
                                 {2, 5, 4, 4, 1, 2, 3, 2, 1, 2, 1, 1, 2, 0, 1}};
  uint32_t seed = 60;
  for (const Geometry& g : geometries) {
    const auto m = testing::random_multipliers(g.out_c(), seed, -18, -10);
    TestOp op;
    const uint32_t in_t = op.add_input(DType::kInt16, {g.n, g.h, g.w, g.c});
    const uint32_t filter_t = op.add_input(DType::kInt8, {1, g.kh, g.kw, g.out_c()});
    const uint32_t bias_t = op.add_input(DType::kInt64, {g.out_c()});
    const uint32_t out_t = op.add_output(DType::kInt16, {g.n, g.out_h(), g.out_w(), g.out_c()});
    op.set_raw_params(testing::params_bytes(
        DepthwiseConv2dS16Params{g.stride_h, g.stride_w, g.dilation_h, g.dilation_w, g.pad_top,
                                 g.pad_left, g.pad_bottom, g.pad_right, static_cast<int32_t>(g.m),
                                 -30000, 30000},
        m));
    const auto in = testing::random_full_range<int16_t>(size_t{g.n} * g.h * g.w * g.c, seed + 1);
    const auto filter = testing::random_full_range<int8_t>(size_t{g.kh} * g.kw * g.out_c(), seed + 2);
    const auto bias = testing::random_ints<int64_t>(g.out_c(), seed + 3, -(1 << 26), 1 << 26);
    op.set_data(in_t, in);
    op.set_data(filter_t, filter);
    op.set_data(bias_t, bias);
    ASSERT_EQ(op.check(kDepthwiseConv2dS16Entry), Status::kOk);
    op.run(kDepthwiseConv2dS16Entry);
    const auto acc = accumulate(g, in, filter, 0);
    const auto out = op.data<int16_t>(out_t);
    for (size_t i = 0; i < acc.size(); ++i) {
      const uint32_t o = i % g.out_c();
      const int32_t v = testing::ref_mbqm64(acc[i] + bias[o], m[o].multiplier, m[o].shift);
      ASSERT_EQ(out[i], testing::ref_clamp(v, -30000, 30000)) << i;
    }
    // Wrong bias dtype and shift past the int64 variant's limit are refused.
    testing::params_array_of<DepthwiseConv2dS16Params>(op, 1, g.out_c())[0] = 15;
    EXPECT_EQ(op.check(kDepthwiseConv2dS16Entry), Status::kBadParams);
    testing::params_array_of<DepthwiseConv2dS16Params>(op, 1, g.out_c())[0] = 0;
    op.desc(bias_t).dtype = static_cast<uint8_t>(DType::kInt32);
    EXPECT_EQ(op.check(kDepthwiseConv2dS16Entry), Status::kBadParams);
    seed += 10;
  }
}

}  // namespace depthwise_conv2d_quant_test
}  // namespace mote
