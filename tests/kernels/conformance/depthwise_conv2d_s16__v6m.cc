// Conformance of depthwise_conv2d_s16__v6m (depth multiplier 1, windows of up to 511
// taps, any stride, dilation, padding) against depthwise_conv2d_s16: 3x3 windows
// (MobileNet's), others up to 6x5 and one long window (up to 25x20 taps, near the 511
// bound), odd channel counts, strides 1-3, dilation, padding past the window (pixels with
// no tap inside), batch 2, full-scale inputs and weights, biases near and past the int32
// bound (the reference requantization), any multiplier and shift, no bias, ReLU and any
// clamp; window sums at their largest with biases at and one past the int32 fast
// path's bound; wide images with 3x3 windows (interior pixels two at a time, a lone last
// pixel). check() refusing windows past 511 taps and depth multipliers other than 1.
#include "conformance.h"
#include "depthwise_conv2d/depthwise_conv2d.h"
#include "quant/quant_math.h"
#include "s16_cases.h"
#include "window_cases.h"

namespace mote::conformance {

int run_depthwise_conv2d_s16__v6m(Rng& rng, int cases) {
  static const char kName[] = "depthwise_conv2d_s16__v6m";
  int failed = 0;
  DepthwiseConv2dS16Params refused{};
  refused.depth_multiplier = 1;
  if (depthwise_conv2d_s16__v6m_supports(refused, 32, 16) || !depthwise_conv2d_s16__v6m_supports(refused, 7, 73)) {
    print("depthwise_conv2d_s16__v6m: the 511-tap bound is not where the kernel needs it\n");
    ++failed;
  }
  refused.depth_multiplier = 2;
  if (depthwise_conv2d_s16__v6m_supports(refused, 3, 3)) {
    print("depthwise_conv2d_s16__v6m: supports depth_multiplier 2\n");
    ++failed;
  }
  for (int c = 0; c < cases; ++c) {
    arena().reset();
    DepthwiseConv2dShape s;
    DepthwiseConv2dS16Params p;
    const int32_t kind = rng.uniform(0, 7);
    s.batch = rng.uniform(0, 4) == 0 ? 2 : 1;
    s.in_c = rng.coin() ? rng.uniform(1, 9) : rng.uniform(1, 50);
    s.kernel_h = kind <= 3 ? 3 : rng.uniform(1, 6);
    s.kernel_w = kind <= 3 ? 3 : rng.uniform(1, 5);
    p.window = WindowGeometry{};
    p.window.stride_h = rng.uniform(1, 3);
    p.window.stride_w = rng.uniform(1, 3);
    p.window.dilation_h = rng.uniform(0, 5) == 0 ? rng.uniform(2, 3) : 1;
    p.window.dilation_w = rng.uniform(0, 5) == 0 ? rng.uniform(2, 3) : 1;
    if (kind == 7) {  // a long window
      s.kernel_h = rng.uniform(16, 25);
      s.kernel_w = rng.uniform(511 / s.kernel_h - 4, 511 / s.kernel_h);
      s.in_c = rng.uniform(1, 5);
      p.window.dilation_h = p.window.dilation_w = 1;
    }
    if (kind == 0) {  // MobileNet's: wide rows of interior pixels, stride 1 or 2 across
      p.window.dilation_w = 1;
      p.window.stride_w = rng.uniform(1, 2);
    }
    s.out_c = s.in_c;
    p.depth_multiplier = 1;
    draw_padding(rng, kind == 6 ? 5 : 1, &p.window);
    draw_input_extent(rng, p.window, kind == 7 ? 2 : kind == 0 ? 15 : 7, &s);
    const bool common = rng.uniform(0, 2) != 0;
    draw_act_range16(rng, common, &p.act_min, &p.act_max);

    const int32_t in_count = s.batch * s.in_h * s.in_w * s.in_c;
    const int32_t out_count = s.batch * s.out_h * s.out_w * s.out_c;
    const int32_t filter_count = s.kernel_h * s.kernel_w * s.out_c;
    S16Case t;
    const int32_t bias_count = rng.uniform(0, 3) != 0 ? s.out_c : 0;
    if (!draw_s16_case(rng, in_count, filter_count, 64, bias_count, s.out_c, out_count, &t)) {
      skip_case(kName, c, "arena too small");
      continue;
    }
    for (int32_t o = 0; o < s.out_c; ++o) draw_requant16(rng, !common, kMaxShift64, &t.multipliers[o], &t.shifts[o]);
    // One case in six: window sums at 2^15 * sum|w| and biases at the int32 fast path's
    // bound (at most 511 taps: the sums themselves fit int32).
    if (rng.uniform(0, 5) == 0) {
      make_extreme_sums16(rng, t, in_count, s.out_c, s.kernel_h * s.kernel_w, 1, s.out_c);
    }
    const int64_t* bias = static_cast<const int64_t*>(t.bias);
    depthwise_conv2d_s16(p, t.multipliers, t.shifts, s, t.input, t.weights, bias, t.expected);
    const uint32_t scratch_bytes = depthwise_conv2d_s16__v6m_scratch_bytes(s.out_c, s.kernel_h, s.kernel_w);
    uint8_t* scratch = arena().alloc_array<uint8_t>(scratch_bytes);
    if (scratch == nullptr) {
      skip_case(kName, c, "arena too small");
      continue;
    }
    depthwise_conv2d_s16__v6m(p, t.multipliers, t.shifts, s, t.input, t.weights, bias, t.actual, scratch);
    if (!expect_equal_s16(kName, c, common ? "common" : "any quantization", t.expected, t.actual,
                          static_cast<size_t>(out_count))) {
      ++failed;
    }
  }
  return failed;
}

}  // namespace mote::conformance
