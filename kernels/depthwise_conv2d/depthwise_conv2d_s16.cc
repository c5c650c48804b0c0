// Reference 16x8 depthwise convolution (int16 activations, int8 weights, int64 bias),
// bit-exact with the int16 overload of TFLite's DepthwiseConvPerChannel. The int64 sum
// of products cannot overflow for valid shapes; adding the bias wraps if it must.
#include "depthwise_conv2d/depthwise_conv2d.h"
#include "depthwise_conv2d/depthwise_conv2d_shapes.h"
#include "kernel_util.h"
#include "quant/quant_check.h"
#include "quant/quant_math.h"

namespace mote {

void depthwise_conv2d_s16(const DepthwiseConv2dS16Params& params, const int32_t* multipliers,
                          const int32_t* shifts, const DepthwiseConv2dShape& shape,
                          const int16_t* input, const int8_t* filter, const int64_t* bias,
                          int16_t* output) {
  const int32_t depth_multiplier = params.depth_multiplier;
  const int32_t in_row_stride = shape.in_w * shape.in_c;
  const int32_t in_image_stride = shape.in_h * in_row_stride;
  const int32_t filter_row_stride = shape.kernel_w * shape.out_c;

  for (int32_t b = 0; b < shape.batch; ++b) {
    const int16_t* image = input + b * in_image_stride;
    for (int32_t oy = 0; oy < shape.out_h; ++oy) {
      const int32_t y0 = oy * params.window.stride_h - params.window.pad_top;
      const TapRange ky_range = taps_inside(y0, params.window.dilation_h, shape.kernel_h, shape.in_h);
      for (int32_t ox = 0; ox < shape.out_w; ++ox) {
        const int32_t x0 = ox * params.window.stride_w - params.window.pad_left;
        const TapRange kx_range =
            taps_inside(x0, params.window.dilation_w, shape.kernel_w, shape.in_w);
        for (int32_t oc = 0; oc < shape.out_c; ++oc) {
          const int32_t ic = oc / depth_multiplier;
          int64_t acc = 0;
          for (int32_t ky = ky_range.begin; ky < ky_range.end; ++ky) {
            const int16_t* in_row = image + (y0 + ky * params.window.dilation_h) * in_row_stride + ic;
            const int8_t* filter_row = filter + ky * filter_row_stride + oc;
            for (int32_t kx = kx_range.begin; kx < kx_range.end; ++kx) {
              const int32_t x = in_row[(x0 + kx * params.window.dilation_w) * shape.in_c];
              const int32_t w = filter_row[kx * shape.out_c];
              acc += static_cast<int64_t>(w * x);
            }
          }
          if (bias != nullptr) acc = wrapping_add64(acc, bias[oc]);
          const int32_t scaled = multiply_by_quantized_multiplier64(acc, multipliers[oc], shifts[oc]);
          *output++ = static_cast<int16_t>(clamp_i32(scaled, params.act_min, params.act_max));
        }
      }
    }
  }
}

Status depthwise_conv2d_s16_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 2, 3, 1));
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& filter = ctx.input_desc(1);
  const TensorDesc& out = ctx.output_desc(0);
  if (!is_s16(in) || !is_s8(filter) || !is_s16(out)) return Status::kBadParams;
  if (filter.rank != 4) return Status::kBadParams;
  const uint32_t out_c = filter.dims[3];
  if (!params_with_arrays(ctx, sizeof(DepthwiseConv2dS16Params), 2, out_c)) {
    return Status::kBadParams;
  }
  const DepthwiseConv2dS16Params& p = ctx.params<DepthwiseConv2dS16Params>();
  if (!depthwise_conv2d_shapes_valid(p, in, filter, out)) return Status::kBadParams;
  if (ctx.input_count() == 3 && ctx.has_input(2)) {
    const TensorDesc& bias = ctx.input_desc(2);
    if (!is_s64(bias) || bias.rank != 1 || bias.dims[0] != out_c) return Status::kBadParams;
  }
  if (!valid_quant_range<int16_t>(p.act_min, p.act_max)) return Status::kBadParams;
  if (!shifts_in_range(params_array(p, 1, out_c), out_c, kMinShift, kMaxShift64)) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

DepthwiseConv2dS16Args depthwise_conv2d_s16_args(const OpContext& ctx) {
  const TensorDesc& filter = ctx.input_desc(1);
  const DepthwiseConv2dS16Params& p = ctx.params<DepthwiseConv2dS16Params>();
  const uint32_t out_c = filter.dims[3];
  DepthwiseConv2dS16Args a;
  a.params = &p;
  a.multipliers = params_array(p, 0, out_c);
  a.shifts = params_array(p, 1, out_c);
  a.shape = window_shape(ctx.input_desc(0), filter, ctx.output_desc(0));
  a.input = static_cast<const int16_t*>(ctx.input_data(0));
  a.filter = static_cast<const int8_t*>(ctx.input_data(1));
  a.bias = ctx.input_count() == 3 ? static_cast<const int64_t*>(ctx.input_data(2)) : nullptr;
  a.output = static_cast<int16_t*>(ctx.output_data(0));
  return a;
}

void depthwise_conv2d_s16_run(const OpContext& ctx) {
  const DepthwiseConv2dS16Args a = depthwise_conv2d_s16_args(ctx);
  depthwise_conv2d_s16(*a.params, a.multipliers, a.shifts, a.shape, a.input, a.filter, a.bias, a.output);
}

const KernelEntry kDepthwiseConv2dS16Entry = {depthwise_conv2d_s16_check,
                                              depthwise_conv2d_s16_run};

}  // namespace mote
