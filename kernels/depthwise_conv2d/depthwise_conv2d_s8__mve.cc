// Helium (MVE) int8 depthwise convolution, depth multiplier 1, any window geometry;
// bit-exact with depthwise_conv2d_s8 (see depthwise_conv2d.h).
//
// Algorithm. The input zero point is folded into the bias: with off = -input_zero_point,
//   acc = bias + sum_taps w * (x + off) = (bias + off * sum_taps w) + sum_taps w * x
// where a tap outside the image contributes w * (x + off) = 0, i.e. it reads as x =
// input_zero_point. So each output row reads kernel_h input rows that are "padded" with
// the input zero point: a row lying inside the image and needing no column padding is
// read in place, any other is first written to scratch (image bytes in the middle, the
// zero point around them). All arithmetic is modulo 2^32, so the reordering gives the
// reference's wrapped int32 sum exactly.
//
// Per output row and block of 4 channels (32-bit lanes, the last block tail-predicated),
// 4 output pixels are accumulated at once: per tap one filter load (VLDRB.S32) serves 4
// input loads and 4 multiply-adds (MVE has no vector-by-vector VMLA: VMUL + VADD each).
// The pixels a row has beyond its 4-pixel blocks go 16 channels at a time (one input
// and one filter pointer per tap), the remaining channels two, then one pixel at a time.
//
// Requantization is vectorized and identical to multiply_by_quantized_multiplier:
//   x << max(shift, 0)               VSHL (wrapping, as the reference)
//   SaturatingRoundingDoublingHigh   VQRDMULH (same rounding, ties up, same saturation)
//   RoundingDivideByPOT(v, e)        VRSHL by -e rounds half up: (v + 2^(e-1)) >> e; the
//                                    reference rounds ties away from zero, so for e > 0
//                                    and v < 0 the sum is taken with v - 1 (saturating:
//                                    INT32_MIN stays, which gives the same -2^(31-e)).
//                                    For v < 0 with remainder r: floor + (r > 2^(e-1))
//                                    == floor((v - 1 + 2^(e-1)) / 2^e).
//
// Scratch: per channel the folded bias (int32), kernel_h row pointers, and kernel_h
// padded rows of (out_w - 1) * stride_w + (kernel_w - 1) * dilation_w + 1 pixels.
//
// 3x3 windows with dilation 1, stride_w 1 or 2 and a multiple of 4 channels (every
// MobileNet layer) take a faster path, see "The 3x3 path" below: a ring of 3 transposed
// input rows, blocks of up to 6 pixels x 4 channels, fixed-offset loads. Its scratch is
// the folded bias and the 3 rows (no row pointers), never more than the general path's.
#include "depthwise_conv2d/depthwise_conv2d.h"
#include "depthwise_conv2d/depthwise_conv2d_shapes.h"
#include "isa/mve.h"
#include "kernel_util.h"
#include "quant/quant_check.h"
#include "quant/quant_math.h"

