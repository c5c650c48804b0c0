// depthwise_conv2d_s8__mve against the reference depthwise_conv2d_s8, bit for bit, on
// seeded random cases (through the portable kernels/isa/mve.h on the host), plus its
// check() rejections.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "depthwise_conv2d/depthwise_conv2d.h"
#include "isa/mve.h"
#include "kernel_test_util.h"

namespace mote {
namespace depthwise_conv2d_mve_test {

using testing::TestOp;

struct Case {
  uint32_t n, h, w, c;
  uint32_t kh, kw;
  DepthwiseConv2dS8Params p;
  bool bias;
  uint32_t out_h() const {
    return (h + p.window.pad_top + p.window.pad_bottom - p.window.dilation_h * (kh - 1) - 1) / p.window.stride_h + 1;
  }
  uint32_t out_w() const {
    return (w + p.window.pad_left + p.window.pad_right - p.window.dilation_w * (kw - 1) - 1) / p.window.stride_w + 1;
  }
};

struct Op {
  TestOp op;
  uint32_t out;
};

// Builds the op (same tensors and params for both kernels) with random data.
void build(const Case& cs, std::mt19937& rng, Op* o, const std::vector<int32_t>& multipliers,
           const std::vector<int32_t>& shifts, uint32_t scratch) {
  TestOp& op = o->op;
  const uint32_t oc = cs.c * static_cast<uint32_t>(cs.p.depth_multiplier);
  const uint32_t in = op.add_input(DType::kInt8, {cs.n, cs.h, cs.w, cs.c});
  const uint32_t filter = op.add_input(DType::kInt8, {1, cs.kh, cs.kw, oc});
  uint32_t bias = 0;
  if (cs.bias) {
    bias = op.add_input(DType::kInt32, {oc});
  } else {
    op.add_missing_input();
  }
  o->out = op.add_output(DType::kInt8, {cs.n, cs.out_h(), cs.out_w(), oc});
  if (scratch != 0) op.add_scratch(scratch);
  std::vector<uint8_t> bytes(sizeof(DepthwiseConv2dS8Params) + 8 * oc);
  memcpy(bytes.data(), &cs.p, sizeof cs.p);
  memcpy(bytes.data() + sizeof cs.p, multipliers.data(), 4 * oc);
  memcpy(bytes.data() + sizeof cs.p + 4 * oc, shifts.data(), 4 * oc);
  op.set_raw_params(bytes);
  std::uniform_int_distribution<int> byte(-128, 127);
  std::vector<int8_t> x(testing::product({cs.n, cs.h, cs.w, cs.c}));
  for (int8_t& v : x) v = static_cast<int8_t>(byte(rng));
  std::vector<int8_t> f(testing::product({cs.kh, cs.kw, oc}));
  for (int8_t& v : f) v = static_cast<int8_t>(byte(rng));
  // Some cases use the extreme values only, to reach the largest sums.
  if (rng() % 8 == 0) {
    for (int8_t& v : x) v = rng() % 2 ? int8_t{-128} : int8_t{127};
    for (int8_t& v : f) v = rng() % 2 ? int8_t{-128} : int8_t{127};
  }
  op.set_data(in, x);
  op.set_data(filter, f);
  if (cs.bias) {
    std::vector<int32_t> b(oc);
    for (int32_t& v : b) {
      const uint32_t kind = rng() % 4;
      v = kind == 0 ? static_cast<int32_t>(rng())  // full range: the sum wraps
                    : std::uniform_int_distribution<int32_t>(-100000, 100000)(rng);
    }
    op.set_data(bias, b);
  }
}

Case random_case(std::mt19937& rng) {
  auto uni = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  Case cs{};
  cs.n = static_cast<uint32_t>(uni(1, 2));
  cs.c = static_cast<uint32_t>(uni(1, 33));
  cs.kh = static_cast<uint32_t>(uni(1, 5));
  cs.kw = static_cast<uint32_t>(uni(1, 5));
  DepthwiseConv2dS8Params& p = cs.p;
  p.window.stride_h = uni(1, 3);
  p.window.stride_w = uni(1, 3);
  p.window.dilation_h = uni(1, 4) == 4 ? 2 : 1;
  p.window.dilation_w = uni(1, 4) == 4 ? 3 : 1;
  const int32_t span_h = p.window.dilation_h * (static_cast<int32_t>(cs.kh) - 1) + 1;
  const int32_t span_w = p.window.dilation_w * (static_cast<int32_t>(cs.kw) - 1) + 1;
  p.window.pad_top = uni(0, span_h - 1);
  p.window.pad_bottom = uni(0, span_h - 1);
  p.window.pad_left = uni(0, span_w - 1);
  p.window.pad_right = uni(0, span_w - 1);
  // The padded input holds at least one window.
  const int32_t min_h = std::max(1, span_h - p.window.pad_top - p.window.pad_bottom);
  const int32_t min_w = std::max(1, span_w - p.window.pad_left - p.window.pad_right);
  cs.h = static_cast<uint32_t>(uni(min_h, min_h + 9));
  cs.w = static_cast<uint32_t>(uni(min_w, min_w + 13));
  p.depth_multiplier = 1;
  p.input_zero_point = uni(-128, 127);
  p.output_zero_point = uni(-128, 127);
  p.act_min = uni(-128, 20);
  p.act_max = uni(p.act_min, 127);
  if (uni(0, 2) == 0) {
    p.act_min = -128;
    p.act_max = 127;
  }
  cs.bias = uni(0, 4) != 0;
  return cs;
}

void random_quant(std::mt19937& rng, uint32_t oc, std::vector<int32_t>* multipliers,
                  std::vector<int32_t>* shifts) {
  multipliers->resize(oc);
  shifts->resize(oc);
  for (uint32_t i = 0; i < oc; ++i) {
    const uint32_t kind = rng() % 8;
    int32_t m = static_cast<int32_t>((1u << 30) + rng() % (1u << 30));
    if (kind == 0) m = INT32_MAX;
    if (kind == 1) m = 1 << 30;
    if (kind == 2) m = static_cast<int32_t>(rng() % 1000);  // tiny or 0
    if (kind == 3) m = INT32_MIN;                            // the saturating case
    (*multipliers)[i] = m;
    const uint32_t skind = rng() % 6;
    int32_t s = -static_cast<int32_t>(rng() % 14);
    if (skind == 0) s = static_cast<int32_t>(rng() % 31) - 31 + static_cast<int32_t>(rng() % 31);
    if (skind == 1) s = -31;
    if (skind == 2) s = static_cast<int32_t>(rng() % 4);
    if (skind == 3) s = 30;
    (*shifts)[i] = s;
  }
}

// negative_shifts: every shift in [-31, -1] (the requantization without left shifts).
void expect_same(const Case& cs, uint32_t seed, bool negative_shifts = false) {
  std::vector<int32_t> multipliers, shifts;
  std::mt19937 qrng(seed * 7 + 1);
  random_quant(qrng, cs.c, &multipliers, &shifts);
  if (negative_shifts) {
    for (int32_t& s : shifts) s = s < 0 ? s : -1 - static_cast<int32_t>(qrng() % 31);
  }
  DepthwiseConv2dShape shape{};
  shape.batch = static_cast<int32_t>(cs.n);
  shape.in_h = static_cast<int32_t>(cs.h);
  shape.in_w = static_cast<int32_t>(cs.w);
  shape.in_c = static_cast<int32_t>(cs.c);
  shape.out_h = static_cast<int32_t>(cs.out_h());
  shape.out_w = static_cast<int32_t>(cs.out_w());
  shape.out_c = static_cast<int32_t>(cs.c);
  shape.kernel_h = static_cast<int32_t>(cs.kh);
  shape.kernel_w = static_cast<int32_t>(cs.kw);
  const uint32_t scratch = depthwise_conv2d_s8__mve_scratch_bytes(cs.p, shape);

  Op ref, mve;
  std::mt19937 rng_a(seed), rng_b(seed);
  build(cs, rng_a, &ref, multipliers, shifts, 0);
  build(cs, rng_b, &mve, multipliers, shifts, scratch);
  ASSERT_EQ(ref.op.check(kDepthwiseConv2dS8Entry), Status::kOk) << "seed " << seed;
  ASSERT_EQ(mve.op.check(kDepthwiseConv2dS8MveEntry), Status::kOk) << "seed " << seed;
  ref.op.run(kDepthwiseConv2dS8Entry);
  mve.op.run(kDepthwiseConv2dS8MveEntry);
  const auto expected = ref.op.data<int8_t>(ref.out);
  const auto actual = mve.op.data<int8_t>(mve.out);
  ASSERT_EQ(expected.size(), actual.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    ASSERT_EQ(expected[i], actual[i])
        << "seed " << seed << " element " << i << " (n=" << cs.n << " h=" << cs.h
        << " w=" << cs.w << " c=" << cs.c << " k=" << cs.kh << "x" << cs.kw << " s="
        << cs.p.window.stride_h << "," << cs.p.window.stride_w << " d=" << cs.p.window.dilation_h << ","
        << cs.p.window.dilation_w << ")";
  }
}

TEST(DepthwiseConv2dS8Mve, MatchesReferenceOnRandomCases) {
  EXPECT_EQ(MOTE_HAS_MVE, 0) << "host build uses the portable definitions";
  for (uint32_t seed = 1; seed <= 600; ++seed) {
    std::mt19937 rng(seed);
    const Case cs = random_case(rng);
    expect_same(cs, seed);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST(DepthwiseConv2dS8Mve, EveryChannelTail) {
  for (uint32_t c = 1; c <= 33; ++c) {
    Case cs{};
    cs.n = 2;
    cs.h = 7;
    cs.w = 9;  // 9 output pixels: two blocks of 4 and one single
    cs.c = c;
    cs.kh = 3;
    cs.kw = 3;
    cs.p = DepthwiseConv2dS8Params{1, 1, 1, 1, 1, 1, 1, 1, 1, -7, 5, -128, 127};
    cs.bias = true;
    expect_same(cs, 1000 + c);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST(DepthwiseConv2dS8Mve, Stride2SamePaddingAndValid) {
  const DepthwiseConv2dS8Params same{2, 2, 1, 1, 0, 0, 1, 1, 1, 128 - 256, -128, -128, 127};
  const DepthwiseConv2dS8Params valid{1, 1, 1, 1, 0, 0, 0, 0, 1, 127, 127, -100, 100};
  for (uint32_t seed = 0; seed < 20; ++seed) {
    Case cs{2, 12, 12, 16 + seed, 3, 3, seed % 2 ? same : valid, seed % 3 != 0};
    expect_same(cs, 2000 + seed);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

// The 3x3 path (dilation 1, stride_w 1 or 2, channels a multiple of 4): every count of
// pixels left over by the 4-pixel blocks, paddings 0..2, stride_h 1..3, batch 2, both
// requantizations (with and without left shifts).
TEST(DepthwiseConv2dS8Mve, ThreeByThreePath) {
  std::mt19937 rng(77);
  auto uni = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (uint32_t seed = 0; seed < 400; ++seed) {
    Case cs{};
    cs.n = static_cast<uint32_t>(uni(1, 2));
    cs.c = 4 * static_cast<uint32_t>(uni(1, seed % 4 == 0 ? 20 : 6));
    cs.kh = 3;
    cs.kw = 3;
    DepthwiseConv2dS8Params& p = cs.p;
    p.window.stride_h = uni(1, 3);
    p.window.stride_w = uni(1, 2);
    p.window.dilation_h = 1;
    p.window.dilation_w = 1;
    p.window.pad_top = uni(0, 2);
    p.window.pad_bottom = uni(0, 2);
    p.window.pad_left = uni(0, 2);
    p.window.pad_right = uni(0, 2);
    const int32_t min_h = std::max(1, 3 - p.window.pad_top - p.window.pad_bottom);
    const int32_t min_w = std::max(1, 3 - p.window.pad_left - p.window.pad_right);
    cs.h = static_cast<uint32_t>(uni(min_h, min_h + 7));
    cs.w = static_cast<uint32_t>(uni(min_w, min_w + 19));
    p.depth_multiplier = 1;
    p.input_zero_point = uni(-128, 127);
    p.output_zero_point = uni(-128, 127);
    p.act_min = uni(-128, 20);
    p.act_max = uni(p.act_min, 127);
    if (uni(0, 2) == 0) {
      p.act_min = -128;
      p.act_max = 127;
    }
    cs.bias = uni(0, 4) != 0;
    expect_same(cs, 3000 + seed, seed % 2 == 0);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

// The MobileNet shapes of vww_96_int8 and kws_ref_model (same padding, all shifts negative).
TEST(DepthwiseConv2dS8Mve, ModelShapes) {
  struct Shape {
    uint32_t h, w, c, stride;
  };
  const Shape shapes[] = {{48, 48, 8, 1}, {48, 48, 16, 2}, {24, 24, 32, 1}, {24, 24, 32, 2},
                          {12, 12, 64, 1}, {12, 12, 64, 2}, {6, 6, 128, 1}, {6, 6, 128, 2},
                          {3, 3, 256, 1}, {25, 5, 64, 1}};
  uint32_t seed = 4000;
  for (const Shape& sh : shapes) {
    const int32_t s = static_cast<int32_t>(sh.stride);
    const DepthwiseConv2dS8Params p{s, s, 1, 1, s == 1 ? 1 : 0, s == 1 ? 1 : 0, 1, 1, 1, -128, -128, -128, 127};
    Case cs{1, sh.h, sh.w, sh.c, 3, 3, p, true};
    expect_same(cs, ++seed, true);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST(DepthwiseConv2dS8Mve, CheckRejects) {
  Case cs{1, 5, 5, 8, 3, 3, DepthwiseConv2dS8Params{1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, -128, 127},
          true};
  DepthwiseConv2dShape shape{1, 5, 5, 8, 5, 5, 8, 3, 3};
  const uint32_t scratch = depthwise_conv2d_s8__mve_scratch_bytes(cs.p, shape);
  std::vector<int32_t> multipliers(8, 1 << 30), shifts(8, -1);
  {
    Op o;
    std::mt19937 rng(1);
    build(cs, rng, &o, multipliers, shifts, scratch);
    EXPECT_EQ(o.op.check(kDepthwiseConv2dS8MveEntry), Status::kOk);
  }
  {  // scratch one byte short
    Op o;
    std::mt19937 rng(1);
    build(cs, rng, &o, multipliers, shifts, scratch - 1);
    EXPECT_EQ(o.op.check(kDepthwiseConv2dS8MveEntry), Status::kBadParams);
  }
  {  // depth multiplier 2
    Case c2 = cs;
    c2.c = 4;
    c2.p.depth_multiplier = 2;
    Op o;
    std::mt19937 rng(1);
    build(c2, rng, &o, multipliers, shifts, scratch);
    EXPECT_EQ(o.op.check(kDepthwiseConv2dS8Entry), Status::kOk);
    EXPECT_EQ(o.op.check(kDepthwiseConv2dS8MveEntry), Status::kBadParams);
  }
  {  // a shift out of range (as the reference)
    std::vector<int32_t> bad = shifts;
    bad[3] = 31;
    Op o;
    std::mt19937 rng(1);
    build(cs, rng, &o, multipliers, bad, scratch);
    EXPECT_EQ(o.op.check(kDepthwiseConv2dS8MveEntry), Status::kBadParams);
  }
}

}  // namespace depthwise_conv2d_mve_test
}  // namespace mote
