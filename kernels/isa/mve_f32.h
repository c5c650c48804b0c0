// The Armv8.1-M Helium floating-point (MVE-F) operations the float32 __mve kernel variants
// are written in, each with a portable definition that computes the same bits where the
// target lacks MVE-F (the host, every other Cortex-M), as isa/mve.h does for the integer
// ones. Names and lane semantics are those of ACLE's arm_mve.h, inside mote::mve.
//
// Every multiply-add is fused on MVE (VFMA.F32): acc + a * b rounded once, the result of
// the scalar VFMA.F32 that a core's FPU computes for acc += a * b in plain C++ (with
// floating-point contraction, GCC's default), so a lane holds the bits of the scalar
// reference kernel on the same core. The portable definitions are the same C++
// expressions. MOTE_HAS_MVE_F32 says which definition is in use.
#pragma once

#include <stdint.h>

#include "isa/fpu.h"
#include "isa/mve.h"

#if MOTE_HAS_MVE && defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 2)
#define MOTE_HAS_MVE_F32 1
// As in isa/mve.h: every name wrapped below is an arm_mve.h macro, undefined here.
#undef vcmpgtq_f32
#undef vcmpltq_n_s32
#undef vcvtq_s32_f32
#undef vmulq_n_f32
#undef vshlq_n_s32
#undef vcmpltq_f32
#undef vdupq_n_f32
#undef vfmaq_f32
#undef vfmaq_n_f32
#undef vldrwq_f32
#undef vldrwq_gather_shifted_offset_f32
#undef vldrwq_u32
#undef vldrwq_z_f32
#undef vpselq_f32
#undef vstrwq_f32
#undef vstrwq_p_f32
#else
#define MOTE_HAS_MVE_F32 0
#endif

namespace mote::mve {

#if MOTE_HAS_MVE_F32

using ::float32x4_t;
using ::uint32x4_t;

inline float32x4_t vldrwq_f32(const float* p) { return __arm_vldrwq_f32(p); }
// Inactive lanes read as 0 (their memory untouched).
inline float32x4_t vldrwq_z_f32(const float* p, mve_pred16_t pred) { return __arm_vldrwq_z_f32(p, pred); }
inline uint32x4_t vldrwq_u32(const uint32_t* p) { return __arm_vldrwq_u32(p); }
// Lane i = base[offset[i]] (VLDRW.U32 Qd, [Rn, Qm, UXTW #2]).
inline float32x4_t vldrwq_gather_shifted_offset_f32(const float* base, uint32x4_t offset) {
  return __arm_vldrwq_gather_shifted_offset_f32(base, offset);
}
// Four float rows walked together, one value per step: lane i of next() is row i's
// current value (row i starts at base[offset[i]]), and every row then moves on by one.
// The rows must stay unwritten while a cursor walks them (constant data: weights).
// One gather with a vector of addresses and writeback (VLDRW.U32 Qd, [Qm, #4]!) per step.
class RowsCursor {
 public:
  RowsCursor(const float* base, const uint32_t offset[4]) {
    // The load pre-increments: start one float before each row.
    uint32_t addr[4];
    for (int i = 0; i < 4; ++i) addr[i] = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(base + offset[i])) - 4u;
    addr_ = __arm_vldrwq_u32(addr);
  }
  // Row i starts at the byte base + byte_offsets[i] (a multiple of 4).
  RowsCursor(const float* base, uint32x4_t byte_offsets)
      : addr_(__arm_vaddq_n_u32(byte_offsets, static_cast<uint32_t>(reinterpret_cast<uintptr_t>(base)) - 4u)) {}
  float32x4_t next() {
    // (arm_mve.h's vldrwq_gather_base_wb_f32 is two loads in GCC 12: one without and one
    // with writeback.) The asm declares no memory read: the rows must not be written
    // while a cursor walks them (the kernels walk their weights).
    float32x4_t r;
    asm("vldrw.u32 %q[r], [%q[a], #4]!" : [r] "=&w"(r), [a] "+w"(addr_));
    return r;
  }

