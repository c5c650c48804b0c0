// ARMv6-M (Cortex-M0/M0+) 16x8 depthwise convolution for depth_multiplier 1 and windows
// of at most kExactTaps16x8V6m (511) taps, any stride, dilation and padding; bit-exact
// with depthwise_conv2d_s16. The reference spends on a Cortex-M0+ mostly per product and
// per output: int64 sums (two-word adds and sign extensions) and an int64
// requantization (a long multiply call). Here
//  - a window's products are summed in int32, which is exact for up to 511 taps (each
//    product is below 2^22 in magnitude), and widened once;
//  - requantization takes two 32-bit MULS when the accumulator plus bias fits int32
//    (quant/quant_math64_v6m.h), from per-channel constants made once per run in scratch;
//  - windows three taps wide (MobileNet's 3x3) take one channel through all rows in one
//    Thumb-1 loop (v6m::dot_s16_3wide, 16 instructions per window row) where all three
//    columns are inside the image;
//  - the window's tap ranges come from taps_inside() (which divides) only for pixels at
//    the image border (depthwise_conv2d_v6m_windows.h).
// Scratch: 12 bytes per channel, 4-aligned.
#include "depthwise_conv2d/depthwise_conv2d.h"
#include "depthwise_conv2d/depthwise_conv2d_shapes.h"
#include "depthwise_conv2d/depthwise_conv2d_v6m_windows.h"
#include "isa/v6m.h"
#include "kernel_util.h"
#include "quant/quant_check.h"
#include "quant/quant_math64_v6m.h"

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

// What every pixel's channels need: the requantization and the tap strides.
struct Layer {
  const int32_t* multipliers;
  const int32_t* shifts;
  const int64_t* bias;  // may be null
  const Requant64V6mChannel* channels;  // c_count entries (scratch)
  int32_t act_min, act_max;
  int32_t c_count;
  int32_t tap_step_y, tap_step_x;  // input values between window rows / columns
  int32_t filter_row_stride;
  bool three_wide;  // kernel_w 3, dilation_w 1
};

// Output value of channel c from its window sum when its constants cannot give it (a
// bias or sum past int32). Out of line: rare.
__attribute__((noinline)) int16_t finish_slow(const Layer& l, int32_t c, int32_t sum) {
  return requant64_v6m_output(sum, l.bias != nullptr ? l.bias + c : nullptr, l.multipliers[c], l.shifts[c],
                              l.act_min, l.act_max);
}

// Output value of channel c from its window sum.
__attribute__((always_inline)) inline int16_t finish(const Layer& l, int32_t c, int32_t sum) {
  int16_t out;
  if (requant64_v6m_channel_output(sum, l.channels[c], l.act_min, l.act_max, &out)) return out;
  return finish_slow(l, c, sum);
}

// Every channel of one pixel whose window has rows x cols taps inside the image, channel
// 0 of the first at in0 / w0.
__attribute__((noinline)) void pixel(const Layer& l, const int16_t* in0, const int8_t* w0, int32_t rows,
                                     int32_t cols, int16_t* out) {
  if (l.three_wide && cols == 3) {  // the window's three columns are inside the image
    for (int32_t c = 0; c < l.c_count; ++c) {
      const uint32_t sum =
          v6m::dot_s16_3wide(w0 + c, in0 + c, l.c_count, rows, l.filter_row_stride, l.tap_step_y, 0);
      out[c] = finish(l, c, static_cast<int32_t>(sum));
    }
    return;
  }
  for (int32_t c = 0; c < l.c_count; ++c) {
    const int32_t sum =
        window_sum(in0 + c, w0 + c, rows, cols, l.tap_step_y, l.tap_step_x, l.filter_row_stride, l.c_count);
    out[c] = finish(l, c, sum);
  }
}

}  // namespace

uint32_t depthwise_conv2d_s16__v6m_scratch_bytes(int32_t channels) {
  return static_cast<uint32_t>(channels) * static_cast<uint32_t>(sizeof(Requant64V6mChannel));
}

void depthwise_conv2d_s16__v6m(const DepthwiseConv2dS16Params& params, const int32_t* multipliers,
                               const int32_t* shifts, const DepthwiseConv2dShape& shape,
                               const int16_t* input, const int8_t* filter, const int64_t* bias,
                               int16_t* output, uint8_t* scratch) {
  const int32_t c_count = shape.out_c;  // == in_c (depth_multiplier 1)
  const int32_t in_image_stride = shape.in_h * shape.in_w * c_count;
  Requant64V6mChannel* channels = reinterpret_cast<Requant64V6mChannel*>(scratch);
  requant64_v6m_channels(multipliers, shifts, bias, c_count, channels);
  const Layer l = {multipliers,
                   shifts,
                   bias,
                   channels,
                   params.act_min,
                   params.act_max,
                   c_count,
                   params.window.dilation_h * shape.in_w * c_count,
                   params.window.dilation_w * c_count,
                   shape.kernel_w * c_count,
                   params.window.dilation_w == 1 && shape.kernel_w == 3};
  for_each_v6m_depthwise_window(params.window, shape, [&](const V6mDepthwiseWindow& win, int32_t b) {
    pixel(l, input + b * in_image_stride + win.x_first, filter + win.w_first, win.rows, win.cols, output);
    output += c_count;
  });
}

Status depthwise_conv2d_s16__v6m_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(depthwise_conv2d_s16_check(ctx));
  const TensorDesc& filter = ctx.input_desc(1);
  if (!depthwise_conv2d_s16__v6m_supports(ctx.params<DepthwiseConv2dS16Params>(), static_cast<int32_t>(filter.dims[1]),
                                          static_cast<int32_t>(filter.dims[2]))) {
    return Status::kBadParams;
  }
  const Span<uint8_t> scratch = ctx.scratch();
  if (scratch.size() < uint64_t{filter.dims[3]} * sizeof(Requant64V6mChannel) ||
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
