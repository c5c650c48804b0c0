// Helium (MVE) 16x8 depthwise convolution (int16 activations, int8 weights, int64
// bias), bit-exact with depthwise_conv2d_s16: depth multiplier 1, any window, stride,
// dilation and padding. Eight channels per vector: per tap one VLDRH of the input, one
// VLDRB.S16 of the weights and VMULLB / VMULLT.S16 into two int32 vectors (the even and
// the odd channels), started at the channels' biases and summed over the taps inside the
// image (padding taps skipped, as the reference does). With at most kFastMaxTaps taps
// |sum| <= 2^30 (|w * x| <= 2^22), so with every |bias| < 2^30 the int32 sum is the
// int64 one, and with every shift < 0 the requantization is requant64_x4
// (quant/quant_math_mve.h). VQMOVNB / VQMOVNT saturate the even and odd results to int16
// back in channel order and VMAX / VMIN.S16 clamp them (the same as clamping the int32:
// act_min and act_max are int16) for one VSTRH. Other layers (a shift >= 0, a larger bias
// or window) run the reference.
//
// Per output row, the pixels whose windows are whole rows of three taps inside the image
// (kernel_w == 3) are found once and run two at a time sharing the weight loads, a 3x3
// window as one asm statement per channel group (kernels/isa/mve.h vmull_3x3_pair_s16;
// with stride == dilation the second pixel's taps are the first's one tap on, and four
// input loads per row serve both: _shared). The other pixels (borders, other windows)
// sum their taps inside the image one by one.
//
// Scratch: bias (int32), vector multiplier and shift of every channel, arranged per
// group of eight channels as the four even channels then the four odd ones: 3 * 4 bytes
// per channel, channels rounded up to 8. On a core without MVE the same code runs
// through the portable definitions of kernels/isa/mve.h.
#include "depthwise_conv2d/depthwise_conv2d.h"
#include "depthwise_conv2d/depthwise_conv2d_shapes.h"
#include "isa/mve.h"
#include "kernel_util.h"
#include "quant/quant_check.h"
#include "quant/quant_math.h"
#include "quant/quant_math_mve.h"

