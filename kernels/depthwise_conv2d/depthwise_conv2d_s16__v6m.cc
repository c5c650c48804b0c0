// ARMv6-M (Cortex-M0/M0+) 16x8 depthwise convolution for depth_multiplier 1 and windows
// of at most kExactTaps16x8V6m (511) taps, any stride, dilation and padding; bit-exact
// with depthwise_conv2d_s16. The reference spends on a Cortex-M0+ mostly per product and
// per output: int64 sums (two-word adds and sign extensions) and an int64
// requantization (a long multiply call). Here
//  - a window's products are summed in int32, which is exact for up to 511 taps (each
//    product is below 2^22 in magnitude), and widened once;
//  - requantization takes two 32-bit MULS when the accumulator plus bias fits int32
//    (quant/quant_math64_v6m.h);
//  - the window's tap ranges come from taps_inside() (which divides) only for pixels at
//    the image border, and are shared by all channels of a pixel; the tap offsets of the
//    input and the filter are stepped, not recomputed.
// No scratch.
#include "depthwise_conv2d/depthwise_conv2d.h"
#include "depthwise_conv2d/depthwise_conv2d_shapes.h"
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

// What every output value's requantization needs.
struct Output {
  const int32_t* multipliers;
  const int32_t* shifts;
  const int64_t* bias;  // may be null
  int32_t act_min, act_max;
};

// Output value of channel c from its window sum. Out of line: the pixel loop then keeps
// its pointers in registers.
__attribute__((noinline)) int16_t finish(const Output& o, int32_t c, int32_t sum) {
  return requant64_v6m_output(sum, o.bias != nullptr ? o.bias + c : nullptr, o.multipliers[c], o.shifts[c],
                              o.act_min, o.act_max);
}

}  // namespace

void depthwise_conv2d_s16__v6m(const DepthwiseConv2dS16Params& params, const int32_t* multipliers,
                               const int32_t* shifts, const DepthwiseConv2dShape& shape,
                               const int16_t* input, const int8_t* filter, const int64_t* bias,
                               int16_t* output) {
  const int32_t c_count = shape.out_c;  // == in_c (depth_multiplier 1)
  const int32_t in_row_stride = shape.in_w * c_count;
  const int32_t in_image_stride = shape.in_h * in_row_stride;
  const int32_t filter_row_stride = shape.kernel_w * c_count;
  const int32_t span_h = (shape.kernel_h - 1) * params.window.dilation_h;
  const int32_t span_w = (shape.kernel_w - 1) * params.window.dilation_w;
  const int32_t tap_step_y = params.window.dilation_h * in_row_stride;  // input values between rows
  const int32_t tap_step_x = params.window.dilation_w * c_count;        // .. between columns
  const bool three_wide = params.window.dilation_w == 1 && shape.kernel_w == 3;
  const Output o = {multipliers, shifts, bias, params.act_min, params.act_max};

  for (int32_t b = 0; b < shape.batch; ++b) {
    const int16_t* image = input + b * in_image_stride;
    for (int32_t oy = 0; oy < shape.out_h; ++oy) {
      const int32_t y0 = oy * params.window.stride_h - params.window.pad_top;
      const TapRange ky = (y0 >= 0 && y0 + span_h < shape.in_h)
                              ? TapRange{0, shape.kernel_h}
                              : taps_inside(y0, params.window.dilation_h, shape.kernel_h, shape.in_h);
      const int32_t rows = ky.end - ky.begin;
      int32_t x0 = -params.window.pad_left;
      for (int32_t ox = 0; ox < shape.out_w; ++ox, x0 += params.window.stride_w) {
        const TapRange kx = (x0 >= 0 && x0 + span_w < shape.in_w)
                                ? TapRange{0, shape.kernel_w}
                                : taps_inside(x0, params.window.dilation_w, shape.kernel_w, shape.in_w);
        const int32_t cols = kx.end - kx.begin;
        // Channel 0 of the first tap inside the image, in the input and in the filter.
        const int16_t* in0 = image + (y0 + ky.begin * params.window.dilation_h) * in_row_stride +
                             (x0 + kx.begin * params.window.dilation_w) * c_count;
        const int8_t* w0 = filter + ky.begin * filter_row_stride + kx.begin * c_count;
        if (three_wide && cols == 3) {  // the window's three columns are inside the image
          for (int32_t c = 0; c < c_count; ++c) {
            const uint32_t sum = v6m::dot_s16_3wide(w0 + c, in0 + c, c_count, rows, filter_row_stride,
                                                    tap_step_y, 0);
            output[c] = finish(o, c, static_cast<int32_t>(sum));
          }
        } else {
          for (int32_t c = 0; c < c_count; ++c) {
            const int32_t sum = window_sum(in0 + c, w0 + c, rows, cols, tap_step_y, tap_step_x,
                                           filter_row_stride, c_count);
            output[c] = finish(o, c, sum);
          }
        }
        output += c_count;
      }
    }
  }
}

Status depthwise_conv2d_s16__v6m_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(depthwise_conv2d_s16_check(ctx));
  if (!depthwise_conv2d_s16__v6m_supports(ctx.params<DepthwiseConv2dS16Params>(),
                                          static_cast<int32_t>(ctx.input_desc(1).dims[1]),
                                          static_cast<int32_t>(ctx.input_desc(1).dims[2]))) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void depthwise_conv2d_s16__v6m_run(const OpContext& ctx) {
  const TensorDesc& filter = ctx.input_desc(1);
  const DepthwiseConv2dShape shape =
      window_shape(ctx.input_desc(0), filter, ctx.output_desc(0));
  const DepthwiseConv2dS16Params& p = ctx.params<DepthwiseConv2dS16Params>();
  const uint32_t out_c = filter.dims[3];
  const int64_t* bias =
      ctx.input_count() == 3 ? static_cast<const int64_t*>(ctx.input_data(2)) : nullptr;
  depthwise_conv2d_s16__v6m(p, params_array(p, 0, out_c), params_array(p, 1, out_c), shape,
                            static_cast<const int16_t*>(ctx.input_data(0)),
                            static_cast<const int8_t*>(ctx.input_data(1)), bias,
                            static_cast<int16_t*>(ctx.output_data(0)));
}

const KernelEntry kDepthwiseConv2dS16V6mEntry = {depthwise_conv2d_s16__v6m_check,
                                                 depthwise_conv2d_s16__v6m_run};

}  // namespace mote
