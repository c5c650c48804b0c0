// ARMv6-M (Cortex-M0/M0+) 16x8 depthwise convolution for depth_multiplier 1 and windows
// of at most kExactTaps16x8V6m (511) taps, any stride, dilation and padding; bit-exact
// with depthwise_conv2d_s16. The reference spends on a Cortex-M0+ mostly per product and
// per output: int64 sums (two-word adds and sign extensions) and an int64
// requantization (a long multiply call). Here
//  - a window's products are summed in int32, which is exact for up to 511 taps (each
//    product is below 2^22 in magnitude);
//  - when every channel's shift is <= -1 and 2^15 * sum|w| + |bias| < 2^31 (checked
//    once per run), the bias folds into the requantization constants and each output
//    takes 13 instructions and the clamp (requant64_v6m_fast, quant/quant_math64_v6m.h);
//    otherwise each output takes requant64_v6m_output (the reference past int32);
//  - 3x3 windows with dilation_w 1 on that fast path run the pixels of a row whose
//    windows lie wholly inside the image two at a time (v6m::dot_s16_3x3_pair): the
//    weights, widened once per run to int32 in scratch next to each channel's constants,
//    are loaded once for both pixels (72 instructions per 18 multiply-accumulates);
//  - other pixels whose window rows have two or three neighbouring taps inside the image
//    (dilation_w 1) take one channel through all rows in one Thumb-1 loop
//    (v6m::dot_s16_wide);
//  - the window's tap ranges come from taps_inside() (which divides) only for pixels at
//    the image border.
// Scratch: per channel 16 bytes (requantization constants), plus 36 (int32 weights)
// for 3x3 windows; 4-aligned.
#include "depthwise_conv2d/depthwise_conv2d.h"
#include "depthwise_conv2d/depthwise_conv2d_shapes.h"
#include "isa/v6m.h"
#include "kernel_util.h"
#include "quant/quant_check.h"
#include "quant/quant_math64_v6m.h"
#include "window_taps.h"

