// Requantization of four int32 accumulators at once with Helium operations
// (kernels/isa/mve.h), bit-exact with the scalar
//   clamp(wrapping_add(multiply_by_quantized_multiplier(acc, m, shift), zp), lo, hi)
// of quant/quant_math.h for every shift in [kMinShift, kMaxShift]:
// - x << max(shift, 0) wraps (VSHL), as the scalar form's uint32 shift;
// - VQRDMULH is SaturatingRoundingDoublingHighMul: both are floor((x*m + 2^30) / 2^31)
//   (the scalar nudge 1 - 2^30 with truncation toward zero equals it for x*m < 0), and
//   both saturate only INT32_MIN * INT32_MIN to INT32_MAX;
// - RoundingDivideByPOT rounds half away from zero, VRSHL rounds half up. For x < 0 and
//   n = -min(shift, 0) > 0, gemmlowp rounds up iff (x mod 2^n) >= 2^(n-1) + 1, which is
//   VRSHL of x - 1: (x - 1 + 2^(n-1)) >> n. The -1 is a saturating add of
//   (x & -n) >> 31 (-1 exactly when x < 0 and n > 0); at x == INT32_MIN it saturates and
//   both forms give INT32_MIN >> n.
#pragma once

#include <stdint.h>

#include "isa/mve.h"

namespace mote {

// Per-lane multipliers and shifts, prepared once per group of four channels.
struct RequantS8x4 {
  mve::int32x4_t multiplier;
  mve::int32x4_t left;        // max(shift, 0)
  mve::int32x4_t neg_right;   // -max(-shift, 0) = min(shift, 0)
};

inline RequantS8x4 requant_s8x4_prepare(mve::int32x4_t multiplier, mve::int32x4_t shift) {
  const mve::int32x4_t zero = mve::vdupq_n_s32(0);
  return RequantS8x4{multiplier, mve::vmaxq_s32(shift, zero), mve::vminq_s32(shift, zero)};
}

// multiply_by_quantized_multiplier(acc[i], m[i], shift[i]) of the four lanes.
inline mve::int32x4_t requant_s32x4_scaled(mve::int32x4_t acc, const RequantS8x4& q) {
  const mve::int32x4_t shifted = mve::vshlq_s32(acc, q.left);
  const mve::int32x4_t high = mve::vqrdmulhq_s32(shifted, q.multiplier);
  const mve::int32x4_t fixup = MOTE_MVE_VSHRQ_N_S32(mve::vandq_s32(high, q.neg_right), 31);
  return mve::vrshlq_s32(mve::vqaddq_s32(high, fixup), q.neg_right);
}

// The four requantized values (in [lo, hi]) in the low bytes of the lanes.
inline mve::int32x4_t requant_s8x4(mve::int32x4_t acc, const RequantS8x4& q,
                                   mve::int32x4_t output_zero_point, mve::int32x4_t lo,
                                   mve::int32x4_t hi) {
  const mve::int32x4_t out = mve::vaddq_s32(requant_s32x4_scaled(acc, q), output_zero_point);
  return mve::vminq_s32(mve::vmaxq_s32(out, lo), hi);
}

// multiply_by_quantized_multiplier64 (quant/quant_math.h) of int64 accumulators that fit
// in int32, four at a time, for shift < 0 (the 16x8 __mve variants): with reduced the
// multiplier reduced to 16 bits as there, and vector_multiplier = reduced << 16
// (requant64_vector_multiplier),
//   multiply_by_quantized_multiplier64(acc, m, shift) == VRSHL(VQDMULH(acc, reduced << 16), shift)
// when |acc| < 2^31: VQDMULH gives q = floor(acc * reduced / 2^15) (it saturates only
// when both operands are INT32_MIN), and with total = 15 - shift >= 16 and
// acc * reduced = 2^15 q + s (0 <= s < 2^15),
//   floor((2^15 q + s + 2^(total-1)) / 2^total) == floor((q + 2^(-shift-1)) / 2^-shift),
// VRSHL's rounding shift of q by -shift; the result fits in int32, so the reference's
// truncation changes nothing. (With shift == 0 the rounding bit is below q: not covered.)
inline int32_t requant64_vector_multiplier(int32_t multiplier) {
  const int32_t reduced = multiplier < 0x7FFF0000 ? ((multiplier + (1 << 15)) >> 16) : 0x7FFF;
  return static_cast<int32_t>(static_cast<uint32_t>(reduced) << 16);
}
inline mve::int32x4_t requant64_x4(mve::int32x4_t acc, mve::int32x4_t vector_multiplier,
                                   mve::int32x4_t shift) {
  return mve::vrshlq_s32(mve::vqdmulhq_s32(acc, vector_multiplier), shift);
}

}  // namespace mote
