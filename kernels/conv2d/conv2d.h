// 2-D convolution, NHWC.
//   inputs:  0 input  [N, H, W, C]
//            1 filter [O, KH, KW, C / groups]   (OHWI)
//            2 bias   [O]                        (optional)
//   output:  0        [N, OH, OW, O]
//   OH = (H + pad_top + pad_bottom - dilation_h * (KH - 1) - 1) / stride_h + 1 (same for W).
// groups divides both C and O; output channel o reads input channels
// [(o / (O / groups)) * (C / groups), +C / groups). Padding reads as zero.
// The result is clamped to [act_min, act_max] (fused ReLU/ReLU6/Clip; +-inf for none).
#pragma once

#include <stdint.h>

#include "mote/kernel.h"
#include "window_geometry.h"

namespace mote {

struct Conv2dParams {
  WindowGeometry window;
  int32_t groups;
  float act_min, act_max;
};

// Shapes as the kernel sees them, filled from the tensor descriptors.
using Conv2dShape = WindowShape;

void conv2d_f32(const Conv2dParams& params, const Conv2dShape& shape, const float* input,
                const float* filter, const float* bias, float* output);

Status conv2d_f32_check(const OpContext& ctx);
void conv2d_f32_run(const OpContext& ctx);
extern const KernelEntry kConv2dF32Entry;

// Multiply-accumulates of one conv2d op of any dtype (the registry's macs column; host
// tools): output elements x filter taps x input channels per group.
inline uint64_t conv2d_macs(const OpContext& ctx) {
  const TensorDesc& filter = ctx.input_desc(1);  // [O, KH, KW, C / groups]
  return uint64_t{element_count(ctx.output_desc(0))} * filter.dims[1] * filter.dims[2] * filter.dims[3];
}

// ---------------------------------------------------------------------------------------
// int8 (TFLite CONV_2D, reference_integer_ops::ConvPerChannel), per-channel requantization.
//   inputs:  0 input  int8  [N, H, W, C]
//            1 filter int8  [O, KH, KW, C / groups]   (symmetric: its zero point is ignored,
//                                                       as TFLite does)
//            2 bias   int32 [O]                        (optional)
//   output:  0        int8  [N, OH, OW, O]
// Geometry as the float kernel, with explicit pads. TFLite SAME/VALID become pads on the
// host as TFLite's ComputePaddingHeightWidth does (also for depthwise conv and pooling):
//   eff = dilation * (k - 1) + 1;  out = SAME ? ceil(in / stride) : (in + stride - eff) / stride
//   total = max(0, (out - 1) * stride + eff - in);  pad_top = total / 2,
//   pad_bottom = total - pad_top  (TFLite only stores pad_top; the extra row is at the end)
// For each output element of channel o:
//   acc = sum over taps inside the image of filter * (input - input_zero_point)  (int32,
//         wrapping like TFLite's int32 accumulator); + bias[o]
//   out = clamp(multiply_by_quantized_multiplier(acc, multiplier[o], shift[o])
//               + output_zero_point, act_min, act_max)
// Params: Conv2dS8Params, then int32 multiplier[O], then int32 shift[O]
//   (params_bytes == sizeof(Conv2dS8Params) + 8 * O). The compiler computes:
//   multiplier[o], shift[o] = conv_channel_multiplier(input_scale, filter_scale[o],
//       output_scale)  (quant/quant_math.h; filter_scale[0] for every o when per-tensor)
//   act_min, act_max = activation_range_quantized(fused activation, output_scale,
//       output_zero_point, -128, 127)
// check(): zero points in [-128, 127], [act_min, act_max] inside [-128, 127], every shift
// in [-31, 30].
struct Conv2dS8Params {
  WindowGeometry window;
  int32_t groups;
  int32_t input_zero_point;
  int32_t output_zero_point;
  int32_t act_min, act_max;
};

void conv2d_s8(const Conv2dS8Params& params, const int32_t* multipliers, const int32_t* shifts,
               const Conv2dShape& shape, const int8_t* input, const int8_t* filter,
               const int32_t* bias, int8_t* output);

Status conv2d_s8_check(const OpContext& ctx);
// conv2d_s8_check for variants whose params carry extra_param_bytes more after the
// reference's (checked by the variant).
Status conv2d_s8_check_params(const OpContext& ctx, uint32_t extra_param_bytes);
void conv2d_s8_run(const OpContext& ctx);
extern const KernelEntry kConv2dS8Entry;

// Armv7E-M / Armv8-M DSP variants of conv2d_s8 (SMLAD over int16 im2col columns, see
// conv2d_s8_dsp_block.h): same inputs, params and output bits. Portable elsewhere
// (kernels/isa/dsp.h). Scratch is 4-aligned, sized by the *_scratch_bytes() partner,
// which check() verifies.
// conv2d_s8_1x1__dsp: kernel 1x1, all pads 0, groups 1, any stride. Params: the
// reference's. Scratch: the 4-pixel columns, 32 * ceil(in_c / 4) bytes (40 * in_c / 4 for
// the 5-pixel tail when in_c % 8 == 0 and in_c >= 192); for in_c 8 or 16 at least the
// per-channel records of the small-channel path, 32 * (in_c / 2 + 4) * 4 bytes.
uint32_t conv2d_s8_1x1__dsp_scratch_bytes(int32_t in_c);
void conv2d_s8_1x1__dsp(const Conv2dS8Params& params, const int32_t* multipliers,
                        const int32_t* shifts, const Conv2dShape& shape, const int8_t* input,
                        const int8_t* filter, const int32_t* bias, int8_t* output,
                        uint8_t* scratch);
Status conv2d_s8_1x1__dsp_check(const OpContext& ctx);
void conv2d_s8_1x1__dsp_run(const OpContext& ctx);
extern const KernelEntry kConv2dS81x1DspEntry;
// In place (window_geometry.h): gathers four pixels' inputs (a last single pixel or block
// of five: all of them) before writing them, so no output pixel is written before its
// input is read: block 1. But a last 2 or 3 pixels step the block back over pixels
// already written (reading their inputs again), and the small-channel path (in_c 8, 16)
// reads the input once per chunk of channels: block 4 for those.
constexpr uint32_t conv2d_s8_1x1__dsp_stream_block(const PixelStreamShape& s) {
  const int64_t tail = (s.batch * s.out_h * s.out_w) % 4;
  return tail == 2 || tail == 3 || s.in_c == 8 || s.in_c == 16 ? 4 : 1;
}

// conv2d_s8_1x1_relu__dsp: the pointwise layers conv2d_s8_1x1_relu__dsp_applies() takes
// (kernel 1x1, all pads 0, groups 1, any stride; act_min >= output zero point, every
// multiplier within conv2d_dsp::fast_applies, a record size for in_c, at least 16 output
// pixels in whole blocks of 4). Params: the reference's, then wide_channels (int32, 0 ..
// out_c): how many channels' records (bias, widened weights, requantization) a chunk of
// scratch holds; check() refuses an in_c without a record size. Scratch: the 4-pixel
// columns, 32 * ceil(in_c / 4) bytes, then wide_channels *
// conv2d_s8_1x1_relu__dsp_record_bytes(in_c) (8 * ceil(in_c / 4) + 16 bytes when
// ceil(in_c / 4) is a multiple of 4, in_c < 65536 and in_c is not 8 or 16; else 0).
uint32_t conv2d_s8_1x1_relu__dsp_record_bytes(int32_t in_c);
bool conv2d_s8_1x1_relu__dsp_applies(const Conv2dS8Params& params, const int32_t* multipliers,
                                     const Conv2dShape& shape);
uint32_t conv2d_s8_1x1_relu__dsp_scratch_bytes(int32_t in_c, int32_t wide_channels);
void conv2d_s8_1x1_relu__dsp(const Conv2dS8Params& params, const int32_t* multipliers,
                             const int32_t* shifts, const Conv2dShape& shape, const int8_t* input,
                             const int8_t* filter, const int32_t* bias, int8_t* output,
                             uint8_t* scratch, int32_t wide_channels);
Status conv2d_s8_1x1_relu__dsp_check(const OpContext& ctx);
void conv2d_s8_1x1_relu__dsp_run(const OpContext& ctx);
extern const KernelEntry kConv2dS81x1ReluDspEntry;
// In place: as conv2d_s8_1x1__dsp without a small-channel path (a second chunk of records
// reads the input again, but only when the output does not overlap it).
constexpr uint32_t conv2d_s8_1x1_relu__dsp_stream_block(const PixelStreamShape& s) {
  const int64_t tail = (s.batch * s.out_h * s.out_w) % 4;
  return tail == 2 || tail == 3 ? 4 : 1;
}

// conv2d_s8__dsp: any kernel, stride, dilation and padding, groups 1. Params: the
// reference's, then one int32, wide_channels (0 .. out_c): how many output channels'
// weights a run widens to int16 pairs in scratch for the faster channel loop. The
// compiler gives it what the memory plan leaves free at the op (LoweredOp::scratch_growth);
// check() refuses more than out_c, or any when conv2d_s8__dsp_wide_channel_bytes() is 0.
// With K = KH * KW * in_c, scratch: 32 * ceil(K / 4) bytes, plus 4 * ceil(K / 4) when
// in_c % 4 != 0, plus wide_channels * conv2d_s8__dsp_wide_channel_bytes() (8 * ceil(K / 4)
// each when ceil(K / 4) is a multiple of 4). The kernel function ignores wide_channels
// where that is 0.
uint32_t conv2d_s8__dsp_wide_channel_bytes(int32_t kernel_h, int32_t kernel_w, int32_t in_c);
uint32_t conv2d_s8__dsp_scratch_bytes(int32_t kernel_h, int32_t kernel_w, int32_t in_c,
                                      int32_t wide_channels);
void conv2d_s8__dsp(const Conv2dS8Params& params, const int32_t* multipliers,
                    const int32_t* shifts, const Conv2dShape& shape, const int8_t* input,
                    const int8_t* filter, const int32_t* bias, int8_t* output,
                    uint8_t* scratch, int32_t wide_channels);
Status conv2d_s8__dsp_check(const OpContext& ctx);
void conv2d_s8__dsp_run(const OpContext& ctx);
extern const KernelEntry kConv2dS8DspEntry;
// In place: as conv2d_s8_1x1__dsp, four pixels per block.
constexpr uint32_t conv2d_s8__dsp_stream_block(const PixelStreamShape&) { return 4; }

// conv2d_s8_small_window__dsp: windows of at most 24 SMLAD steps (2 per whole word of
// each filter row of KW * in_c bytes, plus 2 per word of the rows' leftover bytes: e.g.
// 3x3x3, 10x4x1), groups 1, any stride, dilation and padding; preferred to conv2d_s8__dsp
// there (see its source). Params: the reference's, then pair_records (int32, 0 or 1):
// whether every channel pair's record (widened weights and requantization) stays in
// scratch for the run, blocks of 4 pixels outermost (out_c even and more than 16, where
// conv2d_s8_small_window__dsp_records_bytes() is not 0; check() refuses 1 elsewhere); the
// kernel takes that path for ReLU-like layers whose every pair takes its shifted
// requantization, else the chunked one. Scratch:
// conv2d_s8_small_window__dsp_scratch_bytes() (0 for a window it does not take), with
// pair_records 1 at least conv2d_s8_small_window__dsp_records_bytes(). The compiler plans
// the records where the memory plan leaves room (LoweredOp::scratch_growth).
uint32_t conv2d_s8_small_window__dsp_scratch_bytes(int32_t kernel_h, int32_t kernel_w, int32_t in_c);
uint32_t conv2d_s8_small_window__dsp_records_bytes(int32_t kernel_h, int32_t kernel_w, int32_t in_c,
                                                   int32_t out_c);
void conv2d_s8_small_window__dsp(const Conv2dS8Params& params, const int32_t* multipliers,
                                 const int32_t* shifts, const Conv2dShape& shape, const int8_t* input,
                                 const int8_t* filter, const int32_t* bias, int8_t* output,
                                 uint8_t* scratch, int32_t pair_records);
// The exponent e (2..8) with which a channel (multiplier, shift, bias, over `taps` taps) of
// a ReLU-like layer (output zero point -128, clamp [-128, 127]) takes the variant's
// shifted requantization, else 0 (its conformance suite counts the cases that take it).
int32_t conv2d_s8_small_window__dsp_shifted_exponent(int32_t multiplier, int32_t shift, int32_t bias,
                                                     int32_t taps);
Status conv2d_s8_small_window__dsp_check(const OpContext& ctx);
void conv2d_s8_small_window__dsp_run(const OpContext& ctx);
extern const KernelEntry kConv2dS8SmallWindowDspEntry;
// In place: its output pixels are written chunk by chunk after every window of the chunk
// (at least four pixels' windows, as conv2d_s8__dsp's blocks) has been read; with the
// records, block by block, a last partial block stepping back over the 4 last pixels.
constexpr uint32_t conv2d_s8_small_window__dsp_stream_block(const PixelStreamShape&) { return 4; }

// conv2d_s8_compact__dsp: the small one, for `--optimize size`: any kernel, stride,
// dilation and padding, groups 1; one loop over four output pixels x one output channel
// (see its source). With K = KH * KW * in_c and G = ceil(K / 4), scratch:
// B * 32 * G + 4 * G bytes, B = 1024 / (32 * G) blocks of four pixels, clamped to 1..4.
uint32_t conv2d_s8_compact__dsp_scratch_bytes(int32_t kernel_h, int32_t kernel_w, int32_t in_c);
void conv2d_s8_compact__dsp(const Conv2dS8Params& params, const int32_t* multipliers,
                            const int32_t* shifts, const Conv2dShape& shape, const int8_t* input,
                            const int8_t* filter, const int32_t* bias, int8_t* output,
                            uint8_t* scratch);
Status conv2d_s8_compact__dsp_check(const OpContext& ctx);
void conv2d_s8_compact__dsp_run(const OpContext& ctx);
extern const KernelEntry kConv2dS8CompactDspEntry;
// In place: as conv2d_s8__dsp, four pixels per block (their windows read before their
// outputs are written).
constexpr uint32_t conv2d_s8_compact__dsp_stream_block(const PixelStreamShape&) { return 4; }

// Helium (MVE, cortex-m55) variants of conv2d_s8: same inputs, params and output bits.
// Portable elsewhere (kernels/isa/mve.h). Scratch is int32-aligned, sized by the
// *_scratch_bytes() partner, which check() verifies.
// conv2d_s8_1x1__mve: kernel 1x1, all pads 0, groups 1, any stride. Scratch: out_c int32,
// then 3 bytes per channel (out_c rounded up to 4): the live-channel list and the constants.
uint32_t conv2d_s8_1x1__mve_scratch_bytes(int32_t out_c);
void conv2d_s8_1x1__mve(const Conv2dS8Params& params, const int32_t* multipliers,
                        const int32_t* shifts, const Conv2dShape& shape, const int8_t* input,
                        const int8_t* filter, const int32_t* bias, int8_t* output,
                        int32_t* scratch);
Status conv2d_s8_1x1__mve_check(const OpContext& ctx);
void conv2d_s8_1x1__mve_run(const OpContext& ctx);
extern const KernelEntry kConv2dS81x1MveEntry;
// In place: two pixels at a time, read while writing.
constexpr uint32_t conv2d_s8_1x1__mve_stream_block(const PixelStreamShape&) { return 2; }

// conv2d_s8__mve: any kernel, stride, dilation and padding, groups 1 (im2col of two output
// pixels at a time). Scratch: out_c int32 rounded up to 16 bytes, then 2 * KH * KW * C.
uint32_t conv2d_s8__mve_scratch_bytes(int32_t out_c, int32_t kernel_h, int32_t kernel_w,
                                      int32_t in_c);
void conv2d_s8__mve(const Conv2dS8Params& params, const int32_t* multipliers,
                    const int32_t* shifts, const Conv2dShape& shape, const int8_t* input,
                    const int8_t* filter, const int32_t* bias, int8_t* output,
                    uint8_t* scratch);
Status conv2d_s8__mve_check(const OpContext& ctx);
void conv2d_s8__mve_run(const OpContext& ctx);
extern const KernelEntry kConv2dS8MveEntry;
// In place: two pixels' windows copied, then their outputs written.
constexpr uint32_t conv2d_s8__mve_stream_block(const PixelStreamShape&) { return 2; }

// ARMv6-M (Cortex-M0/M0+, Thumb-1 without SIMD) variant of conv2d_s8: any kernel, stride,
// dilation and padding, groups 1 (check() refuses other groups); same inputs, params and
// output bits. Four output channels per inner loop, requantization without a 64-bit
// multiply (quant/quant_math_v6m.h). Portable elsewhere (isa/v6m.h). Scratch:
// *_scratch_bytes(params, kernel_h, kernel_w, in_c, out_c) bytes, 4-byte aligned, rewritten
// by each run (24 * out_c: per-channel folded bias and requantization constants; plus one
// pixel's window, KH * KW * in_c rounded up to 4, unless the kernel is 1x1 without
// padding). A null scratch (or a short one in run()) only turns the folded path off.
uint32_t conv2d_s8__v6m_scratch_bytes(const Conv2dS8Params& params, int32_t kernel_h, int32_t kernel_w,
                                      int32_t in_c, int32_t out_c);
// floors: null, or per output channel the requant floor (quant/quant_math_v6m.h: every
// acc below it gives act_min) as conv2d_s8__v6m_floors() computes it. The compiler appends
// them to the params as a third int32 array; check() verifies each at load.
void conv2d_s8__v6m_floors(const Conv2dS8Params& params, const int32_t* multipliers, const int32_t* shifts,
                           int32_t out_c, int32_t* floors);
// folded_bias: null, or per output channel bias + input offset * the sum of its weights
// (wrapping) as conv2d_s8__v6m_folded_bias() computes it (taps = KH * KW * C); the compiler
// appends them after the floors as a fourth int32 array when the filter and bias are
// constant, so a run does not sum the weights. check() verifies them at load.
void conv2d_s8__v6m_folded_bias(const Conv2dS8Params& params, const int8_t* filter, const int32_t* bias,
                                int32_t taps, int32_t out_c, int32_t* folded_bias);
void conv2d_s8__v6m(const Conv2dS8Params& params, const int32_t* multipliers,
                    const int32_t* shifts, const int32_t* floors, const int32_t* folded_bias,
                    const Conv2dShape& shape, const int8_t* input, const int8_t* filter, const int32_t* bias,
                    int8_t* output, void* scratch);
Status conv2d_s8__v6m_check(const OpContext& ctx);
void conv2d_s8__v6m_run(const OpContext& ctx);
extern const KernelEntry kConv2dS8V6mEntry;
// In place: pixel by pixel in raster order, like the reference.
constexpr uint32_t conv2d_s8__v6m_stream_block(const PixelStreamShape&) { return 1; }

// ---------------------------------------------------------------------------------------
// int16 activations with int8 weights (TFLite "16x8" CONV_2D, the int16 ConvPerChannel).
//   inputs:  0 input  int16 [N, H, W, C]    (zero point 0: not used, as in TFLite)
//            1 filter int8  [O, KH, KW, C / groups]
//            2 bias   int64 [O] or int32 [O] (optional; see accumulator)
//   output:  0        int16 [N, OH, OW, O]  (zero point 0)
// accumulator == 64 (TFLite's default, int64 bias): acc = sum filter * input in int64
//   (+ bias), out = multiply_by_quantized_multiplier64(acc, multiplier[o], shift[o]).
// accumulator == 32 (TFLite uses it when the bias is int32, or there is no bias and the
//   op's quantized_bias_type is INT32): int32 wrapping acc, out =
//   multiply_by_quantized_multiplier(acc, multiplier[o], shift[o]).
// out is clamped to [act_min, act_max] (no output offset).
// Params: Conv2dS16Params, then int32 multiplier[O], then int32 shift[O]. The compiler
// computes them as for int8 (conv_channel_multiplier; activation range with
// -32768, 32767). check(): bias dtype matches accumulator; shifts in [-31, 14] (64) or
// [-31, 30] (32).
struct Conv2dS16Params {
  WindowGeometry window;
  int32_t groups;
  int32_t accumulator;  // 64 or 32 (bits)
  int32_t act_min, act_max;
};

void conv2d_s16(const Conv2dS16Params& params, const int32_t* multipliers,
                const int32_t* shifts, const Conv2dShape& shape, const int16_t* input,
                const int8_t* filter, const void* bias, int16_t* output);

Status conv2d_s16_check(const OpContext& ctx);
void conv2d_s16_run(const OpContext& ctx);
extern const KernelEntry kConv2dS16Entry;

// Armv7E-M / Armv8-M DSP variant of conv2d_s16 (SMLAD over int16 columns of four output
// pixels; one SMMULR requantization per output where exact, see conv2d_s16__dsp.cc):
// any kernel, stride, dilation and padding, groups 1, both accumulators; same inputs,
// params and output bits. Portable elsewhere (kernels/isa/dsp.h). Scratch, 4-aligned:
// 32 * ceil(K / 4) (32 * K when K is 8 or 16) + 8 * out_c bytes, plus 8 * ceil(K / 4)
// when in_c % 4 != 0 (K = KH * KW * in_c); check() verifies it.
uint32_t conv2d_s16__dsp_scratch_bytes(int32_t out_c, int32_t kernel_h, int32_t kernel_w, int32_t in_c);
void conv2d_s16__dsp(const Conv2dS16Params& params, const int32_t* multipliers,
                     const int32_t* shifts, const Conv2dShape& shape, const int16_t* input,
                     const int8_t* filter, const void* bias, int16_t* output, uint8_t* scratch);
Status conv2d_s16__dsp_check(const OpContext& ctx);
void conv2d_s16__dsp_run(const OpContext& ctx);
extern const KernelEntry kConv2dS16DspEntry;
// In place: the windows of four pixels are read before their outputs are written; of 16
// pixels for windows of K 8 or 16 (in_c <= 16 is the bound the shape gives).
constexpr uint32_t conv2d_s16__dsp_stream_block(const PixelStreamShape& s) { return s.in_c <= 16 ? 16 : 4; }
// Helium (MVE, cortex-m55) variant of conv2d_s16: same inputs, params and output bits;
// any kernel, stride, dilation and padding, groups 1 (check() refuses other groups), both
// accumulators. Portable elsewhere (kernels/isa/mve.h). Scratch (int32-aligned, checked):
// 2 * 4 * out_c rounded up to 4 bytes, plus 2 rows of KH * KW * C int16 unless the kernel
// is 1x1 without padding.
uint32_t conv2d_s16__mve_scratch_bytes(const Conv2dS16Params& params, const Conv2dShape& shape);
void conv2d_s16__mve(const Conv2dS16Params& params, const int32_t* multipliers,
                     const int32_t* shifts, const Conv2dShape& shape, const int16_t* input,
                     const int8_t* filter, const void* bias, int16_t* output,
                     uint8_t* scratch);
Status conv2d_s16__mve_check(const OpContext& ctx);
void conv2d_s16__mve_run(const OpContext& ctx);
extern const KernelEntry kConv2dS16MveEntry;
// In place: two pixels' rows read (or copied) before their outputs are written.
constexpr uint32_t conv2d_s16__mve_stream_block(const PixelStreamShape&) { return 2; }
// ARMv6-M (Cortex-M0/M0+) variant of conv2d_s16: any kernel, stride, dilation and
// padding, groups 1 (check() refuses other groups), both accumulators; same inputs,
// params and output bits. Four output channels per Thumb-1 inner loop (kernels/isa/v6m.h),
// int32 runs of products, requantization without a 64-bit multiply where the accumulator
// fits int32 (quant/quant_math64_v6m.h). Portable elsewhere. Scratch, 4-aligned: a table
// of 16 bytes per output channel, and for windows of more than one tap up to 1024 values
// a copy of one window (check() verifies it).
uint32_t conv2d_s16__v6m_scratch_bytes(int32_t out_c, int32_t kernel_h, int32_t kernel_w, int32_t in_c);
void conv2d_s16__v6m(const Conv2dS16Params& params, const int32_t* multipliers,
                     const int32_t* shifts, const Conv2dShape& shape, const int16_t* input,
                     const int8_t* filter, const void* bias, int16_t* output, uint8_t* scratch);
Status conv2d_s16__v6m_check(const OpContext& ctx);
void conv2d_s16__v6m_run(const OpContext& ctx);
extern const KernelEntry kConv2dS16V6mEntry;
// In place: pixel by pixel in raster order, like the reference.
constexpr uint32_t conv2d_s16__v6m_stream_block(const PixelStreamShape&) { return 1; }

// ---------------------------------------------------------------------------------------
// float32 for cores with a single-precision FPU (hard float), groups == 1 (the check
// refuses others): the reference's inputs and params, its sums in the same order (two
// pixels x four channels of accumulators in registers), no scratch.
void conv2d_f32__fpu(const Conv2dParams& params, const Conv2dShape& shape, const float* input,
                     const float* filter, const float* bias, float* output);
Status conv2d_f32__fpu_check(const OpContext& ctx);
void conv2d_f32__fpu_run(const OpContext& ctx);
extern const KernelEntry kConv2dF32FpuEntry;
// In place: two pixels' windows read before either's outputs are all written.
constexpr uint32_t conv2d_f32__fpu_stream_block(const PixelStreamShape&) { return 2; }

// Helium float (MVE-F, cortex-m55) variant of conv2d_f32, groups == 1: the reference's
// inputs and params and its sums in the same order (vectors across four output channels,
// gathered weights), no scratch. Portable elsewhere (kernels/isa/mve_f32.h).
void conv2d_f32__mve(const Conv2dParams& params, const Conv2dShape& shape, const float* input,
                     const float* filter, const float* bias, float* output);
Status conv2d_f32__mve_check(const OpContext& ctx);
void conv2d_f32__mve_run(const OpContext& ctx);
extern const KernelEntry kConv2dF32MveEntry;
// In place: two pixels' windows read before either's outputs are all written.
constexpr uint32_t conv2d_f32__mve_stream_block(const PixelStreamShape&) { return 2; }

}  // namespace mote
