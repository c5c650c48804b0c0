// The loop every transpose_conv kernel shares (internal to kernels/transpose_conv/):
// for each output element, the (input pixel, tap) pairs that TFLite's scatter lands on it,
// in TFLite's order (input row ascending, then column, then channel), and the checks of
// the shapes and window every dtype makes.
#pragma once

#include <stdint.h>

#include "kernel_util.h"
#include "transpose_conv/transpose_conv.h"

namespace mote {

// P is one of the params structs (stride_h, stride_w, pad_top, pad_left first, dilation_h,
// dilation_w, groups last). mac(acc, input_value, filter_value) returns acc plus one term;
// finish(acc, oc) returns output channel oc's value. Cost: one pass over the output,
// about KH/stride_h x KW/stride_w x C/groups terms per element (the scatter's total), no
// scratch. With dilation 1 every input row in [iy_begin, iy_end) has a tap on the output
// row; with dilation d only those whose distance is a multiple of d.
template <typename Acc, typename P, typename In, typename W, typename Out, typename Mac, typename Finish>
inline void transpose_conv_gather(const P& params, const TransposeConvShape& shape, const In* input,
                                  const W* filter, Out* output, Mac mac, Finish finish) {
  const int32_t in_row_stride = shape.in_w * shape.in_c;
  const int32_t in_image_stride = shape.in_h * in_row_stride;
  const int32_t group_c = shape.in_c / params.groups;
  const int32_t group_o = shape.out_c / params.groups;
  const int32_t filter_row_stride = shape.kernel_w * group_c;
  const int32_t filter_oc_stride = shape.kernel_h * filter_row_stride;
  // The extent of the dilated kernel.
  const int32_t span_h = (shape.kernel_h - 1) * params.dilation_h + 1;
  const int32_t span_w = (shape.kernel_w - 1) * params.dilation_w + 1;

  for (int32_t b = 0; b < shape.batch; ++b) {
    const In* image = input + b * in_image_stride;
    for (int32_t oy = 0; oy < shape.out_h; ++oy) {
      // Input row iy reaches output row oy through tap ky = (ty - iy * stride_h) / dilation_h
      // for the iy with 0 <= ty - iy * stride_h < span_h divisible by dilation_h.
      const int32_t ty = oy + params.pad_top;
      const int32_t iy_begin = ty >= span_h ? (ty - span_h) / params.stride_h + 1 : 0;
      const int32_t iy_end = ty < 0 ? 0 : ty / params.stride_h < shape.in_h ? ty / params.stride_h + 1 : shape.in_h;
      for (int32_t ox = 0; ox < shape.out_w; ++ox) {
        const int32_t tx = ox + params.pad_left;
        const int32_t ix_begin = tx >= span_w ? (tx - span_w) / params.stride_w + 1 : 0;
        const int32_t ix_end = tx < 0 ? 0 : tx / params.stride_w < shape.in_w ? tx / params.stride_w + 1 : shape.in_w;
        for (int32_t oc = 0; oc < shape.out_c; ++oc) {
          const W* filter_oc = filter + oc * filter_oc_stride;
          const In* image_group = image + (oc / group_o) * group_c;
          Acc acc = Acc{0};
          for (int32_t iy = iy_begin; iy < iy_end; ++iy) {
            const int32_t dy = ty - iy * params.stride_h;
            if (dy % params.dilation_h != 0) continue;
            const In* in_row = image_group + iy * in_row_stride;
            const W* filter_row = filter_oc + (dy / params.dilation_h) * filter_row_stride;
            for (int32_t ix = ix_begin; ix < ix_end; ++ix) {
              const int32_t dx = tx - ix * params.stride_w;
              if (dx % params.dilation_w != 0) continue;
              const In* in_px = in_row + ix * shape.in_c;
              const W* w = filter_row + (dx / params.dilation_w) * group_c;
              for (int32_t ic = 0; ic < group_c; ++ic) acc = mac(acc, in_px[ic], w[ic]);
            }
          }
          *output++ = finish(acc, oc);
        }
      }
    }
  }
}

// Rank 4 tensors of consistent shapes (the dtypes are the caller's), the bias [O] when
// present, groups dividing C and O, and a window whose index math fits int32.
template <typename P>
inline bool transpose_conv_tensors_valid(const OpContext& ctx, const P& p) {
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& filter = ctx.input_desc(1);
  const TensorDesc& out = ctx.output_desc(0);
  if (in.rank != 4 || filter.rank != 4 || out.rank != 4) return false;
  if (!index_math_fits(in) || !index_math_fits(filter) || !index_math_fits(out)) return false;
  const uint32_t out_c = filter.dims[0];
  if (p.groups < 1 || p.dilation_h < 1 || p.dilation_w < 1 || p.stride_h < 1 || p.stride_w < 1) return false;
  const uint32_t groups = static_cast<uint32_t>(p.groups);
  if (uint64_t{filter.dims[3]} * groups != in.dims[3] || out_c % groups != 0 || out.dims[0] != in.dims[0] ||
      out.dims[3] != out_c) {
    return false;
  }
  constexpr int32_t kMaxPad = 1 << 30;
  if (p.pad_top <= -kMaxPad || p.pad_top >= kMaxPad || p.pad_left <= -kMaxPad || p.pad_left >= kMaxPad) return false;
  // Bounds oy + pad_top, the dilated spans and the tap loops in int32.
  const int64_t span_h = (int64_t{filter.dims[1]} - 1) * p.dilation_h + 1;
  const int64_t span_w = (int64_t{filter.dims[2]} - 1) * p.dilation_w + 1;
  if (int64_t{out.dims[1]} + kMaxPad + span_h + p.stride_h > INT32_MAX ||
      int64_t{out.dims[2]} + kMaxPad + span_w + p.stride_w > INT32_MAX) {
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
