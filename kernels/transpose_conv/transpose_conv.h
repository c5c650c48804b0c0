// Transposed 2-D convolution, int16 activations and int8 weights (TFLite 16x8
// TRANSPOSE_CONV, the int16 reference_integer_ops::TransposeConv with int64 bias).
//   inputs:  0 input  int16 [N, H, W, C]          (zero point 0)
//            1 filter int8  [O, KH, KW, C]        (OHWI, per-channel scales on O)
//            2 bias   int64 [O]                   (optional; the compiler widens an
//                                                  int16 bias, as TFLite does at run time)
//   output:  0        int16 [N, OH, OW, O]        (zero point 0; OH, OW as the model says)
// (TFLite's output-shape input is resolved on the host; it is not a kernel input.)
// Input pixel (iy, ix) scatters to output rows iy * stride_h - pad_top + ky (same for
// columns); taps outside the output are dropped. Each output element is
//   acc = sum over all (iy, ix, ky, kx, c) landing on it of input * filter   (int64)
//         + bias[o]
//   out = clamp(multiply_by_quantized_multiplier64(acc, multiplier[o], shift[o]),
//               act_min, act_max)
// pad_top / pad_left are TFLite's padding values (ComputePaddingHeightWidth with the
// OUTPUT size as its input size, dilation 1). Params: TransposeConvS16Params, then int32
// multiplier[O], then int32 shift[O] (conv_channel_multiplier; activation range with
// -32768, 32767). check(): shifts in [-31, 14].
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

struct TransposeConvS16Params {
  int32_t stride_h, stride_w;
  int32_t pad_top, pad_left;
  int32_t act_min, act_max;
};

struct TransposeConvShape {
  int32_t batch, in_h, in_w, in_c;
  int32_t out_h, out_w, out_c;
  int32_t kernel_h, kernel_w;
};

void transpose_conv_s16(const TransposeConvS16Params& params, const int32_t* multipliers,
                        const int32_t* shifts, const TransposeConvShape& shape,
                        const int16_t* input, const int8_t* filter, const int64_t* bias,
                        int16_t* output);

Status transpose_conv_s16_check(const OpContext& ctx);
void transpose_conv_s16_run(const OpContext& ctx);
extern const KernelEntry kTransposeConvS16Entry;

// Multiply-accumulates of one op (the registry's macs column; host tools): each input
// element scatters into O x KH x KW outputs.
inline uint64_t transpose_conv_macs(const OpContext& ctx) {
  const TensorDesc& filter = ctx.input_desc(1);  // [O, KH, KW, C]
  return uint64_t{element_count(ctx.input_desc(0))} * filter.dims[0] * filter.dims[1] * filter.dims[2];
}

}  // namespace mote
