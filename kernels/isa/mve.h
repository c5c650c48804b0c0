// The Armv8.1-M Helium (MVE) integer operations the __mve kernel variants are written in,
// each with a portable definition that computes the same bits where the target lacks MVE
// (the host, every other Cortex-M). So an __mve variant runs, and is tested bit for bit
// against its reference, on the host as well as on cortex-m55.
//
// Names and lane semantics are those of ACLE's arm_mve.h, inside namespace mote::mve.
// On an MVE core each wrapper is the arm_mve.h intrinsic (its __arm_ name; see the
// #undef list below). Elsewhere the vector types are plain lane arrays and
// every operation is written out lane by lane; all integer arithmetic wraps exactly as
// the instruction does. MOTE_HAS_MVE says which definition is in use.
//
// Predicates (mve_pred16_t) have one bit per byte of the 128-bit vector: an 8-bit lane i
// is active when bit i is set; a 32-bit lane i when bits 4i..4i+3 are set (vctp32q sets
// all four). A predicated (_z) load does not touch the memory of inactive lanes and
// writes 0 to them; a predicated (_p) store writes only active lanes.
#pragma once

#include <stdint.h>

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
#include <arm_mve.h>
#define MOTE_HAS_MVE 1
// arm_mve.h defines the unprefixed names as function-like macros (GCC 12's
// __ARM_MVE_PRESERVE_USER_NAMESPACE, which would omit them, does not compile), so every
// name wrapped below is undefined here and the wrappers call the __arm_ functions.
// A wrapper added to this file adds its name to this list.
#undef vabsq_s32
#undef vaddq_n_s32
#undef vaddq_s32
#undef vaddvaq_s8
#undef vandq_s32
#undef vctp32q
#undef vctp8q
#undef vdupq_n_s32
#undef vdupq_n_s8
#undef veorq_s32
#undef vldrbq_s32
#undef vldrbq_s8
#undef vldrbq_z_s32
#undef vldrbq_z_s8
#undef vldrwq_s32
#undef vldrwq_z_s32
#undef vmaxq_s32
#undef vmaxq_s8
#undef vminq_s32
#undef vminq_s8
#undef vmladavaq_s8
#undef vmlaq_n_s32
#undef vmlaq_s32
#undef vmulq_s32
#undef vqaddq_s32
#undef vqdmulhq_s32
#undef vqrdmulhq_n_s32
#undef vqrdmulhq_s32
#undef vrshlq_n_s32
#undef vrshlq_s32
#undef vshlq_s32
#undef vstrbq_p_s32
#undef vstrbq_p_s8
#undef vstrbq_s32
#undef vstrbq_s8
#undef vstrwq_p_s32
#undef vsubq_s32
#undef vsetq_lane_s32
#else
#define MOTE_HAS_MVE 0
#endif

