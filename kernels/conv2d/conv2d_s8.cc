// Reference int8 2-D convolution with per-channel requantization, bit-exact with TFLite's
// reference_integer_ops::ConvPerChannel. Same loop structure as conv2d_f32.cc: the taps
// inside the image are found once per output pixel, so padding costs nothing inside.
//
// The accumulator is a uint32: products fit int32 and the running sum wraps exactly
// like TFLite's int32 accumulator would (TFLite documents that it does not overflow
// below 2^16 taps per output).
#include "conv2d/conv2d.h"
#include "conv2d/conv2d_shapes.h"
#include "kernel_util.h"
#include "quant/quant_check.h"
#include "quant/quant_math.h"

namespace mote {

void conv2d_s8(const Conv2dS8Params& params, const int32_t* multipliers, const int32_t* shifts,
               const Conv2dShape& shape, const int8_t* input, const int8_t* filter,
               const int32_t* bias, int8_t* output) {
  const int32_t in_c_per_group = shape.in_c / params.groups;
  const int32_t out_c_per_group = shape.out_c / params.groups;
  const int32_t filter_row_stride = shape.kernel_w * in_c_per_group;
  const int32_t filter_oc_stride = shape.kernel_h * filter_row_stride;
  const int32_t in_row_stride = shape.in_w * shape.in_c;
  const int32_t in_image_stride = shape.in_h * in_row_stride;
  const int32_t input_offset = -params.input_zero_point;

  for (int32_t b = 0; b < shape.batch; ++b) {
    const int8_t* image = input + b * in_image_stride;
    for (int32_t oy = 0; oy < shape.out_h; ++oy) {
      const int32_t y0 = oy * params.window.stride_h - params.window.pad_top;
      const TapRange ky_range = taps_inside(y0, params.window.dilation_h, shape.kernel_h, shape.in_h);
      for (int32_t ox = 0; ox < shape.out_w; ++ox) {
        const int32_t x0 = ox * params.window.stride_w - params.window.pad_left;
        const TapRange kx_range =
            taps_inside(x0, params.window.dilation_w, shape.kernel_w, shape.in_w);
        for (int32_t oc = 0; oc < shape.out_c; ++oc) {
          const int8_t* image_group = image + (oc / out_c_per_group) * in_c_per_group;
          const int8_t* filter_oc = filter + oc * filter_oc_stride;
          uint32_t acc = 0;
          for (int32_t ky = ky_range.begin; ky < ky_range.end; ++ky) {
            const int8_t* in_row = image_group + (y0 + ky * params.window.dilation_h) * in_row_stride;
            const int8_t* filter_row = filter_oc + ky * filter_row_stride;
            for (int32_t kx = kx_range.begin; kx < kx_range.end; ++kx) {
              const int8_t* in_px = in_row + (x0 + kx * params.window.dilation_w) * shape.in_c;
              const int8_t* w = filter_row + kx * in_c_per_group;
              for (int32_t ic = 0; ic < in_c_per_group; ++ic) {
                acc += static_cast<uint32_t>(w[ic] * (in_px[ic] + input_offset));
              }
            }
          }
          if (bias != nullptr) acc += static_cast<uint32_t>(bias[oc]);
          const int32_t scaled =
              multiply_by_quantized_multiplier(static_cast<int32_t>(acc), multipliers[oc], shifts[oc]);
          *output++ = static_cast<int8_t>(
              clamp_i32(wrapping_add(scaled, params.output_zero_point), params.act_min, params.act_max));
        }
      }
    }
  }
}

Status conv2d_s8_check(const OpContext& ctx) { return conv2d_s8_check_params(ctx, 0); }

Status conv2d_s8_check_params(const OpContext& ctx, uint32_t extra_param_bytes) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 2, 3, 1));
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& filter = ctx.input_desc(1);
  const TensorDesc& out = ctx.output_desc(0);
  if (!is_s8(in) || !is_s8(filter) || !is_s8(out)) return Status::kBadParams;
  if (in.rank != 4 || filter.rank != 4) return Status::kBadParams;
  const uint32_t out_c = filter.dims[0];
  if (!params_with_arrays(ctx, sizeof(Conv2dS8Params) + extra_param_bytes, 2, out_c)) return Status::kBadParams;
  const Conv2dS8Params& p = ctx.params<Conv2dS8Params>();
  if (!conv2d_shapes_valid(p, in, filter, out)) return Status::kBadParams;
  if (ctx.input_count() == 3 && ctx.has_input(2)) {
    const TensorDesc& bias = ctx.input_desc(2);
    if (!is_s32(bias) || bias.rank != 1 || bias.dims[0] != out_c) return Status::kBadParams;
  }
  if (!valid_zero_point<int8_t>(p.input_zero_point) ||
      !valid_zero_point<int8_t>(p.output_zero_point) ||
      !valid_quant_range<int8_t>(p.act_min, p.act_max)) {
    return Status::kBadParams;
  }
  if (!shifts_in_range(params_array(p, 1, out_c), out_c, kMinShift, kMaxShift)) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void conv2d_s8_run(const OpContext& ctx) {
  const Conv2dS8Operands o = conv2d_s8_operands(ctx);
  conv2d_s8(o.params, o.multipliers, o.shifts, o.shape, o.input, o.filter, o.bias, o.output);
}

const KernelEntry kConv2dS8Entry = {conv2d_s8_check, conv2d_s8_run};

}  // namespace mote
