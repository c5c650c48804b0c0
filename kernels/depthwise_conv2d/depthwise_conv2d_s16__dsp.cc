// Armv7E-M DSP 16x8 depthwise convolution (int16 activations, int8 weights, int64 bias),
// depth multiplier 1, any window, stride, dilation and padding; bit-exact with
// depthwise_conv2d_s16.
//
// Algorithm. Per output pixel, four channels at a time over the taps inside the image:
// one word of weights (four channels) split by SXTB16 / SXTB16 ROR #8 into (w0, w2) and
// (w1, w3), two words of input ((x0, x1), (x2, x3)) and four SMLAxy (BB, TB, BT, TT), the
// accumulators starting at the bias; then one SMMULR per output (quant/quant_math64_dsp.h)
// and the clamp. Channels past the last multiple of 4 run one at a time.
//
// The SMMULR path needs every channel's shift in [-17, -1] and KH * KW * 2^22 + |bias|
// below 2^31 (the int32 sum is then the int64 accumulator): checked once per run; when
// some channel misses it the reference kernel runs instead.
//
// Scratch: 8 bytes per channel (bias and SMMULR multiplier), 4-aligned.
#include "depthwise_conv2d/depthwise_conv2d.h"
#include "depthwise_conv2d/depthwise_conv2d_shapes.h"
#include "isa/dsp.h"
#include "kernel_util.h"
#include "quant/quant_check.h"
#include "quant/quant_math64_dsp.h"

