// Helium (MVE) int16 MEAN over one strided run per output (mean_s16_runs.h: the mean
// over H, W of NHWC, or over the innermost axes); bit-exact with mean_s16
// (mean_integer.h) for every parameter its check accepts, with no fallback.
//
// Sums (wrapping int32, as the reference's): spatial, eight channels at a time in two
// int32x4 accumulators, each pixel's channels loaded widened (VLDRH.S32) and added, the
// last group tail-predicated; contiguous, eight elements per VADDVA.S16 (the tail loaded
// predicated, zeros elsewhere). Four sums at a time are then requantized in int32 lanes
// as the reference does (see add_quant_mve.h): x = sum - input_zero_point * count
// (wrapping), x << shift for shift > 0 (VSHL wraps like the reference's int32 multiply),
// VQRDMULH by the multiplier (SaturatingRoundingDoublingHighMul, the same saturating
// case), for shift < 0 VRSHL after -1 in negative lanes (ties away from zero), plus the
// output zero point (wrapping), clamped to int16 and stored narrowed.
#include "isa/mve.h"
#include "kernel_util.h"
#include "mean/mean.h"
#include "mean/mean_s16_runs.h"

namespace mote {

namespace {

using mve::int16x8_t;
using mve::int32x4_t;
using mve::mve_pred16_t;

struct Finish {
  int32_t zero_point_sum, multiplier, shift, output_zero_point;
  int32x4_t lo, hi;  // -32768, 32767
};

Finish make_finish(const MeanS16Params& p, int32_t count) {
  Finish f;
  f.zero_point_sum = truncate_to_i32(int64_t{p.input_zero_point} * count);
  f.multiplier = p.multiplier;
  f.shift = p.shift;
  f.output_zero_point = p.output_zero_point;
  f.lo = mve::vdupq_n_s32(-32768);
  f.hi = mve::vdupq_n_s32(32767);
  return f;
}

// The reference's outputs for four sums (the mode's sign of shift fixed per call).
inline int32x4_t finish4(const Finish& f, int32x4_t sum) {
  int32x4_t x = mve::vsubq_n_s32(sum, f.zero_point_sum);
  if (f.shift > 0) x = mve::vshlq_r_s32(x, f.shift);
  x = mve::vqrdmulhq_n_s32(x, f.multiplier);
  if (f.shift < 0) {
    const int32x4_t fixup = MOTE_MVE_VSHRQ_N_S32(x, 31);  // -1 in negative lanes
    x = mve::vrshlq_n_s32(mve::vqaddq_s32(x, fixup), f.shift);
  }
  x = mve::vaddq_n_s32(x, f.output_zero_point);
  return mve::vminq_s32(mve::vmaxq_s32(x, f.lo), f.hi);
}

struct Loops {
  static void spatial(const MeanS16Params& p, const mean_s16_runs::Runs& r, const int16_t* in, int16_t* out) {
    const Finish f = make_finish(p, r.reduce_count);
    const int32_t n = r.reduce_count;
    const int32_t step = r.step;
    const int32_t channels = r.out_count;
    int32_t c = 0;
    for (; c + 8 <= channels; c += 8) {
      int32x4_t s0 = mve::vdupq_n_s32(0);
      int32x4_t s1 = mve::vdupq_n_s32(0);
      const int16_t* x = in + c;
      for (int32_t i = 0; i < n; ++i, x += step) {
        s0 = mve::vaddq_s32(s0, mve::vldrhq_s32(x));
        s1 = mve::vaddq_s32(s1, mve::vldrhq_s32(x + 4));
      }
      mve::vstrhq_s32(out + c, finish4(f, s0));
      mve::vstrhq_s32(out + c + 4, finish4(f, s1));
    }
    for (; c < channels; c += 4) {
      const mve_pred16_t pred = mve::vctp32q(static_cast<uint32_t>(channels - c));
      int32x4_t s = mve::vdupq_n_s32(0);
      const int16_t* x = in + c;
      for (int32_t i = 0; i < n; ++i, x += step) s = mve::vaddq_s32(s, mve::vldrhq_z_s32(x, pred));
      mve::vstrhq_p_s32(out + c, finish4(f, s), pred);
    }
  }

  static int32_t sum_run(const int16_t* x, int32_t n) {
    int32_t s = 0;
    int32_t i = 0;
    for (; i + 8 <= n; i += 8) s = mve::vaddvaq_s16(s, mve::vldrhq_s16(x + i));
    if (i < n) s = mve::vaddvaq_s16(s, mve::vldrhq_z_s16(x + i, mve::vctp16q(static_cast<uint32_t>(n - i))));
    return s;
  }

  static void contiguous(const MeanS16Params& p, const mean_s16_runs::Runs& r, const int16_t* in, int16_t* out) {
    const Finish f = make_finish(p, r.reduce_count);
    const int32_t n = r.reduce_count;
    const int32_t kept_step = r.kept_step;
    const int16_t* row = in;
    for (int32_t o = 0; o < r.out_count; o += 4) {
      int32x4_t sums = mve::vdupq_n_s32(0);
      const int32_t group = r.out_count - o < 4 ? r.out_count - o : 4;
      for (int32_t j = 0; j < group; ++j, row += kept_step) {
        const int32_t s = sum_run(row, n);
        switch (j) {
          case 0: sums = mve::vsetq_lane_s32<0>(s, sums); break;
          case 1: sums = mve::vsetq_lane_s32<1>(s, sums); break;
          case 2: sums = mve::vsetq_lane_s32<2>(s, sums); break;
          default: sums = mve::vsetq_lane_s32<3>(s, sums); break;
        }
      }
      mve::vstrhq_p_s32(out + o, finish4(f, sums), mve::vctp32q(static_cast<uint32_t>(group)));
    }
  }
};

}  // namespace

Status mean_s16__mve_check(const OpContext& ctx) { return mean_s16_runs::check(ctx); }

void mean_s16__mve_run(const OpContext& ctx) { mean_s16_runs::run<Loops>(ctx); }

const KernelEntry kMeanS16MveEntry = {mean_s16__mve_check, mean_s16__mve_run};

}  // namespace mote
