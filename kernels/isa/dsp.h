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

// acc + the high word of a * b truncated: bits 63..32 of (acc << 32) + a * b, wrapping
// (SMMLA): floor((a * b) / 2^32) + acc (mod 2^32).
inline int32_t smmla(int32_t a, int32_t b, int32_t acc) {
#if MOTE_HAS_DSP
  int32_t r;
  __asm__("smmla %0, %1, %2, %3" : "=r"(r) : "r"(a), "r"(b), "r"(acc));
  return r;
#else
  const uint64_t sum = (static_cast<uint64_t>(static_cast<uint32_t>(acc)) << 32) +
                       static_cast<uint64_t>(static_cast<int64_t>(a) * b);
  return static_cast<int32_t>(static_cast<uint32_t>(sum >> 32));
#endif
}

// Products of int16 halves: lo(a) * lo(b) (SMULBB), hi(a) * hi(b) (SMULTT),
// hi(a) * lo(b) (SMULTB). Exact: |product| <= 2^30.
inline int32_t smulbb(uint32_t a, uint32_t b) {
#if MOTE_HAS_DSP
  int32_t r;
  __asm__("smulbb %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
  return r;
#else
  return lo16(a) * lo16(b);
#endif
}
inline int32_t smultt(uint32_t a, uint32_t b) {
#if MOTE_HAS_DSP
  int32_t r;
  __asm__("smultt %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
  return r;
#else
  return hi16(a) * hi16(b);
#endif
}
inline int32_t smultb(uint32_t a, uint32_t b) {
#if MOTE_HAS_DSP
  int32_t r;
  __asm__("smultb %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
  return r;
#else
  return hi16(a) * lo16(b);
#endif
}

// a + b saturated to the int32 range (QADD).
inline int32_t qadd(int32_t a, int32_t b) {
#if MOTE_HAS_DSP
  int32_t r;
  __asm__("qadd %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
  return r;
#else
  const int64_t sum = int64_t{a} + b;
  return sum > INT32_MAX ? INT32_MAX : (sum < INT32_MIN ? INT32_MIN : static_cast<int32_t>(sum));
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
inline uint32_t ssub16(uint32_t a, uint32_t b) {
#if MOTE_HAS_DSP
  return static_cast<uint32_t>(__ssub16(static_cast<int32_t>(a), static_cast<int32_t>(b)));
#else
  return pack16(lo16(a) - lo16(b), hi16(a) - hi16(b));
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

// Halfwise signed maximum of two int16 lanes (SSUB16 sets each half's GE flags when
// a >= b, SEL takes those halves from a), one asm block as max_s8x4.
inline uint32_t max_s16x2(uint32_t a, uint32_t b) {
#if MOTE_HAS_DSP
  uint32_t flags_only;  // SEL overwrites a in place: no register copy in a running maximum
  __asm__("ssub16 %0, %1, %2\n\tsel %1, %1, %2" : "=&r"(flags_only), "+r"(a) : "r"(b));
  return a;
#else
  return pack16(lo16(a) >= lo16(b) ? lo16(a) : lo16(b), hi16(a) >= hi16(b) ? hi16(a) : hi16(b));
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
// p must be 4-aligned, kOffsetBytes a multiple of 4 in [-1020, 1020]).
template <int kOffsetBytes>
inline void load2_u32_at(const uint32_t* p, uint32_t& lo, uint32_t& hi) {
  static_assert(kOffsetBytes % 4 == 0 && kOffsetBytes >= -1020 && kOffsetBytes <= 1020,
                "LDRD offset");
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

// lo = p[0], hi = p[1], then p advances by kStepBytes (one LDRD with post-increment:
// p must be 4-aligned, kStepBytes a multiple of 4 in [-1020, 1020]).
template <int kStepBytes>
inline void load2_u32_step(const uint32_t*& p, uint32_t& lo, uint32_t& hi) {
  static_assert(kStepBytes % 4 == 0 && kStepBytes >= -1020 && kStepBytes <= 1020, "LDRD offset");
#if MOTE_HAS_DSP
  __asm__("ldrd %0, %1, [%2], %4"
          : "=&r"(lo), "=&r"(hi), "+r"(p)
          : "m"(*reinterpret_cast<const uint32_t(*)[2]>(p)), "i"(kStepBytes));
#else
  lo = p[0];
  hi = p[1];
  p += kStepBytes / 4;
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

// p[k] = lo, p[k + 1] = hi for the words at byte offset kOffsetBytes from p (one STRD: p
// must be 4-aligned, kOffsetBytes a multiple of 4 in [0, 1020]).
template <int kOffsetBytes>
inline void store2_u32_at(uint32_t* p, uint32_t lo, uint32_t hi) {
  static_assert(kOffsetBytes % 4 == 0 && kOffsetBytes >= 0 && kOffsetBytes <= 1020, "STRD offset");
#if MOTE_HAS_DSP
  __asm__("strd %1, %2, [%3, %4]"
          : "=m"(*reinterpret_cast<uint32_t(*)[2]>(p + kOffsetBytes / 4))
          : "r"(lo), "r"(hi), "r"(p), "i"(kOffsetBytes));
#else
  p[kOffsetBytes / 4] = lo;
  p[kOffsetBytes / 4 + 1] = hi;
#endif
}

// out[0], out[step], .., out[4 * step] = the low bytes of b0..b4, then ++out: five STRB
// and one ADD (GCC 12 keeps 2 * step .. 4 * step in registers or on the stack instead of
// the STRB's shifted register offsets).
inline void store5_s8_strided_advance(int8_t*& out, int32_t step, int32_t b0, int32_t b1,
                                      int32_t b2, int32_t b3, int32_t b4) {
#if MOTE_HAS_DSP
  int8_t* t;
  __asm__(
      "strb %[b1], [%[o], %[s]]\n\t"
      "strb %[b2], [%[o], %[s], lsl #1]\n\t"
      "strb %[b4], [%[o], %[s], lsl #2]\n\t"
      "add %[t], %[o], %[s]\n\t"
      "strb %[b3], [%[t], %[s], lsl #1]\n\t"
      "strb %[b0], [%[o]], #1"
      : [o] "+r"(out), [t] "=&r"(t)
      : [s] "r"(step), [b0] "r"(b0), [b1] "r"(b1), [b2] "r"(b2), [b3] "r"(b3), [b4] "r"(b4)
      : "memory");
#else
  out[0] = static_cast<int8_t>(b0);
  out[step] = static_cast<int8_t>(b1);
  out[2 * step] = static_cast<int8_t>(b2);
  out[3 * step] = static_cast<int8_t>(b3);
  out[4 * step] = static_cast<int8_t>(b4);
  ++out;
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

// (x >> kShift) (arithmetic) saturated to [-128, 127]: SSAT #8 with its shifted operand.
template <int kShift>
inline int32_t ssat8_asr(int32_t x) {
  static_assert(kShift >= 1 && kShift <= 31, "SSAT's ASR takes 1..31");
#if MOTE_HAS_DSP
  int32_t r;
  __asm__("ssat %0, #8, %1, asr %2" : "=r"(r) : "r"(x), "I"(kShift));
  return r;
#else
  const int32_t y = x >> kShift;
  return y < -128 ? -128 : (y > 127 ? 127 : y);
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

// `pairs` pairs of horizontally adjacent output pixels of a 3x3 16x8 depthwise window
// (int16 inputs, int8 weights, dilation 1 across), `quads` groups of four channels each.
// For pair i, pixel P = 0, 1 (n = 2i + P), channel j = 4q..4q+3 (q < quads), with
// s = 1 << kStrideLog2:
//   acc = table[2j] + sum over taps t = 3r + k < 9 of x[r * in_row_step + (k + n * s) * c + j] *
//         weight(t, j)                             (int32, wrapping: callers bound it)
//   out[n * c + j] = clamp(smmulr(acc, table[2j + 1])), clamp by clamp_kind:
//         0: SSAT #16, 1: USAT #15, 2: [act_min, act_max].
// table holds (bias, multiplier) per channel; ws the weights split as SXTB16 does, group
// by group, tap by tap: ws[2(9q + t)] = (weight(t, 4q), weight(t, 4q + 2)) and
// ws[2(9q + t) + 1] = (weight(t, 4q + 1), weight(t, 4q + 3)) as int16 halves (lo, hi).
// The whole loop is one asm statement using all 14 registers (loop state in memory
// operands): about 180 instructions per group of four channels of a pair (72 MACs) plus
// 15 per pair.
template <int kStrideLog2>
inline void dw3x3_pair_quads_s16x8(const int16_t* x, const uint32_t* ws, int32_t c, int32_t in_row_step,
                                   const int32_t* table, int32_t quads, int32_t pairs, int32_t clamp_kind,
                                   int32_t act_min, int32_t act_max, int16_t* out) {
  static_assert(kStrideLog2 == 0 || kStrideLog2 == 1, "stride 1 or 2");
#if MOTE_HAS_DSP
  if (quads <= 0 || pairs <= 0) return;
  // One tap of both pixels; p points 4 bytes past the first pixel's tap.
#define MOTE_DSP_TAP2(sh)                                     \
  "ldrd %[t0], %[t1], [%[w]], #8\n\t"                         \
  "ldr %[t2], [%[p], #-4]!\n\t"                              \
  "smlabb %[a0], %[t2], %[t0], %[a0]\n\t"                    \
  "smlatb %[a1], %[t2], %[t1], %[a1]\n\t"                    \
  "ldr %[t2], [%[p], %[c], lsl #" sh "]\n\t"                   \
  "smlabb %[b0], %[t2], %[t0], %[b0]\n\t"                    \
  "smlatb %[b1], %[t2], %[t1], %[b1]\n\t"                    \
  "ldr %[t2], [%[p], #4]!\n\t"                               \
  "smlabt %[a2], %[t2], %[t0], %[a2]\n\t"                    \
  "smlatt %[a3], %[t2], %[t1], %[a3]\n\t"                    \
  "ldr %[t2], [%[p], %[c], lsl #" sh "]\n\t"                   \
  "smlabt %[b2], %[t2], %[t0], %[b2]\n\t"                    \
  "smlatt %[b3], %[t2], %[t1], %[b3]\n\t"
#define MOTE_DSP_ROW2(sh)                                     \
  MOTE_DSP_TAP2(sh)                                          \
  "add %[p], %[p], %[c], lsl #1\n\t"                         \
  MOTE_DSP_TAP2(sh)                                          \
  "add %[p], %[p], %[c], lsl #1\n\t"                         \
  MOTE_DSP_TAP2(sh)
#define MOTE_DSP_CLAMP(v)                                     \
  "cmp %[" v "], %[t0]\n\t"                                  \
  "it lt\n\t"                                                \
  "movlt %[" v "], %[t0]\n\t"                                \
  "cmp %[" v "], %[t1]\n\t"                                  \
  "it gt\n\t"                                                \
  "movgt %[" v "], %[t1]\n\t"
  // Loop state the registers cannot hold. Steps in bytes: to the next row, the next group
  // of four channels, the next pair.
  struct {
    const int32_t* table;
    const int32_t* table_end;
    int16_t* out;
    int32_t row_step, p_next, kind;
  } f = {table, table + 8 * quads, out, 2 * in_row_step - 4 * c, 8 - 4 * in_row_step - 4 * c, clamp_kind};
  // Read by the pair loop and the [act_min, act_max] clamp through one pointer (an asm
  // statement takes at most 30 operands): byte offsets 0 table, 4, 8, 12 steps of the
  // input, weight and output pointers to the next pair, 16 pairs left, 20 act_min,
  // 24 act_max.
  uintptr_t rare[7] = {reinterpret_cast<uintptr_t>(table),
                       static_cast<uintptr_t>((4 << kStrideLog2) * c - 8 * quads),
                       static_cast<uintptr_t>(-72 * quads),
                       static_cast<uintptr_t>(4 * c - 8 * quads),
                       static_cast<uintptr_t>(pairs),
                       static_cast<uintptr_t>(act_min),
                       static_cast<uintptr_t>(act_max)};
  uintptr_t* rare_p = rare;
  const int16_t* p = x + 2;
  const uint32_t* w = ws;
  int32_t a0, a1, a2, a3, b0, b1, b2, b3;
  uint32_t t0, t1, t2;
#define MOTE_DSP_PAIRS(sh) \
  __asm__ volatile( \
      "1:\n\t" \
      "ldr %[t2], %[tab]\n\t" \
      "ldr %[a0], [%[t2]]\n\t" \
      "ldr %[a1], [%[t2], #8]\n\t" \
      "ldr %[a2], [%[t2], #16]\n\t" \
      "ldr %[a3], [%[t2], #24]\n\t" \
      "mov %[b0], %[a0]\n\t" \
      "mov %[b1], %[a1]\n\t" \
      "mov %[b2], %[a2]\n\t" \
      "mov %[b3], %[a3]\n\t" \
      MOTE_DSP_ROW2(sh) \
      "ldr %[t0], %[rs]\n\t" \
      "add %[p], %[p], %[t0]\n\t" \
      MOTE_DSP_ROW2(sh) \
      "ldr %[t0], %[rs]\n\t" \
      "add %[p], %[p], %[t0]\n\t" \
      MOTE_DSP_ROW2(sh) \
      "ldr %[t0], %[pn]\n\t" \
      "add %[p], %[p], %[t0]\n\t" \
      "ldr %[t2], %[tab]\n\t" \
      "ldr %[t0], [%[t2], #4]\n\t" \
      "smmulr %[a0], %[a0], %[t0]\n\t" \
      "smmulr %[b0], %[b0], %[t0]\n\t" \
      "ldr %[t0], [%[t2], #12]\n\t" \
      "smmulr %[a1], %[a1], %[t0]\n\t" \
      "smmulr %[b1], %[b1], %[t0]\n\t" \
      "ldr %[t0], [%[t2], #20]\n\t" \
      "smmulr %[a2], %[a2], %[t0]\n\t" \
      "smmulr %[b2], %[b2], %[t0]\n\t" \
      "ldr %[t0], [%[t2], #28]\n\t" \
      "smmulr %[a3], %[a3], %[t0]\n\t" \
      "smmulr %[b3], %[b3], %[t0]\n\t" \
      "add %[t2], %[t2], #32\n\t" \
      "str %[t2], %[tab]\n\t" \
      "ldr %[t0], %[kind]\n\t" \
      "cmp %[t0], #1\n\t" \
      "beq 3f\n\t" \
      "bhi 4f\n\t" \
      "ssat %[a0], #16, %[a0]\n\t" \
      "ssat %[a1], #16, %[a1]\n\t" \
      "ssat %[a2], #16, %[a2]\n\t" \
      "ssat %[a3], #16, %[a3]\n\t" \
      "ssat %[b0], #16, %[b0]\n\t" \
      "ssat %[b1], #16, %[b1]\n\t" \
      "ssat %[b2], #16, %[b2]\n\t" \
      "ssat %[b3], #16, %[b3]\n\t" \
      "b 5f\n" \
      "3:\n\t" \
      "usat %[a0], #15, %[a0]\n\t" \
      "usat %[a1], #15, %[a1]\n\t" \
      "usat %[a2], #15, %[a2]\n\t" \
      "usat %[a3], #15, %[a3]\n\t" \
      "usat %[b0], #15, %[b0]\n\t" \
      "usat %[b1], #15, %[b1]\n\t" \
      "usat %[b2], #15, %[b2]\n\t" \
      "usat %[b3], #15, %[b3]\n\t" \
      "b 5f\n" \
      "4:\n\t" \
      "ldr %[t1], %[fp]\n\t" \
      "ldr %[t0], [%[t1], #20]\n\t" \
      "ldr %[t1], [%[t1], #24]\n\t" \
      MOTE_DSP_CLAMP("a0") MOTE_DSP_CLAMP("a1") MOTE_DSP_CLAMP("a2") MOTE_DSP_CLAMP("a3") \
      MOTE_DSP_CLAMP("b0") MOTE_DSP_CLAMP("b1") MOTE_DSP_CLAMP("b2") MOTE_DSP_CLAMP("b3") \
      "5:\n\t" \
      "ldr %[t1], %[outp]\n\t" \
      "strh %[a0], [%[t1]]\n\t" \
      "strh %[a1], [%[t1], #2]\n\t" \
      "strh %[a2], [%[t1], #4]\n\t" \
      "strh %[a3], [%[t1], #6]\n\t" \
      "add %[t0], %[t1], %[c], lsl #1\n\t" \
      "strh %[b0], [%[t0]]\n\t" \
      "strh %[b1], [%[t0], #2]\n\t" \
      "strh %[b2], [%[t0], #4]\n\t" \
      "strh %[b3], [%[t0], #6]\n\t" \
      "add %[t1], %[t1], #8\n\t" \
      "str %[t1], %[outp]\n\t" \
      "ldr %[t0], %[tend]\n\t" \
      "cmp %[t2], %[t0]\n\t" \
      "bne 1b\n\t" \
      "ldr %[t2], %[fp]\n\t" \
      "ldr %[t0], [%[t2], #12]\n\t" \
      "add %[t1], %[t1], %[t0]\n\t" \
      "str %[t1], %[outp]\n\t" \
      "ldr %[t0], [%[t2], #4]\n\t" \
      "add %[p], %[p], %[t0]\n\t" \
      "ldr %[t0], [%[t2], #8]\n\t" \
      "add %[w], %[w], %[t0]\n\t" \
      "ldr %[t0], [%[t2]]\n\t" \
      "str %[t0], %[tab]\n\t" \
      "ldr %[t0], [%[t2], #16]\n\t" \
      "subs %[t0], %[t0], #1\n\t" \
      "str %[t0], [%[t2], #16]\n\t" \
      "bne 1b\n\t" \
      : [a0] "=&r"(a0), [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3), [b0] "=&r"(b0), [b1] "=&r"(b1), \
        [b2] "=&r"(b2), [b3] "=&r"(b3), [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [p] "+r"(p), [w] "+r"(w), \
        [tab] "+m"(f.table), [outp] "+m"(f.out) \
      : [c] "r"(c), [tend] "m"(f.table_end), [fp] "m"(rare_p), [rs] "m"(f.row_step), \
        [pn] "m"(f.p_next), [kind] "m"(f.kind) \
      : "cc", "memory");
  // The second pixel's inputs are c << (1 + kStrideLog2) bytes after the first's.
  if constexpr (kStrideLog2 == 0) {
    MOTE_DSP_PAIRS("1")
  } else {
    MOTE_DSP_PAIRS("2")
  }

#undef MOTE_DSP_TAP2
#undef MOTE_DSP_ROW2
#undef MOTE_DSP_CLAMP
#undef MOTE_DSP_PAIRS
#else
  const int32_t s = c << kStrideLog2;
  for (int32_t n = 0; n < 2 * pairs; ++n) {
    for (int32_t j = 0; j < 4 * quads; ++j) {
      uint32_t acc = static_cast<uint32_t>(table[2 * j]);
      for (int32_t r = 0; r < 3; ++r) {
        for (int32_t k = 0; k < 3; ++k) {
          const int32_t xv = x[r * in_row_step + k * c + n * s + j];
          const uint32_t split = ws[2 * (9 * (j / 4) + 3 * r + k) + (j & 1)];
          const int32_t weight = (j & 2) != 0 ? hi16(split) : lo16(split);
          acc += static_cast<uint32_t>(xv * weight);
        }
      }
      int32_t v = smmulr(static_cast<int32_t>(acc), table[2 * j + 1]);
      if (clamp_kind == 0) {
        v = ssat16(v);
      } else if (clamp_kind == 1) {
        v = usat15(v);
      } else {
        v = v < act_min ? act_min : (v > act_max ? act_max : v);
      }
      out[n * c + j] = static_cast<int16_t>(v);
    }
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

// dot_group_s16x8_2rows for four rows (the four gates of an LSTM unit): one LDRD of the
// group's interleaved input, then per row one weight word, two extends and two SMLADs;
// a_r += x0*w_r[0] + x2*w_r[2] + x1*w_r[1] + x3*w_r[3], x += 2, each w_r += 4.
// 21 instructions on a DSP core (13 registers: the caller's loop keeps the rest).
inline void dot_group_s16x8_4rows(const uint32_t*& x, const int8_t*& w0, const int8_t*& w1, const int8_t*& w2,
                                  const int8_t*& w3, int32_t& a0, int32_t& a1, int32_t& a2, int32_t& a3) {
#if MOTE_HAS_DSP
  uint32_t x02, x13, t0, t1;
  __asm__("ldrd %[x02], %[x13], [%[x]], #8\n\t"
          "ldr %[t0], [%[w0]], #4\n\t"
          "sxtb16 %[t1], %[t0]\n\t"
          "sxtb16 %[t0], %[t0], ror #8\n\t"
          "smlad %[a0], %[x02], %[t1], %[a0]\n\t"
          "smlad %[a0], %[x13], %[t0], %[a0]\n\t"
          "ldr %[t0], [%[w1]], #4\n\t"
          "sxtb16 %[t1], %[t0]\n\t"
          "sxtb16 %[t0], %[t0], ror #8\n\t"
          "smlad %[a1], %[x02], %[t1], %[a1]\n\t"
          "smlad %[a1], %[x13], %[t0], %[a1]\n\t"
          "ldr %[t0], [%[w2]], #4\n\t"
          "sxtb16 %[t1], %[t0]\n\t"
          "sxtb16 %[t0], %[t0], ror #8\n\t"
          "smlad %[a2], %[x02], %[t1], %[a2]\n\t"
          "smlad %[a2], %[x13], %[t0], %[a2]\n\t"
          "ldr %[t0], [%[w3]], #4\n\t"
          "sxtb16 %[t1], %[t0]\n\t"
          "sxtb16 %[t0], %[t0], ror #8\n\t"
          "smlad %[a3], %[x02], %[t1], %[a3]\n\t"
          "smlad %[a3], %[x13], %[t0], %[a3]"
          : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [x] "+r"(x), [w0] "+r"(w0),
            [w1] "+r"(w1), [w2] "+r"(w2), [w3] "+r"(w3), [x02] "=&r"(x02), [x13] "=&r"(x13), [t0] "=&r"(t0),
            [t1] "=&r"(t1)
          :
          : "memory");
#else
  dot_group_s16x8_2rows(x, w0, w1, a0, a1);
  x -= 2;
  dot_group_s16x8_2rows(x, w2, w3, a2, a3);
#endif
}

// dot_group_s16x8_2rows against two inputs at once (one weight word serves both): x
// points at the group of input u, (u0, u2), (u1, u3), followed by that of input v;
// a_r += u . w_r and b_r += v . w_r over the group, then x += 4, w0 += 4, w1 += 4.
// 16 instructions per 16 MACs on a DSP core (13 registers).
inline void dot_group_s16x8_2rows_2inputs(const uint32_t*& x, const int8_t*& w0, const int8_t*& w1, int32_t& a0,
                                          int32_t& a1, int32_t& b0, int32_t& b1) {
#if MOTE_HAS_DSP
  uint32_t u02, u13, v02, v13, t0, t1;
  __asm__("ldrd %[u02], %[u13], [%[x]], #8\n\t"
          "ldrd %[v02], %[v13], [%[x]], #8\n\t"
          "ldr %[t0], [%[w0]], #4\n\t"
          "sxtb16 %[t1], %[t0]\n\t"
          "sxtb16 %[t0], %[t0], ror #8\n\t"
          "smlad %[a0], %[u02], %[t1], %[a0]\n\t"
          "smlad %[a0], %[u13], %[t0], %[a0]\n\t"
          "smlad %[b0], %[v02], %[t1], %[b0]\n\t"
          "smlad %[b0], %[v13], %[t0], %[b0]\n\t"
          "ldr %[t0], [%[w1]], #4\n\t"
          "sxtb16 %[t1], %[t0]\n\t"
          "sxtb16 %[t0], %[t0], ror #8\n\t"
          "smlad %[a1], %[u02], %[t1], %[a1]\n\t"
          "smlad %[a1], %[u13], %[t0], %[a1]\n\t"
          "smlad %[b1], %[v02], %[t1], %[b1]\n\t"
          "smlad %[b1], %[v13], %[t0], %[b1]"
          : [a0] "+r"(a0), [a1] "+r"(a1), [b0] "+r"(b0), [b1] "+r"(b1), [x] "+r"(x), [w0] "+r"(w0),
            [w1] "+r"(w1), [u02] "=&r"(u02), [u13] "=&r"(u13), [v02] "=&r"(v02), [v13] "=&r"(v13),
            [t0] "=&r"(t0), [t1] "=&r"(t1)
          :
          : "memory");
#else
  dot_group_s16x8_2rows(x, w0, w1, a0, a1);
  w0 -= 4;
  w1 -= 4;
  dot_group_s16x8_2rows(x, w0, w1, b0, b1);
#endif
}

// One row of int8 weights against four int16 inputs u0..u3 whose groups of four values
// are interleaved (conv2d's im2col columns): group g is the 8 words at x, for input p
// x[2p] = (u_p[4g], u_p[4g+2]) and x[2p+1] = (u_p[4g+1], u_p[4g+3]) (lo, hi), the order
// SXTB16 / SXTB16 ROR #8 split a weight word into. For every group from x to x_end (a
// multiple of 8 words apart; none when equal): a_p += the group's four products of u_p,
// x += 8, w += 4 (w any alignment). One asm loop, 17 instructions per 16 MACs on a DSP
// core (a compiled loop spills the accumulators of callers with more state).
inline void dot_groups_s16x8_4inputs(const uint32_t*& x, const uint32_t* x_end, const int8_t*& w, int32_t& a0,
                                     int32_t& a1, int32_t& a2, int32_t& a3) {
#if MOTE_HAS_DSP
  uint32_t we, wo, xe, xo;
  __asm__("cmp %[x], %[end]\n\t"
          "beq 2f\n"
          "1:\n\t"
          "ldr %[wo], [%[w]], #4\n\t"
          "ldrd %[xe], %[xo], [%[x]], #32\n\t"
          "sxtb16 %[we], %[wo]\n\t"
          "sxtb16 %[wo], %[wo], ror #8\n\t"
          "smlad %[a0], %[xe], %[we], %[a0]\n\t"
          "smlad %[a0], %[xo], %[wo], %[a0]\n\t"
          "ldrd %[xe], %[xo], [%[x], #-24]\n\t"
          "smlad %[a1], %[xe], %[we], %[a1]\n\t"
          "smlad %[a1], %[xo], %[wo], %[a1]\n\t"
          "ldrd %[xe], %[xo], [%[x], #-16]\n\t"
          "smlad %[a2], %[xe], %[we], %[a2]\n\t"
          "smlad %[a2], %[xo], %[wo], %[a2]\n\t"
          "ldrd %[xe], %[xo], [%[x], #-8]\n\t"
          "smlad %[a3], %[xe], %[we], %[a3]\n\t"
          "smlad %[a3], %[xo], %[wo], %[a3]\n\t"
          "cmp %[x], %[end]\n\t"
          "bne 1b\n"
          "2:"
          : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [x] "+r"(x), [w] "+r"(w),
            [we] "=&r"(we), [wo] "=&r"(wo), [xe] "=&r"(xe), [xo] "=&r"(xo)
          : [end] "r"(x_end)
          : "cc", "memory");
#else
  for (; x != x_end; x += 8, w += 4) {
    const uint32_t v = load_u32(w);
    const uint32_t we = sxtb16(v);
    const uint32_t wo = sxtb16_ror8(v);
    a0 = smlad(x[1], wo, smlad(x[0], we, a0));
    a1 = smlad(x[3], wo, smlad(x[2], we, a1));
    a2 = smlad(x[5], wo, smlad(x[4], we, a2));
    a3 = smlad(x[7], wo, smlad(x[6], we, a3));
  }
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
