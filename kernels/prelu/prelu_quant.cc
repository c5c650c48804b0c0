// Reference int8 and int16 PReLU, bit-exact with TFLite's reference_ops::BroadcastPrelu4DSlow
// (int8 alpha for both, as TensorFlow Lite Micro takes it).
#include "prelu/prelu.h"
#include "prelu/prelu_walk.h"
#include "quant/quant_check.h"
#include "quant/quant_math.h"

namespace mote {
namespace {

template <typename T>
Status prelu_quant_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 2, 2, 1));
  if (ctx.params_bytes() != sizeof(PreluQuantParams)) return Status::kBadParams;
  constexpr DType kDType = IntRange<T>::kDType;
  if (!has_dtype(ctx.input_desc(0), kDType) || !has_dtype(ctx.input_desc(1), DType::kInt8) ||
      !has_dtype(ctx.output_desc(0), kDType)) {
    return Status::kBadParams;
  }
  BroadcastShape shape;
  if (!prelu_walk::valid_shapes(ctx, &shape)) return Status::kBadParams;
  const PreluQuantParams& p = ctx.params<PreluQuantParams>();
  if (!valid_zero_point<T>(p.input_zero_point) || !valid_zero_point<int8_t>(p.alpha_zero_point) ||
      !valid_zero_point<T>(p.output_zero_point) || !valid_shift(p.identity_shift) ||
      !valid_shift(p.alpha_shift)) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

template <typename T>
void prelu_quant_run(const OpContext& ctx) {
  BroadcastShape shape;
  (void)prelu_walk::valid_shapes(ctx, &shape);  // check() accepted the same descriptors
  const PreluQuantParams& p = ctx.params<PreluQuantParams>();
  prelu_walk::walk(shape, static_cast<const T*>(ctx.input_data(0)), static_cast<const int8_t*>(ctx.input_data(1)),
                   static_cast<T*>(ctx.output_data(0)), [&p](T x, int8_t alpha) {
                     const int32_t v = x - p.input_zero_point;
                     const int32_t y =
                         v >= 0 ? multiply_by_quantized_multiplier(v, p.identity_multiplier, p.identity_shift)
                                : multiply_by_quantized_multiplier(v * (alpha - p.alpha_zero_point),
                                                                   p.alpha_multiplier, p.alpha_shift);
                     return static_cast<T>(clamp_i32(wrapping_add(y, p.output_zero_point), IntRange<T>::kMin,
                                                     IntRange<T>::kMax));
                   });
}

}  // namespace

Status prelu_s8_check(const OpContext& ctx) { return prelu_quant_check<int8_t>(ctx); }
Status prelu_s16_check(const OpContext& ctx) { return prelu_quant_check<int16_t>(ctx); }
void prelu_s8_run(const OpContext& ctx) { prelu_quant_run<int8_t>(ctx); }
void prelu_s16_run(const OpContext& ctx) { prelu_quant_run<int16_t>(ctx); }

const KernelEntry kPreluS8Entry = {prelu_s8_check, prelu_s8_run};
const KernelEntry kPreluS16Entry = {prelu_s16_check, prelu_s16_run};

}  // namespace mote
