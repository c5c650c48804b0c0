// Reference float32 depthwise 2-D convolution (NHWC). For each output pixel the output
// channels are accumulated in the output buffer itself, tap by tap, so the innermost
// loops walk input, filter and output channels contiguously.
#include "depthwise_conv2d/depthwise_conv2d.h"

#include "kernel_util.h"

namespace mote {

void depthwise_conv2d_f32(const DepthwiseConv2dParams& params, const DepthwiseConv2dShape& shape,
                          const float* input, const float* filter, const float* bias,
                          float* output) {
  const int32_t multiplier = params.depth_multiplier;
  const int32_t in_row_stride = shape.in_w * shape.in_c;
  const int32_t in_image_stride = shape.in_h * in_row_stride;
  const int32_t filter_row_stride = shape.kernel_w * shape.out_c;

  for (int32_t b = 0; b < shape.batch; ++b) {
    const float* image = input + b * in_image_stride;
    for (int32_t oy = 0; oy < shape.out_h; ++oy) {
      const int32_t y0 = oy * params.window.stride_h - params.window.pad_top;
      const TapRange ky_range = taps_inside(y0, params.window.dilation_h, shape.kernel_h, shape.in_h);
      for (int32_t ox = 0; ox < shape.out_w; ++ox) {
        const int32_t x0 = ox * params.window.stride_w - params.window.pad_left;
        const TapRange kx_range =
            taps_inside(x0, params.window.dilation_w, shape.kernel_w, shape.in_w);
        for (int32_t oc = 0; oc < shape.out_c; ++oc) {
          output[oc] = bias != nullptr ? bias[oc] : 0.0f;
        }
        for (int32_t ky = ky_range.begin; ky < ky_range.end; ++ky) {
          const float* in_row = image + (y0 + ky * params.window.dilation_h) * in_row_stride;
          const float* filter_row = filter + ky * filter_row_stride;
          for (int32_t kx = kx_range.begin; kx < kx_range.end; ++kx) {
            const float* in_px = in_row + (x0 + kx * params.window.dilation_w) * shape.in_c;
            const float* w = filter_row + kx * shape.out_c;
            float* out = output;
            for (int32_t c = 0; c < shape.in_c; ++c) {
              const float x = in_px[c];
              for (int32_t m = 0; m < multiplier; ++m) *out++ += x * *w++;
            }
          }
        }
        for (int32_t oc = 0; oc < shape.out_c; ++oc) {
          output[oc] = clamp_value(output[oc], params.act_min, params.act_max);
        }
        output += shape.out_c;
      }
    }
  }
}

Status depthwise_conv2d_f32_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 2, 3, 1));
  if (ctx.params_bytes() != sizeof(DepthwiseConv2dParams)) return Status::kBadParams;
  const DepthwiseConv2dParams& p = ctx.params<DepthwiseConv2dParams>();
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& filter = ctx.input_desc(1);
  const TensorDesc& out = ctx.output_desc(0);
  const bool has_bias = ctx.input_count() == 3 && ctx.has_input(2);

  if (!is_f32(in) || !is_f32(filter) || !is_f32(out)) return Status::kBadParams;
  if (in.rank != 4 || filter.rank != 4 || out.rank != 4) return Status::kBadParams;
  if (!index_math_fits(in) || !index_math_fits(filter) || !index_math_fits(out)) {
    return Status::kBadParams;
  }
  if (p.depth_multiplier < 1) return Status::kBadParams;
  const int64_t out_c = static_cast<int64_t>(in.dims[3]) * p.depth_multiplier;
  if (filter.dims[0] != 1 || filter.dims[3] != out_c) return Status::kBadParams;
  if (out.dims[0] != in.dims[0] || out.dims[3] != out_c) return Status::kBadParams;
  if (!valid_window(in.dims[1], out.dims[1], filter.dims[1], p.window.stride_h, p.window.dilation_h,
                    p.window.pad_top, p.window.pad_bottom, false) ||
      !valid_window(in.dims[2], out.dims[2], filter.dims[2], p.window.stride_w, p.window.dilation_w,
                    p.window.pad_left, p.window.pad_right, false)) {
    return Status::kBadParams;
  }
  if (has_bias) {
    const TensorDesc& bias = ctx.input_desc(2);
    if (!is_f32(bias) || bias.rank != 1 || bias.dims[0] != out_c) return Status::kBadParams;
  }
  if (!valid_act_range(p.act_min, p.act_max)) return Status::kBadParams;
  return Status::kOk;
}

void depthwise_conv2d_f32_run(const OpContext& ctx) {
  const DepthwiseConv2dShape shape = window_shape(ctx.input_desc(0), ctx.input_desc(1), ctx.output_desc(0));
  const float* bias =
      ctx.input_count() == 3 ? static_cast<const float*>(ctx.input_data(2)) : nullptr;
  depthwise_conv2d_f32(ctx.params<DepthwiseConv2dParams>(), shape,
                       static_cast<const float*>(ctx.input_data(0)),
                       static_cast<const float*>(ctx.input_data(1)), bias,
                       static_cast<float*>(ctx.output_data(0)));
}

const KernelEntry kDepthwiseConv2dF32Entry = {depthwise_conv2d_f32_check,
                                              depthwise_conv2d_f32_run};

}  // namespace mote
