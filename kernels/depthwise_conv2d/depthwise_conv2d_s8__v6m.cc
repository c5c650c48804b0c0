// ARMv6-M (Cortex-M0/M0+) int8 depthwise convolution for depth_multiplier 1, any kernel
// size, stride, dilation and padding, bit-exact with depthwise_conv2d_s8. What the
// reference spends on a Cortex-M0+ is mostly per output value, not per multiply (a 3x3
// window has 9): its requantization calls __aeabi_lmul and its tap ranges divide twice
// per pixel. Here
//  - 3x3 windows with dilation_w == 1 (the depthwise layers of MobileNet and DS-CNN), when
//    every channel has a right shift and a multiplier other than INT32_MIN
//    (requant_v6m_right_applies), take every channel of a pixel in one Thumb-1 block
//    (v6m::depthwise_3x3_pixel: the nine taps unrolled, 4 instructions per
//    multiply-accumulate, then requant_v6m_right_s8's arithmetic). Once per run the
//    scratch gets per channel the bias with the input offset folded in (bias + offset *
//    the sum of the channel's nine weights: sum w * (x + offset) = sum w * x + offset *
//    sum w, exact in the wrapping int32 arithmetic the reference accumulates in) and the
//    split multiplier with its requant floor (below which an output is act_min without
//    the arithmetic: from the params, where the compiler put them, else searched here
//    from 128 pixels), so the taps need no offset addition. With stride_w 1 or 2 two
//    neighbouring pixels whose windows are inside the image take one pass
//    (v6m::depthwise_3x3_pair: each weight and the shared inputs of a window row loaded
//    once for both). A pixel at the image border reads its window from a patch in
//    the scratch whose outside taps hold the input zero point (w * (zp - zp) = 0 with the
//    folded offset, as the reference skips them);
//  - elsewhere requantization takes four 32-bit MULS (requant_v6m_s8);
//  - the window's tap ranges come from taps_inside() (which divides) only for pixels at
//    the image border, and are shared by all channels of a pixel;
//  - other windows three taps wide with dilation_w == 1 take one channel through all
//    rows in one loop (v6m::dot_3wide, 19 instructions per window row) when all three
//    columns are inside the image; the rest take two channels through each window row
//    together (v6m::dot_strided_2, 6 instructions per multiply-accumulate with
//    dilation_w == 1), with the tap offsets inside the input and the filter stepped, not
//    recomputed.
// The int32 accumulators are uint32 and wrap exactly like the reference's.
#include <string.h>

#include "depthwise_conv2d/depthwise_conv2d.h"
#include "depthwise_conv2d/depthwise_conv2d_shapes.h"
#include "isa/v6m.h"
#include "isa/v6m_depthwise.h"
#include "kernel_util.h"
#include "quant/quant_check.h"
#include "quant/quant_math_v6m.h"