namespace mote::mve {

#if MOTE_HAS_MVE

using ::int32x4_t;
using ::int8x16_t;
using ::mve_pred16_t;

// Lanes [0, n) active (n >= 16: all), as VCTP.8.
inline mve_pred16_t vctp8q(uint32_t n) { return __arm_vctp8q(n); }
// Lanes [0, n) of four 32-bit lanes active, as VCTP.32.
inline mve_pred16_t vctp32q(uint32_t n) { return __arm_vctp32q(n); }
// 16 bytes from p (VLDRB.8).
inline int8x16_t vldrbq_s8(const int8_t* p) { return __arm_vldrbq_s8(p); }
// Active lanes from p, inactive lanes 0 and not read (VLDRBT.8 under a predicate).
inline int8x16_t vldrbq_z_s8(const int8_t* p, mve_pred16_t pred) {
  return __arm_vldrbq_z_s8(p, pred);
}
// acc + sum_i a[i] * b[i], wrapping int32 (VMLADAVA.S8).
inline int32_t vmladavaq_s8(int32_t acc, int8x16_t a, int8x16_t b) {
  return __arm_vmladavaq_s8(acc, a, b);
}
// acc + sum_i a[i], wrapping int32 (VADDVA.S8).
inline int32_t vaddvaq_s8(int32_t acc, int8x16_t a) { return __arm_vaddvaq_s8(acc, a); }

// Four int32 lanes from p (VLDRW.32).
inline int32x4_t vldrwq_s32(const int32_t* p) { return __arm_vldrwq_s32(p); }
// a with lane `kLane` replaced by x (VMOV.32 Qd[lane], Rt). The lane is a template
// argument because the instruction takes it as an immediate.
template <int kLane>
inline int32x4_t vsetq_lane_s32(int32_t x, int32x4_t a) {
  return __arm_vsetq_lane_s32(x, a, kLane);
}
// Every lane = x (VDUP.32).
inline int32x4_t vdupq_n_s32(int32_t x) { return __arm_vdupq_n_s32(x); }
// Lane-wise wrapping a + b (VADD.I32).
inline int32x4_t vaddq_s32(int32x4_t a, int32x4_t b) { return __arm_vaddq_s32(a, b); }
// Lane-wise saturating a + b (VQADD.S32).
inline int32x4_t vqaddq_s32(int32x4_t a, int32x4_t b) { return __arm_vqaddq_s32(a, b); }
// Lane-wise a & b (VAND).
inline int32x4_t vandq_s32(int32x4_t a, int32x4_t b) { return __arm_vandq_s32(a, b); }
// Lane-wise arithmetic a >> n, n in [1, 32] (VSHR.S32).
#define MOTE_MVE_VSHRQ_N_S32(a, n) __arm_vshrq_n_s32((a), (n))
// Lane-wise a << b[i] (b[i] >= 0, wrapping) or a >> -b[i] (arithmetic, truncating), the
// shift amount taken from the bottom byte of b[i] (VSHL.S32 by vector).
inline int32x4_t vshlq_s32(int32x4_t a, int32x4_t b) { return __arm_vshlq_s32(a, b); }
// As vshlq_s32 but right shifts round half up: (a + 2^(n-1)) >> n computed without
// overflow (VRSHL.S32 by vector).
inline int32x4_t vrshlq_s32(int32x4_t a, int32x4_t b) { return __arm_vrshlq_s32(a, b); }
// Lane-wise saturate(round(2 * a * b / 2^32)) with ties up (VQRDMULH.S32): gemmlowp's
// SaturatingRoundingDoublingHighMul.
inline int32x4_t vqrdmulhq_s32(int32x4_t a, int32x4_t b) { return __arm_vqrdmulhq_s32(a, b); }
// Lane-wise max / min (VMAX.S32 / VMIN.S32).
inline int32x4_t vmaxq_s32(int32x4_t a, int32x4_t b) { return __arm_vmaxq_s32(a, b); }
inline int32x4_t vminq_s32(int32x4_t a, int32x4_t b) { return __arm_vminq_s32(a, b); }
// The low byte of each lane to p[0..3] (VSTRB.32); _p: active lanes only.
inline void vstrbq_s32(int8_t* p, int32x4_t a) { __arm_vstrbq_s32(p, a); }
inline void vstrbq_p_s32(int8_t* p, int32x4_t a, mve_pred16_t pred) {
  __arm_vstrbq_p_s32(p, a, pred);
}

#else  // portable definitions

struct int8x16_t {
  int8_t lane[16];
};
struct int32x4_t {
  int32_t lane[4];
};
using mve_pred16_t = uint16_t;

inline mve_pred16_t vctp8q(uint32_t n) {
  return n >= 16 ? mve_pred16_t{0xFFFF} : static_cast<mve_pred16_t>((1u << n) - 1u);
}
inline mve_pred16_t vctp32q(uint32_t n) {
  return n >= 4 ? mve_pred16_t{0xFFFF} : static_cast<mve_pred16_t>((1u << (4 * n)) - 1u);
}
inline int8x16_t vldrbq_s8(const int8_t* p) {
  int8x16_t r;
  for (int i = 0; i < 16; ++i) r.lane[i] = p[i];
  return r;
}
inline int8x16_t vldrbq_z_s8(const int8_t* p, mve_pred16_t pred) {
  int8x16_t r;
  for (int i = 0; i < 16; ++i) r.lane[i] = ((pred >> i) & 1u) != 0 ? p[i] : int8_t{0};
  return r;
}
inline int32_t vmladavaq_s8(int32_t acc, int8x16_t a, int8x16_t b) {
  uint32_t sum = static_cast<uint32_t>(acc);
  for (int i = 0; i < 16; ++i) sum += static_cast<uint32_t>(a.lane[i] * b.lane[i]);
  return static_cast<int32_t>(sum);
}
inline int32_t vaddvaq_s8(int32_t acc, int8x16_t a) {
  uint32_t sum = static_cast<uint32_t>(acc);
  for (int i = 0; i < 16; ++i) sum += static_cast<uint32_t>(static_cast<int32_t>(a.lane[i]));
  return static_cast<int32_t>(sum);
}

inline int32x4_t vldrwq_s32(const int32_t* p) { return {{p[0], p[1], p[2], p[3]}}; }
template <int kLane>
inline int32x4_t vsetq_lane_s32(int32_t x, int32x4_t a) {
  a.lane[kLane] = x;
  return a;
}
inline int32x4_t vdupq_n_s32(int32_t x) { return {{x, x, x, x}}; }
inline int32x4_t vaddq_s32(int32x4_t a, int32x4_t b) {
  int32x4_t r;
  for (int i = 0; i < 4; ++i) {
    r.lane[i] = static_cast<int32_t>(static_cast<uint32_t>(a.lane[i]) +
                                     static_cast<uint32_t>(b.lane[i]));
  }
  return r;
}
inline int32x4_t vqaddq_s32(int32x4_t a, int32x4_t b) {
  int32x4_t r;
  for (int i = 0; i < 4; ++i) {
    const int64_t s = int64_t{a.lane[i]} + int64_t{b.lane[i]};
    r.lane[i] = s > INT32_MAX ? INT32_MAX : (s < INT32_MIN ? INT32_MIN : static_cast<int32_t>(s));
  }
  return r;
}
inline int32x4_t vandq_s32(int32x4_t a, int32x4_t b) {
  int32x4_t r;
  for (int i = 0; i < 4; ++i) r.lane[i] = a.lane[i] & b.lane[i];
  return r;
}
inline int32x4_t vshrq_n_s32_portable(int32x4_t a, int n) {
  int32x4_t r;
  for (int i = 0; i < 4; ++i) r.lane[i] = n >= 32 ? (a.lane[i] < 0 ? -1 : 0) : (a.lane[i] >> n);
  return r;
}
#define MOTE_MVE_VSHRQ_N_S32(a, n) ::mote::mve::vshrq_n_s32_portable((a), (n))
// Shift of one lane by the signed bottom byte of b, as VSHL/VRSHL (round = VRSHL).
inline int32_t shift_lane(int32_t a, int32_t b, bool round) {
  const int32_t n = static_cast<int8_t>(b & 0xFF);
  if (n >= 0) return n >= 32 ? 0 : static_cast<int32_t>(static_cast<uint32_t>(a) << n);
  const int32_t r = -n > 63 ? 63 : -n;  // beyond 32 every bit is the sign (or 0 rounded)
  const int64_t wide = int64_t{a} + (round ? (int64_t{1} << (r - 1)) : 0);
  return static_cast<int32_t>(wide >> r);
}
inline int32x4_t vshlq_s32(int32x4_t a, int32x4_t b) {
  int32x4_t r;
  for (int i = 0; i < 4; ++i) r.lane[i] = shift_lane(a.lane[i], b.lane[i], false);
  return r;
}
inline int32x4_t vrshlq_s32(int32x4_t a, int32x4_t b) {
  int32x4_t r;
  for (int i = 0; i < 4; ++i) r.lane[i] = shift_lane(a.lane[i], b.lane[i], true);
  return r;
}
inline int32x4_t vqrdmulhq_s32(int32x4_t a, int32x4_t b) {
  int32x4_t r;
  for (int i = 0; i < 4; ++i) {
    // (2ab + 2^31) >> 32 == (ab + 2^30) >> 31, which cannot overflow int64.
    const int64_t v = (int64_t{a.lane[i]} * int64_t{b.lane[i]} + (int64_t{1} << 30)) >> 31;
    r.lane[i] = v > INT32_MAX ? INT32_MAX : static_cast<int32_t>(v);
  }
  return r;
}
inline int32x4_t vmaxq_s32(int32x4_t a, int32x4_t b) {
  int32x4_t r;
  for (int i = 0; i < 4; ++i) r.lane[i] = a.lane[i] > b.lane[i] ? a.lane[i] : b.lane[i];
  return r;
}
inline int32x4_t vminq_s32(int32x4_t a, int32x4_t b) {
  int32x4_t r;
  for (int i = 0; i < 4; ++i) r.lane[i] = a.lane[i] < b.lane[i] ? a.lane[i] : b.lane[i];
  return r;
}
inline void vstrbq_s32(int8_t* p, int32x4_t a) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<int8_t>(a.lane[i] & 0xFF);
}
inline void vstrbq_p_s32(int8_t* p, int32x4_t a, mve_pred16_t pred) {
  for (int i = 0; i < 4; ++i) {
    if (((pred >> (4 * i)) & 1u) != 0) p[i] = static_cast<int8_t>(a.lane[i] & 0xFF);
  }
}

#endif

}  // namespace mote::mve

