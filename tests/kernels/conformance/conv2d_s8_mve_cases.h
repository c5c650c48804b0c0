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
    s.in_c = rng.uniform(0, 4) == 0 ? 8 * rng.uniform(1, 2)
                                    : (rng.coin() ? rng.uniform(1, 17) : rng.uniform(1, 80));
    s.out_c = rng.coin() ? rng.uniform(1, 17) : rng.uniform(1, 40);
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
