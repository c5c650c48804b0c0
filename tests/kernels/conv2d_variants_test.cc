// The int8 conv2d DSP variants (conv2d_s8__dsp, conv2d_s8_1x1__dsp, conv2d_s8_compact__dsp)
// against the reference conv2d_s8, bit for bit, on seeded random cases; plus their
// check() limits.
// On the host the DSP operations run through their portable definitions (isa/dsp.h).
#include <gtest/gtest.h>
#include <stdint.h>

#include <random>
#include <vector>

#include "conv2d/conv2d.h"
#include "conv2d/conv2d_s8_dsp_block.h"
#include "kernel_test_util.h"
#include "quant/quant_math.h"

namespace mote {
namespace conv2d_variants_test {

using testing::TestOp;

struct Case {
  Conv2dShape shape;
  Conv2dS8Params params;
  std::vector<int8_t> input, filter;
  std::vector<int32_t> bias;  // empty: no bias
  std::vector<int32_t> multipliers, shifts;
};

int32_t uniform(std::mt19937& rng, int32_t lo, int32_t hi) {
  return std::uniform_int_distribution<int32_t>(lo, hi)(rng);
}

// Multiplier / shift pairs: mostly what TFLite's QuantizeMultiplier gives for conv
// scales, sometimes extreme (INT32_MIN, INT32_MAX, negative, tiny, full shift range).
void random_quant(std::mt19937& rng, int32_t count, bool extreme, std::vector<int32_t>* m,
                  std::vector<int32_t>* s) {
  m->resize(count);
  s->resize(count);
  for (int32_t i = 0; i < count; ++i) {
    if (!extreme || uniform(rng, 0, 3) != 0) {
      (*m)[i] = uniform(rng, 1 << 30, INT32_MAX);
      (*s)[i] = uniform(rng, -12, 1);
      continue;
    }
    switch (uniform(rng, 0, 5)) {
      case 0: (*m)[i] = INT32_MIN; break;
      case 1: (*m)[i] = INT32_MAX; break;
      case 2: (*m)[i] = uniform(rng, INT32_MIN, -1); break;
      case 3: (*m)[i] = uniform(rng, 0, 3); break;
      default: (*m)[i] = uniform(rng, INT32_MIN, INT32_MAX); break;
    }
    (*s)[i] = uniform(rng, kMinShift, kMaxShift);
  }
}

int32_t out_size(int32_t in, int32_t k, int32_t stride, int32_t dilation, int32_t pad_a,
                 int32_t pad_b) {
  return (in + pad_a + pad_b - dilation * (k - 1) - 1) / stride + 1;
}

// conv2d_s8_1x1__dsp in the variants' common form (it takes no wide_channels).
void pointwise_1x1(const Conv2dS8Params& params, const int32_t* multipliers, const int32_t* shifts,
                   const Conv2dShape& shape, const int8_t* input, const int8_t* filter, const int32_t* bias,
                   int8_t* output, uint8_t* scratch, int32_t /*wide_channels*/) {
  conv2d_s8_1x1__dsp(params, multipliers, shifts, shape, input, filter, bias, output, scratch);
}

// A random case; kernel 1x1 without padding when pointwise.
Case random_case(std::mt19937& rng, bool pointwise) {
  Case c;
  Conv2dShape& sh = c.shape;
  Conv2dS8Params& p = c.params;
  sh.batch = uniform(rng, 1, 2);
  sh.in_c = uniform(rng, 0, 3) == 0 ? uniform(rng, 1, 67) : 4 * uniform(rng, 1, 16);
  sh.out_c = uniform(rng, 1, 19);
  p.window.stride_h = uniform(rng, 1, 3);
  p.window.stride_w = uniform(rng, 1, 3);
  p.groups = 1;
  if (pointwise) {
    sh.kernel_h = sh.kernel_w = 1;
    p.window.dilation_h = uniform(rng, 1, 2);
    p.window.dilation_w = uniform(rng, 1, 2);
    p.window.pad_top = p.window.pad_left = p.window.pad_bottom = p.window.pad_right = 0;
  } else {
    sh.kernel_h = uniform(rng, 1, 4);
    sh.kernel_w = uniform(rng, 1, 4);
    p.window.dilation_h = uniform(rng, 0, 3) == 0 ? 2 : 1;
    p.window.dilation_w = uniform(rng, 0, 3) == 0 ? uniform(rng, 2, 3) : 1;
    p.window.pad_top = uniform(rng, 0, 2);
    p.window.pad_left = uniform(rng, 0, 2);
    p.window.pad_bottom = uniform(rng, 0, 2);
    p.window.pad_right = uniform(rng, 0, 2);
  }
  // An input large enough for at least one output pixel.
  const int32_t eff_h = p.window.dilation_h * (sh.kernel_h - 1) + 1;
  const int32_t eff_w = p.window.dilation_w * (sh.kernel_w - 1) + 1;
  sh.in_h = std::max(1, eff_h - p.window.pad_top - p.window.pad_bottom) + uniform(rng, 0, 6);
  sh.in_w = std::max(1, eff_w - p.window.pad_left - p.window.pad_right) + uniform(rng, 0, 6);
  sh.out_h = out_size(sh.in_h, sh.kernel_h, p.window.stride_h, p.window.dilation_h, p.window.pad_top, p.window.pad_bottom);
  sh.out_w = out_size(sh.in_w, sh.kernel_w, p.window.stride_w, p.window.dilation_w, p.window.pad_left, p.window.pad_right);

  p.input_zero_point = uniform(rng, 0, 2) == 0 ? 0 : uniform(rng, -128, 127);
  p.output_zero_point = uniform(rng, -128, 127);
  if (uniform(rng, 0, 2) == 0) {
    p.act_min = -128;
    p.act_max = 127;
  } else {
    p.act_min = uniform(rng, -128, 127);
    p.act_max = uniform(rng, p.act_min, 127);
  }
  const bool extreme = uniform(rng, 0, 3) == 0;
  random_quant(rng, sh.out_c, extreme, &c.multipliers, &c.shifts);

  c.input.resize(size_t(sh.batch) * sh.in_h * sh.in_w * sh.in_c);
  c.filter.resize(size_t(sh.out_c) * sh.kernel_h * sh.kernel_w * sh.in_c);
  for (int8_t& v : c.input) v = static_cast<int8_t>(uniform(rng, -128, 127));
  for (int8_t& v : c.filter) v = static_cast<int8_t>(uniform(rng, -128, 127));
  if (uniform(rng, 0, 3) != 0) {
    c.bias.resize(sh.out_c);
    // Sometimes near the int32 limits, so that the accumulator wraps.
    const int32_t range = extreme ? INT32_MAX : 60000;
    for (int32_t& b : c.bias) b = uniform(rng, -range, range);
  }
  return c;
}

std::vector<int8_t> run_reference(const Case& c) {
  const Conv2dShape& sh = c.shape;
  std::vector<int8_t> out(size_t(sh.batch) * sh.out_h * sh.out_w * sh.out_c);
  conv2d_s8(c.params, c.multipliers.data(), c.shifts.data(), sh, c.input.data(),
            c.filter.data(), c.bias.empty() ? nullptr : c.bias.data(), out.data());
  return out;
}

// The variants as conv2d_s8__dsp takes its arguments (last: its widened channels);
// without_wide<> for the others.
using VariantFn = void (*)(const Conv2dS8Params&, const int32_t*, const int32_t*,
                           const Conv2dShape&, const int8_t*, const int8_t*, const int32_t*,
                           int8_t*, uint8_t*, int32_t);
template <void (*kVariant)(const Conv2dS8Params&, const int32_t*, const int32_t*, const Conv2dShape&,
                           const int8_t*, const int8_t*, const int32_t*, int8_t*, uint8_t*)>
void without_wide(const Conv2dS8Params& p, const int32_t* multipliers, const int32_t* shifts,
                  const Conv2dShape& s, const int8_t* input, const int8_t* filter, const int32_t* bias,
                  int8_t* output, uint8_t* scratch, int32_t /*wide_channels*/) {
  kVariant(p, multipliers, shifts, s, input, filter, bias, output, scratch);
}

std::vector<int8_t> run_variant(const Case& c, VariantFn fn, uint32_t scratch_bytes, int32_t wide_channels = 0) {
  const Conv2dShape& sh = c.shape;
  std::vector<int8_t> out(size_t(sh.batch) * sh.out_h * sh.out_w * sh.out_c, 0x55);
  std::vector<uint32_t> scratch((scratch_bytes + 3) / 4, 0xA5A5A5A5u);
  fn(c.params, c.multipliers.data(), c.shifts.data(), sh, c.input.data(), c.filter.data(),
     c.bias.empty() ? nullptr : c.bias.data(), out.data(),
     reinterpret_cast<uint8_t*>(scratch.data()), wide_channels);
  return out;
}

// conv2d_s8__dsp with every channel widened: its scratch.
uint32_t dsp_scratch_all_wide(const Conv2dShape& s) {
  return conv2d_s8__dsp_scratch_bytes(s.kernel_h, s.kernel_w, s.in_c, s.out_c);
}

std::string describe(const Case& c) {
  const Conv2dShape& s = c.shape;
  const Conv2dS8Params& p = c.params;
  return "N" + std::to_string(s.batch) + " H" + std::to_string(s.in_h) + " W" +
         std::to_string(s.in_w) + " C" + std::to_string(s.in_c) + " O" + std::to_string(s.out_c) +
         " K" + std::to_string(s.kernel_h) + "x" + std::to_string(s.kernel_w) + " stride " +
         std::to_string(p.window.stride_h) + "," + std::to_string(p.window.stride_w) + " dil " +
         std::to_string(p.window.dilation_h) + "," + std::to_string(p.window.dilation_w) + " pad " +
         std::to_string(p.window.pad_top) + "," + std::to_string(p.window.pad_left) + "," +
         std::to_string(p.window.pad_bottom) + "," + std::to_string(p.window.pad_right) + " zp " +
         std::to_string(p.input_zero_point) + "/" + std::to_string(p.output_zero_point) +
         " act " + std::to_string(p.act_min) + ".." + std::to_string(p.act_max) +
         (c.bias.empty() ? " no bias" : "");
}

constexpr int32_t kSpecial[] = {0, 1, -1, 2, -2, INT32_MAX, INT32_MIN, INT32_MIN + 1, 1 << 30,
                               -(1 << 30), (1 << 30) + 1, 12345, -12345};

// An accumulator: a special value, a small one or any int32.
int32_t random_acc(std::mt19937& rng) {
  return uniform(rng, 0, 3) == 0 ? kSpecial[uniform(rng, 0, 12)]
         : uniform(rng, 0, 1)    ? uniform(rng, -70000, 70000)
                                 : uniform(rng, INT32_MIN, INT32_MAX);
}

TEST(Conv2dS8DspRequantize, MatchesMultiplyByQuantizedMultiplier) {
  std::mt19937 rng(7);
  for (int i = 0; i < 400000; ++i) {
    const int32_t acc = random_acc(rng);
    const int32_t m = uniform(rng, 0, 4) == 0 ? kSpecial[uniform(rng, 0, 12)]
                                              : uniform(rng, INT32_MIN, INT32_MAX);
    const int32_t shift = uniform(rng, kMinShift, kMaxShift);
    if (m == INT32_MIN) continue;  // the variants call the reference there
    const int32_t expected = multiply_by_quantized_multiplier(acc, m, shift);
    const int32_t actual =
        shift < 0 ? conv2d_dsp::requantize_right(acc, m, conv2d_dsp::right_base(-shift - 1), -shift - 1)
                  : conv2d_dsp::requantize_left(acc, m, shift);
    ASSERT_EQ(actual, expected) << "acc " << acc << " m " << m << " shift " << shift;
  }
}

// The forms block_matmul_fast uses (multiplier >= 0, |zp| <= 128), zero point included,
// against wrapping_add(multiply_by_quantized_multiplier(...), zp) over every shift.
TEST(Conv2dS8DspRequantize, FastFormsMatchReference) {
  std::mt19937 rng(17);
  for (int i = 0; i < 400000; ++i) {
    const int32_t acc = random_acc(rng);
    const int32_t m_special[] = {0, 1, 2, INT32_MAX, 1 << 30, (1 << 30) + 1};
    const int32_t m =
        uniform(rng, 0, 4) == 0 ? m_special[uniform(rng, 0, 5)] : uniform(rng, 0, INT32_MAX);
    const int32_t shift = uniform(rng, kMinShift, kMaxShift);
    const int32_t zp = uniform(rng, 0, 3) == 0 ? (uniform(rng, 0, 1) ? -128 : 128)
                                               : uniform(rng, -128, 128);
    ASSERT_TRUE(conv2d_dsp::fast_applies(m, zp));
    const int32_t expected = wrapping_add(multiply_by_quantized_multiplier(acc, m, shift), zp);
    int32_t actual;
    if (shift < -conv2d_dsp::kMaxFastRight) {
      actual = conv2d_dsp::requantize_fast(acc, m, conv2d_dsp::fast_right_high(-shift - 1, 0),
                                           -shift - 1) + zp;
    } else if (shift <= -2) {
      actual = conv2d_dsp::requantize_fast(acc, m, conv2d_dsp::fast_right_high(-shift - 1, zp),
                                           -shift - 1);
    } else if (shift == -1) {
      actual = conv2d_dsp::requantize_right1(acc, m, zp);
    } else {
      actual = conv2d_dsp::requantize_left_zp(acc, m, shift, zp);
    }
    ASSERT_EQ(actual, expected) << "acc " << acc << " m " << m << " shift " << shift << " zp "
                                << zp;
  }
}

// Every channel on the fast requantization path, every shift (tiny scales included),
// accumulators over the whole int32 range.
TEST(Conv2dS8Dsp, FastRequantizationCasesMatchReference) {
  std::mt19937 rng(2468);
  for (int i = 0; i < 600; ++i) {
    const bool pointwise = uniform(rng, 0, 1) == 1;
    Case c = random_case(rng, pointwise);
    const int32_t shift_mode = uniform(rng, 0, 2);  // any, tiny scales, all right shifts
    for (size_t o = 0; o < c.multipliers.size(); ++o) {
      c.multipliers[o] = uniform(rng, 0, 5) == 0 ? uniform(rng, 0, 3) : uniform(rng, 0, INT32_MAX);
      c.shifts[o] = shift_mode == 0   ? uniform(rng, kMinShift, kMaxShift)
                    : shift_mode == 1 ? uniform(rng, -31, -20)
                                      : uniform(rng, -25, -2);
    }
    if (!c.bias.empty() && uniform(rng, 0, 1)) {
      for (int32_t& b : c.bias) b = uniform(rng, INT32_MIN, INT32_MAX);
    }
    const uint32_t scratch = pointwise ? conv2d_s8_1x1__dsp_scratch_bytes(c.shape.in_c) : dsp_scratch_all_wide(c.shape);
    ASSERT_EQ(run_variant(c, pointwise ? pointwise_1x1 : conv2d_s8__dsp, scratch, c.shape.out_c),
              run_reference(c))
        << "case " << i << ": " << describe(c);
  }
}

TEST(Conv2dS8Dsp, RandomCasesMatchReference) {
  std::mt19937 rng(1234);
  for (int i = 0; i < 600; ++i) {
    const Case c = random_case(rng, false);
    const int32_t wide = i % 3 == 0 ? 0 : uniform(rng, 0, c.shape.out_c);
    const uint32_t scratch = conv2d_s8__dsp_scratch_bytes(c.shape.kernel_h, c.shape.kernel_w, c.shape.in_c, wide);
    ASSERT_EQ(run_variant(c, conv2d_s8__dsp, scratch, wide), run_reference(c))
        << "case " << i << ": " << describe(c);
  }
}

TEST(Conv2dS8Dsp, PointwiseCasesMatchReference) {
  std::mt19937 rng(99);
  for (int i = 0; i < 200; ++i) {
    const Case c = random_case(rng, true);
    ASSERT_EQ(run_variant(c, conv2d_s8__dsp, dsp_scratch_all_wide(c.shape), c.shape.out_c), run_reference(c))
        << "case " << i << ": " << describe(c);
  }
}

TEST(Conv2dS81x1Dsp, RandomCasesMatchReference) {
  std::mt19937 rng(4321);
  for (int i = 0; i < 600; ++i) {
    const Case c = random_case(rng, true);
    const uint32_t scratch = conv2d_s8_1x1__dsp_scratch_bytes(c.shape.in_c);
    ASSERT_EQ(run_variant(c, pointwise_1x1, scratch), run_reference(c))
        << "case " << i << ": " << describe(c);
  }
}

// conv2d_s8_1x1__dsp's small-channel path (in_c 8 or 16, full clamp range, every
// multiplier >= 0, every shift in [-22, -1], |bias| <= 2^29): output zero point -128
// (no sign term) or any; more than 32 channels (several record chunks); extreme inputs,
// weights and biases (largest accumulators); and cases just outside its limits (the
// block path).
TEST(Conv2dS81x1Dsp, SmallChannelPathMatchesReference) {
  std::mt19937 rng(8816);
  for (int i = 0; i < 1500; ++i) {
    Case c = random_case(rng, true);
    Conv2dShape& sh = c.shape;
    Conv2dS8Params& p = c.params;
    sh.in_c = uniform(rng, 0, 1) ? 8 : 16;
    sh.out_c = uniform(rng, 0, 3) == 0 ? uniform(rng, 33, 70) : uniform(rng, 1, 32);
    p.act_min = -128;
    p.act_max = 127;
    if (uniform(rng, 0, 1)) p.output_zero_point = -128;
    const bool extreme = uniform(rng, 0, 3) == 0;
    if (extreme) p.input_zero_point = uniform(rng, 0, 1) ? -128 : 127;
    c.multipliers.resize(sh.out_c);
    c.shifts.resize(sh.out_c);
    for (int32_t o = 0; o < sh.out_c; ++o) {
      const int32_t kind = uniform(rng, 0, 9);
      c.multipliers[o] = kind == 0   ? 0
                         : kind == 1 ? INT32_MAX
                         : kind == 2 ? uniform(rng, 0, INT32_MAX)
                                     : uniform(rng, 1 << 30, INT32_MAX);
      c.shifts[o] = kind == 3 ? -22 : kind == 4 ? -1 : uniform(rng, -22, -1);
    }
    c.input.resize(size_t(sh.batch) * sh.in_h * sh.in_w * sh.in_c);
    c.filter.resize(size_t(sh.out_c) * sh.in_c);
    const int8_t in_fill = p.input_zero_point > 0 ? -128 : 127;
    for (int8_t& v : c.input) v = extreme ? in_fill : static_cast<int8_t>(uniform(rng, -128, 127));
    for (int8_t& v : c.filter) v = extreme ? -128 : static_cast<int8_t>(uniform(rng, -128, 127));
    c.bias.clear();
    if (uniform(rng, 0, 5) != 0) {
      c.bias.resize(sh.out_c);
      for (int32_t& b : c.bias) {
        b = extreme ? (uniform(rng, 0, 1) ? 1 << 29 : -(1 << 29)) : uniform(rng, -100000, 100000);
      }
    }
    // One in 8: one channel just outside the limits, so the block path runs instead.
    if (uniform(rng, 0, 7) == 0) {
      const int32_t o = uniform(rng, 0, sh.out_c - 1);
      switch (uniform(rng, 0, 4)) {
        case 0: c.shifts[o] = -23; break;
        case 1: c.shifts[o] = 0; break;
        case 2: c.multipliers[o] = -1; break;
        case 3: p.act_max = 126; break;
        default:
          if (!c.bias.empty()) c.bias[o] = (1 << 29) + 1;
          break;
      }
    }
    const uint32_t scratch = conv2d_s8_1x1__dsp_scratch_bytes(sh.in_c);
    ASSERT_EQ(run_variant(c, pointwise_1x1, scratch), run_reference(c))
        << "case " << i << ": " << describe(c);
  }
}

// conv2d_s8_1x1__dsp's last block of 5 pixels (pixel count % 4 == 1, in_c % 8 == 0 and
// >= 192) and its single-pixel column (in_c % 16 == 0 otherwise), any quantization.
TEST(Conv2dS81x1Dsp, LongColumnTailsMatchReference) {
  std::mt19937 rng(9090);
  for (int i = 0; i < 300; ++i) {
    Case c = random_case(rng, true);
    Conv2dShape& sh = c.shape;
    const int32_t kind = uniform(rng, 0, 3);
    sh.in_c = kind == 0 ? 8 * uniform(rng, 24, 40) : kind == 1 ? 16 * uniform(rng, 1, 20)
                                                                : uniform(rng, 180, 270);
    sh.out_c = uniform(rng, 1, 12);
    // Mostly 1, 5 or 9 output pixels (the tails), sometimes any.
    const Conv2dS8Params& p = c.params;
    const int32_t rows =
        uniform(rng, 0, 3) == 0 ? uniform(rng, 1, 4) : (uniform(rng, 0, 1) ? 1 : 3);
    const int32_t cols = uniform(rng, 0, 3) == 0 ? uniform(rng, 1, 4) : (rows == 1 ? 5 : 3);
    sh.batch = 1;
    sh.out_h = rows;
    sh.out_w = cols;
    sh.in_h = (rows - 1) * p.window.stride_h + 1 + uniform(rng, 0, p.window.stride_h - 1);
    sh.in_w = (cols - 1) * p.window.stride_w + 1 + uniform(rng, 0, p.window.stride_w - 1);
    random_quant(rng, sh.out_c, uniform(rng, 0, 3) == 0, &c.multipliers, &c.shifts);
    c.input.resize(size_t(sh.batch) * sh.in_h * sh.in_w * sh.in_c);
    c.filter.resize(size_t(sh.out_c) * sh.in_c);
    for (int8_t& v : c.input) v = static_cast<int8_t>(uniform(rng, -128, 127));
    for (int8_t& v : c.filter) v = static_cast<int8_t>(uniform(rng, -128, 127));
    if (!c.bias.empty()) c.bias.resize(sh.out_c, 77);
    const uint32_t scratch = conv2d_s8_1x1__dsp_scratch_bytes(sh.in_c);
    ASSERT_EQ(run_variant(c, pointwise_1x1, scratch), run_reference(c))
        << "case " << i << ": " << describe(c);
  }
}

// Every in_c from 1 to 67 (all K tails, both im2col paths) and out_c 1..9 (block tails).
TEST(Conv2dS8Dsp, EveryChannelCount) {
  std::mt19937 rng(55);
  for (int32_t in_c = 1; in_c <= 67; ++in_c) {
    for (int pointwise = 0; pointwise < 2; ++pointwise) {
      Case c = random_case(rng, pointwise != 0);
      c.shape.in_c = in_c;
      c.input.resize(size_t(c.shape.batch) * c.shape.in_h * c.shape.in_w * in_c);
      c.filter.resize(size_t(c.shape.out_c) * c.shape.kernel_h * c.shape.kernel_w * in_c);
      for (int8_t& v : c.input) v = static_cast<int8_t>(uniform(rng, -128, 127));
      for (int8_t& v : c.filter) v = static_cast<int8_t>(uniform(rng, -128, 127));
      const std::vector<int8_t> expected = run_reference(c);
      ASSERT_EQ(run_variant(c, conv2d_s8__dsp, dsp_scratch_all_wide(c.shape), c.shape.out_c), expected)
          << describe(c);
      if (pointwise) {
        ASSERT_EQ(run_variant(c, pointwise_1x1, conv2d_s8_1x1__dsp_scratch_bytes(in_c)),
                  expected)
            << describe(c);
      }
    }
  }
}

// Through check() and run() with the scratch span of the op, as the interpreter calls it.
struct EntryOp {
  TestOp op;
  uint32_t out;
};

// wide_channels: when given, appended to the params (conv2d_s8__dsp's last int32).
void build_entry_op(const Case& c, uint32_t scratch_bytes, EntryOp* e, const int32_t* wide_channels = nullptr) {
  const Conv2dShape& s = c.shape;
  const uint32_t in = e->op.add_input(DType::kInt8, {uint32_t(s.batch), uint32_t(s.in_h),
                                                    uint32_t(s.in_w), uint32_t(s.in_c)});
  const uint32_t filter = e->op.add_input(
      DType::kInt8, {uint32_t(s.out_c), uint32_t(s.kernel_h), uint32_t(s.kernel_w),
                     uint32_t(s.in_c / c.params.groups)});
  uint32_t bias = kNoTensor;
  if (c.bias.empty()) {
    e->op.add_missing_input();
  } else {
    bias = e->op.add_input(DType::kInt32, {uint32_t(s.out_c)});
  }
  e->out = e->op.add_output(DType::kInt8, {uint32_t(s.batch), uint32_t(s.out_h),
                                          uint32_t(s.out_w), uint32_t(s.out_c)});
  std::vector<uint8_t> params(sizeof(Conv2dS8Params) + 8 * s.out_c);
  memcpy(params.data(), &c.params, sizeof(Conv2dS8Params));
  memcpy(params.data() + sizeof(Conv2dS8Params), c.multipliers.data(), 4 * s.out_c);
  memcpy(params.data() + sizeof(Conv2dS8Params) + 4 * s.out_c, c.shifts.data(), 4 * s.out_c);
  if (wide_channels != nullptr) {
    params.resize(params.size() + 4);
    memcpy(params.data() + params.size() - 4, wide_channels, 4);
  }
  e->op.set_raw_params(params);
  e->op.set_data(in, c.input);
  e->op.set_data(filter, c.filter);
  if (bias != kNoTensor) e->op.set_data(bias, c.bias);
  e->op.add_scratch(scratch_bytes);
}

TEST(Conv2dS8Dsp, EntriesRunLikeTheReference) {
  std::mt19937 rng(77);
  for (int i = 0; i < 60; ++i) {
    const bool pointwise = i % 2 == 0;
    const Case c = random_case(rng, pointwise);
    const std::vector<int8_t> expected = run_reference(c);
    {
      EntryOp e;
      const int32_t wide =
          conv2d_s8__dsp_wide_channel_bytes(c.shape.kernel_h, c.shape.kernel_w, c.shape.in_c) != 0 ? c.shape.out_c : 0;
      build_entry_op(c, conv2d_s8__dsp_scratch_bytes(c.shape.kernel_h, c.shape.kernel_w, c.shape.in_c, wide), &e, &wide);
      ASSERT_EQ(e.op.check(kConv2dS8DspEntry), Status::kOk) << describe(c);
      e.op.run(kConv2dS8DspEntry);
      ASSERT_EQ(e.op.data<int8_t>(e.out), expected) << describe(c);
    }
    if (pointwise) {
      EntryOp e;
      build_entry_op(c, conv2d_s8_1x1__dsp_scratch_bytes(c.shape.in_c), &e);
      ASSERT_EQ(e.op.check(kConv2dS81x1DspEntry), Status::kOk) << describe(c);
      e.op.run(kConv2dS81x1DspEntry);
      ASSERT_EQ(e.op.data<int8_t>(e.out), expected) << describe(c);
    }
    if (pointwise && conv2d_s8_1x1_relu__dsp_record_bytes(c.shape.in_c) != 0) {
      EntryOp e;  // every channel's record (the kernel runs the reference outside its rule)
      const int32_t wide = c.shape.out_c;
      build_entry_op(c, conv2d_s8_1x1_relu__dsp_scratch_bytes(c.shape.in_c, wide), &e, &wide);
      ASSERT_EQ(e.op.check(kConv2dS81x1ReluDspEntry), Status::kOk) << describe(c);
      e.op.run(kConv2dS81x1ReluDspEntry);
      ASSERT_EQ(e.op.data<int8_t>(e.out), expected) << describe(c);
    }
  }
}

Case fixed_case(int32_t kernel, int32_t in_c, int32_t pad, int32_t groups) {
  Case c;
  c.shape = Conv2dShape{1, 6, 6, in_c, 0, 0, 4, kernel, kernel};
  c.params = Conv2dS8Params{1, 1, 1, 1, pad, pad, pad, pad, groups, 3, -2, -128, 127};
  c.shape.out_h = out_size(6, kernel, 1, 1, pad, pad);
  c.shape.out_w = c.shape.out_h;
  c.input.assign(size_t(6) * 6 * in_c, 1);
  c.filter.assign(size_t(4) * kernel * kernel * (in_c / groups), 2);
  c.multipliers.assign(4, 1 << 30);
  c.shifts.assign(4, -1);
  return c;
}

Status check_with(const Case& c, uint32_t scratch_bytes, const KernelEntry& entry,
                  const int32_t* wide_channels = nullptr) {
  EntryOp e;
  build_entry_op(c, scratch_bytes, &e, wide_channels);
  return e.op.check(entry);
}
// conv2d_s8_1x1__dsp's check: the reference's params.
Status check_1x1(const Case& c, uint32_t scratch_bytes) { return check_with(c, scratch_bytes, kConv2dS81x1DspEntry); }
// conv2d_s8_1x1_relu__dsp's check: its params end with wide_channels.
Status check_relu(const Case& c, uint32_t scratch_bytes, int32_t wide_channels = 0) {
  return check_with(c, scratch_bytes, kConv2dS81x1ReluDspEntry, &wide_channels);
}
constexpr int32_t kZeroWide = 0;
// conv2d_s8__dsp's check: its params end with wide_channels.
Status check_dsp(const Case& c, uint32_t scratch_bytes, int32_t wide_channels = 0) {
  return check_with(c, scratch_bytes, kConv2dS8DspEntry, &wide_channels);
}

TEST(Conv2dS8Dsp, CheckRejectsWhatTheVariantDoesNotHandle) {
  // General variant: groups must be 1; scratch must be large enough.
  const Case grouped = fixed_case(3, 8, 1, 2);
  EXPECT_EQ(check_dsp(grouped, 4096), Status::kBadParams);
  const Case ok = fixed_case(3, 6, 1, 1);
  const uint32_t need = conv2d_s8__dsp_scratch_bytes(3, 3, 6, 0);
  EXPECT_EQ(need, 14u * 32u + 14u * 4u);  // K = 54: 14 groups, plus the gathered row
  EXPECT_EQ(check_dsp(ok, need), Status::kOk);
  EXPECT_EQ(check_dsp(ok, need - 1), Status::kBadParams);
  EXPECT_EQ(check_dsp(ok, 0), Status::kBadParams);
  EXPECT_EQ(check_with(ok, need, kConv2dS8DspEntry), Status::kBadParams);  // no wide_channels
  EXPECT_EQ(conv2d_s8__dsp_scratch_bytes(3, 3, 8, 0), 18u * 32u);  // C % 4 == 0: no row
  // Widened weights: 8 bytes per group and channel, only when the groups are a multiple
  // of 4 (K = 576, 144 and 64 yes; K = 54 (14 groups) and 72 (18) no).
  EXPECT_EQ(conv2d_s8__dsp_wide_channel_bytes(3, 3, 64), 144u * 8u);
  EXPECT_EQ(conv2d_s8__dsp_scratch_bytes(3, 3, 64, 3), 144u * 32u + 3u * 144u * 8u);
  EXPECT_EQ(conv2d_s8__dsp_scratch_bytes(3, 3, 16, 13), 36u * 32u + 13u * 36u * 8u);
  EXPECT_EQ(conv2d_s8__dsp_scratch_bytes(4, 4, 4, 8), 16u * 32u + 8u * 16u * 8u);
  EXPECT_EQ(conv2d_s8__dsp_wide_channel_bytes(3, 3, 6), 0u);
  EXPECT_EQ(conv2d_s8__dsp_wide_channel_bytes(3, 3, 8), 0u);
  EXPECT_EQ(conv2d_s8__dsp_scratch_bytes(3, 3, 6, 4), need);
  // check(): wide_channels in 0 .. out_c, none where the kernel does not widen, and the
  // scratch they need.
  EXPECT_EQ(check_dsp(ok, 4096, 1), Status::kBadParams);  // K = 54: nothing to widen
  const Case wide = fixed_case(3, 16, 1, 1);  // K = 144, out_c 4
  const uint32_t wide_need = conv2d_s8__dsp_scratch_bytes(3, 3, 16, 4);
  EXPECT_EQ(check_dsp(wide, wide_need, 4), Status::kOk);
  EXPECT_EQ(check_dsp(wide, wide_need - 1, 4), Status::kBadParams);
  EXPECT_EQ(check_dsp(wide, conv2d_s8__dsp_scratch_bytes(3, 3, 16, 2), 2), Status::kOk);
  EXPECT_EQ(check_dsp(wide, conv2d_s8__dsp_scratch_bytes(3, 3, 16, 2), 3), Status::kBadParams);
  EXPECT_EQ(check_dsp(wide, 1u << 20, 5), Status::kBadParams);
  EXPECT_EQ(check_dsp(wide, 1u << 20, INT32_MIN), Status::kBadParams);

  // 1x1 variant: 1x1 kernel, no padding, groups 1, enough scratch.
  const Case pw = fixed_case(1, 10, 0, 1);
  const uint32_t pw_need = conv2d_s8_1x1__dsp_scratch_bytes(10);
  EXPECT_EQ(pw_need, 3u * 32u);
  EXPECT_EQ(check_1x1(pw, pw_need), Status::kOk);
  EXPECT_EQ(check_1x1(pw, pw_need - 4), Status::kBadParams);
  EXPECT_EQ(check_1x1(fixed_case(1, 10, 1, 1), 4096), Status::kBadParams);
  EXPECT_EQ(check_1x1(fixed_case(3, 10, 1, 1), 4096), Status::kBadParams);
  EXPECT_EQ(check_1x1(fixed_case(1, 10, 0, 2), 4096), Status::kBadParams);
  // And what the reference rejects (a shift out of range).
  Case bad_shift = pw;
  bad_shift.shifts[2] = 31;
  EXPECT_EQ(check_1x1(bad_shift, pw_need), Status::kBadParams);
  // Params past the reference's (a program written for the records kernel).
  const int32_t zero = 0;
  EXPECT_EQ(check_with(pw, pw_need, kConv2dS81x1DspEntry, &zero), Status::kBadParams);

  // The records kernel: the same windows; records (bias, widened weights, offset,
  // multiplier, A) for in_c 32 (8 groups), none for 10 (3 groups) and 16 (the small
  // path), which it refuses; wide_channels in 0 .. out_c and the scratch they need.
  EXPECT_EQ(conv2d_s8_1x1_relu__dsp_record_bytes(10), 0u);
  EXPECT_EQ(conv2d_s8_1x1_relu__dsp_record_bytes(16), 0u);
  EXPECT_EQ(conv2d_s8_1x1_relu__dsp_record_bytes(32), 64u + 16u);
  EXPECT_EQ(check_relu(pw, 4096), Status::kBadParams);
  EXPECT_EQ(check_relu(fixed_case(1, 16, 0, 1), 4096), Status::kBadParams);
  const Case pw32 = fixed_case(1, 32, 0, 1);  // out_c 4
  const uint32_t need32 = conv2d_s8_1x1_relu__dsp_scratch_bytes(32, 4);
  EXPECT_EQ(need32, 8u * 32u + 4u * 80u);
  EXPECT_EQ(check_relu(pw32, need32, 4), Status::kOk);
  EXPECT_EQ(check_relu(pw32, need32 - 1, 4), Status::kBadParams);
  EXPECT_EQ(check_relu(pw32, 4096, 5), Status::kBadParams);
  EXPECT_EQ(check_relu(pw32, 4096, -1), Status::kBadParams);
  EXPECT_EQ(check_relu(fixed_case(1, 32, 1, 1), 4096), Status::kBadParams);
  EXPECT_EQ(check_relu(fixed_case(3, 32, 1, 1), 4096), Status::kBadParams);
  EXPECT_EQ(check_with(pw32, need32, kConv2dS81x1ReluDspEntry), Status::kBadParams);  // no wide_channels
}

// conv2d_s8_small_window__dsp (at most 24 SMLAD steps per window: few input channels,
// e.g. 3x3x3 or kws' 10x4x1), and conv2d_s8__dsp on the same windows: 1-4 input channels,
// kernels up to 5x5 and 10x4, strides 1-2, padding, odd widths, odd out_c, partial blocks
// and chunks (more than 128 pixels), batch 2, dilation, common and any quantization; plus
// the small-window variant's scratch and check().
TEST(Conv2dS8SmallWindowDsp, MatchesReference) {
  std::mt19937 rng(0x5A11C0DEu);
  for (int iter = 0; iter < 400; ++iter) {
    Case c = random_case(rng, false);
    Conv2dShape& sh = c.shape;
    Conv2dS8Params& p = c.params;
    sh.in_c = uniform(rng, 1, 4);
    if (iter % 8 == 0) {
      sh.kernel_h = 10;
      sh.kernel_w = 4;
      sh.in_c = 1;
    } else {
      sh.kernel_h = uniform(rng, 1, 5);
      sh.kernel_w = uniform(rng, 1, 5);
    }
    // Past 24 steps (e.g. 5x5x3): fewer input channels, then a narrower window.
    while (conv2d_s8_small_window__dsp_scratch_bytes(sh.kernel_h, sh.kernel_w, sh.in_c) == 0) {
      if (sh.in_c > 1) {
        --sh.in_c;
      } else {
        --sh.kernel_w;
      }
    }
    p.window.stride_h = uniform(rng, 0, 3) == 0 ? 1 : 2;
    p.window.stride_w = uniform(rng, 0, 3) == 0 ? 1 : 2;
    p.window.dilation_h = uniform(rng, 0, 7) == 0 ? 2 : 1;
    p.window.dilation_w = uniform(rng, 0, 7) == 0 ? 2 : 1;
    const int32_t eff_h = p.window.dilation_h * (sh.kernel_h - 1) + 1;
    const int32_t eff_w = p.window.dilation_w * (sh.kernel_w - 1) + 1;
    sh.in_h = std::max(1, eff_h - p.window.pad_top - p.window.pad_bottom) + uniform(rng, 0, 20);
    sh.in_w = std::max(1, eff_w - p.window.pad_left - p.window.pad_right) + 2 * uniform(rng, 0, 12) + 1;
    sh.out_h = out_size(sh.in_h, sh.kernel_h, p.window.stride_h, p.window.dilation_h, p.window.pad_top, p.window.pad_bottom);
    sh.out_w = out_size(sh.in_w, sh.kernel_w, p.window.stride_w, p.window.dilation_w, p.window.pad_left, p.window.pad_right);
    const bool common = uniform(rng, 0, 2) != 0;
    if (common) {  // what the asm block of DSP cores takes
      p.act_min = -128;
      p.act_max = 127;
      for (int32_t& m : c.multipliers) m = uniform(rng, 1 << 30, INT32_MAX);
      for (int32_t& s : c.shifts) s = uniform(rng, -23, -2);
    }
    c.input.resize(size_t(sh.batch) * sh.in_h * sh.in_w * sh.in_c);
    c.filter.resize(size_t(sh.out_c) * sh.kernel_h * sh.kernel_w * sh.in_c);
    for (int8_t& v : c.input) v = static_cast<int8_t>(uniform(rng, -128, 127));
    for (int8_t& v : c.filter) v = static_cast<int8_t>(uniform(rng, -128, 127));
    const std::vector<int8_t> expected = run_reference(c);
    const uint32_t scratch = conv2d_s8_small_window__dsp_scratch_bytes(sh.kernel_h, sh.kernel_w, sh.in_c);
    ASSERT_NE(scratch, 0u) << describe(c);
    ASSERT_EQ(run_variant(c, conv2d_s8_small_window__dsp, scratch), expected) << describe(c);
    if (iter % 4 == 0) {
      const uint32_t general = conv2d_s8__dsp_scratch_bytes(sh.kernel_h, sh.kernel_w, sh.in_c, 0);
      ASSERT_EQ(run_variant(c, conv2d_s8__dsp, general), expected) << describe(c);
    }
  }
  // The usual first layer, 96x96x3 -> 48x48x8 (3x3, stride 2, padding right / bottom).
  Case c = random_case(rng, false);
  c.shape = Conv2dShape{1, 96, 96, 3, 48, 48, 8, 3, 3};
  c.params = Conv2dS8Params{2, 2, 1, 1, 0, 0, 1, 1, 1, 1, -128, -128, 127};
  c.input.resize(size_t(96) * 96 * 3);
  c.filter.resize(size_t(8) * 27);
  for (int8_t& v : c.input) v = static_cast<int8_t>(uniform(rng, -128, 127));
  for (int8_t& v : c.filter) v = static_cast<int8_t>(uniform(rng, -128, 127));
  c.bias.assign(8, 0);
  for (int32_t& b : c.bias) b = uniform(rng, -60000, 60000);
  random_quant(rng, 8, false, &c.multipliers, &c.shifts);
  for (int32_t& s : c.shifts) s = uniform(rng, -10, -6);
  ASSERT_EQ(run_variant(c, conv2d_s8_small_window__dsp,
                        conv2d_s8_small_window__dsp_scratch_bytes(3, 3, 3)),
            run_reference(c));

  // kws' first layer, 49x10x1 -> 25x5x64 (10x4, stride 2, SAME padding), ReLU-like:
  // with the records (blocks outermost, the last block stepping back) and without.
  Case kws = random_case(rng, false);
  kws.shape = Conv2dShape{1, 49, 10, 1, 25, 5, 64, 10, 4};
  kws.params = Conv2dS8Params{2, 2, 1, 1, 4, 1, 5, 1, 1, 5, -128, -128, 127};
  kws.input.resize(size_t(49) * 10);
  kws.filter.resize(size_t(64) * 40);
  for (int8_t& v : kws.input) v = static_cast<int8_t>(uniform(rng, -128, 127));
  for (int8_t& v : kws.filter) v = static_cast<int8_t>(uniform(rng, -128, 127));
  kws.bias.assign(64, 0);
  for (int32_t& b : kws.bias) b = uniform(rng, -30000, 30000);
  random_quant(rng, 64, false, &kws.multipliers, &kws.shifts);
  for (int32_t& m : kws.multipliers) m = uniform(rng, 1 << 30, INT32_MAX);
  for (int32_t& sh : kws.shifts) sh = uniform(rng, -10, -4);
  const std::vector<int8_t> kws_expected = run_reference(kws);
  const uint32_t kws_records = conv2d_s8_small_window__dsp_records_bytes(10, 4, 1, 64);
  ASSERT_EQ(run_variant(kws, conv2d_s8_small_window__dsp, kws_records, 1), kws_expected);
  ASSERT_EQ(run_variant(kws, conv2d_s8_small_window__dsp, conv2d_s8_small_window__dsp_scratch_bytes(10, 4, 1), 0),
            kws_expected);

  // Scratch: a chunk of pixels (as many as 4160 bytes of columns hold, a multiple of 4) x
  // S steps x 4 bytes, 8 channel pairs x S x 8 bytes, the gathered window and the tail
  // bytes (3x3x3: S = 14, 72 pixels; 10x4x1: S = 20, 52 pixels, no tail); 0 past 24 steps.
  EXPECT_EQ(conv2d_s8_small_window__dsp_scratch_bytes(3, 3, 3), 72u * 14u * 4u + 8u * 14u * 8u + 28u + 4u);
  EXPECT_EQ(conv2d_s8_small_window__dsp_scratch_bytes(10, 4, 1), 52u * 20u * 4u + 8u * 20u * 8u + 40u);
  EXPECT_EQ(conv2d_s8_small_window__dsp_scratch_bytes(3, 3, 8), 0u);  // 2 * 3 * 6 = 36 steps
  EXPECT_EQ(conv2d_s8_small_window__dsp_scratch_bytes(13, 4, 1), 0u);  // 26 steps
  EXPECT_EQ(conv2d_s8__dsp_wide_channel_bytes(10, 4, 1), 0u);  // K = 40: 10 groups
  const Case small = fixed_case(3, 3, 1, 1);  // 3x3x3
  const uint32_t need = conv2d_s8_small_window__dsp_scratch_bytes(3, 3, 3);
  auto check_small = [](const Case& c, uint32_t bytes, int32_t pair_records) {
    return check_with(c, bytes, kConv2dS8SmallWindowDspEntry, &pair_records);
  };
  EXPECT_EQ(check_small(small, need, 0), Status::kOk);
  EXPECT_EQ(check_small(small, need - 1, 0), Status::kBadParams);
  // Its params end with pair_records: without it refused.
  EXPECT_EQ(check_with(small, need, kConv2dS8SmallWindowDspEntry), Status::kBadParams);
  EXPECT_EQ(check_small(fixed_case(3, 3, 1, 2), 1u << 20, 0), Status::kBadParams);
  // A window past 24 steps: refused whatever the scratch.
  EXPECT_EQ(check_small(fixed_case(3, 8, 1, 1), 1u << 20, 0), Status::kBadParams);
  // Records: only for windows of one-word rows (kernel_w * in_c == 4) and an even out_c
  // above 16 (3x3x3 refused), 0 or 1.
  EXPECT_EQ(conv2d_s8_small_window__dsp_records_bytes(3, 3, 3, 4), 0u);
  EXPECT_EQ(conv2d_s8_small_window__dsp_records_bytes(3, 3, 3, 16), 0u);
  EXPECT_EQ(conv2d_s8_small_window__dsp_records_bytes(3, 3, 3, 18), 0u);
  EXPECT_EQ(conv2d_s8_small_window__dsp_records_bytes(2, 2, 2, 16), 0u);
  EXPECT_EQ(conv2d_s8_small_window__dsp_records_bytes(2, 2, 2, 19), 0u);
  EXPECT_EQ(check_small(small, 1u << 20, 1), Status::kBadParams);
  // Per pair 8 * S bytes of weights and 7 words, then one block's columns (16 * S): kws'
  // 10x4x1 x 64 (S = 20) 32 * 188 + 320; 2x2x2 x 18 (S = 4) 9 * 60 + 64.
  EXPECT_EQ(conv2d_s8_small_window__dsp_records_bytes(10, 4, 1, 64), 32u * 188u + 320u);
  EXPECT_EQ(conv2d_s8_small_window__dsp_records_bytes(2, 2, 2, 18), 9u * 60u + 64u);
  Case many = fixed_case(2, 2, 0, 1);  // 2x2x2: one-word rows
  many.shape.out_c = 18;
  many.filter.assign(size_t(18) * 8, 2);
  many.multipliers.assign(18, 1 << 30);
  many.shifts.assign(18, -1);
  const uint32_t records = conv2d_s8_small_window__dsp_records_bytes(2, 2, 2, 18);
  const uint32_t many_need = conv2d_s8_small_window__dsp_scratch_bytes(2, 2, 2);
  const uint32_t most = std::max(records, many_need);
  EXPECT_EQ(check_small(many, most, 1), Status::kOk);
  EXPECT_EQ(check_small(many, most - 1, 1), Status::kBadParams);
  EXPECT_EQ(check_small(many, many_need, 0), Status::kOk);
  EXPECT_EQ(check_small(many, 1u << 20, 2), Status::kBadParams);
  EXPECT_EQ(check_small(many, 1u << 20, -1), Status::kBadParams);
  // conv2d_s8__dsp takes small windows too (its general scheme), widened channels not.
  const uint32_t general = conv2d_s8__dsp_scratch_bytes(3, 3, 3, 0);
  EXPECT_EQ(check_dsp(small, general), Status::kOk);
  EXPECT_EQ(check_dsp(small, general - 1), Status::kBadParams);
  EXPECT_EQ(check_dsp(small, 1u << 20, 1), Status::kBadParams);
}

// conv2d_s8_compact__dsp (the small variant of `--optimize size`): any window, four
// pixels x one channel per inner loop; random pointwise and general cases (odd K, odd
// out_c, partial blocks and chunks, extreme quantization), through its entry too, and
// its check.
TEST(Conv2dS8CompactDsp, RandomCasesMatchReference) {
  std::mt19937 rng(2023);
  for (int i = 0; i < 300; ++i) {
    const Case c = random_case(rng, i % 3 == 0);
    const uint32_t scratch =
        conv2d_s8_compact__dsp_scratch_bytes(c.shape.kernel_h, c.shape.kernel_w, c.shape.in_c);
    ASSERT_EQ(run_variant(c, without_wide<conv2d_s8_compact__dsp>, scratch), run_reference(c)) << describe(c);
  }
}

TEST(Conv2dS8CompactDsp, EntryRunsLikeTheReferenceAndChecksItsLimits) {
  std::mt19937 rng(78);
  for (int i = 0; i < 40; ++i) {
    const Case c = random_case(rng, i % 2 == 0);
    EntryOp e;
    build_entry_op(c, conv2d_s8_compact__dsp_scratch_bytes(c.shape.kernel_h, c.shape.kernel_w, c.shape.in_c), &e);
    ASSERT_EQ(e.op.check(kConv2dS8CompactDspEntry), Status::kOk) << describe(c);
    e.op.run(kConv2dS8CompactDspEntry);
    ASSERT_EQ(e.op.data<int8_t>(e.out), run_reference(c)) << describe(c);
  }
  // Blocks of 32 bytes per group of four K values, as many as fit in 1 KiB (1 to 4),
  // then the gathered window (4 bytes per group): K = 54 (14 groups): 2 blocks; K = 40:
  // 3; K = 64: 2; K = 4: 4; K = 2304: 1.
  EXPECT_EQ(conv2d_s8_compact__dsp_scratch_bytes(3, 3, 6), 2u * 14u * 32u + 14u * 4u);
  EXPECT_EQ(conv2d_s8_compact__dsp_scratch_bytes(10, 4, 1), 3u * 10u * 32u + 10u * 4u);
  EXPECT_EQ(conv2d_s8_compact__dsp_scratch_bytes(1, 1, 64), 2u * 16u * 32u + 16u * 4u);
  EXPECT_EQ(conv2d_s8_compact__dsp_scratch_bytes(1, 1, 4), 4u * 32u + 4u);
  EXPECT_EQ(conv2d_s8_compact__dsp_scratch_bytes(3, 3, 256), 576u * 32u + 576u * 4u);
  const Case ok = fixed_case(3, 6, 1, 1);
  const uint32_t need = conv2d_s8_compact__dsp_scratch_bytes(3, 3, 6);
  EXPECT_EQ(check_with(ok, need, kConv2dS8CompactDspEntry), Status::kOk);
  EXPECT_EQ(check_with(ok, need - 1, kConv2dS8CompactDspEntry), Status::kBadParams);
  EXPECT_EQ(check_with(fixed_case(3, 8, 1, 2), 4096, kConv2dS8CompactDspEntry), Status::kBadParams);
  Case bad_shift = ok;
  bad_shift.shifts[1] = 31;
  EXPECT_EQ(check_with(bad_shift, need, kConv2dS8CompactDspEntry), Status::kBadParams);
}

}  // namespace conv2d_variants_test
}  // namespace mote
