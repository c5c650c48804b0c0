// The pixel walk of sliding-window kernels that take each output pixel's in-image taps
// as one block: for every output pixel, in output order, the kernel rows and columns whose
// taps lie inside the image. taps_inside() (which divides) is called only for pixels at
// the image border; inside, the range is the whole kernel.
#pragma once

#include <stdint.h>

#include "kernel_util.h"
#include "window_geometry.h"

namespace mote {

// Calls pixel(b, y0, ky, x0, kx) for every output pixel: b its batch index, (y0, x0)
// its window's top-left tap (negative inside the padding), ky / kx the kernel rows and
// columns inside the image.
template <typename PixelFn>
inline void for_each_window_taps(const WindowGeometry& g, const WindowShape& shape, PixelFn&& pixel) {
  const int32_t span_h = (shape.kernel_h - 1) * g.dilation_h;
  const int32_t span_w = (shape.kernel_w - 1) * g.dilation_w;
  for (int32_t b = 0; b < shape.batch; ++b) {
    for (int32_t oy = 0; oy < shape.out_h; ++oy) {
      const int32_t y0 = oy * g.stride_h - g.pad_top;
      const TapRange ky = (y0 >= 0 && y0 + span_h < shape.in_h)
                              ? TapRange{0, shape.kernel_h}
                              : taps_inside(y0, g.dilation_h, shape.kernel_h, shape.in_h);
      int32_t x0 = -g.pad_left;
      for (int32_t ox = 0; ox < shape.out_w; ++ox, x0 += g.stride_w) {
        const TapRange kx = (x0 >= 0 && x0 + span_w < shape.in_w)
                                ? TapRange{0, shape.kernel_w}
                                : taps_inside(x0, g.dilation_w, shape.kernel_w, shape.in_w);
        pixel(b, y0, ky, x0, kx);
      }
    }
  }
}

}  // namespace mote
