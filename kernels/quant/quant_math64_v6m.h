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

#include "isa/v6m.h"
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

// clamp(requant64_v6m(x, multiplier, shift), lo, hi), the 16x8 kernels' output step for
// an x that fits int32. On ARMv6-M one block of about 30 Thumb-1 instructions; the
// multiplier's reduction (multiplier + 2^15) >> 16 saturates to 0x7FFF exactly where the
// add overflows (multiplier >= 0x7FFF8000; below that, from 0x7FFF0000 on, it gives
// 0x7FFF anyway), so the overflow flag picks it.
inline int16_t requant64_v6m_s16(int32_t x, int32_t multiplier, int32_t shift, int32_t lo, int32_t hi) {
#if MOTE_V6M_ASM
  int32_t p, t;
  __asm__(
      ".syntax unified\n\t"
      "movs %[t], #1\n\t"
      "lsls %[t], %[t], #15\n\t"
      "adds %[m], %[m], %[t]\n\t"
      "asrs %[m], %[m], #16\n\t"  // leaves V alone
      "bvc 1f\n\t"
      "mvns %[m], %[m]\n"  // -2^15 -> 2^15 - 1: the saturated reduction
      "1:\n\t"
      "asrs %[p], %[x], #16\n\t"
      "muls %[p], %[m]\n\t"  // P = (x >> 16) * r
      "uxth %[x], %[x]\n\t"
      "muls %[x], %[m]\n\t"  // Q = (x & 0xFFFF) * r
      "negs %[s], %[s]\n\t"
      "adds %[s], #15\n\t"  // t = 15 - shift
      "cmp %[s], #16\n\t"
      "bgt 2f\n\t"
      "movs %[m], #1\n\t"  // t <= 16: (P << (16 - t)) + ((Q + 2^(t-1)) >> t)
      "lsls %[m], %[s]\n\t"
      "lsrs %[m], %[m], #1\n\t"
      "adds %[x], %[x], %[m]\n\t"
      "asrs %[x], %[s]\n\t"
      "movs %[m], #16\n\t"
      "subs %[m], %[m], %[s]\n\t"
      "lsls %[p], %[m]\n\t"
      "adds %[x], %[x], %[p]\n\t"
      "b 3f\n"
      "2:\n\t"
      "asrs %[x], %[x], #16\n\t"  // t > 16: (P + (Q >> 16) + 2^(t-17)) >> (t - 16)
      "adds %[x], %[x], %[p]\n\t"
      "subs %[s], #16\n\t"
      "movs %[m], #1\n\t"
      "lsls %[m], %[s]\n\t"
      "lsrs %[m], %[m], #1\n\t"
      "adds %[x], %[x], %[m]\n\t"
      "asrs %[x], %[s]\n"
      "3:\n\t"
      "cmp %[x], %[lo]\n\t"
      "bge 4f\n\t"
      "mov %[x], %[lo]\n"
      "4:\n\t"
      "cmp %[x], %[hi]\n\t"
      "ble 5f\n\t"
      "mov %[x], %[hi]\n"
      "5:\n\t"
      : [x] "+l"(x), [m] "+l"(multiplier), [s] "+l"(shift), [p] "=&l"(p), [t] "=&l"(t)
      : [lo] "h"(lo), [hi] "h"(hi)
      : "cc");
  return static_cast<int16_t>(x);
#else
  return static_cast<int16_t>(clamp_i32(requant64_v6m(x, multiplier, shift), lo, hi));
#endif
}

// The reference, kept out of line: the callers' loops then hold no 64-bit values.
__attribute__((noinline, cold)) inline int32_t requant64_v6m_reference(int64_t acc, int32_t multiplier,
                                                                       int32_t shift) {
  return multiply_by_quantized_multiplier64(acc, multiplier, shift);
}

// The 16x8 kernels' output for an exact int32 window sum and an optional int64 bias:
//   clamp(multiply_by_quantized_multiplier64(sum + *bias, multiplier, shift), lo, hi)
// (the add wrapping, as the reference's) by requant64_v6m_s16 when the bias and the sum
// fit int32, else by the reference.
inline int16_t requant64_v6m_output(int32_t sum, const int64_t* bias, int32_t multiplier, int32_t shift,
                                    int32_t lo, int32_t hi) {
  int32_t x = sum;
  if (bias != nullptr) {
    const int64_t b = *bias;
    const int32_t b_low = static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(b)));
    if (static_cast<int64_t>(b_low) != b || __builtin_add_overflow(sum, b_low, &x)) {
      return static_cast<int16_t>(
          clamp_i32(requant64_v6m_reference(wrapping_add64(sum, b), multiplier, shift), lo, hi));
    }
  }
  return requant64_v6m_s16(x, multiplier, shift, lo, hi);
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