// ---------------------------------------------------------------------------------------
// Operations used by the depthwise, add and pool __mve variants (widening loads,
// multiply-accumulate, int8 lane max/min).
namespace mote::mve {

#if MOTE_HAS_MVE

// Four bytes from p, sign-extended to int32 lanes (VLDRB.S32); _z: inactive lanes 0,
// not read.
inline int32x4_t vldrbq_s32(const int8_t* p) { return __arm_vldrbq_s32(p); }
inline int32x4_t vldrbq_z_s32(const int8_t* p, mve_pred16_t pred) {
  return __arm_vldrbq_z_s32(p, pred);
}
// Active int32 lanes from p, inactive lanes 0 and not read (VLDRW.32 under a predicate).
inline int32x4_t vldrwq_z_s32(const int32_t* p, mve_pred16_t pred) {
  return __arm_vldrwq_z_s32(p, pred);
}
// Lane-wise wrapping acc + a * b (VMUL.I32 + VADD.I32: MVE's VMLA multiplies by a scalar).
inline int32x4_t vmlaq_s32(int32x4_t acc, int32x4_t a, int32x4_t b) {
  // MVE has no vector-by-vector VMLA: VMUL.I32 then VADD.I32 (same wrapping result).
  return __arm_vaddq_s32(acc, __arm_vmulq_s32(a, b));
}
// Lane-wise wrapping a - b (VSUB.I32), a ^ b (VEOR), |a| wrapping (VABS.S32).
inline int32x4_t vsubq_s32(int32x4_t a, int32x4_t b) { return __arm_vsubq_s32(a, b); }
inline int32x4_t veorq_s32(int32x4_t a, int32x4_t b) { return __arm_veorq_s32(a, b); }
inline int32x4_t vabsq_s32(int32x4_t a) { return __arm_vabsq_s32(a); }
// Lane-wise saturate((2 * a * b) >> 32), truncating (VQDMULH.S32).
inline int32x4_t vqdmulhq_s32(int32x4_t a, int32x4_t b) { return __arm_vqdmulhq_s32(a, b); }
// int8 lanes: every lane = x (VDUP.8), max / min (VMAX.S8 / VMIN.S8), store 16 bytes
// (VSTRB.8; _p: active lanes only).
inline int8x16_t vdupq_n_s8(int8_t x) { return __arm_vdupq_n_s8(x); }
inline int8x16_t vmaxq_s8(int8x16_t a, int8x16_t b) { return __arm_vmaxq_s8(a, b); }
inline int8x16_t vminq_s8(int8x16_t a, int8x16_t b) { return __arm_vminq_s8(a, b); }
inline void vstrbq_s8(int8_t* p, int8x16_t a) { __arm_vstrbq_s8(p, a); }
inline void vstrbq_p_s8(int8_t* p, int8x16_t a, mve_pred16_t pred) {
  __arm_vstrbq_p_s8(p, a, pred);
}
// Active int32 lanes to p (VSTRW.32 under a predicate).
inline void vstrwq_p_s32(int32_t* p, int32x4_t a, mve_pred16_t pred) {
  __arm_vstrwq_p_s32(p, a, pred);
}
// Scalar-operand forms: acc + a * b (VMLA.S32 by scalar), a + b (VADD.I32 by scalar),
// VQRDMULH.S32 by scalar, and VRSHL.S32 of every lane by the scalar b (semantics of
// vrshlq_s32 with b in every lane).
inline int32x4_t vmlaq_n_s32(int32x4_t acc, int32x4_t a, int32_t b) {
  return __arm_vmlaq_n_s32(acc, a, b);
}
inline int32x4_t vaddq_n_s32(int32x4_t a, int32_t b) { return __arm_vaddq_n_s32(a, b); }
inline int32x4_t vqrdmulhq_n_s32(int32x4_t a, int32_t b) { return __arm_vqrdmulhq_n_s32(a, b); }
inline int32x4_t vrshlq_n_s32(int32x4_t a, int32_t b) { return __arm_vrshlq_n_s32(a, b); }
// a - b (VSUB.I32 by scalar); every lane shifted as vshlq_s32 by the scalar b (VSHL.S32
// by scalar register).
// GCC 12's arm_mve.h defines these two names as macros (to __arm_...) even under
// __ARM_MVE_PRESERVE_USER_NAMESPACE, which would turn the wrappers into self-recursion.
#undef vsubq_n_s32
#undef vshlq_r_s32
inline int32x4_t vsubq_n_s32(int32x4_t a, int32_t b) { return __arm_vsubq_n_s32(a, b); }
inline int32x4_t vshlq_r_s32(int32x4_t a, int32_t b) { return __arm_vshlq_r_s32(a, b); }

#else  // portable definitions

inline int32x4_t vldrbq_s32(const int8_t* p) { return {{p[0], p[1], p[2], p[3]}}; }
inline int32x4_t vldrbq_z_s32(const int8_t* p, mve_pred16_t pred) {
  int32x4_t r;
  for (int i = 0; i < 4; ++i) r.lane[i] = ((pred >> (4 * i)) & 1u) != 0 ? p[i] : 0;
  return r;
}
inline int32x4_t vldrwq_z_s32(const int32_t* p, mve_pred16_t pred) {
  int32x4_t r;
  for (int i = 0; i < 4; ++i) r.lane[i] = ((pred >> (4 * i)) & 1u) != 0 ? p[i] : 0;
  return r;
}
inline int32x4_t vmlaq_s32(int32x4_t acc, int32x4_t a, int32x4_t b) {
  int32x4_t r;
  for (int i = 0; i < 4; ++i) {
    r.lane[i] = static_cast<int32_t>(static_cast<uint32_t>(acc.lane[i]) +
                                     static_cast<uint32_t>(a.lane[i]) *
                                         static_cast<uint32_t>(b.lane[i]));
  }
  return r;
}
inline int32x4_t vsubq_s32(int32x4_t a, int32x4_t b) {
  int32x4_t r;
  for (int i = 0; i < 4; ++i) {
    r.lane[i] = static_cast<int32_t>(static_cast<uint32_t>(a.lane[i]) -
                                     static_cast<uint32_t>(b.lane[i]));
  }
  return r;
}
inline int32x4_t veorq_s32(int32x4_t a, int32x4_t b) {
  int32x4_t r;
  for (int i = 0; i < 4; ++i) r.lane[i] = a.lane[i] ^ b.lane[i];
  return r;
}
inline int32x4_t vabsq_s32(int32x4_t a) {
  int32x4_t r;
  for (int i = 0; i < 4; ++i) {
    const uint32_t u = static_cast<uint32_t>(a.lane[i]);
    r.lane[i] = static_cast<int32_t>(a.lane[i] < 0 ? 0u - u : u);
  }
  return r;
}
inline int32x4_t vqdmulhq_s32(int32x4_t a, int32x4_t b) {
  int32x4_t r;
  for (int i = 0; i < 4; ++i) {
    // (2ab) >> 32 == (ab) >> 31, without 2ab overflowing int64 at a = b = INT32_MIN.
    const int64_t v = (int64_t{a.lane[i]} * int64_t{b.lane[i]}) >> 31;
    r.lane[i] = v > INT32_MAX ? INT32_MAX : static_cast<int32_t>(v);
  }
  return r;
}
inline int8x16_t vdupq_n_s8(int8_t x) {
  int8x16_t r;
  for (int i = 0; i < 16; ++i) r.lane[i] = x;
  return r;
}
inline int8x16_t vmaxq_s8(int8x16_t a, int8x16_t b) {
  int8x16_t r;
  for (int i = 0; i < 16; ++i) r.lane[i] = a.lane[i] > b.lane[i] ? a.lane[i] : b.lane[i];
  return r;
}
inline int8x16_t vminq_s8(int8x16_t a, int8x16_t b) {
  int8x16_t r;
  for (int i = 0; i < 16; ++i) r.lane[i] = a.lane[i] < b.lane[i] ? a.lane[i] : b.lane[i];
  return r;
}
inline void vstrbq_s8(int8_t* p, int8x16_t a) {
  for (int i = 0; i < 16; ++i) p[i] = a.lane[i];
}
inline void vstrbq_p_s8(int8_t* p, int8x16_t a, mve_pred16_t pred) {
  for (int i = 0; i < 16; ++i) {
    if (((pred >> i) & 1u) != 0) p[i] = a.lane[i];
  }
}
inline void vstrwq_p_s32(int32_t* p, int32x4_t a, mve_pred16_t pred) {
  for (int i = 0; i < 4; ++i) {
    if (((pred >> (4 * i)) & 1u) != 0) p[i] = a.lane[i];
  }
}
inline int32x4_t vmlaq_n_s32(int32x4_t acc, int32x4_t a, int32_t b) {
  return vmlaq_s32(acc, a, vdupq_n_s32(b));
}
inline int32x4_t vaddq_n_s32(int32x4_t a, int32_t b) { return vaddq_s32(a, vdupq_n_s32(b)); }
inline int32x4_t vqrdmulhq_n_s32(int32x4_t a, int32_t b) {
  return vqrdmulhq_s32(a, vdupq_n_s32(b));
}
inline int32x4_t vrshlq_n_s32(int32x4_t a, int32_t b) { return vrshlq_s32(a, vdupq_n_s32(b)); }
inline int32x4_t vsubq_n_s32(int32x4_t a, int32_t b) { return vsubq_s32(a, vdupq_n_s32(b)); }
inline int32x4_t vshlq_r_s32(int32x4_t a, int32_t b) { return vshlq_s32(a, vdupq_n_s32(b)); }

#endif

}  // namespace mote::mve

