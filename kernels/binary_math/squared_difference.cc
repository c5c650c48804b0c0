// Reference SQUARED_DIFFERENCE on float32, int32, int8 and int16 (binary_math.h), the
// quantized ones bit-exact with TFLM's quantized SquaredDifference.
#include "binary_math/binary_math.h"
#include "elementwise/broadcast_walk.h"
#include "quant/quant_check.h"
#include "quant/quant_math.h"

namespace mote {
namespace {

template <typename T, int32_t kLeftShift>
void squared_difference_quant(const OpContext& ctx) {
  const SquaredDifferenceQuantParams& p = ctx.params<SquaredDifferenceQuantParams>();
  run_broadcast_binary<T, T>(ctx, [&](T a, T b) {
    const int32_t a_scaled = multiply_by_quantized_multiplier(
        wrapping_sub(a, p.input1_zero_point) * (1 << kLeftShift), p.input1_multiplier, p.input1_shift);
    const int32_t b_scaled = multiply_by_quantized_multiplier(
        wrapping_sub(b, p.input2_zero_point) * (1 << kLeftShift), p.input2_multiplier, p.input2_shift);
    const int32_t d = wrapping_sub(a_scaled, b_scaled);
    const int32_t out = wrapping_add(
        multiply_by_quantized_multiplier(wrapping_mul(d, d), p.output_multiplier, p.output_shift),
        p.output_zero_point);
    return static_cast<T>(clamp_i32(out, IntRange<T>::kMin, IntRange<T>::kMax));
  });
}

template <typename T>
Status squared_difference_quant_check(const OpContext& ctx) {
  constexpr DType kDType = IntRange<T>::kDType;
  MOTE_RETURN_IF_ERROR(check_broadcast_binary(ctx, kDType, kDType, sizeof(SquaredDifferenceQuantParams)));
  const SquaredDifferenceQuantParams& p = ctx.params<SquaredDifferenceQuantParams>();
  if (!valid_zero_point<T>(p.input1_zero_point) || !valid_zero_point<T>(p.input2_zero_point) ||
      !valid_zero_point<T>(p.output_zero_point)) {
    return Status::kBadParams;
  }
  const int32_t input_shifts[2] = {p.input1_shift, p.input2_shift};
  if (!shifts_in_range(input_shifts, 2, kMinShift, 0) || !valid_shift(p.output_shift)) return Status::kBadParams;
  return Status::kOk;
}

}  // namespace

Status squared_difference_f32_check(const OpContext& ctx) {
  return check_broadcast_binary(ctx, DType::kFloat32, DType::kFloat32, 0);
}
Status squared_difference_s32_check(const OpContext& ctx) {
  return check_broadcast_binary(ctx, DType::kInt32, DType::kInt32, 0);
}
Status squared_difference_s8_check(const OpContext& ctx) { return squared_difference_quant_check<int8_t>(ctx); }
Status squared_difference_s16_check(const OpContext& ctx) { return squared_difference_quant_check<int16_t>(ctx); }

void squared_difference_f32_run(const OpContext& ctx) {
  run_broadcast_binary<float, float>(ctx, [](float a, float b) {
    const float d = a - b;
    return d * d;
  });
}
void squared_difference_s32_run(const OpContext& ctx) {
  run_broadcast_binary<int32_t, int32_t>(ctx, [](int32_t a, int32_t b) {
    const int32_t d = wrapping_sub(a, b);
    return wrapping_mul(d, d);
  });
}
void squared_difference_s8_run(const OpContext& ctx) {
  squared_difference_quant<int8_t, kSquaredDifferenceLeftShiftS8>(ctx);
}
void squared_difference_s16_run(const OpContext& ctx) {
  squared_difference_quant<int16_t, kSquaredDifferenceLeftShiftS16>(ctx);
}

const KernelEntry kSquaredDifferenceF32Entry = {squared_difference_f32_check, squared_difference_f32_run};
const KernelEntry kSquaredDifferenceS8Entry = {squared_difference_s8_check, squared_difference_s8_run};
const KernelEntry kSquaredDifferenceS16Entry = {squared_difference_s16_check, squared_difference_s16_run};
const KernelEntry kSquaredDifferenceS32Entry = {squared_difference_s32_check, squared_difference_s32_run};

}  // namespace mote
