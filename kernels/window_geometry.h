// The geometry of a sliding window over NHWC tensors, shared by convolution, depthwise
// convolution and pooling (float32, int8, int16): every such kernel's parameter struct
// holds one WindowGeometry named `window`, and one rule gives the output size.
//
// Also what the compiler's memory planner needs from a kernel that streams pixels
// (PixelStreamShape, the block rules of kernels/kernel_registry.inc).
#pragma once

#include <stdint.h>

#include "mote/program_format.h"

namespace mote {

// Strides and dilations >= 1, pads >= 0 (the checks refuse anything else). Output pixel
// (oy, ox) reads input rows oy * stride_h - pad_top + ky * dilation_h for ky in
// [0, kernel_h), and columns likewise; taps in the padding read as zero (convolution)
// or are skipped (pooling).
struct WindowGeometry {
  int32_t stride_h, stride_w;
  int32_t dilation_h, dilation_w;
  int32_t pad_top, pad_left, pad_bottom, pad_right;
};

// The sizes a windowed op over NHWC tensors loops over: input [batch, in_h, in_w, in_c],
// output [batch, out_h, out_w, out_c], kernel_h x kernel_w taps. Convolution, depthwise
// and transposed convolution name it after themselves (Conv2dShape, ...).
struct WindowShape {
  int32_t batch, in_h, in_w, in_c;
  int32_t out_h, out_w, out_c;
  int32_t kernel_h, kernel_w;
};

// The shape of tensors a check() accepted (rank 4, index math in int32): the taps are
// the filter's dims 1 and 2 (OHWI for convolutions, 1HWO for depthwise).
inline WindowShape window_shape(const TensorDesc& in, const TensorDesc& filter, const TensorDesc& out) {
  WindowShape shape;
  shape.batch = static_cast<int32_t>(in.dims[0]);
  shape.in_h = static_cast<int32_t>(in.dims[1]);
  shape.in_w = static_cast<int32_t>(in.dims[2]);
  shape.in_c = static_cast<int32_t>(in.dims[3]);
  shape.out_h = static_cast<int32_t>(out.dims[1]);
  shape.out_w = static_cast<int32_t>(out.dims[2]);
  shape.out_c = static_cast<int32_t>(out.dims[3]);
  shape.kernel_h = static_cast<int32_t>(filter.dims[1]);
  shape.kernel_w = static_cast<int32_t>(filter.dims[2]);
  return shape;
}

// Output size along one axis: the number of window positions whose dilated kernel,
// extent = dilation * (kernel - 1) + 1, fits in the padded input,
//   floor((in + pad_begin + pad_end - extent) / stride) + 1
// (or the ceiling, for ceil_mode pooling); 0 when the extent exceeds the padded input
// or stride < 1.
constexpr int64_t window_output_size(int64_t in, int64_t kernel, int64_t stride,
                                     int64_t dilation, int64_t pad_begin, int64_t pad_end,
                                     bool ceil_mode) {
  const int64_t span = in + pad_begin + pad_end - (dilation * (kernel - 1) + 1);
  if (span < 0 || stride < 1) return 0;
  return (ceil_mode ? (span + stride - 1) / stride : span / stride) + 1;
}
constexpr int64_t window_output_h(const WindowGeometry& g, int64_t in_h, int64_t kernel_h,
                                  bool ceil_mode) {
  return window_output_size(in_h, kernel_h, g.stride_h, g.dilation_h, g.pad_top, g.pad_bottom,
                            ceil_mode);
}
constexpr int64_t window_output_w(const WindowGeometry& g, int64_t in_w, int64_t kernel_w,
                                  bool ceil_mode) {
  return window_output_size(in_w, kernel_w, g.stride_w, g.dilation_w, g.pad_left, g.pad_right,
                            ceil_mode);
}

// ---------------------------------------------------------------------------------------
// Pixel streaming (host side: the compiler's in-place planning). A pixel-streaming kernel
// produces output pixels in order (batch, row, column), and whenever output pixel p is
// the lowest whose input it has still to read, it has written output pixels below
// p + block only, where block is its block rule's value for the op's shapes (0: it does
// not stream these shapes). The compiler then writes the output over the dying input,
// starting just far enough below it that nothing written reaches input still to be read.
// Each kernel's rule is written beside it (kernels/<op>/<op>.h) and named in the
// registry; one that changes its loop order must change its rule (the random in-place
// tests of tests/compiler/program_writer_test.cc run every kernel in place on every
// target and compare with a separate-buffer run).

// A row-buffering kernel (its registry placement pixel_rows, with rows R > 0 for the op)
// also promises, per image and output row oy: before it writes any pixel of row oy it has
// read every input row it will read up to row oy * stride_h - pad_top + R - 1 (into its
// own scratch), and afterwards it reads only later rows. Then only the input from row
// oy * stride_h - pad_top + R (clamped to the image) on must survive row oy's writes.
//
// Input 0 [batch, in_h, in_w, in_c] and output 0 [batch, out_h, out_w, out_c].
struct PixelStreamShape {
  int64_t batch, in_h, in_w, in_c;
  int64_t out_h, out_w, out_c;
};

// The reference kernels' rule: one output pixel at a time.
constexpr uint32_t stream_one_pixel(const PixelStreamShape& /*shape*/) { return 1; }

}  // namespace mote