// ---------------------------------------------------------------------------------------
// Byte-vector reinterpretation and word scatter stores used by the Helium depthwise convolution.
// Offsets are byte offsets from the base, read as unsigned 32-bit values (int32x4_t lanes
// reinterpreted), as the instructions read them.
namespace mote::mve {

#if MOTE_HAS_MVE

#undef vreinterpretq_s32_s8
#undef vstrwq_scatter_offset_s32
#undef vstrwq_scatter_offset_p_s32
// The 16 bytes of a as four int32 lanes, lane i = bytes 4i..4i+3 little-endian (no
// instruction).
inline int32x4_t vreinterpretq_s32_s8(int8x16_t a) { return __arm_vreinterpretq_s32_s8(a); }
// Lane i to the 4 bytes at (char*)base + offsets[i] (VSTRW.32 scatter, byte offsets); _p:
// active lanes only.
inline void vstrwq_scatter_offset_s32(int32_t* base, int32x4_t offsets, int32x4_t a) {
  __arm_vstrwq_scatter_offset_s32(base, __arm_vreinterpretq_u32_s32(offsets), a);
}
inline void vstrwq_scatter_offset_p_s32(int32_t* base, int32x4_t offsets, int32x4_t a,
                                        mve_pred16_t pred) {
  __arm_vstrwq_scatter_offset_p_s32(base, __arm_vreinterpretq_u32_s32(offsets), a, pred);
}

#else  // portable definitions

inline int32x4_t vreinterpretq_s32_s8(int8x16_t a) {
  int32x4_t r;
  for (int i = 0; i < 4; ++i) {
    uint32_t v = 0;
    for (int b = 0; b < 4; ++b) v |= static_cast<uint32_t>(static_cast<uint8_t>(a.lane[4 * i + b])) << (8 * b);
    r.lane[i] = static_cast<int32_t>(v);
  }
  return r;
}
inline void store_word_le(uint8_t* p, int32_t x) {
  const uint32_t v = static_cast<uint32_t>(x);
  for (int b = 0; b < 4; ++b) p[b] = static_cast<uint8_t>(v >> (8 * b));
}
inline void vstrwq_scatter_offset_s32(int32_t* base, int32x4_t offsets, int32x4_t a) {
  for (int i = 0; i < 4; ++i) {
    store_word_le(reinterpret_cast<uint8_t*>(base) + static_cast<uint32_t>(offsets.lane[i]), a.lane[i]);
  }
}
inline void vstrwq_scatter_offset_p_s32(int32_t* base, int32x4_t offsets, int32x4_t a,
                                        mve_pred16_t pred) {
  for (int i = 0; i < 4; ++i) {
    if (((pred >> (4 * i)) & 1u) != 0) {
      store_word_le(reinterpret_cast<uint8_t*>(base) + static_cast<uint32_t>(offsets.lane[i]), a.lane[i]);
    }
  }
}

#endif

}  // namespace mote::mve

// Fixed-offset loads and multiply-adds as single asm statements, for the Helium depthwise convolution:
// left to itself GCC reassociates long VMUL + VADD chains (computing the products first)
// and hoists every tap's address into its own register, running out of the 8 vector and
// 13 general registers.
namespace mote::mve {
#if MOTE_HAS_MVE
// Four bytes at p + kOffset sign-extended (VLDRB.S32 with an immediate offset, kOffset in
// [0, 127], p a low register), as one statement the compiler keeps where it is written
// and does not merge or hoist (so the address stays p + immediate).
template <int kOffset>
inline int32x4_t vldrbq_s32_at(const int8_t* p) {
  int32x4_t r;
  asm volatile("vldrb.s32 %q0, [%1, #%c2]" : "=w"(r) : "l"(p), "i"(kOffset) : "memory");
  return r;
}
// acc + (the four bytes at p + kOffset, sign-extended) * w, wrapping: VLDRB.S32, VMUL.I32,
// VADD.I32 in one statement (as vldrbq_s32_at).
template <int kOffset>
inline int32x4_t vldrb_mlaq_s32_at(int32x4_t acc, const int8_t* p, int32x4_t w) {
  int32x4_t t;
  asm volatile("vldrb.s32 %q1, [%2, #%c3]\n\tvmul.i32 %q1, %q1, %q4\n\tvadd.i32 %q0, %q0, %q1"
               : "+w"(acc), "=&w"(t)
               : "l"(p), "i"(kOffset), "w"(w)
               : "memory");
  return acc;
}
// As vldrb_mlaq_s32_at with the sum written to a new register: acc + (bytes) * w.
template <int kOffset>
inline int32x4_t vldrb_mlaq_s32_at_to(int32x4_t acc, const int8_t* p, int32x4_t w) {
  int32x4_t r, t;
  asm volatile("vldrb.s32 %q1, [%2, #%c3]\n\tvmul.i32 %q1, %q1, %q4\n\tvadd.i32 %q0, %q5, %q1"
               : "=w"(r), "=&w"(t)
               : "l"(p), "i"(kOffset), "w"(w), "w"(acc)
               : "memory");
  return r;
}
#else
template <int kOffset>
inline int32x4_t vldrb_mlaq_s32_at_to(int32x4_t acc, const int8_t* p, int32x4_t w) {
  return vmlaq_s32(acc, vldrbq_s32(p + kOffset), w);
}
template <int kOffset>
inline int32x4_t vldrbq_s32_at(const int8_t* p) {
  return vldrbq_s32(p + kOffset);
}
template <int kOffset>
inline int32x4_t vldrb_mlaq_s32_at(int32x4_t acc, const int8_t* p, int32x4_t w) {
  return vmlaq_s32(acc, vldrbq_s32(p + kOffset), w);
}
#endif
}  // namespace mote::mve

