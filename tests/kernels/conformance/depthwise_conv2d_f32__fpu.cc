// Conformance of depthwise_conv2d_f32__fpu against depthwise_conv2d_f32 (depth multiplier
// 1): windows 1x1 to 5x5 with padding, strides and dilations (border pixels that do not
// pair), channel counts that leave tails of 1..3, odd pixel counts, batches, absent bias,
// every activation range, value ranges from 1e-3 to 300. Tolerance: expect_close_f32 with
// KH * KW + 1 terms (the same order as the reference is kept, so most outputs agree bit
// for bit; the bound admits any order).
#include "conformance.h"
#include "depthwise_conv2d/depthwise_conv2d.h"
#include "f32_cases.h"

namespace mote::conformance {

int run_depthwise_conv2d_f32__fpu(Rng& rng, int cases) {
  static const char kName[] = "depthwise_conv2d_f32__fpu";
  int failed = 0;
  for (int c = 0; c < cases; ++c) {
    Arena& a = arena();
    a.reset();
    DepthwiseConv2dParams p{};
    DepthwiseConv2dShape s{};
    WindowGeometry& g = p.window;
    p.depth_multiplier = 1;
    s.batch = rng.uniform(1, 2);
    const bool three = rng.coin();  // MobileNet's 3x3 pad 1
    s.kernel_h = three ? 3 : rng.uniform(1, 5);
    s.kernel_w = three ? 3 : rng.uniform(1, 5);
    g.stride_h = rng.uniform(0, 2) == 0 ? rng.uniform(2, 3) : 1;
    g.stride_w = three ? g.stride_h : (rng.uniform(0, 2) == 0 ? rng.uniform(2, 3) : 1);
    g.dilation_h = three || rng.uniform(0, 3) != 0 ? 1 : 2;
    g.dilation_w = three || rng.uniform(0, 3) != 0 ? 1 : 2;
    g.pad_top = three ? 1 : rng.uniform(0, 2);
    g.pad_left = three ? 1 : rng.uniform(0, 2);
    g.pad_bottom = three ? 1 : rng.uniform(0, 2);
    g.pad_right = three ? 1 : rng.uniform(0, 2);
    s.in_c = rng.coin() ? rng.uniform(1, 13) : rng.uniform(14, 64);
    s.out_c = s.in_c;
    const int32_t extent_h = g.dilation_h * (s.kernel_h - 1) + 1;
    const int32_t extent_w = g.dilation_w * (s.kernel_w - 1) + 1;
    s.in_h = rng.uniform(1, 10);
    s.in_w = rng.uniform(1, 10);
    if (s.in_h + g.pad_top + g.pad_bottom < extent_h) s.in_h = extent_h;
    if (s.in_w + g.pad_left + g.pad_right < extent_w) s.in_w = extent_w;
    s.out_h = static_cast<int32_t>(window_output_h(g, s.in_h, s.kernel_h, false));
    s.out_w = static_cast<int32_t>(window_output_w(g, s.in_w, s.kernel_w, false));
    draw_f32_activation(rng, &p.act_min, &p.act_max);

    F32Case t;
    if (!t.draw(a, rng, static_cast<size_t>(s.batch) * s.in_h * s.in_w * s.in_c,
                static_cast<size_t>(s.kernel_h) * s.kernel_w * s.out_c, rng.uniform(0, 3) != 0 ? s.out_c : 0,
                static_cast<size_t>(s.batch) * s.out_h * s.out_w * s.out_c)) {
      skip_case(kName, c, "arena too small");
      continue;
    }
    depthwise_conv2d_f32(p, s, t.input, t.weights, t.bias, t.expected);
    depthwise_conv2d_f32__fpu(p, s, t.input, t.weights, t.bias, t.actual);
    DepthwiseConv2dParams magnitude_params = p;
    magnitude_params.act_min = -__builtin_inff();
    magnitude_params.act_max = __builtin_inff();
    depthwise_conv2d_f32(magnitude_params, s, t.abs_input, t.abs_weights, t.abs_bias, t.magnitude);
    if (!expect_close_f32(kName, c, three ? "3x3" : "window", t.expected, t.actual, t.magnitude,
                          s.kernel_h * s.kernel_w + 1, t.out_n)) {
      ++failed;
    }
  }
  return failed;
}

}  // namespace mote::conformance
