// Reference int8 and int16 clamp, bit-exact with TFLite's quantized ReluX (the same
// template serves both element types, as in TFLite).
#include "activation/activation.h"
#include "kernel_util.h"
#include "quant/quant_check.h"
#include "quant/quant_math.h"

namespace mote {
namespace {

template <typename T>
void clamp_quant(const ClampQuantParams& p, uint32_t count, const T* input, T* output) {
  for (uint32_t i = 0; i < count; ++i) {
    const int32_t x = input[i] - p.input_zero_point;
    const int32_t y = wrapping_add(p.output_zero_point, multiply_by_quantized_multiplier(x, p.multiplier, p.shift));
    output[i] = static_cast<T>(clamp_i32(y, p.act_min, p.act_max));
  }
}

template <typename T>
Status clamp_quant_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 1, 1, 1));
  if (ctx.params_bytes() != sizeof(ClampQuantParams)) return Status::kBadParams;
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  constexpr DType kDType = IntRange<T>::kDType;
  if (!has_dtype(in, kDType) || !has_dtype(out, kDType) || !same_shape(in, out)) {
    return Status::kBadParams;
  }
  const ClampQuantParams& p = ctx.params<ClampQuantParams>();
  if (!valid_zero_point<T>(p.input_zero_point) || !valid_zero_point<T>(p.output_zero_point) ||
      !valid_shift(p.shift) || p.multiplier < 0 || !valid_quant_range<T>(p.act_min, p.act_max)) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

}  // namespace

void clamp_s8(const ClampQuantParams& params, uint32_t count, const int8_t* input,
              int8_t* output) {
  clamp_quant(params, count, input, output);
}
void clamp_s16(const ClampQuantParams& params, uint32_t count, const int16_t* input,
               int16_t* output) {
  clamp_quant(params, count, input, output);
}

Status clamp_s8_check(const OpContext& ctx) { return clamp_quant_check<int8_t>(ctx); }
Status clamp_s16_check(const OpContext& ctx) { return clamp_quant_check<int16_t>(ctx); }

void clamp_s8_run(const OpContext& ctx) {
  clamp_s8(ctx.params<ClampQuantParams>(), element_count(ctx.input_desc(0)),
           static_cast<const int8_t*>(ctx.input_data(0)), static_cast<int8_t*>(ctx.output_data(0)));
}
void clamp_s16_run(const OpContext& ctx) {
  clamp_s16(ctx.params<ClampQuantParams>(), element_count(ctx.input_desc(0)),
            static_cast<const int16_t*>(ctx.input_data(0)), static_cast<int16_t*>(ctx.output_data(0)));
}

const KernelEntry kClampS8Entry = {clamp_s8_check, clamp_s8_run};
const KernelEntry kClampS16Entry = {clamp_s16_check, clamp_s16_run};

}  // namespace mote
