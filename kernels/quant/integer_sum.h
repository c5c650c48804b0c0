// TFLite's int8 running sums, shared by ADD_N and CUMSUM (reference_ops::AddN and
// reference_ops::CumSum for int8): every term is the input rescaled as TFLite's ADD
// rescales it (left shift 20, the multiplier of ADD for equal input scales), and the
// accumulator starts, as TFLite's does, from the scaled input offset (the rescaled raw
// value 0), not from 0:
//   scaled(v) = mbqm((input_offset + v) * 2^20, input_multiplier, input_shift)
//   acc       = scaled(0) + scaled(v0) + scaled(v1) + ...        (int32, wrapping)
//   output    = clamp(mbqm(acc, output_multiplier, output_shift) + output_offset, -128, 127)
// input_offset = -input zero point; the multipliers come from quant_math.h's
// add_multipliers(s_in, s_in, s_out, kIntegerSumLeftShift).
#pragma once

#include <stdint.h>

#include "quant/quant_math.h"

namespace mote {

inline constexpr int32_t kIntegerSumLeftShift = 20;

struct IntegerSumParams {
  int32_t input_offset;  // -input zero point
  int32_t output_offset;
  int32_t input_multiplier;
  int32_t input_shift;
  int32_t output_multiplier;
  int32_t output_shift;
};

// Offsets within int8's zero points, shifts in [kMinShift, 0] (multipliers below one).
inline bool valid_integer_sum(const IntegerSumParams& p) {
  return p.input_offset >= -127 && p.input_offset <= 128 && p.output_offset >= -128 && p.output_offset <= 127 &&
         p.input_shift >= kMinShift && p.input_shift <= 0 && p.output_shift >= kMinShift && p.output_shift <= 0;
}

inline int32_t integer_sum_term(const IntegerSumParams& p, int32_t v) {
  const int32_t shifted = wrapping_mul(p.input_offset + v, int32_t{1} << kIntegerSumLeftShift);
  return multiply_by_quantized_multiplier(shifted, p.input_multiplier, p.input_shift);
}

inline int8_t integer_sum_output(const IntegerSumParams& p, int32_t acc) {
  const int32_t raw = multiply_by_quantized_multiplier(acc, p.output_multiplier, p.output_shift) + p.output_offset;
  return static_cast<int8_t>(clamp_i32(raw, -128, 127));
}

}  // namespace mote
