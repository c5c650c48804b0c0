// The Helium (MVE) quantized ADD loop shared by add_s8__mve and add_s16__mve: two
// tensors of the output's element count (no broadcasting), bit-exact with the reference
// binary_quant::AddSub<kLeftShift, +1> (see elementwise.h) for every parameter its
// check accepts. Internal to kernels/elementwise/.
//
// 4 elements per step in int32 lanes (widening loads, narrowing stores), the last step
// tail-predicated:
//   (a - zp) << kLeftShift  VSUB + VSHL by scalar: |a - zp| <= 255 (int8) or 65535
//                          (int16), so (a - zp) * 2^20 or 2^15 fits int32 and the shift
//                          gives the reference's product
//   multiply_by_quantized_multiplier(v, m, s), s <= 0 (check()):
//     VQRDMULH by m          gemmlowp SaturatingRoundingDoublingHighMul, same rounding
//                            and the same single saturating case
//     rounding divide by 2^-s  (s < 0 only) VRSHL rounds ties up; the reference rounds them
//                            away from zero, so negative lanes first get -1 (saturating):
//                            floor((v - 1 + 2^(e-1)) / 2^e) == floor + (remainder > 2^(e-1)).
// then the two scaled inputs are added (wrapping), requantized the same way, offset by
// the output zero point and clamped. Each of the three shifts is either 0 or negative
// for the whole call, so the loop is instantiated for the 8 combinations and picked once.
// In place (out == a or b) is fine: each step reads its 4 elements before writing them.
#pragma once

#include <stdint.h>

#include "elementwise/elementwise.h"
#include "isa/mve.h"