namespace mote {

namespace {

using mve::int32x4_t;
using mve::int8x16_t;
using mve::mve_pred16_t;

struct ScratchLayout {
  uint32_t bias_offset;      // int32[out_c]
  uint32_t rows_ptr_offset;  // kernel_h pointers (8 bytes reserved each)
  uint32_t rows_offset;      // kernel_h rows of padded_w * in_c bytes
  uint32_t padded_w;
  uint32_t total;
};

ScratchLayout scratch_layout(const DepthwiseConv2dS8Params& p, const DepthwiseConv2dShape& s) {
  ScratchLayout l;
  l.padded_w = static_cast<uint32_t>((s.out_w - 1) * p.window.stride_w + (s.kernel_w - 1) * p.window.dilation_w + 1);
  l.bias_offset = 0;
  l.rows_ptr_offset = (static_cast<uint32_t>(s.out_c) * 4u + 7u) & ~7u;
  l.rows_offset = l.rows_ptr_offset + static_cast<uint32_t>(s.kernel_h) * 8u;
  l.total = l.rows_offset + static_cast<uint32_t>(s.kernel_h) * l.padded_w * s.in_c;
  l.total += 8;  // the start is aligned up to 8 bytes inside the kernel
  return l;
}

// Copies n bytes (16 at a time, the tail predicated).
inline void copy_bytes(int8_t* dst, const int8_t* src, int32_t n) {
  int32_t i = 0;
  for (; i + 16 <= n; i += 16) mve::vstrbq_s8(dst + i, mve::vldrbq_s8(src + i));
  if (i < n) {
    const mve_pred16_t pred = mve::vctp8q(static_cast<uint32_t>(n - i));
    mve::vstrbq_p_s8(dst + i, mve::vldrbq_z_s8(src + i, pred), pred);
  }
}

inline void fill_bytes(int8_t* dst, int8_t value, int32_t n) {
  const int8x16_t v = mve::vdupq_n_s8(value);
  int32_t i = 0;
  for (; i + 16 <= n; i += 16) mve::vstrbq_s8(dst + i, v);
  if (i < n) mve::vstrbq_p_s8(dst + i, v, mve::vctp8q(static_cast<uint32_t>(n - i)));
}

// Four channel bytes widened to int32; in the tail block the inactive lanes are 0 and not
// read.
template <bool kTail>
inline int32x4_t load4(const int8_t* p, mve_pred16_t pred) {
  if (kTail) return mve::vldrbq_z_s32(p, pred);
  return mve::vldrbq_s32(p);
}

template <bool kTail>
inline void store4(int8_t* p, int32x4_t v, mve_pred16_t pred) {
  if (kTail) {
    mve::vstrbq_p_s32(p, v, pred);
  } else {
    mve::vstrbq_s32(p, v);
  }
}

struct Requant {
  int32x4_t multiplier, left, right;
  int32x4_t out_zero_point, act_min, act_max;
};

inline int32x4_t requantize(int32x4_t acc, const Requant& q) {
  const int32x4_t shifted = mve::vshlq_s32(acc, q.left);
  const int32x4_t high = mve::vqrdmulhq_s32(shifted, q.multiplier);
  // -1 in lanes with high < 0 and a right shift (q.right < 0), else 0.
  const int32x4_t fixup = MOTE_MVE_VSHRQ_N_S32(mve::vandq_s32(high, q.right), 31);
  const int32x4_t scaled = mve::vrshlq_s32(mve::vqaddq_s32(high, fixup), q.right);
  const int32x4_t out = mve::vaddq_s32(scaled, q.out_zero_point);
  return mve::vminq_s32(mve::vmaxq_s32(out, q.act_min), q.act_max);
}

// One output row, channels [c, c + 4) (fewer in the tail block). kSquare > 0: the
// kernel is kSquare x kSquare (loops unrolled by the compiler); 0: any size.
template <bool kTail, int32_t kSquare>
void row_block(const DepthwiseConv2dS8Params& p, const DepthwiseConv2dShape& s,
               const int8_t* const* rows, const int8_t* filter, const int32_t* bias_folded,
               const int32_t* multipliers, const int32_t* shifts, int32_t c, int32_t ox_begin,
               int32_t ox_end, int8_t* out_row) {
  const int32_t channels = s.in_c;
  const mve_pred16_t pred = mve::vctp32q(static_cast<uint32_t>(channels - c));
  const int32x4_t zero = mve::vdupq_n_s32(0);
  const int32x4_t shift = mve::vldrwq_z_s32(shifts + c, pred);
  Requant q;
  q.multiplier = mve::vldrwq_z_s32(multipliers + c, pred);
  q.left = mve::vmaxq_s32(shift, zero);
  q.right = mve::vminq_s32(shift, zero);
  q.out_zero_point = mve::vdupq_n_s32(p.output_zero_point);
  q.act_min = mve::vdupq_n_s32(p.act_min);
  q.act_max = mve::vdupq_n_s32(p.act_max);
  const int32x4_t bias = mve::vldrwq_z_s32(bias_folded + c, pred);

  const int32_t pixel_step = p.window.stride_w * channels;
  const int32_t tap_step = p.window.dilation_w * channels;
  const int32_t kernel_h = kSquare > 0 ? kSquare : s.kernel_h;
  const int32_t kernel_w = kSquare > 0 ? kSquare : s.kernel_w;
  int32_t ox = ox_begin;
  for (; ox + 4 <= ox_end; ox += 4) {
    int32x4_t acc0 = bias, acc1 = bias, acc2 = bias, acc3 = bias;
    const int8_t* w_ptr = filter + c;
    for (int32_t ky = 0; ky < kernel_h; ++ky) {
      const int8_t* x_ptr = rows[ky] + ox * pixel_step + c;
      for (int32_t kx = 0; kx < kernel_w; ++kx) {
        const int32x4_t w = load4<kTail>(w_ptr, pred);
        acc0 = mve::vmlaq_s32(acc0, load4<kTail>(x_ptr, pred), w);
        acc1 = mve::vmlaq_s32(acc1, load4<kTail>(x_ptr + pixel_step, pred), w);
        acc2 = mve::vmlaq_s32(acc2, load4<kTail>(x_ptr + 2 * pixel_step, pred), w);
        acc3 = mve::vmlaq_s32(acc3, load4<kTail>(x_ptr + 3 * pixel_step, pred), w);
        w_ptr += channels;
        x_ptr += tap_step;
      }
    }
    int8_t* out = out_row + ox * channels + c;
    store4<kTail>(out, requantize(acc0, q), pred);
    store4<kTail>(out + channels, requantize(acc1, q), pred);
    store4<kTail>(out + 2 * channels, requantize(acc2, q), pred);
    store4<kTail>(out + 3 * channels, requantize(acc3, q), pred);
  }
  for (; ox + 2 <= ox_end; ox += 2) {
    int32x4_t acc0 = bias, acc1 = bias;
    const int8_t* w_ptr = filter + c;
    for (int32_t ky = 0; ky < kernel_h; ++ky) {
      const int8_t* x_ptr = rows[ky] + ox * pixel_step + c;
      for (int32_t kx = 0; kx < kernel_w; ++kx) {
        const int32x4_t w = load4<kTail>(w_ptr, pred);
        acc0 = mve::vmlaq_s32(acc0, load4<kTail>(x_ptr, pred), w);
        acc1 = mve::vmlaq_s32(acc1, load4<kTail>(x_ptr + pixel_step, pred), w);
        w_ptr += channels;
        x_ptr += tap_step;
      }
    }
    int8_t* out = out_row + ox * channels + c;
    store4<kTail>(out, requantize(acc0, q), pred);
    store4<kTail>(out + channels, requantize(acc1, q), pred);
  }
  for (; ox < ox_end; ++ox) {
    int32x4_t acc = bias;
    const int8_t* w_ptr = filter + c;
    for (int32_t ky = 0; ky < kernel_h; ++ky) {
      const int8_t* x_ptr = rows[ky] + ox * pixel_step + c;
      for (int32_t kx = 0; kx < kernel_w; ++kx) {
        acc = mve::vmlaq_s32(acc, load4<kTail>(x_ptr, pred), load4<kTail>(w_ptr, pred));
        w_ptr += channels;
        x_ptr += tap_step;
      }
    }
    store4<kTail>(out_row + ox * channels + c, requantize(acc, q), pred);
  }
}

// One output pixel, channels [c, c + 16) (all present): per tap 4 filter and 4 input loads
// from one pointer each. For the pixels of a row left over by the 4-pixel blocks.
template <int32_t kSquare>
void pixel16(const DepthwiseConv2dS8Params& p, const DepthwiseConv2dShape& s,
             const int8_t* const* rows, const int8_t* filter, const int32_t* bias_folded,
             const int32_t* multipliers, const int32_t* shifts, int32_t c, int32_t ox,
             int8_t* out_row) {
  const int32_t channels = s.in_c;
  const int32_t tap_step = p.window.dilation_w * channels;
  const int32_t kernel_h = kSquare > 0 ? kSquare : s.kernel_h;
  const int32_t kernel_w = kSquare > 0 ? kSquare : s.kernel_w;
  int32x4_t acc0 = mve::vldrwq_s32(bias_folded + c);
  int32x4_t acc1 = mve::vldrwq_s32(bias_folded + c + 4);
  int32x4_t acc2 = mve::vldrwq_s32(bias_folded + c + 8);
  int32x4_t acc3 = mve::vldrwq_s32(bias_folded + c + 12);
  const int8_t* w_ptr = filter + c;
  for (int32_t ky = 0; ky < kernel_h; ++ky) {
    const int8_t* x_ptr = rows[ky] + ox * p.window.stride_w * channels + c;
    for (int32_t kx = 0; kx < kernel_w; ++kx) {
      acc0 = mve::vmlaq_s32(acc0, mve::vldrbq_s32(x_ptr), mve::vldrbq_s32(w_ptr));
      acc1 = mve::vmlaq_s32(acc1, mve::vldrbq_s32(x_ptr + 4), mve::vldrbq_s32(w_ptr + 4));
      acc2 = mve::vmlaq_s32(acc2, mve::vldrbq_s32(x_ptr + 8), mve::vldrbq_s32(w_ptr + 8));
      acc3 = mve::vmlaq_s32(acc3, mve::vldrbq_s32(x_ptr + 12), mve::vldrbq_s32(w_ptr + 12));
      w_ptr += channels;
      x_ptr += tap_step;
    }
  }
  const int32x4_t zero = mve::vdupq_n_s32(0);
  const int32x4_t accs[4] = {acc0, acc1, acc2, acc3};
  int8_t* out = out_row + ox * channels + c;
  for (int32_t j = 0; j < 4; ++j) {
    const int32x4_t shift = mve::vldrwq_s32(shifts + c + 4 * j);
    Requant q;
    q.multiplier = mve::vldrwq_s32(multipliers + c + 4 * j);
    q.left = mve::vmaxq_s32(shift, zero);
    q.right = mve::vminq_s32(shift, zero);
    q.out_zero_point = mve::vdupq_n_s32(p.output_zero_point);
    q.act_min = mve::vdupq_n_s32(p.act_min);
    q.act_max = mve::vdupq_n_s32(p.act_max);
    mve::vstrbq_s32(out + 4 * j, requantize(accs[j], q));
  }
}

// One output row: 4-channel blocks over the 4-pixel blocks of the row; the pixels left
// over go 16 channels at a time where the channels allow it.
template <int32_t kSquare>
void output_row(const DepthwiseConv2dS8Params& p, const DepthwiseConv2dShape& s,
                const int8_t* const* rows, const int8_t* filter, const int32_t* bias_folded,
                const int32_t* multipliers, const int32_t* shifts, int8_t* out_row) {
  const int32_t channels = s.in_c;
  const int32_t main_w = channels >= 16 ? s.out_w - s.out_w % 4 : s.out_w;
  int32_t c = 0;
  if (main_w > 0) {
    for (; c + 4 <= channels; c += 4) {
      row_block<false, kSquare>(p, s, rows, filter, bias_folded, multipliers, shifts, c, 0,
                                main_w, out_row);
    }
    if (c < channels) {
      row_block<true, kSquare>(p, s, rows, filter, bias_folded, multipliers, shifts, c, 0,
                               main_w, out_row);
    }
  }
  if (main_w == s.out_w) return;
  c = 0;
  for (; c + 16 <= channels; c += 16) {
    for (int32_t ox = main_w; ox < s.out_w; ++ox) {
      pixel16<kSquare>(p, s, rows, filter, bias_folded, multipliers, shifts, c, ox, out_row);
    }
  }
  for (; c + 4 <= channels; c += 4) {
    row_block<false, kSquare>(p, s, rows, filter, bias_folded, multipliers, shifts, c, main_w,
                              s.out_w, out_row);
  }
  if (c < channels) {
    row_block<true, kSquare>(p, s, rows, filter, bias_folded, multipliers, shifts, c, main_w,
                             s.out_w, out_row);
  }
}


// ---------------------------------------------------------------------------------------
// The 3x3 path (dilation 1, stride_w 1 or 2, channels a multiple of 4).
//
// Input rows are copied once each into a ring of 3 scratch rows, transposed to channel
// blocks: a row is [C / 4][padded_w][4] bytes (4 channels of a column together, the
// columns of a block one after another), the padding columns holding the input zero
// point. So inside a block of 4 channels every tap of every pixel is at a constant
// offset from one pointer per input row (immediate offsets, no address arithmetic), and
// each input row is copied once (the ring keeps it for the next output rows), before the
// output row that first needs it is written (in place: the output row never overlaps
// input rows still to be copied, see pixel_stream_block).
//
// Per output row, per block of 4 output pixels (the row's last 1..3 pixels in a block of
// their own), per block of 4 channels (32-bit lanes): per tap one filter load, P input
// loads and P multiply-adds (VMUL + VADD, one asm statement each so GCC keeps them in
// registers), then the requantization of the P vectors.

bool fast_path(const DepthwiseConv2dS8Params& p, const DepthwiseConv2dShape& s) {
  return s.kernel_h == 3 && s.kernel_w == 3 && p.window.dilation_h == 1 && p.window.dilation_w == 1 &&
         (p.window.stride_w == 1 || p.window.stride_w == 2) && p.window.stride_h >= 1 && s.in_c % 4 == 0 &&
         p.depth_multiplier == 1;
}

constexpr int32_t kRing = 3;

struct FastLayout {
  uint64_t bias_offset;     // int32[C]
  uint64_t rows_offset;     // kRing rows of padded_w * C bytes (16-byte aligned)
  uint64_t padded_w;
  uint64_t total;
};

FastLayout fast_layout(const DepthwiseConv2dS8Params& p, const DepthwiseConv2dShape& s) {
  FastLayout l;
  const uint64_t c = static_cast<uint64_t>(s.in_c);
  l.padded_w = static_cast<uint64_t>(s.out_w - 1) * static_cast<uint32_t>(p.window.stride_w) + 3;
  l.bias_offset = 0;
  l.rows_offset = 4 * c;  // a multiple of 16
  l.total = l.rows_offset + kRing * l.padded_w * c + 8;  // + 8: the start is aligned up
  return l;
}

struct FastRequant {
  int32x4_t multiplier, left, right, act_min, act_max;
  int32_t out_zero_point;
};

// As requantize(); kLeft false: every shift of the layer is negative (no left shift, and
// the rounding fix-up applies to every lane).
template <bool kLeft>
__attribute__((always_inline)) inline int32x4_t fast_requantize(int32x4_t acc,
                                                                const FastRequant& q) {
  if (kLeft) acc = mve::vshlq_s32(acc, q.left);
  const int32x4_t high = mve::vqrdmulhq_s32(acc, q.multiplier);
  const int32x4_t fixup = kLeft ? MOTE_MVE_VSHRQ_N_S32(mve::vandq_s32(high, q.right), 31)
                                : MOTE_MVE_VSHRQ_N_S32(high, 31);
  const int32x4_t scaled = mve::vrshlq_s32(mve::vqaddq_s32(high, fixup), q.right);
  const int32x4_t out = mve::vaddq_n_s32(scaled, q.out_zero_point);
  return mve::vminq_s32(mve::vmaxq_s32(out, q.act_min), q.act_max);
}

// `p` advanced by `step` bytes, opaque to the optimizer: the filter and output addresses
// of a channel block are formed as a chain of additions to one register (left to itself
// GCC keeps one induction variable per tap, more than there are registers).
__attribute__((always_inline)) inline const int8_t* fast_advance(const int8_t* p, int32_t step) {
  p += step;
  asm("" : "+r"(p));
  return p;
}
__attribute__((always_inline)) inline int8_t* fast_advance(int8_t* p, int32_t step) {
  p += step;
  asm("" : "+r"(p));
  return p;
}

// One filter tap (its 4 weights at w) into P accumulators: pixel k reads column
// k * kStride + kX of the channel block in `row` (4 bytes a column).
template <int32_t kStride, int32_t kK, int32_t kX>
__attribute__((always_inline)) inline void fast_mla(int32x4_t* acc, const int8_t* row,
                                                    int32x4_t wv, int32x4_t bias,
                                                    bool first) {
  if (first) {
    acc[kK] = mve::vldrb_mlaq_s32_at_to<4 * (kK * kStride + kX)>(bias, row, wv);
  } else {
    acc[kK] = mve::vldrb_mlaq_s32_at<4 * (kK * kStride + kX)>(acc[kK], row, wv);
  }
}

// first: the accumulators start from bias (the block's first tap).
template <int32_t kStride, int32_t kP, int32_t kX>
__attribute__((always_inline)) inline void fast_tap(int32x4_t* acc, const int8_t* row,
                                                    const int8_t* w, int32x4_t bias,
                                                    bool first) {
  const int32x4_t wv = mve::vldrbq_s32_at<0>(w);
  fast_mla<kStride, 0, kX>(acc, row, wv, bias, first);
  if constexpr (kP > 1) fast_mla<kStride, 1, kX>(acc, row, wv, bias, first);
  if constexpr (kP > 2) fast_mla<kStride, 2, kX>(acc, row, wv, bias, first);
  if constexpr (kP > 3) fast_mla<kStride, 3, kX>(acc, row, wv, bias, first);
  if constexpr (kP > 4) fast_mla<kStride, 4, kX>(acc, row, wv, bias, first);
  if constexpr (kP > 5) fast_mla<kStride, 5, kX>(acc, row, wv, bias, first);
}

// The three taps of one filter row; w is left at the next filter row.
template <int32_t kStride, int32_t kP>
__attribute__((always_inline)) inline void fast_tap_row(int32x4_t* acc, const int8_t* row,
                                                        const int8_t*& w, int32_t channels,
                                                        int32x4_t bias, bool first) {
  fast_tap<kStride, kP, 0>(acc, row, w, bias, first);
  w = fast_advance(w, channels);
  fast_tap<kStride, kP, 1>(acc, row, w, bias, false);
  w = fast_advance(w, channels);
  fast_tap<kStride, kP, 2>(acc, row, w, bias, false);
  w = fast_advance(w, channels);
}

// `blocks` blocks of P output pixels (starting at the ring rows' column 0 and at out),
// every channel block of each.
template <int32_t kStride, int32_t kP, bool kLeft>
__attribute__((noinline)) void fast_pixels(const int8_t* row0, const int8_t* row1,
                                           const int8_t* row2, int32_t plane,
                                           const int8_t* filter, const int32_t* bias_folded,
                                           const int32_t* multipliers, const int32_t* shifts,
                                           int32_t channels, const FastRequant& limits,
                                           int8_t* out_begin, int32_t blocks) {
  const int32x4_t zero = mve::vdupq_n_s32(0);
  FastRequant q = limits;
  for (int32_t b = 0; b < blocks; ++b) {
  const int8_t* r0 = row0 + b * (4 * kP * kStride);
  const int8_t* r1 = row1 + b * (4 * kP * kStride);
  const int8_t* r2 = row2 + b * (4 * kP * kStride);
  int8_t* out = out_begin + b * kP * channels;
  for (int32_t c = 0; c < channels; c += 4) {
    const int32x4_t shift = mve::vldrwq_s32(shifts + c);
    q.multiplier = mve::vldrwq_s32(multipliers + c);
    if (kLeft) {
      q.left = mve::vmaxq_s32(shift, zero);
      q.right = mve::vminq_s32(shift, zero);
    } else {
      q.right = shift;
    }
    const int32x4_t bias = mve::vldrwq_s32(bias_folded + c);
    int32x4_t acc[kP];
    const int8_t* w = filter + c;
    fast_tap_row<kStride, kP>(acc, r0, w, channels, bias, true);
    fast_tap_row<kStride, kP>(acc, r1, w, channels, bias, false);
    fast_tap_row<kStride, kP>(acc, r2, w, channels, bias, false);
    int8_t* o = out + c;
    mve::vstrbq_s32(o, fast_requantize<kLeft>(acc[0], q));
    if constexpr (kP > 1) {
      o = fast_advance(o, channels);
      mve::vstrbq_s32(o, fast_requantize<kLeft>(acc[1], q));
    }
    if constexpr (kP > 2) {
      o = fast_advance(o, channels);
      mve::vstrbq_s32(o, fast_requantize<kLeft>(acc[2], q));
    }
    if constexpr (kP > 3) {
      o = fast_advance(o, channels);
      mve::vstrbq_s32(o, fast_requantize<kLeft>(acc[3], q));
    }
    if constexpr (kP > 4) {
      o = fast_advance(o, channels);
      mve::vstrbq_s32(o, fast_requantize<kLeft>(acc[4], q));
    }
    if constexpr (kP > 5) {
      o = fast_advance(o, channels);
      mve::vstrbq_s32(o, fast_requantize<kLeft>(acc[5], q));
    }
    r0 += plane;
    r1 += plane;
    r2 += plane;
  }
  }
}

// One output row from the three ring rows: blocks of 4 pixels, then the 1..3 left over.
template <int32_t kStride, bool kLeft>
void fast_output_row(const DepthwiseConv2dS8Params& p, const DepthwiseConv2dShape& s,
                     const int8_t* const* rows, int32_t plane, const int8_t* filter,
                     const int32_t* bias_folded, const int32_t* multipliers,
                     const int32_t* shifts, int8_t* out_row) {
  const int32_t channels = s.in_c;
  FastRequant limits;
  limits.act_min = mve::vdupq_n_s32(p.act_min);
  limits.act_max = mve::vdupq_n_s32(p.act_max);
  limits.out_zero_point = p.output_zero_point;
  const int8_t* r0 = rows[0];
  const int8_t* r1 = rows[1];
  const int8_t* r2 = rows[2];
  if (s.out_w == 5) {  // one block of 5 pixels (kws_ref_model's rows)
    fast_pixels<kStride, 5, kLeft>(r0, r1, r2, plane, filter, bias_folded, multipliers, shifts,
                                   channels, limits, out_row, 1);
    return;
  }
  if (s.out_w == 6) {  // one block of 6 pixels
    fast_pixels<kStride, 6, kLeft>(r0, r1, r2, plane, filter, bias_folded, multipliers, shifts,
                                   channels, limits, out_row, 1);
    return;
  }
  const int32_t blocks = s.out_w / 4;
  if (blocks > 0) {
    fast_pixels<kStride, 4, kLeft>(r0, r1, r2, plane, filter, bias_folded, multipliers, shifts,
                                   channels, limits, out_row, blocks);
  }
  const int32_t done = 4 * blocks;
  r0 += 4 * kStride * done;
  r1 += 4 * kStride * done;
  r2 += 4 * kStride * done;
  int8_t* out = out_row + done * channels;
  const int32_t n = s.out_w - done;
  if (n == 3) {
    fast_pixels<kStride, 3, kLeft>(r0, r1, r2, plane, filter, bias_folded, multipliers, shifts,
                                   channels, limits, out, 1);
  } else if (n == 2) {
    fast_pixels<kStride, 2, kLeft>(r0, r1, r2, plane, filter, bias_folded, multipliers, shifts,
                                   channels, limits, out, 1);
  } else if (n == 1) {
    fast_pixels<kStride, 1, kLeft>(r0, r1, r2, plane, filter, bias_folded, multipliers, shifts,
                                   channels, limits, out, 1);
  }
}

// Ring row = input row y of `image` (zero-point row outside the image), transposed to
// [C / 4][padded_w][4]; the padding columns already hold the zero point.
void fast_fill_row(int8_t* dst, const int8_t* image, int32_t y, const DepthwiseConv2dS8Params& p,
                   const DepthwiseConv2dShape& s, int32_t padded_w, int8_t zero_point) {
  const int32_t channels = s.in_c;
  if (y < 0 || y >= s.in_h) {
    fill_bytes(dst, zero_point, padded_w * channels);
    return;
  }
  const int32_t x0 = -p.window.pad_left;
  const int32_t x_begin = x0 < 0 ? 0 : x0;
  const int32_t x_end = x0 + padded_w < s.in_w ? x0 + padded_w : s.in_w;
  const int32_t plane = padded_w * 4;
  int32x4_t offsets = mve::vdupq_n_s32(0);
  offsets = mve::vsetq_lane_s32<1>(plane, offsets);
  offsets = mve::vsetq_lane_s32<2>(2 * plane, offsets);
  offsets = mve::vsetq_lane_s32<3>(3 * plane, offsets);
  const int8_t* src = image + (y * s.in_w + x_begin) * channels;
  int8_t* col = dst + (x_begin - x0) * 4;
  if (16 % channels == 0) {
    // 4, 8 or 16 channels: the row's words in order, 16 bytes (16 / C pixels) at a time;
    // word j of a vector is word j % m (m = C / 4) of pixel j / m.
    const int32_t m = channels / 4;
    int32x4_t words_at = mve::vdupq_n_s32(0);
    words_at = mve::vsetq_lane_s32<1>((1 % m) * plane + (1 / m) * 4, words_at);
    words_at = mve::vsetq_lane_s32<2>((2 % m) * plane + (2 / m) * 4, words_at);
    words_at = mve::vsetq_lane_s32<3>((3 % m) * plane + (3 / m) * 4, words_at);
    const int32_t step = 16 / m;
    const int32_t words = x_end > x_begin ? (x_end - x_begin) * m : 0;
    int32_t i = 0;
    for (; i + 4 <= words; i += 4) {
      mve::vstrwq_scatter_offset_s32(reinterpret_cast<int32_t*>(col), words_at,
                                     mve::vreinterpretq_s32_s8(mve::vldrbq_s8(src)));
      src += 16;
      col += step;
    }
    if (i < words) {
      const uint32_t rest = static_cast<uint32_t>(words - i);
      mve::vstrwq_scatter_offset_p_s32(
          reinterpret_cast<int32_t*>(col), words_at,
          mve::vreinterpretq_s32_s8(mve::vldrbq_z_s8(src, mve::vctp8q(4 * rest))),
          mve::vctp32q(rest));
    }
    return;
  }
  const int32_t chunks = channels / 16;
  const int32_t rest_words = (channels % 16) / 4;
  const mve_pred16_t rest_bytes_pred = mve::vctp8q(static_cast<uint32_t>(rest_words * 4));
  const mve_pred16_t rest_words_pred = mve::vctp32q(static_cast<uint32_t>(rest_words));
  for (int32_t x = x_begin; x < x_end; ++x) {
    const int8_t* sp = src;
    int8_t* dp = col;
    for (int32_t j = 0; j < chunks; ++j) {
      mve::vstrwq_scatter_offset_s32(reinterpret_cast<int32_t*>(dp), offsets,
                                     mve::vreinterpretq_s32_s8(mve::vldrbq_s8(sp)));
      sp += 16;
      dp += 4 * plane;
    }
    if (rest_words != 0) {
      mve::vstrwq_scatter_offset_p_s32(
          reinterpret_cast<int32_t*>(dp), offsets,
          mve::vreinterpretq_s32_s8(mve::vldrbq_z_s8(sp, rest_bytes_pred)), rest_words_pred);
    }
    src += channels;
    col += 4;
  }
}

void fast_depthwise(const DepthwiseConv2dS8Params& params, const int32_t* multipliers,
                    const int32_t* shifts, const DepthwiseConv2dShape& shape,
                    const int8_t* input, const int8_t* filter, const int32_t* bias,
                    int8_t* output, uint8_t* scratch) {
  const FastLayout layout = fast_layout(params, shape);
  uint8_t* base = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(scratch) + 7u) & ~uintptr_t{7});
  int32_t* bias_folded = reinterpret_cast<int32_t*>(base + layout.bias_offset);
  int8_t* ring = reinterpret_cast<int8_t*>(base + layout.rows_offset);
  const int32_t channels = shape.in_c;
  const int32_t padded_w = static_cast<int32_t>(layout.padded_w);
  const int32_t row_bytes = padded_w * channels;
  const int32_t plane = padded_w * 4;
  const int8_t zero_point = static_cast<int8_t>(params.input_zero_point);

