// 2-D average, max and (float32) L2 pooling, NHWC.
//   input 0 [N, H, W, C], output 0 [N, OH, OW, C]
// Window for output (oy, ox): rows oy*stride_h - pad_top + ky*dilation_h, ky < kernel_h
// (same for columns). Positions outside [0, H) x [0, W) are skipped (max) or counted as
// zero only when count_include_pad != 0 and they fall inside the explicit padding
// [-pad_top, H + pad_bottom) (ONNX/PyTorch semantics; ceil_mode's extra row/column, which
// lies beyond pad_bottom/pad_right, is never counted). OH may be the floor or the ceil
// form of (H + pad_top + pad_bottom - dilation_h*(kernel_h-1) - 1) / stride_h + 1.
// L2 pooling (l2_pool2d_f32, TFLite's L2_POOL_2D): sqrtf(sum of the squares of the taps
// inside the image / their count); count_include_pad must be 0.
// The result is clamped to [act_min, act_max].
#pragma once

#include <stdint.h>

#include "mote/kernel.h"
#include "window_geometry.h"

namespace mote {

struct Pool2dParams {
  int32_t kernel_h, kernel_w;
  WindowGeometry window;
  int32_t count_include_pad;  // average pool only
  float act_min, act_max;
};

struct Pool2dShape {
  int32_t batch, in_h, in_w, channels;
  int32_t out_h, out_w;
};

// The shape of tensors a pooling check() accepted (NHWC, index math in int32).
inline Pool2dShape pool2d_shape(const TensorDesc& in, const TensorDesc& out) {
  return Pool2dShape{static_cast<int32_t>(in.dims[0]), static_cast<int32_t>(in.dims[1]),
                     static_cast<int32_t>(in.dims[2]), static_cast<int32_t>(in.dims[3]),
                     static_cast<int32_t>(out.dims[1]), static_cast<int32_t>(out.dims[2])};
}

void avg_pool2d_f32(const Pool2dParams& params, const Pool2dShape& shape, const float* input,
                    float* output);
void max_pool2d_f32(const Pool2dParams& params, const Pool2dShape& shape, const float* input,
                    float* output);
void l2_pool2d_f32(const Pool2dParams& params, const Pool2dShape& shape, const float* input,
                   float* output);

Status pool2d_f32_check(const OpContext& ctx);
void avg_pool2d_f32_run(const OpContext& ctx);
void max_pool2d_f32_run(const OpContext& ctx);
void l2_pool2d_f32_run(const OpContext& ctx);
extern const KernelEntry kAvgPool2dF32Entry;
extern const KernelEntry kMaxPool2dF32Entry;
extern const KernelEntry kL2Pool2dF32Entry;

// ---------------------------------------------------------------------------------------
// int8 average and max pooling (TFLite AVERAGE_POOL_2D / MAX_POOL_2D,
// reference_integer_ops::AveragePool / MaxPool). Input and output share scale and zero
// point (TFLite requires it), so no zero point enters the arithmetic.
//   input 0 int8 [N, H, W, C], output 0 int8 [N, OH, OW, C]
//   OH = (H + pad_top + pad_bottom - kernel_h) / stride_h + 1  (same for W): no dilation,
//   window.dilation_h and dilation_w are 1 (check() refuses others; TFLite has none).
// Only taps inside the image count (TFLite never counts padding):
//   average: sum of the n taps (int32), divided by n rounding half away from zero:
//            sum > 0 ? (sum + n/2) / n : (sum - n/2) / n   (C division)
//   max:     the largest tap
// then clamped to [act_min, act_max] = activation_range_quantized(.., -128, 127).
// check(): every pad < its kernel size, so every window holds at least one tap (TFLite
// SAME/VALID padding always satisfies it; TFLite fails at run time otherwise).
struct Pool2dS8Params {
  int32_t kernel_h, kernel_w;
  WindowGeometry window;  // dilation 1 (check() refuses others)
  int32_t act_min, act_max;
};

void avg_pool2d_s8(const Pool2dS8Params& params, const Pool2dShape& shape, const int8_t* input,
                   int8_t* output);
void max_pool2d_s8(const Pool2dS8Params& params, const Pool2dShape& shape, const int8_t* input,
                   int8_t* output);

Status pool2d_s8_check(const OpContext& ctx);
void avg_pool2d_s8_run(const OpContext& ctx);
void max_pool2d_s8_run(const OpContext& ctx);
extern const KernelEntry kAvgPool2dS8Entry;
extern const KernelEntry kMaxPool2dS8Entry;

// Armv7E-M / Armv8-M DSP variants of the int8 pools: same inputs, params and output
// bits, every shape the reference accepts (check() is the reference's), no scratch.
// Portable elsewhere (kernels/isa/dsp.h). avg_pool2d_s8__dsp sums eight channels per
//   step (two words per tap) in int16 halves with SXTAB16 (windows of at most 256 taps;
//   larger ones run the reference); max_pool2d_s8__dsp takes bytewise maxima of four
//   channels per step (one word per tap) with SSUB8/SEL.
void avg_pool2d_s8__dsp(const Pool2dS8Params& params, const Pool2dShape& shape,
                        const int8_t* input, int8_t* output);
Status avg_pool2d_s8__dsp_check(const OpContext& ctx);
void avg_pool2d_s8__dsp_run(const OpContext& ctx);
extern const KernelEntry kAvgPool2dS8DspEntry;
void max_pool2d_s8__dsp(const Pool2dS8Params& params, const Pool2dShape& shape,
                        const int8_t* input, int8_t* output);
Status max_pool2d_s8__dsp_check(const OpContext& ctx);
void max_pool2d_s8__dsp_run(const OpContext& ctx);
extern const KernelEntry kMaxPool2dS8DspEntry;

// Helium (MVE, cortex-m55) variants of avg_pool2d_s8 / max_pool2d_s8: same params and
// output bits, no scratch (avg_pool2d_s8__mve.cc, max_pool2d_s8__mve.cc). The average
// divides with a reciprocal multiply that is exact for windows of at most
// kAvgPool2dS8MveMaxTaps cells; its check() rejects larger kernels, otherwise both
// checks are pool2d_s8_check.
inline constexpr int64_t kAvgPool2dS8MveMaxTaps = 4080;
void avg_pool2d_s8__mve(const Pool2dS8Params& params, const Pool2dShape& shape,
                        const int8_t* input, int8_t* output);
void max_pool2d_s8__mve(const Pool2dS8Params& params, const Pool2dShape& shape,
                        const int8_t* input, int8_t* output);
Status avg_pool2d_s8__mve_check(const OpContext& ctx);
Status max_pool2d_s8__mve_check(const OpContext& ctx);
void avg_pool2d_s8__mve_run(const OpContext& ctx);
void max_pool2d_s8__mve_run(const OpContext& ctx);
extern const KernelEntry kAvgPool2dS8MveEntry;
extern const KernelEntry kMaxPool2dS8MveEntry;

// ---------------------------------------------------------------------------------------
// int16 average and max pooling (the int16 overloads of TFLite's
// reference_integer_ops::AveragePool / MaxPool): exactly the int8 arithmetic above with
// int16 data, [act_min, act_max] = activation_range_quantized(.., -32768, 32767). As for
// int8, input and output share scale and zero point, so no zero point enters.
// check(): as int8, except the window-size bound: an average window has at most 65535
// cells (so that its int32 sum and the rounding cannot overflow); a max window any.
struct Pool2dS16Params {
  int32_t kernel_h, kernel_w;
  WindowGeometry window;  // dilation 1 (check() refuses others)
  int32_t act_min, act_max;
};

void avg_pool2d_s16(const Pool2dS16Params& params, const Pool2dShape& shape,
                    const int16_t* input, int16_t* output);
void max_pool2d_s16(const Pool2dS16Params& params, const Pool2dShape& shape,
                    const int16_t* input, int16_t* output);

Status avg_pool2d_s16_check(const OpContext& ctx);
Status max_pool2d_s16_check(const OpContext& ctx);
void avg_pool2d_s16_run(const OpContext& ctx);
void max_pool2d_s16_run(const OpContext& ctx);
extern const KernelEntry kAvgPool2dS16Entry;
extern const KernelEntry kMaxPool2dS16Entry;

// Armv7E-M / Armv8-M DSP variants of the int16 pools: same params and output bits, every
// shape the reference accepts (its checks), no scratch. Portable elsewhere
// (kernels/isa/dsp.h). Four channels (two words) per step: avg_pool2d_s16__dsp sums them
// in int32 with SXTAH / ADD ASR #16; max_pool2d_s16__dsp takes halfwise maxima with
// SSUB16/SEL.
void avg_pool2d_s16__dsp(const Pool2dS16Params& params, const Pool2dShape& shape,
                         const int16_t* input, int16_t* output);
void max_pool2d_s16__dsp(const Pool2dS16Params& params, const Pool2dShape& shape,
                         const int16_t* input, int16_t* output);
Status avg_pool2d_s16__dsp_check(const OpContext& ctx);
Status max_pool2d_s16__dsp_check(const OpContext& ctx);
void avg_pool2d_s16__dsp_run(const OpContext& ctx);
void max_pool2d_s16__dsp_run(const OpContext& ctx);
extern const KernelEntry kAvgPool2dS16DspEntry;
extern const KernelEntry kMaxPool2dS16DspEntry;

// Helium (MVE, cortex-m55) variants of the int16 pools: same params and output bits, no
// scratch. The average divides with a reciprocal multiply and shift that is exact for
// windows of at most kAvgPool2dS16MveMaxTaps cells (avg_pool2d_s16__mve.cc); its check()
// rejects larger kernels. The max pool takes every shape the reference does.
inline constexpr int64_t kAvgPool2dS16MveMaxTaps = 32767;
void avg_pool2d_s16__mve(const Pool2dS16Params& params, const Pool2dShape& shape,
                         const int16_t* input, int16_t* output);
void max_pool2d_s16__mve(const Pool2dS16Params& params, const Pool2dShape& shape,
                         const int16_t* input, int16_t* output);
Status avg_pool2d_s16__mve_check(const OpContext& ctx);
Status max_pool2d_s16__mve_check(const OpContext& ctx);
void avg_pool2d_s16__mve_run(const OpContext& ctx);
void max_pool2d_s16__mve_run(const OpContext& ctx);
extern const KernelEntry kAvgPool2dS16MveEntry;
extern const KernelEntry kMaxPool2dS16MveEntry;

// ARMv6-M (cortex-m0plus) variants of the int16 pools: same params and output bits,
// every shape the reference accepts (its checks), no scratch. Register accumulators,
// taps innermost; the max reads aligned channel pairs as words (a Thumb-1 loop,
// v6m::max_s16_words); the average divides by a per-count reciprocal with 16x16
// multiplies instead of a division call (avg_pool2d_s16__v6m.cc).
void avg_pool2d_s16__v6m(const Pool2dS16Params& params, const Pool2dShape& shape,
                         const int16_t* input, int16_t* output);
void max_pool2d_s16__v6m(const Pool2dS16Params& params, const Pool2dShape& shape,
                         const int16_t* input, int16_t* output);
Status avg_pool2d_s16__v6m_check(const OpContext& ctx);
Status max_pool2d_s16__v6m_check(const OpContext& ctx);
void avg_pool2d_s16__v6m_run(const OpContext& ctx);
void max_pool2d_s16__v6m_run(const OpContext& ctx);
extern const KernelEntry kAvgPool2dS16V6mEntry;
extern const KernelEntry kMaxPool2dS16V6mEntry;

}  // namespace mote
