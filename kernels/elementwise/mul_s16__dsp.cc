// Armv7E-M / Armv8-M DSP int16 MUL (TFLite 16x8, zero points 0), any broadcast;
// bit-exact with mul_s16 (binary_quant::Mul, see elementwise.h) for every parameter
// mul_s16's check accepts.
//
// Two elements of each input per 32-bit load; the products p = a * b of both halves by
// SMULBB / SMULTT (SMULBB / SMULTB against a broadcast value). |p| <= 2^30. With
// multiplier m > 0 and shift = -r <= 0, d = QADD(p, p) (2p, saturated only for
// p = 2^30, i.e. a = b = -32768):
//   SaturatingRoundingDoublingHighMul(p, m) = floor((p * m + 2^30) / 2^31)
//                                           = SMMULR(d, m) = h    (d == 2p; never saturates)
//   RoundingDivideByPOT(h, r) = (h + 2^(r-1) - [h < 0]) >> r
//                             = (SMMLAR(d, m, 2^(r-1)) + (d >> 31)) >> r   (r > 0)
// since with m > 0, h < 0 implies p < 0, and p < 0 with h == 0 gives 0 either way;
// |h| < 2^30, so h + 2^(r-1) fits. Then SSAT #16 and, unless the range is all of int16,
// the clamp of both halves at once (SSUB16/SEL). The saturated d of a = b = -32768 can
// round h one lower (odd m): whether that changes the output is decided once per run by
// comparing with the reference at that input; when it does, or for m <= 0 or a left
// shift (shift > 0), every element takes the reference arithmetic.
#include "elementwise/binary_quant.h"
#include "elementwise/elementwise.h"
#include "elementwise/mul_s16_rows.h"
#include "isa/dsp.h"
#include "kernel_util.h"

namespace mote {

namespace {

struct MulConstants {
  QuantMulParams params;     // for the reference arithmetic
  int32_t multiplier, round, right;  // m, 2^(r-1) (0 for r == 0), r
  uint32_t act_min2, act_max2;       // the range in both halves
  int32_t act_min, act_max;
  int32_t mode;  // 0: reference arithmetic, 1: no rounding shift (r == 0), 2: r > 0
  bool full_range;
};

template <bool kRound>
inline int32_t requantize(int32_t multiplier, int32_t round, int32_t right, int32_t product) {
  const int32_t d = dsp::qadd(product, product);
  if (!kRound) return dsp::ssat16(dsp::smmulr(d, multiplier));
  return dsp::ssat16((dsp::smmlar(d, multiplier, round) + (d >> 31)) >> right);
}

template <bool kRound, bool kFullRange>
inline uint32_t finish_pair(const MulConstants& k, int32_t p_lo, int32_t p_hi) {
  const int32_t lo = requantize<kRound>(k.multiplier, k.round, k.right, p_lo);
  const int32_t hi = requantize<kRound>(k.multiplier, k.round, k.right, p_hi);
  uint32_t w = dsp::pack_lo_lo(static_cast<uint32_t>(lo), static_cast<uint32_t>(hi));
  if (!kFullRange) w = dsp::clamp_s16x2(w, k.act_min2, k.act_max2);
  return w;
}

template <bool kRound>
inline int16_t finish_one(const MulConstants& k, int32_t product) {
  return static_cast<int16_t>(
      clamp_i32(requantize<kRound>(k.multiplier, k.round, k.right, product), k.act_min, k.act_max));
}

// kScalar: b is one value, in both halves of wb.
template <bool kRound, bool kFullRange, bool kScalar>
void loop(const MulConstants& constants, const int16_t* a, const int16_t* b, uint32_t wb, int16_t* out,
          int32_t count) {
  const MulConstants k = constants;
  int32_t i = 0;
  for (; i + 2 <= count; i += 2) {
    const uint32_t wa = dsp::load_u32(a + i);
    if (!kScalar) wb = dsp::load_u32(b + i);
    const int32_t p_lo = dsp::smulbb(wa, wb);
    const int32_t p_hi = kScalar ? dsp::smultb(wa, wb) : dsp::smultt(wa, wb);
    dsp::store_u32(out + i, finish_pair<kRound, kFullRange>(k, p_lo, p_hi));
  }
  if (i < count) out[i] = finish_one<kRound>(k, a[i] * (kScalar ? dsp::lo16(wb) : b[i]));
}

template <bool kScalar>
void dispatch(const MulConstants& k, const int16_t* a, const int16_t* b, uint32_t wb, int16_t* out,
              int32_t count) {
  if (k.mode == 1) {
    if (k.full_range) {
      loop<false, true, kScalar>(k, a, b, wb, out, count);
    } else {
      loop<false, false, kScalar>(k, a, b, wb, out, count);
    }
  } else if (k.full_range) {
    loop<true, true, kScalar>(k, a, b, wb, out, count);
  } else {
    loop<true, false, kScalar>(k, a, b, wb, out, count);
  }
}

int16_t reference_one(const QuantMulParams& p, int32_t a, int32_t b) {
  return static_cast<int16_t>(binary_quant::Mul::apply(p, a, b));
}

struct Rows {
  using Constants = MulConstants;

  static MulConstants make(const QuantMulParams& p) {
    MulConstants k;
    k.params = p;
    k.multiplier = p.output_multiplier;
    k.right = p.output_shift < 0 ? -p.output_shift : 0;
    k.round = static_cast<int32_t>((uint32_t{1} << k.right) >> 1);
    k.act_min = p.act_min;
    k.act_max = p.act_max;
    k.act_min2 = dsp::pack16(p.act_min, p.act_min);
    k.act_max2 = dsp::pack16(p.act_max, p.act_max);
    k.full_range = p.act_min == -32768 && p.act_max == 32767;
    k.mode = 0;
    if (p.output_multiplier > 0 && p.output_shift <= 0) {
      const int32_t mode = k.right == 0 ? 1 : 2;
      const int32_t product = -32768 * -32768;
      const int32_t fast = mode == 1 ? requantize<false>(k.multiplier, k.round, k.right, product)
                                     : requantize<true>(k.multiplier, k.round, k.right, product);
      const int32_t exact = dsp::ssat16(multiply_by_quantized_multiplier(product, p.output_multiplier, p.output_shift));
      if (fast == exact) k.mode = mode;
    }
    return k;
  }

  static int16_t one(const MulConstants& k, int32_t a, int32_t b) {
    if (k.mode == 0) return reference_one(k.params, a, b);
    return k.mode == 1 ? finish_one<false>(k, a * b) : finish_one<true>(k, a * b);
  }

  static void pairs(const MulConstants& k, const int16_t* a, const int16_t* b, int16_t* out, int32_t n) {
    if (k.mode == 0) {
      for (int32_t i = 0; i < n; ++i) out[i] = reference_one(k.params, a[i], b[i]);
      return;
    }
    dispatch<false>(k, a, b, 0, out, n);
  }

  static void scalar(const MulConstants& k, const int16_t* a, int16_t s, int16_t* out, int32_t n) {
    if (k.mode == 0) {
      for (int32_t i = 0; i < n; ++i) out[i] = reference_one(k.params, a[i], s);
      return;
    }
    dispatch<true>(k, a, nullptr, dsp::pack16(s, s), out, n);
  }
};

}  // namespace

Status mul_s16__dsp_check(const OpContext& ctx) { return mul_s16_rows::check(ctx); }

void mul_s16__dsp_run(const OpContext& ctx) { mul_s16_rows::run<Rows>(ctx); }

const KernelEntry kMulS16DspEntry = {mul_s16__dsp_check, mul_s16__dsp_run};

}  // namespace mote
