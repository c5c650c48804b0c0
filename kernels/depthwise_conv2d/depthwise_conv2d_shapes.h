// Shape checks and shape extraction shared by the integer depthwise kernels (internal).
#pragma once

#include "depthwise_conv2d/depthwise_conv2d.h"
#include "kernel_util.h"

namespace mote {

// in [N, H, W, C], filter [1, KH, KW, C * M], out [N, OH, OW, C * M] with the window
// geometry and depth multiplier M of P.
template <typename P>
bool depthwise_conv2d_shapes_valid(const P& p, const TensorDesc& in, const TensorDesc& filter,
                                   const TensorDesc& out) {
  if (in.rank != 4 || filter.rank != 4 || out.rank != 4) return false;
  if (!index_math_fits(in) || !index_math_fits(filter) || !index_math_fits(out)) return false;
  if (p.depth_multiplier < 1) return false;
  const int64_t out_c = static_cast<int64_t>(in.dims[3]) * p.depth_multiplier;
  if (filter.dims[0] != 1 || filter.dims[3] != out_c) return false;
  if (out.dims[0] != in.dims[0] || out.dims[3] != out_c) return false;
  return valid_window(in.dims[1], out.dims[1], filter.dims[1], p.window.stride_h, p.window.dilation_h,
                      p.window.pad_top, p.window.pad_bottom, false) &&
         valid_window(in.dims[2], out.dims[2], filter.dims[2], p.window.stride_w, p.window.dilation_w,
                      p.window.pad_left, p.window.pad_right, false);
}

}  // namespace mote
