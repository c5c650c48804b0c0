// Transposed 2-D convolution (TFLite TRANSPOSE_CONV): float32, int8 and 16x8, each
// bit-exact with TFLite's reference (reference_ops::TransposeConv for float32,
// reference_integer_ops::TransposeConv for int8 and int16).
//   inputs:  0 input  [N, H, W, C]
//            1 filter [O, KH, KW, C/G]      (OHWI; quantized: int8, per-channel scales on O)
//            2 bias   [O]                   (optional)
//   output:  0        [N, OH, OW, O]        (OH, OW as the model says)
// (TFLite's output-shape input is resolved on the host; it is not a kernel input.)
//   dtype    input / output        filter   bias     accumulator
//   f32      float32               float32  float32  float
//   s8       int8 (zero points)    int8     int32    int32 (wrapping)
//   s16      int16 (zero point 0)  int8     int64    int64 (the compiler widens an
//                                                     int16 bias, as TFLite does at run time)
// Input pixel (iy, ix) scatters to output rows iy * stride_h - pad_top + ky * dilation_h
// (same for columns); taps outside the output are dropped. With G groups (ONNX
// ConvTranspose's `group`), output channel o reads input channels [g * C/G, (g+1) * C/G)
// of its group g = o / (O/G) through filter[o, ky, kx, 0 .. C/G). pad_top / pad_left may
// be negative (ONNX output_shape or SAME padding with a kernel smaller than the stride:
// outputs before the first input's taps). Each output element is
//   acc = sum over all (iy, ix, ky, kx, c) landing on it of
//           f32: input * filter     s8: (input - input_zero_point) * filter
//           s16: input * filter
//   f32: out = clamp(acc + bias[o], act_min, act_max)
//   s8:  out = clamp(multiply_by_quantized_multiplier(acc + bias[o], multiplier[o], shift[o])
//                    + output_zero_point, act_min, act_max)
//   s16: out = clamp(multiply_by_quantized_multiplier64(acc + bias[o], multiplier[o], shift[o]),
//                    act_min, act_max)
// TFLite sums in input order (iy, then ix, then c ascending) into an output-sized scratch
// buffer (int32 for int8, int64 for 16x8, the output itself for float). These kernels
// gather instead (transpose_conv_gather.h): per output element, the same terms in the same
// order. The float sum is therefore the same rounding sequence, the integer sums are exact
// (int64) or wrap modulo 2^32 whatever the order (int32), so results are bit for bit
// TFLite's. Scratch rule: none (0 bytes) for every dtype; TFLite Micro's arena holds
// N*OH*OW*O * 4 (int8) or * 8 (16x8) scratch bytes more.
// pad_top / pad_left are TFLite's padding values (ComputePaddingHeightWidth with the
// OUTPUT size as its input size, dilation 1; SAME or VALID). The fused activation is
// applied for every dtype, as TFLite Micro does (act_min/act_max; the quantized range is
// CalculateActivationRangeQuantized's).
// Params: TransposeConvF32Params; TransposeConvS8Params then int32 multiplier[O], int32
// shift[O]; TransposeConvS16Params then multiplier[O], shift[O] (conv_channel_multiplier).
// check(): strides, dilations, groups >= 1, |pads| < 2^30, shapes as above, zero points and the activation range
// in the type's range, shifts in [-31, 30] (s8) or [-31, 14] (s16).
#pragma once

#include <stdint.h>

#include "mote/kernel.h"
#include "window_geometry.h"

namespace mote {

// Every params struct starts with the window: stride_h, stride_w, pad_top, pad_left, and
// ends with dilation_h, dilation_w, groups.
struct TransposeConvF32Params {
  int32_t stride_h, stride_w;
  int32_t pad_top, pad_left;
  float act_min, act_max;
  // ONNX ConvTranspose's extras (TFLite: 1, 1, 1).
  int32_t dilation_h = 1, dilation_w = 1, groups = 1;
};

struct TransposeConvS8Params {
  int32_t stride_h, stride_w;
  int32_t pad_top, pad_left;
  int32_t input_zero_point, output_zero_point;
  int32_t act_min, act_max;
  // ONNX ConvTranspose's extras (TFLite: 1, 1, 1).
  int32_t dilation_h = 1, dilation_w = 1, groups = 1;
};

struct TransposeConvS16Params {
  int32_t stride_h, stride_w;
  int32_t pad_top, pad_left;
  int32_t act_min, act_max;
  // ONNX ConvTranspose's extras (TFLite: 1, 1, 1).
  int32_t dilation_h = 1, dilation_w = 1, groups = 1;
};

using TransposeConvShape = WindowShape;

void transpose_conv_f32(const TransposeConvF32Params& params, const TransposeConvShape& shape,
                        const float* input, const float* filter, const float* bias, float* output);
void transpose_conv_s8(const TransposeConvS8Params& params, const int32_t* multipliers,
                       const int32_t* shifts, const TransposeConvShape& shape, const int8_t* input,
                       const int8_t* filter, const int32_t* bias, int8_t* output);
void transpose_conv_s16(const TransposeConvS16Params& params, const int32_t* multipliers,
                        const int32_t* shifts, const TransposeConvShape& shape,
                        const int16_t* input, const int8_t* filter, const int64_t* bias,
                        int16_t* output);

Status transpose_conv_f32_check(const OpContext& ctx);
Status transpose_conv_s8_check(const OpContext& ctx);
Status transpose_conv_s16_check(const OpContext& ctx);
void transpose_conv_f32_run(const OpContext& ctx);
void transpose_conv_s8_run(const OpContext& ctx);
void transpose_conv_s16_run(const OpContext& ctx);
extern const KernelEntry kTransposeConvF32Entry;
extern const KernelEntry kTransposeConvS8Entry;
extern const KernelEntry kTransposeConvS16Entry;

// Multiply-accumulates of one op (the registry's macs column; host tools): each input
// element scatters into O/groups x KH x KW outputs.
inline uint64_t transpose_conv_macs(const OpContext& ctx) {
  const TensorDesc& filter = ctx.input_desc(1);  // [O, KH, KW, C/groups]
  const uint32_t groups = filter.dims[3] == 0 ? 1 : ctx.input_desc(0).dims[3] / filter.dims[3];
  return uint64_t{element_count(ctx.input_desc(0))} * (filter.dims[0] / (groups == 0 ? 1 : groups)) *
         filter.dims[1] * filter.dims[2];
}

}  // namespace mote
