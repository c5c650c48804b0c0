// Conformance of conv2d_s8_compact__dsp (any kernel, stride, dilation, padding; groups 1)
// against conv2d_s8: the cases of conv2d_s8_dsp_cases.h (three in four with a general
// window, one in four pointwise), plus as many of its own below.
#include "conformance.h"
#include "conv2d/conv2d.h"
#include "conv2d_s8_dsp_cases.h"
#include "window_cases.h"

namespace mote::conformance {
namespace {

// The windows the kernel meets and its edges: 1x1, 3x3, 10x4 over one channel (kws'
// first layer) or any up to 5x5; input channels 1, 3, 5, 17 or any up to 70 (every
// K % 4, so the assembled last weight word of a row); odd and even out_c and pixel
// counts (partial blocks and chunks); strides 1-3, dilation, padding up
// to 2 a side, batch 2, an unaligned input. Quantization: realistic multipliers, hostile
// ones (INT32_MIN, INT32_MAX, negative, tiny) with every shift, narrow or single-value
// clamps, extreme zero points; inputs and weights sometimes only -128 / 127, biases
// sometimes over the whole int32 range (the accumulator wraps). Nothing past the scratch
// may be written (its size is a multiple of 4, so the bytes allocated right after it,
// 4-aligned, follow it: alloc_past_scratch).
int run_window_cases(Rng& rng, int cases) {
  const char* const name = "conv2d_s8_compact__dsp";
  static const int32_t kChannels[] = {1, 3, 5, 17};
  int failed = 0;
  for (int c = 0; c < cases; ++c) {
    arena().reset();
    Conv2dShape s;
    Conv2dS8Params p;
    s.batch = rng.uniform(0, 5) == 0 ? 2 : 1;
    s.in_c = rng.coin() ? kChannels[rng.uniform(0, 3)] : rng.uniform(1, 70);
    s.out_c = rng.uniform(0, 3) == 0 ? kChannels[rng.uniform(0, 3)] : rng.uniform(1, 20);
    const int32_t window = rng.uniform(0, 4);
    if (window == 0) {
      s.kernel_h = s.kernel_w = 1;
    } else if (window == 1) {
      s.kernel_h = s.kernel_w = 3;
    } else if (window == 2) {  // kws-like 10x4 over one channel (or a few)
      s.in_c = rng.uniform(0, 3) == 0 ? rng.uniform(2, 3) : 1;
      s.kernel_h = 10;
      s.kernel_w = 4;
    } else {
      s.kernel_h = rng.uniform(1, 5);
      s.kernel_w = rng.uniform(1, 5);
    }
    if (s.in_c > 20 && s.kernel_h * s.kernel_w > 9) s.in_c = 20;  // keep a case small
    p.groups = 1;
    p.window.stride_h = rng.uniform(1, 3);
    p.window.stride_w = rng.uniform(1, 3);
    p.window.dilation_h = rng.uniform(0, 5) == 0 ? rng.uniform(2, 3) : 1;
    p.window.dilation_w = rng.uniform(0, 5) == 0 ? rng.uniform(2, 3) : 1;
    if (window == 0 && rng.coin()) {
      p.window.pad_top = p.window.pad_left = p.window.pad_bottom = p.window.pad_right = 0;
    } else {
      draw_padding(rng, 2, &p.window);
    }
    draw_input_extent(rng, p.window, 7, &s);
    p.input_zero_point = rng.uniform(0, 3) == 0 ? (rng.coin() ? -128 : 127) : rng.uniform(-128, 127);
    p.output_zero_point = rng.uniform(0, 5) == 0 ? (rng.coin() ? -128 : 127) : rng.uniform(-128, 127);
    p.act_min = -128;
    p.act_max = 127;
    switch (rng.uniform(0, 3)) {
      case 0:  // narrow
        p.act_min = rng.uniform(-128, 120);
        p.act_max = p.act_min + rng.uniform(0, 7);
        break;
      case 1:  // ReLU-like
        p.act_min = p.output_zero_point;
        p.act_max = rng.coin() ? 127 : rng.uniform(p.act_min, 127);
        break;
      default: break;
    }
    const bool hostile = rng.uniform(0, 2) == 0;
    const bool no_bias = rng.uniform(0, 4) == 0;
    const int32_t input_shift = rng.uniform(0, 3) == 0 ? rng.uniform(1, 3) : 0;
    Conv2dS8Case k;
    if (!alloc_conv2d_s8_case(name, c, s, !no_bias,
                              conv2d_s8_compact__dsp_scratch_bytes(s.kernel_h, s.kernel_w, s.in_c),
                              input_shift, &k)) {
      continue;
    }
    if (rng.uniform(0, 5) == 0) {  // extreme values only
      fill_s8_range(rng, k.input, k.in_count, -128, -127);
      for (int32_t i = 0; i < k.in_count; ++i) k.input[i] = k.input[i] == -127 ? 127 : -128;
      fill_s8_range(rng, k.filter, k.filter_count, -128, -127);
      for (int32_t i = 0; i < k.filter_count; ++i) k.filter[i] = k.filter[i] == -127 ? 127 : -128;
    } else {
      fill_s8(rng, k.input, k.in_count);
      fill_s8(rng, k.filter, k.filter_count);
    }
    if (k.bias != nullptr) {
      const bool wide = rng.uniform(0, 4) == 0;
      fill_s32(rng, k.bias, s.out_c, wide ? INT32_MIN : -100000, wide ? INT32_MAX : 100000);
    }
    for (int32_t o = 0; o < s.out_c; ++o) {
      if (hostile && rng.coin()) {
        k.multipliers[o] = conv2d_dsp_random_multiplier(rng, true);
        k.shifts[o] = rng.uniform(-31, 30);
      } else {
        k.multipliers[o] = rng.uniform(1 << 30, INT32_MAX);
        k.shifts[o] = rng.uniform(0, 7) == 0 ? rng.uniform(-1, 2) : rng.uniform(-25, -2);
      }
    }
    // Bytes just past the scratch (fill 0xA5) must stay as they are.
    uint8_t* const past_scratch = alloc_past_scratch();
    if (past_scratch == nullptr) {
      skip_case(name, c, "arena too small");
      continue;
    }
    if (!check_conv2d_s8_case(name, c, "window", p, s, k, without_wide<conv2d_s8_compact__dsp>)) {
      ++failed;
      continue;
    }
    if (!past_scratch_intact(name, c, past_scratch)) ++failed;
  }
  return failed;
}

}  // namespace

int run_conv2d_s8_compact__dsp(Rng& rng, int cases) {
  return run_conv2d_s8_dsp_cases(rng, cases, "conv2d_s8_compact__dsp", 4,
                                 without_wide<conv2d_s8_compact__dsp>,
                                 [](int32_t kernel_h, int32_t kernel_w, int32_t in_c,
                                    int32_t /*wide_channels*/) {
                                   return conv2d_s8_compact__dsp_scratch_bytes(kernel_h, kernel_w,
                                                                               in_c);
                                 }) +
         run_window_cases(rng, cases);
}

}  // namespace mote::conformance