// ---------------------------------------------------------------------------------------
// int16 lanes, used by the Helium 16x8 (int16 activations, int8 weights) variants:
// predicates over eight 16-bit lanes, int16 loads and int8 loads widened to int16, dot
// products into int32 and int64, narrowing int16 stores.
namespace mote::mve {

#if MOTE_HAS_MVE

#undef vctp16q
#undef vldrhq_s16
#undef vldrhq_z_s16
#undef vldrbq_s16
#undef vldrbq_z_s16
#undef vmladavaq_s16
#undef vmlaldavaq_s16
#undef vstrhq_p_s32
#undef vstrhq_p_s16
#undef vstrhq_s16
#undef vmullbq_int_s16
#undef vmulltq_int_s16
#undef vmovnbq_s32
#undef vmovntq_s32
#undef vreinterpretq_s16_s32
#undef vdupq_n_s16
#undef vaddvaq_s16
#undef vmladavq_s16
#undef vstrhq_s32
#undef vldrhq_s32
#undef vldrhq_z_s32
#undef vqmovnbq_s32
#undef vqmovntq_s32
#undef vmaxq_s16
#undef vminq_s16
using ::int16x8_t;
// Lanes [0, n) of eight 16-bit lanes active (n >= 8: all), as VCTP.16.
inline mve_pred16_t vctp16q(uint32_t n) { return __arm_vctp16q(n); }
// Eight int16 lanes from p (VLDRH.16); _z: inactive lanes 0, not read.
inline int16x8_t vldrhq_s16(const int16_t* p) { return __arm_vldrhq_s16(p); }
inline int16x8_t vldrhq_z_s16(const int16_t* p, mve_pred16_t pred) {
  return __arm_vldrhq_z_s16(p, pred);
}
// Eight bytes from p sign-extended to int16 lanes (VLDRB.S16); _z: inactive lanes 0.
inline int16x8_t vldrbq_s16(const int8_t* p) { return __arm_vldrbq_s16(p); }
inline int16x8_t vldrbq_z_s16(const int8_t* p, mve_pred16_t pred) {
  return __arm_vldrbq_z_s16(p, pred);
}
// acc + sum_i a[i] * b[i]: wrapping int32 (VMLADAVA.S16), exact int64 (VMLALDAVA.S16).
inline int32_t vmladavaq_s16(int32_t acc, int16x8_t a, int16x8_t b) {
  return __arm_vmladavaq_s16(acc, a, b);
}
inline int64_t vmlaldavaq_s16(int64_t acc, int16x8_t a, int16x8_t b) {
  return __arm_vmlaldavaq_s16(acc, a, b);
}
// sum_i a[i] * b[i], wrapping int32 (VMLADAV.S16: no accumulator register to zero).
inline int32_t vmladavq_s16(int16x8_t a, int16x8_t b) { return __arm_vmladavq_s16(a, b); }
// The low halves of the four int32 lanes to p[0..3] (VSTRH.32).
inline void vstrhq_s32(int16_t* p, int32x4_t a) { __arm_vstrhq_s32(p, a); }
// Four int16 from p sign-extended to int32 lanes (VLDRH.S32); _z: inactive lanes 0,
// not read.
inline int32x4_t vldrhq_s32(const int16_t* p) { return __arm_vldrhq_s32(p); }
inline int32x4_t vldrhq_z_s32(const int16_t* p, mve_pred16_t pred) {
  return __arm_vldrhq_z_s32(p, pred);
}
// The low halves of the active int32 lanes to p[0..3] (VSTRH.32 under a predicate).
inline void vstrhq_p_s32(int16_t* p, int32x4_t a, mve_pred16_t pred) {
  __arm_vstrhq_p_s32(p, a, pred);
}
// Active int16 lanes to p (VSTRH.16 under a predicate); all eight lanes (VSTRH.16).
inline void vstrhq_p_s16(int16_t* p, int16x8_t a, mve_pred16_t pred) {
  __arm_vstrhq_p_s16(p, a, pred);
}
inline void vstrhq_s16(int16_t* p, int16x8_t a) { __arm_vstrhq_s16(p, a); }
// Products of the even (B) / odd (T) int16 lanes as four int32 lanes (VMULLB/VMULLT.S16).
inline int32x4_t vmullbq_int_s16(int16x8_t a, int16x8_t b) { return __arm_vmullbq_int_s16(a, b); }
inline int32x4_t vmulltq_int_s16(int16x8_t a, int16x8_t b) { return __arm_vmulltq_int_s16(a, b); }
// a with its even (B) / odd (T) int16 lanes replaced by the low halves of b's int32
// lanes (VMOVNB/VMOVNT.I32).
inline int16x8_t vmovnbq_s32(int16x8_t a, int32x4_t b) { return __arm_vmovnbq_s32(a, b); }
inline int16x8_t vmovntq_s32(int16x8_t a, int32x4_t b) { return __arm_vmovntq_s32(a, b); }
// Every lane = x (VDUP.16).
inline int16x8_t vdupq_n_s16(int16_t x) { return __arm_vdupq_n_s16(x); }
// a with its even (B) / odd (T) int16 lanes replaced by b's int32 lanes saturated to
// int16 (VQMOVNB/VQMOVNT.S32).
inline int16x8_t vqmovnbq_s32(int16x8_t a, int32x4_t b) { return __arm_vqmovnbq_s32(a, b); }
inline int16x8_t vqmovntq_s32(int16x8_t a, int32x4_t b) { return __arm_vqmovntq_s32(a, b); }
// Lane-wise max / min of int16 lanes (VMAX/VMIN.S16).
inline int16x8_t vmaxq_s16(int16x8_t a, int16x8_t b) { return __arm_vmaxq_s16(a, b); }
inline int16x8_t vminq_s16(int16x8_t a, int16x8_t b) { return __arm_vminq_s16(a, b); }
// The same 128 bits as eight int16 lanes: lane 2i the low half of int32 lane i, lane
// 2i + 1 its high half (no instruction).
inline int16x8_t vreinterpretq_s16_s32(int32x4_t a) { return __arm_vreinterpretq_s16_s32(a); }
// acc + sum_i a[i], wrapping int32 (VADDVA.S16).
inline int32_t vaddvaq_s16(int32_t acc, int16x8_t a) { return __arm_vaddvaq_s16(acc, a); }

#else  // portable definitions

struct int16x8_t {
  int16_t lane[8];
};
inline mve_pred16_t vctp16q(uint32_t n) {
  return n >= 8 ? mve_pred16_t{0xFFFF} : static_cast<mve_pred16_t>((1u << (2 * n)) - 1u);
}
inline int16x8_t vldrhq_s16(const int16_t* p) {
  int16x8_t r;
  for (int i = 0; i < 8; ++i) r.lane[i] = p[i];
  return r;
}
inline int16x8_t vldrhq_z_s16(const int16_t* p, mve_pred16_t pred) {
  int16x8_t r;
  for (int i = 0; i < 8; ++i) r.lane[i] = ((pred >> (2 * i)) & 1u) != 0 ? p[i] : int16_t{0};
  return r;
}
inline int16x8_t vldrbq_s16(const int8_t* p) {
  int16x8_t r;
  for (int i = 0; i < 8; ++i) r.lane[i] = p[i];
  return r;
}
inline int16x8_t vldrbq_z_s16(const int8_t* p, mve_pred16_t pred) {
  int16x8_t r;
  for (int i = 0; i < 8; ++i) r.lane[i] = ((pred >> (2 * i)) & 1u) != 0 ? p[i] : int16_t{0};
  return r;
}
inline int32_t vmladavaq_s16(int32_t acc, int16x8_t a, int16x8_t b) {
  uint32_t sum = static_cast<uint32_t>(acc);
  for (int i = 0; i < 8; ++i) sum += static_cast<uint32_t>(a.lane[i] * b.lane[i]);
  return static_cast<int32_t>(sum);
}
inline int64_t vmlaldavaq_s16(int64_t acc, int16x8_t a, int16x8_t b) {
  uint64_t sum = static_cast<uint64_t>(acc);
  for (int i = 0; i < 8; ++i) sum += static_cast<uint64_t>(int64_t{a.lane[i] * b.lane[i]});
  return static_cast<int64_t>(sum);
}
inline int32_t vmladavq_s16(int16x8_t a, int16x8_t b) { return vmladavaq_s16(0, a, b); }
inline void vstrhq_s32(int16_t* p, int32x4_t a) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<int16_t>(a.lane[i] & 0xFFFF);
}
inline int32x4_t vldrhq_s32(const int16_t* p) { return {{p[0], p[1], p[2], p[3]}}; }
inline int32x4_t vldrhq_z_s32(const int16_t* p, mve_pred16_t pred) {
  int32x4_t r;
  for (int i = 0; i < 4; ++i) r.lane[i] = ((pred >> (4 * i)) & 1u) != 0 ? p[i] : 0;
  return r;
}
inline void vstrhq_p_s32(int16_t* p, int32x4_t a, mve_pred16_t pred) {
  for (int i = 0; i < 4; ++i) {
    if (((pred >> (4 * i)) & 1u) != 0) p[i] = static_cast<int16_t>(a.lane[i] & 0xFFFF);
  }
}
inline void vstrhq_p_s16(int16_t* p, int16x8_t a, mve_pred16_t pred) {
  for (int i = 0; i < 8; ++i) {
    if (((pred >> (2 * i)) & 1u) != 0) p[i] = a.lane[i];
  }
}
inline void vstrhq_s16(int16_t* p, int16x8_t a) {
  for (int i = 0; i < 8; ++i) p[i] = a.lane[i];
}
inline int32x4_t vmullbq_int_s16(int16x8_t a, int16x8_t b) {
  int32x4_t r;
  for (int i = 0; i < 4; ++i) r.lane[i] = a.lane[2 * i] * b.lane[2 * i];
  return r;
}
inline int32x4_t vmulltq_int_s16(int16x8_t a, int16x8_t b) {
  int32x4_t r;
  for (int i = 0; i < 4; ++i) r.lane[i] = a.lane[2 * i + 1] * b.lane[2 * i + 1];
  return r;
}
inline int16x8_t vmovnbq_s32(int16x8_t a, int32x4_t b) {
  for (int i = 0; i < 4; ++i) a.lane[2 * i] = static_cast<int16_t>(b.lane[i] & 0xFFFF);
  return a;
}
inline int16x8_t vmovntq_s32(int16x8_t a, int32x4_t b) {
  for (int i = 0; i < 4; ++i) a.lane[2 * i + 1] = static_cast<int16_t>(b.lane[i] & 0xFFFF);
  return a;
}
inline int16x8_t vdupq_n_s16(int16_t x) {
  int16x8_t r;
  for (int i = 0; i < 8; ++i) r.lane[i] = x;
  return r;
}
inline int16_t saturate_s16_lane(int32_t x) {
  return static_cast<int16_t>(x < -32768 ? -32768 : (x > 32767 ? 32767 : x));
}
inline int16x8_t vqmovnbq_s32(int16x8_t a, int32x4_t b) {
  for (int i = 0; i < 4; ++i) a.lane[2 * i] = saturate_s16_lane(b.lane[i]);
  return a;
}
inline int16x8_t vqmovntq_s32(int16x8_t a, int32x4_t b) {
  for (int i = 0; i < 4; ++i) a.lane[2 * i + 1] = saturate_s16_lane(b.lane[i]);
  return a;
}
inline int16x8_t vmaxq_s16(int16x8_t a, int16x8_t b) {
  for (int i = 0; i < 8; ++i) a.lane[i] = a.lane[i] > b.lane[i] ? a.lane[i] : b.lane[i];
  return a;
}
inline int16x8_t vminq_s16(int16x8_t a, int16x8_t b) {
  for (int i = 0; i < 8; ++i) a.lane[i] = a.lane[i] < b.lane[i] ? a.lane[i] : b.lane[i];
  return a;
}
inline int16x8_t vreinterpretq_s16_s32(int32x4_t a) {
  int16x8_t r;
  for (int i = 0; i < 4; ++i) {
    const uint32_t u = static_cast<uint32_t>(a.lane[i]);
    r.lane[2 * i] = static_cast<int16_t>(u & 0xFFFFu);
    r.lane[2 * i + 1] = static_cast<int16_t>(u >> 16);
  }
  return r;
}
inline int32_t vaddvaq_s16(int32_t acc, int16x8_t a) {
  uint32_t sum = static_cast<uint32_t>(acc);
  for (int i = 0; i < 8; ++i) sum += static_cast<uint32_t>(static_cast<int32_t>(a.lane[i]));
  return static_cast<int32_t>(sum);
}

