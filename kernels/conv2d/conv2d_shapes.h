// Shape checks and shape extraction shared by the integer conv2d kernels (internal).
#pragma once

#include "conv2d/conv2d.h"
#include "kernel_util.h"

namespace mote {

// in [N, H, W, C], filter [O, KH, KW, C / groups], out [N, OH, OW, O] with the window
// geometry of P (any params struct with the conv2d geometry fields).
template <typename P>
bool conv2d_shapes_valid(const P& p, const TensorDesc& in, const TensorDesc& filter,
                         const TensorDesc& out) {
  if (in.rank != 4 || filter.rank != 4 || out.rank != 4) return false;
  if (!index_math_fits(in) || !index_math_fits(filter) || !index_math_fits(out)) return false;
  const int64_t in_c = in.dims[3];
  const int64_t out_c = filter.dims[0];
  if (p.groups < 1 || in_c % p.groups != 0 || out_c % p.groups != 0) return false;
  if (filter.dims[3] != in_c / p.groups) return false;
  if (out.dims[0] != in.dims[0] || out.dims[3] != out_c) return false;
  return valid_window(in.dims[1], out.dims[1], filter.dims[1], p.window.stride_h, p.window.dilation_h,
                      p.window.pad_top, p.window.pad_bottom, false) &&
         valid_window(in.dims[2], out.dims[2], filter.dims[2], p.window.stride_w, p.window.dilation_w,
                      p.window.pad_left, p.window.pad_right, false);
}

}  // namespace mote
