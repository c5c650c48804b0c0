// The shared core of the int8 conv2d DSP variants (conv2d_s8__dsp, conv2d_s8_1x1__dsp),
// internal to kernels/conv2d/.
//
// Algorithm. Output pixels are processed in blocks of kBlockPixels (4), taken in output
// order (batch, row, column). When the pixel count is not a multiple of 4, a last single
// pixel runs on its own (run_single); a last 2 or 3 move the block back to end at the
// last pixel: it recomputes (and rewrites with the same values) up to 3 pixels of the
// block before. Ops with fewer than 4 output pixels run the reference kernel. Each
// pixel's receptive field (K = KH * KW * C values, in filter order) is copied into an
// int16 "column" in scratch with the input offset already added, so a padding tap is 0.
// The four columns are interleaved in groups of four K values:
//   word 8g + 2p     = (x[4g] , x[4g+2]) of pixel p  (lo, hi halves)
//   word 8g + 2p + 1 = (x[4g+1], x[4g+3]) of pixel p
// which is the order SXTB16 / SXTB16 ROR #8 split a weight word (four int8 taps) into,
// so the filter is read as it is stored: for every output channel one weight word is
// expanded once and feeds 8 SMLADs (4 pixels x 2 halves), 16 MACs. The last group is
// zero-padded (K rounded up to a multiple of 4).
//
// Paths (run_block), chosen once per run from the quantization (output_quant):
// - block_matmul_common (DSP cores; asm): every multiplier >= 0, every shift <= -2 (or
//   multiplier 0), clamp [-128, 127], bias present. One asm loop over the channels:
//   64 MACs in 54 instructions (K % 16 == 0, filter aligned), 32 in 28 (K % 8 == 0, or
//   unaligned weight rows plus a last odd group; column words by LDM, 4 per
//   instruction); then 7 instructions per output (one SMLAL requantization, SSAT, STRB)
//   and about 25 per channel.
//   block_matmul_wide, the same loop over weights the variant widened once per run into
//   scratch (int16 pairs, 8 bytes per group; the first channels, as many as the
//   compiler gave scratch for, when the groups are a multiple of 4): 64 MACs in 46
//   instructions; 6 per output when every widened channel's |acc| < 2^30 (the doubled
//   requantization, acc_fits_doubled, checked once per run); the other channels then
//   take the loop above.
// - block_matmul_fast (C++): every multiplier >= 0, any shift or clamp.
// - block_matmul: anything else (negative or INT32_MIN multipliers, odd zero points).
// With unaligned rows (K % 4 != 0) the last partial group of a row is read as a whole
// word running into the next row, whose extra bytes meet the zero padding of the
// columns; only a group within 4 bytes of the filter's end is assembled from its bytes,
// so nothing past the filter is read.
//
// Accumulation wraps in 32 bits like the reference (SMLAD wraps; the bias is added first,
// which changes nothing modulo 2^32). Requantization is bit-identical to
// multiply_by_quantized_multiplier (double rounding) but folds both roundings (and, on
// the fast paths, the output zero point) into one 64-bit multiply-accumulate (see
// requantize_right and requantize_fast below).
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "conv2d/conv2d.h"
#include "isa/dsp.h"
#include "quant/quant_math.h"

