// Log-softmax along the last axis (TFLite LOG_SOFTMAX, beta 1): for each row of the last
// dimension, out = x - max(row) - ln(sum(exp(x - max(row)))). Input 0 and output 0 have
// one shape and dtype.
//
// float32 (reference_ops::LogSoftmax): max, sum of expf(x - max), logf(sum), then
// x - max - log_sum, in float, in that order.
//
// int8 (reference_ops::LogSoftmaxQuantized; TFLite requires output scale 16/256 and
// zero point 127). Per row, with diff = x - max(row):
//   sum     = sum over diff >= diff_min of rescale_q12(exp_on_negative_values_q5(
//               multiply_by_quantized_multiplier(diff, input_multiplier, input_left_shift)))
//   log_sum = log_x_for_x_greater_than_or_equal_to_1 (Q12 in, Q5 out)
//   limit   = max(diff_min - 1, multiply_by_quantized_multiplier(log_sum + INT32_MIN,
//                 reverse_scaling_divisor, -reverse_scaling_right_shift))
//   out     = diff > limit ? clamp(rounding_divide_by_pot(diff_q5 - log_sum, 22) + 127,
//                                  -128, 127)
//                          : -128
// (quant/fixed_point.h). The compiler fills the params with log_softmax_s8_params()
// (quant/quant_math.h). check(): input_left_shift in [-31, 30], reverse_scaling_right_shift
// in [0, 31], multipliers >= 0, diff_min <= 0, rank >= 1.
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

struct LogSoftmaxS8Params {
  int32_t input_multiplier;
  int32_t input_left_shift;
  int32_t reverse_scaling_divisor;
  int32_t reverse_scaling_right_shift;
  int32_t diff_min;
};

void log_softmax_f32(uint32_t rows, uint32_t depth, const float* input, float* output);
void log_softmax_s8(const LogSoftmaxS8Params& params, uint32_t rows, uint32_t depth,
                    const int8_t* input, int8_t* output);

Status log_softmax_f32_check(const OpContext& ctx);
Status log_softmax_s8_check(const OpContext& ctx);
void log_softmax_f32_run(const OpContext& ctx);
void log_softmax_s8_run(const OpContext& ctx);
extern const KernelEntry kLogSoftmaxF32Entry;
extern const KernelEntry kLogSoftmaxS8Entry;

}  // namespace mote
