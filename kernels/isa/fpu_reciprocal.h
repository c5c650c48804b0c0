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
//    [-((|f| >> 23) + 1), (|f| >> 22) + 2]. Test: a fixed window for the largest |f|
//    that matters first (one add and compare), then, for the few in it, |f - H| <= b =
//    (a >> 22) + 3 with a = |f| or |f| - 1, as ((f + 2^14 + b) mod 2^15) <= 2b.
//  - integer form (soft-float cores, no library call on the common path): x's 24-bit
//    significand m times M = floor((2^55 - 1) / divisor's significand) (in [2^31, 2^32))
//    as three 16x16-bit products (MULS is 32x32->32 on Armv6-M), keeping the top 32 of
//    the 56 bits less under 4, shifted by the exponents' difference: a = floor(...) with
//    a <= |V| < a + 5. Then H <= a implies H <= |Y| (never a false round-up), and
//    a < H <= |Y| needs H - a in [1, (a >> 24) + 6]. Test: ((2^14 - 1 - a) mod 2^15) < b =
//    (a >> 24) + 7.
// The division is redone for about b / 32768 (integer) or 2b / 32768 (multiply) of
// uniformly spread quotients: under 0.1% while |y| < 2^9 (every int8 result), 0.2% /
// 1.6% near |y| = 2^15. (MobileNetV2's N(0, 1) input as int16: 0.04% / 0.3%.)
// Saturation: |y| >= 65536 gives +-65536 in both (f saturates at 2^31 in the multiply
// form, a is limited to 2^31 in the integer form); no sum overflows.
#pragma once

#include <stdint.h>

#include "isa/fpu.h"