namespace mote {
namespace conv2d_dsp {

inline constexpr int32_t kBlockPixels = 4;

// Groups of four K values (K rounded up to a multiple of 4).
inline int32_t k_groups(int32_t k) { return (k + 3) / 4; }
// Bytes of one block of interleaved int16 columns.
inline uint32_t columns_bytes(int32_t k) {
  return static_cast<uint32_t>(k_groups(k)) * kBlockPixels * 8u;
}

// (offset, offset) in the two halves of a word.
inline uint32_t offset_pair(int32_t input_offset) { return dsp::pack16(input_offset, input_offset); }

// Writes n input values src[0..n) plus the offset into column `pixel` of the block (16
// values per iteration), starting at group `group` (which must start a group: the values
// before it fill whole groups). A partial last group is zero-filled. Returns the next
// group.
inline int32_t expand_into_column(const int8_t* src, int32_t n, uint32_t offsets,
                                  uint32_t* columns, int32_t pixel, int32_t group) {
  uint32_t* dst = columns + group * 8 + pixel * 2;
  const int8_t* const end16 = src + (n & ~15);
  const int8_t* const end = src + n;
  while (src != end16) {  // four groups per iteration
    const uint32_t x0 = dsp::load_u32(src);
    const uint32_t x1 = dsp::load_u32(src + 4);
    const uint32_t x2 = dsp::load_u32(src + 8);
    const uint32_t x3 = dsp::load_u32(src + 12);
    src += 16;
    dsp::store2_u32_advance<32>(dst, dsp::sxtab16(offsets, x0), dsp::sxtab16_ror8(offsets, x0));
    dsp::store2_u32_advance<32>(dst, dsp::sxtab16(offsets, x1), dsp::sxtab16_ror8(offsets, x1));
    dsp::store2_u32_advance<32>(dst, dsp::sxtab16(offsets, x2), dsp::sxtab16_ror8(offsets, x2));
    dsp::store2_u32_advance<32>(dst, dsp::sxtab16(offsets, x3), dsp::sxtab16_ror8(offsets, x3));
  }
  if (end - src >= 8) {
    const uint32_t x0 = dsp::load_u32(src);
    const uint32_t x1 = dsp::load_u32(src + 4);
    src += 8;
    dsp::store2_u32_advance<32>(dst, dsp::sxtab16(offsets, x0), dsp::sxtab16_ror8(offsets, x0));
    dsp::store2_u32_advance<32>(dst, dsp::sxtab16(offsets, x1), dsp::sxtab16_ror8(offsets, x1));
  }
  if (end - src >= 4) {
    const uint32_t x = dsp::load_u32(src);
    src += 4;
    dsp::store2_u32_advance<32>(dst, dsp::sxtab16(offsets, x), dsp::sxtab16_ror8(offsets, x));
  }
  if (src != end) {
    const int32_t offset = dsp::lo16(offsets);
    int32_t v[4] = {0, 0, 0, 0};
    for (int32_t j = 0; src + j != end; ++j) v[j] = src[j] + offset;
    dst[0] = dsp::pack16(v[0], v[2]);
    dst[1] = dsp::pack16(v[1], v[3]);
  }
  return group + (n + 3) / 4;
}

// Column `pixel` of the block from `groups` whole words of int8 values, plus the
// offset: for rows whose last partial word is padded with the input zero point, which
// becomes 0.
inline void expand_words(const int8_t* src, int32_t groups, uint32_t offsets,
                         uint32_t* columns, int32_t pixel) {
  uint32_t* dst = columns + pixel * 2;
  const int8_t* const end = src + groups * 4;
  do {
    const uint32_t x = dsp::load_u32(src);
    src += 4;
    dsp::store2_u32_advance<32>(dst, dsp::sxtab16(offsets, x), dsp::sxtab16_ror8(offsets, x));
  } while (src != end);
}

// Writes `groups` zero groups (taps in the padding) into column `pixel`.
inline void zero_column_groups(uint32_t* columns, int32_t pixel, int32_t group, int32_t groups) {
  uint32_t* dst = columns + group * 8 + pixel * 2;
  for (int32_t g = 0; g < groups; ++g) {
    dst[0] = 0;
    dst[1] = 0;
    dst += 8;
  }
}

// multiply_by_quantized_multiplier(acc, multiplier, shift) for shift >= 0 and
// multiplier != INT32_MIN: SaturatingRoundingDoublingHighMul is floor((a * m + 2^30) /
// 2^31) for every product but INT32_MIN * INT32_MIN (ties toward +infinity, both signs),
// and there is no right shift.
inline int32_t requantize_left(int32_t acc, int32_t multiplier, int32_t shift) {
  const int32_t shifted = static_cast<int32_t>(static_cast<uint32_t>(acc) << shift);
  const int64_t p = static_cast<int64_t>(shifted) * multiplier + (int64_t{1} << 30);
  return static_cast<int32_t>(p >> 31);
}

// The same for shift = -right < 0 (multiplier != INT32_MIN). With x the high-mul result
// floor(P / 2^31), P = a * m + 2^30, RoundingDivideByPOT(x, right) is
// floor((x + 2^(right-1) - [x < 0]) / 2^right) and, floors nesting, that is
//   floor((P + (2^(right-1) - [x < 0]) * 2^31) / 2^(31 + right))
// = high word of (a * m + base - [a * m < 0] * 2^31) >> (right - 1),
//   base = 2^30 + 2^(30 + right).
// x < 0 iff P < 0; a * m in [-2^30, 0) has x == 0 and gives 0 either way, so the sign of
// a * m (that of a ^ m, zero products also giving 0 either way) decides. One SMLAL.
struct RightBase {
  uint32_t lo, hi;
};
// base for right = right_minus_1 + 1 in [1, 31]: with pot = 2^(right - 1), the high word
// is pot / 2 and the low word 2^30, plus 2^31 when right == 1 (pot odd).
inline RightBase right_base(int32_t right_minus_1) {
  const uint32_t pot = uint32_t{1} << right_minus_1;
  return RightBase{(uint32_t{1} << 30) + (pot << 31), pot >> 1};
}
inline int32_t requantize_right(int32_t acc, int32_t multiplier, RightBase base,
                                int32_t right_minus_1) {
  const uint64_t negative = static_cast<uint64_t>(static_cast<uint32_t>(acc ^ multiplier) >> 31);
  const uint64_t base64 = (static_cast<uint64_t>(base.hi) << 32) | base.lo;
  const int64_t k = static_cast<int64_t>(base64 - (negative << 31));
  const int64_t p = static_cast<int64_t>(acc) * multiplier + k;
  return static_cast<int32_t>(p >> 32) >> right_minus_1;
}

// The usual case, multiplier >= 0 and shift = -right with right in [2, kMaxFastRight]:
// requantize_right plus the output zero point in one SMLAL and one shift. With
// multiplier >= 0 the sign of a * m is that of a (zero products give 0 either way), and
// for right >= 2 the low word of base is 2^30, so base - [a < 0] * 2^31 has low word
// 2^30 | (a & 2^31) and high word base.hi - [a < 0] (the borrow). The zero point enters
// the high word as zp * 2^(right - 1), which the final shift turns into + zp exactly;
// |high word| <= 2^30 + 2^21 + 2^29 < 2^31 for right <= 23 and |zp| <= 128, so nothing
// wraps (nor does the reference's wrapping_add of a value this small).
inline constexpr int32_t kMaxFastRight = 23;

inline bool fast_right_applies(int32_t multiplier, int32_t shift, int32_t zero_point) {
  return multiplier >= 0 && shift <= -2 && shift >= -kMaxFastRight && zero_point >= -128 &&
         zero_point <= 128;
}
// High word of base for right = right_minus_1 + 1, plus zp * 2^(right - 1).
inline int32_t fast_right_high(int32_t right_minus_1, int32_t zero_point) {
  return static_cast<int32_t>((uint32_t{1} << (right_minus_1 - 1)) +
                              (static_cast<uint32_t>(zero_point) << right_minus_1));
}
inline int32_t requantize_fast(int32_t acc, int32_t multiplier, int32_t high,
                               int32_t right_minus_1) {
  const uint32_t lo = (static_cast<uint32_t>(acc) & 0x80000000u) | 0x40000000u;
  const uint32_t hi = static_cast<uint32_t>(high + (acc >> 31));
  const int64_t k = static_cast<int64_t>((static_cast<uint64_t>(hi) << 32) | lo);
  const int64_t p = static_cast<int64_t>(acc) * multiplier + k;
  return static_cast<int32_t>(p >> 32) >> right_minus_1;
}

// What block_matmul_fast handles per channel: multiplier >= 0, |zp| <= 128 (any valid
// shift). right in [2, kMaxFastRight] is requantize_fast; larger right (tiny scales of
// dead channels) is requantize_fast without the zero point, which is added after the
// shift; right == 1 and shift >= 0 have their own one-SMLAL forms below.
inline bool fast_applies(int32_t multiplier, int32_t zero_point) {
  return multiplier >= 0 && zero_point >= -128 && zero_point <= 128;
}
// shift == -1: base is 2^30 + 2^31 (high word 0), minus [a < 0] * 2^31 without borrow:
// low word 0xC0000000 ^ (a & 2^31); the zero point is the high word, no final shift.
inline int32_t requantize_right1(int32_t acc, int32_t multiplier, int32_t zero_point) {
  const uint32_t lo = (static_cast<uint32_t>(acc) & 0x80000000u) ^ 0xC0000000u;
  const int64_t k =
      static_cast<int64_t>((static_cast<uint64_t>(static_cast<uint32_t>(zero_point)) << 32) | lo);
  const int64_t p = static_cast<int64_t>(acc) * multiplier + k;
  return static_cast<int32_t>(p >> 32);
}
// shift >= 0: requantize_left + zp = bits 62..31 of (acc << shift) * m + 2^30 + zp * 2^31,
// which is wrapping_add(requantize_left(...), zp) exactly (the 64-bit sum does not wrap).
inline int32_t requantize_left_zp(int32_t acc, int32_t multiplier, int32_t shift,
                                  int32_t zero_point) {
  const int32_t shifted = static_cast<int32_t>(static_cast<uint32_t>(acc) << shift);
  const int64_t k = static_cast<int64_t>(
      (static_cast<uint64_t>(static_cast<uint32_t>(zero_point >> 1)) << 32) |
      ((static_cast<uint32_t>(zero_point) << 31) | 0x40000000u));
  const int64_t p = static_cast<int64_t>(shifted) * multiplier + k;
  return static_cast<int32_t>(static_cast<uint64_t>(p) >> 31);
}

// Requantization of one channel: requantize_fast when it applies, else the reference.
struct ChannelQuant {
  int32_t multiplier, shift, high, right_minus_1;
  bool fast;
};
inline ChannelQuant channel_quant(int32_t multiplier, int32_t shift, int32_t zero_point) {
  ChannelQuant c{multiplier, shift, 0, 0, false};
  if (fast_right_applies(multiplier, shift, zero_point)) {
    c.fast = true;
    c.right_minus_1 = ~shift;
    c.high = fast_right_high(c.right_minus_1, zero_point);
  }
  return c;
}
inline int8_t requantize_one(int32_t acc, const ChannelQuant& c, int32_t zero_point,
                             int32_t act_min, int32_t act_max) {
  const int32_t v =
      c.fast ? requantize_fast(acc, c.multiplier, c.high, c.right_minus_1)
             : wrapping_add(multiply_by_quantized_multiplier(acc, c.multiplier, c.shift),
                            zero_point);
  return static_cast<int8_t>(clamp_i32(v, act_min, act_max));
}

struct OutputQuant {
  const int32_t* multipliers;
  const int32_t* shifts;
  int32_t zero_point, act_min, act_max;
  bool all_fast;    // every channel fast_applies
  bool all_common;  // and every shift <= -2 (or multiplier 0), clamp [-128, 127]
  bool all_normal;  // every shift in [-kMaxFastRight, -2]