#endif

}  // namespace mote::mve

// One tap of the Helium 16x8 depthwise convolution as a single asm statement:
// even += VMULLB.S16(x, w), odd += VMULLT.S16(x, w) with x the eight int16 at px (VLDRH)
// and w the eight int8 at pw widened (VLDRB.S16). Written as intrinsics, GCC computes all
// nine products of a 3x3 window first and spills them.
namespace mote::mve {
#if MOTE_HAS_MVE
inline void vmull_tap_s16(int32x4_t& even, int32x4_t& odd, const int16_t* px, const int8_t* pw) {
  int16x8_t x, w;
  int32x4_t p;
  asm volatile(
      "vldrh.16 %q2, [%5]\n\tvldrb.s16 %q3, [%6]\n\tvmullb.s16 %q4, %q2, %q3\n\t"
      "vadd.i32 %q0, %q0, %q4\n\tvmullt.s16 %q4, %q2, %q3\n\tvadd.i32 %q1, %q1, %q4"
      : "+w"(even), "+w"(odd), "=&w"(x), "=&w"(w), "=&w"(p)
      : "r"(px), "l"(pw)
      : "memory");
}
#else
inline void vmull_tap_s16(int32x4_t& even, int32x4_t& odd, const int16_t* px, const int8_t* pw) {
  const int16x8_t x = vldrhq_s16(px);
  const int16x8_t w = vldrbq_s16(pw);
  even = vaddq_s32(even, vmullbq_int_s16(x, w));
  odd = vaddq_s32(odd, vmulltq_int_s16(x, w));
}
#endif
}  // namespace mote::mve