  // bias + off * sum of the channel's taps.
  const int32x4_t offset = mve::vdupq_n_s32(-params.input_zero_point);
  bool any_left = false;
  for (int32_t c = 0; c < channels; c += 4) {
    int32x4_t acc = bias != nullptr ? mve::vldrwq_s32(bias + c) : mve::vdupq_n_s32(0);
    for (int32_t t = 0; t < 9; ++t) {
      acc = mve::vmlaq_s32(acc, mve::vldrbq_s32(filter + t * channels + c), offset);
    }
    mve::vstrwq_p_s32(bias_folded + c, acc, mve::vctp32q(4));
    for (int32_t i = 0; i < 4; ++i) any_left = any_left || shifts[c + i] >= 0;
  }

  fill_bytes(ring, zero_point, kRing * row_bytes);
  const int8_t* rows[kRing];
  const int32_t in_image_stride = shape.in_h * shape.in_w * channels;
  const int32_t out_row_bytes = shape.out_w * channels;
  for (int32_t b = 0; b < shape.batch; ++b) {
    const int8_t* image = input + b * in_image_stride;
    int32_t slot_y[kRing] = {INT32_MIN, INT32_MIN, INT32_MIN};
    for (int32_t oy = 0; oy < shape.out_h; ++oy) {
      const int32_t y0 = oy * params.window.stride_h - params.window.pad_top;
      for (int32_t ky = 0; ky < 3; ++ky) {
        const int32_t y = y0 + ky;
        const int32_t slot = ((y % kRing) + kRing) % kRing;
        int8_t* row = ring + slot * row_bytes;
        if (slot_y[slot] != y) {
          fast_fill_row(row, image, y, params, shape, padded_w, zero_point);
          slot_y[slot] = y;
        }
        rows[ky] = row;
      }
      int8_t* out_row = output + (b * shape.out_h + oy) * out_row_bytes;
      if (params.window.stride_w == 1) {
        if (any_left) {
          fast_output_row<1, true>(params, shape, rows, plane, filter, bias_folded,
                                   multipliers, shifts, out_row);
        } else {
          fast_output_row<1, false>(params, shape, rows, plane, filter, bias_folded,
                                    multipliers, shifts, out_row);
        }
      } else if (any_left) {
        fast_output_row<2, true>(params, shape, rows, plane, filter, bias_folded,
                                 multipliers, shifts, out_row);
      } else {
        fast_output_row<2, false>(params, shape, rows, plane, filter, bias_folded,
                                  multipliers, shifts, out_row);
      }
    }
  }
}

