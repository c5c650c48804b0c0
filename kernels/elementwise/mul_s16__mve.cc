// Helium (MVE) int16 MUL (TFLite 16x8, zero points 0), any broadcast; bit-exact with
// mul_s16 (binary_quant::Mul, see elementwise.h) for every parameter mul_s16's check
// accepts, with no fallback.
//
// Eight int16 lanes per step, the last step tail-predicated: VMULLB / VMULLT give the
// exact products of the even and odd lanes in int32 (|p| <= 2^30), then per int32 lane
// multiply_by_quantized_multiplier(p, m, shift):
//   shift > 0   p << shift         VSHL by scalar (wraps, as the reference's int32 multiply)
//   VQRDMULH by m                  gemmlowp SaturatingRoundingDoublingHighMul: same rounding
//                                  and the same single saturating case
//   shift < 0   rounding divide by 2^-shift: VRSHL rounds ties up, the reference away from
//               zero, so negative lanes first get -1 (saturating; see add_quant_mve.h)
// then VQMOVNB / VQMOVNT narrow both halves back into eight int16 lanes saturated to int16
// (the output zero point is 0), and VMAX / VMIN.S16 clamp to the act range unless it is
// all of int16. The shift's sign is fixed per run, so the loop is picked once.
#include "elementwise/elementwise.h"
#include "elementwise/mul_s16_rows.h"
#include "isa/mve.h"
#include "kernel_util.h"

namespace mote {

namespace {

using mve::int16x8_t;
using mve::int32x4_t;
using mve::mve_pred16_t;

// The parameters as locals, so that the loop keeps them in registers.
struct MulConstants {
  int32_t multiplier, shift;  // shift: the output shift (left when > 0)
  int16x8_t act_min, act_max;
  int32_t mode;  // 0: shift == 0, 1: shift > 0 (left), 2: shift < 0 (rounding right)
  bool full_range;
};

template <int32_t kMode>
inline int32x4_t requantize4(const MulConstants& k, int32x4_t p) {
  if (kMode == 1) p = mve::vshlq_r_s32(p, k.shift);
  const int32x4_t high = mve::vqrdmulhq_n_s32(p, k.multiplier);
  if (kMode != 2) return high;
  const int32x4_t fixup = MOTE_MVE_VSHRQ_N_S32(high, 31);  // -1 in negative lanes
  return mve::vrshlq_n_s32(mve::vqaddq_s32(high, fixup), k.shift);
}

template <int32_t kMode, bool kFullRange>
inline int16x8_t mul8(const MulConstants& k, int16x8_t a, int16x8_t b) {
  int16x8_t out = mve::vqmovnbq_s32(a, requantize4<kMode>(k, mve::vmullbq_int_s16(a, b)));
  out = mve::vqmovntq_s32(out, requantize4<kMode>(k, mve::vmulltq_int_s16(a, b)));
  if (!kFullRange) out = mve::vminq_s16(mve::vmaxq_s16(out, k.act_min), k.act_max);
  return out;
}

// kScalar: b is one value in every lane of vb.
template <int32_t kMode, bool kFullRange, bool kScalar>
void loop(const MulConstants& constants, const int16_t* a, const int16_t* b, int16x8_t vb, int16_t* out,
          int32_t count) {
  const MulConstants k = constants;
  int32_t i = 0;
  for (; i + 8 <= count; i += 8) {
    if (!kScalar) vb = mve::vldrhq_s16(b + i);
    mve::vstrhq_s16(out + i, mul8<kMode, kFullRange>(k, mve::vldrhq_s16(a + i), vb));
  }
  if (i < count) {
    const mve_pred16_t pred = mve::vctp16q(static_cast<uint32_t>(count - i));
    if (!kScalar) vb = mve::vldrhq_z_s16(b + i, pred);
    mve::vstrhq_p_s16(out + i, mul8<kMode, kFullRange>(k, mve::vldrhq_z_s16(a + i, pred), vb), pred);
  }
}

template <int32_t kMode, bool kScalar>
void loop_range(const MulConstants& k, const int16_t* a, const int16_t* b, int16x8_t vb, int16_t* out,
                int32_t count) {
  if (k.full_range) {
    loop<kMode, true, kScalar>(k, a, b, vb, out, count);
  } else {
    loop<kMode, false, kScalar>(k, a, b, vb, out, count);
  }
}

template <bool kScalar>
void dispatch(const MulConstants& k, const int16_t* a, const int16_t* b, int16x8_t vb, int16_t* out,
              int32_t count) {
  switch (k.mode) {
    case 0: loop_range<0, kScalar>(k, a, b, vb, out, count); break;
    case 1: loop_range<1, kScalar>(k, a, b, vb, out, count); break;
    default: loop_range<2, kScalar>(k, a, b, vb, out, count); break;
  }
}

struct Rows {
  using Constants = MulConstants;

  static MulConstants make(const QuantMulParams& p) {
    MulConstants k;
    k.multiplier = p.output_multiplier;
    k.shift = p.output_shift;
    k.act_min = mve::vdupq_n_s16(static_cast<int16_t>(p.act_min));
    k.act_max = mve::vdupq_n_s16(static_cast<int16_t>(p.act_max));
    k.mode = p.output_shift == 0 ? 0 : (p.output_shift > 0 ? 1 : 2);
    k.full_range = p.act_min == -32768 && p.act_max == 32767;
    return k;
  }

  static void pairs(const MulConstants& k, const int16_t* a, const int16_t* b, int16_t* out, int32_t n) {
    dispatch<false>(k, a, b, mve::vdupq_n_s16(0), out, n);
  }

  static void scalar(const MulConstants& k, const int16_t* a, int16_t s, int16_t* out, int32_t n) {
    dispatch<true>(k, a, nullptr, mve::vdupq_n_s16(s), out, n);
  }

  static int16_t one(const MulConstants& k, int16_t a, int16_t b) {
    int16_t v = 0;
    dispatch<true>(k, &a, nullptr, mve::vdupq_n_s16(b), &v, 1);
    return v;
  }
};

}  // namespace

Status mul_s16__mve_check(const OpContext& ctx) { return mul_s16_rows::check(ctx); }

void mul_s16__mve_run(const OpContext& ctx) { mul_s16_rows::run<Rows>(ctx); }

const KernelEntry kMulS16MveEntry = {mul_s16__mve_check, mul_s16__mve_run};

}  // namespace mote
