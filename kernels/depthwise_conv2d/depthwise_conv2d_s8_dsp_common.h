// Pieces shared by the int8 depthwise __dsp variants (internal to kernels/depthwise_conv2d/).
// Depth multiplier 1 only: output channel c reads input channel c.
//
// Four channels per word: an input word x (channels c..c+3) becomes
//   sxtab16(offset2, x)       = [x(c)   + input_offset, x(c+2) + input_offset]
//   sxtab16_ror8(offset2, x)  = [x(c+1) + input_offset, x(c+3) + input_offset]
// (exact: the sums are in [-255, 255]), the filter word the same way without the offset,
// and SMLABB / SMLATT accumulate each channel's product into its own int32 (wrapping, as
// the reference's uint32 sum), starting from the bias. Only taps inside the image are
// visited, as in the reference.
//
// Hot functions carry optimize("no-schedule-insns"): GCC's pre-allocation scheduler hoists
// the loads of all taps and then spills the accumulators, costing a third more
// instructions on Cortex-M4.
#pragma once

#include <stdint.h>

#include "depthwise_conv2d/depthwise_conv2d.h"
#include "isa/dsp.h"
#include "kernel_util.h"
#include "quant/quant_math.h"
#include "quant/quant_math_dsp.h"

#if defined(__GNUC__) && !defined(__clang__)
#define MOTE_DEPTHWISE_DSP_HOT __attribute__((optimize("no-schedule-insns")))
#else
#define MOTE_DEPTHWISE_DSP_HOT
#endif

namespace mote::depthwise_dsp {

// Per-channel constants of the fast requantization, prepared once per run in scratch by
// make_output(). Used only when every shift is negative (right = -shift >= 1, no left
// shift) and make_output() proved, for every possible accumulator of every channel, that
//   y   = SMMULR(2 * acc, m)                   == SaturatingRoundingDoublingHighMul(acc, m)
//   out = (y + round + (zp << right) + (y >> 31)) >> right
//       == RoundingDivideByPOT(y, right) + zp   (right >= 1, so y >> 31 is -[y < 0])
// with no int32 overflow anywhere (see quant_math_dsp.h). The four outputs of a channel
// group are then saturated to int8, packed into a word and clamped bytewise.
struct ChannelRequant {
  int32_t bias2;      // twice the bias (0 without a bias tensor)
  int32_t multiplier;
  int32_t right;      // -shift, >= 1
  int32_t round_zp;   // (1 << (right - 1)) + (output_zero_point << right)
};

inline uint32_t output_table_bytes(int32_t channels) {
  return static_cast<uint32_t>(channels) * static_cast<uint32_t>(sizeof(ChannelRequant));
}

// The fast path's output of one channel before the clamp (in [-128, 127]), from twice its
// accumulator (which fits int32 on this path).
inline int32_t fast_one(int32_t acc2, const ChannelRequant& q) {
  const int32_t y = dsp::smmulr(acc2, q.multiplier);
  return dsp::ssat8((y + q.round_zp + (y >> 31)) >> q.right);
}

// Fast path: the outputs of channels q[0..3] from twice their accumulators (bias
// included), saturated, packed, clamped to [lo4, hi4] bytewise and stored at out[0..3].
inline void finish4_fast(const ChannelRequant* q, int32_t a0, int32_t a1, int32_t a2, int32_t a3,
                         uint32_t lo4, uint32_t hi4, int8_t* out) {
  const int32_t v0 = fast_one(a0, q[0]);
  const int32_t v1 = fast_one(a1, q[1]);
  const int32_t v2 = fast_one(a2, q[2]);
  const int32_t v3 = fast_one(a3, q[3]);
  const uint32_t even =
      dsp::uxtb16(dsp::pack_lo_lo(static_cast<uint32_t>(v0), static_cast<uint32_t>(v2)));
  const uint32_t odd =
      dsp::uxtb16(dsp::pack_lo_lo(static_cast<uint32_t>(v1), static_cast<uint32_t>(v3)));
  dsp::store_u32(out, dsp::min_s8x4(dsp::max_s8x4(even | (odd << 8), lo4), hi4));
}

// Everything that turns an accumulator (bias included) of channel c into its output byte.
struct Output {
  const int32_t* bias;  // nullable
  const int32_t* multipliers;
  const int32_t* shifts;
  const ChannelRequant* table;  // nullptr: the exact per-output path
  bool fast_requant;            // no multiplier is INT32_MIN (requant_dsp applies)
  int32_t zero_point, act_min, act_max;
  uint32_t act_min4, act_max4;  // act_min / act_max in each byte

