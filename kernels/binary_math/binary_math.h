// Broadcasting binary math and comparisons (TFLite MAXIMUM, MINIMUM, SQUARED_DIFFERENCE,
// FLOOR_DIV, FLOOR_MOD, POW, EQUAL, NOT_EQUAL, LESS, LESS_EQUAL, GREATER, GREATER_EQUAL).
//   inputs:  0 a, 1 b of one dtype; numpy broadcast as add/mul (elementwise/elementwise.h)
//   output:  0 the broadcast shape; a's dtype, bool (one byte, 0 or 1) for compare_*
// Each walks its output with broadcast_binary (elementwise/broadcast_walk.h), so it may
// write over an input of the output's shape.
//
// min_max_{f32,s8,s16,s32,s64} (MinMaxParams): a > b ? a : b (maximum) or a < b ? a : b
//   (minimum), on the stored values, as TFLM's MaximumOp / MinimumOp. The quantized
//   kernels compare raw values, as TFLM does: TFLite's converter gives both inputs and
//   the output one scale and zero point.
// squared_difference_f32, _s32 (no params): d = a - b (int32 wraps), d * d.
// squared_difference_s8, _s16 (SquaredDifferenceQuantParams; TFLM's quantized
//   SquaredDifference): with left_shift 7 (int8) or 0 (int16),
//     a' = multiply_by_quantized_multiplier((a - input1_zero_point) * 2^left_shift,
//                                           input1_multiplier, input1_shift)
//     b' likewise, d = a' - b'
//     out = clamp(multiply_by_quantized_multiplier(d * d, output_multiplier, output_shift)
//                 + output_zero_point, type min, type max)
//   check(): zero points in the type, input shifts in [-31, 0], output shift in [-31, 30].
// floor_div_f32: floor((double)a / (double)b) rounded to float (TFLite's FloorDiv).
// floor_div_s32: floor(a / b) exactly (equal to TFLite's double quotient floored);
//   a / 0 gives 0 and INT32_MIN / -1 gives INT32_MAX, where TFLite stops with "Division
//   by 0" or leaves the conversion undefined. No params.
// floor_mod_f32: r = fmodf(a, b); r != 0 and sign(r) != sign(b) ? r + b : r (TFLite's
//   FloorMod, in float). floor_mod_s32: the same with the truncating %, a % 0 and
//   INT32_MIN % -1 giving 0. No params.
// pow_f32: powf(a, b) (TFLite POW, ONNX Pow): the C library's powf, so a negative a
//   with a non-integer b gives NaN, pow(x, 0) is 1 for every x, pow(0, -1) is +inf.
//   No params.
// compare_{f32,s16,s32,s64,bool} (CompareParams): fn(a, b) on the stored values; bool takes
//   equal and not_equal only. (TFLite compares int16 unscaled; TFLM's int16 GREATER
//   reads parameters it never sets.)
// compare_s8 (CompareS8Params; TFLite's ComparisonWithScaling, left_shift 8): both
//   inputs rescaled to a common real scale before comparing:
//     a' = multiply_by_quantized_multiplier((a - input1_zero_point) * 256,
//                                           input1_multiplier, input1_shift)
//   multiplier and shift = quantize_multiplier(input scale) (scale < 1, shift <= 0).
//   check(): zero points in int8, shifts in [-31, 0].
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

struct MinMaxParams {
  int32_t maximum;  // 1: maximum, 0: minimum
};

struct SquaredDifferenceQuantParams {
  int32_t input1_zero_point, input2_zero_point, output_zero_point;
  int32_t input1_multiplier, input1_shift;
  int32_t input2_multiplier, input2_shift;
  int32_t output_multiplier, output_shift;
};
inline constexpr int32_t kSquaredDifferenceLeftShiftS8 = 7;
inline constexpr int32_t kSquaredDifferenceLeftShiftS16 = 0;