namespace mote {
namespace {

constexpr int32_t kFastMaxTaps = 256;
constexpr int64_t kFastMaxBias = (int64_t{1} << 30) - 1;

int32_t padded_channels(int32_t c) { return (c + 7) & ~7; }

// Channel c's place in the arranged tables: group of eight, then even channels first.
int32_t arranged(int32_t c) { return (c & ~7) + ((c & 1) != 0 ? 4 : 0) + ((c & 7) >> 1); }

// The tables of the fast path; false when a channel needs the reference.
bool prepare(const int32_t* multipliers, const int32_t* shifts, const int64_t* bias,
             int32_t channels, int32_t* table) {
  const int32_t padded = padded_channels(channels);
  int32_t* bias32 = table;
  int32_t* mult = table + padded;
  int32_t* shift = table + 2 * padded;
  for (int32_t c = 0; c < padded; ++c) {
    const int32_t at = arranged(c);
    if (c >= channels) {
      bias32[at] = mult[at] = shift[at] = 0;
      continue;
    }
    const int64_t b = bias != nullptr ? bias[c] : 0;
    if (b > kFastMaxBias || b < -kFastMaxBias || shifts[c] >= 0) return false;
    bias32[at] = static_cast<int32_t>(b);
    mult[at] = requant64_vector_multiplier(multipliers[c]);
    shift[at] = shifts[c];
  }
  return true;
}

// The even and odd channels' sums of a group of eight, started at the channels' biases.
struct Taps {
  mve::int32x4_t even, odd;
};
__attribute__((always_inline)) inline Taps bias_of(const int32_t* table) {
  return Taps{mve::vldrwq_s32(table), mve::vldrwq_s32(table + 4)};
}

// A window of rows x cols taps inside the image, lanes under p (inactive lanes 0) when
// kTail, all eight otherwise.
template <bool kTail>
__attribute__((always_inline)) inline Taps taps_any(const int16_t* in_row, const int8_t* w_row,
                                                    int32_t rows, int32_t cols, int32_t tap_step,
                                                    int32_t row_step, int32_t filter_row_stride,
                                                    int32_t channels, const int32_t* table,
                                                    mve::mve_pred16_t p) {
  Taps t = bias_of(table);
  for (int32_t r = 0; r < rows; ++r, in_row += row_step, w_row += filter_row_stride) {
    const int16_t* in = in_row;
    const int8_t* w = w_row;
    for (int32_t i = 0; i < cols; ++i, in += tap_step, w += channels) {
      if (kTail) {
        const mve::int16x8_t x = mve::vldrhq_z_s16(in, p);
        const mve::int16x8_t wv = mve::vldrbq_z_s16(w, p);
        t.even = mve::vaddq_s32(t.even, mve::vmullbq_int_s16(x, wv));
        t.odd = mve::vaddq_s32(t.odd, mve::vmulltq_int_s16(x, wv));
      } else {
        mve::vmull_tap_s16(t.even, t.odd, in, w);
      }
    }
  }
  return t;
}

// A window of rows x kCols taps inside the image (the columns a 3-wide window keeps at the
// image's left or right edge), all eight lanes.
template <int32_t kCols>
__attribute__((always_inline)) inline Taps taps_cols(const int16_t* in, const int8_t* w,
                                                     int32_t rows, int32_t tap_step,
                                                     int32_t row_step, int32_t filter_row_stride,
                                                     int32_t channels, const int32_t* table) {
  Taps t = bias_of(table);
  for (int32_t r = 0; r < rows; ++r, in += row_step, w += filter_row_stride) {
    for (int32_t k = 0; k < kCols; ++k) {
      mve::vmull_tap_s16(t.even, t.odd, in + k * tap_step, w + k * channels);
    }
  }
  return t;
}

// The steps of a window whose rows are three taps wide (kernel_w == 3, all inside the
// image): the weights of consecutive taps and rows are then contiguous, channels apart.
struct Row3 {
  int32_t tap_bytes;   // between the taps of a row in the input
  int32_t row_step;    // elements between the rows in the input
  int32_t row_bytes;   // the same in bytes
  int32_t w_bytes;     // between consecutive taps' weights
  int32_t pair_step;   // elements between two neighbouring pixels' windows
  bool shared;         // pair_step is one tap: the pixels share input loads
};

// rows x 3 taps of one pixel.
__attribute__((always_inline)) inline Taps taps_row3(const int16_t* in, const int8_t* w,
                                                     int32_t rows, const Row3& s,
                                                     const int32_t* table) {
  Taps t = bias_of(table);
  for (int32_t r = 0; r < rows; ++r, in += s.row_step) {
    mve::vmull_row3_s16(t.even, t.odd, in, s.tap_bytes, w, s.w_bytes);
  }
  return t;
}

// rows x 3 taps of two pixels side by side, pair_step values apart.
struct TapsPair {
  Taps p0, p1;
};
__attribute__((always_inline)) inline TapsPair taps_row3_pair(const int16_t* in, const int8_t* w,
                                                              int32_t rows, const Row3& s,
                                                              const int32_t* table) {
  TapsPair t{bias_of(table), bias_of(table)};
  if (s.shared) {
    for (int32_t r = 0; r < rows; ++r, in += s.row_step) {
      mve::vmull_row3_pair_shared_s16(t.p0.even, t.p0.odd, t.p1.even, t.p1.odd, in, s.tap_bytes,
                                      w, s.w_bytes);
    }
  } else {
    for (int32_t r = 0; r < rows; ++r, in += s.row_step) {
      mve::vmull_row3_pair_s16(t.p0.even, t.p0.odd, t.p1.even, t.p1.odd, in, in + s.pair_step,
                               s.tap_bytes, w, s.w_bytes);
    }
  }
  return t;
}

// The group's eight outputs requantized (requant64_x4), saturated to int16 and clamped
// there (the same as clamping the int32 with int16 bounds), back in channel order (VQMOVNB
// / VQMOVNT; narrowed over the even sums' own register), lanes under p stored.
__attribute__((always_inline)) inline mve::int16x8_t narrow(mve::int32x4_t even,
                                                            mve::int32x4_t odd,
                                                            mve::int16x8_t lo,
                                                            mve::int16x8_t hi) {
  const mve::int16x8_t out =
      mve::vqmovntq_s32(mve::vqmovnbq_s32(mve::vreinterpretq_s16_s32(even), even), odd);
  return mve::vminq_s16(mve::vmaxq_s16(out, lo), hi);
}
__attribute__((always_inline)) inline mve::int16x8_t requant(const Taps& t, const int32_t* table,
                                                             int32_t padded, mve::int16x8_t lo,
                                                             mve::int16x8_t hi) {
  const int32_t* mult = table + padded;
  const int32_t* shift = table + 2 * padded;
  const mve::int32x4_t even =
      requant64_x4(t.even, mve::vldrwq_s32(mult), mve::vldrwq_s32(shift));
  const mve::int32x4_t odd =
      requant64_x4(t.odd, mve::vldrwq_s32(mult + 4), mve::vldrwq_s32(shift + 4));
  return narrow(even, odd, lo, hi);
}
// Both pixels of a pair, each multiplier and shift loaded once.
__attribute__((always_inline)) inline void store_pair(int16_t* output, int16_t* next,
                                                      const TapsPair& t, const int32_t* table,
                                                      int32_t padded, mve::int16x8_t lo,
                                                      mve::int16x8_t hi) {
  const int32_t* mult = table + padded;
  const int32_t* shift = table + 2 * padded;
  mve::int32x4_t m = mve::vldrwq_s32(mult);
  mve::int32x4_t s = mve::vldrwq_s32(shift);
  const mve::int32x4_t even0 = requant64_x4(t.p0.even, m, s);
  const mve::int32x4_t even1 = requant64_x4(t.p1.even, m, s);
  m = mve::vldrwq_s32(mult + 4);
  s = mve::vldrwq_s32(shift + 4);
  const mve::int32x4_t odd0 = requant64_x4(t.p0.odd, m, s);
  const mve::int32x4_t odd1 = requant64_x4(t.p1.odd, m, s);
  mve::vstrhq_s16(output, narrow(even0, odd0, lo, hi));
  mve::vstrhq_s16(next, narrow(even1, odd1, lo, hi));
}
__attribute__((always_inline)) inline void store(int16_t* output, const Taps& t,
                                                 const int32_t* table, int32_t padded,
                                                 mve::int16x8_t lo, mve::int16x8_t hi) {
  mve::vstrhq_s16(output, requant(t, table, padded, lo, hi));
}
__attribute__((always_inline)) inline void store_tail(int16_t* output, const Taps& t,
                                                      const int32_t* table, int32_t padded,
                                                      mve::int16x8_t lo, mve::int16x8_t hi,
                                                      mve::mve_pred16_t p) {
  mve::vstrhq_p_s16(output, requant(t, table, padded, lo, hi), p);
}

// What every pixel of one output row shares.
struct RowContext {
  const int16_t* in_row;  // first tap row inside the image, at input column 0
  const int8_t* w_row;    // the weights of that tap row
  int32_t rows;           // tap rows inside the image
};

// The layer's constants.
struct Layer {
  const WindowShape* shape;
  const WindowGeometry* g;
  const int32_t* table;
  int32_t channels, full, padded;
  int32_t tap_step, row_step, filter_row_stride;
  Row3 row3;
  mve::mve_pred16_t tail;
  mve::int16x8_t lo, hi;
};

// The tail group (channels full..channels-1) of a window of rows x cols taps.
__attribute__((always_inline)) inline void tail_group(const Layer& l, const int16_t* in,
                                                      const int8_t* w, int32_t rows,
                                                      int32_t cols, int16_t* output) {
  const int32_t* table = l.table + l.full;
  store_tail(output + l.full,
             taps_any<true>(in + l.full, w + l.full, rows, cols, l.tap_step, l.row_step,
                            l.filter_row_stride, l.channels, table, l.tail),
             table, l.padded, l.lo, l.hi, l.tail);
}

// Output pixel ox of the row, any window.
void any_pixel(const Layer& l, const RowContext& r, int32_t ox, int16_t* output) {
  const int32_t x0 = ox * l.g->stride_w - l.g->pad_left;
  const TapRange kx = taps_inside(x0, l.g->dilation_w, l.shape->kernel_w, l.shape->in_w);
  const int32_t cols = kx.end - kx.begin;
  const int16_t* in = r.in_row + (x0 + kx.begin * l.g->dilation_w) * l.channels;
  const int8_t* w = r.w_row + kx.begin * l.channels;
  const int32_t* table = l.table;
  int32_t c = 0;
  if (l.shape->kernel_w == 3 && cols == 3) {
    for (; c < l.full; c += 8, table += 8) {
      store(output + c, taps_row3(in + c, w + c, r.rows, l.row3, table), table, l.padded, l.lo,
            l.hi);
    }
  }
  if (cols == 2) {
    for (; c < l.full; c += 8, table += 8) {
      store(output + c,
            taps_cols<2>(in + c, w + c, r.rows, l.tap_step, l.row_step, l.filter_row_stride,
                         l.channels, table),
            table, l.padded, l.lo, l.hi);
    }
  }
  for (; c < l.full; c += 8, table += 8) {
    store(output + c,
          taps_any<false>(in + c, w + c, r.rows, cols, l.tap_step, l.row_step,
                          l.filter_row_stride, l.channels, table, l.tail),
          table, l.padded, l.lo, l.hi);
  }
  if (l.full < l.channels) tail_group(l, in, w, r.rows, cols, output);
}

// How a pair of whole-row windows is summed: rows x 3 taps row by row, or a 3x3 window
// in one asm statement, its second pixel's taps apart or shared with the first's.
enum class PairKind { kRows, k3x3, k3x3Shared };

// count / 2 pairs of output pixels whose windows are whole rows of three taps inside
// the image (kernel_w == 3); in is the first pixel's first tap. Returns the pixels done.
template <PairKind kKind>
int32_t whole_row_pairs(const Layer& l, const RowContext& r, const int16_t* in, int32_t count,
                        int16_t* output) {
  const Row3& s = l.row3;
  const int32_t pairs = count / 2;
  for (int32_t i = 0; i < pairs; ++i, in += 2 * s.pair_step, output += 2 * l.channels) {
    const int32_t* table = l.table;
    int16_t* next = output + l.channels;
    for (int32_t c = 0; c < l.full; c += 8, table += 8) {
      TapsPair t;
      if constexpr (kKind == PairKind::kRows) {
        t = taps_row3_pair(in + c, r.w_row + c, r.rows, s, table);
      } else {
        t = TapsPair{bias_of(table), bias_of(table)};
        if constexpr (kKind == PairKind::k3x3Shared) {
          mve::vmull_3x3_pair_shared_s16(t.p0.even, t.p0.odd, t.p1.even, t.p1.odd, in + c,
                                         s.tap_bytes, s.row_bytes, r.w_row + c, s.w_bytes);
        } else {
          mve::vmull_3x3_pair_s16(t.p0.even, t.p0.odd, t.p1.even, t.p1.odd, in + c,
                                  in + s.pair_step + c, s.tap_bytes, s.row_bytes, r.w_row + c,
                                  s.w_bytes);
        }
      }
      store_pair(output + c, next + c, t, table, l.padded, l.lo, l.hi);
    }
    if (l.full < l.channels) {
      tail_group(l, in, r.w_row, r.rows, 3, output);
      tail_group(l, in + s.pair_step, r.w_row, r.rows, 3, next);
    }
  }
  return 2 * pairs;
}

// count output pixels whose windows are whole rows of three taps inside the image, the
// first's first tap at in: in pairs, then the odd one.
void whole_row_pixels(const Layer& l, const RowContext& r, const int16_t* in, int32_t count,
                      int16_t* output) {
  int32_t done;
  if (r.rows != 3) {
    done = whole_row_pairs<PairKind::kRows>(l, r, in, count, output);
  } else if (l.row3.shared) {
    done = whole_row_pairs<PairKind::k3x3Shared>(l, r, in, count, output);
  } else {
    done = whole_row_pairs<PairKind::k3x3>(l, r, in, count, output);
  }
  if (done < count) {
    in += done * l.row3.pair_step;
    output += done * l.channels;
    const int32_t* table = l.table;
    for (int32_t c = 0; c < l.full; c += 8, table += 8) {
      store(output + c, taps_row3(in + c, r.w_row + c, r.rows, l.row3, table), table, l.padded,
            l.lo, l.hi);
    }
    if (l.full < l.channels) tail_group(l, in, r.w_row, r.rows, 3, output);
  }
}

}  // namespace

uint32_t depthwise_conv2d_s16__mve_scratch_bytes(int32_t out_c) {
  return 3u * 4u * static_cast<uint32_t>(padded_channels(out_c));
}

void depthwise_conv2d_s16__mve(const DepthwiseConv2dS16Params& params, const int32_t* multipliers,
                               const int32_t* shifts, const DepthwiseConv2dShape& shape,
                               const int16_t* input, const int8_t* filter, const int64_t* bias,
                               int16_t* output, int32_t* scratch) {
  const int32_t channels = shape.out_c;
  if (shape.kernel_h * shape.kernel_w > kFastMaxTaps ||
      !prepare(multipliers, shifts, bias, channels, scratch)) {
    depthwise_conv2d_s16(params, multipliers, shifts, shape, input, filter, bias, output);
    return;
  }
  const WindowGeometry& g = params.window;
  const int32_t in_row_stride = shape.in_w * channels;
  const int32_t tap_step = g.dilation_w * channels;
  Layer l;
  l.shape = &shape;
  l.g = &g;
  l.table = scratch;
  l.channels = channels;
  l.full = channels & ~7;
  l.padded = padded_channels(channels);
  l.tap_step = tap_step;
  l.row_step = g.dilation_h * in_row_stride;
  l.filter_row_stride = shape.kernel_w * channels;
  l.row3 = Row3{2 * tap_step, l.row_step, 2 * l.row_step, channels, g.stride_w * channels,
                g.stride_w == g.dilation_w};
  l.tail = mve::vctp16q(static_cast<uint32_t>(channels - l.full));
  l.lo = mve::vdupq_n_s16(static_cast<int16_t>(params.act_min));
  l.hi = mve::vdupq_n_s16(static_cast<int16_t>(params.act_max));
  // The pixels [whole_begin, whole_end) have windows of whole rows (kernel_w == 3):
  // x0 >= 0 and x0 + 2 * dilation_w < in_w.
  int32_t whole_begin = 0, whole_end = 0;
  if (shape.kernel_w == 3) {
    whole_begin = g.pad_left <= 0 ? 0 : (g.pad_left + g.stride_w - 1) / g.stride_w;
    const int32_t last = shape.in_w - 1 - 2 * g.dilation_w + g.pad_left;
    whole_end = last < 0 ? 0 : last / g.stride_w + 1;
    if (whole_end > shape.out_w) whole_end = shape.out_w;
    if (whole_begin > whole_end) whole_begin = whole_end;
  }
  for (int32_t b = 0; b < shape.batch; ++b) {
    const int16_t* image = input + b * shape.in_h * in_row_stride;
    for (int32_t oy = 0; oy < shape.out_h; ++oy) {
      const int32_t y0 = oy * g.stride_h - g.pad_top;
      const TapRange ky = taps_inside(y0, g.dilation_h, shape.kernel_h, shape.in_h);
      const RowContext r{image + (y0 + ky.begin * g.dilation_h) * in_row_stride,
                         filter + ky.begin * l.filter_row_stride, ky.end - ky.begin};
      int32_t ox = 0;
      for (; ox < whole_begin; ++ox, output += channels) any_pixel(l, r, ox, output);
      const int32_t count = whole_end - whole_begin;
      whole_row_pixels(l, r, r.in_row + (whole_begin * g.stride_w - g.pad_left) * channels,
                       count, output);
      output += count * channels;
      for (ox = whole_end; ox < shape.out_w; ++ox, output += channels) {
        any_pixel(l, r, ox, output);
      }
    }
  }
}

Status depthwise_conv2d_s16__mve_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(depthwise_conv2d_s16_check(ctx));
  const DepthwiseConv2dS16Params& p = ctx.params<DepthwiseConv2dS16Params>();
  if (p.depth_multiplier != 1) return Status::kBadParams;
  const Span<uint8_t> scratch = ctx.scratch();
  const int32_t out_c = static_cast<int32_t>(ctx.input_desc(1).dims[3]);
  if (scratch.size() < depthwise_conv2d_s16__mve_scratch_bytes(out_c) ||
      reinterpret_cast<uintptr_t>(scratch.data()) % 4 != 0) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void depthwise_conv2d_s16__mve_run(const OpContext& ctx) {
  const TensorDesc& filter = ctx.input_desc(1);
  const DepthwiseConv2dShape shape = window_shape(ctx.input_desc(0), filter, ctx.output_desc(0));
  const DepthwiseConv2dS16Params& p = ctx.params<DepthwiseConv2dS16Params>();
  const uint32_t out_c = filter.dims[3];
  const int64_t* bias =
      ctx.input_count() == 3 ? static_cast<const int64_t*>(ctx.input_data(2)) : nullptr;
  depthwise_conv2d_s16__mve(p, params_array(p, 0, out_c), params_array(p, 1, out_c), shape,
                            static_cast<const int16_t*>(ctx.input_data(0)),
                            static_cast<const int8_t*>(ctx.input_data(1)), bias,
                            static_cast<int16_t*>(ctx.output_data(0)),
                            reinterpret_cast<int32_t*>(ctx.scratch().data()));
}

const KernelEntry kDepthwiseConv2dS16MveEntry = {depthwise_conv2d_s16__mve_check,
                                                 depthwise_conv2d_s16__mve_run};

}  // namespace mote
