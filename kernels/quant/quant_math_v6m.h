// Requantization for the ARMv6-M (__v6m) kernel variants, bit-exact with
//   multiply_by_quantized_multiplier(acc, multiplier, shift)        (quant/quant_math.h)
// for every acc, every multiplier and every shift in [kMinShift, kMaxShift], using only
// 32x32->32 multiplies. ARMv6-M has no SMULL: the reference's int64 product is a call to
// __aeabi_lmul plus 64-bit shifts; this is four MULS and some 32-bit adds and shifts.
//
// Why it is exact. Let a = acc << max(shift, 0) (wrapping) and b = multiplier. The
// reference computes SaturatingRoundingDoublingHighMul(a, b), which is
//   floor((a * b + 2^30) / 2^31)                                       (1)
// for every a, b but a == b == INT32_MIN (saturates to INT32_MAX): for a*b >= 0 the nudge
// is 2^30 and truncation is floor; for a*b < 0 (so a*b <= -1) the sum a*b + 1 - 2^30 is
// negative and truncation toward zero of it over 2^31 equals floor((a*b + 2^30) / 2^31).
// Split each operand around its rounded high half:
//   a = ah * 2^16 + al,  al = (int16)a in [-2^15, 2^15),  ah = (a - al) / 2^16 in
//   [-2^15, 2^15]  (ah = 2^15 only for a in [2^31 - 2^15, 2^31)), likewise b = bh, bl.
// Then every partial product has magnitude <= 2^30, so each fits an int32:
//   H = ah*bh, T1 = ah*bl, T2 = al*bh, L = al*bl;  a*b = H*2^32 + (T1 + T2)*2^16 + L.
// L' = L + 2^30 lies in [2^15, 2^31] (as a uint32); write L' = Lh*2^16 + Ll with
// Lh = L' >> 16 <= 2^15 and 0 <= Ll < 2^16. Then
//   a*b + 2^30 = 2^16 * (H*2^16 + T1 + T2 + Lh) + Ll,
// and since Ll / 2^16 < 1 does not change a floor over a multiple of 2^16,
//   (1) = floor((H*2^16 + T1 + T2 + Lh) / 2^15)
//       = 2*H + (T1 >> 15) + (((T1 & 0x7FFF) + T2 + Lh) >> 15)              (2)
// (T1 = (T1 >> 15) * 2^15 + (T1 & 0x7FFF), arithmetic shifts are floors). The last
// bracket is in [-2^30, 2^30 + 2^16): no intermediate of (2) overflows but the final
// sum, which is evaluated in wrapping uint32 arithmetic: as the true value (1) fits an
// int32 except in the saturating case, the wrapped sum equals it. (1) is never INT32_MIN
// (its minimum, at a*b = -2^62 + 2^31, is INT32_MIN + 1), while in the saturating case
// a == b == INT32_MIN formula (2) gives 2 * 2^30 = 2^31, which wraps to INT32_MIN: so a
// result of INT32_MIN means "saturate", and becomes INT32_MAX.
// RoundingDivideByPOT(y, n) rounds half away from zero: for y >= 0 that is
// (y + 2^n / 2) >> n, exact in uint32 (y + 2^30 < 2^32); for y < 0 it is
// (y + 2^n / 2 - 1) >> n when n > 0 and y when n == 0, neither of which overflows.
//
// Cost: the split of b is per output channel (requant_v6m_prepare); per output value
// about 30 Thumb-1 instructions, no call.
#pragma once

#include <stdint.h>

#include "isa/v6m.h"
#include "quant/quant_math.h"

