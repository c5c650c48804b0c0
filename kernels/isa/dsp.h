// The Armv7E-M / Armv8-M "DSP extension" (SIMD32) operations the __dsp kernel variants
// are written in, each with a portable definition that computes the same bits where the
// target lacks the extension (the host, Armv6-M, Armv7-M). So a __dsp variant runs, and
// is tested bit for bit against its reference, on the host as well as on its core.
//
// Values are uint32_t words holding two int16 halves (lo = bits 0-15) or four int8
// bytes (byte 0 = bits 0-7). Every operation wraps exactly as the instruction does; the
// saturation flag (Q) that SMLAD sets on overflow is not modelled and no kernel reads it.
//
// On a DSP core these are single instructions (ACLE intrinsics; the rotated forms are
// written in inline asm because GCC 12's ACLE has no rotate operand). MOTE_HAS_DSP says
// which definition is in use, for tests that report it.
#pragma once

#include <stdint.h>
#include <string.h>

#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
#include <arm_acle.h>
#define MOTE_HAS_DSP 1
#else
#define MOTE_HAS_DSP 0
#endif

namespace mote::dsp {

inline int32_t lo16(uint32_t x) { return static_cast<int16_t>(x & 0xFFFFu); }
inline int32_t hi16(uint32_t x) { return static_cast<int16_t>(x >> 16); }
inline int32_t byte_s8(uint32_t x, int n) { return static_cast<int8_t>((x >> (8 * n)) & 0xFFu); }
inline uint32_t pack16(int32_t lo, int32_t hi) {
  return (static_cast<uint32_t>(lo) & 0xFFFFu) | (static_cast<uint32_t>(hi) << 16);
}

// acc + lo(a) * lo(b) + hi(a) * hi(b), wrapping (SMLAD).
inline int32_t smlad(uint32_t a, uint32_t b, int32_t acc) {
#if MOTE_HAS_DSP
  return __smlad(static_cast<int32_t>(a), static_cast<int32_t>(b), acc);
#else
  const uint32_t sum = static_cast<uint32_t>(acc) + static_cast<uint32_t>(lo16(a) * lo16(b)) +
                       static_cast<uint32_t>(hi16(a) * hi16(b));
  return static_cast<int32_t>(sum);
#endif
}

// acc + lo(a) * hi(b) + hi(a) * lo(b), wrapping (SMLADX).
inline int32_t smladx(uint32_t a, uint32_t b, int32_t acc) {
#if MOTE_HAS_DSP
  return __smladx(static_cast<int32_t>(a), static_cast<int32_t>(b), acc);
#else
  const uint32_t sum = static_cast<uint32_t>(acc) + static_cast<uint32_t>(lo16(a) * hi16(b)) +
                       static_cast<uint32_t>(hi16(a) * lo16(b));
  return static_cast<int32_t>(sum);
#endif
}

// acc + lo(a) * lo(b), wrapping (SMLABB).
inline int32_t smlabb(uint32_t a, uint32_t b, int32_t acc) {
#if MOTE_HAS_DSP
  return __smlabb(static_cast<int32_t>(a), static_cast<int32_t>(b), acc);
#else
  return static_cast<int32_t>(static_cast<uint32_t>(acc) + static_cast<uint32_t>(lo16(a) * lo16(b)));
#endif
}

// acc + hi(a) * hi(b), wrapping (SMLATT).
inline int32_t smlatt(uint32_t a, uint32_t b, int32_t acc) {
#if MOTE_HAS_DSP
  return __smlatt(static_cast<int32_t>(a), static_cast<int32_t>(b), acc);
#else
  return static_cast<int32_t>(static_cast<uint32_t>(acc) + static_cast<uint32_t>(hi16(a) * hi16(b)));
#endif
}

// acc + lo(a) * hi(b), wrapping (SMLABT).
inline int32_t smlabt(uint32_t a, uint32_t b, int32_t acc) {
#if MOTE_HAS_DSP
  return __smlabt(static_cast<int32_t>(a), static_cast<int32_t>(b), acc);
#else
  return static_cast<int32_t>(static_cast<uint32_t>(acc) + static_cast<uint32_t>(lo16(a) * hi16(b)));
#endif
}

// acc + hi(a) * lo(b), wrapping (SMLATB).
inline int32_t smlatb(uint32_t a, uint32_t b, int32_t acc) {
#if MOTE_HAS_DSP
  return __smlatb(static_cast<int32_t>(a), static_cast<int32_t>(b), acc);
#else
  return static_cast<int32_t>(static_cast<uint32_t>(acc) + static_cast<uint32_t>(hi16(a) * lo16(b)));
#endif
}

// pack(hi(a), hi(b)) in one PKHTB (pack_hi_hi's portable form costs two instructions).
inline uint32_t pkhtb_hi_hi(uint32_t a, uint32_t b) {
#if MOTE_HAS_DSP
  uint32_t r;
  __asm__("pkhtb %0, %1, %2, asr #16" : "=r"(r) : "r"(b), "r"(a));
  return r;
#else
  return (a >> 16) | (b & 0xFFFF0000u);
#endif
}

// The rounded high word of the 64-bit product: (a * b + 2^31) >> 32 (SMMULR).
inline int32_t smmulr(int32_t a, int32_t b) {
#if MOTE_HAS_DSP
  int32_t r;
  __asm__("smmulr %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
  return r;
#else
  return static_cast<int32_t>((static_cast<int64_t>(a) * b + (int64_t{1} << 31)) >> 32);
#endif
}

// acc + the high word of a * b rounded: bits 63..32 of (acc << 32) + a * b + 2^31,
// wrapping (SMMLAR). Equals acc + smmulr(a, b) (mod 2^32).
inline int32_t smmlar(int32_t a, int32_t b, int32_t acc) {
#if MOTE_HAS_DSP
  int32_t r;
  __asm__("smmlar %0, %1, %2, %3" : "=r"(r) : "r"(a), "r"(b), "r"(acc));
  return r;
#else
  const uint64_t sum = (static_cast<uint64_t>(static_cast<uint32_t>(acc)) << 32) +
                       static_cast<uint64_t>(static_cast<int64_t>(a) * b) + (uint64_t{1} << 31);
  return static_cast<int32_t>(static_cast<uint32_t>(sum >> 32));
#endif
}

// Bytes 0 and 2 of x, sign-extended to halves lo and hi (SXTB16).
inline uint32_t sxtb16(uint32_t x) {
#if MOTE_HAS_DSP
  return static_cast<uint32_t>(__sxtb16(static_cast<int32_t>(x)));
#else
  return pack16(byte_s8(x, 0), byte_s8(x, 2));
#endif
}

// Bytes 1 and 3 of x, sign-extended to halves lo and hi (SXTB16 with ROR #8).
inline uint32_t sxtb16_ror8(uint32_t x) {
#if MOTE_HAS_DSP
  uint32_t r;
  __asm__("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(x));
  return r;
#else
  return pack16(byte_s8(x, 1), byte_s8(x, 3));
#endif
}

// Bytes 0 and 2 of x, zero-extended to halves lo and hi (UXTB16).
inline uint32_t uxtb16(uint32_t x) {
#if MOTE_HAS_DSP
  return __uxtb16(x);
#else
  return x & 0x00FF00FFu;
#endif
}

// Halves of a plus bytes 0 and 2 of x sign-extended, each half wrapping (SXTAB16).
inline uint32_t sxtab16(uint32_t a, uint32_t x) {
#if MOTE_HAS_DSP
  return static_cast<uint32_t>(__sxtab16(static_cast<int32_t>(a), static_cast<int32_t>(x)));
#else
  return pack16(lo16(a) + byte_s8(x, 0), hi16(a) + byte_s8(x, 2));
#endif
}

// Halves of a plus bytes 1 and 3 of x sign-extended (SXTAB16 with ROR #8).
inline uint32_t sxtab16_ror8(uint32_t a, uint32_t x) {
#if MOTE_HAS_DSP
  uint32_t r;
  __asm__("sxtab16 %0, %1, %2, ror #8" : "=r"(r) : "r"(a), "r"(x));
  return r;
#else
  return pack16(lo16(a) + byte_s8(x, 1), hi16(a) + byte_s8(x, 3));
#endif
}

// Halfwise wrapping add and subtract (SADD16, SSUB16).
inline uint32_t sadd16(uint32_t a, uint32_t b) {
#if MOTE_HAS_DSP
  return static_cast<uint32_t>(__sadd16(static_cast<int32_t>(a), static_cast<int32_t>(b)));
#else
  return pack16(lo16(a) + lo16(b), hi16(a) + hi16(b));
#endif
}

// lo half of a, hi half from b (PKHBT a, b, LSL #0 after b's lo moved up: pack(lo(a), lo(b))).
inline uint32_t pack_lo_lo(uint32_t a, uint32_t b) {
#if MOTE_HAS_DSP
  uint32_t r;  // one PKHBT (GCC 12 emits UXTH + ORR for the portable form)
  __asm__("pkhbt %0, %1, %2, lsl #16" : "=r"(r) : "r"(a), "r"(b));
  return r;
#else
  return (a & 0xFFFFu) | (b << 16);
#endif
}
// hi half of a to lo, hi half of b to hi: pack(hi(a), hi(b)).
inline uint32_t pack_hi_hi(uint32_t a, uint32_t b) {
  return (a >> 16) | (b & 0xFFFF0000u);
}

// Unaligned little-endian loads and stores; one LDR/STR on cores with unaligned access
// (Armv7-M and later), byte accesses elsewhere. Never LDRD/LDM, which must be aligned.
inline uint32_t load_u32(const void* p) {
  uint32_t v;
  memcpy(&v, p, sizeof(v));
  return v;
}
inline void store_u32(void* p, uint32_t v) { memcpy(p, &v, sizeof(v)); }

// Bytewise signed maximum and minimum of four int8 lanes (SSUB8 then SEL: SSUB8 sets
// each byte's GE flag when a >= b, SEL takes that byte from its first operand where GE
// is set). One asm block, so nothing can come between the flag write and its read.
inline uint32_t max_s8x4(uint32_t a, uint32_t b) {
#if MOTE_HAS_DSP
  uint32_t r;
  __asm__("ssub8 %0, %1, %2\n\tsel %0, %1, %2" : "=&r"(r) : "r"(a), "r"(b));
  return r;
#else
  uint32_t r = 0;
  for (int n = 0; n < 4; ++n) {
    const int32_t x = byte_s8(a, n) >= byte_s8(b, n) ? byte_s8(a, n) : byte_s8(b, n);
    r |= (static_cast<uint32_t>(x) & 0xFFu) << (8 * n);
  }
  return r;
#endif
}
inline uint32_t min_s8x4(uint32_t a, uint32_t b) {
#if MOTE_HAS_DSP
  uint32_t r;
  __asm__("ssub8 %0, %1, %2\n\tsel %0, %2, %1" : "=&r"(r) : "r"(a), "r"(b));
  return r;
#else
  uint32_t r = 0;
  for (int n = 0; n < 4; ++n) {
    const int32_t x = byte_s8(a, n) >= byte_s8(b, n) ? byte_s8(b, n) : byte_s8(a, n);
    r |= (static_cast<uint32_t>(x) & 0xFFu) << (8 * n);
  }
  return r;
#endif
}

// Both int16 halves of x clamped to [lo, hi] (halves of lo and hi; lo <= hi halfwise):
// SSUB16/SEL for the maximum, then for the minimum, as max_s8x4 / min_s8x4 bytewise.
inline uint32_t clamp_s16x2(uint32_t x, uint32_t lo, uint32_t hi) {
#if MOTE_HAS_DSP
  uint32_t t, r;
  __asm__("ssub16 %0, %2, %3\n\tsel %0, %2, %3\n\tssub16 %1, %0, %4\n\tsel %1, %4, %0"
          : "=&r"(t), "=&r"(r)
          : "r"(x), "r"(lo), "r"(hi));
  return r;
#else
  const int32_t x_lo = lo16(x) < lo16(lo) ? lo16(lo) : (lo16(x) > lo16(hi) ? lo16(hi) : lo16(x));
  const int32_t x_hi = hi16(x) < hi16(lo) ? hi16(lo) : (hi16(x) > hi16(hi) ? hi16(hi) : hi16(x));
  return pack16(x_lo, x_hi);
#endif
}

// The words at byte offset kOffsetBytes from p, p[k], p[k + 1], into lo, hi (one LDRD:
// p must be 4-aligned, kOffsetBytes a multiple of 4 in [0, 1020]).
template <int kOffsetBytes>
inline void load2_u32_at(const uint32_t* p, uint32_t& lo, uint32_t& hi) {
  static_assert(kOffsetBytes % 4 == 0 && kOffsetBytes >= 0 && kOffsetBytes <= 1020, "LDRD offset");
#if MOTE_HAS_DSP
  __asm__("ldrd %0, %1, [%2, %3]"
          : "=&r"(lo), "=r"(hi)
          : "r"(p), "i"(kOffsetBytes),
            "m"(*reinterpret_cast<const uint32_t(*)[2]>(p + kOffsetBytes / 4)));
#else
  lo = load_u32(p + kOffsetBytes / 4);
  hi = load_u32(p + kOffsetBytes / 4 + 1);
#endif
}

// p[0] = lo, p[1] = hi, then p advances by kStepBytes (one STRD with post-increment:
// p must be 4-aligned, kStepBytes a multiple of 4 in [-1020, 1020]).
template <int kStepBytes>
inline void store2_u32_advance(uint32_t*& p, uint32_t lo, uint32_t hi) {
  static_assert(kStepBytes % 4 == 0 && kStepBytes >= -1020 && kStepBytes <= 1020, "STRD offset");
#if MOTE_HAS_DSP
  __asm__("strd %2, %3, [%0], %4"
          : "+r"(p), "=m"(*reinterpret_cast<uint32_t(*)[2]>(p))
          : "r"(lo), "r"(hi), "i"(kStepBytes));
#else
  p[0] = lo;
  p[1] = hi;
  p += kStepBytes / 4;
#endif
}

// x saturated to [-128, 127] (SSAT #8).
inline int32_t ssat8(int32_t x) {
#if MOTE_HAS_DSP
  return __ssat(x, 8);
#else
  return x < -128 ? -128 : (x > 127 ? 127 : x);
#endif
}

// x saturated to [-32768, 32767] (SSAT #16) and to [0, 32767] (USAT #15).
inline int32_t ssat16(int32_t x) {
#if MOTE_HAS_DSP
  return __ssat(x, 16);
#else
  return x < -32768 ? -32768 : (x > 32767 ? 32767 : x);
#endif
}
inline int32_t usat15(int32_t x) {
#if MOTE_HAS_DSP
  return static_cast<int32_t>(__usat(x, 15));
#else
  return x < 0 ? 0 : (x > 32767 ? 32767 : x);
#endif
}

// Three taps of four channels of int16 x int8 products (16x8 depthwise rows): for
// k = 0, 1, 2 and j = 0..3, a_j += x[k * c + j] * w[k * c + j] (x: int16 values, w: int8
// weights, both c elements apart per tap). 28 instructions on a DSP core (one LDR per
// weight word and input word by register offset, SXTB16 of the weights, SMLAxy).
inline void mac3_taps_s16x4(const int16_t* x, const int8_t* w, int32_t c, int32_t& a0, int32_t& a1,
                            int32_t& a2, int32_t& a3) {
#if MOTE_HAS_DSP
#define MOTE_DSP_TAP(w_addr, x_addr, x23_addr)                  \
  "ldr %[t0], " w_addr "\n\t"                                   \
  "ldr %[t2], " x_addr "\n\t"                                   \
  "ldr %[t3], " x23_addr "\n\t"                                 \
  "sxtb16 %[t1], %[t0], ror #8\n\t"                            \
  "sxtb16 %[t0], %[t0]\n\t"                                     \
  "smlabb %[a0], %[t2], %[t0], %[a0]\n\t"                        \
  "smlatb %[a1], %[t2], %[t1], %[a1]\n\t"                        \
  "smlabt %[a2], %[t3], %[t0], %[a2]\n\t"                        \
  "smlatt %[a3], %[t3], %[t1], %[a3]\n\t"
  uint32_t t0, t1, t2, t3;
  const int16_t* xq;
  __asm__("add %[xq], %[x], #4\n\t"
          MOTE_DSP_TAP("[%[w]]", "[%[x]]", "[%[xq]]")
          MOTE_DSP_TAP("[%[w], %[c]]", "[%[x], %[c], lsl #1]", "[%[xq], %[c], lsl #1]")
          MOTE_DSP_TAP("[%[w], %[c], lsl #1]", "[%[x], %[c], lsl #2]", "[%[xq], %[c], lsl #2]")
          : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [t0] "=&r"(t0), [t1] "=&r"(t1),
            [t2] "=&r"(t2), [t3] "=&r"(t3), [xq] "=&r"(xq)
          : [x] "r"(x), [w] "r"(w), [c] "r"(c)
          : "memory");
#undef MOTE_DSP_TAP
#else
  for (int32_t k = 0; k < 3; ++k, x += c, w += c) {
    const uint32_t wv = load_u32(w);
    const uint32_t x01 = load_u32(x);
    const uint32_t x23 = load_u32(x + 2);
    a0 = smlabb(x01, sxtb16(wv), a0);
    a1 = smlatb(x01, sxtb16_ror8(wv), a1);
    a2 = smlabt(x23, sxtb16(wv), a2);
    a3 = smlatt(x23, sxtb16_ror8(wv), a3);
  }
#endif
}

// One group of four 16x8 products for two rows (16x8 fully connected layers): x holds the
// group's input as the interleaved pair (x0, x2), (x1, x3); w0 and w1 four int8 weights
// of each row. a_r += x0*w_r[0] + x2*w_r[2] + x1*w_r[1] + x3*w_r[3] (SMLAD of the SXTB16
// halves), then x += 2, w0 += 4, w1 += 4. 11 instructions on a DSP core, written in asm so
// the compiler cannot hoist an unrolled loop's loads into spills.
inline void dot_group_s16x8_2rows(const uint32_t*& x, const int8_t*& w0, const int8_t*& w1, int32_t& a0,
                                  int32_t& a1) {
#if MOTE_HAS_DSP
  uint32_t x02, x13, t0, t1, t2;
  __asm__("ldrd %[x02], %[x13], [%[x]], #8\n\t"
          "ldr %[t0], [%[w0]], #4\n\t"
          "ldr %[t1], [%[w1]], #4\n\t"
          "sxtb16 %[t2], %[t0]\n\t"
          "sxtb16 %[t0], %[t0], ror #8\n\t"
          "smlad %[a0], %[x02], %[t2], %[a0]\n\t"
          "smlad %[a0], %[x13], %[t0], %[a0]\n\t"
          "sxtb16 %[t2], %[t1]\n\t"
          "sxtb16 %[t1], %[t1], ror #8\n\t"
          "smlad %[a1], %[x02], %[t2], %[a1]\n\t"
          "smlad %[a1], %[x13], %[t1], %[a1]"
          : [a0] "+r"(a0), [a1] "+r"(a1), [x] "+r"(x), [w0] "+r"(w0), [w1] "+r"(w1), [x02] "=&r"(x02),
            [x13] "=&r"(x13), [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2)
          :
          : "memory");
#else
  const uint32_t v0 = load_u32(w0);
  const uint32_t v1 = load_u32(w1);
  a0 = smlad(x[1], sxtb16_ror8(v0), smlad(x[0], sxtb16(v0), a0));
  a1 = smlad(x[1], sxtb16_ror8(v1), smlad(x[0], sxtb16(v1), a1));
  x += 2;
  w0 += 4;
  w1 += 4;
#endif
}

// Two consecutive words p[0], p[1] into lo, hi, then p += 2 (one LDRD with post-increment:
// p must be 4-aligned). p may point into any bytes (read as by load_u32).
inline void load2_u32_advance(const uint32_t*& p, uint32_t& lo, uint32_t& hi) {
#if MOTE_HAS_DSP
  __asm__("ldrd %0, %1, [%2], #8"
          : "=r"(lo), "=r"(hi), "+r"(p)
          : "m"(*reinterpret_cast<const uint32_t(*)[2]>(p)));
#else
  lo = load_u32(p);
  hi = load_u32(p + 1);
  p += 2;
#endif
}

}  // namespace mote::dsp