// One row of three taps of a depthwise window, eight channels, as one asm statement (GCC
// spills the products of intrinsics and re-derives every address): with w_k the eight
// int8 at pw + k * w_bytes widened (VLDRB.S16) and x_k the eight int16 at
// px + k * tap_bytes (VLDRH), even += VMULLB.S16(x_k, w_k) and odd += VMULLT.S16(x_k,
// w_k) for k = 0..2. pw is left 3 * w_bytes on (the next row's weights when the rows are
// contiguous). _pair: the same weights against a second pixel's row at px1 into even1 /
// odd1; _pair_shared: the second pixel's taps are the first's one tap on (px1 = px +
// tap_bytes: stride equal to dilation), so four input loads serve both. Steps in bytes.
// (The widening VLDRB takes a low base register: pw's "l".)
namespace mote::mve {
#if MOTE_HAS_MVE
#define MOTE_MVE_S16_MAC(e, o)                                       \
  "vmullb.s16 %q[p], %q[x], %q[w]\n\tvadd.i32 %q[" e "], %q[" e "], %q[p]\n\t" \
  "vmullt.s16 %q[p], %q[x], %q[w]\n\tvadd.i32 %q[" o "], %q[" o "], %q[p]\n\t"
// The shared row's text: a row of three taps of two pixels, the second's taps the first's
// one tap on.
#define MOTE_MVE_S16_ROW3_SHARED                                                         \
  "vldrb.s16 %q[w], [%[pw]]\n\tvldrh.16 %q[x], [%[a]]\n\t" MOTE_MVE_S16_MAC("e0", "o0")   \
  "add %[t], %[a], %[ts]\n\tvldrh.16 %q[x], [%[t]]\n\t" MOTE_MVE_S16_MAC("e1", "o1")      \
  "add %[pw], %[pw], %[ws]\n\tvldrb.s16 %q[w], [%[pw]]\n\t" MOTE_MVE_S16_MAC("e0", "o0")  \
  "add %[t], %[t], %[ts]\n\tvldrh.16 %q[x], [%[t]]\n\t" MOTE_MVE_S16_MAC("e1", "o1")      \
  "add %[pw], %[pw], %[ws]\n\tvldrb.s16 %q[w], [%[pw]]\n\t" MOTE_MVE_S16_MAC("e0", "o0")  \
  "add %[t], %[t], %[ts]\n\tvldrh.16 %q[x], [%[t]]\n\t" MOTE_MVE_S16_MAC("e1", "o1")      \
  "add %[pw], %[pw], %[ws]\n\t"
// A row of three taps of two pixels at a and b.
#define MOTE_MVE_S16_ROW3_PAIR                                                            \
  "vldrb.s16 %q[w], [%[pw]]\n\tvldrh.16 %q[x], [%[a]]\n\t" MOTE_MVE_S16_MAC("e0", "o0")    \
  "vldrh.16 %q[x], [%[b]]\n\t" MOTE_MVE_S16_MAC("e1", "o1")                                \
  "add %[pw], %[pw], %[ws]\n\tadd %[t0], %[a], %[ts]\n\tadd %[t1], %[b], %[ts]\n\t"        \
  "vldrb.s16 %q[w], [%[pw]]\n\tvldrh.16 %q[x], [%[t0]]\n\t" MOTE_MVE_S16_MAC("e0", "o0")   \
  "vldrh.16 %q[x], [%[t1]]\n\t" MOTE_MVE_S16_MAC("e1", "o1")                               \
  "add %[pw], %[pw], %[ws]\n\tadd %[t0], %[t0], %[ts]\n\tadd %[t1], %[t1], %[ts]\n\t"      \
  "vldrb.s16 %q[w], [%[pw]]\n\tvldrh.16 %q[x], [%[t0]]\n\t" MOTE_MVE_S16_MAC("e0", "o0")   \
  "vldrh.16 %q[x], [%[t1]]\n\t" MOTE_MVE_S16_MAC("e1", "o1")                               \
  "add %[pw], %[pw], %[ws]\n\t"
__attribute__((always_inline))
inline void vmull_row3_s16(int32x4_t& even, int32x4_t& odd, const int16_t* px,
                           int32_t tap_bytes, const int8_t*& pw, int32_t w_bytes) {
  int16x8_t x, w;
  int32x4_t p;
  const int16_t* t;
  asm volatile(
      "vldrb.s16 %q[w], [%[pw]]\n\tvldrh.16 %q[x], [%[a]]\n\t" MOTE_MVE_S16_MAC("e0", "o0")
      "add %[pw], %[pw], %[ws]\n\tadd %[t], %[a], %[ts]\n\t"
      "vldrb.s16 %q[w], [%[pw]]\n\tvldrh.16 %q[x], [%[t]]\n\t" MOTE_MVE_S16_MAC("e0", "o0")
      "add %[pw], %[pw], %[ws]\n\tadd %[t], %[t], %[ts]\n\t"
      "vldrb.s16 %q[w], [%[pw]]\n\tvldrh.16 %q[x], [%[t]]\n\t" MOTE_MVE_S16_MAC("e0", "o0")
      "add %[pw], %[pw], %[ws]"
      : [e0] "+w"(even), [o0] "+w"(odd), [x] "=&w"(x), [w] "=&w"(w), [p] "=&w"(p),
        [pw] "+l"(pw), [t] "=&r"(t)
      : [a] "r"(px), [ts] "r"(tap_bytes), [ws] "r"(w_bytes)
      : "memory");
}
__attribute__((always_inline))
inline void vmull_row3_pair_s16(int32x4_t& even0, int32x4_t& odd0, int32x4_t& even1,
                                int32x4_t& odd1, const int16_t* px0, const int16_t* px1,
                                int32_t tap_bytes, const int8_t*& pw, int32_t w_bytes) {
  int16x8_t x, w;
  int32x4_t p;
  const int16_t *t0, *t1;
  asm volatile(MOTE_MVE_S16_ROW3_PAIR
      : [e0] "+w"(even0), [o0] "+w"(odd0), [e1] "+w"(even1), [o1] "+w"(odd1), [x] "=&w"(x),
        [w] "=&w"(w), [p] "=&w"(p), [pw] "+l"(pw), [t0] "=&r"(t0), [t1] "=&r"(t1)
      : [a] "r"(px0), [b] "r"(px1), [ts] "r"(tap_bytes), [ws] "r"(w_bytes)
      : "memory");
}
__attribute__((always_inline))
inline void vmull_row3_pair_shared_s16(int32x4_t& even0, int32x4_t& odd0, int32x4_t& even1,
                                       int32x4_t& odd1, const int16_t* px, int32_t tap_bytes,
                                       const int8_t*& pw, int32_t w_bytes) {
  int16x8_t x, w;
  int32x4_t p;
  const int16_t* t;
  asm volatile(MOTE_MVE_S16_ROW3_SHARED
      : [e0] "+w"(even0), [o0] "+w"(odd0), [e1] "+w"(even1), [o1] "+w"(odd1), [x] "=&w"(x),
        [w] "=&w"(w), [p] "=&w"(p), [pw] "+l"(pw), [t] "=&r"(t)
      : [a] "r"(px), [ts] "r"(tap_bytes), [ws] "r"(w_bytes)
      : "memory");
}
// Three rows of three taps (a 3x3 window inside the image) of two pixels, the rows
// row_bytes apart in the input and contiguous in the weights: _shared and not as above.
__attribute__((always_inline))
inline void vmull_3x3_pair_shared_s16(int32x4_t& even0, int32x4_t& odd0, int32x4_t& even1,
                                      int32x4_t& odd1, const int16_t* px, int32_t tap_bytes,
                                      int32_t row_bytes, const int8_t* pw, int32_t w_bytes) {
  int16x8_t x, w;
  int32x4_t p;
  const int16_t* t;
  asm volatile(MOTE_MVE_S16_ROW3_SHARED "add %[a], %[a], %[rs]\n\t" MOTE_MVE_S16_ROW3_SHARED
               "add %[a], %[a], %[rs]\n\t" MOTE_MVE_S16_ROW3_SHARED
      : [e0] "+w"(even0), [o0] "+w"(odd0), [e1] "+w"(even1), [o1] "+w"(odd1), [x] "=&w"(x),
        [w] "=&w"(w), [p] "=&w"(p), [pw] "+l"(pw), [t] "=&r"(t), [a] "+r"(px)
      : [ts] "r"(tap_bytes), [ws] "r"(w_bytes), [rs] "r"(row_bytes)
      : "memory");
}
__attribute__((always_inline))
inline void vmull_3x3_pair_s16(int32x4_t& even0, int32x4_t& odd0, int32x4_t& even1,
                               int32x4_t& odd1, const int16_t* px0, const int16_t* px1,
                               int32_t tap_bytes, int32_t row_bytes, const int8_t* pw,
                               int32_t w_bytes) {
  int16x8_t x, w;
  int32x4_t p;
  const int16_t *t0, *t1;
  asm volatile(MOTE_MVE_S16_ROW3_PAIR "add %[a], %[a], %[rs]\n\tadd %[b], %[b], %[rs]\n\t"
               MOTE_MVE_S16_ROW3_PAIR "add %[a], %[a], %[rs]\n\tadd %[b], %[b], %[rs]\n\t"
               MOTE_MVE_S16_ROW3_PAIR
      : [e0] "+w"(even0), [o0] "+w"(odd0), [e1] "+w"(even1), [o1] "+w"(odd1), [x] "=&w"(x),
        [w] "=&w"(w), [p] "=&w"(p), [pw] "+l"(pw), [t0] "=&r"(t0), [t1] "=&r"(t1),
        [a] "+r"(px0), [b] "+r"(px1)
      : [ts] "r"(tap_bytes), [ws] "r"(w_bytes), [rs] "r"(row_bytes)
      : "memory");
}
#undef MOTE_MVE_S16_ROW3_SHARED
#undef MOTE_MVE_S16_ROW3_PAIR
#undef MOTE_MVE_S16_MAC
#else
inline const int16_t* step_bytes(const int16_t* p, int32_t bytes) { return p + bytes / 2; }
__attribute__((always_inline))
inline void vmull_row3_s16(int32x4_t& even, int32x4_t& odd, const int16_t* px,
                           int32_t tap_bytes, const int8_t*& pw, int32_t w_bytes) {
  for (int k = 0; k < 3; ++k, px = step_bytes(px, tap_bytes), pw += w_bytes) {
    vmull_tap_s16(even, odd, px, pw);
  }
}
__attribute__((always_inline))
inline void vmull_row3_pair_s16(int32x4_t& even0, int32x4_t& odd0, int32x4_t& even1,
                                int32x4_t& odd1, const int16_t* px0, const int16_t* px1,
                                int32_t tap_bytes, const int8_t*& pw, int32_t w_bytes) {
  const int8_t* pw1 = pw;
  vmull_row3_s16(even0, odd0, px0, tap_bytes, pw, w_bytes);
  vmull_row3_s16(even1, odd1, px1, tap_bytes, pw1, w_bytes);
}
__attribute__((always_inline))
inline void vmull_row3_pair_shared_s16(int32x4_t& even0, int32x4_t& odd0, int32x4_t& even1,
                                       int32x4_t& odd1, const int16_t* px, int32_t tap_bytes,
                                       const int8_t*& pw, int32_t w_bytes) {
  vmull_row3_pair_s16(even0, odd0, even1, odd1, px, step_bytes(px, tap_bytes), tap_bytes, pw,
                      w_bytes);
}
__attribute__((always_inline))
inline void vmull_3x3_pair_s16(int32x4_t& even0, int32x4_t& odd0, int32x4_t& even1,
                               int32x4_t& odd1, const int16_t* px0, const int16_t* px1,
                               int32_t tap_bytes, int32_t row_bytes, const int8_t* pw,
                               int32_t w_bytes) {
  for (int r = 0; r < 3; ++r) {
    vmull_row3_pair_s16(even0, odd0, even1, odd1, px0, px1, tap_bytes, pw, w_bytes);
    px0 = step_bytes(px0, row_bytes);
    px1 = step_bytes(px1, row_bytes);
  }
}
__attribute__((always_inline))
inline void vmull_3x3_pair_shared_s16(int32x4_t& even0, int32x4_t& odd0, int32x4_t& even1,
                                      int32x4_t& odd1, const int16_t* px, int32_t tap_bytes,
                                      int32_t row_bytes, const int8_t* pw, int32_t w_bytes) {
  vmull_3x3_pair_s16(even0, odd0, even1, odd1, px, step_bytes(px, tap_bytes), tap_bytes,
                     row_bytes, pw, w_bytes);
}
#endif
}  // namespace mote::mve

