// Reference quantized ABS (int8, int16) and RSQRT (int8), bit-exact with TFLite's
// AbsEvalQuantized and RsqrtEvalQuantized (unary.h gives the arithmetic).
#include "kernel_util.h"
#include "quant/fixed_point.h"
#include "quant/quant_check.h"
#include "quant/quant_math.h"
#include "unary/unary.h"

namespace mote {
namespace {

template <typename T>
void abs_quant(const AbsQuantParams& p, uint32_t count, const T* input, T* output) {
  for (uint32_t i = 0; i < count; ++i) {
    const int32_t centred = static_cast<int32_t>(input[i]) - p.input_zero_point;
    const int32_t v = centred < 0 ? -centred : centred;  // |int8 or int16 - zp| fits
    if (p.mode == static_cast<int32_t>(AbsMode::kAbsUnquantized)) {
      output[i] = static_cast<T>(static_cast<uint32_t>(v));  // the low bits: |-32768| wraps
      continue;
    }
    const int32_t scaled = p.mode == static_cast<int32_t>(AbsMode::kAbsRescale)
                               ? multiply_by_quantized_multiplier(v, p.multiplier, p.shift)
                               : v;
    output[i] = static_cast<T>(
        clamp_i32(wrapping_add(scaled, p.output_zero_point), IntRange<T>::kMin, IntRange<T>::kMax));
  }
}

// One input and one output of T of the same shape, params of sizeof(P).
template <typename T, typename P>
Status check_quant_unary(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 1, 1, 1));
  if (ctx.params_bytes() != sizeof(P)) return Status::kBadParams;
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  constexpr DType kDType = IntRange<T>::kDType;
  if (!has_dtype(in, kDType) || !has_dtype(out, kDType) || !same_shape(in, out)) return Status::kBadParams;
  return Status::kOk;
}

template <typename T>
Status abs_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR((check_quant_unary<T, AbsQuantParams>(ctx)));
  const AbsQuantParams& p = ctx.params<AbsQuantParams>();
  if (!valid_zero_point<T>(p.input_zero_point) || !valid_zero_point<T>(p.output_zero_point)) {
    return Status::kBadParams;
  }
  switch (static_cast<AbsMode>(p.mode)) {
    case AbsMode::kAbsSameScale: return Status::kOk;
    case AbsMode::kAbsRescale: return valid_shift(p.shift) ? Status::kOk : Status::kBadParams;
    case AbsMode::kAbsUnquantized:
      return sizeof(T) == 2 && p.input_zero_point == 0 && p.output_zero_point == 0 ? Status::kOk : Status::kBadParams;
  }
  return Status::kBadParams;
}

}  // namespace

void abs_s8(const AbsQuantParams& params, uint32_t count, const int8_t* input, int8_t* output) {
  abs_quant(params, count, input, output);
}
void abs_s16(const AbsQuantParams& params, uint32_t count, const int16_t* input, int16_t* output) {
  abs_quant(params, count, input, output);
}

void rsqrt_s8(const RsqrtQuantParams& p, uint32_t count, const int8_t* input, int8_t* output) {
  for (uint32_t i = 0; i < count; ++i) {
    const int32_t v = static_cast<int32_t>(input[i]) - p.input_zero_point;
    if (v <= 0) {
      output[i] = 127;
      continue;
    }
    int32_t inv_sqrt_multiplier = 0, inv_sqrt_shift = 0;
    fixed_point::inv_sqrt_quantized_multiplier_exp(v, &inv_sqrt_multiplier, &inv_sqrt_shift);
    const int32_t data = multiply_by_quantized_multiplier(1, inv_sqrt_multiplier, inv_sqrt_shift + kRsqrtShift);
    const int32_t out = wrapping_add(multiply_by_quantized_multiplier(data, p.multiplier, p.shift - kRsqrtShift),
                                     p.output_zero_point);
    output[i] = static_cast<int8_t>(clamp_i32(out, -128, 127));
  }
}

Status abs_s8_check(const OpContext& ctx) { return abs_check<int8_t>(ctx); }
Status abs_s16_check(const OpContext& ctx) { return abs_check<int16_t>(ctx); }

Status rsqrt_s8_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR((check_quant_unary<int8_t, RsqrtQuantParams>(ctx)));
  const RsqrtQuantParams& p = ctx.params<RsqrtQuantParams>();
  if (!valid_zero_point<int8_t>(p.input_zero_point) || !valid_zero_point<int8_t>(p.output_zero_point)) {
    return Status::kBadParams;
  }
  // shift - 20 as an int32 difference: a shift near INT32_MIN must not wrap into range.
  if (p.shift < kMinShift + kRsqrtShift || p.shift > kMaxShift + kRsqrtShift) return Status::kBadParams;
  return Status::kOk;
}

void abs_s8_run(const OpContext& ctx) {
  abs_s8(ctx.params<AbsQuantParams>(), element_count(ctx.input_desc(0)),
         static_cast<const int8_t*>(ctx.input_data(0)), static_cast<int8_t*>(ctx.output_data(0)));
}
void abs_s16_run(const OpContext& ctx) {
  abs_s16(ctx.params<AbsQuantParams>(), element_count(ctx.input_desc(0)),
          static_cast<const int16_t*>(ctx.input_data(0)), static_cast<int16_t*>(ctx.output_data(0)));
}
void rsqrt_s8_run(const OpContext& ctx) {
  rsqrt_s8(ctx.params<RsqrtQuantParams>(), element_count(ctx.input_desc(0)),
           static_cast<const int8_t*>(ctx.input_data(0)), static_cast<int8_t*>(ctx.output_data(0)));
}

const KernelEntry kAbsS8Entry = {abs_s8_check, abs_s8_run};
const KernelEntry kAbsS16Entry = {abs_s16_check, abs_s16_run};
const KernelEntry kRsqrtS8Entry = {rsqrt_s8_check, rsqrt_s8_run};

}  // namespace mote
