// The loop every transpose_conv kernel shares (internal to kernels/transpose_conv/):
// for each output element, the (input pixel, tap) pairs that TFLite's scatter lands on it,
// in TFLite's order (input row ascending, then column, then channel), and the checks of
// the shapes and window every dtype makes.
#pragma once

#include <stdint.h>

#include "kernel_util.h"
#include "transpose_conv/transpose_conv.h"

namespace mote {

// P is one of the params structs (stride_h, stride_w, pad_top, pad_left first).
// mac(acc, input_value, filter_value) returns acc plus one term; finish(acc, oc) returns
// output channel oc's value. Cost: one pass over the output, KH/stride_h x KW/stride_w x C
// terms per element (the scatter's total), no scratch.
template <typename Acc, typename P, typename In, typename W, typename Out, typename Mac, typename Finish>
inline void transpose_conv_gather(const P& params, const TransposeConvShape& shape, const In* input,
                                  const W* filter, Out* output, Mac mac, Finish finish) {
  const int32_t in_row_stride = shape.in_w * shape.in_c;
  const int32_t in_image_stride = shape.in_h * in_row_stride;
  const int32_t filter_row_stride = shape.kernel_w * shape.in_c;
  const int32_t filter_oc_stride = shape.kernel_h * filter_row_stride;

  for (int32_t b = 0; b < shape.batch; ++b) {
    const In* image = input + b * in_image_stride;
    for (int32_t oy = 0; oy < shape.out_h; ++oy) {
      // Input row iy reaches output row oy through tap ky = ty - iy * stride_h, for the
      // iy with 0 <= ky < kernel_h.
      const int32_t ty = oy + params.pad_top;
      const int32_t iy_begin = ty >= shape.kernel_h ? (ty - shape.kernel_h) / params.stride_h + 1 : 0;
      const int32_t iy_end = ty / params.stride_h < shape.in_h ? ty / params.stride_h + 1 : shape.in_h;
      for (int32_t ox = 0; ox < shape.out_w; ++ox) {
        const int32_t tx = ox + params.pad_left;
        const int32_t ix_begin = tx >= shape.kernel_w ? (tx - shape.kernel_w) / params.stride_w + 1 : 0;
        const int32_t ix_end = tx / params.stride_w < shape.in_w ? tx / params.stride_w + 1 : shape.in_w;
        for (int32_t oc = 0; oc < shape.out_c; ++oc) {
          const W* filter_oc = filter + oc * filter_oc_stride;
          Acc acc = Acc{0};
          for (int32_t iy = iy_begin; iy < iy_end; ++iy) {
            const In* in_row = image + iy * in_row_stride;
            const W* filter_row = filter_oc + (ty - iy * params.stride_h) * filter_row_stride;
            for (int32_t ix = ix_begin; ix < ix_end; ++ix) {
              const In* in_px = in_row + ix * shape.in_c;
              const W* w = filter_row + (tx - ix * params.stride_w) * shape.in_c;
              for (int32_t ic = 0; ic < shape.in_c; ++ic) acc = mac(acc, in_px[ic], w[ic]);
            }
          }
          *output++ = finish(acc, oc);
        }
      }
    }
  }
}

// The shape of an op whose tensors passed transpose_conv_tensors_valid.
inline TransposeConvShape transpose_conv_shape(const OpContext& ctx) {
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& filter = ctx.input_desc(1);
  const TensorDesc& out = ctx.output_desc(0);
  TransposeConvShape shape;
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

// Rank 4 tensors of consistent shapes (the dtypes are the caller's), the bias [O] when
// present, and a window whose index math fits int32.
template <typename P>
inline bool transpose_conv_tensors_valid(const OpContext& ctx, const P& p) {
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& filter = ctx.input_desc(1);
  const TensorDesc& out = ctx.output_desc(0);
  if (in.rank != 4 || filter.rank != 4 || out.rank != 4) return false;
  if (!index_math_fits(in) || !index_math_fits(filter) || !index_math_fits(out)) return false;
  const uint32_t out_c = filter.dims[0];
  if (filter.dims[3] != in.dims[3] || out.dims[0] != in.dims[0] || out.dims[3] != out_c) return false;
  if (p.stride_h < 1 || p.stride_w < 1 || p.pad_top < 0 || p.pad_left < 0) return false;
  // Bounds oy + pad_top and the tap loops in int32.
  if (int64_t{out.dims[1]} + p.pad_top + filter.dims[1] + p.stride_h > INT32_MAX ||
      int64_t{out.dims[2]} + p.pad_left + filter.dims[2] + p.stride_w > INT32_MAX) {
    return false;
  }
  if (ctx.input_count() == 3 && ctx.has_input(2)) {
    const TensorDesc& bias = ctx.input_desc(2);
    if (bias.rank != 1 || bias.dims[0] != out_c) return false;
  }
  return true;
}

// The bias of a valid op with dtype T, or nullptr.
template <typename T>
inline const T* transpose_conv_bias(const OpContext& ctx) {
  return ctx.input_count() == 3 ? static_cast<const T*>(ctx.input_data(2)) : nullptr;
}

}  // namespace mote