uint64_t scratch_need(const DepthwiseConv2dS8Params& p, const DepthwiseConv2dShape& s) {
  if (fast_path(p, s)) return fast_layout(p, s).total;
  const uint64_t padded_w = static_cast<uint64_t>(s.out_w - 1) * static_cast<uint32_t>(p.window.stride_w) +
                            static_cast<uint64_t>(s.kernel_w - 1) * static_cast<uint32_t>(p.window.dilation_w) + 1;
  return ((static_cast<uint64_t>(s.out_c) * 4 + 7) & ~uint64_t{7}) +
         static_cast<uint64_t>(s.kernel_h) * 8 +
         static_cast<uint64_t>(s.kernel_h) * padded_w * s.in_c + 8;
}

}  // namespace

uint32_t depthwise_conv2d_s8__mve_scratch_bytes(const DepthwiseConv2dS8Params& params,
                                                const DepthwiseConv2dShape& shape) {
  return static_cast<uint32_t>(scratch_need(params, shape));
}

void depthwise_conv2d_s8__mve(const DepthwiseConv2dS8Params& params, const int32_t* multipliers,
                              const int32_t* shifts, const DepthwiseConv2dShape& shape,
                              const int8_t* input, const int8_t* filter, const int32_t* bias,
                              int8_t* output, uint8_t* scratch) {
  if (fast_path(params, shape)) {
    fast_depthwise(params, multipliers, shifts, shape, input, filter, bias, output, scratch);
    return;
  }
  const ScratchLayout layout = scratch_layout(params, shape);
  uint8_t* base = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(scratch) + 7u) & ~uintptr_t{7});
  int32_t* bias_folded = reinterpret_cast<int32_t*>(base + layout.bias_offset);
  const int8_t** rows = reinterpret_cast<const int8_t**>(base + layout.rows_ptr_offset);
  int8_t* row_buffers = reinterpret_cast<int8_t*>(base + layout.rows_offset);

  const int32_t channels = shape.in_c;
  const int32_t taps = shape.kernel_h * shape.kernel_w;
  const int32_t padded_w = static_cast<int32_t>(layout.padded_w);
  const int32_t row_bytes = padded_w * channels;
  const int32_t in_row_stride = shape.in_w * channels;
  const int32_t in_image_stride = shape.in_h * in_row_stride;
  const int8_t zero_point = static_cast<int8_t>(params.input_zero_point);

  // bias + off * sum of the channel's taps.
  const int32x4_t offset = mve::vdupq_n_s32(-params.input_zero_point);
  for (int32_t c = 0; c < channels; c += 4) {
    const mve_pred16_t pred = mve::vctp32q(static_cast<uint32_t>(channels - c));
    int32x4_t acc = bias != nullptr ? mve::vldrwq_z_s32(bias + c, pred) : mve::vdupq_n_s32(0);
    for (int32_t t = 0; t < taps; ++t) {
      acc = mve::vmlaq_s32(acc, mve::vldrbq_z_s32(filter + t * channels + c, pred), offset);
    }
    mve::vstrwq_p_s32(bias_folded + c, acc, pred);
  }

  // Columns x0 .. x0 + padded_w - 1 of each input row are read; those inside the image:
  const int32_t x0 = -params.window.pad_left;
  const int32_t x_begin = x0 < 0 ? 0 : x0;
  const int32_t x_end = x0 + padded_w < shape.in_w ? x0 + padded_w : shape.in_w;
  const bool rows_in_place = x0 >= 0 && x0 + padded_w <= shape.in_w;
  const int32_t left_cells = x_begin - x0;
  const int32_t inside_cells = x_end > x_begin ? x_end - x_begin : 0;

  const int32_t out_row_bytes = shape.out_w * channels;
  for (int32_t b = 0; b < shape.batch; ++b) {
    const int8_t* image = input + b * in_image_stride;
    for (int32_t oy = 0; oy < shape.out_h; ++oy) {
      const int32_t y0 = oy * params.window.stride_h - params.window.pad_top;
      for (int32_t ky = 0; ky < shape.kernel_h; ++ky) {
        const int32_t y = y0 + ky * params.window.dilation_h;
        const bool y_inside = y >= 0 && y < shape.in_h;
        if (y_inside && rows_in_place) {
          rows[ky] = image + y * in_row_stride + x0 * channels;
          continue;
        }
        int8_t* row = row_buffers + ky * row_bytes;
        if (!y_inside) {
          fill_bytes(row, zero_point, row_bytes);
        } else {
          fill_bytes(row, zero_point, left_cells * channels);
          copy_bytes(row + left_cells * channels, image + y * in_row_stride + x_begin * channels,
                     inside_cells * channels);
          const int32_t right = (left_cells + inside_cells) * channels;
          fill_bytes(row + right, zero_point, row_bytes - right);
        }
        rows[ky] = row;
      }
      int8_t* out_row = output + (b * shape.out_h + oy) * out_row_bytes;
      if (shape.kernel_h == 3 && shape.kernel_w == 3) {
        output_row<3>(params, shape, rows, filter, bias_folded, multipliers, shifts, out_row);
      } else {
        output_row<0>(params, shape, rows, filter, bias_folded, multipliers, shifts, out_row);
      }
    }
  }
}

