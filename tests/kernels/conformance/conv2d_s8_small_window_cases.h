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

// Few input channels (one in eight with 17-33 output channels over a larger image): strides 1-2 (mostly 2), padding 0-2 on each side, odd widths,
// batch 2, dilation, odd out_c, partial pixel blocks and chunks; mostly the common
// quantization (multipliers >= 0, shifts in [-25, -2], clamp [-128, 127], a bias: the
// asm channel-pair block on DSP cores), sometimes any clamp, shift or multiplier; one in
// five with biases at the edge of the pair block's |acc| < 2^30; one in three ReLU-like
// (output zero point -128, shifts in [-12, -1]: the pair blocks' shifted
// requantization, right at its bounds too).
inline int run_small_window_cases(Rng& rng, int cases, const char* name, Conv2dS8VariantFn variant,
                                  SmallWindowScratchFn scratch_bytes) {
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
    if (rng.uniform(0, 7) == 0) {  // kws-like 10x4 over one channel
      s.in_c = 1;
      s.kernel_h = 10;
      s.kernel_w = 4;
    } else {
      s.kernel_h = rng.uniform(1, 5);
      s.kernel_w = rng.uniform(1, 5);
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

    const bool no_bias = rng.uniform(0, common ? 15 : 3) == 0;
    Conv2dS8Case k;
    if (!alloc_conv2d_s8_case(name, c, s, !no_bias,
                              scratch_bytes(s.kernel_h, s.kernel_w, s.in_c), 0,
                              &k)) {
      continue;
    }
    fill_s8(rng, k.input, k.in_count);
    fill_s8(rng, k.filter, k.filter_count);
    // Near the pair loop's bound (draw_acc_edge), one in five.
    const bool edge = k.bias != nullptr && rng.uniform(0, 4) == 0;
    if (edge) {
      draw_acc_edge(rng, s, &p, &k);
    } else if (k.bias != nullptr) {
      const bool wide = rng.uniform(0, 5) == 0;
      fill_s32(rng, k.bias, s.out_c, wide ? INT32_MIN : -60000, wide ? INT32_MAX : 60000);
    }
    for (int32_t o = 0; o < s.out_c; ++o) {
      if (common && rng.uniform(0, 15) != 0) {
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


}  // namespace mote::conformance
