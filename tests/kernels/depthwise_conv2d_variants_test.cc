// The int8 depthwise conv2d __dsp variants against the reference kernel, bit for bit, on
// seeded random geometries, zero points, clamps, multipliers (incl. extreme ones) and
// biases; plus check() refusals of the shapes a variant does not handle.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <vector>

#include "depthwise_conv2d/depthwise_conv2d.h"
#include "kernel_test_util.h"
#include "quant_test_util.h"

namespace mote {
namespace depthwise_conv2d_variants_test {

using testing::Multiplier;
using testing::TestOp;

struct Case {
  uint32_t n, h, w, c, m, kh, kw;
  int32_t stride_h, stride_w, dilation_h, dilation_w;
  int32_t pad_top, pad_left, pad_bottom, pad_right;
  int32_t input_zp, output_zp, act_min, act_max;
  bool bias;
  bool big_bias;
  uint32_t out_h() const {
    return (h + pad_top + pad_bottom - dilation_h * (kh - 1) - 1) / stride_h + 1;
  }
  uint32_t out_w() const {
    return (w + pad_left + pad_right - dilation_w * (kw - 1) - 1) / stride_w + 1;
  }
  uint32_t out_c() const { return c * m; }
};

struct Built {
  TestOp op;
  uint32_t out;
  uint32_t filter = kNoTensor, bias = kNoTensor;
  std::vector<Multiplier> mult;
};

// Random multipliers, with some channels at the edges: shift -31 / 30, multiplier
// INT32_MIN, INT32_MAX, 0, 1 and negative.
std::vector<Multiplier> multipliers_for(uint32_t count, std::mt19937& rng, bool extreme) {
  // Mostly negative shifts (the common case, and what the fast requantization takes).
  auto v = testing::random_multipliers(count, rng(), -12, rng() % 4 == 0 ? 2 : -1);
  if (!extreme) return v;
  const int32_t edge_m[] = {INT32_MIN, INT32_MAX, 0, 1, -(1 << 30), 1 << 30, -12345678};
  const int32_t edge_s[] = {-31, 30, 0, -1, 1, -30, 29, -8};
  for (Multiplier& x : v) {
    if (rng() % 3 == 0) x.multiplier = edge_m[rng() % 7];
    if (rng() % 3 == 0) x.shift = edge_s[rng() % 8];
  }
  return v;
}

DepthwiseConv2dShape shape_of(const Case& cs) {
  return DepthwiseConv2dShape{static_cast<int32_t>(cs.n),       static_cast<int32_t>(cs.h),
                              static_cast<int32_t>(cs.w),       static_cast<int32_t>(cs.c),
                              static_cast<int32_t>(cs.out_h()), static_cast<int32_t>(cs.out_w()),
                              static_cast<int32_t>(cs.out_c()), static_cast<int32_t>(cs.kh),
                              static_cast<int32_t>(cs.kw)};
}

DepthwiseConv2dS8Params params_of(const Case& cs) {
  return DepthwiseConv2dS8Params{cs.stride_h, cs.stride_w, cs.dilation_h, cs.dilation_w,
                                 cs.pad_top, cs.pad_left, cs.pad_bottom, cs.pad_right,
                                 static_cast<int32_t>(cs.m), cs.input_zp, cs.output_zp,
                                 cs.act_min, cs.act_max};
}

uint32_t scratch_for(const Case& cs) {
  return std::max(depthwise_conv2d_s8__dsp_scratch_bytes(params_of(cs), shape_of(cs)),
                  depthwise_conv2d_s8_3x3__dsp_scratch_bytes(params_of(cs), shape_of(cs)));
}

void build(const Case& cs, const std::vector<Multiplier>& mult, uint32_t seed, Built* b,
           int32_t scratch_delta = 0) {
  TestOp& op = b->op;
  const uint32_t in = op.add_input(DType::kInt8, {cs.n, cs.h, cs.w, cs.c});
  const uint32_t filter = op.add_input(DType::kInt8, {1, cs.kh, cs.kw, cs.out_c()});
  uint32_t bias = kNoTensor;
  if (cs.bias) bias = op.add_input(DType::kInt32, {cs.out_c()});
  b->out = op.add_output(DType::kInt8, {cs.n, cs.out_h(), cs.out_w(), cs.out_c()});
  b->filter = filter;
  b->bias = bias;
  b->mult = mult;
  op.set_raw_params(testing::params_bytes(params_of(cs), mult));
  op.set_data(in, testing::random_full_range<int8_t>(size_t{cs.n} * cs.h * cs.w * cs.c, seed));
  op.set_data(filter,
              testing::random_full_range<int8_t>(size_t{cs.kh} * cs.kw * cs.out_c(), seed + 1));
  if (cs.bias) {
    op.set_data(bias, cs.big_bias ? testing::random_full_range<int32_t>(cs.out_c(), seed + 2)
                                  : testing::random_ints<int32_t>(cs.out_c(), seed + 2, -30000,
                                                                  30000));
  }
  op.add_scratch(static_cast<uint32_t>(static_cast<int32_t>(scratch_for(cs)) + scratch_delta));
}

// The 3x3 variant's params: the reference's bytes, then its table computed from the op's
// filter, bias and multipliers.
std::vector<uint8_t> params_with_table(const Case& cs, Built& b) {
  std::vector<uint8_t> bytes = testing::params_bytes(params_of(cs), b.mult);
  const size_t reference_bytes = bytes.size();
  std::vector<int32_t> multipliers, shifts;
  for (const Multiplier& m : b.mult) {
    multipliers.push_back(m.multiplier);
    shifts.push_back(m.shift);
  }
  const auto filter = b.op.data<int8_t>(b.filter);
  std::vector<int32_t> bias;
  if (b.bias != kNoTensor) bias = b.op.data<int32_t>(b.bias);
  const auto channels = static_cast<int32_t>(cs.out_c());
  std::vector<uint32_t> table((depthwise_conv2d_s8_3x3__dsp_table_bytes(channels) + 3) / 4);
  depthwise_conv2d_s8_3x3__dsp_make_table(params_of(cs), multipliers.data(), shifts.data(),
                                          b.bias != kNoTensor ? bias.data() : nullptr,
                                          filter.data(), channels, table.data());
  bytes.resize(reference_bytes + depthwise_conv2d_s8_3x3__dsp_table_bytes(channels));
  std::memcpy(bytes.data() + reference_bytes, table.data(), bytes.size() - reference_bytes);
  return bytes;
}

// A random valid geometry; kernel3x3 restricts to what the 3x3 variant takes.
Case random_case(std::mt19937& rng, bool kernel3x3) {
  auto u = [&](int lo, int hi) { return static_cast<int32_t>(lo + rng() % (hi - lo + 1)); };
  for (;;) {
    Case cs{};
    cs.n = u(1, 3) == 3 ? 2 : 1;
    cs.h = u(1, 11);
    cs.w = u(1, 13);
    cs.c = u(1, 4) == 1 ? u(1, 7) : u(1, 21);
    cs.m = 1;
    cs.kh = kernel3x3 ? 3 : u(1, 5);
    cs.kw = kernel3x3 ? 3 : u(1, 5);
    cs.stride_h = u(1, 3);
    cs.stride_w = u(1, 3);
    cs.dilation_h = kernel3x3 ? 1 : u(1, 3);
    cs.dilation_w = kernel3x3 ? 1 : u(1, 3);
    cs.pad_top = u(0, 2);
    cs.pad_left = u(0, 2);
    cs.pad_bottom = u(0, 2);
    cs.pad_right = u(0, 2);
    if (static_cast<int32_t>(cs.h) + cs.pad_top + cs.pad_bottom <
            cs.dilation_h * (static_cast<int32_t>(cs.kh) - 1) + 1 ||
        static_cast<int32_t>(cs.w) + cs.pad_left + cs.pad_right <
            cs.dilation_w * (static_cast<int32_t>(cs.kw) - 1) + 1) {
      continue;
    }
    cs.input_zp = u(-128, 127);
    cs.output_zp = u(-128, 127);
    cs.act_min = u(0, 3) == 0 ? u(-128, 0) : -128;
    cs.act_max = u(0, 3) == 0 ? u(cs.act_min, 127) : 127;
    cs.bias = u(0, 4) != 0;
    cs.big_bias = u(0, 5) == 0;
    return cs;
  }
}

// Runs the reference and the variant on the same op with these multipliers; true when
// they agree.
void expect_same_with(const Case& cs, const KernelEntry& variant, uint32_t seed,
                      const std::vector<Multiplier>& mult) {
  Built b;
  build(cs, mult, seed, &b);
  ASSERT_EQ(b.op.check(kDepthwiseConv2dS8Entry), Status::kOk);
  b.op.run(kDepthwiseConv2dS8Entry);
  const auto expected = b.op.data<int8_t>(b.out);
  b.op.set_data(b.out, std::vector<int8_t>(expected.size(), 0x55));
  if (&variant == &kDepthwiseConv2dS83x3DspEntry) b.op.set_raw_params(params_with_table(cs, b));
  ASSERT_EQ(b.op.check(variant), Status::kOk);
  b.op.run(variant);
  const auto actual = b.op.data<int8_t>(b.out);
  ASSERT_EQ(expected.size(), actual.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    ASSERT_EQ(expected[i], actual[i])
        << "element " << i << " seed " << seed << " n" << cs.n << " h" << cs.h << " w" << cs.w
        << " c" << cs.c << " k" << cs.kh << "x" << cs.kw << " s" << cs.stride_h << ","
        << cs.stride_w << " d" << cs.dilation_h << "," << cs.dilation_w << " pad "
        << cs.pad_top << cs.pad_left << cs.pad_bottom << cs.pad_right;
  }
}

void expect_same(const Case& cs, const KernelEntry& variant, uint32_t seed, bool extreme) {
  std::mt19937 rng(seed);
  expect_same_with(cs, variant, seed, multipliers_for(cs.out_c(), rng, extreme));
}

TEST(DepthwiseConv2dS8Dsp3x3, MatchesReferenceOnRandomCases) {
  std::mt19937 rng(1234);
  for (uint32_t i = 0; i < 400; ++i) {
    const Case cs = random_case(rng, true);
    expect_same(cs, kDepthwiseConv2dS83x3DspEntry, 1000 + i, i % 4 == 3);
    if (HasFatalFailure()) return;
  }
}

TEST(DepthwiseConv2dS8Dsp, MatchesReferenceOnRandomCases) {
  std::mt19937 rng(5678);
  for (uint32_t i = 0; i < 400; ++i) {
    const Case cs = random_case(rng, false);
    expect_same(cs, kDepthwiseConv2dS8DspEntry, 9000 + i, i % 4 == 3);
    if (HasFatalFailure()) return;
  }
}

TEST(DepthwiseConv2dS8Dsp, MatchesReferenceOnModelShapes) {
  // vww-like (stride 1 and 2, pad same) and kws-like shapes, all channels multiple of 4
  // plus odd tails.
  const Case shapes[] = {
      {1, 48, 48, 8, 1, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, -128, -128, -128, 127, true, false},
      {1, 24, 24, 16, 1, 3, 3, 2, 2, 1, 1, 0, 0, 1, 1, 3, -5, -128, 127, true, false},
      {1, 3, 3, 256, 1, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, -7, 9, -20, 100, true, false},
      {1, 25, 5, 64, 1, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 12, -3, -128, 127, true, false},
      {2, 7, 9, 13, 1, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 127, 127, -128, 127, false, false},
  };
  uint32_t seed = 77;
  for (const Case& cs : shapes) {
    expect_same(cs, kDepthwiseConv2dS83x3DspEntry, seed++, false);
    expect_same(cs, kDepthwiseConv2dS8DspEntry, seed++, false);
    if (HasFatalFailure()) return;
  }
}

// The 3x3 variant's fast path (horizontal stride 1 or 2, negative shifts, multipliers
// above 2^30) at every input width from 1 to 29 (twelve outputs as two sixes, four at a
// time, five or six at the end, the remainders; with and without the requantization's
// sign correction), on the vww / kws depthwise shapes, with clamps on and off and channel
// counts off multiples of four, right shifts up to 30; then the requantizations that leave
// the quick bound test (the common table's proof admits them) or the fast path: a
// multiplier of exactly 2^30 or a non-negative shift (the tap-by-tap path).
TEST(DepthwiseConv2dS8Dsp3x3, MatchesReferenceOnFastPathShapes) {
  std::mt19937 rng(31337);
  auto fast = [&](uint32_t count, int32_t shift_lo) {
    return testing::random_multipliers(count, rng(), shift_lo, -1);
  };
  uint32_t seed = 500;
  for (int32_t stride = 1; stride <= 2; ++stride) {
    for (uint32_t w = 1; w <= 29; ++w) {
      for (int32_t pad = 0; pad <= 1; ++pad) {
        Case cs{1, 4, w, 4 + w % 6, 1, 3, 3, stride, stride, 1, 1, pad, pad, pad, pad,
                static_cast<int32_t>(w * 9 % 256) - 128, 5 - static_cast<int32_t>(w), -128, 127,
                w % 5 != 0, false};
        if (static_cast<int32_t>(w) + 2 * pad < 3) continue;
        if (w % 3 == 0) {
          cs.act_min = -100;
          cs.act_max = 90;
        } else if (w % 3 == 1) {  // ReLU-like: act_min >= output zero point (no sign fix)
          cs.act_min = cs.output_zp + 3 * pad;
        } else if (pad == 1) {  // act_min == output zero point == -128: no clamp, no sign fix
          cs.output_zp = -128;
        }
        expect_same_with(cs, kDepthwiseConv2dS83x3DspEntry, seed++, fast(cs.out_c(), -12));
        if (HasFatalFailure()) return;
      }
    }
  }
  const Case shapes[] = {
      {1, 48, 48, 8, 1, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, -128, -128, -128, 127, true, false},
      {1, 48, 48, 16, 1, 3, 3, 2, 2, 1, 1, 0, 0, 1, 1, -128, -128, -128, 127, true, false},
      {1, 24, 24, 32, 1, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, -128, -128, -128, 127, true, false},
      {1, 24, 24, 32, 1, 3, 3, 2, 2, 1, 1, 0, 0, 1, 1, -128, -128, -128, 127, true, false},
      {1, 12, 12, 64, 1, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, -128, -128, -128, 127, true, false},
      {1, 12, 12, 64, 1, 3, 3, 2, 2, 1, 1, 0, 0, 1, 1, -128, -128, -128, 127, true, false},
      {1, 6, 6, 128, 1, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, -128, -128, -128, 127, true, false},
      {1, 6, 6, 128, 1, 3, 3, 2, 2, 1, 1, 0, 0, 1, 1, -128, -128, -128, 127, true, false},
      {1, 3, 3, 256, 1, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, -128, -128, -128, 127, true, false},
      {1, 25, 5, 64, 1, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 12, -3, -128, 127, true, false},
      {2, 9, 14, 13, 1, 3, 3, 3, 1, 1, 1, 2, 1, 0, 2, 127, 127, -128, 127, true, false},
      {1, 7, 10, 6, 1, 3, 3, 1, 2, 1, 1, 1, 2, 2, 0, -128, 127, -30, 127, false, false},
  };
  for (const Case& cs : shapes) {
    expect_same_with(cs, kDepthwiseConv2dS83x3DspEntry, seed++, fast(cs.out_c(), -12));
    if (HasFatalFailure()) return;
  }
  // Large right shifts: with output zero point 0 the quick bound test admits up to 30.
  for (Case cs : {shapes[6], shapes[9], shapes[10]}) {
    cs.output_zp = 0;
    expect_same_with(cs, kDepthwiseConv2dS83x3DspEntry, seed++,
                     testing::random_multipliers(cs.out_c(), rng(), -30, -22));
    if (HasFatalFailure()) return;
  }
  // Leaving the fast path: shifts down to -31, then one channel's multiplier at 2^30 or
  // its shift at 0 or +1.
  for (const Case& cs : {shapes[6], shapes[9], shapes[10]}) {
    expect_same_with(cs, kDepthwiseConv2dS83x3DspEntry, seed++, fast(cs.out_c(), -31));
    auto mult = fast(cs.out_c(), -12);
    mult[cs.out_c() / 2].multiplier = 1 << 30;
    expect_same_with(cs, kDepthwiseConv2dS83x3DspEntry, seed++, mult);
    mult = fast(cs.out_c(), -12);
    mult[cs.out_c() - 1].shift = static_cast<int32_t>(seed % 2);
    expect_same_with(cs, kDepthwiseConv2dS83x3DspEntry, seed++, mult);
    if (HasFatalFailure()) return;
  }
}

TEST(DepthwiseConv2dS8Dsp, ChecksRefuseUnsupportedShapes) {
  std::mt19937 rng(42);
  // Depth multiplier 2: both refuse; the reference accepts.
  Case cs{1, 5, 5, 3, 2, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, -128, 127, true, false};
  {
    Built b;
    build(cs, multipliers_for(cs.out_c(), rng, false), 1, &b);
    EXPECT_EQ(b.op.check(kDepthwiseConv2dS8Entry), Status::kOk);
    EXPECT_EQ(b.op.check(kDepthwiseConv2dS8DspEntry), Status::kBadParams);
    EXPECT_EQ(b.op.check(kDepthwiseConv2dS83x3DspEntry), Status::kBadParams);
  }
  // 5x5 and dilated 3x3: the 3x3 variant refuses, the general one accepts.
  Case k5{1, 6, 6, 4, 1, 5, 5, 1, 1, 1, 1, 2, 2, 2, 2, 0, 0, -128, 127, true, false};
  Case dil{1, 6, 6, 4, 1, 3, 3, 1, 1, 2, 2, 2, 2, 2, 2, 0, 0, -128, 127, true, false};
  for (const Case& c : {k5, dil}) {
    Built b;
    build(c, multipliers_for(c.out_c(), rng, false), 2, &b);
    EXPECT_EQ(b.op.check(kDepthwiseConv2dS8DspEntry), Status::kOk);
    EXPECT_EQ(b.op.check(kDepthwiseConv2dS83x3DspEntry), Status::kBadParams);
  }
  // Too little scratch: both refuse.
  for (const Case& c : {k5, dil}) {
    const int32_t short_by =
        static_cast<int32_t>(depthwise_conv2d_s8__dsp_scratch_bytes(params_of(c), shape_of(c))) -
        static_cast<int32_t>(scratch_for(c)) - 4;
    Built b;
    build(c, multipliers_for(c.out_c(), rng, false), 4, &b, short_by);
    EXPECT_EQ(b.op.check(kDepthwiseConv2dS8DspEntry), Status::kBadParams);
  }
  {
    Case k3 = k5;
    k3.kh = k3.kw = 3;
    Built b;
    build(k3, multipliers_for(k3.out_c(), rng, false), 5, &b, -4);
    b.op.set_raw_params(params_with_table(k3, b));
    EXPECT_EQ(b.op.check(kDepthwiseConv2dS83x3DspEntry), Status::kBadParams);
    Built ok;
    build(k3, multipliers_for(k3.out_c(), rng, false), 5, &ok);
    ok.op.set_raw_params(params_with_table(k3, ok));
    EXPECT_EQ(ok.op.check(kDepthwiseConv2dS83x3DspEntry), Status::kOk);
  }
  // What the reference refuses, the variants refuse too (output zero point out of int8).
  Case bad = k5;
  bad.output_zp = 300;
  Built b;
  build(bad, multipliers_for(bad.out_c(), rng, false), 3, &b);
  EXPECT_EQ(b.op.check(kDepthwiseConv2dS8DspEntry), Status::kBadParams);
}

// The 3x3 variant's table in its params: check() refuses a missing, short or long table
// and any byte that differs from the table computed from the filter, bias and
// requantization (flag, filter pairs, bias, constants, zero-point row, padding), and a
// table computed for another filter; on the general path (flag 0) any non-zero byte.
TEST(DepthwiseConv2dS8Dsp3x3, CheckRefusesABadTable) {
  std::mt19937 rng(2024);
  const Case cs{1, 6, 7, 6, 1, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, -5, 3, -128, 127, true, false};
  for (bool fast : {true, false}) {
    auto mult = testing::random_multipliers(cs.out_c(), rng(), -12, -1);
    if (!fast) mult[2].multiplier = 1 << 30;  // leaves the fast path: the table is zeros
    Built b;
    build(cs, mult, 11, &b);
    const std::vector<uint8_t> good = params_with_table(cs, b);
    const size_t reference_bytes = testing::params_bytes(params_of(cs), mult).size();
    const uint32_t table_bytes =
        depthwise_conv2d_s8_3x3__dsp_table_bytes(static_cast<int32_t>(cs.out_c()));
    ASSERT_EQ(good.size(), reference_bytes + table_bytes);
    EXPECT_EQ(good[reference_bytes], fast ? 1 : 0);
    b.op.set_raw_params(good);
    ASSERT_EQ(b.op.check(kDepthwiseConv2dS83x3DspEntry), Status::kOk);
    // Missing, short by one word or one byte, one word too long.
    for (size_t size : {reference_bytes, good.size() - 4, good.size() - 1, good.size() + 4}) {
      std::vector<uint8_t> bad = good;
      bad.resize(size, 0);
      b.op.set_raw_params(bad);
      EXPECT_EQ(b.op.check(kDepthwiseConv2dS83x3DspEntry), Status::kBadParams) << size;
    }
    // Every single table byte changed (flag, entries, zero points and their padding).
    for (size_t i = reference_bytes; i < good.size(); ++i) {
      std::vector<uint8_t> bad = good;
      bad[i] ^= static_cast<uint8_t>(1u << (i % 8));
      b.op.set_raw_params(bad);
      ASSERT_EQ(b.op.check(kDepthwiseConv2dS83x3DspEntry), Status::kBadParams) << i;
    }
    b.op.set_raw_params(good);
    ASSERT_EQ(b.op.check(kDepthwiseConv2dS83x3DspEntry), Status::kOk);
    if (fast) {
      // The table of another filter, and of another bias.
      auto filter = b.op.data<int8_t>(b.filter);
      filter[4] = static_cast<int8_t>(filter[4] ^ 1);
      b.op.set_data(b.filter, filter);
      EXPECT_EQ(b.op.check(kDepthwiseConv2dS83x3DspEntry), Status::kBadParams);
      filter[4] = static_cast<int8_t>(filter[4] ^ 1);
      b.op.set_data(b.filter, filter);
      ASSERT_EQ(b.op.check(kDepthwiseConv2dS83x3DspEntry), Status::kOk);
      auto bias = b.op.data<int32_t>(b.bias);
      bias[1] += 1;
      b.op.set_data(b.bias, bias);
      EXPECT_EQ(b.op.check(kDepthwiseConv2dS83x3DspEntry), Status::kBadParams);
    }
  }
}

}  // namespace depthwise_conv2d_variants_test
}  // namespace mote
