// Random small-window conv2d_s8 cases (1-4 input channels, kernels up to 5x5 and 10x4;
// for a variant whose scratch function gives 0 past 24 SMLAD steps per window, reduced
// to at most 24), shared by the suite of the small-window variant and
// by conv2d_s8__dsp's (which runs such windows too).
#pragma once

#include "conformance.h"
#include "conv2d/conv2d.h"
#include "conv2d_s8_dsp_cases.h"
#include "window_cases.h"

namespace mote::conformance {

// The variant's scratch: (kernel_h, kernel_w, in_c) -> bytes.
using SmallWindowScratchFn = uint32_t (*)(int32_t, int32_t, int32_t);
// The small-window variant's scratch with every pair's record kept: (kernel_h, kernel_w,
// in_c, out_c) -> bytes, 0 where it keeps none (conv2d_s8_small_window__dsp_records_bytes).
using SmallWindowRecordsFn = uint32_t (*)(int32_t, int32_t, int32_t, int32_t);

// The variant's scratch for a case and the last int32 it takes: with records_bytes (the
// small-window variant) pair_records 1 in three cases of four where the records apply
// (and the scratch at least what they need), else 0.
inline uint32_t small_window_scratch(Rng& rng, const Conv2dShape& s, SmallWindowScratchFn scratch_bytes,
                                     SmallWindowRecordsFn records_bytes, int32_t* last_param) {
  uint32_t bytes = scratch_bytes(s.kernel_h, s.kernel_w, s.in_c);
  *last_param = 0;
  const uint32_t records =
      records_bytes != nullptr ? records_bytes(s.kernel_h, s.kernel_w, s.in_c, s.out_c) : 0u;
  if (records != 0 && rng.uniform(0, 3) != 0) {
    *last_param = 1;
    if (records > bytes) bytes = records;
  }
  return bytes;
}

// Few input channels (one in eight with 17-33 output channels over a larger image): strides 1-2 (mostly 2), padding 0-2 on each side, odd widths,
// batch 2, dilation, odd out_c, partial pixel blocks and chunks; mostly the common
// quantization (multipliers >= 0, shifts in [-25, -2], clamp [-128, 127], a bias: the
// asm channel-pair block on DSP cores), sometimes any clamp, shift or multiplier; one in
// five with biases at the edge of the pair block's |acc| < 2^30; one in three ReLU-like
// (output zero point -128, shifts in [-12, -1]: the pair blocks' shifted
// requantization, right at its bounds too). With records_bytes, one in four large cases
// has an even out_c, half of those one-word window rows (the records path: pair_records
// drawn by small_window_scratch).
inline int run_small_window_cases(Rng& rng, int cases, const char* name, Conv2dS8VariantFn variant,
                                  SmallWindowScratchFn scratch_bytes,
                                  SmallWindowRecordsFn records_bytes = nullptr) {
  int failed = 0;
  for (int c = 0; c < cases; ++c) {
    arena().reset();
    Conv2dShape s;
    Conv2dS8Params p;
    s.batch = rng.uniform(0, 5) == 0 ? 2 : 1;
    s.in_c = rng.uniform(1, 4);
    // One in eight large: more channel pairs than a variant caches and several full chunks.
    const bool large = rng.uniform(0, 7) == 0;
    s.out_c = large ? rng.uniform(17, 33) : rng.uniform(0, 2) == 0 ? rng.uniform(1, 9) : 2 * rng.uniform(1, 12);
    if (large && records_bytes != nullptr && rng.coin()) s.out_c = 2 * rng.uniform(9, 24);
    if (rng.uniform(0, 7) == 0) {  // kws-like 10x4 over one channel
      s.in_c = 1;
      s.kernel_h = 10;
      s.kernel_w = 4;
    } else {
      s.kernel_h = rng.uniform(1, 5);
      s.kernel_w = rng.uniform(1, 5);
    }
    // Records-sized (even out_c above 16): one in two with one-word window rows
    // (kernel_w * in_c == 4: 4x1, 2x2, 1x4), the layouts the records path takes.
    if (records_bytes != nullptr && s.out_c % 2 == 0 && s.out_c > 16 && rng.coin()) {
      s.kernel_w = 1 << rng.uniform(0, 2);
      s.in_c = 4 / s.kernel_w;
    }
    // A window the variant does not take (scratch 0: past 24 steps, e.g. 5x5x3): fewer
    // input channels, then a narrower window, until it does (variants taking any window
    // keep the draw).
    while (scratch_bytes(s.kernel_h, s.kernel_w, s.in_c) == 0) {
      if (s.in_c > 1) {
        --s.in_c;
      } else {
        --s.kernel_w;
      }
    }
    p.window.stride_h = rng.uniform(0, 3) == 0 ? 1 : 2;
    p.window.stride_w = rng.uniform(0, 3) == 0 ? 1 : 2;
    p.groups = 1;
    p.window.dilation_h = rng.uniform(0, 7) == 0 ? 2 : 1;
    p.window.dilation_w = rng.uniform(0, 7) == 0 ? 2 : 1;
    draw_padding(rng, 2, &p.window);
    const int32_t eff_h = p.window.dilation_h * (s.kernel_h - 1) + 1;
    const int32_t eff_w = p.window.dilation_w * (s.kernel_w - 1) + 1;
    const int32_t min_h = eff_h - p.window.pad_top - p.window.pad_bottom;
    const int32_t min_w = eff_w - p.window.pad_left - p.window.pad_right;
    s.in_h = (min_h > 1 ? min_h : 1) + rng.uniform(0, 12) + (large ? 16 : 0);
    s.in_w = (min_w > 1 ? min_w : 1) + 2 * rng.uniform(0, 9) + 1 + (large ? 16 : 0);  // often odd
    s.out_h = (s.in_h + p.window.pad_top + p.window.pad_bottom - eff_h) / p.window.stride_h + 1;
    s.out_w = (s.in_w + p.window.pad_left + p.window.pad_right - eff_w) / p.window.stride_w + 1;
    p.input_zero_point = rng.uniform(0, 3) == 0 ? 0 : rng.uniform(-128, 127);
    const bool relu = rng.uniform(0, 2) == 0;
    p.output_zero_point = relu ? -128 : rng.uniform(-128, 127);
    const bool common = rng.uniform(0, 3) != 0;
    p.act_min = common || rng.coin() ? -128 : rng.uniform(-128, 127);
    p.act_max = common || rng.coin() ? 127 : rng.uniform(p.act_min, 127);

    // Records cases on random inputs: every pair in the shifted requantization (shifts
    // -4..-10, multipliers >= 2^30, biases well inside its bound), so that the records
    // path runs (the shifted cases below take it on inputs at the extremes).
    const bool records_quant = relu && common && records_bytes != nullptr &&
                               records_bytes(s.kernel_h, s.kernel_w, s.in_c, s.out_c) != 0 && rng.uniform(0, 3) != 0;
    const bool no_bias = rng.uniform(0, common ? 15 : 3) == 0;
    Conv2dS8Case k;
    int32_t last_param = 0;
    const uint32_t scratch = small_window_scratch(rng, s, scratch_bytes, records_bytes, &last_param);
    if (!alloc_conv2d_s8_case(name, c, s, !no_bias, scratch, 0, &k)) {
      continue;
    }
    k.wide_channels = last_param;
    fill_s8(rng, k.input, k.in_count);
    fill_s8(rng, k.filter, k.filter_count);
    // Near the pair loop's bound (draw_acc_edge), one in five.
    const bool edge = k.bias != nullptr && !records_quant && rng.uniform(0, 4) == 0;
    if (edge) {
      draw_acc_edge(rng, s, &p, &k);
    } else if (k.bias != nullptr) {
      const bool wide = !records_quant && rng.uniform(0, 5) == 0;
      fill_s32(rng, k.bias, s.out_c, wide ? INT32_MIN : -60000, wide ? INT32_MAX : 60000);
    }
    for (int32_t o = 0; o < s.out_c; ++o) {
      if (records_quant) {
        k.multipliers[o] = rng.uniform(1 << 30, INT32_MAX);
        k.shifts[o] = rng.uniform(-10, -4);
      } else if (common && rng.uniform(0, 15) != 0) {
        k.multipliers[o] = rng.uniform(1 << 30, INT32_MAX);
        k.shifts[o] = relu ? rng.uniform(-12, -1) : rng.uniform(-25, -2);
      } else {
        k.multipliers[o] = conv2d_dsp_random_multiplier(rng, rng.coin());
        k.shifts[o] = rng.uniform(-31, 30);
      }
    }
    if (!check_conv2d_s8_case(name, c, "small window", p, s, k, variant)) ++failed;
  }
  return failed;
}

// A channel's exponent in the shifted requantization
// (conv2d_s8_small_window__dsp_shifted_exponent), 0 where it does not take it.
using ShiftedExponentFn = int32_t (*)(int32_t, int32_t, int32_t, int32_t);

// ReLU-like cases (output zero point -128, clamp [-128, 127], multipliers >= 0) at the
// extremes of the shifted requantization, which takes a channel with right = -shift in
// [4, 10] and e = 12 - right when |bias| + K * 255 * 128 < 2^(31 - e): the input all at the
// extreme opposite the input zero point (|input - zp| up to 255; padding aside), each
// channel's weights -128 or 127 so that its products share one sign, its bias of that
// sign just inside the bound (the largest accumulators the mode takes) or past it by up
// to three times 2^(31 - e) (accumulators that a bound two or four times looser would shift
// out of int32: the doubled requantization must take them); shifts at both ends of the
// range, now and then one just outside (-3, -11). Mostly vww's 3x3x3 at stride 2 and kws'
// 10x4x1; up to 16 channels (weights scaled once) or more (accumulators shifted). With
// shifted_exponent (the small-window variant), each channel takes the mode exactly when
// inside the bound (a stricter bound fails as a looser one does), and at least one case in
// eight must take it in every channel.
inline int run_small_window_shifted_cases(Rng& rng, int cases, const char* name, Conv2dS8VariantFn variant,
                                          SmallWindowScratchFn scratch_bytes,
                                          ShiftedExponentFn shifted_exponent,
                                          SmallWindowRecordsFn records_bytes = nullptr) {
  int failed = 0, shifted_cases = 0;
  for (int c = 0; c < cases; ++c) {
    arena().reset();
    Conv2dShape s;
    Conv2dS8Params p;
    s.batch = 1;
    const int32_t kind = rng.uniform(0, 3);
    if (kind <= 1) {
      s.kernel_h = s.kernel_w = s.in_c = 3;
    } else if (kind == 2) {
      s.kernel_h = 10;
      s.kernel_w = 4;
      s.in_c = 1;
    } else {
      s.kernel_h = rng.uniform(1, 5);
      s.kernel_w = rng.uniform(1, 5);
      s.in_c = rng.uniform(1, 4);
      while (scratch_bytes(s.kernel_h, s.kernel_w, s.in_c) == 0) {
        if (s.in_c > 1) {
          --s.in_c;
        } else {
          --s.kernel_w;
        }
      }
    }
    s.out_c = rng.uniform(0, 3) == 0 ? rng.uniform(17, 24) : 2 * rng.uniform(1, 8);
    // The records path (more than 16 channels, even): kws' 64 channels too.
    if (records_bytes != nullptr && rng.uniform(0, 2) == 0) s.out_c = rng.coin() ? 64 : 2 * rng.uniform(9, 20);
    p.window.stride_h = p.window.stride_w = kind <= 1 ? 2 : rng.uniform(1, 2);
    p.window.dilation_h = p.window.dilation_w = 1;
    p.groups = 1;
    draw_padding(rng, 1, &p.window);
    draw_input_extent(rng, p.window, 8, &s);
    const bool extreme_zp = rng.uniform(0, 3) != 0;
    p.input_zero_point = extreme_zp ? (rng.coin() ? -128 : 127) : rng.uniform(-128, 127);
    p.output_zero_point = -128;
    p.act_min = -128;
    p.act_max = 127;
    const bool no_bias = rng.uniform(0, 7) == 0;
    Conv2dS8Case k;
    int32_t last_param = 0;
    const uint32_t scratch = small_window_scratch(rng, s, scratch_bytes, records_bytes, &last_param);
    if (!alloc_conv2d_s8_case(name, c, s, !no_bias, scratch, 0, &k)) {
      continue;
    }
    k.wide_channels = last_param;
    // One case in four with a few other input and weight bytes.
    const bool noisy = rng.uniform(0, 3) == 0;
    const int32_t x = p.input_zero_point >= 0 ? -128 : 127;
    const int32_t x_sign = x > p.input_zero_point ? 1 : -1;
    const int32_t distance = x > p.input_zero_point ? x - p.input_zero_point : p.input_zero_point - x;
    for (int32_t i = 0; i < k.in_count; ++i) {
      k.input[i] = static_cast<int8_t>(noisy && rng.uniform(0, 15) == 0 ? rng.uniform(-128, 127) : x);
    }
    const int32_t taps = s.kernel_h * s.kernel_w * s.in_c;
    const int32_t check_reach = taps * 255 * 128;
    // Biases inside the bound, past it, or either per channel.
    const int32_t bias_mode = rng.uniform(0, 3);
    const bool outside_shift = rng.uniform(0, 4) == 0;
    const int32_t outside_channel = rng.uniform(0, s.out_c - 1);
    int32_t* const want = arena().alloc_array<int32_t>(s.out_c);
    int32_t* const got = arena().alloc_array<int32_t>(s.out_c);
    if (want == nullptr || got == nullptr) {
      skip_case(name, c, "arena too small");
      continue;
    }
    bool all_shifted = true;
    for (int32_t o = 0; o < s.out_c; ++o) {
      const int32_t sign = rng.coin() ? 1 : -1;  // of the channel's products and bias
      const int32_t w = sign == -x_sign ? -128 : 127;
      int8_t* const f = k.filter + o * taps;
      for (int32_t i = 0; i < taps; ++i) {
        f[i] = static_cast<int8_t>(noisy && rng.uniform(0, 15) == 0 ? rng.uniform(-128, 127) : w);
      }
      const int32_t ends = rng.uniform(0, 3);
      int32_t right = ends == 0 ? 4 : ends == 1 ? 10 : rng.uniform(4, 10);
      if (outside_shift && o == outside_channel) right = rng.coin() ? 3 : 11;
      k.shifts[o] = -right;
      k.multipliers[o] = rng.coin() ? rng.uniform(1 << 30, INT32_MAX) : rng.uniform(0, 1 << 20);
      const int32_t e = 12 - right;
      const int32_t bound = right >= 4 && right <= 10 ? 1 << (31 - e) : 1 << 23;
      const int32_t reach = taps * distance * (w < 0 ? 128 : 127);
      const bool inside = bias_mode == 0 || (bias_mode == 2 && rng.coin());
      int32_t b = inside ? bound - 1 - check_reach - rng.uniform(0, 2)
                         : bound - reach + rng.uniform(1, (rng.coin() ? 1 : 3) * bound);
      const int32_t doubled_limit = (1 << 30) - 1 - check_reach;  // acc_fits_doubled
      if (b > doubled_limit) b = doubled_limit;
      if (k.bias != nullptr) k.bias[o] = sign * b;
      const int32_t bias = k.bias != nullptr ? k.bias[o] : 0;
      const int64_t bias_abs = bias < 0 ? -int64_t{bias} : int64_t{bias};
      want[o] = right >= 4 && right <= 10 && bias_abs + check_reach < bound ? e : 0;
      if (shifted_exponent != nullptr) {
        got[o] = shifted_exponent(k.multipliers[o], k.shifts[o], bias, taps);
        all_shifted = all_shifted && got[o] != 0;
      }
    }
    if (shifted_exponent != nullptr) {
      if (all_shifted) ++shifted_cases;
      if (!expect_equal_s32(name, c, "shifted exponents", want, got, static_cast<size_t>(s.out_c))) ++failed;
    }
    if (!check_conv2d_s8_case(name, c, "small window shifted", p, s, k, variant)) ++failed;
  }
  if (shifted_exponent != nullptr) {
    const int32_t want_enough[1] = {1};
    const int32_t enough[1] = {cases < 200 || shifted_cases >= cases / 8};
    if (!expect_equal_s32(name, -1, "cases in the shifted requantization", want_enough, enough, 1)) ++failed;
  }
  return failed;
}

}  // namespace mote::conformance
