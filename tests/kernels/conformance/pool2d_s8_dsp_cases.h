// Random int8 pooling cases shared by the avg_pool2d_s8__dsp and max_pool2d_s8__dsp
// conformance suites: shapes (channels not a multiple of 4 included), kernels, strides,
// pads below the kernel size (as check() requires), batch, clamp ranges. Internal to
// those two suites.
#pragma once

#include "conformance.h"
#include "pool2d/pool2d.h"

namespace mote::conformance {

using Pool2dS8Fn = void (*)(const Pool2dS8Params&, const Pool2dShape&, const int8_t*, int8_t*);

inline int run_pool2d_s8_cases(const char* name, Pool2dS8Fn reference, Pool2dS8Fn variant,
                               Rng& rng, int cases) {
  int failed = 0;
  for (int c = 0; c < cases; ++c) {
    Arena& a = arena();
    a.reset();
    Pool2dS8Params p;
    const bool global = rng.uniform(0, 5) == 0;
    Pool2dShape s;
    s.batch = rng.uniform(1, 2);
    s.in_h = rng.uniform(1, 12);
    s.in_w = rng.uniform(1, 12);
    s.channels = rng.coin() ? 4 * rng.uniform(1, 16) : rng.uniform(1, 40);
    if (global) {
      s.in_h = rng.uniform(1, 20);  // up to 400 taps: past the int16-half limit of 256
      s.in_w = rng.uniform(1, 20);
      p.kernel_h = s.in_h;
      p.kernel_w = s.in_w;
      p.window.stride_h = p.window.stride_w = 1;
    } else {
      p.kernel_h = rng.uniform(1, 4);
      p.kernel_w = rng.uniform(1, 4);
      p.window.stride_h = rng.uniform(1, 3);
      p.window.stride_w = rng.uniform(1, 3);
    }
    p.window.dilation_h = p.window.dilation_w = 1;
    p.window.pad_top = rng.uniform(0, p.kernel_h - 1);
    p.window.pad_bottom = rng.uniform(0, p.kernel_h - 1);
    p.window.pad_left = rng.uniform(0, p.kernel_w - 1);
    p.window.pad_right = rng.uniform(0, p.kernel_w - 1);
    const int32_t span_h = s.in_h + p.window.pad_top + p.window.pad_bottom - p.kernel_h;
    const int32_t span_w = s.in_w + p.window.pad_left + p.window.pad_right - p.kernel_w;
    if (span_h < 0 || span_w < 0) {
      p.window.pad_top = p.window.pad_bottom = p.window.pad_left = p.window.pad_right = 0;
      p.kernel_h = s.in_h < p.kernel_h ? s.in_h : p.kernel_h;
      p.kernel_w = s.in_w < p.kernel_w ? s.in_w : p.kernel_w;
    }
    s.out_h = (s.in_h + p.window.pad_top + p.window.pad_bottom - p.kernel_h) / p.window.stride_h + 1;
    s.out_w = (s.in_w + p.window.pad_left + p.window.pad_right - p.kernel_w) / p.window.stride_w + 1;
    p.act_min = rng.coin() ? -128 : rng.uniform(-128, 127);
    p.act_max = rng.coin() ? 127 : rng.uniform(p.act_min, 127);

    const size_t in_count = static_cast<size_t>(s.batch) * s.in_h * s.in_w * s.channels;
    const size_t out_count = static_cast<size_t>(s.batch) * s.out_h * s.out_w * s.channels;
    int8_t* input = a.alloc_array<int8_t>(in_count);
    int8_t* expected = a.alloc_array<int8_t>(out_count);
    int8_t* actual = a.alloc_array<int8_t>(out_count);
    if (input == nullptr || expected == nullptr || actual == nullptr) {
      skip_case(name, c, "arena too small");
      continue;
    }
    if (rng.uniform(0, 3) == 0) {
      fill_s8_range(rng, input, in_count, rng.coin() ? -128 : 120, rng.coin() ? 127 : -120);
    } else {
      fill_s8(rng, input, in_count);
    }
    reference(p, s, input, expected);
    variant(p, s, input, actual);
    if (!expect_equal_s8(name, c, "pool", expected, actual, out_count)) ++failed;
  }
  return failed;
}

}  // namespace mote::conformance
