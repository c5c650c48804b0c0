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
// Interior pairs. With a 3x3 window, dilation 1 across and stride 1 or 2 across, the
// pixels of a row whose windows lie wholly inside the image run two at a time
// (isa/dsp.h dw3x3_pair_quads_s16x8: one asm loop over the row's pairs and the groups of
// four channels): each tap's weights, split by SXTB16 once per run into scratch, are
// loaded once (LDRD) for both pixels: 4 LDR of input and 8 SMLAxy per tap, about 180
// instructions per 72 MACs. Edge pixels, a lone last pixel and other windows take the
// per-pixel path (rows of 2 or 3 taps unrolled).
//
// The SMMULR path needs every channel's shift in [-17, -1] and KH * KW * 2^22 + |bias|
// below 2^31 (the int32 sum is then the int64 accumulator): checked once per run; when
// some channel misses it the reference kernel runs instead.
//
// Scratch: 8 bytes per channel (bias and SMMULR multiplier), 4-aligned; with a 3x3 window
// also 72 bytes per group of four channels: the weights split by SXTB16 once per run for
// the two-pixel path.
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

// One tap of four channels: weights (w0..w3) at w, inputs (x0..x3) at x.
__attribute__((always_inline)) inline void mac_tap(const int16_t* x, const int8_t* w, int32_t& a0,
                                                   int32_t& a1, int32_t& a2, int32_t& a3) {
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

// Where the taps of one output pixel lie: the first tap inside the image (input and
// weights of channel 0), rows x row_taps taps from it.
struct PixelTaps {
  const int16_t* in_first;
  const int8_t* w_first;
  int32_t rows, row_taps;
};

// The groups of four channels of one pixel, any taps (image edges, other windows, a lone
// last pixel); rows of two or three taps unrolled.
__attribute__((noinline)) void pixel_quads(const PixelTaps& t, int32_t quads, int32_t channels, int32_t in_row_step, int32_t filter_row_stride,
                 int32_t tap_step, const ChannelFast* table, Clamp16 clamp, int32_t act_min, int32_t act_max,
                 int16_t* out) {
  const int16_t* in_first = t.in_first;
  const int8_t* w_first = t.w_first;
  for (int32_t q = 0; q < quads; ++q, table += 4, in_first += 4, w_first += 4, out += 4) {
    int32_t a0 = table[0].bias, a1 = table[1].bias, a2 = table[2].bias, a3 = table[3].bias;
    const int16_t* x = in_first;
    const int8_t* w = w_first;
    for (int32_t r = 0; r < t.rows; ++r, x += in_row_step, w += filter_row_stride) {
      if (t.row_taps == 3) {
        mac_tap(x, w, a0, a1, a2, a3);
        mac_tap(x + tap_step, w + channels, a0, a1, a2, a3);
        mac_tap(x + 2 * tap_step, w + 2 * channels, a0, a1, a2, a3);
      } else if (t.row_taps == 2) {
        mac_tap(x, w, a0, a1, a2, a3);
        mac_tap(x + tap_step, w + channels, a0, a1, a2, a3);
      } else {
        for (int32_t j = 0; j < t.row_taps; ++j) mac_tap(x + j * tap_step, w + j * channels, a0, a1, a2, a3);
      }
    }
    a0 = requant64_smmulr(a0, table[0].multiplier);
    a1 = requant64_smmulr(a1, table[1].multiplier);
    a2 = requant64_smmulr(a2, table[2].multiplier);
    a3 = requant64_smmulr(a3, table[3].multiplier);
    if (clamp == Clamp16::kRelu) {
      out[0] = clamp16<Clamp16::kRelu>(a0, act_min, act_max);
      out[1] = clamp16<Clamp16::kRelu>(a1, act_min, act_max);
      out[2] = clamp16<Clamp16::kRelu>(a2, act_min, act_max);
      out[3] = clamp16<Clamp16::kRelu>(a3, act_min, act_max);
    } else if (clamp == Clamp16::kFull) {
      out[0] = clamp16<Clamp16::kFull>(a0, act_min, act_max);
      out[1] = clamp16<Clamp16::kFull>(a1, act_min, act_max);
      out[2] = clamp16<Clamp16::kFull>(a2, act_min, act_max);
      out[3] = clamp16<Clamp16::kFull>(a3, act_min, act_max);
    } else {
      out[0] = clamp16<Clamp16::kAny>(a0, act_min, act_max);
      out[1] = clamp16<Clamp16::kAny>(a1, act_min, act_max);
      out[2] = clamp16<Clamp16::kAny>(a2, act_min, act_max);
      out[3] = clamp16<Clamp16::kAny>(a3, act_min, act_max);
    }
  }
}

// The 3x3 weights of each group of four channels split as the two-pixel path loads them:
// per group, per tap, SXTB16 and SXTB16 ROR #8 of the four weights.
void split_weights(const int8_t* filter, int32_t channels, int32_t quads, uint32_t* split) {
  for (int32_t q = 0; q < quads; ++q) {
    for (int32_t t = 0; t < 9; ++t, split += 2) {
      const uint32_t wv = dsp::load_u32(filter + t * channels + 4 * q);
      split[0] = dsp::sxtb16(wv);
      split[1] = dsp::sxtb16_ror8(wv);
    }
  }
}

// The channels past the last multiple of 4 of one pixel, one at a time.
void pixel_rest(const PixelTaps& t, int32_t first, int32_t channels, int32_t in_row_step, int32_t filter_row_stride,
                int32_t tap_step, const ChannelFast* table, int32_t act_min, int32_t act_max, int16_t* out) {
  for (int32_t c = first; c < channels; ++c) {
    int32_t acc = table[c].bias;
    const int16_t* in_row = t.in_first + c;
    const int8_t* w_row = t.w_first + c;
    for (int32_t r = 0; r < t.rows; ++r, in_row += in_row_step, w_row += filter_row_stride) {
      for (int32_t j = 0; j < t.row_taps; ++j) acc += in_row[j * tap_step] * w_row[j * channels];
    }
    out[c] = clamp16<Clamp16::kAny>(requant64_smmulr(acc, table[c].multiplier), act_min, act_max);
  }
}

}  // namespace

