// Shape checks and shape extraction shared by the integer conv2d kernels (internal).
#pragma once

#include "conv2d/conv2d.h"
#include "kernel_util.h"
#include "quant/quant_check.h"

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

// An int8 conv2d op's operands as every conv2d_s8 variant's kernel function takes them
// (params, per-channel multipliers and shifts, shape, input, filter, bias or null, output):
// the one unpacking of the OpContext that the variants' run functions share.
struct Conv2dS8Operands {
  const Conv2dS8Params& params;
  const int32_t* multipliers;
  const int32_t* shifts;
  Conv2dShape shape;
  const int8_t* input;
  const int8_t* filter;
  const int32_t* bias;
  int8_t* output;
};

inline Conv2dS8Operands conv2d_s8_operands(const OpContext& ctx) {
  const TensorDesc& filter = ctx.input_desc(1);
  const Conv2dS8Params& p = ctx.params<Conv2dS8Params>();
  const uint32_t out_c = filter.dims[0];
  return Conv2dS8Operands{p,
                          params_array(p, 0, out_c),
                          params_array(p, 1, out_c),
                          window_shape(ctx.input_desc(0), filter, ctx.output_desc(0)),
                          static_cast<const int8_t*>(ctx.input_data(0)),
                          static_cast<const int8_t*>(ctx.input_data(1)),
                          ctx.input_count() == 3 ? static_cast<const int32_t*>(ctx.input_data(2)) : nullptr,
                          static_cast<int8_t*>(ctx.output_data(0))};
}

}  // namespace mote