enum class CompareFn : int32_t {
  kEqual = 0,
  kNotEqual = 1,
  kLess = 2,
  kLessEqual = 3,
  kGreater = 4,
  kGreaterEqual = 5,
};
inline constexpr int32_t kCompareFnCount = 6;

struct CompareParams {
  int32_t fn;  // CompareFn
};

struct CompareS8Params {
  int32_t fn;  // CompareFn
  int32_t input1_zero_point, input1_multiplier, input1_shift;
  int32_t input2_zero_point, input2_multiplier, input2_shift;
};
inline constexpr int32_t kCompareLeftShiftS8 = 8;

Status min_max_f32_check(const OpContext& ctx);
Status min_max_s8_check(const OpContext& ctx);
Status min_max_s16_check(const OpContext& ctx);
Status min_max_s32_check(const OpContext& ctx);
Status min_max_s64_check(const OpContext& ctx);
void min_max_f32_run(const OpContext& ctx);
void min_max_s8_run(const OpContext& ctx);
void min_max_s16_run(const OpContext& ctx);
void min_max_s32_run(const OpContext& ctx);
void min_max_s64_run(const OpContext& ctx);
extern const KernelEntry kMinMaxF32Entry;
extern const KernelEntry kMinMaxS8Entry;
extern const KernelEntry kMinMaxS16Entry;
extern const KernelEntry kMinMaxS32Entry;
extern const KernelEntry kMinMaxS64Entry;

Status squared_difference_f32_check(const OpContext& ctx);
Status squared_difference_s8_check(const OpContext& ctx);
Status squared_difference_s16_check(const OpContext& ctx);
Status squared_difference_s32_check(const OpContext& ctx);
void squared_difference_f32_run(const OpContext& ctx);
void squared_difference_s8_run(const OpContext& ctx);
void squared_difference_s16_run(const OpContext& ctx);
void squared_difference_s32_run(const OpContext& ctx);
extern const KernelEntry kSquaredDifferenceF32Entry;
extern const KernelEntry kSquaredDifferenceS8Entry;
extern const KernelEntry kSquaredDifferenceS16Entry;
extern const KernelEntry kSquaredDifferenceS32Entry;

float floor_div_f32_value(float a, float b);
int32_t floor_div_s32_value(int32_t a, int32_t b);
float floor_mod_f32_value(float a, float b);
int32_t floor_mod_s32_value(int32_t a, int32_t b);
Status floor_div_f32_check(const OpContext& ctx);
Status floor_div_s32_check(const OpContext& ctx);
void floor_div_f32_run(const OpContext& ctx);
void floor_div_s32_run(const OpContext& ctx);
void floor_mod_f32_run(const OpContext& ctx);
void floor_mod_s32_run(const OpContext& ctx);
extern const KernelEntry kFloorDivF32Entry;
extern const KernelEntry kFloorDivS32Entry;
extern const KernelEntry kFloorModF32Entry;
extern const KernelEntry kFloorModS32Entry;

float pow_f32_value(float a, float b);
Status pow_f32_check(const OpContext& ctx);
void pow_f32_run(const OpContext& ctx);
extern const KernelEntry kPowF32Entry;

Status compare_f32_check(const OpContext& ctx);
Status compare_s8_check(const OpContext& ctx);
Status compare_s16_check(const OpContext& ctx);
Status compare_s32_check(const OpContext& ctx);
Status compare_s64_check(const OpContext& ctx);
Status compare_bool_check(const OpContext& ctx);
void compare_f32_run(const OpContext& ctx);
void compare_s8_run(const OpContext& ctx);
void compare_s16_run(const OpContext& ctx);
void compare_s32_run(const OpContext& ctx);
void compare_s64_run(const OpContext& ctx);
void compare_bool_run(const OpContext& ctx);
extern const KernelEntry kCompareF32Entry;
extern const KernelEntry kCompareS8Entry;
extern const KernelEntry kCompareS16Entry;
extern const KernelEntry kCompareS32Entry;
extern const KernelEntry kCompareS64Entry;
extern const KernelEntry kCompareBoolEntry;

}  // namespace mote