namespace mote {
namespace {

// One channel's window: rows x cols taps, the input's x_row / x_col values apart and the
// filter's w_row / w_col bytes apart.
inline int32_t window_sum(const int16_t* x, const int8_t* w, int32_t rows, int32_t cols,
                          int32_t x_row, int32_t x_col, int32_t w_row, int32_t w_col) {
  uint32_t acc = 0;
  for (int32_t r = 0; r < rows; ++r, x += x_row, w += w_row) {
    const int16_t* xp = x;
    const int8_t* wp = w;
    for (int32_t k = 0; k < cols; ++k, xp += x_col, wp += w_col) {
      acc += static_cast<uint32_t>(*wp * *xp);
    }
  }
  return static_cast<int32_t>(acc);
}

// A channel's record in scratch: its fast requantization constants, then (3x3 windows)
// its nine weights as int32.
constexpr int32_t kRecordWords = 4;  // v6m::dot_s16_3x3_pair reads the weights 16 bytes in
constexpr int32_t kPairRecordWords = kRecordWords + 9;

// What every pixel's channels need: the requantization and the tap strides.
struct Layer {
  const int32_t* multipliers;
  const int32_t* shifts;
  const int64_t* bias;  // may be null
  const int32_t* records;  // c_count records of record_words (scratch); fast path only
  int32_t record_words;
  int32_t act_min, act_max;
  int32_t c_count;
  int32_t tap_step_y, tap_step_x;  // input values between window rows / columns
  int32_t filter_row_stride;
  bool dense_w;  // dilation_w 1: a window row's taps are neighbouring pixels
};

// Output value of channel c from its window sum: the fast form (kFast) or
// requant64_v6m_output.
template <bool kFast>
__attribute__((always_inline)) inline int16_t finish(const Layer& l, int32_t c, int32_t sum) {
  if (kFast) {
    return static_cast<int16_t>(requant64_v6m_fast(
        sum, reinterpret_cast<const Requant64V6mFast*>(l.records + c * l.record_words), l.act_min, l.act_max));
  }
  return requant64_v6m_output(sum, l.bias != nullptr ? l.bias + c : nullptr, l.multipliers[c], l.shifts[c],
                              l.act_min, l.act_max);
}

// Every channel of one pixel whose window has rows x cols taps inside the image, channel
// 0 of the first at in0 / w0.
template <bool kFast>
__attribute__((noinline)) void pixel(const Layer& l, const int16_t* in0, const int8_t* w0, int32_t rows,
                                     int32_t cols, int16_t* out) {
  if (l.dense_w && cols == 3) {  // three neighbouring columns inside the image
    for (int32_t c = 0; c < l.c_count; ++c) {
      const uint32_t sum =
          v6m::dot_s16_wide<3>(w0 + c, in0 + c, l.c_count, rows, l.filter_row_stride, l.tap_step_y, 0);
      out[c] = finish<kFast>(l, c, static_cast<int32_t>(sum));
    }
    return;
  }
  if (l.dense_w && cols == 2) {  // two (a 3x3 window at the left or right border)
    for (int32_t c = 0; c < l.c_count; ++c) {
      const uint32_t sum =
          v6m::dot_s16_wide<2>(w0 + c, in0 + c, l.c_count, rows, l.filter_row_stride, l.tap_step_y, 0);
      out[c] = finish<kFast>(l, c, static_cast<int32_t>(sum));
    }
    return;
  }
  for (int32_t c = 0; c < l.c_count; ++c) {
    const int32_t sum =
        window_sum(in0 + c, w0 + c, rows, cols, l.tap_step_y, l.tap_step_x, l.filter_row_stride, l.c_count);
    out[c] = finish<kFast>(l, c, sum);
  }
}

// Every channel of two pixels whose 3x3 windows (dilation_w 1) lie inside the image,
// channel 0 of their first taps at xa and xb; outputs at out and out + c_count.
__attribute__((noinline)) void pair(const Layer& l, const int16_t* xa, const int16_t* xb, int16_t* out) {
  const int32_t* rec = l.records;
  const int32_t n = l.c_count;
  const int32_t x_row = l.tap_step_y;
  const int32_t lo = l.act_min, hi = l.act_max;
  int16_t* const end = out + n;
  for (; out != end; ++out, rec += kPairRecordWords) {
    uint32_t a0, a1;
    v6m::dot_s16_3x3_pair(rec, xa, xb, n, x_row, &a0, &a1);  // moves xa, xb on
    const Requant64V6mFast* q = reinterpret_cast<const Requant64V6mFast*>(rec);
    out[0] = static_cast<int16_t>(requant64_v6m_fast(static_cast<int32_t>(a0), q, lo, hi));
    out[n] = static_cast<int16_t>(requant64_v6m_fast(static_cast<int32_t>(a1), q, lo, hi));
  }
}

// The records of every channel; false when some channel misses the fast form.
bool make_records(const int32_t* multipliers, const int32_t* shifts, const int64_t* bias, const int8_t* filter,
                  int32_t c_count, int32_t taps, bool with_weights, int32_t* records) {
  const int32_t words = with_weights ? kPairRecordWords : kRecordWords;
  for (int32_t c = 0; c < c_count; ++c, records += words) {
    const int64_t b = bias != nullptr ? bias[c] : 0;
    if (!requant64_v6m_fast_channel(multipliers[c], shifts[c], b, v6m_abs_weight_bound(filter + c, taps, c_count, b),
                                    reinterpret_cast<Requant64V6mFast*>(records))) {
      return false;
    }
    if (with_weights) {
      for (int32_t k = 0; k < 9; ++k) records[kRecordWords + k] = filter[k * c_count + c];
    }
  }
  return true;
}

template <bool kFast>
void run_layer(const Layer& l, const WindowGeometry& g, const DepthwiseConv2dShape& shape, const int16_t* input,
               const int8_t* filter, int16_t* output, bool pairs) {
  const int32_t c_count = l.c_count;
  const int32_t in_row_stride = shape.in_w * c_count;
  const int32_t in_image_stride = shape.in_h * in_row_stride;
  const int32_t span_h = (shape.kernel_h - 1) * g.dilation_h;
  const int32_t span_w = (shape.kernel_w - 1) * g.dilation_w;
  const int32_t pair_step = g.stride_w * c_count;
  for (int32_t b = 0; b < shape.batch; ++b, input += in_image_stride) {
    for (int32_t oy = 0; oy < shape.out_h; ++oy) {
      const int32_t y0 = oy * g.stride_h - g.pad_top;
      const bool full_h = y0 >= 0 && y0 + span_h < shape.in_h;
      const TapRange ky = full_h ? TapRange{0, shape.kernel_h}
                                 : taps_inside(y0, g.dilation_h, shape.kernel_h, shape.in_h);
      const int32_t rows = ky.end - ky.begin;
      const int16_t* in_y = input + (y0 + ky.begin * g.dilation_h) * in_row_stride;
      const int8_t* w_y = filter + ky.begin * l.filter_row_stride;
      int32_t x0 = -g.pad_left;
      for (int32_t ox = 0; ox < shape.out_w;) {
        if (kFast && pairs && full_h && x0 >= 0 && ox + 1 < shape.out_w &&
            x0 + g.stride_w + span_w < shape.in_w) {
          const int16_t* xa = in_y + x0 * c_count;
          pair(l, xa, xa + pair_step, output);
          output += 2 * c_count;
          ox += 2;
          x0 += 2 * g.stride_w;
          continue;
        }
        const TapRange kx = (x0 >= 0 && x0 + span_w < shape.in_w)
                                ? TapRange{0, shape.kernel_w}
                                : taps_inside(x0, g.dilation_w, shape.kernel_w, shape.in_w);
        pixel<kFast>(l, in_y + (x0 + kx.begin * g.dilation_w) * c_count, w_y + kx.begin * c_count, rows,
                     kx.end - kx.begin, output);
        output += c_count;
        ++ox;
        x0 += g.stride_w;
      }
    }
  }
}

bool has_pairs(const DepthwiseConv2dS16Params& params, int32_t kernel_h, int32_t kernel_w) {
  return kernel_h == 3 && kernel_w == 3 && params.window.dilation_w == 1;
}

}  // namespace

uint32_t depthwise_conv2d_s16__v6m_scratch_bytes(int32_t channels, int32_t kernel_h, int32_t kernel_w) {
  const int32_t words = kernel_h == 3 && kernel_w == 3 ? kPairRecordWords : kRecordWords;
  return static_cast<uint32_t>(channels) * static_cast<uint32_t>(words) * 4u;
}

void depthwise_conv2d_s16__v6m(const DepthwiseConv2dS16Params& params, const int32_t* multipliers,
                               const int32_t* shifts, const DepthwiseConv2dShape& shape,
                               const int16_t* input, const int8_t* filter, const int64_t* bias,
                               int16_t* output, uint8_t* scratch) {
  const int32_t c_count = shape.out_c;  // == in_c (depth_multiplier 1)
  const bool pairs = has_pairs(params, shape.kernel_h, shape.kernel_w);
  int32_t* records = reinterpret_cast<int32_t*>(scratch);
  const bool fast = make_records(multipliers, shifts, bias, filter, c_count, shape.kernel_h * shape.kernel_w,
                                 pairs, records);
  const Layer l = {multipliers,
                   shifts,
                   bias,
                   records,
                   pairs ? kPairRecordWords : kRecordWords,
                   params.act_min,
                   params.act_max,
                   c_count,
                   params.window.dilation_h * shape.in_w * c_count,
                   params.window.dilation_w * c_count,
                   shape.kernel_w * c_count,
                   params.window.dilation_w == 1};
  if (fast) {
    run_layer<true>(l, params.window, shape, input, filter, output, pairs);
  } else {
    run_layer<false>(l, params.window, shape, input, filter, output, pairs);
  }
}

Status depthwise_conv2d_s16__v6m_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(depthwise_conv2d_s16_check(ctx));
  const TensorDesc& filter = ctx.input_desc(1);
  const int32_t kh = static_cast<int32_t>(filter.dims[1]), kw = static_cast<int32_t>(filter.dims[2]);
  if (!depthwise_conv2d_s16__v6m_supports(ctx.params<DepthwiseConv2dS16Params>(), kh, kw)) {
    return Status::kBadParams;
  }
  const Span<uint8_t> scratch = ctx.scratch();
  if (scratch.size() < depthwise_conv2d_s16__v6m_scratch_bytes(static_cast<int32_t>(filter.dims[3]), kh, kw) ||
      reinterpret_cast<uintptr_t>(scratch.data()) % 4 != 0) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void depthwise_conv2d_s16__v6m_run(const OpContext& ctx) {
  const DepthwiseConv2dS16Args a = depthwise_conv2d_s16_args(ctx);
  depthwise_conv2d_s16__v6m(*a.params, a.multipliers, a.shifts, a.shape, a.input, a.filter, a.bias, a.output,
                            ctx.scratch().data());
}

const KernelEntry kDepthwiseConv2dS16V6mEntry = {depthwise_conv2d_s16__v6m_check,
                                                 depthwise_conv2d_s16__v6m_run};

}  // namespace mote
