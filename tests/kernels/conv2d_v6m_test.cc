// The ARMv6-M int8 convolution (conv2d_s8__v6m) against the reference conv2d_s8, bit for
// bit, on seeded random cases (kernels 1x1..5x4, strides 1-3, dilation 1-3, asymmetric
// and window-sized padding, batch 1-2, channel counts around the 4-channel blocks, input
// and output zero points, clamps, absent bias, per-channel multipliers with shifts both
// ways, INT32_MIN/MAX multipliers and wrapping biases) and on MLPerf-like layer shapes.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <utility>
#include <vector>

#include "conv2d/conv2d.h"
#include "depthwise_conv2d/depthwise_conv2d.h"
#include "kernel_test_util.h"
#include "quant/quant_math.h"

namespace mote {
namespace conv2d_v6m_test {

using testing::TestOp;

struct Case {
  Conv2dS8Params p{};
  Conv2dShape s{};
  bool has_bias = true;
  bool extreme = false;
};

int32_t uni(std::mt19937& rng, int32_t lo, int32_t hi) {
  return std::uniform_int_distribution<int32_t>(lo, hi)(rng);
}

// Runs both kernels on random data for c (output extent filled in here) and compares.
void check_case(std::mt19937& rng, Case c, int index) {
  Conv2dShape& s = c.s;
  Conv2dS8Params& p = c.p;
  p.groups = 1;
  s.out_h = (s.in_h + p.window.pad_top + p.window.pad_bottom - p.window.dilation_h * (s.kernel_h - 1) - 1) / p.window.stride_h + 1;
  s.out_w = (s.in_w + p.window.pad_left + p.window.pad_right - p.window.dilation_w * (s.kernel_w - 1) - 1) / p.window.stride_w + 1;
  ASSERT_GE(s.out_h, 1);
  ASSERT_GE(s.out_w, 1);
  std::vector<int8_t> input(size_t(s.batch) * s.in_h * s.in_w * s.in_c);
  std::vector<int8_t> filter(size_t(s.out_c) * s.kernel_h * s.kernel_w * s.in_c);
  for (int8_t& v : input) v = static_cast<int8_t>(uni(rng, -128, 127));
  for (int8_t& v : filter) v = static_cast<int8_t>(uni(rng, -128, 127));
  std::vector<int32_t> bias(s.out_c), multipliers(s.out_c), shifts(s.out_c);
  for (int32_t o = 0; o < s.out_c; ++o) {
    bias[o] = c.extreme ? static_cast<int32_t>(rng()) : uni(rng, -50000, 50000);
    const bool wild = c.extreme && uni(rng, 0, 1) == 1;
    multipliers[o] = wild ? (uni(rng, 0, 3) == 0 ? INT32_MIN : static_cast<int32_t>(rng()))
                          : uni(rng, 1 << 30, INT32_MAX);
    shifts[o] = wild ? uni(rng, kMinShift, kMaxShift) : uni(rng, -12, 2);
  }
  const size_t out_count = size_t(s.batch) * s.out_h * s.out_w * s.out_c;
  std::vector<int8_t> expected(out_count), actual(out_count, 0x5A);
  const int32_t* b = c.has_bias ? bias.data() : nullptr;
  conv2d_s8(p, multipliers.data(), shifts.data(), s, input.data(), filter.data(), b,
            expected.data());
  std::vector<int32_t> scratch(conv2d_s8__v6m_scratch_bytes(p, s.kernel_h, s.kernel_w, s.in_c, s.out_c) / 4 + 1);
  conv2d_s8__v6m(p, multipliers.data(), shifts.data(), nullptr, nullptr, s, input.data(), filter.data(), b,
                 actual.data(), scratch.data());
  for (size_t i = 0; i < out_count; ++i) {
    ASSERT_EQ(actual[i], expected[i])
        << "case " << index << " element " << i << ": " << s.in_h << "x" << s.in_w << "x"
        << s.in_c << " k" << s.kernel_h << "x" << s.kernel_w << " oc" << s.out_c << " stride "
        << p.window.stride_h << "," << p.window.stride_w << " dil " << p.window.dilation_h << "," << p.window.dilation_w;
  }
}

Case random_case(std::mt19937& rng) {
  Case c;
  Conv2dShape& s = c.s;
  Conv2dS8Params& p = c.p;
  s.batch = uni(rng, 0, 3) == 0 ? 2 : 1;
  s.in_c = uni(rng, 0, 1) ? uni(rng, 1, 9) : uni(rng, 1, 40);
  s.out_c = uni(rng, 0, 1) ? uni(rng, 1, 9) : uni(rng, 1, 24);
  s.kernel_h = uni(rng, 1, 5);
  s.kernel_w = uni(rng, 1, 4);
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
  return c;
}

TEST(Conv2dS8V6m, MatchesReferenceOnRandomCases) {
  std::mt19937 rng(0x76360c01u);
  for (int i = 0; i < 1500; ++i) check_case(rng, random_case(rng), i);
}

// Layer shapes of the MLPerf Tiny models: pointwise (vww), 3x3 with SAME padding
// (ResNet-8), strided first layers (vww 3x3/2, kws 10x4/2 on one channel).
TEST(Conv2dS8V6m, MatchesReferenceOnModelShapes) {
  std::mt19937 rng(0x76360c02u);
  struct Layer {
    int32_t h, w, c, oc, kh, kw, stride, pad_t, pad_l, pad_b, pad_r;
  };
  const Layer layers[] = {{12, 12, 64, 128, 1, 1, 1, 0, 0, 0, 0},
                          {16, 16, 16, 16, 3, 3, 1, 1, 1, 1, 1},
                          {16, 16, 16, 32, 3, 3, 2, 0, 0, 1, 1},
                          {24, 24, 3, 8, 3, 3, 2, 0, 0, 1, 1},
                          {49, 10, 1, 64, 10, 4, 2, 4, 1, 5, 1},
                          {25, 5, 64, 64, 1, 1, 1, 0, 0, 0, 0}};
  int index = 0;
  for (const Layer& l : layers) {
    Case c;
    c.s = {1, l.h, l.w, l.c, 0, 0, l.oc, l.kh, l.kw};
    c.p = {l.stride, l.stride, 1, 1, l.pad_t, l.pad_l, l.pad_b, l.pad_r, 1, -128, -5, -128, 127};
    check_case(rng, c, index++);
  }
}

// Windows wider than the image (every pixel at a border), 1x1 images, strides larger
// than the kernel, and a zero input offset with all-extreme data.
TEST(Conv2dS8V6m, MatchesReferenceOnEdgeGeometry) {
  std::mt19937 rng(0x76360c03u);
  Case wide;
  wide.s = {2, 3, 2, 5, 0, 0, 7, 5, 5};
  wide.p = {1, 1, 1, 1, 2, 2, 2, 3, 1, 17, 0, -128, 127};
  check_case(rng, wide, 0);
  Case one;
  one.s = {1, 1, 1, 9, 0, 0, 6, 3, 3};
  one.p = {1, 1, 1, 1, 1, 1, 1, 1, 1, -128, 127, -100, 100};
  check_case(rng, one, 1);
  Case sparse;
  sparse.s = {1, 11, 11, 4, 0, 0, 5, 2, 2};
  sparse.p = {3, 3, 2, 2, 0, 0, 0, 0, 1, 127, -128, -128, 127};
  sparse.extreme = true;
  check_case(rng, sparse, 2);
}

// The params' requant floors and folded biases (what the compiler appends) through check()
// and run(): accepted as computed, refused one off (a floor one too high would clamp an
// output the reference does not; a folded bias off by one shifts every output), folded
// biases refused for a filter that is not constant; and the run with them matches the
// reference. The same for the depthwise convolution's floors.
TEST(Conv2dS8V6m, CheckVerifiesTheCompilersFloorsAndFoldedBiases) {
  std::mt19937 rng(0x76360c04u);
  const Conv2dShape s = {1, 12, 12, 8, 12, 12, 12, 1, 1};
  const Conv2dS8Params p = {1, 1, 1, 1, 0, 0, 0, 0, 1, -128, -128, -128, 127};
  std::vector<int8_t> input(12 * 12 * 8), filter(12 * 8);
  for (int8_t& v : input) v = static_cast<int8_t>(uni(rng, -128, 127));
  for (int8_t& v : filter) v = static_cast<int8_t>(uni(rng, -128, 127));
  std::vector<int32_t> bias(12), multipliers(12), shifts(12), floors(12), folded(12);
  for (int32_t o = 0; o < 12; ++o) {
    bias[o] = uni(rng, -50000, 50000);
    multipliers[o] = uni(rng, 1 << 30, INT32_MAX);
    shifts[o] = uni(rng, -12, -6);
  }
  conv2d_s8__v6m_floors(p, multipliers.data(), shifts.data(), 12, floors.data());
  conv2d_s8__v6m_folded_bias(p, filter.data(), bias.data(), 8, 12, folded.data());
  std::vector<int8_t> expected(12 * 12 * 12);
  conv2d_s8(p, multipliers.data(), shifts.data(), s, input.data(), filter.data(), bias.data(), expected.data());

  auto build = [&](TestOp& op, uint32_t* out, const std::vector<int32_t>& f, const std::vector<int32_t>& fb,
                   bool constant) {
    const uint32_t in = op.add_input(DType::kInt8, {1, 12, 12, 8});
    const uint32_t w = op.add_input(DType::kInt8, {12, 1, 1, 8});
    const uint32_t b = op.add_input(DType::kInt32, {12});
    *out = op.add_output(DType::kInt8, {1, 12, 12, 12});
    std::vector<uint8_t> params(sizeof(Conv2dS8Params));
    memcpy(params.data(), &p, sizeof p);
    for (const std::vector<int32_t>* a : {&std::as_const(multipliers), &std::as_const(shifts), &f, &fb}) {
      const auto* bytes = reinterpret_cast<const uint8_t*>(a->data());
      params.insert(params.end(), bytes, bytes + 4 * a->size());
    }
    op.set_raw_params(params);
    op.set_data(in, input);
    op.set_data(w, filter);
    op.set_data(b, bias);
    if (constant) {
      op.set_constant(w);
      op.set_constant(b);
    }
    op.add_scratch(conv2d_s8__v6m_scratch_bytes(p, 1, 1, 8, 12));
  };
  {
    TestOp op;
    uint32_t out;
    build(op, &out, floors, folded, true);
    ASSERT_EQ(op.check(kConv2dS8V6mEntry), Status::kOk);
    op.run(kConv2dS8V6mEntry);
    EXPECT_EQ(op.data<int8_t>(out), expected);
  }
  {
    TestOp op;
    uint32_t out;
    build(op, &out, floors, {}, true);  // floors only
    ASSERT_EQ(op.check(kConv2dS8V6mEntry), Status::kOk);
    op.run(kConv2dS8V6mEntry);
    EXPECT_EQ(op.data<int8_t>(out), expected);
  }
  int tested = 0;
  for (int32_t o = 0; o < 12; ++o) {
    if (floors[o] == INT32_MIN || floors[o] == INT32_MAX) continue;
    ++tested;
    std::vector<int32_t> high = floors;
    ++high[o];
    TestOp op;
    uint32_t out;
    build(op, &out, high, folded, true);
    EXPECT_EQ(op.check(kConv2dS8V6mEntry), Status::kBadParams) << "channel " << o;
  }
  EXPECT_EQ(tested, 12);
  {
    std::vector<int32_t> off = folded;
    ++off[5];
    TestOp op;
    uint32_t out;
    build(op, &out, floors, off, true);
    EXPECT_EQ(op.check(kConv2dS8V6mEntry), Status::kBadParams);
  }
  {
    TestOp op;
    uint32_t out;
    build(op, &out, floors, folded, false);
    EXPECT_EQ(op.check(kConv2dS8V6mEntry), Status::kBadParams);
  }

  // Depthwise (3x3, 12 channels): floors accepted as computed, refused one too high.
  const DepthwiseConv2dShape ds = {1, 8, 8, 12, 6, 6, 12, 3, 3};
  DepthwiseConv2dS8Params dp{};
  dp.window = {1, 1, 1, 1, 0, 0, 0, 0};
  dp.depth_multiplier = 1;
  dp.input_zero_point = -128;
  dp.output_zero_point = -128;
  dp.act_min = -128;
  dp.act_max = 127;
  std::vector<int8_t> dw_filter(9 * 12);
  for (int8_t& v : dw_filter) v = static_cast<int8_t>(uni(rng, -128, 127));
  std::vector<int32_t> dw_floors(12);
  depthwise_conv2d_s8__v6m_floors(dp, multipliers.data(), shifts.data(), 12, dw_floors.data());
  std::vector<int8_t> dw_expected(6 * 6 * 12);
  depthwise_conv2d_s8(dp, multipliers.data(), shifts.data(), ds, input.data(), dw_filter.data(), bias.data(),
                      dw_expected.data());
  auto build_dw = [&](TestOp& op, uint32_t* out, const std::vector<int32_t>& f) {
    const uint32_t in = op.add_input(DType::kInt8, {1, 8, 8, 12});
    const uint32_t w = op.add_input(DType::kInt8, {1, 3, 3, 12});
    const uint32_t b = op.add_input(DType::kInt32, {12});
    *out = op.add_output(DType::kInt8, {1, 6, 6, 12});
    std::vector<uint8_t> params(sizeof(DepthwiseConv2dS8Params));
    memcpy(params.data(), &dp, sizeof dp);
    for (const std::vector<int32_t>* a : {&std::as_const(multipliers), &std::as_const(shifts), &f}) {
      const auto* bytes = reinterpret_cast<const uint8_t*>(a->data());
      params.insert(params.end(), bytes, bytes + 4 * a->size());
    }
    op.set_raw_params(params);
    op.set_data(in, std::vector<int8_t>(input.begin(), input.begin() + 8 * 8 * 12));
    op.set_data(w, dw_filter);
    op.set_data(b, bias);
    op.add_scratch(depthwise_conv2d_s8__v6m_scratch_bytes(dp, ds));
  };
  {
    TestOp op;
    uint32_t out;
    build_dw(op, &out, dw_floors);
    ASSERT_EQ(op.check(kDepthwiseConv2dS8V6mEntry), Status::kOk);
    op.run(kDepthwiseConv2dS8V6mEntry);
    EXPECT_EQ(op.data<int8_t>(out), dw_expected);
  }
  tested = 0;
  for (int32_t c = 0; c < 12; ++c) {
    if (dw_floors[c] == INT32_MIN || dw_floors[c] == INT32_MAX) continue;
    ++tested;
    std::vector<int32_t> high = dw_floors;
    ++high[c];
    TestOp op;
    uint32_t out;
    build_dw(op, &out, high);
    EXPECT_EQ(op.check(kDepthwiseConv2dS8V6mEntry), Status::kBadParams) << "channel " << c;
  }
  EXPECT_EQ(tested, 12);
}

}  // namespace conv2d_v6m_test
}  // namespace mote
