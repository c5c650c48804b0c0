// quantize_f32_s16 on Helium with floating point (MVE-F): four quotients per step by the
// multiply form of isa/fpu_reciprocal.h lane by lane (VMUL by the scale's prepared
// reciprocal, the truncating VCVT, the same fixed near-tie window), rounded, offset by the
// zero point and saturated in the vector; the lanes the near-tie tests flag are redone by
// the division, as the scalar form does. Bit-exact with quantize_f32_s16. In place
// (output over the input): a step reads its four floats before it writes.
#include "isa/dsp.h"
#include "isa/fpu_reciprocal.h"
#include "isa/mve.h"
#include "isa/mve_f32.h"
#include "kernel_util.h"
#include "quantize/quantize.h"

namespace mote {

namespace {

// One step of four values (active: the lanes to do; the main loop passes all four).
struct Step {
  const fpu::Reciprocal& reciprocal;
  int32_t zero_point;
  int32_t bias, limit, rounding;
  mve::int32x4_t lo, hi;

  // The lanes the division must redo: in the fixed window, then (rarely reached) the
  // tight test |f - H| <= (a >> 22) + 3, a = f ^ (f >> 31), as in the scalar form.
  mve::mve_pred16_t near_ties(mve::int32x4_t f) const {
    const mve::mve_pred16_t in_window = mve::vcmpltq_n_s32(mve::vaddq_n_s32(mve::vshlq_n_s32<17>(f), bias), limit);
    if (in_window == 0) return 0;
    const mve::int32x4_t a = mve::veorq_s32(f, MOTE_MVE_VSHRQ_N_S32(f, 31));
    const mve::int32x4_t b = mve::vaddq_n_s32(MOTE_MVE_VSHRQ_N_S32(a, 22), 3);
    const mve::int32x4_t t = mve::vandq_s32(mve::vaddq_s32(mve::vaddq_n_s32(f, 0x4000), b), mve::vdupq_n_s32(0x7fff));
    // t <= 2b: not 2b - t < 0 (both in [0, 2^15)).
    const mve::mve_pred16_t clear = mve::vcmpltq_n_s32(mve::vsubq_s32(mve::vaddq_s32(b, b), t), 0);
    return static_cast<mve::mve_pred16_t>(in_window & ~clear);
  }

  // floor((f + 2^14) / 2^15) + zero point, saturated.
  mve::int32x4_t rounded(mve::int32x4_t f) const {
    const mve::int32x4_t q = MOTE_MVE_VSHRQ_N_S32(mve::vaddq_n_s32(MOTE_MVE_VSHRQ_N_S32(f, 14), rounding), 1);
    return mve::vminq_s32(mve::vmaxq_s32(q, lo), hi);
  }

  // Lanes j < n with a near tie, from the values x (already read: in place safe).
  void redo(mve::float32x4_t x, mve::mve_pred16_t near, uint32_t n, int16_t* output) const {
    float lanes[4];
    mve::vstrwq_f32(lanes, x);
    for (uint32_t j = 0; j < n; ++j) {
      if (((near >> (4 * j)) & 1u) == 0) continue;
      output[j] = static_cast<int16_t>(
          dsp::ssat16(fpu::round_saturated(lanes[j] / reciprocal.divisor) + zero_point));
    }
  }
};

}  // namespace

void quantize_f32_s16__mve(const AffineQuantParams& params, uint32_t count, const float* input,
                           int16_t* output) {
  const fpu::Reciprocal reciprocal = fpu::prepare_reciprocal(params.scale);
  if (!reciprocal.usable) {
    quantize_f32_s16(params, count, input, output);
    return;
  }
  using Window = fpu::MultiplyWindow<16>;
  // The window test t < kLimit (unsigned) as a signed compare: both sides plus 2^31.
  const Step step = {reciprocal,
                     params.zero_point,
                     static_cast<int32_t>(Window::kBias + 0x80000000u),
                     static_cast<int32_t>(Window::kLimit - 0x80000000u),
                     2 * params.zero_point + 1,
                     mve::vdupq_n_s32(-32768),
                     mve::vdupq_n_s32(32767)};
  uint32_t i = 0;
  for (; i + 4 <= count; i += 4) {
    const mve::float32x4_t x = mve::vldrwq_f32(input + i);
    const mve::int32x4_t f = mve::vcvtq_s32_f32(mve::vmulq_n_f32(x, reciprocal.scaled));
    const mve::mve_pred16_t near = step.near_ties(f);
    mve::vstrhq_s32(output + i, step.rounded(f));
    if (near != 0) step.redo(x, near, 4, output + i);
  }
  if (i < count) {
    const mve::mve_pred16_t active = mve::vctp32q(count - i);
    const mve::float32x4_t x = mve::vldrwq_z_f32(input + i, active);
    const mve::int32x4_t f = mve::vcvtq_s32_f32(mve::vmulq_n_f32(x, reciprocal.scaled));
    const mve::mve_pred16_t near = static_cast<mve::mve_pred16_t>(step.near_ties(f) & active);
    mve::vstrhq_p_s32(output + i, step.rounded(f), active);
    if (near != 0) step.redo(x, near, count - i, output + i);
  }
}

Status quantize_f32_s16__mve_check(const OpContext& ctx) { return quantize_f32_s16_check(ctx); }

void quantize_f32_s16__mve_run(const OpContext& ctx) {
  quantize_f32_s16__mve(ctx.params<AffineQuantParams>(), element_count(ctx.input_desc(0)),
                        static_cast<const float*>(ctx.input_data(0)), static_cast<int16_t*>(ctx.output_data(0)));
}

const KernelEntry kQuantizeF32S16MveEntry = {quantize_f32_s16__mve_check, quantize_f32_s16__mve_run};

}  // namespace mote
