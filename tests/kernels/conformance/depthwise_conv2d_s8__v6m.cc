// Conformance of depthwise_conv2d_s8__v6m (depth multiplier 1; any kernel, stride,
// dilation, padding) against depthwise_conv2d_s8: kernels 1x1..5x5, strides 1-3, dilation,
// asymmetric padding, batch 2, odd and even channel counts, zero points, clamps, absent
// bias, extreme multipliers / shifts (INT32_MIN and zero included) and wrapping biases. Half the
// cases are 3x3 windows with dilation_w == 1 and right shifts in every channel (the
// prepared 3x3 path), with inputs and weights at their extremes in some, sums near 2^31
// whose rounding overflows int32 in some, and a channel outside that path's
// requantization (INT32_MIN, a shift >= 0) in some, small multipliers with shifts -1..-3
// and no clamping (every rounding shows) in a third, and images of 128 pixels or more
// (the requant floors that skip the arithmetic for outputs clamped to act_min) in a
// quarter.
#include "conformance.h"
#include "v6m_requant_cases.h"
#include "depthwise_conv2d/depthwise_conv2d.h"

namespace mote::conformance {

int run_depthwise_conv2d_s8__v6m(Rng& rng, int cases) {
  static const char kName[] = "depthwise_conv2d_s8__v6m";
  int failed = 0;
  for (int c = 0; c < cases; ++c) {
    Arena& a = arena();
    a.reset();
    DepthwiseConv2dShape s;
    DepthwiseConv2dS8Params p;
    s.batch = rng.uniform(0, 3) == 0 ? 2 : 1;
    s.in_c = rng.coin() ? rng.uniform(1, 5) : rng.uniform(1, 48);
    s.out_c = s.in_c;
    const bool square3 = rng.coin();
    s.kernel_h = square3 ? 3 : rng.uniform(1, 5);
    s.kernel_w = square3 ? 3 : rng.uniform(1, 5);
    p.depth_multiplier = 1;
    p.window.stride_h = rng.uniform(1, 3);
    p.window.stride_w = rng.uniform(1, 3);
    p.window.dilation_h = rng.uniform(0, 3) == 0 ? rng.uniform(2, 3) : 1;
    p.window.dilation_w = !square3 && rng.uniform(0, 3) == 0 ? rng.uniform(2, 3) : 1;
    const int32_t eff_h = p.window.dilation_h * (s.kernel_h - 1) + 1;
    const int32_t eff_w = p.window.dilation_w * (s.kernel_w - 1) + 1;
    p.window.pad_top = rng.uniform(0, eff_h - 1);
    p.window.pad_bottom = rng.uniform(0, eff_h - 1);
    p.window.pad_left = rng.uniform(0, eff_w - 1);
    p.window.pad_right = rng.uniform(0, eff_w - 1);
    const int32_t min_h = eff_h - p.window.pad_top - p.window.pad_bottom;
    const int32_t min_w = eff_w - p.window.pad_left - p.window.pad_right;
    // Some images large enough for the requant floors (128 pixels or more).
    const int32_t grow = square3 && rng.uniform(0, 3) == 0 ? 24 : 7;
    s.in_h = (min_h > 1 ? min_h : 1) + rng.uniform(0, grow);
    s.in_w = (min_w > 1 ? min_w : 1) + rng.uniform(0, grow);
    if (grow > 7 && s.in_c > 17) s.in_c = s.out_c = 17;  // keep the large images quick
    s.out_h = (s.in_h + p.window.pad_top + p.window.pad_bottom - eff_h) / p.window.stride_h + 1;
    s.out_w = (s.in_w + p.window.pad_left + p.window.pad_right - eff_w) / p.window.stride_w + 1;
    p.input_zero_point = rng.uniform(0, 3) == 0 ? 0 : rng.uniform(-128, 127);
    p.output_zero_point = rng.uniform(-128, 127);
    p.act_min = rng.coin() ? -128 : rng.uniform(-128, 127);
    p.act_max = rng.coin() ? 127 : rng.uniform(p.act_min, 127);
    const bool extreme = rng.uniform(0, 3) == 0;

    const int32_t in_count = s.batch * s.in_h * s.in_w * s.in_c;
    const int32_t filter_count = s.kernel_h * s.kernel_w * s.out_c;
    const int32_t out_count = s.batch * s.out_h * s.out_w * s.out_c;
    int8_t* input = a.alloc_array<int8_t>(in_count);
    int8_t* filter = a.alloc_array<int8_t>(filter_count);
    int32_t* bias = rng.uniform(0, 3) == 0 ? nullptr : a.alloc_array<int32_t>(s.out_c);
    int32_t* multipliers = a.alloc_array<int32_t>(s.out_c);
    int32_t* shifts = a.alloc_array<int32_t>(s.out_c);
    // Half the cases with the compiler's requant floors, half without (searched at run time
    // from 128 pixels).
    int32_t* floors = rng.coin() ? a.alloc_array<int32_t>(s.out_c) : nullptr;
    int8_t* expected = a.alloc_array<int8_t>(out_count);
    int8_t* actual = a.alloc_array<int8_t>(out_count);
    if (input == nullptr || filter == nullptr || multipliers == nullptr || shifts == nullptr ||
        expected == nullptr || actual == nullptr) {
      skip_case("depthwise_conv2d_s8__v6m", c, "arena too small");
      continue;
    }
    const uint32_t scratch_bytes = depthwise_conv2d_s8__v6m_scratch_bytes(p, s);
    int32_t* scratch = scratch_bytes == 0 ? nullptr : a.alloc_array<int32_t>(scratch_bytes / 4);
    if (scratch_bytes != 0 && scratch == nullptr) {
      skip_case("depthwise_conv2d_s8__v6m", c, "arena too small");
      continue;
    }
    fill_s8(rng, input, in_count);
    fill_s8(rng, filter, filter_count);
    if (square3 && rng.uniform(0, 3) == 0) {  // extreme inputs and weights
      const int8_t x = rng.coin() ? -128 : 127;
      for (int32_t i = 0; i < in_count; ++i) input[i] = rng.uniform(0, 7) == 0 ? input[i] : x;
      for (int32_t i = 0; i < filter_count; ++i) filter[i] = rng.coin() ? -128 : (rng.coin() ? 127 : filter[i]);
    }
    if (bias != nullptr) {
      fill_s32(rng, bias, s.out_c, extreme ? INT32_MIN : -60000, extreme ? INT32_MAX : 60000);
    }
    for (int32_t o = 0; o < s.out_c; ++o) {
      const bool wild = extreme && rng.coin();
      multipliers[o] = !wild ? rng.uniform(1 << 30, INT32_MAX)
                             : (rng.coin() ? INT32_MIN : rng.uniform(INT32_MIN, INT32_MAX));
      shifts[o] = wild ? rng.uniform(-31, 30) : rng.uniform(-12, 1);
      if (square3 && !wild) shifts[o] = rng.uniform(-12, -1);
      if (square3 && wild) shifts[o] = rng.coin() ? rng.uniform(-31, -1) : rng.uniform(-31, 30);
    }
    if (square3 && bias != nullptr && rng.uniform(0, 3) == 0) {
      // Sums near 2^31 with a multiplier near 2^31 and large right shifts: y + 2^n / 2
      // overflows int32 in the rounding (the logical-shift branch).
      for (int32_t o = 0; o < s.out_c; ++o) {
        if (!rng.coin()) continue;
        bias[o] = rng.uniform(1 << 30, INT32_MAX - (1 << 20));
        multipliers[o] = rng.uniform(INT32_MAX - (1 << 20), INT32_MAX);
        shifts[o] = rng.uniform(-31, -29);
      }
    }
    perturb_v6m_requant(rng, p, s.out_c, multipliers, shifts, bias);
    if (square3 && rng.uniform(0, 7) == 0) {  // one channel outside the prepared path
      const int32_t o = rng.uniform(0, s.out_c - 1);
      if (rng.coin()) multipliers[o] = INT32_MIN;
      else shifts[o] = rng.uniform(0, 3);
    }
    if (floors != nullptr) depthwise_conv2d_s8__v6m_floors(p, multipliers, shifts, s.out_c, floors);
    depthwise_conv2d_s8(p, multipliers, shifts, s, input, filter, bias, expected);
    depthwise_conv2d_s8__v6m(p, multipliers, shifts, floors, s, input, filter, bias, actual, scratch);
    if (!expect_equal_s8(kName, c, "depthwise", expected, actual,
                         static_cast<size_t>(out_count))) {
      ++failed;
    }
  }
  return failed;
}

}  // namespace mote::conformance
