// The suites of the float32 variants (one per reference kernel, shared by the variants
// for each instruction set): the cases each draws, the variant run beside the reference on
// them, and expect_close_f32's tolerance from the absolute values of the operands.
#pragma once

#include "conformance.h"
#include "conv2d/conv2d.h"
#include "depthwise_conv2d/depthwise_conv2d.h"
#include "f32_cases.h"
#include "fully_connected/fully_connected.h"

namespace mote::conformance {

// A window of fixed_kernel x fixed_kernel taps (0: 1..5 each way) with fixed_pad on every
// side (-1: 0..2 each), strides 1 or 2..3, dilation 1 or 2 (1 for a fixed kernel), a batch
// of 1..2 images of 1..max_side pixels each way (more where the dilated window needs
// them); fills every field of s but the channels.
inline void draw_window(Rng& rng, int32_t fixed_kernel, int32_t fixed_pad, int32_t max_side, WindowGeometry& g,
                        WindowShape& s) {
  s.batch = rng.uniform(1, 2);
  s.kernel_h = fixed_kernel != 0 ? fixed_kernel : rng.uniform(1, 5);
  s.kernel_w = fixed_kernel != 0 ? fixed_kernel : rng.uniform(1, 5);
  g.stride_h = rng.uniform(0, 2) == 0 ? rng.uniform(2, 3) : 1;
  g.stride_w = rng.uniform(0, 2) == 0 ? rng.uniform(2, 3) : 1;
  g.dilation_h = fixed_kernel != 0 || rng.uniform(0, 3) != 0 ? 1 : 2;
  g.dilation_w = fixed_kernel != 0 || rng.uniform(0, 3) != 0 ? 1 : 2;
  g.pad_top = fixed_pad >= 0 ? fixed_pad : rng.uniform(0, 2);
  g.pad_left = fixed_pad >= 0 ? fixed_pad : rng.uniform(0, 2);
  g.pad_bottom = fixed_pad >= 0 ? fixed_pad : rng.uniform(0, 2);
  g.pad_right = fixed_pad >= 0 ? fixed_pad : rng.uniform(0, 2);
  const int32_t extent_h = g.dilation_h * (s.kernel_h - 1) + 1;
  const int32_t extent_w = g.dilation_w * (s.kernel_w - 1) + 1;
  s.in_h = rng.uniform(1, max_side);
  s.in_w = rng.uniform(1, max_side);
  if (s.in_h + g.pad_top + g.pad_bottom < extent_h) s.in_h = extent_h;
  if (s.in_w + g.pad_left + g.pad_right < extent_w) s.in_w = extent_w;
  s.out_h = static_cast<int32_t>(window_output_h(g, s.in_h, s.kernel_h, false));
  s.out_w = static_cast<int32_t>(window_output_w(g, s.in_w, s.kernel_w, false));
}

using Conv2dF32Variant = void (*)(const Conv2dParams&, const Conv2dShape&, const float*, const float*, const float*,
                                  float*);
// The conv2d_f32 suite of a variant with the reference's signature.
inline int run_conv2d_f32_cases(Rng& rng, int cases, const char* name, Conv2dF32Variant variant) {
  int failed = 0;
  for (int c = 0; c < cases; ++c) {
    Arena& a = arena();
    a.reset();
    const bool one_by_one = rng.uniform(0, 2) == 0;
    Conv2dParams p{};
    Conv2dShape s{};
    WindowGeometry& g = p.window;
    p.groups = 1;
    s.in_c = rng.coin() ? rng.uniform(1, 13) : rng.uniform(14, one_by_one ? 64 : 24);
    s.out_c = rng.coin() ? rng.uniform(1, 13) : rng.uniform(14, 40);
    draw_window(rng, one_by_one ? 1 : 0, one_by_one ? 0 : -1, 9, g, s);
    draw_f32_activation(rng, &p.act_min, &p.act_max);

    const int32_t k = s.kernel_h * s.kernel_w * s.in_c;
    F32Case t;
    if (!t.draw(a, rng, static_cast<size_t>(s.batch) * s.in_h * s.in_w * s.in_c, static_cast<size_t>(s.out_c) * k,
                rng.uniform(0, 3) != 0 ? s.out_c : 0, static_cast<size_t>(s.batch) * s.out_h * s.out_w * s.out_c)) {
      skip_case(name, c, "arena too small");
      continue;
    }
    conv2d_f32(p, s, t.input, t.weights, t.bias, t.expected);
    variant(p, s, t.input, t.weights, t.bias, t.actual);
    Conv2dParams magnitude_params = p;
    magnitude_params.act_min = -__builtin_inff();
    magnitude_params.act_max = __builtin_inff();
    conv2d_f32(magnitude_params, s, t.abs_input, t.abs_weights, t.abs_bias, t.magnitude);
    if (!expect_close_f32(name, c, one_by_one ? "1x1" : "window", t.expected, t.actual, t.magnitude, k + 1, t.out_n)) {
      ++failed;
    }
  }
  return failed;
}

using DepthwiseConv2dF32Variant = void (*)(const DepthwiseConv2dParams&, const DepthwiseConv2dShape&, const float*,
                                           const float*, const float*, float*);
// The depthwise_conv2d_f32 suite of a variant with the reference's signature.
inline int run_depthwise_conv2d_f32_cases(Rng& rng, int cases, const char* name, DepthwiseConv2dF32Variant variant) {
  int failed = 0;
  for (int c = 0; c < cases; ++c) {
    Arena& a = arena();
    a.reset();
    DepthwiseConv2dParams p{};
    DepthwiseConv2dShape s{};
    WindowGeometry& g = p.window;
    p.depth_multiplier = 1;
    const bool three = rng.coin();  // MobileNet's 3x3 pad 1
    s.in_c = rng.coin() ? rng.uniform(1, 13) : rng.uniform(14, 64);
    s.out_c = s.in_c;
    draw_window(rng, three ? 3 : 0, three ? 1 : -1, 10, g, s);
    draw_f32_activation(rng, &p.act_min, &p.act_max);

    F32Case t;
    if (!t.draw(a, rng, static_cast<size_t>(s.batch) * s.in_h * s.in_w * s.in_c,
                static_cast<size_t>(s.kernel_h) * s.kernel_w * s.out_c, rng.uniform(0, 3) != 0 ? s.out_c : 0,
                static_cast<size_t>(s.batch) * s.out_h * s.out_w * s.out_c)) {
      skip_case(name, c, "arena too small");
      continue;
    }
    depthwise_conv2d_f32(p, s, t.input, t.weights, t.bias, t.expected);
    variant(p, s, t.input, t.weights, t.bias, t.actual);
    DepthwiseConv2dParams magnitude_params = p;
    magnitude_params.act_min = -__builtin_inff();
    magnitude_params.act_max = __builtin_inff();
    depthwise_conv2d_f32(magnitude_params, s, t.abs_input, t.abs_weights, t.abs_bias, t.magnitude);
    if (!expect_close_f32(name, c, three ? "3x3" : "window", t.expected, t.actual, t.magnitude,
                          s.kernel_h * s.kernel_w + 1, t.out_n)) {
      ++failed;
    }
  }
  return failed;
}

using FullyConnectedF32Variant = void (*)(const FullyConnectedParams&, int32_t, int32_t, int32_t, const float*,
                                          const float*, const float*, float*);
// The fully_connected_f32 suite of a variant with the reference's signature.
inline int run_fully_connected_f32_cases(Rng& rng, int cases, const char* name, FullyConnectedF32Variant variant) {
  int failed = 0;
  for (int c = 0; c < cases; ++c) {
    Arena& a = arena();
    a.reset();
    const int32_t batches = rng.uniform(1, 3);
    const int32_t k_kind = rng.uniform(0, 2);
    const int32_t k = k_kind == 0 ? rng.uniform(1, 17) : (k_kind == 1 ? rng.uniform(18, 300) : rng.uniform(1000, 1300));
    const int32_t n = rng.coin() ? rng.uniform(1, 17) : rng.uniform(18, k_kind == 2 ? 24 : 40);
    FullyConnectedParams p{};
    draw_f32_activation(rng, &p.act_min, &p.act_max);
    F32Case t;
    const bool has_bias = rng.uniform(0, 3) != 0;
    if (!t.draw(a, rng, static_cast<size_t>(batches) * k, static_cast<size_t>(n) * k, has_bias ? n : 0,
                static_cast<size_t>(batches) * n)) {
      skip_case(name, c, "arena too small");
      continue;
    }
    fully_connected_f32(p, batches, k, n, t.input, t.weights, t.bias, t.expected);
    variant(p, batches, k, n, t.input, t.weights, t.bias, t.actual);
    const FullyConnectedParams magnitude_params{-__builtin_inff(), __builtin_inff()};
    fully_connected_f32(magnitude_params, batches, k, n, t.abs_input, t.abs_weights, t.abs_bias, t.magnitude);
    if (!expect_close_f32(name, c, has_bias ? "bias" : "no bias", t.expected, t.actual, t.magnitude, k + 1, t.out_n)) {
      ++failed;
    }
  }
  return failed;
}

}  // namespace mote::conformance
