// Helium (MVE) int8 ADD of two tensors of the output's shape (no broadcasting);
// bit-exact with add_s8 (binary_quant::AddSub, see elementwise.h).
//
// 4 elements per step in int32 lanes, the last step tail-predicated:
//   (a - zp1) << 20          VSUB + VSHL by scalar (|a - zp1| <= 255: no overflow)
//   multiply_by_quantized_multiplier(v, m, s), s <= 0 (check()):
//     VQRDMULH by m          gemmlowp SaturatingRoundingDoublingHighMul, same rounding
//     rounding divide by 2^-s  (s < 0 only) VRSHL rounds ties up; the reference rounds them
//                            away from zero, so negative lanes first get -1 (saturating):
//                            floor((v - 1 + 2^(e-1)) / 2^e) == floor + (remainder > 2^(e-1)).
// then the two scaled inputs are added (wrapping), requantized the same way, offset by
// the output zero point and clamped. Each of the three shifts is either 0 or negative
// for the whole call, so the loop is instantiated for the 8 combinations and picked once.
// In place (out == a or b) is fine: each step reads its 4 elements before writing them.
#include "elementwise/elementwise.h"
#include "isa/mve.h"
#include "kernel_util.h"
#include "quant/quant_check.h"
#include "quant/quant_math.h"

namespace mote {

namespace {

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

template <bool kRoundA, bool kRoundB, bool kRoundOut>
inline int32x4_t add4(const AddConstants& k, int32x4_t a, int32x4_t b) {
  // (x - zero_point) * 2^20, wrapping as the reference (|x - zero_point| <= 255 anyway).
  const int32x4_t a_shifted =
      mve::vshlq_r_s32(mve::vsubq_n_s32(a, k.a_zero_point), kAddSubLeftShiftS8);
  const int32x4_t b_shifted =
      mve::vshlq_r_s32(mve::vsubq_n_s32(b, k.b_zero_point), kAddSubLeftShiftS8);
  const int32x4_t sum = mve::vaddq_s32(scale<kRoundA>(a_shifted, k.a_multiplier, k.a_shift),
                                       scale<kRoundB>(b_shifted, k.b_multiplier, k.b_shift));
  const int32x4_t out =
      mve::vaddq_n_s32(scale<kRoundOut>(sum, k.out_multiplier, k.out_shift), k.out_zero_point);
  return mve::vminq_s32(mve::vmaxq_s32(out, k.act_min), k.act_max);
}

template <bool kRoundA, bool kRoundB, bool kRoundOut>
void add_loop(const AddConstants& constants, const int8_t* a, const int8_t* b, int8_t* out,
              int32_t count) {
  const AddConstants k = constants;
  int32_t i = 0;
  for (; i + 4 <= count; i += 4) {
    mve::vstrbq_s32(out + i, add4<kRoundA, kRoundB, kRoundOut>(k, mve::vldrbq_s32(a + i),
                                                                mve::vldrbq_s32(b + i)));
  }
  if (i < count) {
    const mve_pred16_t pred = mve::vctp32q(static_cast<uint32_t>(count - i));
    mve::vstrbq_p_s32(out + i,
                      add4<kRoundA, kRoundB, kRoundOut>(k, mve::vldrbq_z_s32(a + i, pred),
                                                        mve::vldrbq_z_s32(b + i, pred)),
                      pred);
  }
}

}  // namespace

void add_s8__mve(const QuantAddSubParams& p, const int8_t* a, const int8_t* b, int8_t* out,
                 int32_t count) {
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
    case 0: add_loop<false, false, false>(k, a, b, out, count); break;
    case 1: add_loop<false, false, true>(k, a, b, out, count); break;
    case 2: add_loop<false, true, false>(k, a, b, out, count); break;
    case 3: add_loop<false, true, true>(k, a, b, out, count); break;
    case 4: add_loop<true, false, false>(k, a, b, out, count); break;
    case 5: add_loop<true, false, true>(k, a, b, out, count); break;
    case 6: add_loop<true, true, false>(k, a, b, out, count); break;
    default: add_loop<true, true, true>(k, a, b, out, count); break;
  }
}

Status add_s8__mve_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(add_sub_s8_check(ctx));
  const uint32_t bytes = ctx.output_desc(0).bytes;
  if (ctx.input_desc(0).bytes != bytes || ctx.input_desc(1).bytes != bytes ||
      bytes > static_cast<uint32_t>(INT32_MAX)) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void add_s8__mve_run(const OpContext& ctx) {
  add_s8__mve(ctx.params<QuantAddSubParams>(), static_cast<const int8_t*>(ctx.input_data(0)),
              static_cast<const int8_t*>(ctx.input_data(1)),
              static_cast<int8_t*>(ctx.output_data(0)),
              static_cast<int32_t>(ctx.output_desc(0).bytes));
}

const KernelEntry kAddS8MveEntry = {add_s8__mve_check, add_s8__mve_run};

}  // namespace mote
