// Random int16 pooling cases shared by the avg_pool2d_s16 / max_pool2d_s16 variant
// conformance suites (__dsp, __mve, __v6m): odd and wide channel counts, kernels up to
// 7x7 with strides and pads below the kernel size (as check() requires: SAME and VALID
// among them), global pools, windows at the variant's largest accepted cell count,
// batch, clamps narrower than int16, inputs at -32768 / 32767 everywhere, and inputs
// one element past the arena's alignment. Internal to those suites.
#pragma once

#include "conformance.h"
#include "pool2d/pool2d.h"

namespace mote::conformance {

using Pool2dS16Fn = void (*)(const Pool2dS16Params&, const Pool2dShape&, const int16_t*, int16_t*);

namespace pool2d_s16_cases {

// Pads below each kernel size (and at most max_pad) and an output size that the input
// covers.
inline int32_t draw_pad(Rng& rng, int32_t kernel, int32_t max_pad) {
  return rng.uniform(0, kernel - 1 < max_pad ? kernel - 1 : max_pad);
}
inline void draw_window(Rng& rng, int32_t max_pad, Pool2dS16Params& p, Pool2dShape& s) {
  p.window.dilation_h = p.window.dilation_w = 1;
  p.window.pad_top = draw_pad(rng, p.kernel_h, max_pad);
  p.window.pad_bottom = draw_pad(rng, p.kernel_h, max_pad);
  p.window.pad_left = draw_pad(rng, p.kernel_w, max_pad);
  p.window.pad_right = draw_pad(rng, p.kernel_w, max_pad);
  if (s.in_h + p.window.pad_top + p.window.pad_bottom < p.kernel_h ||
      s.in_w + p.window.pad_left + p.window.pad_right < p.kernel_w) {
    p.window.pad_top = p.window.pad_bottom = p.window.pad_left = p.window.pad_right = 0;
    p.kernel_h = s.in_h < p.kernel_h ? s.in_h : p.kernel_h;
    p.kernel_w = s.in_w < p.kernel_w ? s.in_w : p.kernel_w;
  }
  s.out_h = (s.in_h + p.window.pad_top + p.window.pad_bottom - p.kernel_h) / p.window.stride_h + 1;
  s.out_w = (s.in_w + p.window.pad_left + p.window.pad_right - p.kernel_w) / p.window.stride_w + 1;
}

// Kind 0: all -32768; 1: all 32767; 2: each one of the two; 3: full range; else moderate.
inline void fill_input(Rng& rng, int16_t* data, size_t count) {
  const int32_t kind = rng.uniform(0, 6);
  for (size_t i = 0; i < count; ++i) {
    int32_t v;
    switch (kind) {
      case 0: v = -32768; break;
      case 1: v = 32767; break;
      case 2: v = rng.coin() ? -32768 : 32767; break;
      case 3: v = rng.uniform(-32768, 32767); break;
      default: v = rng.uniform(-3000, 3000); break;
    }
    data[i] = static_cast<int16_t>(v);
  }
}

}  // namespace pool2d_s16_cases

// max_taps: the largest kernel_h * kernel_w the variant's check() accepts (the
// reference's 65535 for an average pool, the Helium average's 32767); one case in
// thirty-two is a global pool of a single row or a square of about that many cells.
inline int run_pool2d_s16_cases(const char* name, Pool2dS16Fn reference, Pool2dS16Fn variant,
                                int32_t max_taps, Rng& rng, int cases) {
  using namespace pool2d_s16_cases;
  int failed = 0;
  for (int c = 0; c < cases; ++c) {
    Arena& a = arena();
    a.reset();
    Pool2dS16Params p;
    Pool2dShape s;
    s.batch = rng.uniform(1, 2);
    s.channels = rng.coin() ? 8 * rng.uniform(1, 8) : rng.uniform(1, 40);
    p.window.stride_h = rng.uniform(1, 3);
    p.window.stride_w = rng.uniform(1, 3);
    const int32_t shape_kind = rng.uniform(0, 31);
    int32_t max_pad = 6;
    if (shape_kind == 0) {  // the largest window, one pixel out, few channels
      s.batch = 1;
      s.channels = rng.uniform(1, 3);
      if (rng.coin()) {
        s.in_h = 1;
        s.in_w = max_taps - rng.uniform(0, 2);
      } else {
        int32_t side = 1;
        while ((side + 1) * (side + 1) <= max_taps) ++side;
        s.in_h = side;
        s.in_w = max_taps / side;
      }
      p.kernel_h = s.in_h;
      p.kernel_w = s.in_w;
      max_pad = 0;
    } else if (shape_kind <= 6) {  // global pools, a few padded
      s.in_h = rng.uniform(1, 24);
      s.in_w = rng.uniform(1, 24);
      p.kernel_h = s.in_h;
      p.kernel_w = s.in_w;
      max_pad = rng.coin() ? 0 : 2;
    } else {
      s.in_h = rng.uniform(1, 14);
      s.in_w = rng.uniform(1, 14);
      p.kernel_h = rng.uniform(1, 7);
      p.kernel_w = rng.uniform(1, 7);
    }
    draw_window(rng, max_pad, p, s);
    const int32_t clamp_kind = rng.uniform(0, 3);
    p.act_min = clamp_kind == 0 ? rng.uniform(-32768, 32767) : (clamp_kind == 1 ? 0 : -32768);
    p.act_max = clamp_kind == 0 ? rng.uniform(p.act_min, 32767) : 32767;

    const size_t in_count = static_cast<size_t>(s.batch) * s.in_h * s.in_w * s.channels;
    const size_t out_count = static_cast<size_t>(s.batch) * s.out_h * s.out_w * s.channels;
    const size_t misalign = rng.coin() ? 1 : 0;  // one element past 16-byte alignment
    int16_t* input = a.alloc_array<int16_t>(in_count + misalign);
    int16_t* expected = a.alloc_array<int16_t>(out_count);
    int16_t* actual = a.alloc_array<int16_t>(out_count + misalign);
    if (input == nullptr || expected == nullptr || actual == nullptr) {
      skip_case(name, c, "arena too small");
      continue;
    }
    input += misalign;
    actual += misalign;
    fill_input(rng, input, in_count);
    reference(p, s, input, expected);
    variant(p, s, input, actual);
    if (!expect_equal_s16(name, c, "pool", expected, actual, out_count)) ++failed;
  }
  return failed;
}

}  // namespace mote::conformance
