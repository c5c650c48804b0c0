// int8 and 16x8 conv2d against the independent model of TFLite's ConvPerChannel.
#include <gtest/gtest.h>

#include <vector>

#include "conv2d/conv2d.h"
#include "kernel_test_util.h"
#include "quant/quant_math.h"
#include "quant_test_util.h"

namespace mote {
namespace conv2d_quant_test {

using testing::Multiplier;
using testing::TestOp;

struct Geometry {
  uint32_t n, h, w, c, o, kh, kw;
  int32_t stride_h, stride_w, dilation_h, dilation_w;
  int32_t pad_top, pad_left, pad_bottom, pad_right;
  int32_t groups;
  uint32_t out_h() const {
    return (h + pad_top + pad_bottom - dilation_h * (kh - 1) - 1) / stride_h + 1;
  }
  uint32_t out_w() const {
    return (w + pad_left + pad_right - dilation_w * (kw - 1) - 1) / stride_w + 1;
  }
};

// TFLite's loop nest, taps outside the image skipped, accumulation in int64 then
// narrowed: the raw int32 accumulator before requantization.
template <typename In>
std::vector<int64_t> accumulate(const Geometry& g, const std::vector<In>& in,
                                const std::vector<int8_t>& filter, int32_t input_offset) {
  const uint32_t cpg = g.c / g.groups;
  const uint32_t opg = g.o / g.groups;
  std::vector<int64_t> acc;
  for (uint32_t b = 0; b < g.n; ++b)
    for (uint32_t y = 0; y < g.out_h(); ++y)
      for (uint32_t x = 0; x < g.out_w(); ++x)
        for (uint32_t o = 0; o < g.o; ++o) {
          int64_t sum = 0;
          const uint32_t grp = o / opg;
          for (uint32_t ky = 0; ky < g.kh; ++ky)
            for (uint32_t kx = 0; kx < g.kw; ++kx) {
              const int64_t iy = int64_t{y} * g.stride_h - g.pad_top + int64_t{ky} * g.dilation_h;
              const int64_t ix = int64_t{x} * g.stride_w - g.pad_left + int64_t{kx} * g.dilation_w;
              if (iy < 0 || iy >= g.h || ix < 0 || ix >= g.w) continue;
              for (uint32_t ic = 0; ic < cpg; ++ic) {
                const int64_t v = in[((b * g.h + iy) * g.w + ix) * g.c + grp * cpg + ic];
                const int64_t f = filter[((o * g.kh + ky) * g.kw + kx) * cpg + ic];
                sum += f * (v + input_offset);
              }
            }
          acc.push_back(sum);
        }
  return acc;
}

struct S8Case {
  Geometry g;
  int32_t input_zp, output_zp, act_min, act_max;
  bool bias;
  int32_t shift_lo, shift_hi;  // range of the random per-channel shifts
};

Conv2dS8Params s8_params(const S8Case& cs) {
  const Geometry& g = cs.g;
  return Conv2dS8Params{g.stride_h,  g.stride_w,  g.dilation_h,  g.dilation_w, g.pad_top,
                        g.pad_left,  g.pad_bottom, g.pad_right,  g.groups,     cs.input_zp,
                        cs.output_zp, cs.act_min,  cs.act_max};
}

struct S8Op {
  TestOp op;
  uint32_t in, filter, bias, out;
};

void build_s8(const S8Case& cs, const std::vector<Multiplier>& m, S8Op* c) {
  const Geometry& g = cs.g;
  c->in = c->op.add_input(DType::kInt8, {g.n, g.h, g.w, g.c});
  c->filter = c->op.add_input(DType::kInt8, {g.o, g.kh, g.kw, g.c / g.groups});
  c->bias = cs.bias ? c->op.add_input(DType::kInt32, {g.o}) : kNoTensor;
  c->out = c->op.add_output(DType::kInt8, {g.n, g.out_h(), g.out_w(), g.o});
  c->op.set_raw_params(testing::params_bytes(s8_params(cs), m));
}

void run_s8_case(const S8Case& cs, uint32_t seed) {
  const Geometry& g = cs.g;
  const auto m = testing::random_multipliers(g.o, seed, cs.shift_lo, cs.shift_hi);
  S8Op c;
  build_s8(cs, m, &c);
  const auto in = testing::random_full_range<int8_t>(size_t{g.n} * g.h * g.w * g.c, seed + 1);
  const auto filter = testing::random_full_range<int8_t>(size_t{g.o} * g.kh * g.kw * (g.c / g.groups), seed + 2);
  const auto bias = testing::random_ints<int32_t>(g.o, seed + 3, -40000, 40000);
  c.op.set_data(c.in, in);
  c.op.set_data(c.filter, filter);
  if (cs.bias) c.op.set_data(c.bias, bias);
  ASSERT_EQ(c.op.check(kConv2dS8Entry), Status::kOk);
  c.op.run(kConv2dS8Entry);
  const auto acc = accumulate(g, in, filter, -cs.input_zp);
  const auto out = c.op.data<int8_t>(c.out);
  ASSERT_EQ(out.size(), acc.size());
  int unsaturated = 0;
  for (size_t i = 0; i < acc.size(); ++i) {
    const uint32_t o = i % g.o;
    const int32_t a = testing::wrap32(acc[i] + (cs.bias ? bias[o] : 0));
    const int64_t v = int64_t{testing::ref_mbqm(a, m[o].multiplier, m[o].shift)} + cs.output_zp;
    const int32_t expected = testing::ref_clamp(v, cs.act_min, cs.act_max);
    ASSERT_EQ(out[i], expected) << "element " << i;
    unsaturated += expected != cs.act_min && expected != cs.act_max;
  }
  // The multipliers were chosen so that the comparison is not all saturated values.
  EXPECT_GT(unsaturated, 0);
}

TEST(Conv2dS8, HandComputed) {
  // 1x3x3x1 image 1..9 (zero point 1 -> values 0..8), 2x2 filter taking the top-left
  // and bottom-right taps, bias 4, multiplier 0.5 (2^30, shift 0), output zp -3.
  // Window sums 0+4, 1+5, 3+7, 4+8 = 4, 6, 10, 12; + 4 -> 8, 10, 14, 16; * 0.5 -> 4, 5,
  // 7, 8; -3 -> 1, 2, 4, 5.
  S8Case cs{{1, 3, 3, 1, 1, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0, 1}, 1, -3, -128, 127, true, 0, 0};
  S8Op c;
  build_s8(cs, {{1 << 30, 0}}, &c);
  c.op.set_data(c.in, std::vector<int8_t>{1, 2, 3, 4, 5, 6, 7, 8, 9});
  c.op.set_data(c.filter, std::vector<int8_t>{1, 0, 0, 1});
  c.op.set_data(c.bias, std::vector<int32_t>{4});
  ASSERT_EQ(c.op.check(kConv2dS8Entry), Status::kOk);
  c.op.run(kConv2dS8Entry);
  EXPECT_EQ(c.op.data<int8_t>(c.out), (std::vector<int8_t>{1, 2, 4, 5}));
}

TEST(Conv2dS8, HandComputedRoundingAndClamp) {
  // 1x1 conv of [3, -3, 5, -5] with weight 1, multiplier 0.5: 1.5 -> 2, -1.5 -> -1
  // (SaturatingRoundingDoublingHighMul rounds ties up), 2.5 -> 3, -2.5 -> -2; ReLU range
  // [0, 2] clamps.
  S8Case cs{{1, 1, 4, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1}, 0, 0, 0, 2, false, 0, 0};
  S8Op c;
  build_s8(cs, {{1 << 30, 0}}, &c);
  c.op.set_data(c.in, std::vector<int8_t>{3, -3, 5, -5});
  c.op.set_data(c.filter, std::vector<int8_t>{1});
  ASSERT_EQ(c.op.check(kConv2dS8Entry), Status::kOk);
  c.op.run(kConv2dS8Entry);
  EXPECT_EQ(c.op.data<int8_t>(c.out), (std::vector<int8_t>{2, 0, 2, 0}));
}

TEST(Conv2dS8, MatchesModelStrideDilationAsymmetricPads) {
  run_s8_case({{2, 7, 9, 3, 4, 3, 2, 2, 1, 1, 2, 1, 0, 2, 1, 1}, -5, 7, -128, 127, true, -12, -8},
              100);
}

TEST(Conv2dS8, MatchesModelZeroPointsAtInt8Extremes) {
  run_s8_case({{1, 5, 6, 4, 5, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1}, -128, 127, -128, 127, true, -13, -9},
              110);
  run_s8_case({{1, 5, 6, 4, 5, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1}, 127, -128, -128, 127, true, -13, -9},
              120);
}

TEST(Conv2dS8, MatchesModelGroupsAndDepthwiseAsGroups) {
  run_s8_case({{2, 6, 5, 4, 6, 3, 3, 1, 2, 2, 1, 2, 1, 0, 2, 2}, 3, -1, -128, 127, true, -11, -7},
              130);
  run_s8_case({{1, 5, 5, 3, 6, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 3}, 0, 0, -128, 127, false, -10, -6},
              140);
}

TEST(Conv2dS8, MatchesModelFusedActivationRanges) {
  run_s8_case({{1, 4, 3, 8, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1}, 10, -20, -20, 127, true, -12, -8},
              150);  // ReLU
  run_s8_case({{1, 4, 3, 8, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1}, 10, -20, -20, 40, true, -12, -8},
              160);  // ReLU6-like
}

TEST(Conv2dS8, MatchesModelLargeAndTinyMultipliers) {
  // Shifts up to +4 (multipliers of up to 16) and down to -31.
  run_s8_case({{1, 3, 3, 2, 6, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0, 1}, 0, 0, -128, 127, true, -4, 4},
              170);
  run_s8_case({{1, 9, 9, 16, 4, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1}, 5, 0, -128, 127, true, -31, -14},
              180);
}

TEST(Conv2dS8, MatchesModelOddShapes) {
  run_s8_case({{3, 1, 11, 1, 1, 1, 5, 1, 3, 1, 1, 0, 4, 0, 3, 1}, -7, 9, -128, 127, true, -8, -4},
              190);
  run_s8_case({{1, 11, 8, 2, 3, 5, 2, 3, 2, 1, 3, 2, 0, 1, 3, 1}, 1, 2, -100, 100, true, -10, -6},
              200);
}

TEST(Conv2dS8, MatchesModelWithMultipliersFromScales) {
  // Multipliers as the compiler derives them, per channel from real scales.
  const Geometry g{1, 6, 6, 3, 4, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1};
  S8Case cs{g, -128, -128, -128, 127, true, 0, 0};
  const float input_scale = 1.0f / 255.0f, output_scale = 0.0235294f;
  const float filter_scales[] = {0.0031f, 0.0157f, 0.00042f, 0.0112f};
  std::vector<Multiplier> m(4);
  for (int i = 0; i < 4; ++i) {
    conv_channel_multiplier(input_scale, filter_scales[i], output_scale, &m[i].multiplier,
                            &m[i].shift);
  }
  ASSERT_TRUE(activation_range_quantized(FusedActivation::kRelu6, output_scale, -128, -128, 127,
                                         &cs.act_min, &cs.act_max));
  S8Op c;
  build_s8(cs, m, &c);
  const auto in = testing::random_full_range<int8_t>(6 * 6 * 3, 7);
  const auto filter = testing::random_full_range<int8_t>(4 * 3 * 3 * 3, 8);
  const auto bias = testing::random_ints<int32_t>(4, 9, -3000, 3000);
  c.op.set_data(c.in, in);
  c.op.set_data(c.filter, filter);
  c.op.set_data(c.bias, bias);
  ASSERT_EQ(c.op.check(kConv2dS8Entry), Status::kOk);
  c.op.run(kConv2dS8Entry);
  const auto acc = accumulate(g, in, filter, 128);
  const auto out = c.op.data<int8_t>(c.out);
  for (size_t i = 0; i < acc.size(); ++i) {
    const uint32_t o = i % 4;
    const int32_t a = testing::wrap32(acc[i] + bias[o]);
    const int64_t v = int64_t{testing::ref_mbqm(a, m[o].multiplier, m[o].shift)} - 128;
    ASSERT_EQ(out[i], testing::ref_clamp(v, cs.act_min, cs.act_max)) << i;
  }
}

class Conv2dS8Check : public ::testing::Test {
 protected:
  static constexpr uint32_t kOut = 6;
  void SetUp() override {
    cs_ = {{2, 7, 9, 4, kOut, 3, 2, 2, 1, 1, 2, 1, 0, 2, 1, 2}, 0, 0, -128, 127, true, -10, -5};
    build_s8(cs_, testing::random_multipliers(kOut, 1, -10, -5), &c_);
    ASSERT_EQ(check(), Status::kOk);
  }
  Status check() { return c_.op.check(kConv2dS8Entry); }
  Conv2dS8Params& params() { return c_.op.params<Conv2dS8Params>(); }
  int32_t* shifts() { return testing::params_array_of<Conv2dS8Params>(c_.op, 1, kOut); }
  S8Case cs_;
  S8Op c_;
};

TEST_F(Conv2dS8Check, ParamsBytesMustCoverBothArrays) {
  c_.op.set_params_bytes(sizeof(Conv2dS8Params) + 8 * kOut - 4);
  EXPECT_EQ(check(), Status::kBadParams);
  c_.op.set_params_bytes(sizeof(Conv2dS8Params));
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(Conv2dS8Check, ShiftRange) {
  shifts()[3] = -32;
  EXPECT_EQ(check(), Status::kBadParams);
  shifts()[3] = 31;
  EXPECT_EQ(check(), Status::kBadParams);
  shifts()[3] = 30;
  EXPECT_EQ(check(), Status::kOk);
  shifts()[kOut - 1] = INT32_MIN;
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST_F(Conv2dS8Check, ZeroPointsAndActivationRange) {
  params().input_zero_point = 128;
  EXPECT_EQ(check(), Status::kBadParams);
  params().input_zero_point = -128;
  params().output_zero_point = -129;
  EXPECT_EQ(check(), Status::kBadParams);
  params().output_zero_point = 0;
  params().act_min = 10;
  params().act_max = 9;
  EXPECT_EQ(check(), Status::kBadParams);
  params().act_min = -129;
  params().act_max = 127;
  EXPECT_EQ(check(), Status::kBadParams);
  params().act_min = -128;
  params().act_max = 128;
  EXPECT_EQ(check(), Status::kBadParams);
  params().act_max = 127;
  EXPECT_EQ(check(), Status::kOk);
}

TEST_F(Conv2dS8Check, GeometryAndShapes) {
  params().groups = 3;
  EXPECT_EQ(check(), Status::kBadParams);
  params().groups = 2;
  params().window.stride_h = 0;
  EXPECT_EQ(check(), Status::kBadParams);
  params().window.stride_h = 2;
  params().window.pad_bottom = 3;  // output height no longer matches
  EXPECT_EQ(check(), Status::kBadParams);
  params().window.pad_bottom = 2;
  c_.op.desc(c_.out).dims[3] = kOut + 1;
  EXPECT_EQ(check(), Status::kBadParams);
  c_.op.desc(c_.out).dims[3] = kOut;
  EXPECT_EQ(check(), Status::kOk);
}

TEST_F(Conv2dS8Check, DtypesAndBias) {
  c_.op.desc(c_.bias).dtype = static_cast<uint8_t>(DType::kInt64);
  EXPECT_EQ(check(), Status::kBadParams);
  c_.op.desc(c_.bias).dtype = static_cast<uint8_t>(DType::kInt32);
  c_.op.desc(c_.bias).dims[0] = kOut - 1;
  EXPECT_EQ(check(), Status::kBadParams);
  c_.op.desc(c_.bias).dims[0] = kOut;
  c_.op.desc(c_.in).dtype = static_cast<uint8_t>(DType::kUInt8);
  EXPECT_EQ(check(), Status::kBadParams);
  c_.op.desc(c_.in).dtype = static_cast<uint8_t>(DType::kInt8);
  c_.op.desc(c_.filter).dtype = static_cast<uint8_t>(DType::kInt16);
  EXPECT_EQ(check(), Status::kBadParams);
  c_.op.desc(c_.filter).dtype = static_cast<uint8_t>(DType::kInt8);
  c_.op.desc(c_.out).dtype = static_cast<uint8_t>(DType::kFloat32);
  EXPECT_EQ(check(), Status::kBadParams);
}

TEST(Conv2dS8Io, FilterIsRequired) {
  TestOp op;
  op.add_input(DType::kInt8, {1, 3, 3, 1});
  op.add_output(DType::kInt8, {1, 3, 3, 1});
  op.set_raw_params(testing::params_bytes(Conv2dS8Params{1, 1, 1, 1, 0, 0, 0, 0, 1, 0, 0, -128, 127},
                                          {{1 << 30, 0}}));
  EXPECT_EQ(op.check(kConv2dS8Entry), Status::kBadOp);
}

// ---- 16x8 -----------------------------------------------------------------------------

struct S16Case {
  Geometry g;
  int32_t accumulator;  // 64 or 32
  int32_t act_min, act_max;
  bool bias;
  int32_t shift_lo, shift_hi;
  int32_t bias_bits = 28;  // |bias| < 2^bias_bits
};

void run_s16_case(const S16Case& cs, uint32_t seed) {
  const Geometry& g = cs.g;
  const auto m = testing::random_multipliers(g.o, seed, cs.shift_lo, cs.shift_hi);
  TestOp op;
  const uint32_t in_t = op.add_input(DType::kInt16, {g.n, g.h, g.w, g.c});
  const uint32_t filter_t = op.add_input(DType::kInt8, {g.o, g.kh, g.kw, g.c / g.groups});
  const bool wide = cs.accumulator == 64;
  const uint32_t bias_t = cs.bias ? op.add_input(wide ? DType::kInt64 : DType::kInt32, {g.o}) : kNoTensor;
  const uint32_t out_t = op.add_output(DType::kInt16, {g.n, g.out_h(), g.out_w(), g.o});
  op.set_raw_params(testing::params_bytes(
      Conv2dS16Params{g.stride_h, g.stride_w, g.dilation_h, g.dilation_w, g.pad_top, g.pad_left,
                      g.pad_bottom, g.pad_right, g.groups, cs.accumulator, cs.act_min, cs.act_max},
      m));
  const auto in = testing::random_full_range<int16_t>(size_t{g.n} * g.h * g.w * g.c, seed + 1);
  const auto filter =
      testing::random_full_range<int8_t>(size_t{g.o} * g.kh * g.kw * (g.c / g.groups), seed + 2);
  const auto bias64 = testing::random_ints<int64_t>(g.o, seed + 3, -(int64_t{1} << cs.bias_bits),
                                                    int64_t{1} << cs.bias_bits);
  const auto bias32 = testing::random_ints<int32_t>(g.o, seed + 3, -(1 << 28), 1 << 28);
  op.set_data(in_t, in);
  op.set_data(filter_t, filter);
  if (cs.bias && wide) op.set_data(bias_t, bias64);
  if (cs.bias && !wide) op.set_data(bias_t, bias32);
  ASSERT_EQ(op.check(kConv2dS16Entry), Status::kOk);
  op.run(kConv2dS16Entry);
  const auto acc = accumulate(g, in, filter, 0);
  const auto out = op.data<int16_t>(out_t);
  ASSERT_EQ(out.size(), acc.size());
  int unsaturated = 0;
  for (size_t i = 0; i < acc.size(); ++i) {
    const uint32_t o = i % g.o;
    int32_t v;
    if (wide) {
      v = testing::ref_mbqm64(acc[i] + (cs.bias ? bias64[o] : 0), m[o].multiplier, m[o].shift);
    } else {
      v = testing::ref_mbqm(testing::wrap32(acc[i] + (cs.bias ? bias32[o] : 0)), m[o].multiplier,
                            m[o].shift);
    }
    const int32_t expected = testing::ref_clamp(v, cs.act_min, cs.act_max);
    ASSERT_EQ(out[i], expected) << "element " << i;
    unsaturated += expected != cs.act_min && expected != cs.act_max;
  }
  EXPECT_GT(unsaturated, 0);
}

TEST(Conv2dS16, HandComputedInt64Rounding) {
  // 1x1 conv, weight 1, multiplier 2^30 (0.5 -> reduced 2^14), shift 0: out = x / 2
  // with ties up (one rounding): 3 -> 2, -3 -> -1, 5 -> 3, -5 -> -2.
  TestOp op;
  const uint32_t in = op.add_input(DType::kInt16, {1, 1, 4, 1});
  const uint32_t filter = op.add_input(DType::kInt8, {1, 1, 1, 1});
  const uint32_t out = op.add_output(DType::kInt16, {1, 1, 4, 1});
  op.set_raw_params(testing::params_bytes(
      Conv2dS16Params{1, 1, 1, 1, 0, 0, 0, 0, 1, 64, -32768, 32767}, {{1 << 30, 0}}));
  op.set_data(in, std::vector<int16_t>{3, -3, 5, -5});
  op.set_data(filter, std::vector<int8_t>{1});
  ASSERT_EQ(op.check(kConv2dS16Entry), Status::kOk);
  op.run(kConv2dS16Entry);
  EXPECT_EQ(op.data<int16_t>(out), (std::vector<int16_t>{2, -1, 3, -2}));
}

TEST(Conv2dS16, MatchesModelInt64Accumulator) {
  run_s16_case({{1, 8, 166, 2, 8, 5, 7, 3, 1, 1, 1, 0, 0, 0, 0, 1}, 64, -32768, 32767, true, -20, -14},
               300);
  // Biases and accumulators far beyond int32, tiny multipliers.
  run_s16_case({{1, 4, 6, 2, 3, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1}, 64, -32768, 32767, true, -31, -26, 40},
               305);
  run_s16_case({{2, 6, 7, 4, 6, 3, 3, 1, 2, 2, 1, 2, 1, 0, 2, 2}, 64, -32768, 32767, true, -18, -10},
               310);
  run_s16_case({{1, 4, 5, 3, 2, 2, 2, 1, 1, 1, 1, 1, 1, 0, 0, 1}, 64, -1000, 20000, false, -16, -8},
               320);
}

TEST(Conv2dS16, MatchesModelInt32Accumulator) {
  run_s16_case({{1, 5, 6, 3, 4, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1}, 32, -32768, 32767, true, -14, -8},
               330);
  run_s16_case({{1, 5, 6, 3, 4, 3, 3, 2, 1, 1, 1, 1, 1, 1, 0, 1}, 32, 0, 32767, false, -14, -8}, 340);
}

TEST(Conv2dS16Check, AccumulatorBiasAndShifts) {
  TestOp op;
  op.add_input(DType::kInt16, {1, 3, 3, 1});
  op.add_input(DType::kInt8, {2, 1, 1, 1});
  const uint32_t bias = op.add_input(DType::kInt64, {2});
  op.add_output(DType::kInt16, {1, 3, 3, 2});
  op.set_raw_params(testing::params_bytes(
      Conv2dS16Params{1, 1, 1, 1, 0, 0, 0, 0, 1, 64, -32768, 32767}, {{1 << 30, 0}, {1 << 30, 14}}));
  EXPECT_EQ(op.check(kConv2dS16Entry), Status::kOk);
  testing::params_array_of<Conv2dS16Params>(op, 1, 2)[1] = 15;  // 15 - shift must be >= 1
  EXPECT_EQ(op.check(kConv2dS16Entry), Status::kBadParams);
  testing::params_array_of<Conv2dS16Params>(op, 1, 2)[1] = 15;
  op.params<Conv2dS16Params>().accumulator = 32;  // int32 path allows 15 but needs int32 bias
  EXPECT_EQ(op.check(kConv2dS16Entry), Status::kBadParams);
  op.desc(bias).dtype = static_cast<uint8_t>(DType::kInt32);
  EXPECT_EQ(op.check(kConv2dS16Entry), Status::kOk);
  op.params<Conv2dS16Params>().accumulator = 16;
  EXPECT_EQ(op.check(kConv2dS16Entry), Status::kBadParams);
  op.params<Conv2dS16Params>().accumulator = 32;
  op.params<Conv2dS16Params>().act_min = -32769;
  EXPECT_EQ(op.check(kConv2dS16Entry), Status::kBadParams);
}

}  // namespace conv2d_quant_test
}  // namespace mote
