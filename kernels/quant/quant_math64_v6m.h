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
// Both are  ((P << left) + ((Q + half) >> low_shift) + half_high) >> high_shift  with
// per-channel constants (Requant64V6m): about 14 Thumb-1 instructions per output.
#pragma once

#include <stdint.h>

#include "quant/quant_math.h"

namespace mote {

// The constants of one channel, derived from (multiplier, shift).
struct Requant64V6m {
  int32_t reduced;     // r
  int32_t left;        // 16 - t when t <= 16, else 0
  int32_t half;        // 2^(t-1) when t <= 16, else 0
  int32_t low_shift;   // t when t <= 16, else 16
  int32_t half_high;   // 0 when t <= 16, else 2^(t-17)
  int32_t high_shift;  // 0 when t <= 16, else t - 16
};

inline Requant64V6m requant64_v6m_prepare(int32_t multiplier, int32_t shift) {
  Requant64V6m q;
  q.reduced = multiplier < 0x7FFF0000 ? ((multiplier + (1 << 15)) >> 16) : 0x7FFF;
  const int32_t t = 15 - shift;
  if (t <= 16) {
    q.left = 16 - t;
    q.half = 1 << (t - 1);
    q.low_shift = t;
    q.half_high = 0;
    q.high_shift = 0;
  } else {
    q.left = 0;
    q.half = 0;
    q.low_shift = 16;
    q.half_high = 1 << (t - 17);
    q.high_shift = t - 16;
  }
  return q;
}

// multiply_by_quantized_multiplier64(x, multiplier, shift) for an x that fits int32.
inline int32_t requant64_v6m(int32_t x, const Requant64V6m& q) {
  const int32_t p = (x >> 16) * q.reduced;
  const int32_t lo = static_cast<int32_t>(static_cast<uint32_t>(x) & 0xFFFFu) * q.reduced;
  const uint32_t sum = (static_cast<uint32_t>(p) << q.left) +
                       static_cast<uint32_t>((lo + q.half) >> q.low_shift) +
                       static_cast<uint32_t>(q.half_high);
  return static_cast<int32_t>(sum) >> q.high_shift;
}

// multiply_by_quantized_multiplier64(acc, multiplier, shift) for every int64 acc: the
// 32-bit form when acc fits int32, else the reference (a long multiply call).
inline int32_t requant64_v6m_any(int64_t acc, int32_t multiplier, int32_t shift) {
  const int32_t low = static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(acc)));
  if (static_cast<int64_t>(low) == acc) return requant64_v6m(low, requant64_v6m_prepare(multiplier, shift));
  return multiply_by_quantized_multiplier64(acc, multiplier, shift);
}

// Longest run of int16 x int8 products (each below 2^22 in magnitude) whose int32 sum is
// exact: 511 * 2^22 < 2^31.
inline constexpr int32_t kExactTaps16x8V6m = 511;

}  // namespace mote
