// The window walk the ARMv6-M (__v6m) convolutions share: for every output pixel, the
// taps of its window that lie inside the image as runs of consecutive values in both the
// input and the filter (groups == 1, NHWC input, OHWI filter). With dilation_w == 1 the KW
// taps of a window row are KW * C consecutive values of both the input row and the filter
// row, one run per window row; otherwise one run of C per tap (window_taps.h walks the
// pixels).
#pragma once

#include <stdint.h>

#include "conv2d/conv2d.h"
#include "conv2d/conv2d_shapes.h"
#include "window_taps.h"

namespace mote {

// One pixel's window: `rows` x `cols` runs of `len` values, the first at x_first (from
// the batch image, in values) and w_first (from output channel 0's filter), the next row
// x_row / w_row further, the next column x_col / w_col further.
struct V6mRuns {
  int32_t rows, cols, len;
  int32_t x_first, w_first;
  int32_t x_row, w_row, x_col, w_col;
};

// Calls pixel(runs, b) for every output pixel in output order (b: its batch index).
template <typename PixelFn>
inline void for_each_v6m_window(const WindowGeometry& g, const Conv2dShape& shape, PixelFn&& pixel) {
  const int32_t c = shape.in_c;
  const int32_t in_row_stride = shape.in_w * c;
  const int32_t filter_row_stride = shape.kernel_w * c;
  const bool dense_w = g.dilation_w == 1;
  V6mRuns r;
  r.x_row = g.dilation_h * in_row_stride;
  r.w_row = filter_row_stride;
  r.x_col = g.dilation_w * c;
  r.w_col = c;
  for_each_window_taps(g, shape, [&](int32_t b, int32_t y0, TapRange ky, int32_t x0, TapRange kx) {
    const int32_t taps = kx.end - kx.begin;
    r.rows = ky.end - ky.begin;
    r.cols = dense_w ? (taps > 0 ? 1 : 0) : taps;
    r.len = dense_w ? taps * c : c;
    r.x_first = (y0 + ky.begin * g.dilation_h) * in_row_stride + (x0 + kx.begin * g.dilation_w) * c;
    r.w_first = ky.begin * filter_row_stride + kx.begin * c;
    pixel(r, b);
  });
}

}  // namespace mote
