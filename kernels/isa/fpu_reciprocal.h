// round_saturated(x / divisor) (isa/fpu.h) for many x and one divisor, without a division
// per value and bit-exact with it for every float x (NaN, infinities, denormals, -0).
//
// Both forms approximate V = 2^15 * x / divisor (the quotient in 1/32768ths) by an integer
// f, round f to the nearest multiple of 32768 and redo the exact division only when f is
// so close to a tie (an odd multiple H of 2^14) that the float quotient could round the
// other way. Y = 2^15 RN(x / divisor) is the quotient the definition rounds; roundf(y)
// counts the H <= |Y| (H with |y| < 2^16 is a float, so H <= V implies H <= Y, and H <= Y
// implies H - V <= half an ulp of H <= H 2^-24); the fast result counts the H <= |f|.
//  - multiply form (cores with an FPU): f = VCVT.S32 (truncating, saturating) of
//    P = RN(x * R), R = RN(2^15 / divisor): |P - V| <= |V| 2^-23 (1 + 2^-25) and |f| <=
//    |P| < |f| + 1, so the counts can differ only if H - |f| lies in
//    [-((|f| >> 23) + 1), (|f| >> 22) + 2]. Test: |f - H| <= b = (a >> 22) + 4, with a =
//    |f| or |f| - 1 (a one's complement), as ((f + 2^14 + b) mod 2^15) <= 2b.
//  - integer form (soft-float cores, no library call on the common path): x's 24-bit
//    significand m times M = floor((2^55 - 1) / divisor's significand) (in [2^31, 2^32))
//    as four 16x16-bit products (MULS is 32x32->32 on Armv6-M), keeping the top 32 of the
//    56 bits less under 4, shifted by the exponents' difference: a = floor(...) with
//    a <= |V| < a + 5. Then H <= a implies H <= |Y| (never a false round-up), and
//    a < H <= |Y| needs H - a in [1, (a >> 24) + 6]. Test: ((2^14 - 1 - a) mod 2^15) < b =
//    (a >> 24) + 7.
// The division is redone for about b / 32768 (integer) or 2b / 32768 (multiply) of
// uniformly spread quotients: under 0.03% / 0.05% while |y| < 2^9 (every int8 result),
// 0.2% / 1.6% near |y| = 2^15.
// Saturation: |y| >= 65536 gives +-65536 in both (f saturates at 2^31 in the multiply
// form, a is limited to 2^31 in the integer form); no sum overflows.
#pragma once

#include <stdint.h>
#include <string.h>

#include "isa/fpu.h"

namespace mote::fpu {

struct Reciprocal {
  float divisor;
  float scaled;         // RN(2^15 / divisor), multiply form
  uint32_t high, low;   // M >> 16 and M & 0xffff, integer form
  int32_t exponent;     // divisor's biased exponent + 16: a = (m M >> 24) >> (exponent - x's)
  bool usable;          // false: a divisor too small or large for both forms, divide
};

// The divisor must be > 0 and finite.
inline Reciprocal prepare_reciprocal(float divisor) {
  Reciprocal r{};
  r.divisor = divisor;
  r.scaled = 32768.0f / divisor;
  uint32_t bits;
  memcpy(&bits, &divisor, sizeof bits);
  const uint32_t exponent = (bits >> 23) & 0xffu;
  const uint32_t significand = (bits & 0x7fffffu) | 0x800000u;
  // M = floor((2^55 - 1) / significand) by restoring division, one quotient bit per step
  // from bit 31 (the numerator's top 23 bits, all ones, are below the divisor).
  uint32_t remainder = 0x7fffffu, m = 0;
  for (int i = 31; i >= 0; --i) {
    remainder = 2 * remainder + 1;
    if (remainder >= significand) {
      remainder -= significand;
      m |= 1u << i;
    }
  }
  r.high = m >> 16;
  r.low = m & 0xffffu;
  r.exponent = static_cast<int32_t>(exponent) + 16;
  r.usable = exponent >= 1 && exponent <= 254 && r.scaled >= 1.17549435e-38f && r.scaled <= 3.40282347e38f;
  return r;
}

// The multiply form's test (f, and |f| or |f| - 1 as magnitude).
inline bool near_tie(uint32_t f, uint32_t magnitude) {
  const uint32_t b = (magnitude >> 22) + 4;
  return ((f + 0x4000u + b) & 0x7fffu) <= 2 * b;
}
// The integer form's test (a = floor of |V| less under 5).
inline bool below_tie(uint32_t a) { return ((0x3fffu - a) & 0x7fffu) < (a >> 24) + 7; }

// Multiply form. r.usable.
inline int32_t divide_round_saturated_by_multiply(const Reciprocal& r, float x) {
  const int32_t f = cvt_s32_saturated(x * r.scaled);
  if (near_tie(static_cast<uint32_t>(f), static_cast<uint32_t>(f ^ (f >> 31)))) {
    return round_saturated(x / r.divisor);
  }
  return ((f >> 14) + 1) >> 1;  // floor((f + 2^14) / 2^15), no overflow at |f| = 2^31
}

// Integer form. r.usable.
inline int32_t divide_round_saturated_by_integer(const Reciprocal& r, float x) {
  uint32_t bits;
  memcpy(&bits, &x, sizeof bits);
  const uint32_t exponent = (bits >> 23) & 0xffu;
  if (exponent - 1u >= 254u) {  // zero, denormal, infinity or NaN
    if ((bits << 1) == 0) return 0;
    return round_saturated(x / r.divisor);
  }
  const int32_t shift = r.exponent - static_cast<int32_t>(exponent);
  if (shift >= 32) return 0;  // |V| < 2^(32 - shift): |y| < 2^-15
  const uint32_t mh = ((bits >> 16) & 0x7fu) | 0x80u;
  const uint32_t ml = bits & 0xffffu;
  const uint32_t p = ((mh * r.high) << 8) + ((ml * r.high) >> 8) + ((mh * r.low) >> 8) + ((ml * r.low) >> 24);
  uint32_t a;
  if (shift > 0) {
    a = p >> shift;
  } else {
    a = (shift == 0 && p < 0x80000000u) ? p : 0x80000000u;  // beyond: |V| >= 2^31
  }
  if (below_tie(a)) return round_saturated(x / r.divisor);
  const int32_t sign = static_cast<int32_t>(bits) >> 31;
  const int32_t q = static_cast<int32_t>((a + 0x4000u) >> 15);
  return (q ^ sign) - sign;
}

// The core's form: the multiply on an FPU, the integer form elsewhere.
inline int32_t divide_round_saturated(const Reciprocal& r, float x) {
#if MOTE_HAS_FPU
  return divide_round_saturated_by_multiply(r, x);
#else
  return divide_round_saturated_by_integer(r, x);
#endif
}

}  // namespace mote::fpu
