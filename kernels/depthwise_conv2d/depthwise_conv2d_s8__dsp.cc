// int8 depthwise convolution, depth multiplier 1, any filter size, stride, dilation and
// padding, with the Armv7E-M DSP extension; bit-exact with depthwise_conv2d_s8.
//
// Algorithm. Per output pixel, four channels at a time over the taps inside the image
// (depthwise_conv2d_s8_dsp_common.h): two word loads, four extends (the input offset is
// added by SXTAB16) and four SMLAxy per tap and group, accumulators starting at the bias,
// then the group's four outputs requantized together.
#include "depthwise_conv2d/depthwise_conv2d.h"
#include "depthwise_conv2d/depthwise_conv2d_s8_dsp_common.h"
#include "depthwise_conv2d/depthwise_conv2d_shapes.h"
#include "quant/quant_check.h"

namespace mote {

uint32_t depthwise_conv2d_s8__dsp_scratch_bytes(const DepthwiseConv2dS8Params& /*params*/,
                                                const DepthwiseConv2dShape& shape) {
  return depthwise_dsp::output_table_bytes(shape.in_c);
}

void depthwise_conv2d_s8__dsp(const DepthwiseConv2dS8Params& params, const int32_t* multipliers,
                              const int32_t* shifts, const DepthwiseConv2dShape& shape,
                              const int8_t* input, const int8_t* filter, const int32_t* bias,
                              int8_t* output, void* scratch) {
  const int32_t channels = shape.in_c;
  const int32_t in_image_stride = shape.in_h * shape.in_w * channels;
  const depthwise_dsp::Output out = depthwise_dsp::make_output(
      params, multipliers, shifts, bias, channels, shape.kernel_h * shape.kernel_w,
      static_cast<depthwise_dsp::ChannelRequant*>(scratch));
  for (int32_t b = 0; b < shape.batch; ++b) {
    const int8_t* image = input + b * in_image_stride;
    for (int32_t oy = 0; oy < shape.out_h; ++oy) {
      const int32_t y0 = oy * params.window.stride_h - params.window.pad_top;
      for (int32_t ox = 0; ox < shape.out_w; ++ox) {
        const int32_t x0 = ox * params.window.stride_w - params.window.pad_left;
        depthwise_dsp::pixel(params, shape, out, image, filter, y0, x0, output);
        output += channels;
      }
    }
  }
}

Status depthwise_conv2d_s8__dsp_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(depthwise_conv2d_s8_check(ctx));
  const DepthwiseConv2dS8Params& p = ctx.params<DepthwiseConv2dS8Params>();
  if (!depthwise_conv2d_s8__dsp_supports(p)) return Status::kBadParams;
  const DepthwiseConv2dShape shape =
      window_shape(ctx.input_desc(0), ctx.input_desc(1), ctx.output_desc(0));
  if (ctx.scratch().size() < depthwise_conv2d_s8__dsp_scratch_bytes(p, shape) ||
      (reinterpret_cast<uintptr_t>(ctx.scratch().data()) & 3u) != 0) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void depthwise_conv2d_s8__dsp_run(const OpContext& ctx) {
  const TensorDesc& filter = ctx.input_desc(1);
  const DepthwiseConv2dShape shape =
      window_shape(ctx.input_desc(0), filter, ctx.output_desc(0));
  const DepthwiseConv2dS8Params& p = ctx.params<DepthwiseConv2dS8Params>();
  const uint32_t out_c = filter.dims[3];
  const int32_t* bias =
      ctx.input_count() == 3 ? static_cast<const int32_t*>(ctx.input_data(2)) : nullptr;
  depthwise_conv2d_s8__dsp(p, params_array(p, 0, out_c), params_array(p, 1, out_c), shape,
                           static_cast<const int8_t*>(ctx.input_data(0)),
                           static_cast<const int8_t*>(ctx.input_data(1)), bias,
                           static_cast<int8_t*>(ctx.output_data(0)), ctx.scratch().data());
}

const KernelEntry kDepthwiseConv2dS8DspEntry = {depthwise_conv2d_s8__dsp_check,
                                                depthwise_conv2d_s8__dsp_run};

}  // namespace mote