  // The quantization of channels [first, ...): the same flags (they hold for a subset).
  OutputQuant from(int32_t first) const {
    return OutputQuant{multipliers + first, shifts + first, zero_point, act_min, act_max, all_fast, all_common,
                       all_normal};
  }
};

// out_c channels; checks once per run whether every channel takes requantize_fast.
inline OutputQuant output_quant(const Conv2dS8Params& params, const int32_t* multipliers,
                                const int32_t* shifts, int32_t out_c) {
  bool all_fast = true;
  bool all_common = params.act_min == -128 && params.act_max == 127;
  bool all_normal = true;
  for (int32_t o = 0; o < out_c; ++o) {
    if (!fast_applies(multipliers[o], params.output_zero_point)) {
      all_fast = false;
      all_common = false;
      break;
    }
    if (shifts[o] > -2 && multipliers[o] != 0) all_common = false;
    if (shifts[o] > -2 || shifts[o] < -kMaxFastRight) all_normal = false;
  }
  return OutputQuant{multipliers, shifts, params.output_zero_point, params.act_min,
                     params.act_max, all_fast, all_common, all_normal};
}

// + output zero point (wrapping), clamped; kFullRange: [act_min, act_max] is
// [-128, 127], one SSAT.
template <bool kFullRange>
inline int8_t to_output(int32_t scaled, int32_t zero_point, int32_t act_min, int32_t act_max) {
  const int32_t v = wrapping_add(scaled, zero_point);
  return static_cast<int8_t>(kFullRange ? dsp::ssat8(v) : clamp_i32(v, act_min, act_max));
}

// A value with the zero point already added, clamped.
template <bool kFullRange>
inline int8_t to_output_clamped(int32_t v, int32_t act_min, int32_t act_max) {
  return static_cast<int8_t>(kFullRange ? dsp::ssat8(v) : clamp_i32(v, act_min, act_max));
}

// 16 MACs: one weight word (4 taps of one channel) against the group of the 4 columns
// at word offset kGroup * 8 from a.
template <int kGroup>
inline void accumulate_group(uint32_t weights, const uint32_t* a, int32_t& acc0, int32_t& acc1,
                             int32_t& acc2, int32_t& acc3) {
  constexpr int kBase = kGroup * 32;  // bytes
  const uint32_t we = dsp::sxtb16(weights);
  const uint32_t wo = dsp::sxtb16_ror8(weights);
  uint32_t x_even, x_odd;
  dsp::load2_u32_at<kBase>(a, x_even, x_odd);
  acc0 = dsp::smlad(x_even, we, acc0);
  acc0 = dsp::smlad(x_odd, wo, acc0);
  dsp::load2_u32_at<kBase + 8>(a, x_even, x_odd);
  acc1 = dsp::smlad(x_even, we, acc1);
  acc1 = dsp::smlad(x_odd, wo, acc1);
  dsp::load2_u32_at<kBase + 16>(a, x_even, x_odd);
  acc2 = dsp::smlad(x_even, we, acc2);
  acc2 = dsp::smlad(x_odd, wo, acc2);
  dsp::load2_u32_at<kBase + 24>(a, x_even, x_odd);
  acc3 = dsp::smlad(x_even, we, acc3);
  acc3 = dsp::smlad(x_odd, wo, acc3);
}

// Every output channel of one block of 4 pixels: out[p * out_c + o].
// filter is [out_c][k] int8; bias may be null.
template <bool kFullRange>
void block_matmul(const uint32_t* columns, int32_t k, const int8_t* filter,
                  const int32_t* bias, int32_t out_c, const OutputQuant& q, int8_t* out) {
  const int32_t full_groups = k / 4;
  const int32_t tail = k - full_groups * 4;
  const int32_t zero_point = q.zero_point;
  const int32_t act_min = q.act_min;
  const int32_t act_max = q.act_max;
  const int8_t* w = filter;
  const uint32_t* const a_end = columns + full_groups * 8;
  const bool rows_aligned = tail == 0 && (reinterpret_cast<uintptr_t>(filter) & 3u) == 0;
  const uint32_t* const a_pairs_end = columns + (rows_aligned ? (full_groups & ~1) * 8 : 0);
  for (int32_t o = 0; o < out_c; ++o) {
    const int32_t b = bias != nullptr ? bias[o] : 0;
    int32_t acc0 = b, acc1 = b, acc2 = b, acc3 = b;
    const uint32_t* a = columns;
    if (a != a_pairs_end) {
      // Two groups per iteration, both weight words in one LDRD: 33 instructions for 32
      // MACs. Only when every filter row is 4-aligned (see a_pairs_end).
      const uint32_t* w_words = reinterpret_cast<const uint32_t*>(w);
      do {
        uint32_t w0, w1;
        dsp::load2_u32_at<0>(w_words, w0, w1);
        w_words += 2;
        accumulate_group<0>(w0, a, acc0, acc1, acc2, acc3);
        accumulate_group<1>(w1, a, acc0, acc1, acc2, acc3);
        a += 16;
      } while (a != a_pairs_end);
      w = reinterpret_cast<const int8_t*>(w_words);
    }
    while (a != a_end) {  // one group per iteration: 18 instructions for 16 MACs
      accumulate_group<0>(dsp::load_u32(w), a, acc0, acc1, acc2, acc3);
      w += 4;
      a += 8;
    }
    if (tail != 0) {
      // tail is 1, 2 or 3 bytes; the missing taps are 0.
      uint32_t wv = static_cast<uint8_t>(w[0]);
      if (tail > 1) wv |= static_cast<uint32_t>(static_cast<uint8_t>(w[1])) << 8;
      if (tail > 2) wv |= static_cast<uint32_t>(static_cast<uint8_t>(w[2])) << 16;
      w += tail;
      accumulate_group<0>(wv, a, acc0, acc1, acc2, acc3);
    }

    const int32_t multiplier = q.multipliers[o];
    const int32_t shift = q.shifts[o];
    int8_t* dst = out + o;
    if (fast_right_applies(multiplier, shift, zero_point)) {
      const int32_t right_minus_1 = ~shift;
      const int32_t high = fast_right_high(right_minus_1, zero_point);
      acc0 = requantize_fast(acc0, multiplier, high, right_minus_1);
      acc1 = requantize_fast(acc1, multiplier, high, right_minus_1);
      acc2 = requantize_fast(acc2, multiplier, high, right_minus_1);
      acc3 = requantize_fast(acc3, multiplier, high, right_minus_1);
      dst[0] = to_output_clamped<kFullRange>(acc0, act_min, act_max);
      dst[out_c] = to_output_clamped<kFullRange>(acc1, act_min, act_max);
      dst += 2 * out_c;
      dst[0] = to_output_clamped<kFullRange>(acc2, act_min, act_max);
      dst[out_c] = to_output_clamped<kFullRange>(acc3, act_min, act_max);
      continue;
    }
    if (shift < 0 && multiplier != INT32_MIN) {
      const int32_t right_minus_1 = ~shift;  // -shift - 1
      const RightBase base = right_base(right_minus_1);
      acc0 = requantize_right(acc0, multiplier, base, right_minus_1);
      acc1 = requantize_right(acc1, multiplier, base, right_minus_1);
      acc2 = requantize_right(acc2, multiplier, base, right_minus_1);
      acc3 = requantize_right(acc3, multiplier, base, right_minus_1);
    } else if (multiplier != INT32_MIN) {
      acc0 = requantize_left(acc0, multiplier, shift);
      acc1 = requantize_left(acc1, multiplier, shift);
      acc2 = requantize_left(acc2, multiplier, shift);
      acc3 = requantize_left(acc3, multiplier, shift);
    } else {
      acc0 = multiply_by_quantized_multiplier(acc0, multiplier, shift);
      acc1 = multiply_by_quantized_multiplier(acc1, multiplier, shift);
      acc2 = multiply_by_quantized_multiplier(acc2, multiplier, shift);
      acc3 = multiply_by_quantized_multiplier(acc3, multiplier, shift);
    }
    dst[0] = to_output<kFullRange>(acc0, zero_point, act_min, act_max);
    dst[out_c] = to_output<kFullRange>(acc1, zero_point, act_min, act_max);
    dst += 2 * out_c;
    dst[0] = to_output<kFullRange>(acc2, zero_point, act_min, act_max);
    dst[out_c] = to_output<kFullRange>(acc3, zero_point, act_min, act_max);
  }
}

// Pairs of groups from a to a_end (a != a_end) against consecutive weight words from w
// (4-aligned), 32 MACs per iteration; a and w end past the last pair. On a DSP core one
// iteration is 31 instructions: LDRD of both weight words, 4 SXTB16, 8 LDRD of the
// columns (the first one post-incrementing a), 16 SMLAD, CMP, BNE.
inline void pair_groups(const uint32_t*& a, const uint32_t*& w, const uint32_t* a_end,
                        int32_t& acc0, int32_t& acc1, int32_t& acc2, int32_t& acc3) {
#if MOTE_HAS_DSP
  uint32_t w0, w1, we, xe, xo;
  __asm__ volatile(
      "1:\n\t"
      "ldrd %[w0], %[w1], [%[w]], #8\n\t"
      "ldrd %[xe], %[xo], [%[a]], #64\n\t"
      "sxtb16 %[we], %[w0]\n\t"
      "sxtb16 %[w0], %[w0], ror #8\n\t"
      "smlad %[c0], %[xe], %[we], %[c0]\n\t"
      "smlad %[c0], %[xo], %[w0], %[c0]\n\t"
      "ldrd %[xe], %[xo], [%[a], #-56]\n\t"
      "smlad %[c1], %[xe], %[we], %[c1]\n\t"
      "smlad %[c1], %[xo], %[w0], %[c1]\n\t"
      "ldrd %[xe], %[xo], [%[a], #-48]\n\t"
      "smlad %[c2], %[xe], %[we], %[c2]\n\t"
      "smlad %[c2], %[xo], %[w0], %[c2]\n\t"
      "ldrd %[xe], %[xo], [%[a], #-40]\n\t"
      "smlad %[c3], %[xe], %[we], %[c3]\n\t"
      "smlad %[c3], %[xo], %[w0], %[c3]\n\t"
      "sxtb16 %[we], %[w1]\n\t"
      "sxtb16 %[w1], %[w1], ror #8\n\t"
      "ldrd %[xe], %[xo], [%[a], #-32]\n\t"
      "smlad %[c0], %[xe], %[we], %[c0]\n\t"
      "smlad %[c0], %[xo], %[w1], %[c0]\n\t"
      "ldrd %[xe], %[xo], [%[a], #-24]\n\t"
      "smlad %[c1], %[xe], %[we], %[c1]\n\t"
      "smlad %[c1], %[xo], %[w1], %[c1]\n\t"
      "ldrd %[xe], %[xo], [%[a], #-16]\n\t"
      "smlad %[c2], %[xe], %[we], %[c2]\n\t"
      "smlad %[c2], %[xo], %[w1], %[c2]\n\t"
      "ldrd %[xe], %[xo], [%[a], #-8]\n\t"
      "smlad %[c3], %[xe], %[we], %[c3]\n\t"
      "smlad %[c3], %[xo], %[w1], %[c3]\n\t"
      "cmp %[a], %[end]\n\t"
      "bne 1b\n\t"
      : [a] "+r"(a), [w] "+r"(w), [c0] "+r"(acc0), [c1] "+r"(acc1), [c2] "+r"(acc2),
        [c3] "+r"(acc3), [w0] "=&r"(w0), [w1] "=&r"(w1), [we] "=&r"(we), [xe] "=&r"(xe),
        [xo] "=&r"(xo)
      : [end] "r"(a_end)
      : "cc", "memory");
#else
  do {
    uint32_t w0, w1;
    dsp::load2_u32_at<0>(w, w0, w1);
    w += 2;
    accumulate_group<0>(w0, a, acc0, acc1, acc2, acc3);
    accumulate_group<1>(w1, a, acc0, acc1, acc2, acc3);
    a += 16;
  } while (a != a_end);
#endif
}

// block_matmul when every channel fast_applies. kAligned: k % 4 == 0 and the filter
// 4-aligned (weight words by LDRD). Otherwise the weight words are unaligned loads and
// the last, partial group of a row is read as a whole word that runs into the next
// row: its extra bytes meet the zero padding of the columns, so they add nothing; only
// a partial group less than 4 bytes from the filter's end (which would read past it)
// is assembled from its bytes. Outputs out[p * stride + o]. The loop state is kept small
// so nothing spills in the MAC loop.
template <bool kFullRange, bool kAligned>
void block_matmul_fast(const uint32_t* columns, int32_t k, const int8_t* filter,
                       const int32_t* bias, int32_t out_c, const OutputQuant& q, int8_t* out,
                       int32_t stride) {
  const uint32_t* const a_pairs_end = columns + (k / 8) * 16;
  const bool odd_group = (k & 4) != 0;
  const int32_t tail = k & 3;
  const int32_t* multipliers = q.multipliers;
  const int32_t* shifts = q.shifts;
  const int32_t zero_point = q.zero_point;
  const int32_t zero_point_odd = 2 * zero_point + 1;
  const int32_t act_min = q.act_min;
  const int32_t act_max = q.act_max;
  const uint32_t* w = reinterpret_cast<const uint32_t*>(filter);
  const int8_t* wb = filter;
  const int8_t* const filter_end = filter + out_c * k;
  int8_t* const out_end = out + out_c;
  for (int8_t* dst = out; dst != out_end; ++dst) {
    int32_t acc0 = 0;
    if (bias != nullptr) acc0 = *bias++;
    int32_t acc1 = acc0, acc2 = acc0, acc3 = acc0;
    const uint32_t* a = columns;
    if (kAligned) {
      if (a != a_pairs_end) pair_groups(a, w, a_pairs_end, acc0, acc1, acc2, acc3);
      if (odd_group) {
        accumulate_group<0>(*w, a, acc0, acc1, acc2, acc3);
        ++w;
      }
    } else {
      while (a != a_pairs_end) {
        const uint32_t w0 = dsp::load_u32(wb);
        const uint32_t w1 = dsp::load_u32(wb + 4);
        wb += 8;
        accumulate_group<0>(w0, a, acc0, acc1, acc2, acc3);
        accumulate_group<1>(w1, a, acc0, acc1, acc2, acc3);
        a += 16;
      }
      if (odd_group) {
        accumulate_group<0>(dsp::load_u32(wb), a, acc0, acc1, acc2, acc3);
        wb += 4;
        a += 8;
      }
      if (tail != 0) {
        uint32_t wv;
        if (filter_end - wb >= 4) {
          wv = dsp::load_u32(wb);
        } else {
          wv = static_cast<uint8_t>(wb[0]);
          if (tail > 1) wv |= static_cast<uint32_t>(static_cast<uint8_t>(wb[1])) << 8;
          if (tail > 2) wv |= static_cast<uint32_t>(static_cast<uint8_t>(wb[2])) << 16;
        }
        wb += tail;
        accumulate_group<0>(wv, a, acc0, acc1, acc2, acc3);
      }
    }
    const int32_t multiplier = *multipliers++;
    const int32_t shift = *shifts++;
    if (shift < -kMaxFastRight) {
      const int32_t right_minus_1 = ~shift;
      const int32_t high = fast_right_high(right_minus_1, 0);
      acc0 = requantize_fast(acc0, multiplier, high, right_minus_1) + zero_point;
      acc1 = requantize_fast(acc1, multiplier, high, right_minus_1) + zero_point;
      acc2 = requantize_fast(acc2, multiplier, high, right_minus_1) + zero_point;
      acc3 = requantize_fast(acc3, multiplier, high, right_minus_1) + zero_point;
    } else if (shift <= -2) {
      const int32_t right_minus_1 = ~shift;
      // zp * 2^(right - 1) + 2^(right - 2), see fast_right_high.
      const int32_t high =
          static_cast<int32_t>(static_cast<uint32_t>(zero_point_odd) << right_minus_1) >> 1;
      acc0 = requantize_fast(acc0, multiplier, high, right_minus_1);
      acc1 = requantize_fast(acc1, multiplier, high, right_minus_1);
      acc2 = requantize_fast(acc2, multiplier, high, right_minus_1);
      acc3 = requantize_fast(acc3, multiplier, high, right_minus_1);
    } else if (shift == -1) {
      acc0 = requantize_right1(acc0, multiplier, zero_point);
      acc1 = requantize_right1(acc1, multiplier, zero_point);
      acc2 = requantize_right1(acc2, multiplier, zero_point);
      acc3 = requantize_right1(acc3, multiplier, zero_point);
    } else {
      acc0 = requantize_left_zp(acc0, multiplier, shift, zero_point);
      acc1 = requantize_left_zp(acc1, multiplier, shift, zero_point);
      acc2 = requantize_left_zp(acc2, multiplier, shift, zero_point);
      acc3 = requantize_left_zp(acc3, multiplier, shift, zero_point);
    }
    dst[0] = to_output_clamped<kFullRange>(acc0, act_min, act_max);
    dst[stride] = to_output_clamped<kFullRange>(acc1, act_min, act_max);
    int8_t* const dst2 = dst + 2 * stride;
    dst2[0] = to_output_clamped<kFullRange>(acc2, act_min, act_max);
    dst2[stride] = to_output_clamped<kFullRange>(acc3, act_min, act_max);
  }
}

#if MOTE_HAS_DSP
// block_matmul_fast<true, ...> as one asm loop over the channels, for the most common
// case: bias present, q.all_common (every multiplier >= 0, every shift <= -2 or
// multiplier 0, clamp [-128, 127]). Channels with right > kMaxFastRight take a branch
// that adds the zero point after the shift, as block_matmul_fast does; so do channels
// with multiplier 0 and shift > -2, taken as shift -2 (any right >= 2 gives the zero
// point). The loop state that does not fit in registers lives in a small struct on the
// stack (ChannelLoop); r7 is left alone (frame pointer in unoptimized builds). Per
// channel, beyond the MAC loop: 7 to start (bias, three copies, LDRD of the column
// range), 10 for the per-channel constants, 7 per output (AND, ORR, ADD, SMLAL, ASR,
// SSAT, STRB) and 5 to advance.
struct ChannelLoop {
  const int32_t* bias;         // 0
  const int32_t* multipliers;  // 4
  const int32_t* shifts;       // 8
  int8_t* dst;                 // 12
  int32_t out_c;               // 16
  int32_t zero_point_odd;      // 20: 2 * zp + 1
  int8_t* dst_end;             // 24
  const uint32_t* columns;     // 28
  const uint32_t* a_end;       // 32: end of the pairs of groups
  const uint32_t* groups_end;  // 36: end of all groups
  int32_t row_back;            // 40: bytes the weights went past the row (4 * groups - k)
};
// The loop state for channels [0, channels) of a block with `groups` groups; a_end ends
// the groups the main loop runs.
inline ChannelLoop channel_loop(const uint32_t* columns, int32_t groups, const int32_t* bias,
                                int32_t out_c, const OutputQuant& q, int8_t* out,
                                int32_t channels, const uint32_t* a_end, int32_t row_back) {
  return ChannelLoop{bias,    q.multipliers, q.shifts, out,   out_c, 2 * q.zero_point + 1,
                     out + channels, columns, a_end, columns + groups * 8, row_back};
}
static_assert(offsetof(ChannelLoop, out_c) == 16 && offsetof(ChannelLoop, dst_end) == 24 &&
                  offsetof(ChannelLoop, a_end) == 32 && offsetof(ChannelLoop, row_back) == 40,
              "ChannelLoop offsets are hard-coded in block_matmul_common");

// The asm pieces of block_matmul_common (registers: r0-r3 accumulators, r4 columns,
// r5 end / scratch, r6 weights, r8-r11 and lr scratch, r12 the ChannelLoop).
// START: accumulators from the bias, r4/r5 = the pair range. PAIRS: 32 MACs per
// iteration in 28 instructions; QUADS: 64 MACs per iteration in 54 (groups a multiple
// of 4); both 2 more per channel (PUSH/POP of r12). ODD_GROUP: the last group
// when the number of groups is odd, then the weights back to the next row. REQUANT: the
// four outputs (REQUANT_CHECK branches to the rare forms when the shift is outside
// [-kMaxFastRight, -2]), the next channel.
#define MOTE_CONV2D_DSP_START \
  "2:\n\t" \
  "ldr r4, [r12, #0]\n\t" \
  "ldr r0, [r4], #4\n\t" \
  "str r4, [r12, #0]\n\t" \
  "mov r1, r0\n\t" \
  "mov r2, r0\n\t" \
  "mov r3, r0\n\t" \
  "ldrd r4, r5, [r12, #28]\n\t"
// One group (16 MACs) in 13 instructions: the weight word by LDR (alignment free), both
// pixel pairs' column words by LDM into r9, r11, r12 and lr (r12, the ChannelLoop, is
// pushed around the loop: GROUP_LOOP).
// WEIGHTS: r10 = the even taps, r8 = the odd ones (int16 pairs) of the next group;
// WIDE_WEIGHTS: the same from weights already widened (block_matmul_wide: 11
// instructions per group).
#define MOTE_CONV2D_DSP_WEIGHTS \
  "ldr r8, [r6], #4\n\t" \
  "sxtb16 r10, r8\n\t" \
  "sxtb16 r8, r8, ror #8\n\t"
#define MOTE_CONV2D_DSP_WIDE_WEIGHTS "ldrd r10, r8, [r6], #8\n\t"
#define MOTE_CONV2D_DSP_GROUP MOTE_CONV2D_DSP_WEIGHTS MOTE_CONV2D_DSP_GROUP_MACS
#define MOTE_CONV2D_DSP_WIDE_GROUP MOTE_CONV2D_DSP_WIDE_WEIGHTS MOTE_CONV2D_DSP_GROUP_MACS
#define MOTE_CONV2D_DSP_GROUP_MACS \
  "ldm r4!, {r9, r11, r12, lr}\n\t" \
  "smlad r0, r9, r10, r0\n\t" \
  "smlad r0, r11, r8, r0\n\t" \
  "smlad r1, r12, r10, r1\n\t" \
  "smlad r1, lr, r8, r1\n\t" \
  "ldm r4!, {r9, r11, r12, lr}\n\t" \
  "smlad r2, r9, r10, r2\n\t" \
  "smlad r2, r11, r8, r2\n\t" \
  "smlad r3, r12, r10, r3\n\t" \
  "smlad r3, lr, r8, r3\n\t"
#define MOTE_CONV2D_DSP_GROUP_LOOP(body) \
  "push {r12}\n\t" \
  "1:\n\t" \
  body \
  "cmp r4, r5\n\t" \
  "bne 1b\n\t" \
  "pop {r12}\n\t"
#define MOTE_CONV2D_DSP_PAIRS_ALIGNED \
  MOTE_CONV2D_DSP_GROUP_LOOP(MOTE_CONV2D_DSP_GROUP MOTE_CONV2D_DSP_GROUP)
#define MOTE_CONV2D_DSP_QUADS_ALIGNED                                                  \
  MOTE_CONV2D_DSP_GROUP_LOOP(MOTE_CONV2D_DSP_GROUP MOTE_CONV2D_DSP_GROUP               \
                                 MOTE_CONV2D_DSP_GROUP MOTE_CONV2D_DSP_GROUP)
#define MOTE_CONV2D_DSP_PAIRS_UNALIGNED MOTE_CONV2D_DSP_PAIRS_ALIGNED
#define MOTE_CONV2D_DSP_ODD_GROUP MOTE_CONV2D_DSP_ODD_GROUP_OF(MOTE_CONV2D_DSP_WEIGHTS)
#define MOTE_CONV2D_DSP_ODD_GROUP_OF(weights) \
  "7:\n\t" \
  "ldr r5, [r12, #36]\n\t" \
  "cmp r4, r5\n\t" \
  "beq 8f\n\t" \
  weights \
  "ldrd r11, lr, [r4, #0]\n\t" \
  "smlad r0, r11, r10, r0\n\t" \
  "smlad r0, lr, r8, r0\n\t" \
  "ldrd r11, lr, [r4, #8]\n\t" \
  "smlad r1, r11, r10, r1\n\t" \
  "smlad r1, lr, r8, r1\n\t" \
  "ldrd r11, lr, [r4, #16]\n\t" \
  "smlad r2, r11, r10, r2\n\t" \
  "smlad r2, lr, r8, r2\n\t" \
  "ldrd r11, lr, [r4, #24]\n\t" \
  "smlad r3, r11, r10, r3\n\t" \
  "smlad r3, lr, r8, r3\n\t" \
  "8:\n\t" \
  "ldr r5, [r12, #40]\n\t" \
  "sub r6, r6, r5\n\t"
#define MOTE_CONV2D_DSP_REQUANT_HEAD \
  "ldmia r12, {r4, r5, r8, r9, r10, r11}\n\t" \
  "ldr lr, [r5], #4\n\t" \
  "ldr r4, [r8], #4\n\t" \
  "strd r5, r8, [r12, #4]\n\t" \
  "mvn r4, r4\n\t"
#define MOTE_CONV2D_DSP_REQUANT_CHECK \
  "sub r5, r4, #1\n\t" \
  "cmp r5, #21\n\t" \
  "bhi 3f\n\t"
#define MOTE_CONV2D_DSP_REQUANT_BODY \
  "lsl r11, r11, r4\n\t" \
  "asr r11, r11, #1\n\t" \
  "and r8, r0, #0x80000000\n\t" \
  "orr r8, r8, #0x40000000\n\t" \
  "add r5, r11, r0, asr #31\n\t" \
  "smlal r8, r5, r0, lr\n\t" \
  "asr r5, r5, r4\n\t" \
  "ssat r5, #8, r5\n\t" \
  "strb r5, [r9]\n\t" \
  "and r8, r1, #0x80000000\n\t" \
  "orr r8, r8, #0x40000000\n\t" \
  "add r5, r11, r1, asr #31\n\t" \
  "smlal r8, r5, r1, lr\n\t" \
  "asr r5, r5, r4\n\t" \
  "ssat r5, #8, r5\n\t" \
  "strb r5, [r9, r10]\n\t" \
  "add r0, r9, r10, lsl #1\n\t" \
  "and r8, r2, #0x80000000\n\t" \
  "orr r8, r8, #0x40000000\n\t" \
  "add r5, r11, r2, asr #31\n\t" \
  "smlal r8, r5, r2, lr\n\t" \
  "asr r5, r5, r4\n\t" \
  "ssat r5, #8, r5\n\t" \
  "strb r5, [r0]\n\t" \
  "and r8, r3, #0x80000000\n\t" \
  "orr r8, r8, #0x40000000\n\t" \
  "add r5, r11, r3, asr #31\n\t" \
  "smlal r8, r5, r3, lr\n\t" \
  "asr r5, r5, r4\n\t" \
  "ssat r5, #8, r5\n\t" \
  "strb r5, [r0, r10]\n\t" \
  "4:\n\t" \
  "add r9, r9, #1\n\t" \
  "str r9, [r12, #12]\n\t" \
  "ldr r8, [r12, #24]\n\t" \
  "cmp r9, r8\n\t" \
  "bne 2b\n\t"
// REQUANT_BODY with the doubled-accumulator requantization (see acc_fits_doubled: every
// |acc| < 2^30, shift in [-kMaxFastRight, -2]): r11 = H = (2 zp + 1) << (right - 1),
// r4 = right, then per output ADD, LSL, SMMLAR, ASR, SSAT, STRB (6, not 7).
#define MOTE_CONV2D_DSP_REQUANT_DOUBLED_OUT(acc, addr) \
  "add r5, r11, " acc ", asr #31\n\t" \
  "lsl r8, " acc ", #1\n\t" \
  "smmlar r5, r8, lr, r5\n\t" \
  "asr r5, r5, r4\n\t" \
  "ssat r5, #8, r5\n\t" \
  "strb r5, " addr "\n\t"
#define MOTE_CONV2D_DSP_REQUANT_DOUBLED_BODY \
  "lsl r11, r11, r4\n\t" \
  "add r4, r4, #1\n\t" \
  MOTE_CONV2D_DSP_REQUANT_DOUBLED_OUT("r0", "[r9]") \
  MOTE_CONV2D_DSP_REQUANT_DOUBLED_OUT("r1", "[r9, r10]") \
  "add r0, r9, r10, lsl #1\n\t" \
  MOTE_CONV2D_DSP_REQUANT_DOUBLED_OUT("r2", "[r0]") \
  MOTE_CONV2D_DSP_REQUANT_DOUBLED_OUT("r3", "[r0, r10]") \
  "add r9, r9, #1\n\t" \
  "str r9, [r12, #12]\n\t" \
  "ldr r8, [r12, #24]\n\t" \
  "cmp r9, r8\n\t" \
  "bne 2b\n\t"
// The rare forms REQUANT_CHECK branches to (not assembled without it).
#define MOTE_CONV2D_DSP_REQUANT_RARE \
  "b 5f\n\t" \
  "3:\n\t" \
  "cmp r4, #1\n\t" \
  "it lt\n\t" \
  "movlt r4, #1\n\t" \
  "sub r5, r4, #1\n\t" \
  "mov r8, #1\n\t" \
  "lsl r8, r8, r5\n\t" \
  "asr r11, r11, #1\n\t" \
  "and r9, r0, #0x80000000\n\t" \
  "orr r9, r9, #0x40000000\n\t" \
  "add r5, r8, r0, asr #31\n\t" \
  "smlal r9, r5, r0, lr\n\t" \
  "asr r5, r5, r4\n\t" \
  "add r0, r5, r11\n\t" \
  "and r9, r1, #0x80000000\n\t" \
  "orr r9, r9, #0x40000000\n\t" \
  "add r5, r8, r1, asr #31\n\t" \
  "smlal r9, r5, r1, lr\n\t" \
  "asr r5, r5, r4\n\t" \
  "add r1, r5, r11\n\t" \
  "and r9, r2, #0x80000000\n\t" \
  "orr r9, r9, #0x40000000\n\t" \
  "add r5, r8, r2, asr #31\n\t" \
  "smlal r9, r5, r2, lr\n\t" \
  "asr r5, r5, r4\n\t" \
  "add r2, r5, r11\n\t" \
  "and r9, r3, #0x80000000\n\t" \
  "orr r9, r9, #0x40000000\n\t" \
  "add r5, r8, r3, asr #31\n\t" \
  "smlal r9, r5, r3, lr\n\t" \
  "asr r5, r5, r4\n\t" \
  "add r3, r5, r11\n\t" \
  "ldr r9, [r12, #12]\n\t" \
  "ssat r0, #8, r0\n\t" \
  "strb r0, [r9]\n\t" \
  "ssat r1, #8, r1\n\t" \
  "strb r1, [r9, r10]\n\t" \
  "ssat r2, #8, r2\n\t" \
  "strb r2, [r9, r10, lsl #1]\n\t" \
  "add r0, r9, r10, lsl #1\n\t" \
  "ssat r3, #8, r3\n\t" \
  "strb r3, [r0, r10]\n\t" \
  "b 4b\n\t" \
  "5:\n\t"

// kAligned: filter 4-aligned and k % 8 == 0; kQuads: also k % 16 == 0. kChecked: some
// shift is outside [-kMaxFastRight, -2] (else the per-channel range check is left out).
template <bool kChecked, bool kAligned, bool kQuads = false>
inline void block_matmul_common(const uint32_t* columns, int32_t k, const int8_t* filter,
                                const int32_t* bias, int32_t out_c, const OutputQuant& q,
                                int8_t* out, int32_t channels) {
  const int32_t groups = k_groups(k);
  ChannelLoop loop = channel_loop(columns, groups, bias, out_c, q, out, channels,
                                  columns + (groups / 2) * 16, groups * 4 - k);
  register ChannelLoop* state __asm__("r12") = &loop;
  register const int8_t* w __asm__("r6") = filter;
#define MOTE_CONV2D_DSP_ASM(code)                                                       \
  __asm__ volatile(code                                                                  \
                   : "+r"(state), "+r"(w)                                                \
                   :                                                                     \
                   : "r0", "r1", "r2", "r3", "r4", "r5", "r8", "r9", "r10", "r11", "lr", \
                     "cc", "memory")
#define MOTE_CONV2D_DSP_UNALIGNED \
  MOTE_CONV2D_DSP_START "cmp r4, r5\n\t" "beq 7f\n\t" MOTE_CONV2D_DSP_PAIRS_UNALIGNED \
      MOTE_CONV2D_DSP_ODD_GROUP
  // kChecked: some shift outside [-kMaxFastRight, -2] (see REQUANT_CHECK).
  if (kChecked) {
    if (kQuads) {
      MOTE_CONV2D_DSP_ASM(MOTE_CONV2D_DSP_START MOTE_CONV2D_DSP_QUADS_ALIGNED
                              MOTE_CONV2D_DSP_REQUANT_HEAD MOTE_CONV2D_DSP_REQUANT_CHECK
                                  MOTE_CONV2D_DSP_REQUANT_BODY MOTE_CONV2D_DSP_REQUANT_RARE);
    } else if (kAligned) {
      MOTE_CONV2D_DSP_ASM(MOTE_CONV2D_DSP_START MOTE_CONV2D_DSP_PAIRS_ALIGNED
                              MOTE_CONV2D_DSP_REQUANT_HEAD MOTE_CONV2D_DSP_REQUANT_CHECK
                                  MOTE_CONV2D_DSP_REQUANT_BODY MOTE_CONV2D_DSP_REQUANT_RARE);
    } else {
      MOTE_CONV2D_DSP_ASM(MOTE_CONV2D_DSP_UNALIGNED MOTE_CONV2D_DSP_REQUANT_HEAD
                              MOTE_CONV2D_DSP_REQUANT_CHECK MOTE_CONV2D_DSP_REQUANT_BODY
                                  MOTE_CONV2D_DSP_REQUANT_RARE);
    }
  } else if (kQuads) {
    MOTE_CONV2D_DSP_ASM(MOTE_CONV2D_DSP_START MOTE_CONV2D_DSP_QUADS_ALIGNED
                            MOTE_CONV2D_DSP_REQUANT_HEAD MOTE_CONV2D_DSP_REQUANT_BODY);
  } else if (kAligned) {
    MOTE_CONV2D_DSP_ASM(MOTE_CONV2D_DSP_START MOTE_CONV2D_DSP_PAIRS_ALIGNED
                            MOTE_CONV2D_DSP_REQUANT_HEAD MOTE_CONV2D_DSP_REQUANT_BODY);
  } else {
    MOTE_CONV2D_DSP_ASM(MOTE_CONV2D_DSP_UNALIGNED MOTE_CONV2D_DSP_REQUANT_HEAD
                            MOTE_CONV2D_DSP_REQUANT_BODY);
  }
#undef MOTE_CONV2D_DSP_UNALIGNED
#undef MOTE_CONV2D_DSP_ASM
}

// block_matmul_common<kChecked, true, true> over weights already widened
// (widen_weights): each channel's groups as (even taps, odd taps) int16 pairs, 8 bytes
// per group, channels back to back. 64 MACs in 46 instructions. Groups a multiple of 4.
// kDoubled (not with kChecked): the doubled requantization, every |acc| < 2^30.
template <bool kChecked, bool kDoubled = false>
inline void block_matmul_wide(const uint32_t* columns, int32_t k, const uint32_t* wide,
                              const int32_t* bias, int32_t out_c, const OutputQuant& q,
                              int8_t* out, int32_t channels) {
  const int32_t groups = k_groups(k);
  ChannelLoop loop =
      channel_loop(columns, groups, bias, out_c, q, out, channels, columns + groups * 8, 0);
  register ChannelLoop* state __asm__("r12") = &loop;
  register const uint32_t* w __asm__("r6") = wide;
#define MOTE_CONV2D_DSP_WIDE_ASM(requant)                                                   \
  __asm__ volatile(MOTE_CONV2D_DSP_START MOTE_CONV2D_DSP_GROUP_LOOP(                         \
                       MOTE_CONV2D_DSP_WIDE_GROUP MOTE_CONV2D_DSP_WIDE_GROUP                 \
                           MOTE_CONV2D_DSP_WIDE_GROUP MOTE_CONV2D_DSP_WIDE_GROUP)            \
                       MOTE_CONV2D_DSP_REQUANT_HEAD requant                                  \
                   : "+r"(state), "+r"(w)                                                    \
                   :                                                                         \
                   : "r0", "r1", "r2", "r3", "r4", "r5", "r8", "r9", "r10", "r11", "lr", "cc", \
                     "memory")
  static_assert(!(kChecked && kDoubled), "the doubled requantization takes the normal shifts only");
  if (kChecked) {
    MOTE_CONV2D_DSP_WIDE_ASM(MOTE_CONV2D_DSP_REQUANT_CHECK MOTE_CONV2D_DSP_REQUANT_BODY
                                 MOTE_CONV2D_DSP_REQUANT_RARE);
  } else if (kDoubled) {
    MOTE_CONV2D_DSP_WIDE_ASM(MOTE_CONV2D_DSP_REQUANT_DOUBLED_BODY);
  } else {
    MOTE_CONV2D_DSP_WIDE_ASM(MOTE_CONV2D_DSP_REQUANT_BODY);
  }
#undef MOTE_CONV2D_DSP_WIDE_ASM
}
#endif

// The doubled-accumulator requantization (the small-window variant's pair loop and
// block_matmul_wide<false, true>): A = 2
// acc is exact when |acc| < 2^30 (acc_fits_doubled), and
// SMMLAR(A, m, t) = floor((A * m + 2^31) / 2^32) + t = floor((acc * m + 2^30) / 2^31) + t
// is the reference's rounding high multiply x plus t (for acc * m < 0 too: truncating
// (acc * m + 1 - 2^30) / 2^31 toward zero is that floor). With t = H - [acc < 0] and H =
// (2 zp + 1) << (right - 1) (doubled_high), an ASR by right is RoundingDivideByPOT(x,
// right) + zp: for m >= 0 the sign of x that decides the tie is that of acc (x is 0 when
// they differ, and gives the same either way). |x| < 2^30 and |H| <= 255 << 22 keep x + t
// inside int32 for right <= kMaxFastRight. ADD, LSL, SMMLAR, ASR: 4 instructions, not 5.
// Whether every accumulator of channels [0, channels) over k taps stays within |acc| <
// 2^30: |bias[o]| + k * 255 * 128 < 2^30 (|input - zero point| <= 255, |weight| <= 128).
inline bool acc_fits_doubled(int32_t k, const int32_t* bias, int32_t channels) {
  const int64_t limit = (int64_t{1} << 30) - int64_t{k} * 255 * 128;
  for (int32_t o = 0; o < channels; ++o) {
    const int64_t b = bias != nullptr ? bias[o] : 0;
    if (b >= limit || -b >= limit) return false;
  }
  return true;
}
// H = (2 zp + 1) << (right - 1) of the doubled requantization.
inline int32_t doubled_high(int32_t zero_point, int32_t right_minus_1) {
  return static_cast<int32_t>(static_cast<uint32_t>(2 * zero_point + 1) << right_minus_1);
}

// Bytes of widened weights per channel (block_matmul_wide).
inline uint32_t wide_channel_bytes(int32_t k) { return static_cast<uint32_t>(k_groups(k)) * 8u; }
// Whether block_matmul_wide takes this k (a multiple of 4 groups).
inline bool wide_applies(int32_t k) { return k > 0 && (k_groups(k) & 3) == 0; }
// Fewer output pixels than this: not worth widening (about 1.5 instructions per weight
// against K / 8 saved per channel and block of 4 pixels).
inline constexpr int32_t kWideMinPixels = 16;

// The first `channels` rows of filter ([out_c][k] int8) widened for block_matmul_wide:
// per group (even taps, odd taps) as int16 pairs; the taps past k in the last group are 0.
inline void widen_weights(const int8_t* filter, int32_t k, int32_t channels, uint32_t* wide) {
  const int32_t full = k / 4;
  const int32_t tail = k - full * 4;
  for (int32_t o = 0; o < channels; ++o) {
    for (int32_t g = 0; g < full; ++g, filter += 4, wide += 2) {
      const uint32_t x = dsp::load_u32(filter);
      wide[0] = dsp::sxtb16(x);
      wide[1] = dsp::sxtb16_ror8(x);
    }
    if (tail != 0) {
      uint32_t x = 0;
      for (int32_t j = 0; j < tail; ++j) {
        x |= static_cast<uint32_t>(static_cast<uint8_t>(filter[j])) << (8 * j);
      }
      filter += tail;
      wide[0] = dsp::sxtb16(x);
      wide[1] = dsp::sxtb16_ror8(x);
      wide += 2;
    }
  }
}

// Every output channel of one pixel, the one in column 0 of the block (the other
// columns are not read): out[o]. For a last block of a single pixel, where moving the
// block back would recompute 3 pixels. 2 MACs per SMLAD, 6 instructions per 4 MACs.
inline void run_single(const uint32_t* columns, int32_t k, const int8_t* filter,
                       const int32_t* bias, int32_t out_c, const OutputQuant& q, int8_t* out) {
  const int32_t full_groups = k / 4;
  const int32_t tail = k - full_groups * 4;
  const int8_t* w = filter;
  for (int32_t o = 0; o < out_c; ++o) {
    int32_t acc = bias != nullptr ? bias[o] : 0;
    const uint32_t* a = columns;
    for (int32_t g = 0; g < full_groups; ++g, a += 8, w += 4) {
      const uint32_t wv = dsp::load_u32(w);
      acc = dsp::smlad(a[0], dsp::sxtb16(wv), acc);
      acc = dsp::smlad(a[1], dsp::sxtb16_ror8(wv), acc);
    }
    if (tail != 0) {
      uint32_t wv = static_cast<uint8_t>(w[0]);
      if (tail > 1) wv |= static_cast<uint32_t>(static_cast<uint8_t>(w[1])) << 8;
      if (tail > 2) wv |= static_cast<uint32_t>(static_cast<uint8_t>(w[2])) << 16;
      w += tail;
      acc = dsp::smlad(a[0], dsp::sxtb16(wv), acc);
      acc = dsp::smlad(a[1], dsp::sxtb16_ror8(wv), acc);
    }
    const int32_t v = wrapping_add(
        multiply_by_quantized_multiplier(acc, q.multipliers[o], q.shifts[o]), q.zero_point);
    out[o] = static_cast<int8_t>(clamp_i32(v, q.act_min, q.act_max));
  }
}

#if MOTE_HAS_DSP
// Channels [first, out_c) of one block from the filter by the asm loop (q.all_common, a
// bias, k != 0): run_block's path after the widened channels.
inline void common_channels(const uint32_t* columns, int32_t k, const int8_t* filter,
                            const int32_t* bias, int32_t out_c, const OutputQuant& q, int8_t* out,
                            int32_t first) {
  const bool aligned = (k & 3) == 0 && (reinterpret_cast<uintptr_t>(filter) & 3u) == 0;
  const OutputQuant rest = q.from(first);
  const int8_t* const rows = filter + first * k;
  const int32_t* const rest_bias = bias + first;
  int8_t* const rest_out = out + first;
  const int32_t count = out_c - first;
  if (aligned && (k & 15) == 0) {
    if (q.all_normal) {
      block_matmul_common<false, true, true>(columns, k, rows, rest_bias, out_c, rest, rest_out, count);
    } else {
      block_matmul_common<true, true, true>(columns, k, rows, rest_bias, out_c, rest, rest_out, count);
    }
    return;
  }
  if (aligned && (k & 7) == 0) {
    if (q.all_normal) {
      block_matmul_common<false, true>(columns, k, rows, rest_bias, out_c, rest, rest_out, count);
    } else {
      block_matmul_common<true, true>(columns, k, rows, rest_bias, out_c, rest, rest_out, count);
    }
    return;
  }
  // The last group of the last channel would read past the filter when k % 4 != 0:
  // that channel then runs in C++.
  const int32_t channels = (k & 3) != 0 ? count - 1 : count;
  if (channels > 0 && q.all_normal) {
    block_matmul_common<false, false>(columns, k, rows, rest_bias, out_c, rest, rest_out, channels);
  } else if (channels > 0) {
    block_matmul_common<true, false>(columns, k, rows, rest_bias, out_c, rest, rest_out, channels);
  }
  if (channels == count) return;
  const OutputQuant last{rest.multipliers + channels, rest.shifts + channels, q.zero_point,
                         q.act_min, q.act_max, q.all_fast, q.all_common, q.all_normal};
  block_matmul_fast<true, false>(columns, k, rows + channels * k, rest_bias + channels, 1, last,
                                 rest_out + channels, out_c);
}
#endif

// block_matmul with the clamp chosen once per block. wide: the first wide_channels
// channels widened (widen_weights; wide_applies(k)), used by the asm loop (q.all_common,
// a bias; else ignored); wide_doubled: acc_fits_doubled(k, bias, wide_channels), which
// the caller checks once per run (the widened loop then requantizes in 6 instructions
// per output, not 7).
inline void run_block(const uint32_t* columns, int32_t k, const int8_t* filter,
                      const int32_t* bias, int32_t out_c, const OutputQuant& q, int8_t* out,
                      const uint32_t* wide = nullptr, int32_t wide_channels = 0,
                      bool wide_doubled = false) {
  static_cast<void>(wide);
  static_cast<void>(wide_channels);
  static_cast<void>(wide_doubled);
  const bool full_range = q.act_min == -128 && q.act_max == 127;
  const bool aligned = (k & 3) == 0 && (reinterpret_cast<uintptr_t>(filter) & 3u) == 0;
#if MOTE_HAS_DSP
  if (q.all_common && bias != nullptr && k != 0 && out_c > 0) {
    // The widened channels first, then channels [first, out_c) from the filter.
    int32_t first = 0;
    if (wide_channels > 0) {
      if (q.all_normal && wide_doubled) {
        block_matmul_wide<false, true>(columns, k, wide, bias, out_c, q, out, wide_channels);
      } else if (q.all_normal) {
        block_matmul_wide<false>(columns, k, wide, bias, out_c, q, out, wide_channels);
      } else {
        block_matmul_wide<true>(columns, k, wide, bias, out_c, q, out, wide_channels);
      }
      if (wide_channels == out_c) return;
      first = wide_channels;
    }
    common_channels(columns, k, filter, bias, out_c, q, out, first);
    return;
  }
#endif
  if (q.all_fast) {
    if (aligned) {
      if (full_range) {
        block_matmul_fast<true, true>(columns, k, filter, bias, out_c, q, out, out_c);
      } else {
        block_matmul_fast<false, true>(columns, k, filter, bias, out_c, q, out, out_c);
      }
    } else if (full_range) {
      block_matmul_fast<true, false>(columns, k, filter, bias, out_c, q, out, out_c);
    } else {
      block_matmul_fast<false, false>(columns, k, filter, bias, out_c, q, out, out_c);
    }
    return;
  }
  if (full_range) {
    block_matmul<true>(columns, k, filter, bias, out_c, q, out);
  } else {
    block_matmul<false>(columns, k, filter, bias, out_c, q, out);
  }
}

// Channels [first, out_c) of one block, every channel fast_applies (q.all_fast): the asm
// loop when it applies, else block_matmul_fast.
inline void run_block_rest(const uint32_t* columns, int32_t k, const int8_t* filter,
                           const int32_t* bias, int32_t out_c, const OutputQuant& q, int8_t* out,
                           int32_t first) {
#if MOTE_HAS_DSP
  if (q.all_common && bias != nullptr && k != 0) {
    common_channels(columns, k, filter, bias, out_c, q, out, first);
    return;
  }
#endif
  const OutputQuant rest = q.from(first);
  block_matmul_fast<false, false>(columns, k, filter + first * k, bias != nullptr ? bias + first : nullptr,
                                  out_c - first, rest, out + first, out_c);
}

}  // namespace conv2d_dsp
}  // namespace mote
