// ARMv6-M (Cortex-M0/M0+) int8 convolution, any KH x KW, stride, dilation and padding,
// groups == 1, bit-exact with conv2d_s8. Thumb-1 has no SIMD and no 64-bit multiply, so
// the speed comes from
//  - register blocking: four output channels per inner loop (v6m::dot_4x1, 4 instructions
//    per multiply-accumulate), so each input byte is loaded and offset once for four;
//  - contiguous runs: with dilation_w == 1 the KW taps of a window row are KW * C
//    consecutive bytes of both the input row and the filter row, one inner loop each;
//  - no division per pixel where the window lies inside the image (taps_inside() only at
//    the borders);
//  - requantization without __aeabi_lmul (quant/quant_math_v6m.h);
//  - the folded path, for runs of 16 pixels or more or with the compiler's folded biases
//    (below): once per run the scratch gets per
//    output channel the bias with the input offset folded in (bias + offset * the sum of
//    the channel's weights: sum w * (x + offset) = sum w * x + offset * sum w, exact in
//    wrapping int32 arithmetic) and, for the channels whose multiplier and shift allow
//    it, requant_v6m_right_s8's prepared constants (with the requant floor that skips the
//    arithmetic for outputs clamped to act_min, from 128 pixels). A 1x1 kernel without
//    padding (the pointwise layers of MobileNet and DS-CNN) reads each pixel's C inputs in
//    place; any other window is first copied into a patch in the scratch in the filter's
//    [KH, KW, C] order, its outside taps at the input zero point (w * (zp - zp) = 0 with
//    the folded offset, as the reference skips them). Either way one pixel is one run of
//    KH * KW * C bytes against each channel's contiguous filter, and the inner loop needs
//    no offset addition (v6m::folded_blocks_4, 57 instructions per 16 multiply-accumulates).
//    The 1x1 path with even channel counts takes its pixels in pairs: the two pixels'
//    inputs packed into int32 lanes in the scratch, so that one MULS makes two products
//    (v6m::dot_2x2_packed, two channels of two pixels, 24 instructions per 8
//    multiply-accumulates). With ReLU-like output ranges (act_min >= the output zero
//    point) and exact floors in every channel, the requantization skips what only outputs
//    below the floor need (requant_v6m_positive_s8: no rounding of negative values, no
//    lower clamp, one rounding shift for sums inside [-2^15, 2^15)).
// The int32 accumulators are uint32 and wrap exactly like the reference's (a sum mod 2^32
// in any order).
#include <string.h>

#include "conv2d/conv2d.h"
#include "conv2d/conv2d_shapes.h"
#include "isa/v6m.h"
#include "isa/v6m_folded.h"
#include "kernel_util.h"
#include "quant/quant_check.h"
#include "quant/quant_math_v6m.h"

