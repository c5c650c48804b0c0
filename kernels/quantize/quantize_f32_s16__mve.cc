// quantize_f32_s16 on Helium with floating point (MVE-F): four quotients per step by the
// multiply form of isa/fpu_reciprocal.h lane by lane (VMUL by the scale's prepared
// reciprocal, the truncating VCVT, the same fixed near-tie window), rounded, offset by the
// zero point and saturated in the vector; a step with a lane in the window redoes its
// lanes with the scalar form (which divides there). Bit-exact with quantize_f32_s16.
// In place (output over the input): a step reads its four floats before it writes.
#include "isa/dsp.h"
#include "isa/fpu_reciprocal.h"
#include "isa/mve.h"
#include "isa/mve_f32.h"
#include "kernel_util.h"
#include "quantize/quantize.h"

namespace mote {

void quantize_f32_s16__mve(const AffineQuantParams& params, uint32_t count, const float* input,
                           int16_t* output) {
  const fpu::Reciprocal reciprocal = fpu::prepare_reciprocal(params.scale);
  if (!reciprocal.usable) {
    quantize_f32_s16(params, count, input, output);
    return;
  }
  using Window = fpu::MultiplyWindow<16>;
  const int32_t zero_point = params.zero_point;
  // The window test t < kLimit (unsigned) as a signed compare: both sides plus 2^31.
  const int32_t bias = static_cast<int32_t>(Window::kBias + 0x80000000u);
  const int32_t limit = static_cast<int32_t>(Window::kLimit - 0x80000000u);
  const int32_t rounding = 2 * zero_point + 1;
  const mve::int32x4_t lo = mve::vdupq_n_s32(-32768), hi = mve::vdupq_n_s32(32767);
  for (uint32_t i = 0; i < count; i += 4) {
    const mve::mve_pred16_t active = mve::vctp32q(count - i);
    const mve::float32x4_t x = mve::vldrwq_z_f32(input + i, active);
    const mve::int32x4_t f = mve::vcvtq_s32_f32(mve::vmulq_n_f32(x, reciprocal.scaled));
    const mve::int32x4_t t = mve::vaddq_n_s32(mve::vshlq_n_s32<17>(f), bias);
    if ((mve::vcmpltq_n_s32(t, limit) & active) != 0) {
      float lanes[4];
      mve::vstrwq_f32(lanes, x);
      const uint32_t n = count - i < 4 ? count - i : 4;
      for (uint32_t j = 0; j < n; ++j) {
        output[i + j] = static_cast<int16_t>(
            dsp::ssat16(fpu::divide_round_saturated_by_multiply<16>(reciprocal, lanes[j], zero_point)));
      }
      continue;
    }
    // floor((f + 2^14) / 2^15) + zero point, saturated.
    mve::int32x4_t q = MOTE_MVE_VSHRQ_N_S32(mve::vaddq_n_s32(MOTE_MVE_VSHRQ_N_S32(f, 14), rounding), 1);
    q = mve::vminq_s32(mve::vmaxq_s32(q, lo), hi);
    mve::vstrhq_p_s32(output + i, q, active);
  }
}

Status quantize_f32_s16__mve_check(const OpContext& ctx) { return quantize_f32_s16_check(ctx); }

void quantize_f32_s16__mve_run(const OpContext& ctx) {
  quantize_f32_s16__mve(ctx.params<AffineQuantParams>(), element_count(ctx.input_desc(0)),
                        static_cast<const float*>(ctx.input_data(0)), static_cast<int16_t*>(ctx.output_data(0)));
}

const KernelEntry kQuantizeF32S16MveEntry = {quantize_f32_s16__mve_check, quantize_f32_s16__mve_run};

}  // namespace mote
