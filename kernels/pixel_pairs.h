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

// Calls visit(wa, origin_b, p) over the output pixels in order: pixel p's window wa, and
// when pixel p + 1's window covers the same taps, its origin (else nullptr: pixel p
// alone). Pairs never reach past the last pixel.
template <typename Visit>
inline void for_pixel_pairs(const WindowGeometry& g, const WindowShape& shape, const float* input, Visit&& visit) {
  const int32_t total = shape.batch * shape.out_h * shape.out_w;
  PixelCursor at{0, 0, 0};  // pixel p
  for (int32_t p = 0; p < total;) {
    const PixelWindow wa = at.window(g, shape, input);
    at.advance(shape);
    if (p + 1 < total) {
      const PixelWindow wb = at.window(g, shape, input);
      if (same_taps(wa, wb)) {
        visit(wa, wb.origin, p);
        at.advance(shape);
        p += 2;
        continue;
      }
    }
    visit(wa, static_cast<const float*>(nullptr), p);
    p += 1;
  }
}

// A convolution window (OHWI filter) as runs of contiguous values: with dilation_w == 1
// the taps of one window row are contiguous in the input and in the filter (kx_count * C
// values: one run per row), else each tap is a run of C values.
struct WindowRuns {
  int32_t row_step;      // input values between window rows (dilation_h rows)
  int32_t filter_row;    // filter values per filter row (KW * C)
  int32_t runs_per_row;  // 1 when dilation_w == 1, else kx_count
  int32_t run_step;      // input values between runs of a row (dilation_w pixels)
  int32_t run_length;    // kx_count * C when dilation_w == 1, else C
  int32_t filter_oc;     // filter values per output channel
  int32_t in_c;
};
inline WindowRuns window_runs(const WindowGeometry& g, const WindowShape& s, const PixelWindow& w) {
  WindowRuns runs;
  runs.row_step = g.dilation_h * s.in_w * s.in_c;
  runs.filter_row = s.kernel_w * s.in_c;
  runs.runs_per_row = g.dilation_w == 1 ? 1 : w.kx_count;
  runs.run_step = g.dilation_w * s.in_c;
  runs.run_length = g.dilation_w == 1 ? w.kx_count * s.in_c : s.in_c;
  runs.filter_oc = s.kernel_h * s.kernel_w * s.in_c;
  runs.in_c = s.in_c;
  return runs;
}

// Four biases from bias + i, or zeros without a bias.
inline void load_bias4(const float* bias, int32_t i, float& c0, float& c1, float& c2, float& c3) {
  c0 = c1 = c2 = c3 = 0.0f;
  if (bias == nullptr) return;
  c0 = bias[i];
  c1 = bias[i + 1];
  c2 = bias[i + 2];
  c3 = bias[i + 3];
}

// The fused activation, or nothing when it is the identity (float_act_is_identity).
template <bool kClamp>
inline float activate(float v, float lo, float hi) {
  return kClamp ? clamp_value(v, lo, hi) : v;
}

}  // namespace mote
