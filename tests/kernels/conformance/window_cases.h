// Window draws shared by the conv2d and depthwise_conv2d conformance suites (int8 and
// 16x8): padding per side, and an input extent the window fits with the output's from it.
#pragma once

#include <stdint.h>

#include "conformance.h"
#include "window_geometry.h"

namespace mote::conformance {

// Padding of 0..max rows or columns on each side (drawn top, left, bottom, right).
inline void draw_padding(Rng& rng, int32_t max, WindowGeometry* w) {
  w->pad_top = rng.uniform(0, max);
  w->pad_left = rng.uniform(0, max);
  w->pad_bottom = rng.uniform(0, max);
  w->pad_right = rng.uniform(0, max);
}

// in_h, in_w: the least the dilated window allows past the padding (at least 1) plus
// rng.uniform(0, extra) each; out_h, out_w from them. Shape: Conv2dShape or
// DepthwiseConv2dShape with the kernel size set.
template <typename Shape>
inline void draw_input_extent(Rng& rng, const WindowGeometry& w, int32_t extra, Shape* s) {
  const int32_t eff_h = w.dilation_h * (s->kernel_h - 1) + 1;
  const int32_t eff_w = w.dilation_w * (s->kernel_w - 1) + 1;
  const int32_t min_h = eff_h - w.pad_top - w.pad_bottom;
  const int32_t min_w = eff_w - w.pad_left - w.pad_right;
  s->in_h = (min_h > 1 ? min_h : 1) + rng.uniform(0, extra);
  s->in_w = (min_w > 1 ? min_w : 1) + rng.uniform(0, extra);
  s->out_h = (s->in_h + w.pad_top + w.pad_bottom - eff_h) / w.stride_h + 1;
  s->out_w = (s->in_w + w.pad_left + w.pad_right - eff_w) / w.stride_w + 1;
}

}  // namespace mote::conformance
