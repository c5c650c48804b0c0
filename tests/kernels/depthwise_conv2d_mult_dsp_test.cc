// depthwise_conv2d_s8_mult__dsp (depth multiplier >= 2) against the reference kernel, bit
// for bit, on seeded random geometries (filter sizes incl. ones not a multiple of four,
// strides, dilations, padding on every side, batches, several input channels), zero
// points, clamps, multipliers (incl. extreme ones) and biases; micro_speech's layer; plus
// check() refusals (depth multiplier 1, too little scratch, missing or corrupt arranged
// filter in the params).
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "depthwise_conv2d/depthwise_conv2d.h"
#include "kernel_test_util.h"
#include "quant_test_util.h"

namespace mote {
namespace depthwise_conv2d_mult_dsp_test {

using testing::Multiplier;
using testing::TestOp;

struct Case {
  int32_t n, h, w, c, m, kh, kw;
  int32_t stride_h, stride_w, dilation_h, dilation_w;
  int32_t pad_top, pad_left, pad_bottom, pad_right;
  int32_t input_zp, output_zp, act_min, act_max;
  bool bias, big_bias, extreme;
  int32_t out_h() const { return (h + pad_top + pad_bottom - dilation_h * (kh - 1) - 1) / stride_h + 1; }
  int32_t out_w() const { return (w + pad_left + pad_right - dilation_w * (kw - 1) - 1) / stride_w + 1; }
  int32_t out_c() const { return c * m; }
};

DepthwiseConv2dShape shape_of(const Case& cs) {
  return DepthwiseConv2dShape{cs.n, cs.h, cs.w, cs.c, cs.out_h(), cs.out_w(), cs.out_c(), cs.kh, cs.kw};
}

DepthwiseConv2dS8Params params_of(const Case& cs) {
  return DepthwiseConv2dS8Params{cs.stride_h, cs.stride_w, cs.dilation_h, cs.dilation_w,
                                 cs.pad_top,  cs.pad_left, cs.pad_bottom, cs.pad_right,
                                 cs.m,        cs.input_zp, cs.output_zp,  cs.act_min,
                                 cs.act_max};
}

std::vector<Multiplier> multipliers_for(const Case& cs, uint32_t seed) {
  std::mt19937 rng(seed);
  auto v = testing::random_multipliers(static_cast<size_t>(cs.out_c()), rng(), -12,
                                       rng() % 4 == 0 ? 2 : -1);
  if (!cs.extreme) return v;
  const int32_t edge_m[] = {INT32_MIN, INT32_MAX, 0, 1, -(1 << 30), 1 << 30, -12345678};
  const int32_t edge_s[] = {-31, 30, 0, -1, 1, -30, 29, -8};
  for (Multiplier& x : v) {
    if (rng() % 3 == 0) x.multiplier = edge_m[rng() % 7];
    if (rng() % 3 == 0) x.shift = edge_s[rng() % 8];
  }
  return v;
}

// Runs the reference and the variant on the same random data and compares every byte.
void expect_same(const Case& cs, uint32_t seed) {
  const DepthwiseConv2dShape shape = shape_of(cs);
  const DepthwiseConv2dS8Params p = params_of(cs);
  const auto mult = multipliers_for(cs, seed);
  std::vector<int32_t> multipliers, shifts;
  for (const Multiplier& x : mult) {
    multipliers.push_back(x.multiplier);
    shifts.push_back(x.shift);
  }
  const auto input = testing::random_full_range<int8_t>(
      static_cast<size_t>(cs.n) * cs.h * cs.w * cs.c, seed + 1);
  const auto filter = testing::random_full_range<int8_t>(
      static_cast<size_t>(cs.kh) * cs.kw * cs.out_c(), seed + 2);
  const auto bias = cs.big_bias ? testing::random_full_range<int32_t>(cs.out_c(), seed + 3)
                                : testing::random_ints<int32_t>(cs.out_c(), seed + 3, -40000, 40000);
  const size_t out_count = static_cast<size_t>(cs.n) * cs.out_h() * cs.out_w() * cs.out_c();
  std::vector<int8_t> expected(out_count, 0x11), actual(out_count, 0x55);
  // Scratch as uint32_t words: 4-byte aligned, as the arena planner gives it.
  std::vector<uint32_t> scratch(depthwise_conv2d_s8_mult__dsp_scratch_bytes(p, shape) / 4 + 1,
                                0xA5A5A5A5u);
  const int32_t* b = cs.bias ? bias.data() : nullptr;
  depthwise_conv2d_s8(p, multipliers.data(), shifts.data(), shape, input.data(), filter.data(), b,
                      expected.data());
  std::vector<int8_t> arranged(depthwise_conv2d_s8_mult__dsp_arranged_bytes(shape), 0x77);
  depthwise_conv2d_s8_mult__dsp_arrange(shape, filter.data(), arranged.data());
  depthwise_conv2d_s8_mult__dsp(p, multipliers.data(), shifts.data(), shape, input.data(),
                                arranged.data(), b, actual.data(), scratch.data());
  for (size_t i = 0; i < out_count; ++i) {
    ASSERT_EQ(expected[i], actual[i])
        << "element " << i << " seed " << seed << " n" << cs.n << " h" << cs.h << " w" << cs.w
        << " c" << cs.c << " m" << cs.m << " k" << cs.kh << "x" << cs.kw << " s" << cs.stride_h
        << "," << cs.stride_w << " d" << cs.dilation_h << "," << cs.dilation_w;
  }
}

Case random_case(std::mt19937& rng) {
  auto u = [&](int lo, int hi) { return static_cast<int32_t>(lo + rng() % (hi - lo + 1)); };
  for (;;) {
    Case cs{};
    cs.n = u(1, 4) == 4 ? 2 : 1;
    cs.h = u(1, 12);
    cs.w = u(1, 14);
    cs.c = u(0, 2) == 0 ? 1 : u(1, 5);
    cs.m = u(2, 9);
    cs.kh = u(1, 6);
    cs.kw = u(0, 2) == 0 ? 4 * u(1, 2) : u(1, 9);
    cs.stride_h = u(1, 3);
    cs.stride_w = u(1, 3);
    cs.dilation_h = u(0, 3) == 0 ? u(2, 3) : 1;
    cs.dilation_w = u(0, 3) == 0 ? u(2, 3) : 1;
    cs.pad_top = u(0, 3);
    cs.pad_left = u(0, 3);
    cs.pad_bottom = u(0, 3);
    cs.pad_right = u(0, 3);
    if (cs.h + cs.pad_top + cs.pad_bottom < cs.dilation_h * (cs.kh - 1) + 1 ||
        cs.w + cs.pad_left + cs.pad_right < cs.dilation_w * (cs.kw - 1) + 1) {
      continue;
    }
    cs.input_zp = u(0, 4) == 0 ? 0 : u(-128, 127);
    cs.output_zp = u(-128, 127);
    cs.act_min = u(0, 2) == 0 ? u(-128, 0) : -128;
    cs.act_max = u(0, 2) == 0 ? u(cs.act_min, 127) : 127;
    cs.bias = u(0, 4) != 0;
    cs.big_bias = u(0, 6) == 0;
    cs.extreme = u(0, 5) == 0;
    return cs;
  }
}

TEST(DepthwiseConv2dS8MultDsp, MatchesReferenceOnRandomCases) {
  std::mt19937 rng(4242);
  for (uint32_t i = 0; i < 500; ++i) {
    expect_same(random_case(rng), 1000 + 7 * i);
    if (HasFatalFailure()) return;
  }
}

TEST(DepthwiseConv2dS8MultDsp, MatchesReferenceOnModelShapes) {
  // micro_speech: [1,49,40,1] * [1,10,8,8], stride 2, SAME padding -> [1,25,20,8].
  Case speech{1, 49, 40, 1, 8, 10, 8, 2, 2, 1, 1, 4, 3, 5, 3, -128, -128, -128, 127,
              true, false, false};
  ASSERT_EQ(speech.out_h(), 25);
  ASSERT_EQ(speech.out_w(), 20);
  expect_same(speech, 7);
  // Long windows (more than 1024 taps: the fully connected core widens on the fly), per
  // channel extremes, no bias.
  Case big{1, 40, 40, 2, 3, 33, 33, 4, 4, 1, 1, 16, 16, 16, 16, 5, -3, -100, 90,
           false, false, true};
  expect_same(big, 8);
  // Every tap outside the image for some pixels; 1x1 filters.
  Case pad{2, 2, 3, 3, 2, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 127, 0, -128, 127, true, true, false};
  expect_same(pad, 9);
}

// The reference's params, then (for the variant) the arranged filter.
std::vector<uint8_t> reference_params(const Case& cs) {
  return testing::params_bytes(params_of(cs), multipliers_for(cs, 3));
}
std::vector<uint8_t> variant_params(const Case& cs, const std::vector<int8_t>& filter) {
  std::vector<uint8_t> bytes = reference_params(cs);
  const size_t at = bytes.size();
  bytes.resize(at + depthwise_conv2d_s8_mult__dsp_arranged_bytes(shape_of(cs)));
  depthwise_conv2d_s8_mult__dsp_arrange(shape_of(cs), filter.data(),
                                        reinterpret_cast<int8_t*>(bytes.data() + at));
  return bytes;
}
std::vector<int8_t> filter_of(const Case& cs) {
  return testing::random_full_range<int8_t>(static_cast<size_t>(cs.kh) * cs.kw * cs.out_c(), 5);
}

// Returns the output tensor's index. The params are the variant's.
uint32_t build(const Case& cs, uint32_t scratch_bytes, TestOp& op) {
  const uint32_t n = static_cast<uint32_t>(cs.n), h = static_cast<uint32_t>(cs.h),
                 w = static_cast<uint32_t>(cs.w), c = static_cast<uint32_t>(cs.c),
                 oc = static_cast<uint32_t>(cs.out_c());
  const uint32_t in = op.add_input(DType::kInt8, {n, h, w, c});
  const uint32_t filter = op.add_input(
      DType::kInt8, {1, static_cast<uint32_t>(cs.kh), static_cast<uint32_t>(cs.kw), oc});
  const uint32_t bias = op.add_input(DType::kInt32, {oc});
  const uint32_t out = op.add_output(DType::kInt8, {n, static_cast<uint32_t>(cs.out_h()),
                                                    static_cast<uint32_t>(cs.out_w()), oc});
  op.set_raw_params(variant_params(cs, filter_of(cs)));
  op.set_data(in, testing::random_full_range<int8_t>(size_t{n} * h * w * c, 4));
  op.set_data(filter, filter_of(cs));
  op.set_data(bias, testing::random_ints<int32_t>(oc, 6, -1000, 1000));
  op.add_scratch(scratch_bytes);
  return out;
}

TEST(DepthwiseConv2dS8MultDsp, RunsThroughItsEntryLikeTheReference) {
  const Case cs{1, 9, 8, 2, 3, 3, 5, 2, 1, 1, 1, 1, 2, 1, 2, 3, -7, -128, 127,
                true, false, false};
  const uint32_t scratch = depthwise_conv2d_s8_mult__dsp_scratch_bytes(params_of(cs), shape_of(cs));
  TestOp op;
  const uint32_t out = build(cs, scratch, op);
  op.set_raw_params(reference_params(cs));
  ASSERT_EQ(op.check(kDepthwiseConv2dS8Entry), Status::kOk);
  op.run(kDepthwiseConv2dS8Entry);
  const auto expected = op.data<int8_t>(out);
  op.set_data(out, std::vector<int8_t>(expected.size(), 0x55));
  op.set_raw_params(variant_params(cs, filter_of(cs)));
  ASSERT_EQ(op.check(kDepthwiseConv2dS8MultDspEntry), Status::kOk);
  op.run(kDepthwiseConv2dS8MultDspEntry);
  EXPECT_EQ(op.data<int8_t>(out), expected);
}

TEST(DepthwiseConv2dS8MultDsp, CheckRefusesMultiplierOneAndTooLittleScratch) {
  const Case cs{1, 6, 6, 2, 4, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, -128, 127,
                true, false, false};
  const uint32_t scratch = depthwise_conv2d_s8_mult__dsp_scratch_bytes(params_of(cs), shape_of(cs));
  TestOp small;
  build(cs, scratch - 4, small);
  EXPECT_EQ(small.check(kDepthwiseConv2dS8MultDspEntry), Status::kBadParams);
  Case one = cs;
  one.m = 1;
  TestOp single;
  build(one, 4096, single);
  EXPECT_EQ(single.check(kDepthwiseConv2dS8MultDspEntry), Status::kBadParams);
  single.set_raw_params(reference_params(one));
  EXPECT_EQ(single.check(kDepthwiseConv2dS8MultDspEntry), Status::kBadParams);
}

TEST(DepthwiseConv2dS8MultDsp, CheckRefusesAMissingOrCorruptArrangedFilter) {
  const Case cs{1, 6, 7, 2, 3, 3, 5, 1, 1, 1, 1, 1, 2, 1, 2, 0, 0, -128, 127,
                true, false, false};
  const uint32_t scratch = depthwise_conv2d_s8_mult__dsp_scratch_bytes(params_of(cs), shape_of(cs));
  TestOp op;
  build(cs, scratch, op);
  ASSERT_EQ(op.check(kDepthwiseConv2dS8MultDspEntry), Status::kOk);
  // The reference's params alone (no arranged filter), and one byte short.
  op.set_raw_params(reference_params(cs));
  EXPECT_EQ(op.check(kDepthwiseConv2dS8MultDspEntry), Status::kBadParams);
  std::vector<uint8_t> bytes = variant_params(cs, filter_of(cs));
  bytes.pop_back();
  op.set_raw_params(bytes);
  EXPECT_EQ(op.check(kDepthwiseConv2dS8MultDspEntry), Status::kBadParams);
  // One arranged tap changed (a real tap, then a padding tap past kernel_w = 5).
  const size_t at = reference_params(cs).size();
  for (const size_t tap : {size_t{0}, size_t{13}, size_t{6}}) {
    bytes = variant_params(cs, filter_of(cs));
    bytes[at + tap] ^= 1;
    op.set_raw_params(bytes);
    EXPECT_EQ(op.check(kDepthwiseConv2dS8MultDspEntry), Status::kBadParams) << tap;
  }
}

TEST(DepthwiseConv2dS8MultDsp, ScratchBytes) {
  // micro_speech: T = 10 * 8 = 80 taps: 160 (widened window) + 80 (int8 window); the
  // arranged filter in the params: 8 rows of 80.
  const Case speech{1, 49, 40, 1, 8, 10, 8, 2, 2, 1, 1, 4, 3, 5, 3, 0, 0, -128, 127,
                    true, false, false};
  EXPECT_EQ(depthwise_conv2d_s8_mult__dsp_scratch_bytes(params_of(speech), shape_of(speech)),
            160u + 80u);
  EXPECT_EQ(depthwise_conv2d_s8_mult__dsp_arranged_bytes(shape_of(speech)), 8u * 80u);
  // 3x3: rows padded to 4, T = 12; 2 channels x 2 outputs.
  const Case k3{1, 6, 6, 2, 2, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, -128, 127, true, false, false};
  EXPECT_EQ(depthwise_conv2d_s8_mult__dsp_scratch_bytes(params_of(k3), shape_of(k3)), 3u * 12u);
  EXPECT_EQ(depthwise_conv2d_s8_mult__dsp_arranged_bytes(shape_of(k3)), 4u * 12u);
}

}  // namespace depthwise_conv2d_mult_dsp_test
}  // namespace mote