uint32_t depthwise_conv2d_s16__dsp_scratch_bytes(const DepthwiseConv2dShape& shape) {
  const uint32_t quads = static_cast<uint32_t>(shape.out_c) / 4u;
  const bool three_by_three = shape.kernel_h == 3 && shape.kernel_w == 3;
  return 8u * static_cast<uint32_t>(shape.out_c) + (three_by_three ? 72u * quads : 0u);
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
  const Clamp16 clamp = clamp16_kind(act_min, act_max);
  const int32_t stride_w = params.window.stride_w;
  const int32_t pixel_step = stride_w * channels;
  const int32_t in_row_step = params.window.dilation_h * in_row_stride;
  // Windows starting at x0 in [0, x_last] lie inside the image horizontally.
  const int32_t x_last = shape.in_w - 1 - (shape.kernel_w - 1) * params.window.dilation_w;
  // Pixels ox in [ox_first, ox_last] have such windows; with a 3x3 window (dilation 1
  // across, stride 1 or 2 across) they run in pairs where all three rows are inside.
  const int32_t pad_left = params.window.pad_left;
  const int32_t ox_first = (pad_left + stride_w - 1) / stride_w;
  int32_t ox_last = x_last + pad_left >= 0 ? (x_last + pad_left) / stride_w : -1;
  if (ox_last > shape.out_w - 1) ox_last = shape.out_w - 1;
  const bool pair_window = shape.kernel_h == 3 && shape.kernel_w == 3 && params.window.dilation_w == 1 &&
                           stride_w <= 2;
  const int32_t pairs = pair_window && ox_last >= ox_first ? (ox_last - ox_first + 1) / 2 : 0;
  uint32_t* const split = reinterpret_cast<uint32_t*>(table + channels);
  if (pairs > 0) split_weights(filter, channels, quads, split);
  for (int32_t b = 0; b < shape.batch; ++b) {
    const int16_t* image = input + b * in_image_stride;
    for (int32_t oy = 0; oy < shape.out_h; ++oy) {
      const int32_t y0 = oy * params.window.stride_h - params.window.pad_top;
      const TapRange ky_range = taps_inside(y0, params.window.dilation_h, shape.kernel_h, shape.in_h);
      const int32_t rows = ky_range.end - ky_range.begin;
      const int16_t* in_rows = image + (y0 + ky_range.begin * params.window.dilation_h) * in_row_stride;
      const int8_t* w_rows = filter + ky_range.begin * filter_row_stride;
      const int32_t pair_at = rows == 3 && pairs > 0 ? ox_first : shape.out_w;
      int32_t ox = 0;
      while (ox < shape.out_w) {
        const int32_t x0 = ox * stride_w - pad_left;
        if (ox == pair_at) {
          const int16_t* in_first = in_rows + x0 * channels;
          if (stride_w == 2) {
            dsp::dw3x3_pair_quads_s16x8<1>(in_first, split, channels, in_row_step, &table[0].bias, quads, pairs,
                                           static_cast<int32_t>(clamp), act_min, act_max, output);
          } else {
            dsp::dw3x3_pair_quads_s16x8<0>(in_first, split, channels, in_row_step, &table[0].bias, quads, pairs,
                                           static_cast<int32_t>(clamp), act_min, act_max, output);
          }
          for (int32_t n = 0; n < 2 * pairs && 4 * quads < channels; ++n) {
            const PixelTaps t{in_first + n * pixel_step, filter, 3, 3};
            pixel_rest(t, 4 * quads, channels, in_row_step, filter_row_stride, tap_step, table, act_min, act_max,
                       output + n * channels);
          }
          ox += 2 * pairs;
          output += 2 * pairs * channels;
          continue;
        }
        const TapRange kx_range = x0 >= 0 && x0 <= x_last ? TapRange{0, shape.kernel_w}
                                                           : taps_inside(x0, params.window.dilation_w,
                                                                         shape.kernel_w, shape.in_w);
        // The first tap inside the image: its input and weights for channel 0.
        const PixelTaps t{in_rows + (x0 + kx_range.begin * params.window.dilation_w) * channels,
                          w_rows + kx_range.begin * channels, rows, kx_range.end - kx_range.begin};
        pixel_quads(t, quads, channels, in_row_step, filter_row_stride, tap_step, table, clamp, act_min, act_max,
                    output);
        pixel_rest(t, 4 * quads, channels, in_row_step, filter_row_stride, tap_step, table, act_min, act_max, output);
        ++ox;
        output += channels;
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
