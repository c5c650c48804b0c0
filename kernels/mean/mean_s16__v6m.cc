// ARMv6-M (Cortex-M0+) int16 MEAN over one strided run per output (mean_s16_runs.h: the
// mean over H, W of NHWC, or over the innermost axes); bit-exact with mean_s16
// (mean_integer.h) for every parameter its check accepts.
//
// Sums (wrapping int32, as the reference's): spatial, four channels from two word loads
// per pixel where the channels are 4-aligned (SXTH and ASRS split the halves);
// contiguous, four LDRSH per step (sum_run). The reference requantizes each sum with a
// 64-bit product, a call to __aeabi_lmul on this core; here x = sum - input_zero_point *
// count is requantized by split_requant (quant/split_requant.h, 32-bit multiplies) where
// that is exact for every input (a positive multiplier, a right shift, |x| <= 2^30 and
// the rounding constant in bounds: decided once per run), then clamped to int16;
// otherwise by the reference's arithmetic.
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

// The word at p, 4-aligned (one LDR; an unaligned memcpy would be byte loads here).
inline uint32_t load_word(const int16_t* p) {
  uint32_t w;
  __builtin_memcpy(&w, __builtin_assume_aligned(p, 4), sizeof(w));
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
    // Word loads need every pixel's channels 4-aligned: the first one and an even step.
    if (aligned4(in) && step % 2 == 0) {
      for (; c + 4 <= r.out_count; c += 4) {
        uint32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        const int16_t* x = in + c;
        const int16_t* end = x + n * step;
        do {
          const uint32_t w0 = load_word(x);
          const uint32_t w1 = load_word(x + 2);
          x += step;
          s0 += lo_s(w0);
          s1 += hi_s(w0);
          s2 += lo_s(w1);
          s3 += hi_s(w1);
        } while (x != end);
        out[c] = finish(f, s0);
        out[c + 1] = finish(f, s1);
        out[c + 2] = finish(f, s2);
        out[c + 3] = finish(f, s3);
      }
    }
    for (; c < r.out_count; ++c) {
      uint32_t s = 0;
      const int16_t* x = in + c;
      for (int32_t i = 0; i < n; ++i, x += step) s += static_cast<uint32_t>(static_cast<int32_t>(*x));
      out[c] = finish(f, s);
    }
  }

  // Four elements per step at a negative byte offset counting up to 0 from four end
  // pointers (LDRSH takes only a register offset here): 4 LDRSH, 4 ADDs and ADDS / BNE.
  static uint32_t sum_run(const int16_t* x, int32_t n) {
    uint32_t s = 0;
    const int32_t n4 = n & ~3;
    if (n4 != 0) {
      const char* e0 = reinterpret_cast<const char*>(x + n4);
      const char* e1 = e0 + 2;
      const char* e2 = e0 + 4;
      const char* e3 = e0 + 6;
      int32_t i = -2 * n4;
      do {
        s += static_cast<uint32_t>(static_cast<int32_t>(*reinterpret_cast<const int16_t*>(e0 + i)));
        s += static_cast<uint32_t>(static_cast<int32_t>(*reinterpret_cast<const int16_t*>(e1 + i)));
        s += static_cast<uint32_t>(static_cast<int32_t>(*reinterpret_cast<const int16_t*>(e2 + i)));
        s += static_cast<uint32_t>(static_cast<int32_t>(*reinterpret_cast<const int16_t*>(e3 + i)));
        i += 8;
      } while (i != 0);
    }
    for (int32_t j = n4; j < n; ++j) s += static_cast<uint32_t>(static_cast<int32_t>(x[j]));
    return s;
  }

  static void contiguous(const MeanS16Params& p, const mean_s16_runs::Runs& r, const int16_t* in, int16_t* out) {
    const Finish f = make_finish(p, r.reduce_count);
    const int16_t* row = in;
    for (int32_t o = 0; o < r.out_count; ++o, row += r.kept_step) out[o] = finish(f, sum_run(row, r.reduce_count));
  }
};

}  // namespace

Status mean_s16__v6m_check(const OpContext& ctx) { return mean_s16_runs::check(ctx); }

void mean_s16__v6m_run(const OpContext& ctx) { mean_s16_runs::run<Loops>(ctx); }

const KernelEntry kMeanS16V6mEntry = {mean_s16__v6m_check, mean_s16__v6m_run};

}  // namespace mote