namespace mote {
namespace {

struct ChannelFast {
  int32_t bias;
  int32_t multiplier;  // requant64_multiplier()
};

bool make_fast_table(const int32_t* multipliers, const int32_t* shifts, const int64_t* bias,
                     int32_t taps, int32_t channels, ChannelFast* table) {
  for (int32_t c = 0; c < channels; ++c) {
    const int64_t b = bias != nullptr ? bias[c] : 0;
    if (!requant64_smmulr_applies(shifts[c]) || !requant64_sum_fits(taps, b)) return false;
    table[c].bias = static_cast<int32_t>(b);
    table[c].multiplier = requant64_multiplier(multipliers[c], shifts[c]);
  }
  return true;
}

inline int16_t finish(int32_t acc, int32_t multiplier, int32_t act_min, int32_t act_max) {
  return static_cast<int16_t>(clamp_i32(requant64_smmulr(acc, multiplier), act_min, act_max));
}

}  // namespace

uint32_t depthwise_conv2d_s16__dsp_scratch_bytes(const DepthwiseConv2dShape& shape) {
  return 8u * static_cast<uint32_t>(shape.out_c);
}

void depthwise_conv2d_s16__dsp(const DepthwiseConv2dS16Params& params, const int32_t* multipliers,
                               const int32_t* shifts, const DepthwiseConv2dShape& shape,
                               const int16_t* input, const int8_t* filter, const int64_t* bias,
                               int16_t* output, void* scratch) {
  const int32_t channels = shape.in_c;
  ChannelFast* const table = static_cast<ChannelFast*>(scratch);
  if (!make_fast_table(multipliers, shifts, bias, shape.kernel_h * shape.kernel_w, channels, table)) {
    depthwise_conv2d_s16(params, multipliers, shifts, shape, input, filter, bias, output);
    return;
  }
  const int32_t act_min = params.act_min;
  const int32_t act_max = params.act_max;
  const int32_t in_row_stride = shape.in_w * channels;
  const int32_t in_image_stride = shape.in_h * in_row_stride;
  const int32_t filter_row_stride = shape.kernel_w * channels;
  const int32_t tap_step = params.window.dilation_w * channels;
  const int32_t quads = channels / 4;
  for (int32_t b = 0; b < shape.batch; ++b) {
    const int16_t* image = input + b * in_image_stride;
    for (int32_t oy = 0; oy < shape.out_h; ++oy) {
      const int32_t y0 = oy * params.window.stride_h - params.window.pad_top;
      const TapRange ky_range = taps_inside(y0, params.window.dilation_h, shape.kernel_h, shape.in_h);
      for (int32_t ox = 0; ox < shape.out_w; ++ox, output += channels) {
        const int32_t x0 = ox * params.window.stride_w - params.window.pad_left;
        const TapRange kx_range = taps_inside(x0, params.window.dilation_w, shape.kernel_w, shape.in_w);
        const int32_t row_taps = kx_range.end - kx_range.begin;
        // The first tap inside the image: its input and weights for channel 0.
        const int16_t* in_first = image + (y0 + ky_range.begin * params.window.dilation_h) * in_row_stride +
                                  (x0 + kx_range.begin * params.window.dilation_w) * channels;
        const int8_t* w_first = filter + ky_range.begin * filter_row_stride + kx_range.begin * channels;
        const int32_t in_row_step = params.window.dilation_h * in_row_stride;
        const int32_t rows = ky_range.end - ky_range.begin;
        for (int32_t q = 0; q < quads; ++q) {
          const ChannelFast* t = table + 4 * q;
          int32_t a0 = t[0].bias, a1 = t[1].bias, a2 = t[2].bias, a3 = t[3].bias;
          const int16_t* in_row = in_first + 4 * q;
          const int8_t* w_row = w_first + 4 * q;
          for (int32_t r = 0; r < rows; ++r, in_row += in_row_step, w_row += filter_row_stride) {
            const int16_t* x = in_row;
            const int8_t* w = w_row;
            for (int32_t j = 0; j < row_taps; ++j, x += tap_step, w += channels) {
              const uint32_t wv = dsp::load_u32(w);
              const uint32_t w02 = dsp::sxtb16(wv);
              const uint32_t w13 = dsp::sxtb16_ror8(wv);
              const uint32_t x01 = dsp::load_u32(x);
              const uint32_t x23 = dsp::load_u32(x + 2);
              a0 = dsp::smlabb(x01, w02, a0);
              a1 = dsp::smlatb(x01, w13, a1);
              a2 = dsp::smlabt(x23, w02, a2);
              a3 = dsp::smlatt(x23, w13, a3);
            }
          }
          int16_t* out = output + 4 * q;
          out[0] = finish(a0, t[0].multiplier, act_min, act_max);
          out[1] = finish(a1, t[1].multiplier, act_min, act_max);
          out[2] = finish(a2, t[2].multiplier, act_min, act_max);
          out[3] = finish(a3, t[3].multiplier, act_min, act_max);
        }
        for (int32_t c = 4 * quads; c < channels; ++c) {
          int32_t acc = table[c].bias;
          const int16_t* in_row = in_first + c;
          const int8_t* w_row = w_first + c;
          for (int32_t r = 0; r < rows; ++r, in_row += in_row_step, w_row += filter_row_stride) {
            for (int32_t j = 0; j < row_taps; ++j) {
              acc += in_row[j * tap_step] * w_row[j * channels];
            }
          }
          output[c] = finish(acc, table[c].multiplier, act_min, act_max);
        }
      }
    }
  }
}

Status depthwise_conv2d_s16__dsp_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(depthwise_conv2d_s16_check(ctx));
  const DepthwiseConv2dS16Params& p = ctx.params<DepthwiseConv2dS16Params>();
  if (p.depth_multiplier != 1) return Status::kBadParams;
  const DepthwiseConv2dShape shape = window_shape(ctx.input_desc(0), ctx.input_desc(1), ctx.output_desc(0));
  if (ctx.scratch().size() < depthwise_conv2d_s16__dsp_scratch_bytes(shape) ||
      (reinterpret_cast<uintptr_t>(ctx.scratch().data()) & 3u) != 0) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void depthwise_conv2d_s16__dsp_run(const OpContext& ctx) {
  const TensorDesc& filter = ctx.input_desc(1);
  const DepthwiseConv2dShape shape = window_shape(ctx.input_desc(0), filter, ctx.output_desc(0));
  const DepthwiseConv2dS16Params& p = ctx.params<DepthwiseConv2dS16Params>();
  const uint32_t out_c = filter.dims[3];
  const int64_t* bias = ctx.input_count() == 3 ? static_cast<const int64_t*>(ctx.input_data(2)) : nullptr;
  depthwise_conv2d_s16__dsp(p, params_array(p, 0, out_c), params_array(p, 1, out_c), shape,
                            static_cast<const int16_t*>(ctx.input_data(0)),
                            static_cast<const int8_t*>(ctx.input_data(1)), bias,
                            static_cast<int16_t*>(ctx.output_data(0)), ctx.scratch().data());
}

const KernelEntry kDepthwiseConv2dS16DspEntry = {depthwise_conv2d_s16__dsp_check,
                                                 depthwise_conv2d_s16__dsp_run};

}  // namespace mote
