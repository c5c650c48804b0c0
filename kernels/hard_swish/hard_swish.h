// Hard swish, elementwise: out = x * relu6(x + 3) / 6 (TFLite HARD_SWISH), float32 and int8
// as TensorFlow Lite Micro runs it (reference_ops::HardSwish). Input 0 and output 0 have
// one shape and dtype; each element is read before it is written (may run in place).
//
// float32: out = (x * min(6, max(0, x + 3))) / 6, in float, in that order.
//
// int8 (TFLite's 16-bit fixed-point form). With x = input - input_zero_point:
//   hires     = x * 2^7                                          (int16, exact)
//   preshift  = srdhm16(hires, output_multiplier)                (x on the output scale,
//                                                                 before output_exponent)
//   reluish   = hires, rescaled so that the real value 3 is 2^15:
//                 exponent > 0: sat16(hires * 2^(exponent - 1)), srdhm16 by
//                               reluish_multiplier, sat16(* 2)
//                 otherwise:    srdhm16 by reluish_multiplier, then
//                               rdbpot16 by -exponent
//   reluish   = (reluish + 2^15) >> 1                            ([-1, 1] -> [0, 1])
//   out       = rdbpot16(sdhm16(reluish, preshift), -output_exponent) + output_zero_point,
//               clamped to int8
// where srdhm16 is gemmlowp's 16-bit SaturatingRoundingDoublingHighMul, sdhm16 TFLite's
// SaturatingDoublingHighMul (the same, truncating toward zero), sat16 saturation to
// int16 and rdbpot16 gemmlowp's RoundingDivideByPOT on int16 values (whose mask is
// int16 too: for an exponent of 16 or more it gives 1 for x >= 0 and -1 below, as
// TFLite computes it). The compiler fills the params with hard_swish_s8_params()
// (quant/quant_math.h). check(): zero points in int8, multipliers in [0, 32767],
// reluish_exponent in [-31, 30], output_exponent in [-31, 0].
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

struct HardSwishS8Params {
  int32_t input_zero_point;
  int32_t output_zero_point;
  int32_t reluish_multiplier, reluish_exponent;  // int16 fixed-point multiplier, exponent
  int32_t output_multiplier, output_exponent;
};

void hard_swish_f32(uint32_t count, const float* input, float* output);
void hard_swish_s8(const HardSwishS8Params& params, uint32_t count, const int8_t* input,
                   int8_t* output);

Status hard_swish_s8_check(const OpContext& ctx);
void hard_swish_f32_run(const OpContext& ctx);
void hard_swish_s8_run(const OpContext& ctx);
extern const KernelEntry kHardSwishF32Entry;
extern const KernelEntry kHardSwishS8Entry;

}  // namespace mote
