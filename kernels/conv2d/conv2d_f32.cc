// Reference float32 2-D convolution (NHWC input, OHWI filter). Direct convolution: for
// each output pixel the range of kernel taps that land inside the image is computed
// once, so padding costs nothing in the inner loops.
#include "conv2d/conv2d.h"

#include "kernel_util.h"

namespace mote {

void conv2d_f32(const Conv2dParams& params, const Conv2dShape& shape, const float* input,
                const float* filter, const float* bias, float* output) {
  const int32_t in_c_per_group = shape.in_c / params.groups;
  const int32_t out_c_per_group = shape.out_c / params.groups;
  const int32_t filter_row_stride = shape.kernel_w * in_c_per_group;
  const int32_t filter_oc_stride = shape.kernel_h * filter_row_stride;
  const int32_t in_row_stride = shape.in_w * shape.in_c;
  const int32_t in_image_stride = shape.in_h * in_row_stride;

  for (int32_t b = 0; b < shape.batch; ++b) {
    const float* image = input + b * in_image_stride;
    for (int32_t oy = 0; oy < shape.out_h; ++oy) {
      const int32_t y0 = oy * params.window.stride_h - params.window.pad_top;
      const TapRange ky_range = taps_inside(y0, params.window.dilation_h, shape.kernel_h, shape.in_h);
      for (int32_t ox = 0; ox < shape.out_w; ++ox) {
        const int32_t x0 = ox * params.window.stride_w - params.window.pad_left;
        const TapRange kx_range =
            taps_inside(x0, params.window.dilation_w, shape.kernel_w, shape.in_w);
        for (int32_t g = 0; g < params.groups; ++g) {
          const float* image_group = image + g * in_c_per_group;
          const int32_t oc_end = (g + 1) * out_c_per_group;
          for (int32_t oc = g * out_c_per_group; oc < oc_end; ++oc) {
            const float* filter_oc = filter + oc * filter_oc_stride;
            float acc = bias != nullptr ? bias[oc] : 0.0f;
            for (int32_t ky = ky_range.begin; ky < ky_range.end; ++ky) {
              const float* in_row = image_group + (y0 + ky * params.window.dilation_h) * in_row_stride;
              const float* filter_row = filter_oc + ky * filter_row_stride;
              for (int32_t kx = kx_range.begin; kx < kx_range.end; ++kx) {
                const float* in_px = in_row + (x0 + kx * params.window.dilation_w) * shape.in_c;
                const float* w = filter_row + kx * in_c_per_group;
                for (int32_t ic = 0; ic < in_c_per_group; ++ic) acc += in_px[ic] * w[ic];
              }
            }
            *output++ = clamp_value(acc, params.act_min, params.act_max);
          }
        }
      }
    }
  }
}

Status conv2d_f32_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 2, 3, 1));
  if (ctx.params_bytes() != sizeof(Conv2dParams)) return Status::kBadParams;
  const Conv2dParams& p = ctx.params<Conv2dParams>();
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& filter = ctx.input_desc(1);
  const TensorDesc& out = ctx.output_desc(0);
  const bool has_bias = ctx.input_count() == 3 && ctx.has_input(2);

  if (!is_f32(in) || !is_f32(filter) || !is_f32(out)) return Status::kBadParams;
  if (in.rank != 4 || filter.rank != 4 || out.rank != 4) return Status::kBadParams;
  if (!index_math_fits(in) || !index_math_fits(filter) || !index_math_fits(out)) {
    return Status::kBadParams;
  }
  const int64_t in_c = in.dims[3];
  const int64_t out_c = filter.dims[0];
  if (p.groups < 1 || in_c % p.groups != 0 || out_c % p.groups != 0) return Status::kBadParams;
  if (filter.dims[3] != in_c / p.groups) return Status::kBadParams;
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

void conv2d_f32_run(const OpContext& ctx) {
  const Conv2dShape shape = window_shape(ctx.input_desc(0), ctx.input_desc(1), ctx.output_desc(0));
  const float* bias =
      ctx.input_count() == 3 ? static_cast<const float*>(ctx.input_data(2)) : nullptr;
  conv2d_f32(ctx.params<Conv2dParams>(), shape, static_cast<const float*>(ctx.input_data(0)),
             static_cast<const float*>(ctx.input_data(1)), bias,
             static_cast<float*>(ctx.output_data(0)));
}

const KernelEntry kConv2dF32Entry = {conv2d_f32_check, conv2d_f32_run};

}  // namespace mote
