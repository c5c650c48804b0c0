// Register-blocked float32 multiply-accumulate steps for cores with a single-precision FPU
// (the __fpu kernel variants), each with a portable definition that computes the same
// sums in the same order where the target has no FPU (the host, Armv6-M, Armv7-M).
//
// Every step adds products to accumulators one at a time, in the order written below
// (acc += x * w, as plain C++ with floating-point contraction computes it: one fused
// multiply-add per product, VFMA.F32, on an FPU core). On an FPU core a step loads four
// consecutive floats per VLDM instruction (inline asm: the compiler loads floats one by
// one), which is most of what the step saves over plain C++. MOTE_HAS_FPU says which
// definition is in use.
#pragma once

#include <math.h>
#include <stdint.h>
#include <string.h>

#if defined(__arm__) && defined(__ARM_FP) && (__ARM_FP & 4)
#define MOTE_HAS_FPU 1
#else
#define MOTE_HAS_FPU 0
#endif

namespace mote::fpu {

// A float's bit pattern and back.
inline uint32_t float_bits(float v) {
  uint32_t bits;
  memcpy(&bits, &v, sizeof bits);
  return bits;
}
inline float float_from_bits(uint32_t bits) {
  float v;
  memcpy(&v, &bits, sizeof v);
  return v;
}

// Four consecutive floats, as an asm memory operand.
struct Four {
  float v[4];
};
inline const Four& four(const float* p) { return *reinterpret_cast<const Four*>(p); }

// Two pixels (xa, xb) x four channel rows (w0..w3), four values of each; every pointer
// advances by 4. For i = 0..3 in turn: a_c += xa[i] * wc[i], b_c += xb[i] * wc[i], per
// channel c = 0..3 (each accumulator's products in the order of i).
__attribute__((always_inline)) inline void fma_2x4_step4(float& a0, float& a1, float& a2, float& a3, float& b0,
                                                         float& b1, float& b2, float& b3, const float*& xa,
                                                         const float*& xb, const float*& w0, const float*& w1,
                                                         const float*& w2, const float*& w3) {
#if MOTE_HAS_FPU
  asm("vldmia %[xa]!, {s0-s3}\n\t"
      "vldmia %[xb]!, {s4-s7}\n\t"
      "vldmia %[w0]!, {s8-s11}\n\t"
      "vfma.f32 %[a0], s0, s8\n\tvfma.f32 %[b0], s4, s8\n\t"
      "vfma.f32 %[a0], s1, s9\n\tvfma.f32 %[b0], s5, s9\n\t"
      "vfma.f32 %[a0], s2, s10\n\tvfma.f32 %[b0], s6, s10\n\t"
      "vfma.f32 %[a0], s3, s11\n\tvfma.f32 %[b0], s7, s11\n\t"
      "vldmia %[w1]!, {s8-s11}\n\t"
      "vfma.f32 %[a1], s0, s8\n\tvfma.f32 %[b1], s4, s8\n\t"
      "vfma.f32 %[a1], s1, s9\n\tvfma.f32 %[b1], s5, s9\n\t"
      "vfma.f32 %[a1], s2, s10\n\tvfma.f32 %[b1], s6, s10\n\t"
      "vfma.f32 %[a1], s3, s11\n\tvfma.f32 %[b1], s7, s11\n\t"
      "vldmia %[w2]!, {s8-s11}\n\t"
      "vfma.f32 %[a2], s0, s8\n\tvfma.f32 %[b2], s4, s8\n\t"
      "vfma.f32 %[a2], s1, s9\n\tvfma.f32 %[b2], s5, s9\n\t"
      "vfma.f32 %[a2], s2, s10\n\tvfma.f32 %[b2], s6, s10\n\t"
      "vfma.f32 %[a2], s3, s11\n\tvfma.f32 %[b2], s7, s11\n\t"
      "vldmia %[w3]!, {s8-s11}\n\t"
      "vfma.f32 %[a3], s0, s8\n\tvfma.f32 %[b3], s4, s8\n\t"
      "vfma.f32 %[a3], s1, s9\n\tvfma.f32 %[b3], s5, s9\n\t"
      "vfma.f32 %[a3], s2, s10\n\tvfma.f32 %[b3], s6, s10\n\t"
      "vfma.f32 %[a3], s3, s11\n\tvfma.f32 %[b3], s7, s11"
      : [a0] "+t"(a0), [a1] "+t"(a1), [a2] "+t"(a2), [a3] "+t"(a3), [b0] "+t"(b0), [b1] "+t"(b1),
        [b2] "+t"(b2), [b3] "+t"(b3), [xa] "+r"(xa), [xb] "+r"(xb), [w0] "+r"(w0), [w1] "+r"(w1), [w2] "+r"(w2),
        [w3] "+r"(w3)
      :  // (the memory read is declared by the clobber: asm takes at most 30 operands)
      : "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "memory");
#else
  const auto channel = [xa, xb](float& a, float& b, const float* w) {
    for (int i = 0; i < 4; ++i) {
      a += xa[i] * w[i];
      b += xb[i] * w[i];
    }
  };
  channel(a0, b0, w0);
  channel(a1, b1, w1);
  channel(a2, b2, w2);
  channel(a3, b3, w3);
  xa += 4;
  xb += 4;
  w0 += 4;
  w1 += 4;
  w2 += 4;
  w3 += 4;
#endif
}

// One pixel (or input row) x four channel rows, four values of each; every pointer
// advances by 4. For c = 0..3: a_c += x[i] * wc[i] for i = 0..3 in turn.
__attribute__((always_inline)) inline void fma_1x4_step4(float& a0, float& a1, float& a2, float& a3, const float*& x,
                                                         const float*& w0, const float*& w1, const float*& w2,
                                                         const float*& w3) {
#if MOTE_HAS_FPU
  asm("vldmia %[x]!, {s0-s3}\n\t"
      "vldmia %[w0]!, {s4-s7}\n\t"
      "vldmia %[w1]!, {s8-s11}\n\t"
      "vfma.f32 %[a0], s0, s4\n\tvfma.f32 %[a1], s0, s8\n\t"
      "vfma.f32 %[a0], s1, s5\n\tvfma.f32 %[a1], s1, s9\n\t"
      "vfma.f32 %[a0], s2, s6\n\tvfma.f32 %[a1], s2, s10\n\t"
      "vfma.f32 %[a0], s3, s7\n\tvfma.f32 %[a1], s3, s11\n\t"
      "vldmia %[w2]!, {s4-s7}\n\t"
      "vldmia %[w3]!, {s8-s11}\n\t"
      "vfma.f32 %[a2], s0, s4\n\tvfma.f32 %[a3], s0, s8\n\t"
      "vfma.f32 %[a2], s1, s5\n\tvfma.f32 %[a3], s1, s9\n\t"
      "vfma.f32 %[a2], s2, s6\n\tvfma.f32 %[a3], s2, s10\n\t"
      "vfma.f32 %[a2], s3, s7\n\tvfma.f32 %[a3], s3, s11"
      : [a0] "+t"(a0), [a1] "+t"(a1), [a2] "+t"(a2), [a3] "+t"(a3), [x] "+r"(x), [w0] "+r"(w0), [w1] "+r"(w1),
        [w2] "+r"(w2), [w3] "+r"(w3)
      : "m"(four(x)), "m"(four(w0)), "m"(four(w1)), "m"(four(w2)), "m"(four(w3))
      : "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11");
#else
  for (int i = 0; i < 4; ++i) a0 += x[i] * w0[i];
  for (int i = 0; i < 4; ++i) a1 += x[i] * w1[i];
  for (int i = 0; i < 4; ++i) a2 += x[i] * w2[i];
  for (int i = 0; i < 4; ++i) a3 += x[i] * w3[i];
  x += 4;
  w0 += 4;
  w1 += 4;
  w2 += 4;
  w3 += 4;
#endif
}

// Eight consecutive floats, as an asm memory operand.
struct Eight {
  float v[8];
};
inline const Eight& eight(const float* p) { return *reinterpret_cast<const Eight*>(p); }

// fma_1x4_step4 over eight values of each row: one VLDM of eight floats per row, so a
// long row (a fully connected layer's) runs 37 instructions per 32 products instead of
// 42. For c = 0..3: a_c += x[i] * wc[i] for i = 0..7 in turn; every pointer advances by 8.
__attribute__((always_inline)) inline void fma_1x4_step8(float& a0, float& a1, float& a2, float& a3, const float*& x,
                                                         const float*& w0, const float*& w1, const float*& w2,
                                                         const float*& w3) {
#if MOTE_HAS_FPU
  asm("vldmia %[x]!, {s0-s7}\n\t"
      "vldmia %[w0]!, {s8-s15}\n\t"
      "vldmia %[w1]!, {s16-s23}\n\t"
      "vfma.f32 %[a0], s0, s8\n\tvfma.f32 %[a1], s0, s16\n\t"
      "vfma.f32 %[a0], s1, s9\n\tvfma.f32 %[a1], s1, s17\n\t"
      "vfma.f32 %[a0], s2, s10\n\tvfma.f32 %[a1], s2, s18\n\t"
      "vfma.f32 %[a0], s3, s11\n\tvfma.f32 %[a1], s3, s19\n\t"
      "vfma.f32 %[a0], s4, s12\n\tvfma.f32 %[a1], s4, s20\n\t"
      "vfma.f32 %[a0], s5, s13\n\tvfma.f32 %[a1], s5, s21\n\t"
      "vfma.f32 %[a0], s6, s14\n\tvfma.f32 %[a1], s6, s22\n\t"
      "vfma.f32 %[a0], s7, s15\n\tvfma.f32 %[a1], s7, s23\n\t"
      "vldmia %[w2]!, {s8-s15}\n\t"
      "vldmia %[w3]!, {s16-s23}\n\t"
      "vfma.f32 %[a2], s0, s8\n\tvfma.f32 %[a3], s0, s16\n\t"
      "vfma.f32 %[a2], s1, s9\n\tvfma.f32 %[a3], s1, s17\n\t"
      "vfma.f32 %[a2], s2, s10\n\tvfma.f32 %[a3], s2, s18\n\t"
      "vfma.f32 %[a2], s3, s11\n\tvfma.f32 %[a3], s3, s19\n\t"
      "vfma.f32 %[a2], s4, s12\n\tvfma.f32 %[a3], s4, s20\n\t"
      "vfma.f32 %[a2], s5, s13\n\tvfma.f32 %[a3], s5, s21\n\t"
      "vfma.f32 %[a2], s6, s14\n\tvfma.f32 %[a3], s6, s22\n\t"
      "vfma.f32 %[a2], s7, s15\n\tvfma.f32 %[a3], s7, s23"
      : [a0] "+t"(a0), [a1] "+t"(a1), [a2] "+t"(a2), [a3] "+t"(a3), [x] "+r"(x), [w0] "+r"(w0), [w1] "+r"(w1),
        [w2] "+r"(w2), [w3] "+r"(w3)
      : "m"(eight(x)), "m"(eight(w0)), "m"(eight(w1)), "m"(eight(w2)), "m"(eight(w3))
      : "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "s12", "s13", "s14", "s15", "s16",
        "s17", "s18", "s19", "s20", "s21", "s22", "s23");
#else
  fma_1x4_step4(a0, a1, a2, a3, x, w0, w1, w2, w3);  // the same sums: each row's values in order
  fma_1x4_step4(a0, a1, a2, a3, x, w0, w1, w2, w3);
#endif
}

// Four channels lane by lane (depthwise), two pixels: a_c += xa[c] * w[c], b_c += xb[c] *
// w[c] for c = 0..3. No pointer moves.
__attribute__((always_inline)) inline void fma_lanes_2x4(float& a0, float& a1, float& a2, float& a3, float& b0,
                                                         float& b1, float& b2, float& b3, const float* xa,
                                                         const float* xb, const float* w) {
#if MOTE_HAS_FPU
  asm("vldmia %[w], {s0-s3}\n\t"
      "vldmia %[xa], {s4-s7}\n\t"
      "vldmia %[xb], {s8-s11}\n\t"
      "vfma.f32 %[a0], s4, s0\n\tvfma.f32 %[b0], s8, s0\n\t"
      "vfma.f32 %[a1], s5, s1\n\tvfma.f32 %[b1], s9, s1\n\t"
      "vfma.f32 %[a2], s6, s2\n\tvfma.f32 %[b2], s10, s2\n\t"
      "vfma.f32 %[a3], s7, s3\n\tvfma.f32 %[b3], s11, s3"
      : [a0] "+t"(a0), [a1] "+t"(a1), [a2] "+t"(a2), [a3] "+t"(a3), [b0] "+t"(b0), [b1] "+t"(b1),
        [b2] "+t"(b2), [b3] "+t"(b3)
      : [xa] "r"(xa), [xb] "r"(xb), [w] "r"(w), "m"(four(xa)), "m"(four(xb)), "m"(four(w))
      : "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11");
#else
  a0 += xa[0] * w[0];
  b0 += xb[0] * w[0];
  a1 += xa[1] * w[1];
  b1 += xb[1] * w[1];
  a2 += xa[2] * w[2];
  b2 += xb[2] * w[2];
  a3 += xa[3] * w[3];
  b3 += xb[3] * w[3];
#endif
}

// out[i] = a[i] + b[i] for i = 0..3 (each sum rounded once, as a + b in C++); every
// pointer advances by 4. All four inputs are loaded before any output is stored, so out
// may be a or b itself.
__attribute__((always_inline)) inline void add_step4(const float*& a, const float*& b, float*& out) {
#if MOTE_HAS_FPU
  asm("vldmia %[a]!, {s0-s3}\n\t"
      "vldmia %[b]!, {s4-s7}\n\t"
      "vadd.f32 s0, s0, s4\n\tvadd.f32 s1, s1, s5\n\t"
      "vadd.f32 s2, s2, s6\n\tvadd.f32 s3, s3, s7\n\t"
      "vstmia %[out]!, {s0-s3}"
      : [a] "+r"(a), [b] "+r"(b), [out] "+r"(out)
      :
      : "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "memory");
#else
  const float s0 = a[0] + b[0], s1 = a[1] + b[1], s2 = a[2] + b[2], s3 = a[3] + b[3];
  out[0] = s0;
  out[1] = s1;
  out[2] = s2;
  out[3] = s3;
  a += 4;
  b += 4;
  out += 4;
#endif
}

// Four channels lane by lane, one pixel: a_c += x[c] * w[c] for c = 0..3.
__attribute__((always_inline)) inline void fma_lanes_1x4(float& a0, float& a1, float& a2, float& a3, const float* x,
                                                         const float* w) {
#if MOTE_HAS_FPU
  asm("vldmia %[w], {s0-s3}\n\t"
      "vldmia %[x], {s4-s7}\n\t"
      "vfma.f32 %[a0], s4, s0\n\t"
      "vfma.f32 %[a1], s5, s1\n\t"
      "vfma.f32 %[a2], s6, s2\n\t"
      "vfma.f32 %[a3], s7, s3"
      : [a0] "+t"(a0), [a1] "+t"(a1), [a2] "+t"(a2), [a3] "+t"(a3)
      : [x] "r"(x), [w] "r"(w), "m"(four(x)), "m"(four(w))
      : "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7");
#else
  a0 += x[0] * w[0];
  a1 += x[1] * w[1];
  a2 += x[2] * w[2];
  a3 += x[3] * w[3];
#endif
}

// VCVT.S32.F32: v truncated toward zero, saturated to the int32 range, NaN to 0 (what
// the FPU's conversion does; a C++ cast of NaN or of an out-of-range value is undefined).
inline int32_t cvt_s32_saturated(float v) {
#if MOTE_HAS_FPU
  float t;
  __asm__("vcvt.s32.f32 %0, %1" : "=t"(t) : "t"(v));
  int32_t q;
  __asm__("vmov %0, %1" : "=r"(q) : "t"(t));
  return q;
#else
  if (v != v) return 0;
  if (v >= 2147483648.0f) return INT32_MAX;
  if (v <= -2147483648.0f) return INT32_MIN;
  return static_cast<int32_t>(v);
#endif
}

// roundf(v) (half away from zero) as an int32, saturated to +-2^16 (callers clamp to a
// 16-bit or narrower type, so every result beyond is the type's end) and 0 for NaN.
// FPv4 (Armv7E-M) has no VRINTA, so roundf is a library call that costs more than the
// rest of a quantized element: there round_saturated truncates with the saturating
// conversion (NaN gives 0, no compares), limits q to +-65535 and lets the fraction v - q
// (a float, exact while |v| < 2^16; beyond, of the right sign and at least 1) step it by
// one. FPv5 rounds in one VRINTA, and on a core without an FPU the library's bit-level
// roundf is cheaper than more float operations. Both forms are defined everywhere so the
// host tests the truncating one.
inline int32_t round_saturated_by_truncation(float v) {
  int32_t q = cvt_s32_saturated(v);
  q = q > 65535 ? 65535 : (q < -65535 ? -65535 : q);
  const float fraction = v - static_cast<float>(q);
  if (fraction >= 0.5f) {
    ++q;
  } else if (fraction <= -0.5f) {
    --q;
  }
  return q;
}
inline int32_t round_saturated_by_roundf(float v) {
  if (v != v) return 0;
  if (v >= 65536.0f) return 65536;
  if (v <= -65536.0f) return -65536;
  return static_cast<int32_t>(roundf(v));
}
inline int32_t round_saturated(float v) {
#if MOTE_HAS_FPU && !defined(__ARM_FEATURE_DIRECTED_ROUNDING)
  return round_saturated_by_truncation(v);
#else
  return round_saturated_by_roundf(v);
#endif
}

}  // namespace mote::fpu
