// Random conv2d_s8 cases shared by the conv2d_s8__dsp and conv2d_s8_1x1__dsp suites:
// the variant against the reference conv2d_s8 on the same buffers. Shapes cover odd
// channel counts (K tails), partial pixel blocks, strides 1-3, dilation, asymmetric
// padding (general variant), batch 2, zero points, clamps, absent bias, and realistic
// and extreme multipliers / shifts (INT32_MIN included) and biases (accumulator wraps),
// and cases with every multiplier >= 0 over the whole shift range (the fast paths).
#pragma once

#include "conformance.h"
#include "conv2d/conv2d.h"
#include "window_cases.h"

namespace mote::conformance {

// The variants as conv2d_s8__dsp takes its arguments: last, how many channels it widens
// in scratch (wide_channels; the others take none: without_wide).
using Conv2dS8VariantFn = void (*)(const Conv2dS8Params&, const int32_t*, const int32_t*,
                                   const Conv2dShape&, const int8_t*, const int8_t*,
                                   const int32_t*, int8_t*, uint8_t*, int32_t);
// Its scratch: (kernel_h, kernel_w, in_c, wide_channels) -> bytes.
using Conv2dS8ScratchFn = uint32_t (*)(int32_t, int32_t, int32_t, int32_t);

template <void (*kVariant)(const Conv2dS8Params&, const int32_t*, const int32_t*, const Conv2dShape&,
                           const int8_t*, const int8_t*, const int32_t*, int8_t*, uint8_t*)>
void without_wide(const Conv2dS8Params& p, const int32_t* multipliers, const int32_t* shifts,
                  const Conv2dShape& s, const int8_t* input, const int8_t* filter, const int32_t* bias,
                  int8_t* output, uint8_t* scratch, int32_t /*wide_channels*/) {
  kVariant(p, multipliers, shifts, s, input, filter, bias, output, scratch);
}

// One case's buffers in arena(): the input (input_shift bytes past an aligned start: an
// unaligned input when > 0), filter, bias (none when !with_bias), per-channel
// multipliers and shifts, both outputs and the variant's scratch. The caller fills them.
struct Conv2dS8Case {
  int8_t* input;
  int8_t* filter;
  int32_t* bias;
  int32_t* multipliers;
  int32_t* shifts;
  int8_t* expected;
  int8_t* actual;
  uint8_t* scratch;
  int32_t in_count, filter_count, out_count;
  int32_t wide_channels = 0;  // passed to the variant
};

// False (and case `index` counted as skipped, skip_case()) when the arena cannot hold it.
inline bool alloc_conv2d_s8_case(const char* name, int index, const Conv2dShape& s, bool with_bias,
                                 uint32_t scratch_bytes, int32_t input_shift, Conv2dS8Case* k) {
  Arena& a = arena();
  k->in_count = s.batch * s.in_h * s.in_w * s.in_c;
  k->filter_count = s.out_c * s.kernel_h * s.kernel_w * s.in_c;
  k->out_count = s.batch * s.out_h * s.out_w * s.out_c;
  int8_t* input_base = a.alloc_array<int8_t>(k->in_count + input_shift);
  k->filter = a.alloc_array<int8_t>(k->filter_count);
  k->bias = with_bias ? a.alloc_array<int32_t>(s.out_c) : nullptr;
  k->multipliers = a.alloc_array<int32_t>(s.out_c);
  k->shifts = a.alloc_array<int32_t>(s.out_c);
  k->expected = a.alloc_array<int8_t>(k->out_count);
  k->actual = a.alloc_array<int8_t>(k->out_count);
  k->scratch = a.alloc_array<uint8_t>(scratch_bytes);
  if (input_base == nullptr || k->filter == nullptr || (with_bias && k->bias == nullptr) ||
      k->multipliers == nullptr || k->shifts == nullptr || k->expected == nullptr ||
      k->actual == nullptr || k->scratch == nullptr) {
    skip_case(name, index, "arena too small");
    return false;
  }
  k->input = input_base + input_shift;
  return true;
}

// Runs conv2d_s8 and the variant on the case; false (and the first difference printed)
// when their outputs differ.
inline bool check_conv2d_s8_case(const char* name, int index, const char* what,
                                 const Conv2dS8Params& p, const Conv2dShape& s,
                                 const Conv2dS8Case& k, Conv2dS8VariantFn variant) {
  conv2d_s8(p, k.multipliers, k.shifts, s, k.input, k.filter, k.bias, k.expected);
  variant(p, k.multipliers, k.shifts, s, k.input, k.filter, k.bias, k.actual, k.scratch, k.wide_channels);
  return expect_equal_s8(name, index, what, k.expected, k.actual,
                         static_cast<size_t>(k.out_count));
}

inline int32_t conv2d_dsp_random_multiplier(Rng& rng, bool extreme) {
  if (!extreme) return rng.uniform(1 << 30, INT32_MAX);
  switch (rng.uniform(0, 5)) {
    case 0: return INT32_MIN;
    case 1: return INT32_MAX;
    case 2: return -rng.uniform(1, INT32_MAX);
    case 3: return rng.uniform(0, 3);
    default: return rng.uniform(1 << 30, INT32_MAX);
  }
}

// One case in pointwise_one_in is pointwise: 1x1 kernel, no padding (what
// conv2d_s8_1x1__dsp takes; 1 = all); the others have any kernel up to 4x4.
// scratch_bytes sizes the variant's scratch for the wide_channels drawn (0 .. out_c).
inline int run_conv2d_s8_dsp_cases(Rng& rng, int cases, const char* name, int pointwise_one_in,
                                   Conv2dS8VariantFn variant, Conv2dS8ScratchFn scratch_bytes) {
  int failed = 0;
  for (int c = 0; c < cases; ++c) {
    arena().reset();
    const bool pointwise = rng.uniform(1, pointwise_one_in) == 1;
    Conv2dShape s;
    Conv2dS8Params p;
    s.batch = rng.uniform(0, 4) == 0 ? 2 : 1;
    // fast_wide: every multiplier >= 0 (the variants' fast requantization), often with
    // in_c % 8 == 0, a bias and the full clamp range (their asm channel loop on DSP cores).
    const bool fast_wide = rng.coin();
    const int32_t c_mode = rng.uniform(0, 3);
    s.in_c = fast_wide && c_mode == 0 ? 8 * rng.uniform(1, 8)
             : c_mode < 3             ? rng.uniform(1, 67)
                                      : 4 * rng.uniform(1, 16);
    s.out_c = rng.uniform(1, 19);
    p.window.stride_h = rng.uniform(1, 3);
    p.window.stride_w = rng.uniform(1, 3);
    p.groups = 1;
    if (pointwise) {
      s.kernel_h = s.kernel_w = 1;
      p.window.dilation_h = rng.uniform(1, 2);
      p.window.dilation_w = rng.uniform(1, 2);
      p.window.pad_top = p.window.pad_left = p.window.pad_bottom = p.window.pad_right = 0;
    } else {
      s.kernel_h = rng.uniform(1, 4);
      s.kernel_w = rng.uniform(1, 4);
      p.window.dilation_h = rng.uniform(0, 3) == 0 ? 2 : 1;
      p.window.dilation_w = rng.uniform(0, 3) == 0 ? rng.uniform(2, 3) : 1;
      draw_padding(rng, 2, &p.window);
    }
    draw_input_extent(rng, p.window, 6, &s);
    p.input_zero_point = rng.uniform(0, 2) == 0 ? 0 : rng.uniform(-128, 127);
    p.output_zero_point = rng.uniform(-128, 127);
    p.act_min = rng.coin() ? -128 : rng.uniform(-128, 127);
    p.act_max = rng.coin() ? 127 : rng.uniform(p.act_min, 127);
    if (fast_wide && rng.uniform(0, 7) != 0) {
      p.act_min = -128;
      p.act_max = 127;
    }
    const bool extreme = !fast_wide && rng.uniform(0, 2) == 0;

    const bool no_bias = rng.uniform(0, fast_wide ? 15 : 3) == 0;
    const int32_t wide_channels = rng.coin() ? s.out_c : rng.uniform(0, s.out_c);
    Conv2dS8Case k;
    if (!alloc_conv2d_s8_case(name, c, s, !no_bias,
                              scratch_bytes(s.kernel_h, s.kernel_w, s.in_c, wide_channels), 0, &k)) {
      continue;
    }
    k.wide_channels = wide_channels;
    int8_t* const input = k.input;
    int8_t* const filter = k.filter;
    int32_t* const bias = k.bias;
    int32_t* const multipliers = k.multipliers;
    int32_t* const shifts = k.shifts;
    const int32_t in_count = k.in_count, filter_count = k.filter_count;
    fill_s8(rng, input, in_count);
    fill_s8(rng, filter, filter_count);
    if (bias != nullptr) {
      const bool wide = extreme || (fast_wide && rng.coin());
      fill_s32(rng, bias, s.out_c, wide ? INT32_MIN : -60000, wide ? INT32_MAX : 60000);
    }
    // fast_wide shifts: any, tiny scales only, or all in [-25, -2] (every channel
    // right-shifting); some channels have multiplier 0 with any shift.
    const int32_t shift_mode = rng.uniform(0, 3) != 0 ? 2 : rng.uniform(0, 1);
    for (int32_t o = 0; o < s.out_c; ++o) {
      const bool extreme_channel = extreme && rng.coin();
      if (fast_wide) {
        multipliers[o] = rng.coin() ? rng.uniform(0, INT32_MAX) : rng.uniform(1 << 30, INT32_MAX);
        shifts[o] = shift_mode == 0   ? rng.uniform(-31, 30)
                    : shift_mode == 1 ? rng.uniform(-31, -20)
                                      : rng.uniform(-25, -2);
        if (rng.uniform(0, 7) == 0) {
          multipliers[o] = 0;
          shifts[o] = rng.uniform(-31, 30);
        }
        continue;
      }
      multipliers[o] = conv2d_dsp_random_multiplier(rng, extreme_channel);
      shifts[o] = extreme_channel ? rng.uniform(-31, 30) : rng.uniform(-12, 1);
    }
    if (!check_conv2d_s8_case(name, c, pointwise ? "1x1" : "conv", p, s, k, variant)) ++failed;
  }
  return failed;
}

// Accumulators near the doubled requantization's bound (every |acc| < 2^30 when |bias| <
// 2^30 - K * 255 * 128, conv2d_dsp::acc_fits_doubled): biases just inside it or (one in
// three) past it, with extreme inputs and weights driving the sums the same way, so that
// |acc| comes within K * 255 * 128 of 2^30 (or past it). k's buffers already filled.
inline void draw_acc_edge(Rng& rng, const Conv2dShape& s, Conv2dS8Params* p, Conv2dS8Case* k) {
  const int32_t taps = s.kernel_h * s.kernel_w * s.in_c;
  const int32_t limit = (1 << 30) - taps * 255 * 128;
  const bool up = rng.coin(), negative_weights = rng.coin();
  p->input_zero_point = up ? -128 : 127;
  for (int32_t i = 0; i < k->in_count; ++i) {
    k->input[i] = static_cast<int8_t>(rng.uniform(0, 7) == 0 ? rng.uniform(-128, 127) : (up ? 127 : -128));
  }
  for (int32_t i = 0; i < k->filter_count; ++i) {
    k->filter[i] = static_cast<int8_t>(rng.uniform(0, 7) == 0 ? rng.uniform(-128, 127) : (negative_weights ? -128 : 127));
  }
  const bool positive = up != negative_weights;  // the sums' sign
  const bool past = rng.uniform(0, 2) == 0;
  for (int32_t o = 0; o < s.out_c; ++o) {
    const int32_t b = past ? limit + rng.uniform(0, taps * 255 * 128) : limit - rng.uniform(0, 2);
    k->bias[o] = positive == (rng.uniform(0, 5) != 0) ? b : -b;
  }
}

// A guard of kPastScratchBytes allocated (filled with 0xA5) just past a case's scratch:
// allocate it right after the scratch, run the case, then past_scratch_intact. Null when
// the arena is full (the case is skipped as too large).
inline constexpr int32_t kPastScratchBytes = 64;
inline uint8_t* alloc_past_scratch() {
  return static_cast<uint8_t*>(arena().alloc(kPastScratchBytes, 4));
}

// Whether the guard past a case's scratch is as it was; else case `index` is reported as
// having written past its scratch.
inline bool past_scratch_intact(const char* name, int index, const uint8_t* past) {
  for (int32_t i = 0; i < kPastScratchBytes; ++i) {
    if (past[i] != 0xA5) {
      print(name);
      print(" case ");
      print_int(index);
      print(": wrote past its scratch\n");
      return false;
    }
  }
  return true;
}

// The widened-weights channel loop of the DSP variants (conv2d_s8_dsp_block.h): the
// common quantization with every shift in [-23, -2], a bias, clamp [-128, 127]; group
// counts a multiple of 4 (in_c % 16 == 0) and others; every channel widened, or some
// (the others then run the other loop), or none; now and then one shift outside the
// range. The bytes just past the scratch must stay as they are.
// pointwise: 1x1 windows without padding (conv2d_s8_1x1__dsp), K = in_c.
inline int run_conv2d_s8_wide_cases(Rng& rng, int cases, const char* name,
                                    Conv2dS8VariantFn variant, Conv2dS8ScratchFn scratch_bytes,
                                    bool pointwise = false) {
  int failed = 0;
  for (int c = 0; c < cases; ++c) {
    arena().reset();
    Conv2dShape s;
    Conv2dS8Params p;
    s.batch = rng.uniform(0, 5) == 0 ? 2 : 1;
    const int32_t c_mode = rng.uniform(0, 3);
    s.in_c = c_mode == 0   ? 16 * rng.uniform(1, 8)
             : c_mode == 1 ? 8 * rng.uniform(1, 9)
             : c_mode == 2 ? rng.uniform(5, 70)
                           : 4 * rng.uniform(2, 17);
    s.out_c = rng.uniform(0, 2) == 0 ? rng.uniform(1, 40) : rng.uniform(1, 17);
    s.kernel_h = rng.uniform(0, 2) != 0 ? 3 : rng.uniform(1, 4);
    s.kernel_w = rng.uniform(0, 2) != 0 ? 3 : rng.uniform(1, 4);
    p.window.stride_h = rng.uniform(1, 2);
    p.window.stride_w = rng.uniform(1, 2);
    p.groups = 1;
    p.window.dilation_h = rng.uniform(0, 7) == 0 ? 2 : 1;
    p.window.dilation_w = rng.uniform(0, 7) == 0 ? 2 : 1;
    draw_padding(rng, 1, &p.window);
    if (pointwise) {
      s.kernel_h = s.kernel_w = 1;
      p.window.pad_top = p.window.pad_left = p.window.pad_bottom = p.window.pad_right = 0;
      if (rng.coin()) s.in_c = 16 * rng.uniform(2, 16);  // widened (not 16: small path)
    }
    draw_input_extent(rng, p.window, 8, &s);
    p.input_zero_point = rng.uniform(0, 3) == 0 ? 0 : rng.uniform(-128, 127);
    p.output_zero_point = rng.uniform(-128, 127);
    p.act_min = -128;
    p.act_max = 127;
    const int32_t wide_channels = rng.uniform(0, 2) != 0 ? s.out_c : rng.uniform(0, s.out_c);
    Conv2dS8Case k;
    if (!alloc_conv2d_s8_case(name, c, s, true, scratch_bytes(s.kernel_h, s.kernel_w, s.in_c, wide_channels),
                              0, &k)) {
      continue;
    }
    k.wide_channels = wide_channels;
    uint8_t* const past_scratch = alloc_past_scratch();
    if (past_scratch == nullptr) {
      skip_case(name, c, "arena too small");
      continue;
    }
    fill_s8(rng, k.input, k.in_count);
    fill_s8(rng, k.filter, k.filter_count);
    const bool wide_bias = rng.uniform(0, 5) == 0;
    fill_s32(rng, k.bias, s.out_c, wide_bias ? INT32_MIN : -60000, wide_bias ? INT32_MAX : 60000);
    for (int32_t o = 0; o < s.out_c; ++o) {
      k.multipliers[o] = rng.uniform(0, 7) == 0 ? rng.uniform(0, INT32_MAX) : rng.uniform(1 << 30, INT32_MAX);
      k.shifts[o] = rng.uniform(0, 3) == 0 ? rng.uniform(-23, -2) : rng.uniform(-12, -5);
    }
    // One in four: near the doubled requantization's bound (draw_acc_edge): the widened
    // loop's doubled form just inside it, the other form past it.
    if (rng.uniform(0, 3) == 0) draw_acc_edge(rng, s, &p, &k);
    // One in four: a shift outside [-23, -2] (the checked loop; -1 leaves the asm loops).
    if (rng.uniform(0, 3) == 0) k.shifts[rng.uniform(0, s.out_c - 1)] = rng.uniform(-31, -1);
    if (!check_conv2d_s8_case(name, c, "wide", p, s, k, variant)) {
      ++failed;
      continue;
    }
    if (!past_scratch_intact(name, c, past_scratch)) ++failed;
  }
  return failed;
}


}  // namespace mote::conformance