namespace mote {

// The per-channel constants, derived from (multiplier, shift).
struct RequantV6m {
  int32_t mul_hi;          // bh: (multiplier - bl) / 2^16, in [-2^15, 2^15]
  int32_t mul_lo;          // bl: (int16)multiplier
  int32_t left;            // max(shift, 0)
  int32_t right;           // n = max(-shift, 0)
  uint32_t half;           // 2^n / 2 (0 when n == 0)
  int32_t half_minus_one;  // 2^n / 2 - 1 when n > 0, else 0
};

// (a - (int16)a) / 2^16 without overflowing: a >> 16 is one less when (int16)a < 0.
inline int32_t v6m_rounded_high_half(int32_t a) {
  const int32_t lo = static_cast<int16_t>(a);
  return (a >> 16) - (lo >> 31);
}

inline RequantV6m requant_v6m_prepare(int32_t multiplier, int32_t shift) {
  RequantV6m q;
  q.mul_lo = static_cast<int16_t>(multiplier);
  q.mul_hi = v6m_rounded_high_half(multiplier);
  q.left = shift > 0 ? shift : 0;
  q.right = shift > 0 ? 0 : -shift;
  q.half = (uint32_t{1} << q.right) >> 1;
  q.half_minus_one = q.right > 0 ? static_cast<int32_t>(q.half) - 1 : 0;
  return q;
}

// Formula (2) of the header comment: saturating_rounding_doubling_high_mul(a, b) for
// b = (bh, bl) split as above, except that the saturating case gives INT32_MIN.
inline int32_t v6m_doubling_high_mul(int32_t a, int32_t bh, int32_t bl) {
  const int32_t al = static_cast<int16_t>(a);
  const int32_t ah = v6m_rounded_high_half(a);
  const int32_t h = ah * bh;
  const int32_t t1 = ah * bl;
  const int32_t t2 = al * bh;
  const uint32_t l_rounded = static_cast<uint32_t>(al * bl) + (uint32_t{1} << 30);
  const int32_t lh = static_cast<int32_t>(l_rounded >> 16);
  const int32_t low = ((t1 & 0x7FFF) + t2 + lh) >> 15;
  return static_cast<int32_t>(static_cast<uint32_t>(h) * 2u + static_cast<uint32_t>(t1 >> 15) +
                              static_cast<uint32_t>(low));
}

// multiply_by_quantized_multiplier(acc, multiplier, shift) for q prepared from them.
inline int32_t requant_v6m(int32_t acc, const RequantV6m& q) {
  const int32_t a = static_cast<int32_t>(static_cast<uint32_t>(acc) << q.left);
  int32_t y = v6m_doubling_high_mul(a, q.mul_hi, q.mul_lo);
  if (y < 0) {
    if (y != INT32_MIN) return (y + q.half_minus_one) >> q.right;
    y = INT32_MAX;  // the saturating case
  }
  return static_cast<int32_t>((static_cast<uint32_t>(y) + q.half) >> q.right);
}

// clamp(wrapping_add(requant, zp), lo, hi) as the reference kernels finish each output.
inline int8_t requant_v6m_output(int32_t acc, const RequantV6m& q, int32_t output_zero_point,
                                 int32_t act_min, int32_t act_max) {
  return static_cast<int8_t>(
      clamp_i32(wrapping_add(requant_v6m(acc, q), output_zero_point), act_min, act_max));
}

// The end of formula (2) in the assembly below: with t = Lh + T2, u = T1 and ah, bh,
// leaves y = 2H + (T1 >> 15) + (((T1 & 0x7FFF) + t) >> 15) in a.
#define MOTE_V6M_FORMULA_2_SUM          \
  "lsls %[a], %[u], #17\n\t"           \
  "lsrs %[a], %[a], #17\n\t"           \
  "adds %[t], %[t], %[a]\n\t"          \
  "asrs %[t], %[t], #15\n\t"           \
  "asrs %[u], %[u], #15\n\t"           \
  "adds %[t], %[t], %[u]\n\t"          \
  "muls %[ah], %[bh]\n\t"              \
  "lsls %[ah], %[ah], #1\n\t"          \
  "adds %[a], %[t], %[ah]\n\t"

// The whole output step of the int8 kernels for one value:
//   clamp(wrapping_add(multiply_by_quantized_multiplier(acc, multiplier, shift), zp), lo, hi)
// for every acc, multiplier and shift in [kMinShift, kMaxShift]. On ARMv6-M one block of
// about 50 Thumb-1 instructions (the same steps as requant_v6m_prepare, requant_v6m and
// requant_v6m_output, with the rounding branches of requant_v6m); elsewhere those
// functions.
inline int8_t requant_v6m_s8(int32_t acc, int32_t multiplier, int32_t shift, int32_t zp,
                             int32_t lo, int32_t hi) {
#if MOTE_V6M_ASM
  int32_t bh, ah, t, u;
  __asm__(
      ".syntax unified\n\t"
      "cmp %[s], #0\n\t"
      "ble 1f\n\t"
      "lsls %[a], %[s]\n\t"  // a = acc << shift (wrapping); n = 0
      "movs %[s], #0\n\t"
      "b 2f\n"
      "1:\n\t"
      "negs %[s], %[s]\n"  // n = -shift
      "2:\n\t"
      "asrs %[bh], %[m], #16\n\t"
      "sxth %[m], %[m]\n\t"  // bl
      "lsrs %[t], %[m], #31\n\t"
      "adds %[bh], %[bh], %[t]\n\t"  // bh = (m >> 16) + (bl < 0)
      "asrs %[ah], %[a], #16\n\t"
      "sxth %[a], %[a]\n\t"  // al
      "lsrs %[t], %[a], #31\n\t"
      "adds %[ah], %[ah], %[t]\n\t"  // ah
      "movs %[t], %[a]\n\t"
      "muls %[t], %[m]\n\t"  // L = al * bl
      "movs %[u], #1\n\t"
      "lsls %[u], %[u], #30\n\t"
      "adds %[t], %[t], %[u]\n\t"
      "lsrs %[t], %[t], #16\n\t"  // Lh
      "muls %[a], %[bh]\n\t"  // T2 = al * bh
      "adds %[t], %[t], %[a]\n\t"
      "movs %[u], %[ah]\n\t"
      "muls %[u], %[m]\n\t"  // T1 = ah * bl
      MOTE_V6M_FORMULA_2_SUM
      "bpl 4f\n\t"
      "movs %[u], #1\n\t"
      "lsls %[u], %[u], #31\n\t"
      "cmp %[a], %[u]\n\t"
      "beq 3f\n\t"
      "cmp %[s], #0\n\t"
      "beq 5f\n\t"
      "movs %[u], #1\n\t"  // y < 0, n > 0: (y + 2^n / 2 - 1) >> n
      "lsls %[u], %[s]\n\t"
      "lsrs %[u], %[u], #1\n\t"
      "subs %[u], #1\n\t"
      "adds %[a], %[a], %[u]\n\t"
      "asrs %[a], %[s]\n\t"
      "b 5f\n"
      "3:\n\t"
      "subs %[a], #1\n"  // INT32_MIN: the saturating case, INT32_MAX
      "4:\n\t"
      "movs %[u], #1\n\t"  // y >= 0: (y + 2^n / 2) >> n in uint32
      "lsls %[u], %[s]\n\t"
      "lsrs %[u], %[u], #1\n\t"
      "adds %[a], %[a], %[u]\n\t"
      "lsrs %[a], %[s]\n"
      "5:\n\t"
      "add %[a], %[zp]\n\t"
      "cmp %[a], %[lo]\n\t"
      "bge 6f\n\t"
      "mov %[a], %[lo]\n"
      "6:\n\t"
      "cmp %[a], %[hi]\n\t"
      "ble 7f\n\t"
      "mov %[a], %[hi]\n"
      "7:\n\t"
      : [a] "+l"(acc), [m] "+l"(multiplier), [s] "+l"(shift), [bh] "=&l"(bh), [ah] "=&l"(ah),
        [t] "=&l"(t), [u] "=&l"(u)
      : [zp] "h"(zp), [lo] "h"(lo), [hi] "h"(hi)
      : "cc");
  return static_cast<int8_t>(acc);
#else
  return requant_v6m_output(acc, requant_v6m_prepare(multiplier, shift), zp, lo, hi);
#endif
}

// requant_v6m_s8 for the common case of a right shift, with its per-channel constants
// prepared once: for multiplier != INT32_MIN (so no saturating case) and shift in
// [-31, -1] (so a = acc and n >= 1). The rounding of RoundingDivideByPOT(y, n) becomes
// z = y - [y < 0] + 2^n / 2: for y < 0 no overflow, an arithmetic shift; for y >= 0 the
// true sum is below 2^32, so when the signed add overflows a logical shift of the
// wrapped sum is exact.
//
// `floor` short-cuts the outputs the activation clamps from below (after a ReLU, about
// half of them): every acc < floor gives act_min without the arithmetic. It is INT32_MIN
// (no short cut) unless requant_v6m_right_set_floor() found the exact bound.
struct RequantV6mRight {
  int32_t mul_hi;  // bh, as RequantV6m
  int32_t mul_lo;  // bl
  int32_t half;    // 2^n / 2
  int32_t right;   // n = -shift, in [1, 31]
  int32_t floor;   // every acc < floor gives act_min
};

inline bool requant_v6m_right_applies(int32_t multiplier, int32_t shift) {
  return multiplier != INT32_MIN && shift >= kMinShift && shift <= -1;
}

// The shift to prepare requant_v6m_right_s8 with: `shift`, or -1 for a zero multiplier
// (a channel whose weights are all zero), whose requantization is 0 for every acc and
// shift, so that it takes requant_v6m_right_s8 too.
inline int32_t requant_v6m_right_shift(int32_t multiplier, int32_t shift) { return multiplier == 0 ? -1 : shift; }

inline RequantV6mRight requant_v6m_right_prepare(int32_t multiplier, int32_t shift) {
  RequantV6mRight q;
  q.mul_hi = v6m_rounded_high_half(multiplier);
  q.mul_lo = static_cast<int16_t>(multiplier);
  q.right = -shift;
  q.half = static_cast<int32_t>(uint32_t{1} << (q.right - 1));
  q.floor = INT32_MIN;
  return q;
}

// An op's output constants for requant_v6m_right_s8, read from memory by its assembly (a
// caller's loop then keeps no high registers loaded for it).
struct RequantV6mOutput {
  int32_t round30;  // 2^30
  int32_t zp, lo, hi;  // output zero point, act_min, act_max (lo <= hi)
};

inline RequantV6mOutput requant_v6m_output_constants(int32_t zp, int32_t lo, int32_t hi) {
  return RequantV6mOutput{int32_t{1} << 30, zp, lo, hi};
}

// The assembly of requant_v6m_right_s8 and requant_v6m_positive_s8 (q: the channel's
// RequantV6mRight, k: the RequantV6mOutput). With al in a: t = Lh + T2, bl in u, bh in bh.
#define MOTE_V6M_RIGHT_LH_T2        \
  "ldr %[u], [%[q], #4]\n\t"        \
  "movs %[t], %[a]\n\t"             \
  "muls %[t], %[u]\n\t"             \
  "ldr %[bh], [%[k], #0]\n\t"       \
  "adds %[t], %[t], %[bh]\n\t"      \
  "lsrs %[t], %[t], #16\n\t"        \
  "ldr %[bh], [%[q], #0]\n\t"       \
  "muls %[a], %[bh]\n\t"            \
  "adds %[t], %[t], %[a]\n\t"
// acc < floor: to 5f (act_min); acc outside [-2^15, 2^15): to 6f (ah, T1 and H, out of
// line); else (al == acc, ah == 0) t = Lh + T2.
#define MOTE_V6M_RIGHT_HEAD                        \
  "ldr %[t], [%[q], #16]\n\t"  /* floor */         \
  "cmp %[a], %[t]\n\t"                             \
  "blt 5f\n\t"                                     \
  "sxth %[t], %[a]\n\t"                            \
  "cmp %[t], %[a]\n\t"                             \
  "bne 6f\n\t"                                     \
  MOTE_V6M_RIGHT_LH_T2
// y = formula (2) for an acc a outside [-2^15, 2^15), into a.
#define MOTE_V6M_RIGHT_LARGE_Y           \
  "asrs %[ah], %[a], #16\n\t"           \
  "sxth %[a], %[a]\n\t"  /* al */       \
  "lsrs %[t], %[a], #31\n\t"            \
  "adds %[ah], %[ah], %[t]\n\t"  /* ah */ \
  MOTE_V6M_RIGHT_LH_T2                   \
  "muls %[u], %[ah]\n\t"  /* T1 = ah * bl */ \
  MOTE_V6M_FORMULA_2_SUM

// requant_v6m_s8(acc, multiplier, shift, k.zp, k.lo, k.hi) for q prepared from a multiplier
// and shift requant_v6m_right_applies() accepts. On ARMv6-M 32 Thumb-1 instructions when
// acc is in [-2^15, 2^15) (its high half is zero, and so are two of the four partial
// products), 44 otherwise, 5 when acc < q.floor.
inline int8_t requant_v6m_right_s8(int32_t acc, const RequantV6mRight& q, const RequantV6mOutput& k) {
#if MOTE_V6M_ASM
  int32_t bh, ah, t, u;
  __asm__(
      ".syntax unified\n\t"
      MOTE_V6M_RIGHT_HEAD
      "asrs %[a], %[t], #15\n"  // y when ah == 0 (T1 = H = 0)
      "7:\n\t"
      "asrs %[t], %[a], #31\n\t"
      "adds %[a], %[a], %[t]\n\t"  // y - [y < 0]
      "ldr %[t], [%[q], #8]\n\t"
      "adds %[a], %[a], %[t]\n\t"  // + 2^n / 2, V set when y >= 0 overflows
      "ldr %[t], [%[q], #12]\n\t"
      "bvc 1f\n\t"
      "lsrs %[a], %[t]\n\t"
      "b 2f\n"
      "1:\n\t"
      "asrs %[a], %[t]\n"
      "2:\n\t"
      "ldr %[t], [%[k], #4]\n\t"
      "adds %[a], %[a], %[t]\n\t"  // + zp
      "ldr %[t], [%[k], #8]\n\t"
      "cmp %[a], %[t]\n\t"
      "blt 5f\n\t"
      "ldr %[t], [%[k], #12]\n\t"
      "cmp %[a], %[t]\n\t"
      "ble 4f\n\t"
      "movs %[a], %[t]\n\t"
      "b 4f\n"
      "6:\n\t"
      MOTE_V6M_RIGHT_LARGE_Y
      "b 7b\n"
      "5:\n\t"
      "ldr %[a], [%[k], #8]\n"  // act_min
      "4:\n\t"
      : [a] "+l"(acc), [bh] "=&l"(bh), [ah] "=&l"(ah), [t] "=&l"(t), [u] "=&l"(u)
      : [q] "l"(&q), [k] "l"(&k)
      : "cc", "memory");
  return static_cast<int8_t>(acc);
#else
  if (acc < q.floor) return static_cast<int8_t>(k.lo);
  const int32_t y = v6m_doubling_high_mul(acc, q.mul_hi, q.mul_lo);
  const uint32_t biased = static_cast<uint32_t>(y) - (y < 0 ? 1u : 0u);
  const uint32_t z = biased + static_cast<uint32_t>(q.half);
  const bool overflow = y >= 0 && z > uint32_t{INT32_MAX};
  const int32_t r = overflow ? static_cast<int32_t>(z >> q.right) : (static_cast<int32_t>(z) >> q.right);
  return static_cast<int8_t>(clamp_i32(wrapping_add(r, k.zp), k.lo, k.hi));
#endif
}

// The same with the output constants as values (lo <= hi).
inline int8_t requant_v6m_right_s8(int32_t acc, const RequantV6mRight& q, int32_t zp, int32_t lo, int32_t hi) {
  const RequantV6mOutput k = requant_v6m_output_constants(zp, lo, hi);
  return requant_v6m_right_s8(acc, q, k);
}

// Sets q.floor (q prepared from `multiplier` without a floor) to the smallest acc whose
// output exceeds act_min, so that requant_v6m_right_s8(acc, q, zp, act_min, act_max) takes
// its short cut exactly where the output is act_min. The output is non-decreasing in acc
// for a positive multiplier (each rounding step is), so a binary search over acc finds the
// bound: about 32 requantizations, ~1,500 instructions on a Cortex-M0+, worth it for a
// channel with more than about a hundred outputs. Other multipliers, an empty or
// inverted clamp and zero points far outside int8 keep floor = INT32_MIN.
inline void requant_v6m_right_set_floor(RequantV6mRight& q, int32_t multiplier, int32_t zp, int32_t act_min,
                                        int32_t act_max) {
  q.floor = INT32_MIN;
  if (multiplier <= 0 || act_min > act_max || zp < -(1 << 29) || zp > (1 << 29)) return;
  // above(acc): the output before the clamp exceeds act_min (lo = act_min, hi = act_max).
  auto above = [&](int32_t acc) { return requant_v6m_right_s8(acc, q, zp, act_min, act_max) > act_min; };
  if (above(INT32_MIN)) return;
  if (!above(INT32_MAX)) {
    q.floor = INT32_MAX;  // every acc below INT32_MAX gives act_min; INT32_MAX is computed
    return;
  }
  int32_t lo = INT32_MIN;  // !above(lo)
  int32_t hi = INT32_MAX;  // above(hi)
  while (static_cast<uint32_t>(hi) - static_cast<uint32_t>(lo) > 1u) {
    const int32_t mid =
        static_cast<int32_t>(static_cast<uint32_t>(lo) + ((static_cast<uint32_t>(hi) - static_cast<uint32_t>(lo)) >> 1));
    if (above(mid)) {
      hi = mid;
    } else {
      lo = mid;
    }
  }
  q.floor = hi;
}

// The floor requant_v6m_right_set_floor() finds for (multiplier, shift, zp, act_min,
// act_max), or INT32_MIN (no short cut) for a requantization requant_v6m_right_s8 does
// not take. The compiler puts these in the __v6m convolutions' params.
inline int32_t requant_v6m_floor(int32_t multiplier, int32_t shift, int32_t zp, int32_t act_min,
                                 int32_t act_max) {
  if (!requant_v6m_right_applies(multiplier, shift)) return INT32_MIN;
  RequantV6mRight q = requant_v6m_right_prepare(multiplier, shift);
  requant_v6m_right_set_floor(q, multiplier, zp, act_min, act_max);
  return q.floor;
}

// Whether `floor` is what requant_v6m_right_set_floor() finds for that requantization:
// INT32_MIN (no short cut), or a right shift with a positive multiplier (the output is
// then non-decreasing in acc) for which acc = floor - 1, and so every acc below it, gives
// act_min, and (but for INT32_MAX, which set_floor also gives when no acc exceeds act_min)
// acc = floor gives more, so every acc from the floor on does: the floor is exact, and
// requant_v6m_positive_s8 relies on that. Two reference requantizations, for check() to
// verify a program's floors at load.
inline bool requant_v6m_floor_valid(int32_t floor, int32_t multiplier, int32_t shift, int32_t zp,
                                    int32_t act_min, int32_t act_max) {
  if (floor == INT32_MIN) return true;
  if (multiplier <= 0 || !requant_v6m_right_applies(multiplier, shift) || act_min > act_max ||
      zp < -(1 << 29) || zp > (1 << 29)) {
    return false;
  }
  auto output = [&](int32_t acc) {
    return clamp_i32(wrapping_add(multiply_by_quantized_multiplier(acc, multiplier, shift), zp), act_min, act_max);
  };
  return output(floor - 1) == act_min && (floor == INT32_MAX || output(floor) > act_min);
}

// requant_v6m_floor_valid for each of `count` channels (floors[c] with multipliers[c] and
// shifts[c]): what the __v6m convolutions' check() asks of the floors in their params.
inline bool requant_v6m_floors_valid(const int32_t* floors, const int32_t* multipliers, const int32_t* shifts,
                                     uint32_t count, int32_t zp, int32_t act_min, int32_t act_max) {
  for (uint32_t c = 0; c < count; ++c) {
    if (!requant_v6m_floor_valid(floors[c], multipliers[c], shifts[c], zp, act_min, act_max)) return false;
  }
  return true;
}

// requant_v6m_right_s8 for a channel whose exact floor (requant_v6m_floor_valid, not
// INT32_MIN or INT32_MAX) and a lower clamp at or above the zero point make every acc from
// the floor on requantize to a positive y = SaturatingRoundingDoublingHighMul(acc, m) (its
// rounded shift plus zp exceeds act_min >= zp, so the shift is at least 1): then neither
// the rounding of a negative y nor the lower clamp is needed. For an acc in
// [-2^15, 2^15) y = t >> 15 with t = Lh + T2 in [2^15, 2^30) (formula (2) with ah == 0),
// and, floor((floor(t / 2^15) + 2^n / 2) / 2^n) being floor((t + 2^(n + 14)) / 2^(n + 15)),
// the whole requantization is (t + 2^(n + 14)) >> (n + 15), without overflow for n <= 15
// (a channel with a larger n needs a floor of 2^15 or more, so that no such acc gets
// there). The channel's RequantV6mRight then holds half = 2^(n + 14) (0 for n > 15) and
// right = n + 15 (requant_v6m_positive_prepare); other accs take (y + 2^n / 2) >> n in
// uint32. A zero multiplier (every output zp) takes it too when zp == act_min. On ARMv6-M
// about 6 Thumb-1 instructions fewer per output than requant_v6m_right_s8.
inline bool requant_v6m_positive_output_applies(int32_t zp, int32_t act_min, int32_t act_max) {
  return zp <= act_min && act_min <= act_max && zp >= -(1 << 29);
}

// Whether channel (multiplier, shift: requant_v6m_right_shift's) with `floor` (valid for
// it) takes requant_v6m_positive_s8, when the op's output constants do.
inline bool requant_v6m_positive_applies(int32_t multiplier, int32_t shift, int32_t floor, int32_t zp,
                                         int32_t act_min) {
  if (multiplier == 0) return zp == act_min;
  return multiplier > 0 && shift <= -1 && floor != INT32_MIN && floor != INT32_MAX &&
         (shift >= -15 || floor >= (1 << 15));
}

// q (requant_v6m_right_prepare's, with its floor) re-encoded for requant_v6m_positive_s8.
inline void requant_v6m_positive_prepare(RequantV6mRight& q) {
  q.half = q.right <= 15 ? int32_t{1} << (q.right + 14) : 0;
  q.right += 15;
}

// The portable form of the ARMv6-M assembly the __v6m convolutions inline for
// requant_v6m_positive_s8 (and its reference on the host): clamp(wrapping_add(
// multiply_by_quantized_multiplier(acc, multiplier, shift), zp), lo, hi) for q prepared
// by requant_v6m_positive_prepare from a channel and floor that
// requant_v6m_positive_applies() accepts, k from output constants that
// requant_v6m_positive_output_applies() accepts.
inline int8_t requant_v6m_positive_s8(int32_t acc, const RequantV6mRight& q, const RequantV6mOutput& k) {
#if MOTE_V6M_ASM
  int32_t bh, ah, t, u;
  __asm__(
      ".syntax unified\n\t"
      MOTE_V6M_RIGHT_HEAD
      "ldr %[a], [%[q], #8]\n\t"   // 2^(n + 14)
      "adds %[t], %[t], %[a]\n\t"
      "ldr %[a], [%[q], #12]\n\t"  // n + 15
      "asrs %[t], %[a]\n"
      "2:\n\t"
      "ldr %[a], [%[k], #4]\n\t"
      "adds %[a], %[a], %[t]\n\t"  // + zp
      "ldr %[t], [%[k], #12]\n\t"
      "cmp %[a], %[t]\n\t"
      "ble 4f\n\t"
      "movs %[a], %[t]\n\t"
      "b 4f\n"
      "6:\n\t"
      MOTE_V6M_RIGHT_LARGE_Y  // y >= 0 in a
      "ldr %[ah], [%[q], #12]\n\t"
      "subs %[ah], #15\n\t"  // n
      "movs %[t], #1\n\t"
      "lsls %[t], %[ah]\n\t"
      "lsrs %[t], %[t], #1\n\t"
      "adds %[t], %[a], %[t]\n\t"  // y + 2^n / 2 < 2^32
      "lsrs %[t], %[ah]\n\t"
      "b 2b\n"
      "5:\n\t"
      "ldr %[a], [%[k], #8]\n"  // act_min
      "4:\n\t"
      : [a] "+l"(acc), [bh] "=&l"(bh), [ah] "=&l"(ah), [t] "=&l"(t), [u] "=&l"(u)
      : [q] "l"(&q), [k] "l"(&k)
      : "cc", "memory");
  return static_cast<int8_t>(acc);
#else
  if (acc < q.floor) return static_cast<int8_t>(k.lo);
  int32_t r;
  if (acc == static_cast<int16_t>(acc)) {
    const uint32_t l_rounded = static_cast<uint32_t>(acc * q.mul_lo) + (uint32_t{1} << 30);
    const int32_t t = static_cast<int32_t>(l_rounded >> 16) + acc * q.mul_hi;
    r = (t + q.half) >> q.right;
  } else {
    const int32_t n = q.right - 15;
    const uint32_t y = static_cast<uint32_t>(v6m_doubling_high_mul(acc, q.mul_hi, q.mul_lo));
    r = static_cast<int32_t>((y + ((uint32_t{1} << n) >> 1)) >> n);
  }
  const int32_t v = r + k.zp;
  return static_cast<int8_t>(v > k.hi ? k.hi : v);
#endif
}

}  // namespace mote

#undef MOTE_V6M_RIGHT_HEAD
#undef MOTE_V6M_RIGHT_LARGE_Y
#undef MOTE_V6M_RIGHT_LH_T2
#undef MOTE_V6M_FORMULA_2_SUM
