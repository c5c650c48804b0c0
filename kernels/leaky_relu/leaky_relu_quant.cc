// Reference int8 and int16 leaky ReLU, bit-exact with TFLite's QuantizeLeakyRelu (the
// same template serves both element types, as in TFLite).
#include "kernel_util.h"
#include "leaky_relu/leaky_relu.h"
#include "quant/quant_check.h"
#include "quant/quant_math.h"

namespace mote {
namespace {

template <typename T>
void leaky_relu(const LeakyReluQuantParams& p, uint32_t count, const T* input, T* output) {
  const bool alpha_negative = p.alpha_multiplier < 0;
  const int32_t alpha_magnitude = alpha_negative ? -p.alpha_multiplier : p.alpha_multiplier;
  for (uint32_t i = 0; i < count; ++i) {
    const int32_t x = input[i] - p.input_zero_point;
    int32_t y;
    if (x >= 0) {
      y = multiply_by_quantized_multiplier(x, p.identity_multiplier, p.identity_shift);
    } else {
      y = multiply_by_quantized_multiplier(x, alpha_magnitude, p.alpha_shift);
      if (alpha_negative) y = wrapping_neg(y);
    }
    output[i] = static_cast<T>(
        clamp_i32(wrapping_add(y, p.output_zero_point), IntRange<T>::kMin, IntRange<T>::kMax));
  }
}

template <typename T>
Status leaky_relu_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 1, 1, 1));
  if (ctx.params_bytes() != sizeof(LeakyReluQuantParams)) return Status::kBadParams;
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  constexpr DType kDType = IntRange<T>::kDType;
  if (!has_dtype(in, kDType) || !has_dtype(out, kDType) || !same_shape(in, out)) {
    return Status::kBadParams;
  }
  const LeakyReluQuantParams& p = ctx.params<LeakyReluQuantParams>();
  if (!valid_zero_point<T>(p.input_zero_point) || !valid_zero_point<T>(p.output_zero_point) ||
      !valid_shift(p.identity_shift) || !valid_shift(p.alpha_shift) ||
      p.alpha_multiplier == INT32_MIN) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

}  // namespace

void leaky_relu_s8(const LeakyReluQuantParams& params, uint32_t count, const int8_t* input,
                   int8_t* output) {
  leaky_relu(params, count, input, output);
}
void leaky_relu_s16(const LeakyReluQuantParams& params, uint32_t count, const int16_t* input,
                    int16_t* output) {
  leaky_relu(params, count, input, output);
}

Status leaky_relu_s8_check(const OpContext& ctx) { return leaky_relu_check<int8_t>(ctx); }
Status leaky_relu_s16_check(const OpContext& ctx) { return leaky_relu_check<int16_t>(ctx); }

void leaky_relu_s8_run(const OpContext& ctx) {
  leaky_relu_s8(ctx.params<LeakyReluQuantParams>(), element_count(ctx.input_desc(0)),
                static_cast<const int8_t*>(ctx.input_data(0)),
                static_cast<int8_t*>(ctx.output_data(0)));
}
void leaky_relu_s16_run(const OpContext& ctx) {
  leaky_relu_s16(ctx.params<LeakyReluQuantParams>(), element_count(ctx.input_desc(0)),
                 static_cast<const int16_t*>(ctx.input_data(0)),
                 static_cast<int16_t*>(ctx.output_data(0)));
}

const KernelEntry kLeakyReluS8Entry = {leaky_relu_s8_check, leaky_relu_s8_run};
const KernelEntry kLeakyReluS16Entry = {leaky_relu_s16_check, leaky_relu_s16_run};

}  // namespace mote