namespace mote {
namespace add_quant_mve {

using mve::int32x4_t;
using mve::mve_pred16_t;

// The parameters as locals, so that the loop keeps them in registers (the output store
// could otherwise alias the parameter struct).
struct AddConstants {
  int32_t a_zero_point, b_zero_point, out_zero_point;
  int32_t a_multiplier, a_shift, b_multiplier, b_shift, out_multiplier, out_shift;
  int32x4_t act_min, act_max;
};

// multiply_by_quantized_multiplier(v, multiplier, shift) per lane for shift <= 0;
// kRound: shift < 0 (with shift == 0 it is the rounding-doubling multiply alone).
template <bool kRound>
inline int32x4_t scale(int32x4_t v, int32_t multiplier, int32_t shift) {
  const int32x4_t high = mve::vqrdmulhq_n_s32(v, multiplier);
  if (!kRound) return high;
  const int32x4_t fixup = MOTE_MVE_VSHRQ_N_S32(high, 31);  // -1 in negative lanes
  return mve::vrshlq_n_s32(mve::vqaddq_s32(high, fixup), shift);
}

template <int32_t kLeftShift, bool kRoundA, bool kRoundB, bool kRoundOut>
inline int32x4_t add4(const AddConstants& k, int32x4_t a, int32x4_t b) {
  const int32x4_t a_shifted = mve::vshlq_r_s32(mve::vsubq_n_s32(a, k.a_zero_point), kLeftShift);
  const int32x4_t b_shifted = mve::vshlq_r_s32(mve::vsubq_n_s32(b, k.b_zero_point), kLeftShift);
  const int32x4_t sum = mve::vaddq_s32(scale<kRoundA>(a_shifted, k.a_multiplier, k.a_shift),
                                       scale<kRoundB>(b_shifted, k.b_multiplier, k.b_shift));
  const int32x4_t out =
      mve::vaddq_n_s32(scale<kRoundOut>(sum, k.out_multiplier, k.out_shift), k.out_zero_point);
  return mve::vminq_s32(mve::vmaxq_s32(out, k.act_min), k.act_max);
}

// Four elements into int32 lanes and back (the low byte or half of each lane).
inline int32x4_t load4(const int8_t* p) { return mve::vldrbq_s32(p); }
inline int32x4_t load4(const int16_t* p) { return mve::vldrhq_s32(p); }
inline int32x4_t load4_z(const int8_t* p, mve_pred16_t pred) { return mve::vldrbq_z_s32(p, pred); }
inline int32x4_t load4_z(const int16_t* p, mve_pred16_t pred) { return mve::vldrhq_z_s32(p, pred); }
inline void store4(int8_t* p, int32x4_t v) { mve::vstrbq_s32(p, v); }
inline void store4(int16_t* p, int32x4_t v) { mve::vstrhq_s32(p, v); }
inline void store4_p(int8_t* p, int32x4_t v, mve_pred16_t pred) { mve::vstrbq_p_s32(p, v, pred); }
inline void store4_p(int16_t* p, int32x4_t v, mve_pred16_t pred) { mve::vstrhq_p_s32(p, v, pred); }

template <typename T, int32_t kLeftShift, bool kRoundA, bool kRoundB, bool kRoundOut>
void add_loop(const AddConstants& constants, const T* a, const T* b, T* out, int32_t count) {
  const AddConstants k = constants;
  int32_t i = 0;
  for (; i + 4 <= count; i += 4) {
    store4(out + i, add4<kLeftShift, kRoundA, kRoundB, kRoundOut>(k, load4(a + i), load4(b + i)));
  }
  if (i < count) {
    const mve_pred16_t pred = mve::vctp32q(static_cast<uint32_t>(count - i));
    store4_p(out + i,
             add4<kLeftShift, kRoundA, kRoundB, kRoundOut>(k, load4_z(a + i, pred), load4_z(b + i, pred)),
             pred);
  }
}

// out[i] = the reference ADD of a[i], b[i] for i in [0, count), params accepted by the
// reference's check.
template <typename T, int32_t kLeftShift>
void add(const QuantAddSubParams& p, const T* a, const T* b, T* out, int32_t count) {
  AddConstants k;
  k.a_zero_point = p.input1_zero_point;
  k.b_zero_point = p.input2_zero_point;
  k.out_zero_point = p.output_zero_point;
  k.a_multiplier = p.input1_multiplier;
  k.a_shift = p.input1_shift;
  k.b_multiplier = p.input2_multiplier;
  k.b_shift = p.input2_shift;
  k.out_multiplier = p.output_multiplier;
  k.out_shift = p.output_shift;
  k.act_min = mve::vdupq_n_s32(p.act_min);
  k.act_max = mve::vdupq_n_s32(p.act_max);
  // One loop per combination of "this shift rounds" (shift < 0).
  const int index = (p.input1_shift < 0 ? 4 : 0) + (p.input2_shift < 0 ? 2 : 0) +
                    (p.output_shift < 0 ? 1 : 0);
  switch (index) {
    case 0: add_loop<T, kLeftShift, false, false, false>(k, a, b, out, count); break;
    case 1: add_loop<T, kLeftShift, false, false, true>(k, a, b, out, count); break;
    case 2: add_loop<T, kLeftShift, false, true, false>(k, a, b, out, count); break;
    case 3: add_loop<T, kLeftShift, false, true, true>(k, a, b, out, count); break;
    case 4: add_loop<T, kLeftShift, true, false, false>(k, a, b, out, count); break;
    case 5: add_loop<T, kLeftShift, true, false, true>(k, a, b, out, count); break;
    case 6: add_loop<T, kLeftShift, true, true, false>(k, a, b, out, count); break;
    default: add_loop<T, kLeftShift, true, true, true>(k, a, b, out, count); break;
  }
}

// check(): the reference's (reference_check), plus both inputs of the output's byte size
// (hence element count, the dtypes being equal), which fits int32.
inline Status check(const OpContext& ctx, Status (*reference_check)(const OpContext&)) {
  MOTE_RETURN_IF_ERROR(reference_check(ctx));
  const uint32_t bytes = ctx.output_desc(0).bytes;
  if (ctx.input_desc(0).bytes != bytes || ctx.input_desc(1).bytes != bytes ||
      bytes > static_cast<uint32_t>(INT32_MAX)) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

// run(): add<T, kLeftShift> over the op's tensors.
template <typename T, int32_t kLeftShift>
void run(const OpContext& ctx) {
  add<T, kLeftShift>(ctx.params<QuantAddSubParams>(), static_cast<const T*>(ctx.input_data(0)),
                     static_cast<const T*>(ctx.input_data(1)), static_cast<T*>(ctx.output_data(0)),
                     static_cast<int32_t>(ctx.output_desc(0).bytes / sizeof(T)));
}

}  // namespace add_quant_mve
}  // namespace mote