// ---------------------------------------------------------------------------------------
// Gathers, byte scatters and sums used by the Helium pointwise convolution's live
// channels: per-lane indices are int32 lanes read as unsigned, as
// the instructions read them.
namespace mote::mve {

#if MOTE_HAS_MVE

#undef vldrwq_gather_shifted_offset_s32
#undef vstrbq_scatter_offset_s32
#undef vabavq_s8
#undef vorrq_s32
#undef vmulq_n_s32
#undef vaddvq_s32
// Lane i = base[index[i]] (VLDRW.U32 Qd, [Rn, Qm, UXTW #2]).
inline int32x4_t vldrwq_gather_shifted_offset_s32(const int32_t* base, int32x4_t index) {
  return __arm_vldrwq_gather_shifted_offset_s32(base, __arm_vreinterpretq_u32_s32(index));
}
// The low byte of lane i to base[offsets[i]] (VSTRB.32 Qd, [Rn, Qm]).
inline void vstrbq_scatter_offset_s32(int8_t* base, int32x4_t offsets, int32x4_t a) {
  __arm_vstrbq_scatter_offset_s32(base, __arm_vreinterpretq_u32_s32(offsets), a);
}
// acc + sum_i |a[i] - b[i]| (VABAV.S8).
inline uint32_t vabavq_s8(uint32_t acc, int8x16_t a, int8x16_t b) {
  return __arm_vabavq_s8(acc, a, b);
}
// Lane-wise a | b (VORR).
inline int32x4_t vorrq_s32(int32x4_t a, int32x4_t b) { return __arm_vorrq_s32(a, b); }
// Lane-wise wrapping a * b (VMUL.I32 by scalar).
inline int32x4_t vmulq_n_s32(int32x4_t a, int32_t b) { return __arm_vmulq_n_s32(a, b); }
// sum_i a[i], wrapping int32 (VADDV.S32).
inline int32_t vaddvq_s32(int32x4_t a) { return __arm_vaddvq_s32(a); }

#else  // portable definitions

inline int32x4_t vldrwq_gather_shifted_offset_s32(const int32_t* base, int32x4_t index) {
  int32x4_t r;
  for (int i = 0; i < 4; ++i) r.lane[i] = base[static_cast<uint32_t>(index.lane[i])];
  return r;
}
inline void vstrbq_scatter_offset_s32(int8_t* base, int32x4_t offsets, int32x4_t a) {
  for (int i = 0; i < 4; ++i) {
    base[static_cast<uint32_t>(offsets.lane[i])] = static_cast<int8_t>(a.lane[i] & 0xFF);
  }
}
inline uint32_t vabavq_s8(uint32_t acc, int8x16_t a, int8x16_t b) {
  for (int i = 0; i < 16; ++i) {
    const int32_t d = int32_t{a.lane[i]} - int32_t{b.lane[i]};
    acc += static_cast<uint32_t>(d < 0 ? -d : d);
  }
  return acc;
}
inline int32x4_t vorrq_s32(int32x4_t a, int32x4_t b) {
  int32x4_t r;
  for (int i = 0; i < 4; ++i) r.lane[i] = a.lane[i] | b.lane[i];
  return r;
}
inline int32_t vaddvq_s32(int32x4_t a) {
  uint32_t sum = 0;
  for (int i = 0; i < 4; ++i) sum += static_cast<uint32_t>(a.lane[i]);
  return static_cast<int32_t>(sum);
}
inline int32x4_t vmulq_n_s32(int32x4_t a, int32_t b) {
  int32x4_t r;
  for (int i = 0; i < 4; ++i) {
    r.lane[i] = static_cast<int32_t>(static_cast<uint32_t>(a.lane[i]) * static_cast<uint32_t>(b));
  }
  return r;
}

#endif

}  // namespace mote::mve
