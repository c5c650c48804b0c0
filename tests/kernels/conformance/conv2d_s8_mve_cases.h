// Random conv2d_s8 cases shared by the conv2d_s8__mve and conv2d_s8_1x1__mve suites: the
// variant against the reference conv2d_s8 on the same buffers. Covers input and output
// channel tails (1..17 and beyond 16), odd pixel counts, strides 1-3, dilation,
// asymmetric padding (general variant), batch 2, zero points, clamps, absent bias,
// realistic and extreme multipliers / shifts (INT32_MIN included), cases with every
// shift negative, 8 and 16 input channels more often, and wrapping biases.
#pragma once

#include "conformance.h"
#include "conv2d/conv2d.h"
#include "window_cases.h"

namespace mote::conformance {

// Calls the variant with scratch of the size it asks for (the suite allocates it).
using Conv2dS8MveCall = void (*)(const Conv2dS8Params&, const int32_t*, const int32_t*,
                                 const Conv2dShape&, const int8_t*, const int8_t*,
                                 const int32_t*, int8_t*, uint8_t*);
using Conv2dS8MveScratch = uint32_t (*)(const Conv2dShape&);

inline int32_t conv2d_mve_random_multiplier(Rng& rng, bool extreme) {
  if (!extreme) return rng.uniform(1 << 30, INT32_MAX);
  switch (rng.uniform(0, 4)) {
    case 0: return INT32_MIN;
    case 1: return INT32_MAX;
    case 2: return -rng.uniform(1, INT32_MAX);
    case 3: return rng.uniform(0, 5);
    default: return rng.uniform(1 << 30, INT32_MAX);
  }
}

// Channels of a pointwise case whose output cannot vary (or nearly so), for the 1x1
// variant's constant channels: about `quarters` / 4 of the channels (4: every one) get one
// of: a bias near -2^30 or +2^30 (the output clamped at either end for either sign of
// multiplier), zero weights, a zero multiplier, a bias that puts the highest reachable
// accumulator (positive multiplier) or the lowest (negative) within a few steps of 0,
// under a ReLU-like clamp constant or not by one step (the first pixel is given the
// inputs that reach that end for the last such channel), a bias within the reachable span of the int32 ends (the accumulator range
// wraps), or a left shift whose range straddles the wrap of acc << shift. The clamp
// becomes ReLU-like half the time and a single value (act_min == act_max) an eighth.
inline void draw_constant_channels(Rng& rng, int32_t quarters, Conv2dS8Params* p,
                                   const Conv2dShape& s, int8_t* input, int8_t* filter,
                                   int32_t* bias, int32_t* multipliers, int32_t* shifts) {
  const int32_t k = s.in_c;
  const int32_t off = -p->input_zero_point;
  if (rng.coin()) p->act_min = p->output_zero_point < -128 ? -128 : p->output_zero_point;
  if (p->act_max < p->act_min || rng.uniform(0, 7) == 0) p->act_max = p->act_min;
  for (int32_t o = 0; o < s.out_c; ++o) {
    if (rng.uniform(0, 3) >= quarters) continue;
    int8_t* w = filter + o * k;
    // The highest and lowest reachable sums of w * (x + off).
    int64_t top = 0, bottom = 0;
    for (int32_t i = 0; i < k; ++i) {
      const int64_t a = int64_t{w[i]} * (127 + off), b = int64_t{w[i]} * (-128 + off);
      top += a > b ? a : b;
      bottom += a > b ? b : a;
    }
    switch (rng.uniform(0, 6)) {
      case 0:
        bias[o] = -(1 << 30) - rng.uniform(0, 1 << 20);
        break;
      case 1:
        bias[o] = (1 << 30) + rng.uniform(0, 1 << 20);
        break;
      case 2:
        for (int32_t i = 0; i < k; ++i) w[i] = 0;
        break;
      case 3:
        multipliers[o] = 0;
        break;
      case 4: {
        // A positive multiplier and the top near 0, or a negative one and the bottom.
        const bool up = rng.coin();
        multipliers[o] = up ? rng.uniform(1 << 30, INT32_MAX) : -rng.uniform(1 << 30, INT32_MAX);
        shifts[o] = rng.uniform(-3, 0);
        bias[o] = static_cast<int32_t>(up ? -top : -bottom) + rng.uniform(-6, 6);
        // Pixel 0 reaches that end.
        for (int32_t i = 0; i < k; ++i) {
          if (w[i] != 0) input[i] = (w[i] > 0) == up ? 127 : -128;
        }
        break;
      }
      case 5: {
        const int64_t span = top - bottom + 2;
        bias[o] = rng.coin() ? static_cast<int32_t>(INT32_MAX - rng.uniform(0, static_cast<int32_t>(span)))
                             : static_cast<int32_t>(INT32_MIN + rng.uniform(0, static_cast<int32_t>(span)));
        break;
      }
      default: {
        const int32_t shift = rng.uniform(1, 20);
        shifts[o] = shift;
        multipliers[o] = rng.uniform(1, 1 << 12);
        const int64_t edge = rng.coin() ? -(int64_t{1} << (31 - shift)) : (int64_t{1} << (31 - shift));
        bias[o] = static_cast<int32_t>(edge - top + rng.uniform(-4, static_cast<int32_t>(top - bottom) + 4));
        break;
      }
    }
  }
}

// pointwise: 1x1 kernel without padding (any stride); otherwise any kernel up to 4x4.
inline int run_conv2d_s8_mve_cases(Rng& rng, int cases, const char* name, bool pointwise_only,
                                   Conv2dS8MveCall variant, Conv2dS8MveScratch scratch_bytes) {
  int failed = 0;
  for (int c = 0; c < cases; ++c) {
    Arena& a = arena();
    a.reset();
    const bool pointwise = pointwise_only || rng.uniform(0, 4) == 0;
    Conv2dShape s;
    Conv2dS8Params p;
    s.batch = rng.uniform(0, 3) == 0 ? 2 : 1;
    // 8 and 16 input channels have their own 1x1 paths (vww's first pointwise layers).
    // And the row lengths of the paths: 8, 16, 24, 32, 48, 64, 100, 128.
    static const int32_t kRows[] = {8, 16, 24, 32, 48, 64, 100, 128};
    const int32_t pick = rng.uniform(0, 7);
    s.in_c = pick == 0   ? 8 * rng.uniform(1, 2)
             : pick == 1 ? kRows[rng.uniform(0, 7)]
                         : (pick < 5 ? rng.uniform(1, 17) : rng.uniform(1, 80));
    s.out_c = rng.coin() ? rng.uniform(1, 17) : rng.uniform(1, 40);
    // The first 32 cases: each row length four times, with 4 to 19 channels.
    if (c < 32) {
      s.in_c = kRows[c % 8];
      s.out_c = 4 + (c / 8) + 4 * rng.uniform(0, 3);
    }
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
    p.input_zero_point = rng.uniform(0, 3) == 0 ? 0 : rng.uniform(-128, 127);
    p.output_zero_point = rng.uniform(-128, 127);
    p.act_min = rng.coin() ? -128 : rng.uniform(-128, 127);
    p.act_max = rng.coin() ? 127 : rng.uniform(p.act_min, 127);
    const bool extreme = rng.uniform(0, 3) == 0;
    // Every shift negative: the variants' shorter requantization.
    const bool right_shifts = !extreme && rng.coin();

    const int32_t in_count = s.batch * s.in_h * s.in_w * s.in_c;
    const int32_t filter_count = s.out_c * s.kernel_h * s.kernel_w * s.in_c;
    const int32_t out_count = s.batch * s.out_h * s.out_w * s.out_c;
    int8_t* input = a.alloc_array<int8_t>(in_count);
    int8_t* filter = a.alloc_array<int8_t>(filter_count);
    int32_t* bias = rng.uniform(0, 3) == 0 ? nullptr : a.alloc_array<int32_t>(s.out_c);
    int32_t* multipliers = a.alloc_array<int32_t>(s.out_c);
    int32_t* shifts = a.alloc_array<int32_t>(s.out_c);
    int8_t* expected = a.alloc_array<int8_t>(out_count);
    int8_t* actual = a.alloc_array<int8_t>(out_count);
    uint8_t* scratch = a.alloc_array<uint8_t>(scratch_bytes(s));
    if (input == nullptr || filter == nullptr || multipliers == nullptr || shifts == nullptr ||
        expected == nullptr || actual == nullptr || scratch == nullptr) {
      skip_case(name, c, "arena too small");
      continue;
    }
    fill_s8(rng, input, in_count);
    fill_s8(rng, filter, filter_count);
    if (bias != nullptr) {
      fill_s32(rng, bias, s.out_c, extreme ? INT32_MIN : -60000, extreme ? INT32_MAX : 60000);
    }
    for (int32_t o = 0; o < s.out_c; ++o) {
      const bool extreme_channel = extreme && rng.coin();
      multipliers[o] = conv2d_mve_random_multiplier(rng, extreme_channel);
      shifts[o] = extreme_channel ? rng.uniform(-31, 30)
                                  : (right_shifts ? rng.uniform(-12, -1) : rng.uniform(-12, 1));
    }
    // Constant channels (pointwise only, in half of those cases), up to every one.
    if (pointwise && bias != nullptr && rng.coin()) {
      draw_constant_channels(rng, rng.uniform(0, 4), &p, s, input, filter, bias, multipliers,
                             shifts);
    }
    conv2d_s8(p, multipliers, shifts, s, input, filter, bias, expected);
    variant(p, multipliers, shifts, s, input, filter, bias, actual, scratch);
    if (!expect_equal_s8(name, c, pointwise ? "1x1" : "conv", expected, actual,
                         static_cast<size_t>(out_count))) {
      ++failed;
    }
  }
  return failed;
}

}  // namespace mote::conformance