namespace mote {
namespace {

__attribute__((always_inline)) inline int8_t finish(const DepthwiseConv2dS8Params& p, const int32_t* multipliers,
                     const int32_t* shifts, const int32_t* bias, int32_t c, uint32_t acc) {
  if (bias != nullptr) acc += static_cast<uint32_t>(bias[c]);
  return requant_v6m_s8(static_cast<int32_t>(acc), multipliers[c], shifts[c],
                        p.output_zero_point, p.act_min, p.act_max);
}

// Outputs per channel from which finding each channel's requant floor (about 1,500
// instructions, requant_v6m_right_set_floor) pays for itself: it saves about 34 per output
// the activation clamps from below.
constexpr int32_t kFloorMinPixels = 128;

bool takes_3x3(const DepthwiseConv2dS8Params& p, const DepthwiseConv2dShape& shape) {
  return shape.kernel_h == 3 && shape.kernel_w == 3 && p.window.dilation_w == 1;
}

// Fills the 3x3 path's constants; false (the path is not taken) when a channel's
// requantization is outside requant_v6m_right_s8's.
// floors: the compiler's requant floors (validated by check()), or null: then found here
// when `search` (runs of kFloorMinPixels or more), else none.
bool prepare_3x3(const DepthwiseConv2dS8Params& p, const int32_t* multipliers, const int32_t* shifts,
                 const int32_t* floors, const int8_t* filter, const int32_t* bias, int32_t c_count,
                 bool search, v6m::Depthwise3x3Channel* channels) {
  const uint32_t off = static_cast<uint32_t>(-p.input_zero_point);
  for (int32_t c = 0; c < c_count; ++c) {
    const int32_t shift = requant_v6m_right_shift(multipliers[c], shifts[c]);
    if (!requant_v6m_right_applies(multipliers[c], shift)) return false;
    int32_t weight_sum = 0;
    for (int32_t k = 0; k < 9; ++k) weight_sum += filter[k * c_count + c];
    channels[c].bias = (bias != nullptr ? static_cast<uint32_t>(bias[c]) : 0u) +
                       off * static_cast<uint32_t>(weight_sum);
    channels[c].requant = requant_v6m_right_prepare(multipliers[c], shift);
    if (floors != nullptr) {
      channels[c].requant.floor = floors[c];
    } else if (search) {
      requant_v6m_right_set_floor(channels[c].requant, multipliers[c], p.output_zero_point, p.act_min, p.act_max);
    }
  }
  return true;
}

constexpr uint32_t round_up4(uint32_t n) { return (n + 3u) & ~3u; }

// The 3x3 window of the pixel whose top left tap is (y0, x0) (dilation_w 1), C bytes per
// tap, into patch (rows 3 * C bytes apart); taps outside the image get the input zero
// point, whose product with the folded offset cancels: w * (zp - zp) = 0, as the
// reference skips them.
void fill_patch(const int8_t* image, int32_t y0, int32_t x0, int32_t dilation_h,
                const DepthwiseConv2dShape& shape, int32_t input_zero_point, int8_t* patch) {
  const int32_t c_count = shape.out_c;
  const uint32_t row_bytes = 3u * static_cast<uint32_t>(c_count);
  for (int32_t r = 0; r < 3; ++r, patch += row_bytes) {
    const int32_t y = y0 + r * dilation_h;
    if (y < 0 || y >= shape.in_h) {
      memset(patch, input_zero_point, row_bytes);
      continue;
    }
    const int8_t* row = image + y * shape.in_w * c_count;
    if (x0 >= 0 && x0 + 2 < shape.in_w) {
      memcpy(patch, row + x0 * c_count, row_bytes);
      continue;
    }
    for (int32_t k = 0; k < 3; ++k) {
      const int32_t x = x0 + k;
      int8_t* tap = patch + k * c_count;
      if (x < 0 || x >= shape.in_w) {
        memset(tap, input_zero_point, static_cast<uint32_t>(c_count));
      } else {
        memcpy(tap, row + x * c_count, static_cast<uint32_t>(c_count));
      }
    }
  }
}

}  // namespace

uint32_t depthwise_conv2d_s8__v6m_scratch_bytes(const DepthwiseConv2dS8Params& params,
                                                const DepthwiseConv2dShape& shape) {
  if (!takes_3x3(params, shape)) return 0;
  const uint32_t c_count = static_cast<uint32_t>(shape.out_c);
  return c_count * sizeof(v6m::Depthwise3x3Channel) + round_up4(9 * c_count);
}

void depthwise_conv2d_s8__v6m(const DepthwiseConv2dS8Params& params, const int32_t* multipliers,
                              const int32_t* shifts, const int32_t* floors, const DepthwiseConv2dShape& shape,
                              const int8_t* input, const int8_t* filter, const int32_t* bias,
                              int8_t* output, void* scratch) {
  const int32_t c_count = shape.out_c;  // == in_c (depth_multiplier 1)
  const int32_t in_row_stride = shape.in_w * c_count;
  const int32_t in_image_stride = shape.in_h * in_row_stride;
  const int32_t filter_row_stride = shape.kernel_w * c_count;
  const int32_t off = -params.input_zero_point;
  const int32_t span_h = (shape.kernel_h - 1) * params.window.dilation_h;
  const int32_t span_w = (shape.kernel_w - 1) * params.window.dilation_w;
  const int32_t tap_step_y = params.window.dilation_h * in_row_stride;  // input bytes between rows
  const int32_t tap_step_x = params.window.dilation_w * c_count;        // .. between columns
  const bool dense_w = params.window.dilation_w == 1;
  const bool three_wide = dense_w && shape.kernel_w == 3;
  auto* const channels = static_cast<v6m::Depthwise3x3Channel*>(scratch);
  const bool fast_3x3 = channels != nullptr && takes_3x3(params, shape) &&
                        prepare_3x3(params, multipliers, shifts, floors, filter, bias, c_count,
                                    shape.batch * shape.out_h * shape.out_w >= kFloorMinPixels, channels);
  int8_t* const patch = fast_3x3 ? reinterpret_cast<int8_t*>(channels + c_count) : nullptr;  // 3 x 3 x C
  // Neighbouring windows one or two channel groups apart.
  const bool pairs = params.window.stride_w == 1 || params.window.stride_w == 2;
  const int32_t pair_span = params.window.stride_w + 3;  // the two windows' columns
  const RequantV6mOutput k =
      requant_v6m_output_constants(params.output_zero_point, params.act_min, params.act_max);

  for (int32_t b = 0; b < shape.batch; ++b) {
    const int8_t* image = input + b * in_image_stride;
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
        const int8_t* in0 = image + (y0 + ky.begin * params.window.dilation_h) * in_row_stride +
                            (x0 + kx.begin * params.window.dilation_w) * c_count;
        const int8_t* w0 = filter + ky.begin * filter_row_stride + kx.begin * c_count;
        int32_t c = 0;
        if (fast_3x3 && pairs && rows == 3 && x0 >= 0 && x0 + pair_span <= shape.in_w && ox + 1 < shape.out_w) {
          // This pixel and the next, both windows inside the image: one pass for the two.
          if (params.window.stride_w == 1) {
            v6m::depthwise_3x3_pair<1>(channels, c_count, filter, in0, tap_step_y, output, k);
          } else {
            v6m::depthwise_3x3_pair<2>(channels, c_count, filter, in0, tap_step_y, output, k);
          }
          output += 2 * c_count;
          ++ox;
          x0 += params.window.stride_w;
          continue;
        }
        if (fast_3x3) {
          const int8_t* x = in0;
          int32_t x_row = tap_step_y;
          if (rows != 3 || cols != 3) {  // at the border: the window with its outside taps at the zero point
            fill_patch(image, y0, x0, params.window.dilation_h, shape, params.input_zero_point, patch);
            x = patch;
            x_row = 3 * c_count;
          }
          v6m::depthwise_3x3_pixel(channels, c_count, filter, x, x_row, output, params.output_zero_point,
                                   params.act_min, params.act_max);
          c = c_count;
        } else if (three_wide && cols == 3) {  // the window's three columns are inside the image
          for (; c < c_count; ++c) {
            const uint32_t acc = v6m::dot_3wide(w0 + c, in0 + c, c_count, rows,
                                                filter_row_stride, tap_step_y, off, 0);
            output[c] = finish(params, multipliers, shifts, bias, c, acc);
          }
        }
        for (; c + 1 < c_count; c += 2) {
          uint32_t acc[2] = {0, 0};
          const int8_t* in_row = in0 + c;
          const int8_t* w_row = w0 + c;
          for (int32_t r = 0; r < rows; ++r, in_row += tap_step_y, w_row += filter_row_stride) {
            if (dense_w) {  // input and filter taps both c_count bytes apart
              v6m::dot_strided_2(w_row, in_row, c_count, cols, off, acc);
              continue;
            }
            const int8_t* x = in_row;
            const int8_t* w = w_row;
            for (int32_t k = 0; k < cols; ++k, x += tap_step_x, w += c_count) {
              acc[0] += static_cast<uint32_t>(w[0] * (x[0] + off));
              acc[1] += static_cast<uint32_t>(w[1] * (x[1] + off));
            }
          }
          output[c] = finish(params, multipliers, shifts, bias, c, acc[0]);
          output[c + 1] = finish(params, multipliers, shifts, bias, c + 1, acc[1]);
        }
        if (c < c_count) {
          uint32_t acc = 0;
          const int8_t* in_row = in0 + c;
          const int8_t* w_row = w0 + c;
          for (int32_t r = 0; r < rows; ++r, in_row += tap_step_y, w_row += filter_row_stride) {
            const int8_t* x = in_row;
            const int8_t* w = w_row;
            for (int32_t k = 0; k < cols; ++k, x += tap_step_x, w += c_count) {
              acc += static_cast<uint32_t>(w[0] * (x[0] + off));
            }
          }
          output[c] = finish(params, multipliers, shifts, bias, c, acc);
        }
        output += c_count;
      }
    }
  }
}

