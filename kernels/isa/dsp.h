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
  return (a & 0xFFFFu) | (b << 16);
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

}  // namespace mote::dsp