Status depthwise_conv2d_s8__mve_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(depthwise_conv2d_s8_check(ctx));
  const DepthwiseConv2dS8Params& p = ctx.params<DepthwiseConv2dS8Params>();
  if (p.depth_multiplier != 1) return Status::kBadParams;
  const DepthwiseConv2dShape shape =
      window_shape(ctx.input_desc(0), ctx.input_desc(1), ctx.output_desc(0));
  if (shape.out_w < 1 || shape.out_h < 1) return Status::kBadParams;
  if (ctx.scratch().size() < scratch_need(p, shape)) return Status::kBadParams;
  return Status::kOk;
}

void depthwise_conv2d_s8__mve_run(const OpContext& ctx) {
  const TensorDesc& filter = ctx.input_desc(1);
  const DepthwiseConv2dShape shape =
      window_shape(ctx.input_desc(0), filter, ctx.output_desc(0));
  const DepthwiseConv2dS8Params& p = ctx.params<DepthwiseConv2dS8Params>();
  const uint32_t out_c = filter.dims[3];
  const int32_t* bias =
      ctx.input_count() == 3 ? static_cast<const int32_t*>(ctx.input_data(2)) : nullptr;
  depthwise_conv2d_s8__mve(p, params_array(p, 0, out_c), params_array(p, 1, out_c), shape,
                           static_cast<const int8_t*>(ctx.input_data(0)),
                           static_cast<const int8_t*>(ctx.input_data(1)), bias,
                           static_cast<int8_t*>(ctx.output_data(0)), ctx.scratch().data());
}

const KernelEntry kDepthwiseConv2dS8MveEntry = {depthwise_conv2d_s8__mve_check,
                                                depthwise_conv2d_s8__mve_run};

}  // namespace mote
