// Armv7E-M / Armv8-M DSP int16 MEAN over one strided run per output (mean_s16_runs.h:
// the mean over H, W of NHWC, or over the innermost axes); bit-exact with mean_s16
// (mean_integer.h) for every parameter its check accepts.
//
// Sums (wrapping int32, as the reference's): spatial, four channels at a time from two
// words per pixel, each half added with SXTAH / ADD ..., ASR #16; contiguous, two elements
// per word with SMLAD against 0x00010001 (lo + hi), four words per step.
// Requantization of x = sum - input_zero_point * count with multiplier m > 0, shift
// -r <= 0 and |x| < 2^30 for every input (decided once per run, offset_sum_fits_30):
//   SaturatingRoundingDoublingHighMul(x, m) = SMMULR(2x, m) = h (2x fits int32)
//   RoundingDivideByPOT(h, r) = (SMMLAR(2x, m, 2^(r-1)) + (x >> 31)) >> r   (r > 0)
// (with m > 0, h < 0 implies x < 0, and x < 0 with h == 0 gives 0 either way: the
// rounding of the int16 ADD's DSP variant), then + output_zero_point and SSAT #16.
// Other parameters take the reference's requantization (mean_s16_runs::finish).
#include "isa/dsp.h"
#include "kernel_util.h"
#include "mean/mean.h"
#include "mean/mean_s16_runs.h"

namespace mote {

namespace {

struct Finish {
  mean_s16_runs::ReferenceFinish reference;
  int32_t multiplier, round, right, output_zero_point;
  int32_t mode;  // 0: reference, 1: r == 0, 2: r > 0
};

Finish make_finish(const MeanS16Params& p, int32_t count) {
  Finish f;
  f.reference = mean_s16_runs::reference_finish(p, count);
  f.multiplier = p.multiplier;
  f.right = p.shift < 0 ? -p.shift : 0;
  f.round = static_cast<int32_t>((uint32_t{1} << f.right) >> 1);
  f.output_zero_point = p.output_zero_point;
  f.mode = 0;
  if (p.multiplier > 0 && p.shift <= 0 && mean_s16_runs::offset_sum_fits_30(p, count)) {
    f.mode = f.right == 0 ? 1 : 2;
  }
  return f;
}

inline int16_t finish(const Finish& f, uint32_t sum) {
  if (f.mode == 0) return mean_s16_runs::finish(f.reference, sum);
  const int32_t x = wrapping_sub(static_cast<int32_t>(sum), f.reference.zero_point_sum);
  const int32_t d = x * 2;
  const int32_t v = f.mode == 1 ? dsp::smmulr(d, f.multiplier)
                                : (dsp::smmlar(d, f.multiplier, f.round) + (x >> 31)) >> f.right;
  return static_cast<int16_t>(dsp::ssat16(v + f.output_zero_point));
}

inline uint32_t lo_s(uint32_t w) { return static_cast<uint32_t>(static_cast<int32_t>(static_cast<int16_t>(w))); }
inline uint32_t hi_s(uint32_t w) { return static_cast<uint32_t>(static_cast<int32_t>(w) >> 16); }

struct Loops {
  static void spatial(const MeanS16Params& p, const mean_s16_runs::Runs& r, const int16_t* in, int16_t* out) {
    const Finish f = make_finish(p, r.reduce_count);
    const int32_t n = r.reduce_count;
    const int32_t step = r.step;
    int32_t c = 0;
    for (; c + 4 <= r.out_count; c += 4) {
      uint32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
      const int16_t* x = in + c;
      for (int32_t i = 0; i < n; ++i, x += step) {
        const uint32_t w0 = dsp::load_u32(x);
        const uint32_t w1 = dsp::load_u32(x + 2);
        s0 += lo_s(w0);
        s1 += hi_s(w0);
        s2 += lo_s(w1);
        s3 += hi_s(w1);
      }
      out[c] = finish(f, s0);
      out[c + 1] = finish(f, s1);
      out[c + 2] = finish(f, s2);
      out[c + 3] = finish(f, s3);
    }
    for (; c < r.out_count; ++c) {
      uint32_t s = 0;
      const int16_t* x = in + c;
      for (int32_t i = 0; i < n; ++i, x += step) s += static_cast<uint32_t>(static_cast<int32_t>(*x));
      out[c] = finish(f, s);
    }
  }

  static void contiguous(const MeanS16Params& p, const mean_s16_runs::Runs& r, const int16_t* in, int16_t* out) {
    const Finish f = make_finish(p, r.reduce_count);
    const int32_t n = r.reduce_count;
    const uint32_t ones = 0x00010001u;
    const int16_t* row = in;
    for (int32_t o = 0; o < r.out_count; ++o, row += r.kept_step) {
      int32_t s = 0;
      const int16_t* x = row;
      int32_t i = 0;
      for (; i + 8 <= n; i += 8, x += 8) {
        s = dsp::smlad(dsp::load_u32(x), ones, s);
        s = dsp::smlad(dsp::load_u32(x + 2), ones, s);
        s = dsp::smlad(dsp::load_u32(x + 4), ones, s);
        s = dsp::smlad(dsp::load_u32(x + 6), ones, s);
      }
      for (; i + 2 <= n; i += 2, x += 2) s = dsp::smlad(dsp::load_u32(x), ones, s);
      if (i < n) s = wrapping_add(s, *x);
      out[o] = finish(f, static_cast<uint32_t>(s));
    }
  }
};

}  // namespace

Status mean_s16__dsp_check(const OpContext& ctx) { return mean_s16_runs::check(ctx); }

void mean_s16__dsp_run(const OpContext& ctx) { mean_s16_runs::run<Loops>(ctx); }

const KernelEntry kMeanS16DspEntry = {mean_s16__dsp_check, mean_s16__dsp_run};

}  // namespace mote
