// Unary elementwise math (TFLite ABS, NEG, SIN, COS, LOG, SQRT, RSQRT, SQUARE, EXP,
// FLOOR, CEIL, ROUND; TensorFlow Lite Micro's elementwise.cc, neg.cc, exp.cc, floor.cc,
// ceil.cc, round.cc).
//   input 0, output 0: same shape and dtype; every kernel reads element i before it
//   writes element i, so each may run in place.
//
// math_f32 (MathF32Params.fn picks the function), as TFLM computes it in float:
//   abs fabsf, neg -x, sin sinf, cos cosf, log logf, sqrt sqrtf, rsqrt 1.0f / sqrtf(x),
//   square x * x, exp expf, floor floorf, ceil ceilf,
//   round: half to even, as TFLite's RoundToNearest: f = floorf(x), d = x - f;
//          d < 0.5 or (d == 0.5 and f even) gives f, else f + 1 (so round(-0.3) = +0,
//          NaN stays NaN, +-inf stays +-inf).
//   erf erff (ONNX Erf; no TFLite builtin),
//   softplus ln(1 + e^x) (ONNX Softplus) without overflow: x > 0 ? x + log1pf(expf(-x))
//          : log1pf(expf(x)).
//   sign (ONNX Sign): -1, 0 or 1 as x < 0, x == 0 (either zero) or x > 0; NaN stays NaN.
// sinf, cosf, logf, expf, erff and log1pf come from the C library of the build (glibc on the host,
// newlib on Cortex-M), which may differ from another libm in the last bit; the others
// are exact (correctly rounded IEEE operations).
//
// abs_s8, abs_s16 (AbsQuantParams; TFLite's AbsEvalQuantized): with
//   v = |x - input_zero_point| (in int32),
//   out = clamp((mode == kAbsRescale ? multiply_by_quantized_multiplier(v, multiplier,
//               shift) : v) + output_zero_point, type min, type max)
// The compiler sets kAbsRescale when the input and output scales differ, with
// quantize_multiplier(float(input_scale / output_scale)). int16 has zero points 0.
// abs_s16 with mode kAbsUnquantized is TFLM's ABS of an int16 tensor without
// quantization: std::abs's result cast back to int16, so |-32768| stays -32768 (zero
// points 0).
// check(): zero points in the type, shift in [-31, 30] (read only with kAbsRescale), a
// known mode (kAbsUnquantized only for int16, with zero points 0).
//
// rsqrt_s8 (RsqrtQuantParams; TFLite's RsqrtEvalQuantized): v = x - input_zero_point;
//   v == 0: out = 127 (TFLite: the largest output)
//   v < 0:  out = 127 as well. TFLite stops the inference with an error ("Rsqrt is only
//           defined for positive values"); a Mote kernel cannot fail at run time, so
//           such an element is treated as zero, the smallest value the input can mean.
//   else:   (m, s) = inv_sqrt_quantized_multiplier_exp(v)           (quant/fixed_point.h)
//           data = multiply_by_quantized_multiplier(1, m, s + 20)
//           out = clamp(multiply_by_quantized_multiplier(data, multiplier, shift - 20)
//                       + output_zero_point, -128, 127)
// multiplier, shift = quantize_multiplier(1 / (double)(sqrtf(input_scale) * output_scale)).
// check(): zero points in int8, shift - 20 in [-31, 30].
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

enum class UnaryFn : int32_t {
  kAbs = 0,
  kNeg = 1,
  kSin = 2,
  kCos = 3,
  kLog = 4,
  kSqrt = 5,
  kRsqrt = 6,
  kSquare = 7,
  kExp = 8,
  kFloor = 9,
  kCeil = 10,
  kRound = 11,
  kErf = 12,
  kSoftplus = 13,
  kSign = 14,
};
inline constexpr int32_t kUnaryFnCount = 15;

struct MathF32Params {
  int32_t fn;  // UnaryFn
};

enum class AbsMode : int32_t {
  kAbsSameScale = 0,    // the scales are equal: no multiplier
  kAbsRescale = 1,      // apply multiplier and shift
  kAbsUnquantized = 2,  // int16 without quantization: the low 16 bits of |x|
};

struct AbsQuantParams {
  int32_t input_zero_point;
  int32_t output_zero_point;
  int32_t multiplier, shift;
  int32_t mode;  // AbsMode
};

struct RsqrtQuantParams {
  int32_t input_zero_point;
  int32_t output_zero_point;
  int32_t multiplier, shift;
};
inline constexpr int32_t kRsqrtShift = 20;  // TFLite's kShift: keeps 1/sqrt(v) an integer

float math_f32_value(UnaryFn fn, float x);  // one element, as math_f32 computes it
void math_f32(const MathF32Params& params, uint32_t count, const float* input, float* output);
void abs_s8(const AbsQuantParams& params, uint32_t count, const int8_t* input, int8_t* output);
void abs_s16(const AbsQuantParams& params, uint32_t count, const int16_t* input, int16_t* output);
void rsqrt_s8(const RsqrtQuantParams& params, uint32_t count, const int8_t* input, int8_t* output);

Status math_f32_check(const OpContext& ctx);
Status abs_s8_check(const OpContext& ctx);
Status abs_s16_check(const OpContext& ctx);
Status rsqrt_s8_check(const OpContext& ctx);
void math_f32_run(const OpContext& ctx);
void abs_s8_run(const OpContext& ctx);
void abs_s16_run(const OpContext& ctx);
void rsqrt_s8_run(const OpContext& ctx);
extern const KernelEntry kMathF32Entry;
extern const KernelEntry kAbsS8Entry;
extern const KernelEntry kAbsS16Entry;
extern const KernelEntry kRsqrtS8Entry;

}  // namespace mote