namespace mote {
namespace {

// The taps of one output pixel's window that lie inside the image, as runs of
// consecutive bytes in both the input and the filter: `rows` x `cols` runs of `len`
// bytes, the first at x_first (from the image) and w_first (from output channel 0's
// filter), the next row x_row / w_row further, the next column x_col / w_col further.
// With dilation_w == 1 a window row is one run (cols == 1, len = taps * C).
struct Runs {
  int32_t rows, cols, len;
  int32_t x_first, w_first;
  int32_t x_row, w_row, x_col, w_col;
};

// What every output value's requantization needs.
struct Output {
  const int32_t* multipliers;
  const int32_t* shifts;
  const int32_t* bias;  // may be null
  int32_t zero_point, act_min, act_max;
};

// The finished int8 output of channel oc from its accumulator (bias not yet added).
// Inlined: the output parameters then stay in registers across a block's four outputs.
__attribute__((always_inline)) inline int8_t finish(uint32_t acc, const Output& o, int32_t oc) {
  if (o.bias != nullptr) acc += static_cast<uint32_t>(o.bias[oc]);
  return requant_v6m_s8(static_cast<int32_t>(acc), o.multipliers[oc], o.shifts[oc],
                        o.zero_point, o.act_min, o.act_max);
}

// Every output channel of one pixel: four channels per inner loop, then one at a time.
__attribute__((noinline)) void pixel(const Runs& r, const int8_t* image, const int8_t* filter,
                                     int32_t filter_oc_stride, int32_t out_c, int32_t off,
                                     const Output& o, int8_t* out) {
  const int8_t* x0 = image + r.x_first;
  int32_t oc = 0;
  if (r.rows == 1 && r.cols == 1) {  // one run (1x1 kernels): no loops around the dot product
    const int8_t* w = filter + r.w_first;
    for (; oc + 3 < out_c; oc += 4, w += 4 * filter_oc_stride) {
      uint32_t acc[4] = {0, 0, 0, 0};
      v6m::dot_4x1(w, filter_oc_stride, x0, r.len, off, acc);
      out[oc] = finish(acc[0], o, oc);
      out[oc + 1] = finish(acc[1], o, oc + 1);
      out[oc + 2] = finish(acc[2], o, oc + 2);
      out[oc + 3] = finish(acc[3], o, oc + 3);
    }
  }
  for (; oc + 3 < out_c; oc += 4) {
    uint32_t acc[4] = {0, 0, 0, 0};
    const int8_t* w_row = filter + oc * filter_oc_stride + r.w_first;
    const int8_t* x_row = x0;
    for (int32_t ry = 0; ry < r.rows; ++ry, w_row += r.w_row, x_row += r.x_row) {
      const int8_t* w = w_row;
      const int8_t* x = x_row;
      for (int32_t rx = 0; rx < r.cols; ++rx, w += r.w_col, x += r.x_col) {
        v6m::dot_4x1(w, filter_oc_stride, x, r.len, off, acc);
      }
    }
    out[oc] = finish(acc[0], o, oc);
    out[oc + 1] = finish(acc[1], o, oc + 1);
    out[oc + 2] = finish(acc[2], o, oc + 2);
    out[oc + 3] = finish(acc[3], o, oc + 3);
  }
  for (; oc < out_c; ++oc) {
    uint32_t acc = 0;
    const int8_t* w_row = filter + oc * filter_oc_stride + r.w_first;
    const int8_t* x_row = x0;
    for (int32_t ry = 0; ry < r.rows; ++ry, w_row += r.w_row, x_row += r.x_row) {
      const int8_t* w = w_row;
      const int8_t* x = x_row;
      for (int32_t rx = 0; rx < r.cols; ++rx, w += r.w_col, x += r.x_col) {
        acc = v6m::dot_1x1(w, x, r.len, off, acc);
      }
    }
    out[oc] = finish(acc, o, oc);
  }
}

// An output channel's constants on the folded path, in the scratch (bias + input offset
// * the sum of the channel's weights; requant_v6m_right_s8's constants when
// requant_v6m_right_applies(), otherwise requant.right == 0 and requant.mul_hi / mul_lo
// are the multiplier and shift).
using FoldedChannel = v6m::FoldedChannel;

constexpr uint32_t round_up4(uint32_t n) { return (n + 3u) & ~3u; }

bool takes_1x1(const Conv2dS8Params& p, int32_t kernel_h, int32_t kernel_w) {
  return kernel_h == 1 && kernel_w == 1 && p.window.pad_top == 0 && p.window.pad_bottom == 0 &&
         p.window.pad_left == 0 && p.window.pad_right == 0;
}

// Whether the 1x1 path takes its pixels in pairs (pixel_pair_folded).
bool takes_pairs(const Conv2dS8Params& p, int32_t kernel_h, int32_t kernel_w, int32_t in_c, int32_t out_c) {
  return takes_1x1(p, kernel_h, kernel_w) && in_c >= 2 && in_c % 2 == 0 && out_c % 2 == 0;
}

// The bytes of one pixel's window in the scratch: on the 1x1 path, which reads the input
// in place, two pixels' inputs packed (pack_pixel_pair) when it takes pairs, else none.
uint32_t patch_bytes(const Conv2dS8Params& p, int32_t kernel_h, int32_t kernel_w, int32_t in_c, int32_t out_c) {
  if (takes_pairs(p, kernel_h, kernel_w, in_c, out_c)) return 4u * static_cast<uint32_t>(in_c);
  return takes_1x1(p, kernel_h, kernel_w)
             ? 0u
             : round_up4(static_cast<uint32_t>(kernel_h) * static_cast<uint32_t>(kernel_w) *
                         static_cast<uint32_t>(in_c));
}

// Outputs per channel from which finding each channel's requant floor (about 1,500
// instructions, requant_v6m_right_set_floor) pays for itself: it saves about 34 per output
// the activation clamps from below.
constexpr int32_t kFloorMinPixels = 128;

// How the folded path requantizes: every channel with requant_v6m_positive_s8 or with
// requant_v6m_right_s8, or some channels with neither (kMixed).
enum class Requant { kPositive, kRight, kMixed };

// Fills the folded path's constants (`taps` weights per output channel) and says how they
// requantize (kPositive: prepared by requant_v6m_positive_prepare).
// floors: the compiler's requant floors (validated by check()), or null: then found here
// when `search` (runs of kFloorMinPixels or more), else none.
// folded_bias: the compiler's folded biases (validated by check()), or null: then summed
// here.
Requant prepare_folded(const Conv2dS8Params& p, const int32_t* multipliers, const int32_t* shifts,
                    const int32_t* floors, const int32_t* folded_bias, const int8_t* filter,
                    const int32_t* bias, int32_t taps, int32_t out_c, bool search, FoldedChannel* channels) {
  const uint32_t off = static_cast<uint32_t>(-p.input_zero_point);
  bool all_right = true;
  bool positive = requant_v6m_positive_output_applies(p.output_zero_point, p.act_min, p.act_max);
  for (int32_t oc = 0; oc < out_c; ++oc, filter += taps) {
    if (folded_bias != nullptr) {
      channels[oc].bias = static_cast<uint32_t>(folded_bias[oc]);
    } else {
      uint32_t weight_sum = 0;
      for (int32_t k = 0; k < taps; ++k) weight_sum += static_cast<uint32_t>(filter[k]);
      channels[oc].bias = (bias != nullptr ? static_cast<uint32_t>(bias[oc]) : 0u) + off * weight_sum;
    }
    const int32_t shift = requant_v6m_right_shift(multipliers[oc], shifts[oc]);
    if (requant_v6m_right_applies(multipliers[oc], shift)) {
      channels[oc].requant = requant_v6m_right_prepare(multipliers[oc], shift);
      if (floors != nullptr) {
        channels[oc].requant.floor = floors[oc];
      } else if (search) {
        requant_v6m_right_set_floor(channels[oc].requant, multipliers[oc], p.output_zero_point, p.act_min,
                                    p.act_max);
      }
      positive = positive && requant_v6m_positive_applies(multipliers[oc], shift, channels[oc].requant.floor,
                                                          p.output_zero_point, p.act_min);
    } else {
      channels[oc].requant = RequantV6mRight{multipliers[oc], shifts[oc], 0, 0, INT32_MIN};
      all_right = false;
    }
  }
  if (!all_right) return Requant::kMixed;
  if (!positive) return Requant::kRight;
  for (int32_t oc = 0; oc < out_c; ++oc) requant_v6m_positive_prepare(channels[oc].requant);
  return Requant::kPositive;
}

// The few channels outside requant_v6m_right_s8: one out-of-line copy of requant_v6m_s8.
__attribute__((noinline)) int8_t finish_other(uint32_t acc, const FoldedChannel& ch, const Output& o) {
  return requant_v6m_s8(static_cast<int32_t>(acc), ch.requant.mul_hi, ch.requant.mul_lo, o.zero_point,
                        o.act_min, o.act_max);
}

template <Requant kMode>
__attribute__((always_inline)) inline int8_t finish_folded(uint32_t acc, const FoldedChannel& ch, const Output& o,
                                                           const RequantV6mOutput& k) {
  if (kMode == Requant::kMixed && ch.requant.right == 0) return finish_other(acc, ch, o);
  if (kMode == Requant::kPositive) return requant_v6m_positive_s8(static_cast<int32_t>(acc), ch.requant, k);
  return requant_v6m_right_s8(static_cast<int32_t>(acc), ch.requant, k);
}

// Every output channel of one pixel on the folded path (x: the pixel's `taps` inputs,
// contiguous, in the filter's order).
template <Requant kMode>
__attribute__((noinline)) void pixel_folded(const FoldedChannel* channels, const int8_t* x, const int8_t* filter,
                                            int32_t taps, int32_t out_c, const Output& o,
                                            const RequantV6mOutput& k, int8_t* out) {
  int32_t oc = 0;
  if (kMode != Requant::kMixed && taps > 0 && out_c >= 4) {  // every channel in requant_v6m_right_s8: four at a time in one loop
    oc = out_c & ~3;
    v6m::FoldedBlock block = {filter, x, taps, channels, out, &k, channels + oc};
    v6m::folded_blocks_4<kMode == Requant::kPositive>(block);
    filter = block.w;
  }
  for (; oc + 3 < out_c; oc += 4, filter += 4 * taps) {
    const FoldedChannel* ch = channels + oc;
    uint32_t acc[4] = {ch[0].bias, ch[1].bias, ch[2].bias, ch[3].bias};
    v6m::dot_4x1_raw(filter, taps, x, taps, acc);
    out[oc] = finish_folded<kMode>(acc[0], ch[0], o, k);
    out[oc + 1] = finish_folded<kMode>(acc[1], ch[1], o, k);
    out[oc + 2] = finish_folded<kMode>(acc[2], ch[2], o, k);
    out[oc + 3] = finish_folded<kMode>(acc[3], ch[3], o, k);
  }
  for (; oc < out_c; ++oc, filter += taps) {
    const uint32_t acc = v6m::dot_1x1(filter, x, taps, 0, channels[oc].bias);
    out[oc] = finish_folded<kMode>(acc, channels[oc], o, k);
  }
}

// Every output channel of two pixels on the folded path, two channels at a time
// (v6m::dot_2x2_packed: packed holds the pixels' `taps` inputs, pack_pixel_pair's). taps
// and out_c even.
template <Requant kMode>
__attribute__((noinline)) void pixel_pair_folded(const FoldedChannel* ch, const int32_t* packed, const int8_t* filter,
                                                 int32_t taps, int32_t out_c, const Output& o,
                                                 const RequantV6mOutput& k, int8_t* out_a, int8_t* out_b) {
  for (int32_t oc = 0; oc < out_c; oc += 2, ch += 2, filter += 2 * taps) {
    uint32_t acc[4] = {ch[0].bias, ch[0].bias, ch[1].bias, ch[1].bias};
    v6m::dot_2x2_packed(packed, filter, filter + taps, taps, acc);
    out_a[oc] = finish_folded<kMode>(acc[0], ch[0], o, k);
    out_b[oc] = finish_folded<kMode>(acc[1], ch[0], o, k);
    out_a[oc + 1] = finish_folded<kMode>(acc[2], ch[1], o, k);
    out_b[oc + 1] = finish_folded<kMode>(acc[3], ch[1], o, k);
  }
}

// The window of the pixel whose top left tap is (y0, x0) into patch, in the filter's
// [KH, KW, C] order; taps outside the image get the input zero point, whose product with
// the folded offset cancels: w * (zp - zp) = 0, as the reference skips them.
void fill_patch(const Conv2dS8Params& p, const Conv2dShape& s, const int8_t* image, int32_t y0, int32_t x0,
                int8_t* patch) {
  const int32_t c = s.in_c;
  const uint32_t row_bytes = static_cast<uint32_t>(s.kernel_w * c);
  const bool dense_row = p.window.dilation_w == 1 && x0 >= 0 && x0 + s.kernel_w <= s.in_w;
  for (int32_t r = 0; r < s.kernel_h; ++r, patch += row_bytes) {
    const int32_t y = y0 + r * p.window.dilation_h;
    if (y < 0 || y >= s.in_h) {
      memset(patch, p.input_zero_point, row_bytes);
      continue;
    }
    const int8_t* row = image + y * s.in_w * c;
    if (dense_row) {
      v6m::copy_bytes(patch, row + x0 * c, static_cast<int32_t>(row_bytes));
      continue;
    }
    for (int32_t k = 0; k < s.kernel_w; ++k) {
      const int32_t x = x0 + k * p.window.dilation_w;
      int8_t* tap = patch + k * c;
      if (x < 0 || x >= s.in_w) {
        memset(tap, p.input_zero_point, static_cast<uint32_t>(c));
      } else {
        v6m::copy_bytes(tap, row + x * c, c);
      }
    }
  }
}

// The folded path: every pixel's window contiguous (in place for 1x1 kernels without
// padding, else copied into the patch), the input offset folded into the bias.
void run_folded(const Conv2dS8Params& p, const int32_t* multipliers, const int32_t* shifts,
                const int32_t* floors, const int32_t* folded_bias, const Conv2dShape& s,
                const int8_t* input, const int8_t* filter, const int32_t* bias, int8_t* output,
                FoldedChannel* channels) {
  const int32_t c = s.in_c;
  const int32_t taps = s.kernel_h * s.kernel_w * c;
  const int32_t in_row_stride = s.in_w * c;
  const int32_t in_image_stride = s.in_h * in_row_stride;
  const Output o = {multipliers, shifts, bias, p.output_zero_point, p.act_min, p.act_max};
  const RequantV6mOutput k = requant_v6m_output_constants(p.output_zero_point, p.act_min, p.act_max);
  const bool search = s.batch * s.out_h * s.out_w >= kFloorMinPixels;
  const Requant mode =
      prepare_folded(p, multipliers, shifts, floors, folded_bias, filter, bias, taps, s.out_c, search, channels);
  const bool in_place = takes_1x1(p, s.kernel_h, s.kernel_w);
  const bool pairs = mode != Requant::kMixed && takes_pairs(p, s.kernel_h, s.kernel_w, s.in_c, s.out_c);
  int8_t* const patch = reinterpret_cast<int8_t*>(channels + s.out_c);
  int32_t* const packed = reinterpret_cast<int32_t*>(patch);
  const int8_t* pending = nullptr;  // the first pixel of a pair, and its output
  int8_t* pending_out = nullptr;
  for (int32_t b = 0; b < s.batch; ++b) {
    const int8_t* image = input + b * in_image_stride;
    for (int32_t oy = 0; oy < s.out_h; ++oy) {
      const int32_t y0 = oy * p.window.stride_h - p.window.pad_top;
      int32_t x0 = -p.window.pad_left;
      for (int32_t ox = 0; ox < s.out_w; ++ox, x0 += p.window.stride_w, output += s.out_c) {
        const int8_t* x = patch;
        if (in_place) {
          x = image + y0 * in_row_stride + x0 * c;
          if (pairs) {
            if (pending == nullptr) {
              pending = x;
              pending_out = output;
              continue;
            }
            v6m::pack_pixel_pair(pending, x, taps, packed);
            if (mode == Requant::kPositive) {
              pixel_pair_folded<Requant::kPositive>(channels, packed, filter, taps, s.out_c, o, k, pending_out, output);
            } else {
              pixel_pair_folded<Requant::kRight>(channels, packed, filter, taps, s.out_c, o, k, pending_out, output);
            }
            pending = nullptr;
            continue;
          }
        } else {
          fill_patch(p, s, image, y0, x0, patch);
        }
        if (mode == Requant::kPositive) {
          pixel_folded<Requant::kPositive>(channels, x, filter, taps, s.out_c, o, k, output);
        } else if (mode == Requant::kRight) {
          pixel_folded<Requant::kRight>(channels, x, filter, taps, s.out_c, o, k, output);
        } else {
          pixel_folded<Requant::kMixed>(channels, x, filter, taps, s.out_c, o, k, output);
        }
      }
    }
  }
  if (pending != nullptr) {  // an odd number of pixels: the last alone
    if (mode == Requant::kPositive) {
      pixel_folded<Requant::kPositive>(channels, pending, filter, taps, s.out_c, o, k, pending_out);
    } else {
      pixel_folded<Requant::kRight>(channels, pending, filter, taps, s.out_c, o, k, pending_out);
    }
  }
}

}  // namespace

uint32_t conv2d_s8__v6m_scratch_bytes(const Conv2dS8Params& params, int32_t kernel_h, int32_t kernel_w,
                                      int32_t in_c, int32_t out_c) {
  return static_cast<uint32_t>(out_c) * sizeof(FoldedChannel) + patch_bytes(params, kernel_h, kernel_w, in_c, out_c);
}

void conv2d_s8__v6m(const Conv2dS8Params& params, const int32_t* multipliers,
                    const int32_t* shifts, const int32_t* floors, const int32_t* folded_bias,
                    const Conv2dShape& shape, const int8_t* input, const int8_t* filter, const int32_t* bias,
                    int8_t* output, void* scratch) {
  // Preparing costs about 5 instructions per weight without the compiler's folded biases
  // (worth it from 16 pixels), about 15 per channel with them.
  if (scratch != nullptr && (folded_bias != nullptr || shape.batch * shape.out_h * shape.out_w >= 16)) {
    run_folded(params, multipliers, shifts, floors, folded_bias, shape, input, filter, bias, output,
               static_cast<FoldedChannel*>(scratch));
    return;
  }
  const int32_t c = shape.in_c;
  const int32_t in_row_stride = shape.in_w * c;
  const int32_t in_image_stride = shape.in_h * in_row_stride;
  const int32_t filter_row_stride = shape.kernel_w * c;
  const int32_t filter_oc_stride = shape.kernel_h * filter_row_stride;
  const int32_t out_c = shape.out_c;
  const int32_t off = -params.input_zero_point;
  const int32_t span_h = (shape.kernel_h - 1) * params.window.dilation_h;
  const int32_t span_w = (shape.kernel_w - 1) * params.window.dilation_w;
  const bool dense_w = params.window.dilation_w == 1;
  const Output o = {multipliers, shifts, bias, params.output_zero_point, params.act_min,
                    params.act_max};
  Runs r;
  r.x_row = params.window.dilation_h * in_row_stride;
  r.w_row = filter_row_stride;
  r.x_col = params.window.dilation_w * c;
  r.w_col = c;

  for (int32_t b = 0; b < shape.batch; ++b) {
    const int8_t* image = input + b * in_image_stride;
    for (int32_t oy = 0; oy < shape.out_h; ++oy) {
      const int32_t y0 = oy * params.window.stride_h - params.window.pad_top;
      const TapRange ky = (y0 >= 0 && y0 + span_h < shape.in_h)
                              ? TapRange{0, shape.kernel_h}
                              : taps_inside(y0, params.window.dilation_h, shape.kernel_h, shape.in_h);
      r.rows = ky.end - ky.begin;
      int32_t x0 = -params.window.pad_left;
      for (int32_t ox = 0; ox < shape.out_w; ++ox, x0 += params.window.stride_w) {
        const TapRange kx = (x0 >= 0 && x0 + span_w < shape.in_w)
                                ? TapRange{0, shape.kernel_w}
                                : taps_inside(x0, params.window.dilation_w, shape.kernel_w, shape.in_w);
        const int32_t taps = kx.end - kx.begin;
        r.cols = dense_w ? (taps > 0 ? 1 : 0) : taps;
        r.len = dense_w ? taps * c : c;
        r.x_first = (y0 + ky.begin * params.window.dilation_h) * in_row_stride +
                    (x0 + kx.begin * params.window.dilation_w) * c;
        r.w_first = ky.begin * filter_row_stride + kx.begin * c;
        pixel(r, image, filter, filter_oc_stride, out_c, off, o, output);
        output += out_c;
      }
    }
  }
}

void conv2d_s8__v6m_floors(const Conv2dS8Params& params, const int32_t* multipliers, const int32_t* shifts,
                           int32_t out_c, int32_t* floors) {
  for (int32_t oc = 0; oc < out_c; ++oc) {
    floors[oc] = requant_v6m_floor(multipliers[oc], shifts[oc], params.output_zero_point, params.act_min,
                                   params.act_max);
  }
}

void conv2d_s8__v6m_folded_bias(const Conv2dS8Params& params, const int8_t* filter, const int32_t* bias,
                                int32_t taps, int32_t out_c, int32_t* folded_bias) {
  const uint32_t off = static_cast<uint32_t>(-params.input_zero_point);
  for (int32_t oc = 0; oc < out_c; ++oc, filter += taps) {
    uint32_t weight_sum = 0;
    for (int32_t k = 0; k < taps; ++k) weight_sum += static_cast<uint32_t>(filter[k]);
    folded_bias[oc] =
        static_cast<int32_t>((bias != nullptr ? static_cast<uint32_t>(bias[oc]) : 0u) + off * weight_sum);
  }
}

namespace {

// How many int32 arrays of out_c follow the params header: 2 (the reference's multipliers
// and shifts), 3 (then the requant floors) or 4 (then the folded biases); 0 for any other
// size.
uint32_t param_arrays(const OpContext& ctx, uint32_t out_c) {
  for (uint32_t arrays = 2; arrays <= 4; ++arrays) {
    if (params_with_arrays(ctx, sizeof(Conv2dS8Params), arrays, out_c)) return arrays;
  }
  return 0;
}

bool is_constant(const TensorDesc& t) { return t.storage == static_cast<uint8_t>(Storage::kConstant); }

// Whether the params' folded biases are those of the op's (constant) filter and bias.
bool folded_bias_valid(const OpContext& ctx, const Conv2dS8Params& p, uint32_t out_c, const int32_t* folded) {
  const TensorDesc& filter = ctx.input_desc(1);
  const bool has_bias = ctx.input_count() == 3 && ctx.has_input(2);
  if (!is_constant(filter) || (has_bias && !is_constant(ctx.input_desc(2)))) return false;
  const auto* weights = static_cast<const int8_t*>(ctx.input_data(1));
  const auto* bias = has_bias ? static_cast<const int32_t*>(ctx.input_data(2)) : nullptr;
  const int32_t taps = static_cast<int32_t>(filter.dims[1] * filter.dims[2] * filter.dims[3]);
  const uint32_t off = static_cast<uint32_t>(-p.input_zero_point);
  for (uint32_t oc = 0; oc < out_c; ++oc, weights += taps) {
    uint32_t weight_sum = 0;
    for (int32_t k = 0; k < taps; ++k) weight_sum += static_cast<uint32_t>(weights[k]);
    if (static_cast<uint32_t>(folded[oc]) != (bias != nullptr ? static_cast<uint32_t>(bias[oc]) : 0u) + off * weight_sum) {
      return false;
    }
  }
  return true;
}

}  // namespace

// check(): the reference's, groups 1, each of the floors (if the params carry them) safe
// for its channel (requant_v6m_floor_valid: one requantization per channel), and the
// folded biases (if they carry them) those of the constant filter and bias.
Status conv2d_s8__v6m_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 2, 3, 1));
  if (ctx.input_desc(1).rank != 4) return Status::kBadParams;
  const uint32_t out_c = ctx.input_desc(1).dims[0];
  const uint32_t arrays = param_arrays(ctx, out_c);
  if (arrays == 0) return Status::kBadParams;
  MOTE_RETURN_IF_ERROR(conv2d_s8_check_params(ctx, 4u * (arrays - 2) * out_c));
  const Conv2dS8Params& p = ctx.params<Conv2dS8Params>();
  if (p.groups != 1) return Status::kBadParams;
  if (arrays >= 3 && !requant_v6m_floors_valid(params_array(p, 2, out_c), params_array(p, 0, out_c),
                                               params_array(p, 1, out_c), out_c, p.output_zero_point, p.act_min,
                                               p.act_max)) {
    return Status::kBadParams;
  }
  if (arrays == 4 && !folded_bias_valid(ctx, p, out_c, params_array(p, 3, out_c))) return Status::kBadParams;
  return Status::kOk;
}

void conv2d_s8__v6m_run(const OpContext& ctx) {
  const Conv2dS8Operands o = conv2d_s8_operands(ctx);
  const Conv2dS8Params& p = o.params;
  const uint32_t out_c = o.shape.out_c;
  const uint32_t scratch_bytes =
      conv2d_s8__v6m_scratch_bytes(p, o.shape.kernel_h, o.shape.kernel_w, o.shape.in_c, o.shape.out_c);
  void* scratch = scratch_bytes != 0 && ctx.scratch().size() >= scratch_bytes &&
                          (reinterpret_cast<uintptr_t>(ctx.scratch().data()) & 3u) == 0
                      ? ctx.scratch().data()
                      : nullptr;
  const uint32_t arrays = param_arrays(ctx, out_c);
  conv2d_s8__v6m(p, o.multipliers, o.shifts, arrays >= 3 ? params_array(p, 2, out_c) : nullptr,
                 arrays == 4 ? params_array(p, 3, out_c) : nullptr, o.shape, o.input, o.filter, o.bias,
                 o.output, scratch);
}

const KernelEntry kConv2dS8V6mEntry = {conv2d_s8__v6m_check, conv2d_s8__v6m_run};

}  // namespace mote
