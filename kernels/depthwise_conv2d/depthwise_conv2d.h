// Depthwise 2-D convolution, NHWC.
//   inputs:  0 input  [N, H, W, C]
//            1 filter [1, KH, KW, C * depth_multiplier]
//            2 bias   [C * depth_multiplier]   (optional)
//   output:  0        [N, OH, OW, C * depth_multiplier]
// Output channel c * depth_multiplier + m reads input channel c. Output size, padding
// and activation as conv2d.h.
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "mote/kernel.h"
#include "window_geometry.h"

namespace mote {

struct DepthwiseConv2dParams {
  WindowGeometry window;
  int32_t depth_multiplier;
  float act_min, act_max;
};

using DepthwiseConv2dShape = WindowShape;

void depthwise_conv2d_f32(const DepthwiseConv2dParams& params, const DepthwiseConv2dShape& shape,
                          const float* input, const float* filter, const float* bias,
                          float* output);

Status depthwise_conv2d_f32_check(const OpContext& ctx);
void depthwise_conv2d_f32_run(const OpContext& ctx);
extern const KernelEntry kDepthwiseConv2dF32Entry;

// Multiply-accumulates of one depthwise op of any dtype (the registry's macs column; host
// tools): output elements x filter taps.
inline uint64_t depthwise_conv2d_macs(const OpContext& ctx) {
  const TensorDesc& filter = ctx.input_desc(1);  // [1, KH, KW, C * M]
  return uint64_t{element_count(ctx.output_desc(0))} * filter.dims[1] * filter.dims[2];
}

// ---------------------------------------------------------------------------------------
// int8 (TFLite DEPTHWISE_CONV_2D, reference_integer_ops::DepthwiseConvPerChannel).
//   inputs:  0 input  int8  [N, H, W, C]
//            1 filter int8  [1, KH, KW, C * depth_multiplier]  (zero point ignored)
//            2 bias   int32 [C * depth_multiplier]              (optional)
//   output:  0        int8  [N, OH, OW, C * depth_multiplier]
// Output channel o = c * depth_multiplier + m reads input channel c:
//   acc = sum over taps inside the image of filter[.., o] * (input[.., c] - input_zero_point)
//         (int32, wrapping) + bias[o]
//   out = clamp(multiply_by_quantized_multiplier(acc, multiplier[o], shift[o])
//               + output_zero_point, act_min, act_max)
// Params: DepthwiseConv2dS8Params, then int32 multiplier[O], then int32 shift[O] with
// O = C * depth_multiplier. The compiler computes them with conv_channel_multiplier()
// (TFLite quantizes the depthwise filter along dimension 3) and the activation range with
// activation_range_quantized(.., -128, 127). check(): zero points and the range in int8,
// shifts in [-31, 30].
struct DepthwiseConv2dS8Params {
  WindowGeometry window;
  int32_t depth_multiplier;
  int32_t input_zero_point;
  int32_t output_zero_point;
  int32_t act_min, act_max;
};

void depthwise_conv2d_s8(const DepthwiseConv2dS8Params& params, const int32_t* multipliers,
                         const int32_t* shifts, const DepthwiseConv2dShape& shape,
                         const int8_t* input, const int8_t* filter, const int32_t* bias,
                         int8_t* output);

Status depthwise_conv2d_s8_check(const OpContext& ctx);
// depthwise_conv2d_s8_check for variants whose params carry extra_param_bytes more after
// the reference's (multipliers and shifts still follow the header).
Status depthwise_conv2d_s8_check_params(const OpContext& ctx, uint32_t extra_param_bytes);
void depthwise_conv2d_s8_run(const OpContext& ctx);
extern const KernelEntry kDepthwiseConv2dS8Entry;

// Armv7E-M DSP variants: same inputs, params and results as depthwise_conv2d_s8, for depth
// multiplier 1 only (check() refuses others). Scratch: *_scratch_bytes(params, shape)
// bytes, 4-byte aligned, rewritten by each run: depthwise_conv2d_s8__dsp per-channel
// requantization constants (16 * C); the 3x3 variant a ring of three extended input rows
// and copies of two (40 * C * ceil(ceil(Wp / 2) / 2), Wp = (out_w - 1) * stride_w + 3).
// The 3x3 variant's params are the reference's followed by a table of *_table_bytes(C) =
// 4 + 40 * C + round4(C) bytes (a mode word: 0 for the general path, 1 or 2 for the fast
// path's two requantizations; per-channel filter pairs and requantization constants; a
// row of input zero points) that the compiler writes with *_make_table() and check()
// recomputes and compares; the kernel function takes it as `table`.
//   depthwise_conv2d_s8_3x3__dsp: 3x3 filter, dilation 1, any stride and padding.
//   depthwise_conv2d_s8__dsp: any filter size, stride, dilation and padding.
inline bool depthwise_conv2d_s8_3x3__dsp_supports(const DepthwiseConv2dS8Params& p,
                                                  uint32_t kernel_h, uint32_t kernel_w) {
  return p.depth_multiplier == 1 && kernel_h == 3 && kernel_w == 3 && p.window.dilation_h == 1 &&
         p.window.dilation_w == 1;
}
inline bool depthwise_conv2d_s8__dsp_supports(const DepthwiseConv2dS8Params& p) {
  return p.depth_multiplier == 1;
}

uint32_t depthwise_conv2d_s8_3x3__dsp_scratch_bytes(const DepthwiseConv2dS8Params& params,
                                                    const DepthwiseConv2dShape& shape);
uint32_t depthwise_conv2d_s8_3x3__dsp_table_bytes(int32_t channels);
// Writes the table (table_bytes(channels) bytes, 4-byte aligned) from the filter
// ([3, 3, C]), bias (nullable) and requantization; true when the fast path applies
// (otherwise the table is all zeros and the kernel takes its general path).
bool depthwise_conv2d_s8_3x3__dsp_make_table(const DepthwiseConv2dS8Params& params,
                                             const int32_t* multipliers, const int32_t* shifts,
                                             const int32_t* bias, const int8_t* filter,
                                             int32_t channels, void* table);
void depthwise_conv2d_s8_3x3__dsp(const DepthwiseConv2dS8Params& params,
                                  const int32_t* multipliers, const int32_t* shifts,
                                  const DepthwiseConv2dShape& shape, const int8_t* input,
                                  const int8_t* filter, const int32_t* bias, const void* table,
                                  int8_t* output, void* scratch);
Status depthwise_conv2d_s8_3x3__dsp_check(const OpContext& ctx);
void depthwise_conv2d_s8_3x3__dsp_run(const OpContext& ctx);
extern const KernelEntry kDepthwiseConv2dS83x3DspEntry;
// In place (window_geometry.h): pixel order; the general path (table mode 0) reads each
// pixel's window from the input (block 1). The fast path (modes 1 and 2) is row-buffered
// with R = 3: before output row oy it extends input rows up to oy * stride_h - pad_top + 2
// into its ring, each row once, in order, and its passes read only the ring.
constexpr uint32_t depthwise_conv2d_s8_3x3__dsp_stream_block(const PixelStreamShape&) { return 1; }
inline uint32_t depthwise_conv2d_s8_3x3__dsp_stream_rows(const uint8_t* params, size_t bytes,
                                                         const PixelStreamShape& shape) {
  // The table's mode word follows the header and the multipliers and shifts.
  const size_t at = sizeof(DepthwiseConv2dS8Params) + 8u * static_cast<size_t>(shape.out_c);
  if (params == nullptr || shape.out_c < 0 || bytes < at + 4) return 0;
  uint32_t mode;
  memcpy(&mode, params + at, 4);
  return mode != 0 ? 3 : 0;
}

uint32_t depthwise_conv2d_s8__dsp_scratch_bytes(const DepthwiseConv2dS8Params& params,
                                                const DepthwiseConv2dShape& shape);
void depthwise_conv2d_s8__dsp(const DepthwiseConv2dS8Params& params, const int32_t* multipliers,
                              const int32_t* shifts, const DepthwiseConv2dShape& shape,
                              const int8_t* input, const int8_t* filter, const int32_t* bias,
                              int8_t* output, void* scratch);
Status depthwise_conv2d_s8__dsp_check(const OpContext& ctx);
void depthwise_conv2d_s8__dsp_run(const OpContext& ctx);
extern const KernelEntry kDepthwiseConv2dS8DspEntry;
// In place: pixel by pixel, four channels at a time.
constexpr uint32_t depthwise_conv2d_s8__dsp_stream_block(const PixelStreamShape&) { return 1; }

// Armv7E-M DSP variant for depth multipliers >= 2 (depthwise_conv2d_s8_mult__dsp.cc): same
// inputs and results as depthwise_conv2d_s8, any filter size, stride, dilation and
// padding. Each input channel's M outputs per pixel are a fully connected layer over the
// window (the int8 fully connected DSP core, fully_connected/fully_connected_s8_dsp_core.h)
// whose weight rows the compiler arranges: params are the
// reference's bytes followed by the arranged filter (*_arranged_bytes: for each input
// channel c, its M filters as rows of T = kernel_h * round_up(kernel_w, 4) taps, row by
// row, zeros past kernel_w; *_arrange() writes them; check() compares them with input 1).
// Scratch: *_scratch_bytes(params, shape) bytes, 4-byte aligned, rewritten by each run:
// the widened window (2 * T) and the int8 window (T).
inline bool depthwise_conv2d_s8_mult__dsp_supports(const DepthwiseConv2dS8Params& p) {
  return p.depth_multiplier >= 2;
}
uint32_t depthwise_conv2d_s8_mult__dsp_scratch_bytes(const DepthwiseConv2dS8Params& params,
                                                     const DepthwiseConv2dShape& shape);
uint32_t depthwise_conv2d_s8_mult__dsp_arranged_bytes(const DepthwiseConv2dShape& shape);
void depthwise_conv2d_s8_mult__dsp_arrange(const DepthwiseConv2dShape& shape,
                                           const int8_t* filter, int8_t* arranged);
void depthwise_conv2d_s8_mult__dsp(const DepthwiseConv2dS8Params& params,
                                   const int32_t* multipliers, const int32_t* shifts,
                                   const DepthwiseConv2dShape& shape, const int8_t* input,
                                   const int8_t* arranged, const int32_t* bias, int8_t* output,
                                   void* scratch);
Status depthwise_conv2d_s8_mult__dsp_check(const OpContext& ctx);
void depthwise_conv2d_s8_mult__dsp_run(const OpContext& ctx);
extern const KernelEntry kDepthwiseConv2dS8MultDspEntry;
// In place: channel by channel, each over every pixel in raster order; with one input
// channel that is the reference's pixel stream, with more it is none.
constexpr uint32_t depthwise_conv2d_s8_mult__dsp_stream_block(const PixelStreamShape& s) {
  return s.in_c == 1 ? 1 : 0;
}

// Helium (MVE, cortex-m55) variant of depthwise_conv2d_s8 for depth_multiplier 1, any
// kernel size, stride, dilation and padding; same inputs, parameter bytes and output bits.
// 4 channels x 4 output pixels per inner loop, the input zero point folded into the bias
// and padding read as the input zero point (depthwise_conv2d_s8__mve.cc). Scratch: at
// least depthwise_conv2d_s8__mve_scratch_bytes() bytes, any alignment. check(): as the
// reference, plus depth_multiplier == 1 and the scratch size.
uint32_t depthwise_conv2d_s8__mve_scratch_bytes(const DepthwiseConv2dS8Params& params,
                                                const DepthwiseConv2dShape& shape);
void depthwise_conv2d_s8__mve(const DepthwiseConv2dS8Params& params, const int32_t* multipliers,
                              const int32_t* shifts, const DepthwiseConv2dShape& shape,
                              const int8_t* input, const int8_t* filter, const int32_t* bias,
                              int8_t* output, uint8_t* scratch);
Status depthwise_conv2d_s8__mve_check(const OpContext& ctx);
void depthwise_conv2d_s8__mve_run(const OpContext& ctx);
extern const KernelEntry kDepthwiseConv2dS8MveEntry;
// In place: one output row at a time (all its channel blocks), its input rows read (or
// copied to scratch) for that row only.
constexpr uint32_t depthwise_conv2d_s8__mve_stream_block(const PixelStreamShape& s) {
  return s.out_w > 0 && s.out_w <= INT32_MAX ? static_cast<uint32_t>(s.out_w) : 0;
}

// ARMv6-M (Cortex-M0/M0+) variant of depthwise_conv2d_s8 for depth_multiplier 1, any
// kernel size, stride, dilation and padding; same inputs, parameter bytes and output bits
// (depthwise_conv2d_s8__v6m.cc). check(): as the reference, plus depth_multiplier == 1.
// Scratch: *_scratch_bytes(params, shape) bytes, 4-byte aligned, rewritten by each run
// (for 3x3 windows with dilation_w == 1, 24 * C: per-channel folded bias and
// requantization constants, and a 3x3 x C patch for the border pixels; else none). A null scratch (or a short one in run()) only
// turns the 3x3 path off.
uint32_t depthwise_conv2d_s8__v6m_scratch_bytes(const DepthwiseConv2dS8Params& params,
                                                const DepthwiseConv2dShape& shape);
// floors: null, or per channel the requant floor (quant/quant_math_v6m.h: every acc below
// it gives act_min) as depthwise_conv2d_s8__v6m_floors() computes it. The compiler appends
// them to the params as a third int32 array; check() verifies each at load.
void depthwise_conv2d_s8__v6m_floors(const DepthwiseConv2dS8Params& params, const int32_t* multipliers,
                                     const int32_t* shifts, int32_t channels, int32_t* floors);
void depthwise_conv2d_s8__v6m(const DepthwiseConv2dS8Params& params, const int32_t* multipliers,
                              const int32_t* shifts, const int32_t* floors, const DepthwiseConv2dShape& shape,
                              const int8_t* input, const int8_t* filter, const int32_t* bias,
                              int8_t* output, void* scratch);
Status depthwise_conv2d_s8__v6m_check(const OpContext& ctx);
void depthwise_conv2d_s8__v6m_run(const OpContext& ctx);
extern const KernelEntry kDepthwiseConv2dS8V6mEntry;
// In place: pixel by pixel in raster order, like the reference.
constexpr uint32_t depthwise_conv2d_s8__v6m_stream_block(const PixelStreamShape&) { return 1; }

// ---------------------------------------------------------------------------------------
// int16 activations, int8 weights (TFLite 16x8 DEPTHWISE_CONV_2D).
//   inputs:  0 input int16 [N, H, W, C] (zero point 0), 1 filter int8 as above,
//            2 bias int64 [C * depth_multiplier] (optional)
//   output:  0 int16 (zero point 0)
//   acc = sum filter * input in int64 (+ bias)
//   out = clamp(multiply_by_quantized_multiplier64(acc, multiplier[o], shift[o]),
//               act_min, act_max)
// Params: DepthwiseConv2dS16Params, then int32 multiplier[O], then int32 shift[O]
// (conv_channel_multiplier; range with -32768, 32767). check(): shifts in [-31, 14].
struct DepthwiseConv2dS16Params {
  WindowGeometry window;
  int32_t depth_multiplier;
  int32_t act_min, act_max;
};

void depthwise_conv2d_s16(const DepthwiseConv2dS16Params& params, const int32_t* multipliers,
                          const int32_t* shifts, const DepthwiseConv2dShape& shape,
                          const int16_t* input, const int8_t* filter, const int64_t* bias,
                          int16_t* output);

Status depthwise_conv2d_s16_check(const OpContext& ctx);
void depthwise_conv2d_s16_run(const OpContext& ctx);
// The kernel arguments of an op that depthwise_conv2d_s16_check accepted (the reference's
// and its variants' run functions).
struct DepthwiseConv2dS16Args {
  const DepthwiseConv2dS16Params* params;
  const int32_t* multipliers;
  const int32_t* shifts;
  DepthwiseConv2dShape shape;
  const int16_t* input;
  const int8_t* filter;
  const int64_t* bias;  // nullptr when absent
  int16_t* output;
};
DepthwiseConv2dS16Args depthwise_conv2d_s16_args(const OpContext& ctx);
extern const KernelEntry kDepthwiseConv2dS16Entry;

// Armv7E-M / Armv8-M DSP variant of depthwise_conv2d_s16: depth multiplier 1 (check()
// refuses others), any window, stride, dilation and padding; same inputs, params and
// output bits. Four channels per SMLAxy step, one SMMULR requantization per output where
// exact (else the reference runs). Portable elsewhere (kernels/isa/dsp.h). Scratch:
// 8 * C bytes, 4-aligned.
uint32_t depthwise_conv2d_s16__dsp_scratch_bytes(const DepthwiseConv2dShape& shape);
void depthwise_conv2d_s16__dsp(const DepthwiseConv2dS16Params& params, const int32_t* multipliers,
                               const int32_t* shifts, const DepthwiseConv2dShape& shape,
                               const int16_t* input, const int8_t* filter, const int64_t* bias,
                               int16_t* output, void* scratch);
Status depthwise_conv2d_s16__dsp_check(const OpContext& ctx);
void depthwise_conv2d_s16__dsp_run(const OpContext& ctx);
extern const KernelEntry kDepthwiseConv2dS16DspEntry;
// In place: pixel by pixel in raster order, like the reference.
constexpr uint32_t depthwise_conv2d_s16__dsp_stream_block(const PixelStreamShape&) { return 1; }
// Helium (MVE, cortex-m55) variant of depthwise_conv2d_s16: same inputs, params and
// output bits; depth multiplier 1 (check() refuses others), any window. Scratch
// (int32-aligned, checked): 12 bytes per channel, channels rounded up to 8. Portable
// elsewhere (kernels/isa/mve.h).
uint32_t depthwise_conv2d_s16__mve_scratch_bytes(int32_t out_c);
void depthwise_conv2d_s16__mve(const DepthwiseConv2dS16Params& params, const int32_t* multipliers,
                               const int32_t* shifts, const DepthwiseConv2dShape& shape,
                               const int16_t* input, const int8_t* filter, const int64_t* bias,
                               int16_t* output, int32_t* scratch);
Status depthwise_conv2d_s16__mve_check(const OpContext& ctx);
void depthwise_conv2d_s16__mve_run(const OpContext& ctx);
extern const KernelEntry kDepthwiseConv2dS16MveEntry;
// In place: output pixels in pairs, a pair's second pixel's channel group written before
// the first pixel reads its later groups' inputs.
constexpr uint32_t depthwise_conv2d_s16__mve_stream_block(const PixelStreamShape&) { return 2; }
// ARMv6-M (Cortex-M0/M0+) variant of depthwise_conv2d_s16 for depth_multiplier 1 and
// windows of at most 511 taps (KH * KW: an int32 window sum is then exact), any stride,
// dilation and padding; same inputs, params and output bits. check(): as the reference,
// plus depthwise_conv2d_s16__v6m_supports() and the scratch. Portable elsewhere. Scratch,
// 4-aligned: 16 bytes per channel, 52 with a 3x3 window (the weights widened to int32).
constexpr bool depthwise_conv2d_s16__v6m_supports(const DepthwiseConv2dS16Params& p, int32_t kernel_h,
                                                  int32_t kernel_w) {
  return p.depth_multiplier == 1 && int64_t{kernel_h} * kernel_w <= 511;
}
uint32_t depthwise_conv2d_s16__v6m_scratch_bytes(int32_t channels, int32_t kernel_h, int32_t kernel_w);
void depthwise_conv2d_s16__v6m(const DepthwiseConv2dS16Params& params, const int32_t* multipliers,
                               const int32_t* shifts, const DepthwiseConv2dShape& shape,
                               const int16_t* input, const int8_t* filter, const int64_t* bias,
                               int16_t* output, uint8_t* scratch);
Status depthwise_conv2d_s16__v6m_check(const OpContext& ctx);
void depthwise_conv2d_s16__v6m_run(const OpContext& ctx);
extern const KernelEntry kDepthwiseConv2dS16V6mEntry;
// In place: in raster order, interior pixels two at a time (both pixels' outputs written
// channel by channel).
constexpr uint32_t depthwise_conv2d_s16__v6m_stream_block(const PixelStreamShape&) { return 2; }

// ---------------------------------------------------------------------------------------
// float32 for cores with a single-precision FPU (hard float), depth multiplier 1 (the
// check refuses others): the reference's inputs and params, its sums in the same order
// (two pixels x four channels of accumulators in registers), no scratch.
void depthwise_conv2d_f32__fpu(const DepthwiseConv2dParams& params, const DepthwiseConv2dShape& shape,
                               const float* input, const float* filter, const float* bias, float* output);
Status depthwise_conv2d_f32__fpu_check(const OpContext& ctx);
void depthwise_conv2d_f32__fpu_run(const OpContext& ctx);
extern const KernelEntry kDepthwiseConv2dF32FpuEntry;
// In place: two pixels' windows read before either's outputs are all written.
constexpr uint32_t depthwise_conv2d_f32__fpu_stream_block(const PixelStreamShape&) { return 2; }

// Helium float (MVE-F, cortex-m55) variant of depthwise_conv2d_f32, depth multiplier 1:
// the reference's inputs and params and its sums in the same order (vectors across four
// channels), no scratch. Portable elsewhere (kernels/isa/mve_f32.h).
void depthwise_conv2d_f32__mve(const DepthwiseConv2dParams& params, const DepthwiseConv2dShape& shape,
                               const float* input, const float* filter, const float* bias, float* output);
Status depthwise_conv2d_f32__mve_check(const OpContext& ctx);
void depthwise_conv2d_f32__mve_run(const OpContext& ctx);
extern const KernelEntry kDepthwiseConv2dF32MveEntry;
// In place: two pixels' windows read before either's outputs are all written.
constexpr uint32_t depthwise_conv2d_f32__mve_stream_block(const PixelStreamShape&) { return 2; }

}  // namespace mote
