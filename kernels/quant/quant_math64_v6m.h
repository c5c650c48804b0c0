// The 16x8 requantization for the ARMv6-M (__v6m) kernel variants (int16 activations),
// bit-exact with multiply_by_quantized_multiplier64(acc, multiplier, shift)
// (quant/quant_math.h) for every int64 acc and every shift in [kMinShift, kMaxShift64],
// with 32x32->32 multiplies only when acc fits int32 (the common case: a window's sum
// plus a small bias), and the reference itself otherwise.
//
// Why it is exact. The reference computes R = low 32 bits of floor((x * r + 2^(t-1)) /
// 2^t) with r the multiplier reduced to 16 bits (r in [-2^15, 2^15 - 1]) and t = 15 -
// shift in [1, 46]. For an int32 x split as x = xh * 2^16 + xl (xh = x >> 16 in [-2^15,
// 2^15), xl = x & 0xFFFF), P = xh * r (|P| <= 2^30) and Q = xl * r (Q in
// [-(2^16 - 1) * 2^15, (2^16 - 1) * (2^15 - 1)]) both fit int32, and x * r = P * 2^16 +
// Q exactly. Then
// - t <= 16: P * 2^16 is a multiple of 2^t, so floor((P * 2^16 + Q + 2^(t-1)) / 2^t) =
//   P * 2^(16-t) + ((Q + 2^(t-1)) >> t); Q + 2^(t-1) <= Q + 2^15 fits int32, and the
//   sum is taken mod 2^32, which is the reference's truncation.
// - t > 16: 2^(t-1) is a multiple of 2^16, so the same floor is
//   (P + (Q >> 16) + 2^(t-17)) >> (t - 16), whose sum lies within +-(2^30 + 2^15 + 2^29)
//   (no overflow; the value fits int32, nothing to truncate).
#pragma once

#include <stdint.h>

#include "quant/quant_math.h"

namespace mote {

// multiply_by_quantized_multiplier64(x, multiplier, shift) for an x that fits int32:
// about 20 Thumb-1 instructions, two MULS.
inline int32_t requant64_v6m(int32_t x, int32_t multiplier, int32_t shift) {
  const int32_t r = multiplier < 0x7FFF0000 ? ((multiplier + (1 << 15)) >> 16) : 0x7FFF;
  const int32_t t = 15 - shift;
  const int32_t p = (x >> 16) * r;
  const int32_t lo = static_cast<int32_t>(static_cast<uint32_t>(x) & 0xFFFFu) * r;
  if (t <= 16) {
    return static_cast<int32_t>((static_cast<uint32_t>(p) << (16 - t)) +
                                static_cast<uint32_t>((lo + (1 << (t - 1))) >> t));
  }
  return (p + (lo >> 16) + (1 << (t - 17))) >> (t - 16);
}

// The reference, kept out of line: the callers' loops then hold no 64-bit values.
__attribute__((noinline, cold)) inline int32_t requant64_v6m_reference(int64_t acc, int32_t multiplier,
                                                                       int32_t shift) {
  return multiply_by_quantized_multiplier64(acc, multiplier, shift);
}

// multiply_by_quantized_multiplier64(sum + bias, multiplier, shift) for an int32 sum and
// an int64 bias (wrapping add, as the reference): the 32-bit form when bias and the sum
// fit int32, else the reference.
inline int32_t requant64_v6m_biased(int32_t sum, int64_t bias, int32_t multiplier, int32_t shift) {
  const int32_t bias_low = static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(bias)));
  int32_t x;
  if (static_cast<int64_t>(bias_low) != bias || __builtin_add_overflow(sum, bias_low, &x)) {
    return requant64_v6m_reference(wrapping_add64(sum, bias), multiplier, shift);
  }
  return requant64_v6m(x, multiplier, shift);
}

// multiply_by_quantized_multiplier64(acc, multiplier, shift) for every int64 acc: the
// 32-bit form when acc fits int32, else the reference (a long multiply call).
inline int32_t requant64_v6m_any(int64_t acc, int32_t multiplier, int32_t shift) {
  const int32_t low = static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(acc)));
  if (static_cast<int64_t>(low) == acc) return requant64_v6m(low, multiplier, shift);
  return requant64_v6m_reference(acc, multiplier, shift);
}

// Longest run of int16 x int8 products (each below 2^22 in magnitude) whose int32 sum is
// exact: 511 * 2^22 < 2^31.
inline constexpr int32_t kExactTaps16x8V6m = 511;

}  // namespace mote
