// Reference int8 sigmoid and tanh, bit-exact with TFLite's reference_integer_ops::Logistic
// and Tanh (gemmlowp fixed point on a Q4.27 input). Each reads input[i] before writing
// output[i], so both may run in place.
#include "activation/activation.h"
#include "kernel_util.h"
#include "quant/fixed_point.h"
#include "quant/quant_check.h"
#include "quant/quant_math.h"

namespace mote {
namespace {

// Where x = input - zero point falls: saturated low, saturated high, or computed.
enum class Range { kLow, kHigh, kInside };

inline Range classify(const SigmoidTanhS8Params& p, int32_t x) {
  if (x <= -p.input_range_radius) return Range::kLow;
  if (x >= p.input_range_radius) return Range::kHigh;
  return Range::kInside;
}

}  // namespace

void sigmoid_s8(const SigmoidTanhS8Params& params, uint32_t count, const int8_t* input,
                int8_t* output) {
  for (uint32_t i = 0; i < count; ++i) {
    const int32_t x = input[i] - params.input_zero_point;
    switch (classify(params, x)) {
      case Range::kLow: output[i] = -128; break;
      case Range::kHigh: output[i] = 127; break;
      case Range::kInside: {
        const int32_t q4 =
            multiply_by_quantized_multiplier(x, params.input_multiplier, params.input_left_shift);
        const int32_t q0 = fixed_point::logistic_q4(q4);
        const int32_t out = rounding_divide_by_pot(q0, 31 - 8) - 128;
        output[i] = static_cast<int8_t>(clamp_i32(out, -128, 127));
        break;
      }
    }
  }
}

void tanh_s8(const SigmoidTanhS8Params& params, uint32_t count, const int8_t* input,
             int8_t* output) {
  for (uint32_t i = 0; i < count; ++i) {
    const int32_t x = input[i] - params.input_zero_point;
    switch (classify(params, x)) {
      case Range::kLow: output[i] = -128; break;
      case Range::kHigh: output[i] = 127; break;
      case Range::kInside: {
        const int32_t q4 =
            multiply_by_quantized_multiplier(x, params.input_multiplier, params.input_left_shift);
        const int32_t q0 = fixed_point::tanh_q4(q4);
        output[i] = static_cast<int8_t>(clamp_i32(rounding_divide_by_pot(q0, 31 - 7), -128, 127));
        break;
      }
    }
  }
}

Status sigmoid_tanh_s8_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 1, 1, 1));
  if (ctx.params_bytes() != sizeof(SigmoidTanhS8Params)) return Status::kBadParams;
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  if (!is_s8(in) || !is_s8(out) || !same_shape(in, out)) return Status::kBadParams;
  const SigmoidTanhS8Params& p = ctx.params<SigmoidTanhS8Params>();
  if (!valid_zero_point<int8_t>(p.input_zero_point) || p.input_range_radius < 0 ||
      !valid_shift(p.input_left_shift)) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void sigmoid_s8_run(const OpContext& ctx) {
  sigmoid_s8(ctx.params<SigmoidTanhS8Params>(), element_count(ctx.input_desc(0)),
             static_cast<const int8_t*>(ctx.input_data(0)),
             static_cast<int8_t*>(ctx.output_data(0)));
}

void tanh_s8_run(const OpContext& ctx) {
  tanh_s8(ctx.params<SigmoidTanhS8Params>(), element_count(ctx.input_desc(0)),
          static_cast<const int8_t*>(ctx.input_data(0)), static_cast<int8_t*>(ctx.output_data(0)));
}

const KernelEntry kSigmoidS8Entry = {sigmoid_tanh_s8_check, sigmoid_s8_run};
const KernelEntry kTanhS8Entry = {sigmoid_tanh_s8_check, tanh_s8_run};

}  // namespace mote
