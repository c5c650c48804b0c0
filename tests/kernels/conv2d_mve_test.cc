// The Helium int8 convolution variants (conv2d_s8_1x1__mve, conv2d_s8__mve) against the
// reference conv2d_s8, bit for bit, on seeded random shapes (channel tails 1..17 and
// beyond, strides, dilation, padding, batch 2, zero points, clamps, extreme shifts and
// wrapping accumulators), plus their check() rejections and the vector requantization
// (quant/quant_math_mve.h) against multiply_by_quantized_multiplier. On the host this runs
// the portable definitions of kernels/isa/mve.h.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "conv2d/conv2d.h"
#include "isa/mve.h"
#include "kernel_test_util.h"
#include "quant/quant_math.h"
#include "quant/quant_math_mve.h"
#include "quant_test_util.h"

namespace mote {
namespace conv2d_mve_test {

using testing::Multiplier;

struct Case {
  Conv2dS8Params p;
  Conv2dShape shape;
  bool bias;
};

struct Data {
  std::vector<int8_t> input, filter;
  std::vector<int32_t> bias, multipliers, shifts;
};

int32_t out_size(int32_t in, int32_t k, int32_t stride, int32_t dilation, int32_t pad_lo,
                 int32_t pad_hi) {
  const int32_t eff = dilation * (k - 1) + 1;
  return (in + pad_lo + pad_hi - eff) / stride + 1;
}

// A random valid case; one_by_one: kernel 1x1 without padding.
Case random_case(std::mt19937& rng, bool one_by_one) {
  auto uni = [&](int32_t lo, int32_t hi) {
    return std::uniform_int_distribution<int32_t>(lo, hi)(rng);
  };
  Case c{};
  Conv2dS8Params& p = c.p;
  Conv2dShape& s = c.shape;
  for (;;) {
    s.batch = uni(1, 2);
    s.in_h = uni(1, 9);
    s.in_w = uni(1, 9);
    s.in_c = uni(0, 3) == 0 ? uni(1, 17) : uni(1, 70);
    s.out_c = uni(0, 2) == 0 ? uni(1, 17) : uni(1, 40);
    s.kernel_h = one_by_one ? 1 : uni(1, 4);
    s.kernel_w = one_by_one ? 1 : uni(1, 4);
    p.window.stride_h = uni(1, 3);
    p.window.stride_w = uni(1, 3);
    p.window.dilation_h = uni(0, 3) == 0 ? 2 : 1;
    p.window.dilation_w = uni(0, 3) == 0 ? 2 : 1;
    p.window.pad_top = one_by_one ? 0 : uni(0, 2);
    p.window.pad_bottom = one_by_one ? 0 : uni(0, 2);
    p.window.pad_left = one_by_one ? 0 : uni(0, 2);
    p.window.pad_right = one_by_one ? 0 : uni(0, 2);
    p.groups = 1;
    s.out_h = out_size(s.in_h, s.kernel_h, p.window.stride_h, p.window.dilation_h, p.window.pad_top, p.window.pad_bottom);
    s.out_w = out_size(s.in_w, s.kernel_w, p.window.stride_w, p.window.dilation_w, p.window.pad_left, p.window.pad_right);
    if (s.out_h >= 1 && s.out_w >= 1) break;
  }
  p.input_zero_point = uni(0, 4) == 0 ? 0 : uni(-128, 127);
  p.output_zero_point = uni(-128, 127);
  p.act_min = -128;
  p.act_max = 127;
  if (uni(0, 2) == 0) {
    p.act_min = uni(-128, 127);
    p.act_max = uni(p.act_min, 127);
  }
  c.bias = uni(0, 3) != 0;
  return c;
}

Data random_data(const Case& c, std::mt19937& rng) {
  const Conv2dShape& s = c.shape;
  Data d;
  const uint32_t seed = rng();
  d.input = testing::random_full_range<int8_t>(
      size_t(s.batch) * s.in_h * s.in_w * s.in_c, seed);
  d.filter = testing::random_full_range<int8_t>(
      size_t(s.out_c) * s.kernel_h * s.kernel_w * s.in_c, seed + 1);
  // Mostly moderate biases; sometimes near the int32 limits so the sum wraps.
  const bool huge = rng() % 5 == 0;
  d.bias = testing::random_ints<int32_t>(s.out_c, seed + 2, huge ? INT32_MIN : -40000,
                                         huge ? INT32_MAX : 40000);
  const bool extreme = rng() % 5 == 0;
  const auto m = testing::random_multipliers(s.out_c, seed + 3, extreme ? kMinShift : -12,
                                             extreme ? kMaxShift : 1);
  for (const Multiplier& x : m) {
    d.multipliers.push_back(x.multiplier);
    d.shifts.push_back(x.shift);
  }
  return d;
}

std::vector<int8_t> run_reference(const Case& c, const Data& d) {
  const Conv2dShape& s = c.shape;
  std::vector<int8_t> out(size_t(s.batch) * s.out_h * s.out_w * s.out_c);
  conv2d_s8(c.p, d.multipliers.data(), d.shifts.data(), s, d.input.data(), d.filter.data(),
            c.bias ? d.bias.data() : nullptr, out.data());
  return out;
}

std::string describe(const Case& c) {
  const Conv2dShape& s = c.shape;
  const Conv2dS8Params& p = c.p;
  char text[400];
  snprintf(text, sizeof text,
           "N%d H%d W%d C%d -> O%d (%dx%d) k%dx%d s%d,%d d%d,%d pad t%d l%d b%d r%d zp %d/%d "
           "act [%d, %d] bias %d",
           s.batch, s.in_h, s.in_w, s.in_c, s.out_h, s.out_w, s.out_c, s.kernel_h, s.kernel_w,
           p.window.stride_h, p.window.stride_w, p.window.dilation_h, p.window.dilation_w, p.window.pad_top, p.window.pad_left,
           p.window.pad_bottom, p.window.pad_right, p.input_zero_point, p.output_zero_point, p.act_min,
           p.act_max, c.bias ? 1 : 0);
  return text;
}

TEST(Conv2dS8Mve, GeneralMatchesReferenceOnRandomCases) {
  std::mt19937 rng(20261129);
  for (int i = 0; i < 600; ++i) {
    const Case c = random_case(rng, i % 5 == 0);
    const Data d = random_data(c, rng);
    const std::vector<int8_t> expected = run_reference(c, d);
    std::vector<int8_t> out(expected.size(), 0x55);
    std::vector<uint32_t> scratch_words(
        (conv2d_s8__mve_scratch_bytes(c.shape.out_c, c.shape.kernel_h, c.shape.kernel_w,
                                      c.shape.in_c) + 3) / 4, 0x5A5A5A5Au);
    conv2d_s8__mve(c.p, d.multipliers.data(), d.shifts.data(), c.shape, d.input.data(),
                   d.filter.data(), c.bias ? d.bias.data() : nullptr, out.data(),
                   reinterpret_cast<uint8_t*>(scratch_words.data()));
    ASSERT_EQ(out, expected) << "case " << i << ": " << describe(c);
  }
}

TEST(Conv2dS8Mve, OneByOneMatchesReferenceOnRandomCases) {
  std::mt19937 rng(7);
  for (int i = 0; i < 600; ++i) {
    const Case c = random_case(rng, true);
    const Data d = random_data(c, rng);
    const std::vector<int8_t> expected = run_reference(c, d);
    std::vector<int8_t> out(expected.size(), 0x55);
    std::vector<int32_t> scratch(conv2d_s8_1x1__mve_scratch_bytes(c.shape.out_c) / 4, 0x5A5A5A5A);
    conv2d_s8_1x1__mve(c.p, d.multipliers.data(), d.shifts.data(), c.shape, d.input.data(),
                       d.filter.data(), c.bias ? d.bias.data() : nullptr, out.data(),
                       scratch.data());
    ASSERT_EQ(out, expected) << "case " << i << ": " << describe(c);
  }
}

// Every tail of channels and taps, 1..17 input and output channels, one shape each.
TEST(Conv2dS8Mve, AllChannelTails) {
  std::mt19937 rng(99);
  for (int32_t in_c = 1; in_c <= 17; ++in_c) {
    for (int32_t out_c = 1; out_c <= 17; ++out_c) {
      for (int one = 0; one < 2; ++one) {
        Case c = random_case(rng, one == 1);
        c.shape.in_c = in_c;
        c.shape.out_c = out_c;
        const Data d = random_data(c, rng);
        const std::vector<int8_t> expected = run_reference(c, d);
        std::vector<int8_t> out(expected.size(), 0x55);
        std::vector<uint32_t> scratch(
            std::max(conv2d_s8__mve_scratch_bytes(out_c, c.shape.kernel_h, c.shape.kernel_w, in_c),
                     conv2d_s8_1x1__mve_scratch_bytes(out_c)),
            0);
        if (one == 1) {
          conv2d_s8_1x1__mve(c.p, d.multipliers.data(), d.shifts.data(), c.shape,
                             d.input.data(), d.filter.data(), c.bias ? d.bias.data() : nullptr,
                             out.data(), reinterpret_cast<int32_t*>(scratch.data()));
        } else {
          conv2d_s8__mve(c.p, d.multipliers.data(), d.shifts.data(), c.shape, d.input.data(),
                         d.filter.data(), c.bias ? d.bias.data() : nullptr, out.data(),
                         reinterpret_cast<uint8_t*>(scratch.data()));
        }
        ASSERT_EQ(out, expected) << describe(c);
      }
    }
  }
}

// The vector requantization against the scalar one, on edge accumulators and every shift.
TEST(Conv2dS8Mve, VectorRequantMatchesScalar) {
  std::mt19937 rng(5);
  const int32_t edges[] = {INT32_MIN, INT32_MIN + 1, -1073741824, -65536, -3, -2, -1, 0, 1, 2,
                           3, 65535, 1073741824, INT32_MAX - 1, INT32_MAX};
  std::vector<int32_t> accs(std::begin(edges), std::end(edges));
  for (int i = 0; i < 200; ++i) accs.push_back(static_cast<int32_t>(rng()));
  for (int i = 0; i < 200; ++i) accs.push_back(static_cast<int32_t>(rng()) >> (rng() % 31));
  const int32_t mults[] = {INT32_MIN, -1, 0, 1, 1 << 30, 1518500250, INT32_MAX,
                           static_cast<int32_t>(rng()), static_cast<int32_t>(rng())};
  const mve::int32x4_t zp = mve::vdupq_n_s32(0);
  const mve::int32x4_t lo = mve::vdupq_n_s32(INT32_MIN);
  const mve::int32x4_t hi = mve::vdupq_n_s32(INT32_MAX);
  for (int32_t shift = kMinShift; shift <= kMaxShift; ++shift) {
    for (int32_t m : mults) {
      const RequantS8x4 q =
          requant_s8x4_prepare(mve::vdupq_n_s32(m), mve::vdupq_n_s32(shift));
      for (size_t i = 0; i + 4 <= accs.size(); i += 4) {
        int32_t out[4];
        const mve::int32x4_t r = requant_s8x4(mve::vldrwq_s32(&accs[i]), q, zp, lo, hi);
        memcpy(out, &r, sizeof out);
        for (int j = 0; j < 4; ++j) {
          ASSERT_EQ(out[j], multiply_by_quantized_multiplier(accs[i + j], m, shift))
              << accs[i + j] << " m " << m << " shift " << shift;
        }
      }
    }
  }
}

// Through the kernel entries: check() accepts what select_variant picks and rejects the
// rest (shape limits, missing scratch), and run() matches the reference entry.
struct EntryOp {
  testing::TestOp op;
  uint32_t in, filter, bias, out;
};

void build(EntryOp* e, const Case& c, const Data& d, uint32_t scratch_bytes) {
  const Conv2dShape& s = c.shape;
  e->in = e->op.add_input(DType::kInt8, {uint32_t(s.batch), uint32_t(s.in_h), uint32_t(s.in_w),
                                         uint32_t(s.in_c)});
  e->filter = e->op.add_input(DType::kInt8, {uint32_t(s.out_c), uint32_t(s.kernel_h),
                                             uint32_t(s.kernel_w), uint32_t(s.in_c)});
  e->bias = e->op.add_input(DType::kInt32, {uint32_t(s.out_c)});
  e->out = e->op.add_output(DType::kInt8, {uint32_t(s.batch), uint32_t(s.out_h),
                                           uint32_t(s.out_w), uint32_t(s.out_c)});
  std::vector<Multiplier> m;
  for (size_t i = 0; i < d.multipliers.size(); ++i) m.push_back({d.multipliers[i], d.shifts[i]});
  e->op.set_raw_params(testing::params_bytes(c.p, m));
  e->op.set_data(e->in, d.input);
  e->op.set_data(e->filter, d.filter);
  e->op.set_data(e->bias, d.bias);
  if (scratch_bytes != 0) e->op.add_scratch(scratch_bytes);
}

TEST(Conv2dS8Mve, EntriesCheckAndRun) {
  std::mt19937 rng(11);
  for (int i = 0; i < 40; ++i) {
    Case c = random_case(rng, i % 2 == 0);
    c.bias = true;
    const Data d = random_data(c, rng);
    const bool one = i % 2 == 0;
    const KernelEntry& entry = one ? kConv2dS81x1MveEntry : kConv2dS8MveEntry;
    const uint32_t bytes =
        one ? conv2d_s8_1x1__mve_scratch_bytes(c.shape.out_c)
            : conv2d_s8__mve_scratch_bytes(c.shape.out_c, c.shape.kernel_h, c.shape.kernel_w,
                                           c.shape.in_c);
    EntryOp ref, var, small;
    build(&ref, c, d, 0);
    build(&var, c, d, bytes);
    build(&small, c, d, bytes - 1);
    ASSERT_EQ(ref.op.check(kConv2dS8Entry), Status::kOk);
    ASSERT_EQ(var.op.check(entry), Status::kOk) << describe(c);
    EXPECT_EQ(small.op.check(entry), Status::kBadParams);
    ref.op.run(kConv2dS8Entry);
    var.op.run(entry);
    ASSERT_EQ(var.op.data<int8_t>(var.out), ref.op.data<int8_t>(ref.out)) << describe(c);
  }
}

TEST(Conv2dS8Mve, ChecksRejectShapesTheyDoNotHandle) {
  std::mt19937 rng(12);
  Case c = random_case(rng, true);
  c.shape.in_c = 4;
  c.shape.out_c = 4;
  const Data d = random_data(c, rng);
  {
    EntryOp e;
    build(&e, c, d, 1024);
    EXPECT_EQ(e.op.check(kConv2dS81x1MveEntry), Status::kOk);
  }
  {
    // 1x1 with padding: 4x4 input, stride 2, pad top/left 1 -> 3x3.
    Case pc = c;
    pc.shape.in_h = pc.shape.in_w = 4;
    pc.p.window.stride_h = pc.p.window.stride_w = 2;
    pc.p.window.pad_top = pc.p.window.pad_left = 1;
    pc.shape.out_h = pc.shape.out_w = 3;
    const Data pd = random_data(pc, rng);
    EntryOp e;
    build(&e, pc, pd, 1024);
    ASSERT_EQ(e.op.check(kConv2dS8Entry), Status::kOk);
    EXPECT_EQ(e.op.check(kConv2dS81x1MveEntry), Status::kBadParams);
    EXPECT_EQ(e.op.check(kConv2dS8MveEntry), Status::kOk);
  }
  {
    // groups 2 (in_c 4, filter [4, 1, 1, 2]): valid for the reference, not for either variant.
    Case g = c;
    g.p.groups = 2;
    g.p.window.pad_left = g.p.window.pad_right = g.p.window.pad_top = g.p.window.pad_bottom = 0;
    EntryOp e;
    const Conv2dShape& s = g.shape;
    e.in = e.op.add_input(DType::kInt8, {uint32_t(s.batch), uint32_t(s.in_h),
                                         uint32_t(s.in_w), 4});
    e.filter = e.op.add_input(DType::kInt8, {4, 1, 1, 2});
    e.out = e.op.add_output(DType::kInt8, {uint32_t(s.batch), uint32_t(s.out_h),
                                           uint32_t(s.out_w), 4});
    std::vector<Multiplier> m(4, Multiplier{1 << 30, 0});
    e.op.set_raw_params(testing::params_bytes(g.p, m));
    e.op.add_scratch(1024);
    ASSERT_EQ(e.op.check(kConv2dS8Entry), Status::kOk);
    EXPECT_EQ(e.op.check(kConv2dS81x1MveEntry), Status::kBadParams);
    EXPECT_EQ(e.op.check(kConv2dS8MveEntry), Status::kBadParams);
  }
  {
    // A 3x3 filter is not 1x1.
    Case k = random_case(rng, false);
    k.shape.kernel_h = 3;
    k.shape.kernel_w = 3;
    k.p.window.dilation_h = k.p.window.dilation_w = 1;
    k.p.window.pad_top = k.p.window.pad_bottom = k.p.window.pad_left = k.p.window.pad_right = 1;
    k.shape.out_h = out_size(k.shape.in_h, 3, k.p.window.stride_h, 1, 1, 1);
    k.shape.out_w = out_size(k.shape.in_w, 3, k.p.window.stride_w, 1, 1, 1);
    const Data kd = random_data(k, rng);
    EntryOp e;
    build(&e, k, kd, 1 << 16);
    ASSERT_EQ(e.op.check(kConv2dS8Entry), Status::kOk);
    EXPECT_EQ(e.op.check(kConv2dS8MveEntry), Status::kOk);
    EXPECT_EQ(e.op.check(kConv2dS81x1MveEntry), Status::kBadParams);
  }
  {
    // No scratch at all.
    EntryOp e;
    build(&e, c, d, 0);
    EXPECT_EQ(e.op.check(kConv2dS81x1MveEntry), Status::kBadParams);
    EXPECT_EQ(e.op.check(kConv2dS8MveEntry), Status::kBadParams);
  }
}

// The shapes of the MLPerf Tiny models (smaller images) on every path of
// conv2d_s8_mve_rows.h: K <= 16 (one vector per pixel, K = 8 and 16 specialized), K <= 32
// (two vectors), longer rows; channel groups that load whole filter rows and the last ones
// that load under a predicate; all shifts negative (the shorter requantization) and
// mixed; odd pixel counts; padding on the bottom and right as in vww's first layer.
TEST(Conv2dS8Mve, ModelShapes) {
  struct Shape {
    int32_t in_h, in_w, in_c, out_c, kh, kw, stride, pad_bottom, pad_right;
  };
  const Shape shapes[] = {
      {11, 11, 3, 8, 3, 3, 2, 1, 1},    // vww op 0: K = 27, two vectors, 2 groups
      {13, 10, 1, 64, 10, 4, 2, 4, 1},  // kws op 0: K = 40, long rows
      {7, 5, 8, 16, 1, 1, 1, 0, 0},     // vww op 2: K = 8
      {5, 3, 16, 32, 1, 1, 1, 0, 0},    // vww op 4: K = 16
      {3, 3, 32, 32, 1, 1, 1, 0, 0},    // vww op 6: K = 32
      {3, 5, 20, 12, 1, 1, 2, 0, 0},    // K = 20, stride 2
      {5, 5, 5, 7, 1, 1, 1, 0, 0},      // K = 5, channel tail 3
      {4, 4, 8, 6, 3, 1, 1, 2, 0},      // K = 24
      {3, 3, 64, 64, 1, 1, 1, 0, 0},    // kws 1x1: K = 64
  };
  std::mt19937 rng(314);
  int checked = 0;
  for (const Shape& sh : shapes) {
    for (int negative = 0; negative < 2; ++negative) {
      for (int zp = 0; zp < 2; ++zp) {
        Case c{};
        c.shape.batch = 1;
        c.shape.in_h = sh.in_h;
        c.shape.in_w = sh.in_w;
        c.shape.in_c = sh.in_c;
        c.shape.out_c = sh.out_c;
        c.shape.kernel_h = sh.kh;
        c.shape.kernel_w = sh.kw;
        c.p.window.stride_h = c.p.window.stride_w = sh.stride;
        c.p.window.dilation_h = c.p.window.dilation_w = 1;
        c.p.window.pad_bottom = sh.pad_bottom;
        c.p.window.pad_right = sh.pad_right;
        c.p.groups = 1;
        c.p.input_zero_point = zp == 0 ? -128 : 37;
        c.p.output_zero_point = zp == 0 ? -128 : 5;
        c.p.act_min = zp == 0 ? -128 : -100;
        c.p.act_max = zp == 0 ? 127 : 90;
        c.bias = zp == 0;
        c.shape.out_h = out_size(sh.in_h, sh.kh, sh.stride, 1, 0, sh.pad_bottom);
        c.shape.out_w = out_size(sh.in_w, sh.kw, sh.stride, 1, 0, sh.pad_right);
        Data d = random_data(c, rng);
        for (size_t o = 0; o < d.shifts.size(); ++o) {
          if (negative == 1) {
            d.shifts[o] = -1 - int32_t(rng() % 12);
          } else if (o % 5 == 1) {
            d.shifts[o] = 1;
          }
        }
        const std::vector<int8_t> expected = run_reference(c, d);
        std::vector<int8_t> out(expected.size(), 0x55);
        std::vector<uint32_t> scratch(
            std::max(conv2d_s8__mve_scratch_bytes(sh.out_c, sh.kh, sh.kw, sh.in_c),
                     conv2d_s8_1x1__mve_scratch_bytes(sh.out_c)) / 4 + 1,
            0);
        conv2d_s8__mve(c.p, d.multipliers.data(), d.shifts.data(), c.shape, d.input.data(),
                       d.filter.data(), c.bias ? d.bias.data() : nullptr, out.data(),
                       reinterpret_cast<uint8_t*>(scratch.data()));
        ASSERT_EQ(out, expected) << "general: " << describe(c);
        ++checked;
        if (sh.kh == 1 && sh.kw == 1) {
          std::fill(out.begin(), out.end(), int8_t{0x55});
          conv2d_s8_1x1__mve(c.p, d.multipliers.data(), d.shifts.data(), c.shape,
                             d.input.data(), d.filter.data(), c.bias ? d.bias.data() : nullptr,
                             out.data(), reinterpret_cast<int32_t*>(scratch.data()));
          ASSERT_EQ(out, expected) << "1x1: " << describe(c);
          ++checked;
        }
      }
    }
  }
  EXPECT_EQ(checked, 60);
}

TEST(Conv2dS8Mve, ReportsWhichDefinitionRuns) {
  // The host build tests the portable definitions; an MVE build the intrinsics.
  RecordProperty("mve", MOTE_HAS_MVE);
  SUCCEED();
}

}  // namespace conv2d_mve_test
}  // namespace mote
