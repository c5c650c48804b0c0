// The window walk the ARMv6-M (__v6m) depthwise convolutions share (depth_multiplier 1,
// NHWC input, [1, KH, KW, C] filter): for every output pixel, the rows x cols taps of its
// window that lie inside the image (window_taps.h) and where channel 0 of the first of
// them is, shared by all channels of the pixel.
#pragma once

#include <stdint.h>

#include "depthwise_conv2d/depthwise_conv2d.h"
#include "window_taps.h"

namespace mote {

// One pixel's window inside the image: rows x cols taps; channel 0 of its first tap is
// x_first values into the batch image and w_first bytes into the filter.
struct V6mDepthwiseWindow {
  int32_t rows, cols;
  int32_t x_first, w_first;
};

// Calls pixel(window, b) for every output pixel in output order (b: its batch index).
template <typename PixelFn>
inline void for_each_v6m_depthwise_window(const WindowGeometry& g, const DepthwiseConv2dShape& shape,
                                          PixelFn&& pixel) {
  const int32_t c_count = shape.out_c;
  const int32_t in_row_stride = shape.in_w * c_count;
  const int32_t filter_row_stride = shape.kernel_w * c_count;
  V6mDepthwiseWindow w;
  for_each_window_taps(g, shape, [&](int32_t b, int32_t y0, TapRange ky, int32_t x0, TapRange kx) {
    w.rows = ky.end - ky.begin;
    w.cols = kx.end - kx.begin;
    w.x_first = (y0 + ky.begin * g.dilation_h) * in_row_stride + (x0 + kx.begin * g.dilation_w) * c_count;
    w.w_first = ky.begin * filter_row_stride + kx.begin * c_count;
    pixel(w, b);
  });
}

}  // namespace mote