 private:
  uint32x4_t addr_;
};
inline void vstrwq_f32(float* p, float32x4_t a) { __arm_vstrwq_f32(p, a); }
inline void vstrwq_p_f32(float* p, float32x4_t a, mve_pred16_t pred) { __arm_vstrwq_p_f32(p, a, pred); }
inline float32x4_t vdupq_n_f32(float x) { return __arm_vdupq_n_f32(x); }
// acc + a * b per lane, fused (VFMA.F32).
inline float32x4_t vfmaq_f32(float32x4_t acc, float32x4_t a, float32x4_t b) { return __arm_vfmaq_f32(acc, a, b); }
// acc + a * b per lane with the scalar b, fused (VFMA.F32 by scalar).
inline float32x4_t vfmaq_n_f32(float32x4_t acc, float32x4_t a, float b) { return __arm_vfmaq_n_f32(acc, a, b); }
inline mve_pred16_t vcmpltq_f32(float32x4_t a, float32x4_t b) { return __arm_vcmpltq_f32(a, b); }
// a * b per lane with the scalar b (VMUL.F32 by scalar).
inline float32x4_t vmulq_n_f32(float32x4_t a, float b) { return __arm_vmulq_n_f32(a, b); }
// Truncation toward zero, saturated to the int32 range, NaN to 0 (VCVT.S32.F32).
inline int32x4_t vcvtq_s32_f32(float32x4_t a) { return __arm_vcvtq_s32_f32(a); }
// a << n per lane, bits shifted out lost (VSHL.I32 #n); n in [0, 31].
template <int kShift>
inline int32x4_t vshlq_n_s32(int32x4_t a) {
  return __arm_vshlq_n_s32(a, kShift);
}
// Signed a < b per lane with the scalar b.
inline mve_pred16_t vcmpltq_n_s32(int32x4_t a, int32_t b) { return __arm_vcmpltq_n_s32(a, b); }
inline mve_pred16_t vcmpgtq_f32(float32x4_t a, float32x4_t b) { return __arm_vcmpgtq_f32(a, b); }
// Lane i = a's where the predicate is set, else b's (VPSEL).
inline float32x4_t vpselq_f32(float32x4_t a, float32x4_t b, mve_pred16_t pred) { return __arm_vpselq_f32(a, b, pred); }

#else  // portable definitions

struct float32x4_t {
  float lane[4];
};
struct uint32x4_t {
  uint32_t lane[4];
};

inline bool lane_active(mve_pred16_t pred, int i) { return ((pred >> (4 * i)) & 1u) != 0; }

inline float32x4_t vldrwq_f32(const float* p) { return {{p[0], p[1], p[2], p[3]}}; }
inline float32x4_t vldrwq_z_f32(const float* p, mve_pred16_t pred) {
  float32x4_t r;
  for (int i = 0; i < 4; ++i) r.lane[i] = lane_active(pred, i) ? p[i] : 0.0f;
  return r;
}
inline uint32x4_t vldrwq_u32(const uint32_t* p) { return {{p[0], p[1], p[2], p[3]}}; }
inline float32x4_t vldrwq_gather_shifted_offset_f32(const float* base, uint32x4_t offset) {
  return {{base[offset.lane[0]], base[offset.lane[1]], base[offset.lane[2]], base[offset.lane[3]]}};
}
class RowsCursor {
 public:
  RowsCursor(const float* base, const uint32_t offset[4]) {
    for (int i = 0; i < 4; ++i) row_[i] = base + offset[i];
  }
  RowsCursor(const float* base, uint32x4_t byte_offsets) {
    for (int i = 0; i < 4; ++i) row_[i] = base + byte_offsets.lane[i] / 4;
  }
  float32x4_t next() {
    float32x4_t r;
    for (int i = 0; i < 4; ++i) r.lane[i] = *row_[i]++;
    return r;
  }

