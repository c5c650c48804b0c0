// Scalar requantization for the __dsp kernel variants, bit-exact with
//   multiply_by_quantized_multiplier(acc, multiplier, shift)        (quant/quant_math.h)
// for every acc, every multiplier except INT32_MIN, and every shift in [kMinShift, kMaxShift].
// The callers fall back to the reference function when a multiplier is INT32_MIN.
//
// Why it is exact. With x = acc << max(shift, 0) (wrapping) and n = max(-shift, 0):
// - SaturatingRoundingDoublingHighMul(x, m) is floor((x*m + 2^30) / 2^31) for every x, m
//   but x == m == INT32_MIN (the nudge 1 - 2^30 with truncation toward zero, for x*m < 0,
//   equals the same floor). When -2^30 < x < 2^30, 2x fits int32 and that floor is
//   SMMULR(2x, m) = floor((2x*m + 2^31) / 2^32): one instruction. Otherwise the portable
//   64-bit form runs (rare: only huge accumulators or large left shifts).
// - On the fast path |x*m| < 2^61 - 2^31, so y = SMMULR(2x, m) lies in [-2^30, 2^30), and
//   RoundingDivideByPOT(y, n) = (y + (2^n >> 1) - [y < 0 and n > 0]) >> n without
//   overflow; [y < 0 and n > 0] is -((y & -n) >> 31).
#pragma once

#include <stdint.h>

#include "isa/dsp.h"
#include "quant/quant_math.h"

namespace mote {

// The per-channel constants of the requantization, derived from (multiplier, shift).
struct RequantDsp {
  int32_t multiplier;
  int32_t left;       // max(shift, 0)
  int32_t right;      // max(-shift, 0)
  int32_t round;      // (1 << right) >> 1
};

inline RequantDsp requant_dsp_prepare(int32_t multiplier, int32_t shift) {
  RequantDsp q;
  q.multiplier = multiplier;
  q.left = shift > 0 ? shift : 0;
  q.right = shift > 0 ? 0 : -shift;
  q.round = static_cast<int32_t>((uint32_t{1} << q.right) >> 1);
  return q;
}

// requant_dsp's fast path for q.left == 0: multiply_by_quantized_multiplier(x,
// q.multiplier, shift) when x is in (-2^30, 2^30); q.multiplier != INT32_MIN.
inline int32_t requant_dsp_unshifted(int32_t x, const RequantDsp& q) {
  const int32_t y = dsp::smmulr(static_cast<int32_t>(static_cast<uint32_t>(x) << 1), q.multiplier);
  const int32_t negative = (y & -q.right) >> 31;  // -1 when y < 0 and right > 0
  return (y + q.round + negative) >> q.right;
}

// requant_dsp's fast path alone: multiply_by_quantized_multiplier(acc, q.multiplier, shift)
// when x = acc << q.left (wrapping) is in (-2^30, 2^30); q.multiplier != INT32_MIN. For
// callers that bound their accumulators beforehand.
inline int32_t requant_dsp_in_range(int32_t acc, const RequantDsp& q) {
  return requant_dsp_unshifted(static_cast<int32_t>(static_cast<uint32_t>(acc) << q.left), q);
}

// multiply_by_quantized_multiplier(acc, q.multiplier, shift); q.multiplier != INT32_MIN.
inline int32_t requant_dsp(int32_t acc, const RequantDsp& q) {
  const int32_t x = static_cast<int32_t>(static_cast<uint32_t>(acc) << q.left);
  if (static_cast<uint32_t>(x) + ((uint32_t{1} << 30) - 1) < (uint32_t{1} << 31) - 1) {
    return requant_dsp_in_range(acc, q);
  }
  return rounding_divide_by_pot(saturating_rounding_doubling_high_mul(x, q.multiplier), q.right);
}

// clamp(wrapping_add(requant, zp), lo, hi) as the reference kernels finish each output.
inline int8_t requant_dsp_output(int32_t acc, const RequantDsp& q, int32_t output_zero_point,
                                 int32_t act_min, int32_t act_max) {
  return static_cast<int8_t>(
      clamp_i32(wrapping_add(requant_dsp(acc, q), output_zero_point), act_min, act_max));
}

// True when no multiplier is INT32_MIN, i.e. requant_dsp() applies to all of them.
inline bool requant_dsp_applies(const int32_t* multipliers, int32_t count) {
  for (int32_t i = 0; i < count; ++i) {
    if (multipliers[i] == INT32_MIN) return false;
  }
  return true;
}

// multiply_by_quantized_multiplier(acc, multiplier, shift) for one (multiplier, shift)
// prepared once: requant_dsp where it applies (multiplier != INT32_MIN), the reference
// function otherwise.
struct Requantizer {
  RequantDsp q;
  int32_t shift;
  bool fast;

  Requantizer(int32_t multiplier, int32_t shift_in)
      : q(requant_dsp_prepare(multiplier, shift_in)), shift(shift_in), fast(multiplier != INT32_MIN) {}
  int32_t operator()(int32_t acc) const {
    return fast ? requant_dsp(acc, q) : multiply_by_quantized_multiplier(acc, q.multiplier, shift);
  }
};

}  // namespace mote
