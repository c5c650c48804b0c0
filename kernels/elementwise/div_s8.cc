// Reference int8 DIV with broadcasting, bit-exact with TensorFlow Lite Micro's quantized
// division (see elementwise.h for the arithmetic and its edge cases).
#include "elementwise/broadcast_walk.h"
#include "elementwise/elementwise.h"
#include "quant/fixed_point.h"
#include "quant/quant_check.h"
#include "quant/quant_math.h"

namespace mote {
namespace {

// TFLite's CountLeadingSignBits: the bits after the sign bit equal to it (31 for 0, -1).
int32_t leading_sign_bits(int32_t x) {
  const uint32_t magnitude = static_cast<uint32_t>(x < 0 ? ~x : x);
  return count_leading_zeros(magnitude) - 1;
}

// gemmlowp's RoundingDivideByPOT for exponent in [0, 63] (elementwise.h: from 32 on, what
// it computes on a Cortex-M).
int32_t rounding_divide_by_pot_wide(int32_t x, int32_t exponent) {
  if (exponent < 32) return rounding_divide_by_pot(x, exponent);
  return x < 0 ? -1 : 1;
}

}  // namespace

int8_t div_s8_value(const QuantMulParams& p, int8_t a, int8_t b) {
  int32_t n = a - p.input1_zero_point;
  int32_t d = b - p.input2_zero_point;
  if (d < 0) {
    n = -n;
    d = -d;
  }
  const int32_t d_headroom = count_leading_zeros(static_cast<uint32_t>(d));  // 32 for d == 0
  const int32_t reciprocal_shift = 31 - d_headroom;
  const uint32_t d_normalized = d_headroom < 32 ? static_cast<uint32_t>(d) << d_headroom : 0u;
  const int32_t reciprocal =
      fixed_point::one_over_one_plus_x_for_x_in_0_1(static_cast<int32_t>(d_normalized - 0x80000000u));
  const int32_t n_headroom = leading_sign_bits(n);
  const int32_t unscaled = saturating_rounding_doubling_high_mul(
      static_cast<int32_t>(static_cast<uint32_t>(n) << n_headroom), reciprocal);
  const int32_t exponent = reciprocal_shift + n_headroom - p.output_shift;
  const int32_t scaled = rounding_divide_by_pot_wide(
      saturating_rounding_doubling_high_mul(unscaled, p.output_multiplier), exponent);
  return static_cast<int8_t>(clamp_i32(wrapping_add(p.output_zero_point, scaled), p.act_min, p.act_max));
}

Status div_s8_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_broadcast_binary(ctx, DType::kInt8, DType::kInt8, sizeof(QuantMulParams)));
  const QuantMulParams& p = ctx.params<QuantMulParams>();
  if (!valid_zero_point<int8_t>(p.input1_zero_point) || !valid_zero_point<int8_t>(p.input2_zero_point) ||
      !valid_zero_point<int8_t>(p.output_zero_point) || !valid_quant_range<int8_t>(p.act_min, p.act_max)) {
    return Status::kBadParams;
  }
  if (p.output_multiplier < 0 || p.output_shift < kDivS8MinShift || p.output_shift > kDivS8MaxShift) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void div_s8_run(const OpContext& ctx) {
  const QuantMulParams& p = ctx.params<QuantMulParams>();
  run_broadcast_binary<int8_t, int8_t>(ctx, [&p](int8_t a, int8_t b) { return div_s8_value(p, a, b); });
}

const KernelEntry kDivS8Entry = {div_s8_check, div_s8_run};

}  // namespace mote
