// TFLite's int8 DIV (reference_ops::DivElementwise with GetReciprocal,
// CountLeadingSignBits and gemmlowp's RoundingDivideByPOT), transcribed for the tests of
// div_s8 on the 128-bit model of quant_test_util.h and gemmlowp_ref.h's reciprocal.
// Where TFLite shifts by 32 or more (RoundingDivideByPOT's exponent, or the reciprocal of
// a zero divisor) this computes what the Cortex-M does: a 32-bit mask built from the
// 64-bit 2^e - 1, and an arithmetic shift that fills with the sign bit.
#pragma once

#include <stdint.h>

#include "gemmlowp_ref.h"
#include "quant_test_util.h"

namespace mote::testing {

struct DivS8Ref {
  int32_t input1_zero_point, input2_zero_point, output_zero_point;
  int32_t multiplier, shift;
  int32_t act_min, act_max;
};

inline int8_t ref_div_s8(const DivS8Ref& p, int8_t a, int8_t b) {
  int32_t n = a - p.input1_zero_point;
  int32_t d = b - p.input2_zero_point;
  if (d < 0) {
    n = -n;
    d = -d;
  }
  // GetReciprocal(d, 31): headroom_plus_one leading zeros (32 for 0).
  int headroom_plus_one = 32;
  while (headroom_plus_one > 0 && (static_cast<int64_t>(d) >> (32 - headroom_plus_one)) != 0) --headroom_plus_one;
  const int recip_shift = 31 - headroom_plus_one;
  const int32_t shifted_sum_minus_one =
      wrap32((static_cast<i128>(d) << headroom_plus_one) - (static_cast<i128>(1) << 31));
  const int32_t inv = gemmlowp_ref::one_over_one_plus_x(gemmlowp_ref::Fx<0>{shifted_sum_minus_one}).raw;
  // CountLeadingSignBits(n): the largest h with n * 2^h still an int32 (31 for 0).
  int headroom = 0;
  while (headroom < 31) {
    const i128 next = static_cast<i128>(n) * (static_cast<i128>(1) << (headroom + 1));
    if (next > INT32_MAX || next < INT32_MIN) break;
    ++headroom;
  }
  const int32_t unscaled = ref_srdhm(wrap32(static_cast<i128>(n) * (static_cast<i128>(1) << headroom)), inv);
  const int total_shift = p.shift - recip_shift - headroom;
  const int32_t x = ref_srdhm(unscaled, p.multiplier);
  // RoundingDivideByPOT(x, -total_shift), gemmlowp's form.
  const int e = -total_shift;
  const int32_t mask = wrap32((static_cast<i128>(1) << e) - 1);
  const int32_t remainder = x & mask;
  const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  const int32_t shifted = e >= 32 ? (x < 0 ? -1 : 0) : static_cast<int32_t>(floor_div_pow2(x, e));
  const int32_t result = shifted + (remainder > threshold ? 1 : 0);
  return static_cast<int8_t>(ref_clamp(static_cast<int64_t>(p.output_zero_point) + result, p.act_min, p.act_max));
}

}  // namespace mote::testing
