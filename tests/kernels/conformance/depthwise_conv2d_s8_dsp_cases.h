// Random depthwise conv2d cases shared by the depthwise __dsp conformance suites: one
// function runs n cases of a variant (given as its plain function) against
// depthwise_conv2d_s8. Depth multiplier 1; odd channel counts, strides, paddings,
// batches, zero points, clamps, absent bias, extreme multipliers / shifts and wrapping
// biases.
#pragma once

#include "conformance.h"
#include "depthwise_conv2d/depthwise_conv2d.h"
#include "window_cases.h"

namespace mote::conformance {

using DepthwiseVariant = void (*)(const DepthwiseConv2dS8Params&, const int32_t*, const int32_t*,
                                  const DepthwiseConv2dShape&, const int8_t*, const int8_t*,
                                  const int32_t*, int8_t*, void*);
using DepthwiseScratch = uint32_t (*)(const DepthwiseConv2dS8Params&, const DepthwiseConv2dShape&);

inline int run_depthwise_cases(const char* name, DepthwiseVariant variant,
                               DepthwiseScratch scratch_bytes, bool only_3x3, Rng& rng,
                               int cases) {
  int failed = 0;
  for (int c = 0; c < cases; ++c) {
    Arena& a = arena();
    a.reset();
    DepthwiseConv2dS8Params p;
    DepthwiseConv2dShape s;
    s.batch = rng.uniform(1, 4) == 4 ? 2 : 1;
    s.in_h = rng.uniform(1, 12);
    s.in_w = rng.uniform(1, 12);
    s.in_c = rng.coin() ? rng.uniform(1, 9) : rng.uniform(1, 70);
    // 3x3: some wide rows (the 3x3 __dsp variant's twelve-output passes).
    if (only_3x3 && s.in_c <= 9 && rng.uniform(0, 3) == 0) s.in_w = rng.uniform(12, 30);
    s.kernel_h = only_3x3 ? 3 : rng.uniform(1, 5);
    s.kernel_w = only_3x3 ? 3 : rng.uniform(1, 5);
    p.window.stride_h = rng.uniform(1, 3);
    p.window.stride_w = rng.uniform(1, 3);
    p.window.dilation_h = only_3x3 ? 1 : rng.uniform(1, 2);
    p.window.dilation_w = only_3x3 ? 1 : rng.uniform(1, 2);
    draw_padding(rng, 2, &p.window);
    const int32_t span_h = p.window.dilation_h * (s.kernel_h - 1) + 1;
    const int32_t span_w = p.window.dilation_w * (s.kernel_w - 1) + 1;
    if (s.in_h + p.window.pad_top + p.window.pad_bottom < span_h || s.in_w + p.window.pad_left + p.window.pad_right < span_w) {
      --c;  // not a valid geometry; draw again
      continue;
    }
    s.out_h = (s.in_h + p.window.pad_top + p.window.pad_bottom - span_h) / p.window.stride_h + 1;
    s.out_w = (s.in_w + p.window.pad_left + p.window.pad_right - span_w) / p.window.stride_w + 1;
    s.out_c = s.in_c;
    p.depth_multiplier = 1;
    p.input_zero_point = rng.uniform(-128, 127);
    p.output_zero_point = rng.uniform(-128, 127);
    p.act_min = rng.coin() ? -128 : rng.uniform(-128, 127);
    p.act_max = rng.coin() ? 127 : rng.uniform(p.act_min, 127);
    // 3x3: ReLU-like clamps, act_min >= output_zero_point (the 3x3 __dsp variant then skips
    // the requantization's sign correction), half of them with both at -128.
    if (only_3x3 && rng.uniform(0, 2) == 0) {
      if (rng.coin()) p.output_zero_point = -128;
      if (p.act_min < p.output_zero_point) p.act_min = p.output_zero_point;
      if (p.act_max < p.act_min) p.act_max = 127;
    }
    const bool extreme = rng.uniform(0, 4) == 0;
    const bool positive_shifts = rng.uniform(0, 4) == 0;

    const int32_t in_count = s.batch * s.in_h * s.in_w * s.in_c;
    const int32_t filter_count = s.kernel_h * s.kernel_w * s.out_c;
    const int32_t out_count = s.batch * s.out_h * s.out_w * s.out_c;
    int8_t* input = a.alloc_array<int8_t>(in_count);
    int8_t* filter = a.alloc_array<int8_t>(filter_count);
    int32_t* bias = rng.uniform(0, 3) == 0 ? nullptr : a.alloc_array<int32_t>(s.out_c);
    int32_t* multipliers = a.alloc_array<int32_t>(s.out_c);
    int32_t* shifts = a.alloc_array<int32_t>(s.out_c);
    int8_t* expected = a.alloc_array<int8_t>(out_count);
    int8_t* actual = a.alloc_array<int8_t>(out_count);
    void* scratch = a.alloc(scratch_bytes(p, s) + 4, 4);
    if (input == nullptr || filter == nullptr || multipliers == nullptr || shifts == nullptr ||
        expected == nullptr || actual == nullptr || scratch == nullptr) {
      skip_case(name, c, "arena too small");
      continue;
    }
    fill_s8(rng, input, in_count);
    fill_s8(rng, filter, filter_count);
    if (bias != nullptr) {
      fill_s32(rng, bias, s.out_c, extreme ? INT32_MIN : -30000, extreme ? INT32_MAX : 30000);
    }
    for (int32_t i = 0; i < s.out_c; ++i) {
      const bool wild = extreme && rng.coin();
      multipliers[i] = !wild ? rng.uniform(1 << 30, INT32_MAX)
                             : (rng.coin() ? INT32_MIN : -rng.uniform(0, INT32_MAX));
      shifts[i] = wild ? rng.uniform(-31, 30) : rng.uniform(-12, positive_shifts ? 1 : -1);
    }
    depthwise_conv2d_s8(p, multipliers, shifts, s, input, filter, bias, expected);
    variant(p, multipliers, shifts, s, input, filter, bias, actual, scratch);
    if (!expect_equal_s8(name, c, extreme ? "extreme" : "random", expected, actual,
                         static_cast<size_t>(out_count))) {
      ++failed;
    }
  }
  return failed;
}

}  // namespace mote::conformance
