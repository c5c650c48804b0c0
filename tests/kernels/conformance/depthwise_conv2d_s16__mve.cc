// Conformance of depthwise_conv2d_s16__mve (depth multiplier 1, any window) against
// depthwise_conv2d_s16: channel tails 1..20 and beyond (groups of eight), windows up to
// 5x5 (3x3 more often), strides 1-3, dilation, asymmetric padding, batch 2, clamps,
// absent bias, biases at the fast path's bound (|bias| < 2^30) and past it, shifts
// >= 0 (the reference fallback), extreme multipliers, inputs at the int16 extremes with
// weights at -128 (the largest sums).
#include "conformance.h"
#include "depthwise_conv2d/depthwise_conv2d.h"

namespace mote::conformance {

int run_depthwise_conv2d_s16__mve(Rng& rng, int cases) {
  static const char kName[] = "depthwise_conv2d_s16__mve";
  int failed = 0;
  for (int c = 0; c < cases; ++c) {
    Arena& a = arena();
    a.reset();
    DepthwiseConv2dShape s;
    DepthwiseConv2dS16Params p;
    p.depth_multiplier = 1;
    s.batch = rng.uniform(0, 3) == 0 ? 2 : 1;
    s.in_c = s.out_c = rng.coin() ? rng.uniform(1, 20) : rng.uniform(1, 60);
    const bool three = rng.coin();
    s.kernel_h = three ? 3 : rng.uniform(1, 5);
    s.kernel_w = three ? 3 : rng.uniform(1, 5);
    p.window.stride_h = rng.uniform(1, 3);
    p.window.stride_w = rng.uniform(1, 3);
    p.window.dilation_h = rng.uniform(0, 3) == 0 ? 2 : 1;
    p.window.dilation_w = rng.uniform(0, 3) == 0 ? rng.uniform(2, 3) : 1;
    p.window.pad_top = rng.uniform(0, 2);
    p.window.pad_left = rng.uniform(0, 2);
    p.window.pad_bottom = rng.uniform(0, 2);
    p.window.pad_right = rng.uniform(0, 2);
    const int32_t eff_h = p.window.dilation_h * (s.kernel_h - 1) + 1;
    const int32_t eff_w = p.window.dilation_w * (s.kernel_w - 1) + 1;
    const int32_t min_h = eff_h - p.window.pad_top - p.window.pad_bottom;
    const int32_t min_w = eff_w - p.window.pad_left - p.window.pad_right;
    s.in_h = (min_h > 1 ? min_h : 1) + rng.uniform(0, 6);
    s.in_w = (min_w > 1 ? min_w : 1) + rng.uniform(0, 6);
    s.out_h = (s.in_h + p.window.pad_top + p.window.pad_bottom - eff_h) / p.window.stride_h + 1;
    s.out_w = (s.in_w + p.window.pad_left + p.window.pad_right - eff_w) / p.window.stride_w + 1;
    p.act_min = rng.coin() ? -32768 : rng.uniform(-32768, 32767);
    p.act_max = rng.coin() ? 32767 : rng.uniform(p.act_min, 32767);
    const bool extreme = rng.uniform(0, 4) == 0;
    const bool largest_sums = rng.uniform(0, 5) == 0;
    const int32_t bias_kind = rng.uniform(0, 4) == 0 ? rng.uniform(1, 3) : 0;

    const int32_t in_count = s.batch * s.in_h * s.in_w * s.in_c;
    const int32_t filter_count = s.kernel_h * s.kernel_w * s.out_c;
    const int32_t out_count = s.batch * s.out_h * s.out_w * s.out_c;
    int16_t* input = a.alloc_array<int16_t>(in_count);
    int8_t* filter = a.alloc_array<int8_t>(filter_count);
    int64_t* bias = rng.uniform(0, 3) == 0 ? nullptr : a.alloc_array<int64_t>(s.out_c);
    int32_t* multipliers = a.alloc_array<int32_t>(s.out_c);
    int32_t* shifts = a.alloc_array<int32_t>(s.out_c);
    int16_t* expected = a.alloc_array<int16_t>(out_count);
    int16_t* actual = a.alloc_array<int16_t>(out_count);
    int32_t* scratch = static_cast<int32_t*>(a.alloc(depthwise_conv2d_s16__mve_scratch_bytes(s.out_c)));
    if (input == nullptr || filter == nullptr || multipliers == nullptr || shifts == nullptr ||
        expected == nullptr || actual == nullptr || scratch == nullptr) {
      skip_case(kName, c, "arena too small");
      continue;
    }
    for (int32_t i = 0; i < in_count; ++i) {
      input[i] = static_cast<int16_t>(largest_sums ? (rng.coin() ? -32768 : 32767) : rng.uniform(-32768, 32767));
    }
    if (largest_sums) {
      fill_s8_range(rng, filter, filter_count, -128, -128);
    } else {
      fill_s8(rng, filter, filter_count);
    }
    const int64_t bound = (int64_t{1} << 30) - 1;
    for (int32_t o = 0; o < s.out_c; ++o) {
      if (bias != nullptr) {
        switch (bias_kind) {
          case 0: bias[o] = rng.uniform(-70000, 70000); break;
          case 1: bias[o] = rng.coin() ? bound - rng.uniform(0, 2) : -bound + rng.uniform(0, 2); break;
          case 2: bias[o] = rng.coin() ? bound + 1 : -bound - 1; break;
          default: bias[o] = static_cast<int64_t>((uint64_t{rng.next()} << 32) | rng.next()); break;
        }
      }
      const bool wild = extreme && rng.coin();
      multipliers[o] = !wild ? rng.uniform(1 << 30, INT32_MAX)
                             : (rng.coin() ? INT32_MIN : (rng.coin() ? INT32_MAX : -rng.uniform(0, INT32_MAX)));
      shifts[o] = wild ? rng.uniform(-31, 14) : rng.uniform(-20, -1);
    }
    depthwise_conv2d_s16(p, multipliers, shifts, s, input, filter, bias, expected);
    depthwise_conv2d_s16__mve(p, multipliers, shifts, s, input, filter, bias, actual, scratch);
    if (!expect_equal_s16(kName, c, three ? "3x3" : "window", expected, actual,
                          static_cast<size_t>(out_count))) {
      ++failed;
    }
  }
  return failed;
}

}  // namespace mote::conformance