 private:
  const float* row_[4];
};
inline void vstrwq_f32(float* p, float32x4_t a) {
  for (int i = 0; i < 4; ++i) p[i] = a.lane[i];
}
inline void vstrwq_p_f32(float* p, float32x4_t a, mve_pred16_t pred) {
  for (int i = 0; i < 4; ++i) {
    if (lane_active(pred, i)) p[i] = a.lane[i];
  }
}
inline float32x4_t vdupq_n_f32(float x) { return {{x, x, x, x}}; }
inline float32x4_t vfmaq_f32(float32x4_t acc, float32x4_t a, float32x4_t b) {
  for (int i = 0; i < 4; ++i) acc.lane[i] += a.lane[i] * b.lane[i];
  return acc;
}
inline float32x4_t vfmaq_n_f32(float32x4_t acc, float32x4_t a, float b) {
  for (int i = 0; i < 4; ++i) acc.lane[i] += a.lane[i] * b;
  return acc;
}
inline mve_pred16_t vcmpltq_f32(float32x4_t a, float32x4_t b) {
  mve_pred16_t r = 0;
  for (int i = 0; i < 4; ++i) r |= a.lane[i] < b.lane[i] ? static_cast<mve_pred16_t>(0xFu << (4 * i)) : 0u;
  return r;
}
inline mve_pred16_t vcmpgtq_f32(float32x4_t a, float32x4_t b) { return vcmpltq_f32(b, a); }
inline float32x4_t vmulq_n_f32(float32x4_t a, float b) {
  for (int i = 0; i < 4; ++i) a.lane[i] *= b;
  return a;
}
inline int32x4_t vcvtq_s32_f32(float32x4_t a) {
  int32x4_t r;
  for (int i = 0; i < 4; ++i) r.lane[i] = fpu::cvt_s32_saturated(a.lane[i]);
  return r;
}
template <int kShift>
inline int32x4_t vshlq_n_s32(int32x4_t a) {
  for (int i = 0; i < 4; ++i) a.lane[i] = static_cast<int32_t>(static_cast<uint32_t>(a.lane[i]) << kShift);
  return a;
}
inline mve_pred16_t vcmpltq_n_s32(int32x4_t a, int32_t b) {
  mve_pred16_t r = 0;
  for (int i = 0; i < 4; ++i) r |= a.lane[i] < b ? static_cast<mve_pred16_t>(0xFu << (4 * i)) : 0u;
  return r;
}
inline float32x4_t vpselq_f32(float32x4_t a, float32x4_t b, mve_pred16_t pred) {
  for (int i = 0; i < 4; ++i) b.lane[i] = lane_active(pred, i) ? a.lane[i] : b.lane[i];
  return b;
}

#endif

// clamp_value (kernel_util.h) per lane: v < lo ? lo : (v > hi ? hi : v), a NaN kept. On
// MVE two VPT blocks (compare and predicated move: 4 instructions; GCC 12 moves the
// predicates of vcmpltq / vpselq through core registers).
inline float32x4_t clamp_lanes(float32x4_t v, float32x4_t lo, float32x4_t hi) {
#if MOTE_HAS_MVE_F32
  asm("vpt.f32 lt, %q[v], %q[lo]\n\tvmovt %q[v], %q[lo]\n\tvpt.f32 gt, %q[v], %q[hi]\n\tvmovt %q[v], %q[hi]"
      : [v] "+w"(v)
      : [lo] "w"(lo), [hi] "w"(hi)
      : "p0");  // VPR, which VPT sets (GCC's name for it)
  return v;
#else
  v = vpselq_f32(lo, v, vcmpltq_f32(v, lo));
  return vpselq_f32(hi, v, vcmpgtq_f32(v, hi));
#endif
}

}  // namespace mote::mve