  int32_t bias_of(int32_t c) const { return bias != nullptr ? bias[c] : 0; }

  int8_t finish(int32_t c, int32_t acc) const {
    const int32_t scaled =
        fast_requant ? requant_dsp(acc, requant_dsp_prepare(multipliers[c], shifts[c]))
                     : multiply_by_quantized_multiplier(acc, multipliers[c], shifts[c]);
    return static_cast<int8_t>(clamp_i32(wrapping_add(scaled, zero_point), act_min, act_max));
  }

  // Channels c..c+3 into out[c..c+3].
  void finish4(int32_t c, const int32_t* acc, int8_t* out) const {
    if (table == nullptr) {
      for (int32_t i = 0; i < 4; ++i) out[c + i] = finish(c + i, acc[i]);
      return;
    }
    auto twice = [](int32_t a) { return static_cast<int32_t>(static_cast<uint32_t>(a) << 1); };
    finish4_fast(table + c, twice(acc[0]), twice(acc[1]), twice(acc[2]), twice(acc[3]),
                 act_min4, act_max4, out + c);
  }
};

// taps: the most filter taps one output sums (kernel_h * kernel_w). table: scratch for
// output_table_bytes(channels), filled here when the fast path applies.
inline Output make_output(const DepthwiseConv2dS8Params& params, const int32_t* multipliers,
                          const int32_t* shifts, const int32_t* bias, int32_t channels,
                          int32_t taps, ChannelRequant* table) {
  Output o;
  o.bias = bias;
  o.multipliers = multipliers;
  o.shifts = shifts;
  o.fast_requant = requant_dsp_applies(multipliers, channels);
  o.zero_point = params.output_zero_point;
  o.act_min = params.act_min;
  o.act_max = params.act_max;
  o.act_min4 = (static_cast<uint32_t>(params.act_min) & 0xFFu) * 0x01010101u;
  o.act_max4 = (static_cast<uint32_t>(params.act_max) & 0xFFu) * 0x01010101u;
  o.table = nullptr;
  if (table == nullptr || !o.fast_requant) return o;
  const int64_t sum_bound = static_cast<int64_t>(taps) * 128 * 255;  // |sum of products|
  for (int32_t c = 0; c < channels; ++c) {
    const int32_t shift = shifts[c];
    if (shift >= 0) return o;  // right == 0
    const int32_t right = -shift;
    const int64_t b = bias != nullptr ? bias[c] : 0;
    const int64_t acc_bound = (b < 0 ? -b : b) + sum_bound;
    if ((acc_bound << 1) >= (int64_t{1} << 31)) return o;  // 2 * acc must fit int32
    const int64_t m = multipliers[c] < 0 ? -static_cast<int64_t>(multipliers[c]) : multipliers[c];
    const int64_t y_bound = ((acc_bound * m) >> 31) + 1;
    const int64_t zp_term = static_cast<int64_t>(params.output_zero_point) * (int64_t{1} << right);
    const int64_t round = int64_t{1} << (right - 1);
    if (y_bound + round + (zp_term < 0 ? -zp_term : zp_term) + 1 >= (int64_t{1} << 31)) {
      return o;
    }
    table[c].bias2 = static_cast<int32_t>(2 * b);
    table[c].multiplier = multipliers[c];
    table[c].right = right;
    table[c].round_zp = static_cast<int32_t>(round + zp_term);
  }
  o.table = table;
  return o;
}

// Four channels' products of one tap added to a0..a3 (channels c..c+3).
inline void mac4(uint32_t x, uint32_t w, uint32_t offset2, int32_t& a0, int32_t& a1, int32_t& a2,
                 int32_t& a3) {
  uint32_t wv = dsp::sxtb16(w);
  uint32_t xv = dsp::sxtab16(offset2, x);
  a0 = dsp::smlabb(xv, wv, a0);
  a2 = dsp::smlatt(xv, wv, a2);
  wv = dsp::sxtb16_ror8(w);
  xv = dsp::sxtab16_ror8(offset2, x);
  a1 = dsp::smlabb(xv, wv, a1);
  a3 = dsp::smlatt(xv, wv, a3);
}

// One output pixel, all channels, any kernel size / stride / dilation / padding: the
// taps inside the image of the window at (y0, x0) (top-left, may be negative).
MOTE_DEPTHWISE_DSP_HOT inline void pixel(const DepthwiseConv2dS8Params& params,
                                         const DepthwiseConv2dShape& shape, const Output& out,
                                         const int8_t* image, const int8_t* filter, int32_t y0,
                                         int32_t x0, int8_t* output) {
  const int32_t channels = shape.in_c;
  const int32_t in_row_stride = shape.in_w * channels;
  const int32_t filter_row_stride = shape.kernel_w * channels;
  const int32_t input_offset = -params.input_zero_point;
  const uint32_t offset2 = dsp::pack16(input_offset, input_offset);
  const TapRange ky_range = taps_inside(y0, params.window.dilation_h, shape.kernel_h, shape.in_h);
  const TapRange kx_range = taps_inside(x0, params.window.dilation_w, shape.kernel_w, shape.in_w);
  const int32_t ky_count = ky_range.end - ky_range.begin;
  const int32_t kx_count = kx_range.end - kx_range.begin;
  if (ky_count == 0 || kx_count == 0) {
    for (int32_t c = 0; c < channels; ++c) output[c] = out.finish(c, out.bias_of(c));
    return;
  }
  const int32_t x_step = params.window.dilation_w * channels;
  const int32_t in_y_step = params.window.dilation_h * in_row_stride;
  const int8_t* const in_base = image + (y0 + ky_range.begin * params.window.dilation_h) * in_row_stride +
                                (x0 + kx_range.begin * params.window.dilation_w) * channels;
  const int8_t* const filter_base =
      filter + ky_range.begin * filter_row_stride + kx_range.begin * channels;

  int32_t c = 0;
  for (; c + 4 <= channels; c += 4) {
    int32_t a0 = out.bias_of(c), a1 = out.bias_of(c + 1), a2 = out.bias_of(c + 2),
            a3 = out.bias_of(c + 3);
    const int8_t* in_row = in_base + c;
    const int8_t* filter_row = filter_base + c;
    for (int32_t ky = 0; ky < ky_count; ++ky) {
      const int8_t* ip = in_row;
      const int8_t* wp = filter_row;
      for (int32_t i = 0; i < kx_count; ++i) {
        mac4(dsp::load_u32(ip), dsp::load_u32(wp), offset2, a0, a1, a2, a3);
        ip += x_step;
        wp += channels;
      }
      in_row += in_y_step;
      filter_row += filter_row_stride;
    }
    const int32_t acc[4] = {a0, a1, a2, a3};
    out.finish4(c, acc, output);
  }
  for (; c < channels; ++c) {
    uint32_t acc = static_cast<uint32_t>(out.bias_of(c));
    const int8_t* in_row = in_base + c;
    const int8_t* filter_row = filter_base + c;
    for (int32_t ky = 0; ky < ky_count; ++ky) {
      for (int32_t i = 0; i < kx_count; ++i) {
        acc += static_cast<uint32_t>(filter_row[i * channels] * (in_row[i * x_step] + input_offset));
      }
      in_row += in_y_step;
      filter_row += filter_row_stride;
    }
    output[c] = out.finish(c, static_cast<int32_t>(acc));
  }
}

}  // namespace mote::depthwise_dsp
