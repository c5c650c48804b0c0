// Conversions between float and quantized integers, and between integer quantizations
// (TFLite QUANTIZE and DEQUANTIZE). Elementwise; output shape == input shape.
//
// quantize (float32 -> int8 / int16; TFLite reference_ops::AffineQuantize):
//   out = clamp((int32)roundf(x / scale) + zero_point, type min, type max)
//   in float: a float division and roundf (half away from zero), exactly as TFLite.
//   TFLite's float-to-int cast is undefined for NaN and huge values; here a NaN maps to
//   the zero point and huge values saturate (what TFLite computes on Arm cores).
// dequantize (int8 / int16 / uint8 -> float32; TFLite reference_ops::Dequantize):
//   out = scale * (float)(q - zero_point)
//   TFLite multiplies in double and rounds to float; the double product is exact, so
//   the single float multiply here rounds to the same value.
//   Params for both: AffineQuantParams with the quantized tensor's scale and zero point.
//
// requantize (int8 / int16 / int32 -> int8 / int16 / int32, and uint8 <-> int8, the
// pairs TensorFlow Lite Micro's QUANTIZE takes between integer types;
// reference_ops::Requantize, whose xor-0x80 shortcut for uint8 <-> int8 at one scale is
// the same arithmetic):
//   out = clamp(multiply_by_quantized_multiplier(x - input_zero_point, multiplier, shift)
//               + output_zero_point, output type min, output type max)
//   (x - input_zero_point and the + wrap in int32, as TFLite's int32 arithmetic)
//   multiplier, shift = requantize_multiplier(input_scale, output_scale)
//   (quant/quant_math.h). check(): zero points in their types' ranges, shift in
//   [-31, 30].
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

struct AffineQuantParams {
  float scale;  // > 0 and finite
  int32_t zero_point;
};

struct RequantizeParams {
  int32_t input_zero_point;
  int32_t output_zero_point;
  int32_t multiplier;
  int32_t shift;
};

void quantize_f32_s8(const AffineQuantParams& params, uint32_t count, const float* input,
                     int8_t* output);
void quantize_f32_s16(const AffineQuantParams& params, uint32_t count, const float* input,
                      int16_t* output);
void dequantize_s8_f32(const AffineQuantParams& params, uint32_t count, const int8_t* input,
                       float* output);
void dequantize_s16_f32(const AffineQuantParams& params, uint32_t count, const int16_t* input,
                        float* output);
void dequantize_u8_f32(const AffineQuantParams& params, uint32_t count, const uint8_t* input,
                       float* output);

Status quantize_f32_s8_check(const OpContext& ctx);
Status quantize_f32_s16_check(const OpContext& ctx);
Status dequantize_s8_f32_check(const OpContext& ctx);
Status dequantize_s16_f32_check(const OpContext& ctx);
Status dequantize_u8_f32_check(const OpContext& ctx);
void quantize_f32_s8_run(const OpContext& ctx);
void quantize_f32_s16_run(const OpContext& ctx);
void dequantize_s8_f32_run(const OpContext& ctx);
void dequantize_s16_f32_run(const OpContext& ctx);
void dequantize_u8_f32_run(const OpContext& ctx);
extern const KernelEntry kQuantizeF32S8Entry;
extern const KernelEntry kQuantizeF32S16Entry;
extern const KernelEntry kDequantizeS8F32Entry;
extern const KernelEntry kDequantizeS16F32Entry;
extern const KernelEntry kDequantizeU8F32Entry;

// quantize_f32_s16 with Helium (MVE-F), bit-exact with it (quantize_f32_s16__mve.cc).
void quantize_f32_s16__mve(const AffineQuantParams& params, uint32_t count, const float* input,
                           int16_t* output);
Status quantize_f32_s16__mve_check(const OpContext& ctx);
void quantize_f32_s16__mve_run(const OpContext& ctx);
extern const KernelEntry kQuantizeF32S16MveEntry;

// One entry per (input, output) integer type pair TensorFlow Lite Micro supports.
extern const KernelEntry kRequantizeS8S8Entry;
extern const KernelEntry kRequantizeS8S16Entry;
extern const KernelEntry kRequantizeS8S32Entry;
extern const KernelEntry kRequantizeS16S8Entry;
extern const KernelEntry kRequantizeS16S16Entry;
extern const KernelEntry kRequantizeS16S32Entry;
extern const KernelEntry kRequantizeS32S8Entry;
extern const KernelEntry kRequantizeS32S16Entry;
extern const KernelEntry kRequantizeU8S8Entry;
extern const KernelEntry kRequantizeS8U8Entry;

}  // namespace mote
