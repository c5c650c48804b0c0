// ARMv6-M (Cortex-M0+) int16 MEAN over one strided run per output (mean_s16_runs.h: the
// mean over H, W of NHWC, or over the innermost axes); bit-exact with mean_s16
// (mean_integer.h) for every parameter its check accepts.
//
// Sums (wrapping int32, as the reference's) from word loads of two int16 (SXTH and ASRS
// split the halves) where the run is 4-aligned: spatial, two channels per word; contiguous,
// two elements per word. The reference requantizes each sum with a 64-bit product, a call
// to __aeabi_lmul on this core; here x = sum - input_zero_point * count is requantized by
// split_requant (quant/split_requant.h, 32-bit multiplies) where that is exact for every
// input (a positive multiplier, a right shift, |x| <= 2^30 and the rounding constant in
// bounds: decided once per run), then clamped to int16; otherwise by the reference's
// arithmetic.
#include "kernel_util.h"
#include "mean/mean.h"
#include "mean/mean_s16_runs.h"
#include "quant/split_requant.h"

namespace mote {

namespace {

struct Finish {
  mean_s16_runs::ReferenceFinish reference;
  SplitRequant split;
  bool fast;
};

Finish make_finish(const MeanS16Params& p, int32_t count) {
  Finish f;
  f.reference = mean_s16_runs::reference_finish(p, count);
  f.fast = mean_s16_runs::offset_sum_fits_30(p, count) &&
           make_split_requant(p.multiplier, p.shift, p.output_zero_point, &f.split);
  return f;
}

inline int16_t finish(const Finish& f, uint32_t sum) {
  if (!f.fast) return mean_s16_runs::finish(f.reference, sum);
  const int32_t x = wrapping_sub(static_cast<int32_t>(sum), f.reference.zero_point_sum);
  return static_cast<int16_t>(clamp_i32(split_requant(f.split, x), -32768, 32767));
}

inline uint32_t load_word(const int16_t* p) {
  uint32_t w;
  __builtin_memcpy(&w, p, sizeof(w));
  return w;
}
inline uint32_t lo_s(uint32_t w) { return static_cast<uint32_t>(static_cast<int32_t>(static_cast<int16_t>(w))); }
inline uint32_t hi_s(uint32_t w) { return static_cast<uint32_t>(static_cast<int32_t>(w) >> 16); }
inline bool aligned4(const void* p) { return reinterpret_cast<uintptr_t>(p) % 4 == 0; }

struct Loops {
  static void spatial(const MeanS16Params& p, const mean_s16_runs::Runs& r, const int16_t* in, int16_t* out) {
    const Finish f = make_finish(p, r.reduce_count);
    const int32_t n = r.reduce_count;
    const int32_t step = r.step;
    int32_t c = 0;
    // Word loads need every pixel's pair 4-aligned: the first one and an even step.
    if (aligned4(in) && step % 2 == 0) {
      for (; c + 2 <= r.out_count; c += 2) {
        uint32_t s0 = 0, s1 = 0;
        const int16_t* x = in + c;
        for (int32_t i = 0; i < n; ++i, x += step) {
          const uint32_t w = load_word(x);
          s0 += lo_s(w);
          s1 += hi_s(w);
        }
        out[c] = finish(f, s0);
        out[c + 1] = finish(f, s1);
      }
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
    const int16_t* row = in;
    for (int32_t o = 0; o < r.out_count; ++o, row += r.kept_step) {
      uint32_t s0 = 0, s1 = 0;
      const int16_t* x = row;
      int32_t i = 0;
      if (aligned4(x)) {
        for (; i + 2 <= n; i += 2, x += 2) {
          const uint32_t w = load_word(x);
          s0 += lo_s(w);
          s1 += hi_s(w);
        }
      }
      for (; i < n; ++i, ++x) s0 += static_cast<uint32_t>(static_cast<int32_t>(*x));
      out[o] = finish(f, s0 + s1);
    }
  }
};

}  // namespace

Status mean_s16__v6m_check(const OpContext& ctx) { return mean_s16_runs::check(ctx); }

void mean_s16__v6m_run(const OpContext& ctx) { mean_s16_runs::run<Loops>(ctx); }

const KernelEntry kMeanS16V6mEntry = {mean_s16__v6m_check, mean_s16__v6m_run};

}  // namespace mote
