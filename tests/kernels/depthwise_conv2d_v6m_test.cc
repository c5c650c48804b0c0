// The ARMv6-M int8 depthwise convolution (depthwise_conv2d_s8__v6m, depth multiplier 1)
// against the reference depthwise_conv2d_s8, bit for bit, on seeded random cases (kernels
// 1x1..5x5, strides 1-3, dilation 1-3, asymmetric padding, batch 1-2, odd and even channel
// counts, zero points, clamps, absent bias, per-channel multipliers with shifts both ways,
// INT32_MIN/MAX multipliers, wrapping biases) and on the MLPerf Tiny layer shapes.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "depthwise_conv2d/depthwise_conv2d.h"
#include "quant/quant_math.h"

namespace mote {
namespace depthwise_conv2d_v6m_test {

struct Case {
  DepthwiseConv2dS8Params p{};
  DepthwiseConv2dShape s{};
  bool has_bias = true;
  bool extreme = false;
};

int32_t uni(std::mt19937& rng, int32_t lo, int32_t hi) {
  return std::uniform_int_distribution<int32_t>(lo, hi)(rng);
}

void check_case(std::mt19937& rng, Case c, int index) {
  DepthwiseConv2dShape& s = c.s;
  DepthwiseConv2dS8Params& p = c.p;
  p.depth_multiplier = 1;
  s.out_c = s.in_c;
  s.out_h = (s.in_h + p.window.pad_top + p.window.pad_bottom - p.window.dilation_h * (s.kernel_h - 1) - 1) / p.window.stride_h + 1;
  s.out_w = (s.in_w + p.window.pad_left + p.window.pad_right - p.window.dilation_w * (s.kernel_w - 1) - 1) / p.window.stride_w + 1;
  ASSERT_GE(s.out_h, 1);
  ASSERT_GE(s.out_w, 1);
  std::vector<int8_t> input(size_t(s.batch) * s.in_h * s.in_w * s.in_c);
  std::vector<int8_t> filter(size_t(s.kernel_h) * s.kernel_w * s.out_c);
  for (int8_t& v : input) v = static_cast<int8_t>(uni(rng, -128, 127));
  for (int8_t& v : filter) v = static_cast<int8_t>(uni(rng, -128, 127));
  std::vector<int32_t> bias(s.out_c), multipliers(s.out_c), shifts(s.out_c);
  for (int32_t o = 0; o < s.out_c; ++o) {
    bias[o] = c.extreme ? static_cast<int32_t>(rng()) : uni(rng, -20000, 20000);
    const bool wild = c.extreme && uni(rng, 0, 1) == 1;
    multipliers[o] = wild ? (uni(rng, 0, 3) == 0 ? INT32_MIN : static_cast<int32_t>(rng()))
                          : uni(rng, 1 << 30, INT32_MAX);
    shifts[o] = wild ? uni(rng, kMinShift, kMaxShift) : uni(rng, -10, 3);
  }
  const size_t out_count = size_t(s.batch) * s.out_h * s.out_w * s.out_c;
  std::vector<int8_t> expected(out_count), actual(out_count, 0x5A);
  const int32_t* b = c.has_bias ? bias.data() : nullptr;
  depthwise_conv2d_s8(p, multipliers.data(), shifts.data(), s, input.data(), filter.data(), b,
                      expected.data());
  std::vector<int32_t> scratch(depthwise_conv2d_s8__v6m_scratch_bytes(p, s) / 4 + 1);
  depthwise_conv2d_s8__v6m(p, multipliers.data(), shifts.data(), nullptr, s, input.data(), filter.data(),
                           b, actual.data(), scratch.data());
  for (size_t i = 0; i < out_count; ++i) {
    ASSERT_EQ(actual[i], expected[i])
        << "case " << index << " element " << i << ": " << s.in_h << "x" << s.in_w << "x"
        << s.in_c << " k" << s.kernel_h << "x" << s.kernel_w << " stride " << p.window.stride_h << ","
        << p.window.stride_w << " dil " << p.window.dilation_h << "," << p.window.dilation_w;
  }
}

TEST(DepthwiseConv2dS8V6m, MatchesReferenceOnRandomCases) {
  std::mt19937 rng(0x76360d01u);
  for (int i = 0; i < 2000; ++i) {
    Case c;
    DepthwiseConv2dShape& s = c.s;
    DepthwiseConv2dS8Params& p = c.p;
    s.batch = uni(rng, 0, 3) == 0 ? 2 : 1;
    s.in_c = uni(rng, 0, 1) ? uni(rng, 1, 5) : uni(rng, 1, 40);
    s.kernel_h = uni(rng, 1, 5);
    s.kernel_w = uni(rng, 1, 5);
    p.window.stride_h = uni(rng, 1, 3);
    p.window.stride_w = uni(rng, 1, 3);
    p.window.dilation_h = uni(rng, 0, 3) == 0 ? uni(rng, 2, 3) : 1;
    p.window.dilation_w = uni(rng, 0, 3) == 0 ? uni(rng, 2, 3) : 1;
    const int32_t eff_h = p.window.dilation_h * (s.kernel_h - 1) + 1;
    const int32_t eff_w = p.window.dilation_w * (s.kernel_w - 1) + 1;
    p.window.pad_top = uni(rng, 0, eff_h - 1);
    p.window.pad_bottom = uni(rng, 0, eff_h - 1);
    p.window.pad_left = uni(rng, 0, eff_w - 1);
    p.window.pad_right = uni(rng, 0, eff_w - 1);
    const int32_t min_h = eff_h - p.window.pad_top - p.window.pad_bottom;
    const int32_t min_w = eff_w - p.window.pad_left - p.window.pad_right;
    s.in_h = (min_h > 1 ? min_h : 1) + uni(rng, 0, 7);
    s.in_w = (min_w > 1 ? min_w : 1) + uni(rng, 0, 7);
    p.input_zero_point = uni(rng, 0, 3) == 0 ? 0 : uni(rng, -128, 127);
    p.output_zero_point = uni(rng, -128, 127);
    p.act_min = uni(rng, 0, 1) ? -128 : uni(rng, -128, 127);
    p.act_max = uni(rng, 0, 1) ? 127 : uni(rng, p.act_min, 127);
    c.has_bias = uni(rng, 0, 4) != 0;
    c.extreme = uni(rng, 0, 3) == 0;
    check_case(rng, c, i);
  }
}

// vww 3x3 stride 1 and 2 with SAME padding, kws 3x3 on 25x5x64, a window larger than the
// image, a 1x1 image.
TEST(DepthwiseConv2dS8V6m, MatchesReferenceOnModelAndEdgeShapes) {
  std::mt19937 rng(0x76360d02u);
  struct Layer {
    int32_t b, h, w, c, kh, kw, stride, pad_t, pad_l, pad_b, pad_r;
  };
  const Layer layers[] = {{1, 48, 48, 8, 3, 3, 1, 1, 1, 1, 1},   {1, 24, 24, 32, 3, 3, 2, 0, 0, 1, 1},
                          {1, 25, 5, 64, 3, 3, 1, 1, 1, 1, 1},   {2, 3, 2, 5, 5, 5, 1, 2, 2, 2, 3},
                          {1, 1, 1, 7, 3, 3, 1, 1, 1, 1, 1},     {1, 6, 6, 128, 3, 3, 1, 1, 1, 1, 1}};
  int index = 0;
  for (const Layer& l : layers) {
    Case c;
    c.s = {l.b, l.h, l.w, l.c, 0, 0, 0, l.kh, l.kw};
    c.p = {l.stride, l.stride, 1, 1, l.pad_t, l.pad_l, l.pad_b, l.pad_r, 1, -128, 3, -128, 127};
    c.extreme = index == 3;
    check_case(rng, c, index++);
  }
}

}  // namespace depthwise_conv2d_v6m_test
}  // namespace mote
