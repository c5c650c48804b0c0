// Conformance of depthwise_conv2d_s16__mve (depth multiplier 1, any window) against
// depthwise_conv2d_s16: channel tails 1..20 and beyond (groups of eight), windows up to
// 5x5 (3x3 more often), strides 1-3, dilation, asymmetric padding, batch 2, clamps,
// absent bias, biases at the fast path's bound (|bias| < 2^30) and past it, shifts
// >= 0 (the reference fallback), extreme multipliers, inputs at the int16 extremes with
// weights at -128 (the largest sums). One case in three is MobileNet-like, for the fast
// paths of 3x3 windows: whole groups of eight channels (a tail group in one case of four),
// strides 1-2 (dilation equal to the stride or 1: pairs sharing input loads or not),
// padding 0-1 and images up to 14 wide, so rows hold several pixel pairs, odd counts and
// borders on either side.
#include "conformance.h"
#include "depthwise_conv2d/depthwise_conv2d.h"
#include "s16_cases.h"
#include "window_cases.h"

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
    const bool mobilenet = rng.uniform(0, 2) == 0;
    if (mobilenet) {
      s.in_c = s.out_c = 8 * rng.uniform(1, 6) + (rng.uniform(0, 3) == 0 ? rng.uniform(1, 7) : 0);
      p.window.stride_h = rng.uniform(1, 2);
      p.window.stride_w = rng.uniform(1, 2);
      p.window.dilation_h = rng.uniform(0, 3) == 0 ? p.window.stride_h : 1;
      p.window.dilation_w = rng.uniform(0, 3) == 0 ? p.window.stride_w : 1;
    } else {
      s.in_c = s.out_c = rng.coin() ? rng.uniform(1, 20) : rng.uniform(1, 60);
      p.window.stride_h = rng.uniform(1, 3);
      p.window.stride_w = rng.uniform(1, 3);
      p.window.dilation_h = rng.uniform(0, 3) == 0 ? 2 : 1;
      p.window.dilation_w = rng.uniform(0, 3) == 0 ? rng.uniform(2, 3) : 1;
    }
    const bool three = mobilenet || rng.coin();
    s.kernel_h = three ? 3 : rng.uniform(1, 5);
    s.kernel_w = three ? 3 : rng.uniform(1, 5);
    draw_padding(rng, mobilenet ? 1 : 2, &p.window);
    draw_input_extent(rng, p.window, mobilenet ? 12 : 6, &s);
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
    for (int32_t o = 0; o < s.out_c; ++o) {
      if (bias != nullptr) bias[o] = draw_bias64_near_bound(rng, bias_kind);
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
