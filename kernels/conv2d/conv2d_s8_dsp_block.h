// The shared core of the int8 conv2d DSP variants (conv2d_s8__dsp, conv2d_s8_1x1__dsp),
// internal to kernels/conv2d/.
//
// Algorithm. Output pixels are processed in blocks of kBlockPixels (4), taken in output
// order (batch, row, column). When the pixel count is not a multiple of 4 the last
// block is moved back to end at the last pixel: it recomputes (and rewrites with the
// same values) up to 3 pixels of the block before. Ops with fewer than 4 output pixels
// run the reference kernel. Each pixel's receptive field (K = KH * KW * C values, in
// filter order) is copied into an int16 "column" in scratch with the input offset
// already added, so a padding tap is 0.
// The four columns are interleaved in groups of four K values:
//   word 8g + 2p     = (x[4g] , x[4g+2]) of pixel p  (lo, hi halves)
//   word 8g + 2p + 1 = (x[4g+1], x[4g+3]) of pixel p
// which is the order SXTB16 / SXTB16 ROR #8 split a weight word (four int8 taps) into,
// so the filter is read as it is stored: for every output channel one weight word is
// expanded once and feeds 8 SMLADs (4 pixels x 2 halves), 16 MACs. The last group is
// zero-padded (K rounded up to a multiple of 4) and its weight word is assembled from
// the remaining bytes, so nothing past the filter is read. When every filter row is
// 4-aligned (K % 4 == 0, filter 4-aligned) two weight words come in one LDRD and the
// loop runs 33 instructions per 32 MACs; otherwise 18 per 16.
//
// Accumulation wraps in 32 bits like the reference (SMLAD wraps; the bias is added first,
// which changes nothing modulo 2^32). Requantization is bit-identical to
// multiply_by_quantized_multiplier (double rounding) but folds both roundings into one
// 64-bit multiply-accumulate (see requantize_right below).
#pragma once

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

// Writes n input values src[0..n) plus the offset into column `pixel` of the block,
// starting at group `group` (which must start a group: the values before it fill whole
// groups). A partial last group is zero-filled. Returns the next group.
inline int32_t expand_into_column(const int8_t* src, int32_t n, uint32_t offsets,
                                  uint32_t* columns, int32_t pixel, int32_t group) {
  uint32_t* dst = columns + group * 8 + pixel * 2;
  const int8_t* const end8 = src + (n & ~7);
  const int8_t* const end = src + n;
  while (src != end8) {  // two groups per iteration
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

struct OutputQuant {
  const int32_t* multipliers;
  const int32_t* shifts;
  int32_t zero_point, act_min, act_max;
};

inline OutputQuant output_quant(const Conv2dS8Params& params, const int32_t* multipliers,
                                const int32_t* shifts) {
  return OutputQuant{multipliers, shifts, params.output_zero_point, params.act_min,
                     params.act_max};
}

// + output zero point (wrapping), clamped; kFullRange: [act_min, act_max] is
// [-128, 127], one SSAT.
template <bool kFullRange>
inline int8_t to_output(int32_t scaled, int32_t zero_point, int32_t act_min, int32_t act_max) {
  const int32_t v = wrapping_add(scaled, zero_point);
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
    int8_t* dst = out + o;
    dst[0] = to_output<kFullRange>(acc0, zero_point, act_min, act_max);
    dst[out_c] = to_output<kFullRange>(acc1, zero_point, act_min, act_max);
    dst += 2 * out_c;
    dst[0] = to_output<kFullRange>(acc2, zero_point, act_min, act_max);
    dst[out_c] = to_output<kFullRange>(acc3, zero_point, act_min, act_max);
  }
}

// block_matmul with the clamp chosen once per block.
inline void run_block(const uint32_t* columns, int32_t k, const int8_t* filter,
                      const int32_t* bias, int32_t out_c, const OutputQuant& q, int8_t* out) {
  if (q.act_min == -128 && q.act_max == 127) {
    block_matmul<true>(columns, k, filter, bias, out_c, q, out);
  } else {
    block_matmul<false>(columns, k, filter, bias, out_c, q, out);
  }
}

}  // namespace conv2d_dsp
}  // namespace mote
