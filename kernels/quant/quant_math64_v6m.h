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

// The reference's multiplier reduced to 16 bits, r in [-2^15, 2^15 - 1].
inline int32_t requant64_v6m_reduce(int32_t multiplier) {
  return multiplier < 0x7FFF0000 ? ((multiplier + (1 << 15)) >> 16) : 0x7FFF;
}

// multiply_by_quantized_multiplier64(x, multiplier, shift) for an x that fits int32,
// given r = requant64_v6m_reduce(multiplier) and t = 15 - shift.
inline int32_t requant64_v6m_reduced(int32_t x, int32_t r, int32_t t) {
  const int32_t p = (x >> 16) * r;
  const int32_t lo = static_cast<int32_t>(static_cast<uint32_t>(x) & 0xFFFFu) * r;
  if (t <= 16) {
    return static_cast<int32_t>((static_cast<uint32_t>(p) << (16 - t)) +
                                static_cast<uint32_t>((lo + (1 << (t - 1))) >> t));
  }
  return (p + (lo >> 16) + (1 << (t - 17))) >> (t - 16);
}

// multiply_by_quantized_multiplier64(x, multiplier, shift) for an x that fits int32:
// about 20 Thumb-1 instructions, two MULS.
inline int32_t requant64_v6m(int32_t x, int32_t multiplier, int32_t shift) {
  return requant64_v6m_reduced(x, requant64_v6m_reduce(multiplier), 15 - shift);
}

// clamp(requant64_v6m_reduced(x, r, t), lo, hi), the 16x8 kernels' output step for an x
// that fits int32 (r = requant64_v6m_reduce(multiplier), t = 15 - shift in [1, 46]). On
// ARMv6-M one block of about 25 Thumb-1 instructions.
inline int16_t requant64_v6m_s16_reduced(int32_t x, int32_t r, int32_t t, int32_t lo, int32_t hi) {
#if MOTE_V6M_ASM
  int32_t p;
  __asm__(
      ".syntax unified\n\t"
      "asrs %[p], %[x], #16\n\t"
      "muls %[p], %[r]\n\t"  // P = (x >> 16) * r
      "uxth %[x], %[x]\n\t"
      "muls %[x], %[r]\n\t"  // Q = (x & 0xFFFF) * r
      "cmp %[t], #16\n\t"
      "bgt 2f\n\t"
      "movs %[r], #1\n\t"  // t <= 16: (P << (16 - t)) + ((Q + 2^(t-1)) >> t)
      "lsls %[r], %[t]\n\t"
      "lsrs %[r], %[r], #1\n\t"
      "adds %[x], %[x], %[r]\n\t"
      "asrs %[x], %[t]\n\t"
      "movs %[r], #16\n\t"
      "subs %[r], %[r], %[t]\n\t"
      "lsls %[p], %[r]\n\t"
      "adds %[x], %[x], %[p]\n\t"
      "b 3f\n"
      "2:\n\t"
      "asrs %[x], %[x], #16\n\t"  // t > 16: (P + (Q >> 16) + 2^(t-17)) >> (t - 16)
      "adds %[x], %[x], %[p]\n\t"
      "subs %[t], #16\n\t"
      "movs %[r], #1\n\t"
      "lsls %[r], %[t]\n\t"
      "lsrs %[r], %[r], #1\n\t"
      "adds %[x], %[x], %[r]\n\t"
      "asrs %[x], %[t]\n"
      "3:\n\t"
      "cmp %[x], %[lo]\n\t"
      "bge 4f\n\t"
      "mov %[x], %[lo]\n"
      "4:\n\t"
      "cmp %[x], %[hi]\n\t"
      "ble 5f\n\t"
      "mov %[x], %[hi]\n"
      "5:\n\t"
      : [x] "+l"(x), [r] "+l"(r), [t] "+l"(t), [p] "=&l"(p)
      : [lo] "h"(lo), [hi] "h"(hi)
      : "cc");
  return static_cast<int16_t>(x);
#else
  return static_cast<int16_t>(clamp_i32(requant64_v6m_reduced(x, r, t), lo, hi));
#endif
}

