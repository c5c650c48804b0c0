// Helpers of the float kernels that take output pixels two at a time (register-blocked
// convolution and depthwise convolution for FPU cores): the part of a pixel's window
// inside the image, the walk through the output in (batch, row, column) order, and the
// fused activation chosen once per op.
#pragma once

#include <stdint.h>

#include "kernel_util.h"
#include "window_geometry.h"

namespace mote {

// One output pixel's window: its first tap inside the image and the taps' extent.
struct PixelWindow {
  const float* origin;    // input at tap (ky_begin, kx_begin), channel 0
  int32_t filter_offset;  // filter values (per output channel) before that tap
  int32_t ky_count, kx_count;
};

// The window of output pixel (oy, ox) over `image` (an [in_h, in_w, in_c] image). A window
// with no tap inside is {image, 0, 0, 0}: the bias alone.
inline PixelWindow pixel_window(const WindowGeometry& g, const WindowShape& shape, const float* image, int32_t oy,
                                int32_t ox) {
  const int32_t y0 = oy * g.stride_h - g.pad_top;
  const int32_t x0 = ox * g.stride_w - g.pad_left;
  const TapRange ky = taps_inside(y0, g.dilation_h, shape.kernel_h, shape.in_h);
  const TapRange kx = taps_inside(x0, g.dilation_w, shape.kernel_w, shape.in_w);
  PixelWindow w{image, 0, 0, 0};
  if (ky.end == ky.begin || kx.end == kx.begin) return w;
  w.ky_count = ky.end - ky.begin;
  w.kx_count = kx.end - kx.begin;
  w.origin = image + ((y0 + ky.begin * g.dilation_h) * shape.in_w + x0 + kx.begin * g.dilation_w) * shape.in_c;
  w.filter_offset = (ky.begin * shape.kernel_w + kx.begin) * shape.in_c;
  return w;
}

// Two windows the same taps of the filter cover (the border cuts them alike).
inline bool same_taps(const PixelWindow& a, const PixelWindow& b) {
  return a.ky_count == b.ky_count && a.kx_count == b.kx_count && a.filter_offset == b.filter_offset;
}

// An output pixel position, walked in (batch, row, column) order.
struct PixelCursor {
  int32_t batch, oy, ox;
  void advance(const WindowShape& shape) {
    if (++ox == shape.out_w) {
      ox = 0;
      if (++oy == shape.out_h) {
        oy = 0;
        ++batch;
      }
    }
  }
  PixelWindow window(const WindowGeometry& g, const WindowShape& shape, const float* input) const {
    return pixel_window(g, shape, input + batch * shape.in_h * shape.in_w * shape.in_c, oy, ox);
  }
};

// The fused activation, or nothing when it is the identity (float_act_is_identity).
template <bool kClamp>
inline float activate(float v, float lo, float hi) {
  return kClamp ? clamp_value(v, lo, hi) : v;
}

}  // namespace mote