namespace mote::fpu {

struct Reciprocal {
  float divisor;
  float scaled;         // RN(2^15 / divisor), multiply form
  uint32_t high, low;   // M >> 16 and M & 0xffff, integer form
  int32_t exponent;     // divisor's biased exponent + 16: a = (m M >> 24) >> (exponent - x's)
  bool usable;          // false: a divisor too small or large for the forms, divide
};

// The divisor must be > 0 and finite.
inline Reciprocal prepare_reciprocal(float divisor) {
  Reciprocal r{};
  r.divisor = divisor;
  r.scaled = 32768.0f / divisor;
  const uint32_t bits = float_bits(divisor);
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
  // Divisors in [2^-111, 2^113): 2^15 / divisor is a normal float, and the integer form's
  // shift is <= 0 for infinities and NaN, >= 32 for zeros and denormals.
  r.usable = exponent >= 16 && exponent <= 239;
  return r;
}

// The integer form's test (a = floor of |V| less under 5).
inline bool below_tie(uint32_t a) { return ((0x3fffu - a) & 0x7fffu) < (a >> 24) + 7; }

// The multiply form's first window: fixed, b for the largest |f| that matters
// (2^(kExactLog2 + 15); kExactLog2 16: all, 9: |y| < 512, every quotient an int8 result
// can tell apart): b = 516 for 16, 8 for 9 (a variable b per value costs more than it
// saves). It is placed asymmetrically, f - H in [-low, b] with low >= b a multiple of
// 128, so that 2^14 + low shifted into the top 15 bits is one Thumb-2 immediate: 3.5% of
// uniformly spread quotients fall in it for 16, 0.4% for 9, and get the tight test.
template <int kExactLog2>
struct MultiplyWindow {
  static_assert(kExactLog2 >= 7 && kExactLog2 <= 16, "window formula");
  static constexpr uint32_t kHalf = (1u << (kExactLog2 - 7)) + 4;
  static constexpr uint32_t kLow = (kHalf + 127) / 128 * 128;
  // (f + 2^14 + low) mod 2^15 < low + b + 1, in the top 15 bits: f << 17 plus kBias is
  // below kLimit (unsigned) for a quotient the division must redo.
  static constexpr uint32_t kBias = (0x4000u + kLow) << 17;
  static constexpr uint32_t kLimit = (kLow + kHalf + 1) << 17;
};
// The identity, for the forms' int32 results.
struct Unsaturated {
  int32_t operator()(int32_t q) const { return q; }
};
// Multiply form: saturate(round_saturated(x / divisor) + offset), exact for every x with
// kExactLog2 = 16; with 9, exact while |x / divisor| < 2^9 and beyond of the quotient's
// sign and at least 511 in magnitude (every int8 result saturates). saturate is applied
// in each path, so that a core folds the fast path's last shift into SSAT. r.usable.
// round_multiplied is the part after the conversion: f = VCVT.S32(x * R), t = (f << 17) +
// kBias; x is read only for the division.
template <int kExactLog2, typename Saturate>
inline int32_t round_multiplied(const Reciprocal& r, const float& x, int32_t f, uint32_t t, int32_t offset,
                                Saturate saturate) {
  if (__builtin_expect(t < MultiplyWindow<kExactLog2>::kLimit, 0)) {
    const uint32_t b = (static_cast<uint32_t>(f ^ (f >> 31)) >> 22) + 3;
    if (((static_cast<uint32_t>(f) + 0x4000u + b) & 0x7fffu) <= 2 * b) {
      return saturate(round_saturated(x / r.divisor) + offset);
    }
  }
  return saturate(((f >> 14) + (2 * offset + 1)) >> 1);  // floor((f + 2^14) / 2^15) + offset
}
template <int kExactLog2 = 16, typename Saturate = Unsaturated>
inline int32_t divide_round_saturated_by_multiply(const Reciprocal& r, float x, int32_t offset = 0,
                                                  Saturate saturate = Saturate()) {
  const int32_t f = cvt_s32_saturated(x * r.scaled);
  const uint32_t t = (static_cast<uint32_t>(f) << 17) + MultiplyWindow<kExactLog2>::kBias;
  return round_multiplied<kExactLog2>(r, x, f, t, offset, saturate);
}

// For in[0] and in[1]: f_j = VCVT.S32.F32(in[j] * scale) (truncating, saturating) and
// t_j = (f_j << 17) + bias. On an FPU core in 8 instructions (one VLDM and one VMOV for
// both, the shifted adds in core registers), which GCC does not find.
__attribute__((always_inline)) inline void scaled_cvt_pair(const float* in, float scale, uint32_t bias, int32_t& f0,
                                                           int32_t& f1, uint32_t& t0, uint32_t& t1) {
#if MOTE_HAS_FPU
  asm("vldmia %[in], {s0-s1}\n\t"
      "vmul.f32 s0, s0, %[scale]\n\t"
      "vmul.f32 s1, s1, %[scale]\n\t"
      "vcvt.s32.f32 s0, s0\n\t"
      "vcvt.s32.f32 s1, s1\n\t"
      "vmov %[f0], %[f1], s0, s1\n\t"
      "add %[t0], %[bias], %[f0], lsl #17\n\t"
      "add %[t1], %[bias], %[f1], lsl #17"
      : [f0] "=&r"(f0), [f1] "=&r"(f1), [t0] "=&r"(t0), [t1] "=&r"(t1)
      : [in] "r"(in), [scale] "t"(scale), [bias] "r"(bias), "m"(*reinterpret_cast<const float(*)[2]>(in))
      : "s0", "s1");
#else
  f0 = cvt_s32_saturated(in[0] * scale);
  f1 = cvt_s32_saturated(in[1] * scale);
  t0 = (static_cast<uint32_t>(f0) << 17) + bias;
  t1 = (static_cast<uint32_t>(f1) << 17) + bias;
#endif
}

// The integer form's parts. x's significand (bits: x's) times M, the top 32 of 56 bits
// less under 3: 1.m as m1 (16 bits) and m0 (8), M as high and low halves; the dropped
// m0 * low and the three truncations are each under 1.
inline uint32_t significand_product(const Reciprocal& r, uint32_t bits) {
  const uint32_t m1 = ((bits << 8) | 0x80000000u) >> 16;
  const uint32_t m0 = bits & 0xffu;
  return m1 * r.high + ((m1 * r.low) >> 16) + ((m0 * r.high) >> 8);
}
// a (<= 2^31) rounded, with x's sign.
template <typename Saturate>
inline int32_t round_fixed_point(const Reciprocal& r, float x, uint32_t bits, uint32_t a, int32_t offset,
                                 Saturate saturate) {
  if (__builtin_expect(below_tie(a), 0)) return saturate(round_saturated(x / r.divisor) + offset);
  const int32_t sign = static_cast<int32_t>(bits) >> 31;
  const int32_t q = static_cast<int32_t>((a + 0x4000u) >> 15);
  return saturate(((q ^ sign) - sign) + offset);
}
// Every x whose shift is outside [1, 31]: zero, denormals (shift >= 32), infinities and
// NaN (shift <= 0 for every usable divisor), |y| < 2^-15 and |y| >= 2^15. Out of line:
// the common path keeps its registers.
[[gnu::noinline]] inline int32_t divide_round_saturated_rare(const Reciprocal& r, float x, uint32_t bits,
                                                           int32_t offset) {
  const uint32_t exponent = (bits >> 23) & 0xffu;
  if (exponent == 0 && (bits << 1) == 0) return offset;
  if (exponent == 0 || exponent == 255) return round_saturated(x / r.divisor) + offset;
  const int32_t shift = r.exponent - static_cast<int32_t>(exponent);
  if (shift >= 32) return offset;  // |V| < 2^(32 - shift): |y| < 2^-15
  const uint32_t p = significand_product(r, bits);
  const uint32_t a = (shift == 0 && p < 0x80000000u) ? p : 0x80000000u;  // else |V| >= 2^31
  return round_fixed_point(r, x, bits, a, offset, Unsaturated());
}

// Integer form: saturate(round_saturated(x / divisor) + offset), exact for every x.
// r.usable.
template <typename Saturate = Unsaturated>
inline int32_t divide_round_saturated_by_integer(const Reciprocal& r, float x, int32_t offset = 0,
                                                 Saturate saturate = Saturate()) {
  const uint32_t bits = float_bits(x);
  const uint32_t shift = static_cast<uint32_t>(r.exponent) - ((bits << 1) >> 24);
  if (__builtin_expect(shift - 1u >= 31u, 0)) return saturate(divide_round_saturated_rare(r, x, bits, offset));
  return round_fixed_point(r, x, bits, significand_product(r, bits) >> shift, offset, saturate);
}

// The core's form: the multiply on an FPU, the integer form elsewhere.
template <int kExactLog2 = 16, typename Saturate = Unsaturated>
inline int32_t divide_round_saturated(const Reciprocal& r, float x, int32_t offset = 0,
                                      Saturate saturate = Saturate()) {
#if MOTE_HAS_FPU
  return divide_round_saturated_by_multiply<kExactLog2>(r, x, offset, saturate);
#else
  return divide_round_saturated_by_integer(r, x, offset, saturate);
#endif
}

// The core's form for in[0] and in[1] (both read before either result is used).
template <int kExactLog2 = 16, typename Saturate = Unsaturated>
inline void divide_round_saturated_pair(const Reciprocal& r, const float* in, int32_t offset, Saturate saturate,
                                        int32_t& q0, int32_t& q1) {
#if MOTE_HAS_FPU
  int32_t f0, f1;
  uint32_t t0, t1;
  scaled_cvt_pair(in, r.scaled, MultiplyWindow<kExactLog2>::kBias, f0, f1, t0, t1);
  q0 = round_multiplied<kExactLog2>(r, in[0], f0, t0, offset, saturate);
  q1 = round_multiplied<kExactLog2>(r, in[1], f1, t1, offset, saturate);
#else
  q0 = divide_round_saturated_by_integer(r, in[0], offset, saturate);
  q1 = divide_round_saturated_by_integer(r, in[1], offset, saturate);
#endif
}

}  // namespace mote::fpu