// clamp(requant64_v6m(x, multiplier, shift), lo, hi) for an x that fits int32.
inline int16_t requant64_v6m_s16(int32_t x, int32_t multiplier, int32_t shift, int32_t lo, int32_t hi) {
  return requant64_v6m_s16_reduced(x, requant64_v6m_reduce(multiplier), 15 - shift, lo, hi);
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

// The layer-wide fast form of the 16x8 output step. When a channel's window sums x are
// bounded, |x| <= 2^15 * sum|w|, and that bound plus |bias| is at most 2^31, and its
// shift is <= -1 (t = 15 - shift in [16, 46]), the bias folds into one constant:
//   C = bias * r + 2^(t-1) = Ch * 2^16 + Cl  (0 <= Cl < 2^16),
// and with x * r = P * 2^16 + Q (P = (x >> 16) * r, Q = (x & 0xFFFF) * r as above)
//   V = floor(((x + bias) * r + 2^(t-1)) / 2^16) = P + Ch + ((Q + Cl) >> 16),
//   result = V >> (t - 16).
// Q + Cl stays within int32 (Q <= 2^31 - 2^16 - 2^15 + 1, Cl < 2^16); |x + bias| <= 2^31
// < 2^31 bounds |V| below 2^30 + 2^29, so the wrapping sum of P, Ch and the bracket is V and
// the result needs no truncation: the reference's value, without a bias add per output.
struct Requant64V6mFast {
  int32_t reduced;  // r
  int32_t c_low;    // Cl
  int32_t c_high;   // Ch
  int32_t s;        // t - 16, in [0, 30]
};

// Whether the fast form applies to a channel (multiplier, shift, bias) whose window sums
// are bounded by 2^15 * abs_weight_sum; if so *out is its constants.
inline bool requant64_v6m_fast_channel(int32_t multiplier, int32_t shift, int64_t bias, uint32_t abs_weight_sum,
                                       Requant64V6mFast* out) {
  if (shift > -1 || shift < kMinShift) return false;
  const int64_t limit = (int64_t{1} << 31) - 1;  // |x + bias| and |x| <= 2^31 - 1
  if (bias < -limit || bias > limit) return false;
  if (int64_t{abs_weight_sum} * 32768 + (bias < 0 ? -bias : bias) > limit) return false;
  const int32_t r = requant64_v6m_reduce(multiplier);
  const int32_t t = 15 - shift;
  const int64_t c = bias * r + (int64_t{1} << (t - 1));
  out->reduced = r;
  out->c_low = static_cast<int32_t>(c & 0xFFFF);
  out->c_high = static_cast<int32_t>((c - (c & 0xFFFF)) / 65536);
  out->s = t - 16;
  return true;
}

// clamp(multiply_by_quantized_multiplier64(x + bias, multiplier, shift), lo, hi) for a
// window sum x of the channel whose constants requant64_v6m_fast_channel made at
// ch[kIndex] (kIndex in [0, 6]: immediate load offsets). On ARMv6-M 13 Thumb-1
// instructions and the clamp.
template <int32_t kIndex = 0>
inline int32_t requant64_v6m_fast(int32_t x, const Requant64V6mFast* ch, int32_t lo, int32_t hi) {
  static_assert(kIndex >= 0 && kIndex <= 6, "LDR immediate offsets reach 124 bytes");
#if MOTE_V6M_ASM
  int32_t p, r;
  __asm__(
      ".syntax unified\n\t"
      "ldr %[r], [%[ch], %[o_r]]\n\t"
      "asrs %[p], %[x], #16\n\t"
      "muls %[p], %[r]\n\t"  // P
      "uxth %[x], %[x]\n\t"
      "muls %[x], %[r]\n\t"  // Q
      "ldr %[r], [%[ch], %[o_cl]]\n\t"
      "adds %[x], %[x], %[r]\n\t"  // Q + Cl
      "asrs %[x], %[x], #16\n\t"
      "adds %[x], %[x], %[p]\n\t"
      "ldr %[r], [%[ch], %[o_ch]]\n\t"
      "adds %[x], %[x], %[r]\n\t"  // V
      "ldr %[r], [%[ch], %[o_s]]\n\t"
      "asrs %[x], %[r]\n\t"
      "cmp %[x], %[lo]\n\t"
      "bge 1f\n\t"
      "mov %[x], %[lo]\n"
      "1:\n\t"
      "cmp %[x], %[hi]\n\t"
      "ble 2f\n\t"
      "mov %[x], %[hi]\n"
      "2:\n\t"
      : [x] "+l"(x), [p] "=&l"(p), [r] "=&l"(r)
      : [ch] "l"(ch), [lo] "h"(lo), [hi] "h"(hi), [o_r] "i"(16 * kIndex), [o_cl] "i"(16 * kIndex + 4),
        [o_ch] "i"(16 * kIndex + 8), [o_s] "i"(16 * kIndex + 12)
      : "cc");
  return x;
#else
  const Requant64V6mFast& q = ch[kIndex];
  const int32_t r = q.reduced;
  const uint32_t p = static_cast<uint32_t>((x >> 16) * r);
  const int32_t lo16 = static_cast<int32_t>(static_cast<uint32_t>(x) & 0xFFFFu) * r;
  const uint32_t v = p + static_cast<uint32_t>(q.c_high) + static_cast<uint32_t>((lo16 + q.c_low) >> 16);
  return clamp_i32(static_cast<int32_t>(v) >> q.s, lo, hi);
#endif
}

// A bound on sum over k in [0, n) of |w[k * step]| good enough for
// requant64_v6m_fast_channel with this bias: 128 * n when that passes, else the sum.
inline uint32_t v6m_abs_weight_bound(const int8_t* w, int32_t n, int32_t step, int64_t bias) {
  const int64_t abs_bias = bias < 0 ? -(bias + 1) : bias;  // one less for negatives: no overflow
  if (int64_t{n} * 128 * 32768 + abs_bias < (int64_t{1} << 31) - 1) return static_cast<uint32_t>(n) * 128u;
  uint32_t sum = 0;
  for (int32_t k = 0; k < n; ++k, w += step) sum += static_cast<uint32_t>(*w < 0 ? -*w : *w);
  return sum;
}

// Longest run of int16 x int8 products (each below 2^22 in magnitude) whose int32 sum is
// exact: 511 * 2^22 < 2^31.
inline constexpr int32_t kExactTaps16x8V6m = 511;

}  // namespace mote
