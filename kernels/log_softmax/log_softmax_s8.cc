// Reference int8 log-softmax, bit-exact with TFLite's reference_ops::LogSoftmaxQuantized
// (log_softmax.h states the steps).
#include "kernel_util.h"
#include "log_softmax/log_softmax.h"
#include "quant/fixed_point.h"
#include "quant/quant_math.h"

namespace mote {

void log_softmax_s8(const LogSoftmaxS8Params& p, uint32_t rows, uint32_t depth, const int8_t* input,
                    int8_t* output) {
  constexpr int kInputIntegerBits = 5;
  constexpr int kAccumulationIntegerBits = 12;
  constexpr int kOutputIntegerBits = 4;
  for (uint32_t r = 0; r < rows; ++r) {
    const int8_t* x = input + static_cast<size_t>(r) * depth;
    int8_t* y = output + static_cast<size_t>(r) * depth;
    int32_t max = -128;
    for (uint32_t c = 0; c < depth; ++c) max = x[c] > max ? x[c] : max;

    int32_t sum_of_exps_q12 = 0;
    for (uint32_t c = 0; c < depth; ++c) {
      const int32_t diff = x[c] - max;
      if (diff < p.diff_min) continue;
      const int32_t diff_q5 = multiply_by_quantized_multiplier(diff, p.input_multiplier, p.input_left_shift);
      const int32_t exp_q0 = fixed_point::exp_on_negative_values<kInputIntegerBits>(diff_q5);
      sum_of_exps_q12 = wrapping_add(sum_of_exps_q12, fixed_point::rescale<0, kAccumulationIntegerBits>(exp_q0));
    }
    const int32_t log_sum_q5 =
        fixed_point::log_x_for_x_greater_than_or_equal_to_1<kInputIntegerBits, kAccumulationIntegerBits>(
            sum_of_exps_q12);
    const int32_t shifted_log_sum = wrapping_add(log_sum_q5, INT32_MIN);
    const int32_t reverse = multiply_by_quantized_multiplier(shifted_log_sum, p.reverse_scaling_divisor,
                                                             -p.reverse_scaling_right_shift);
    const int32_t limit = p.diff_min - 1 > reverse ? p.diff_min - 1 : reverse;

    for (uint32_t c = 0; c < depth; ++c) {
      const int32_t diff = x[c] - max;
      if (diff <= limit) {
        y[c] = -128;
        continue;
      }
      const int32_t diff_q5 = multiply_by_quantized_multiplier(diff, p.input_multiplier, p.input_left_shift);
      const int32_t out = wrapping_add(
          rounding_divide_by_pot(wrapping_sub(diff_q5, log_sum_q5), 31 - kInputIntegerBits - kOutputIntegerBits),
          127);
      y[c] = static_cast<int8_t>(clamp_i32(out, -128, 127));
    }
  }
}

Status log_softmax_s8_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 1, 1, 1));
  if (ctx.params_bytes() != sizeof(LogSoftmaxS8Params)) return Status::kBadParams;
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  if (!has_dtype(in, DType::kInt8) || !has_dtype(out, DType::kInt8) || !same_shape(in, out) || in.rank < 1) {
    return Status::kBadParams;
  }
  const LogSoftmaxS8Params& p = ctx.params<LogSoftmaxS8Params>();
  if (!valid_shift(p.input_left_shift) || p.reverse_scaling_right_shift < 0 || p.reverse_scaling_right_shift > 31 ||
      p.input_multiplier < 0 || p.reverse_scaling_divisor < 0 || p.diff_min > 0 || p.diff_min < -(1 << 30)) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void log_softmax_s8_run(const OpContext& ctx) {
  const TensorDesc& in = ctx.input_desc(0);
  const uint32_t depth = static_cast<uint32_t>(in.dims[in.rank - 1]);
  log_softmax_s8(ctx.params<LogSoftmaxS8Params>(), depth == 0 ? 0 : element_count(in) / depth, depth,
                 static_cast<const int8_t*>(ctx.input_data(0)), static_cast<int8_t*>(ctx.output_data(0)));
}

const KernelEntry kLogSoftmaxS8Entry = {log_softmax_s8_check, log_softmax_s8_run};

}  // namespace mote