void depthwise_conv2d_s8__v6m_floors(const DepthwiseConv2dS8Params& params, const int32_t* multipliers,
                                     const int32_t* shifts, int32_t channels, int32_t* floors) {
  for (int32_t c = 0; c < channels; ++c) {
    floors[c] = requant_v6m_floor(multipliers[c], shifts[c], params.output_zero_point, params.act_min,
                                  params.act_max);
  }
}

namespace {

// The params carry the requant floors (a third int32 array after the reference's two).
bool has_floors(const OpContext& ctx, uint32_t out_c) {
  return params_with_arrays(ctx, sizeof(DepthwiseConv2dS8Params), 3, out_c);
}

}  // namespace

// check(): the reference's, depth multiplier 1, and each of the floors (if the params
// carry them) safe for its channel (requant_v6m_floor_valid: one requantization each).
Status depthwise_conv2d_s8__v6m_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 2, 3, 1));
  if (ctx.input_desc(1).rank != 4) return Status::kBadParams;
  const uint32_t out_c = ctx.input_desc(1).dims[3];
  const bool floors = has_floors(ctx, out_c);
  MOTE_RETURN_IF_ERROR(depthwise_conv2d_s8_check_params(ctx, floors ? 4u * out_c : 0u));
  const DepthwiseConv2dS8Params& p = ctx.params<DepthwiseConv2dS8Params>();
  if (p.depth_multiplier != 1) return Status::kBadParams;
  if (floors && !requant_v6m_floors_valid(params_array(p, 2, out_c), params_array(p, 0, out_c),
                                          params_array(p, 1, out_c), out_c, p.output_zero_point, p.act_min,
                                          p.act_max)) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void depthwise_conv2d_s8__v6m_run(const OpContext& ctx) {
  const TensorDesc& filter = ctx.input_desc(1);
  const DepthwiseConv2dShape shape =
      window_shape(ctx.input_desc(0), filter, ctx.output_desc(0));
  const DepthwiseConv2dS8Params& p = ctx.params<DepthwiseConv2dS8Params>();
  const uint32_t out_c = filter.dims[3];
  const int32_t* bias =
      ctx.input_count() == 3 ? static_cast<const int32_t*>(ctx.input_data(2)) : nullptr;
  const uint32_t scratch_bytes = depthwise_conv2d_s8__v6m_scratch_bytes(p, shape);
  void* scratch = scratch_bytes != 0 && ctx.scratch().size() >= scratch_bytes &&
                          (reinterpret_cast<uintptr_t>(ctx.scratch().data()) & 3u) == 0
                      ? ctx.scratch().data()
                      : nullptr;
  depthwise_conv2d_s8__v6m(p, params_array(p, 0, out_c), params_array(p, 1, out_c),
                           has_floors(ctx, out_c) ? params_array(p, 2, out_c) : nullptr, shape,
                           static_cast<const int8_t*>(ctx.input_data(0)),
                           static_cast<const int8_t*>(ctx.input_data(1)), bias,
                           static_cast<int8_t*>(ctx.output_data(0)), scratch);
}

const KernelEntry kDepthwiseConv2dS8V6mEntry = {depthwise_conv2d_s8__v6m_check,
                                                depthwise_conv2d_s8__v6m_run};

}  // namespace mote
