// int8 depthwise convolution, 3x3 filter, depth multiplier 1, dilation 1, any stride and
// padding, with the Armv7E-M DSP extension; bit-exact with depthwise_conv2d_s8.
//
// Algorithm (the fast path, taken when the requantization table applies; see
// depthwise_conv2d_s8_dsp_common.h):
// - The filter is extended once per run into scratch, doubled: per group of four channels
//   and tap, the words [2w(c), 2w(c+2)] and [2w(c+1), 2w(c+3)] (exact in int16). The
//   accumulators, started at twice the bias, are then twice the reference's, which is
//   what the fast requantization's SMMULR wants (the table's proof bounds 2 * acc).
// - Input rows are extended into a ring of three row buffers, each row once per image:
//   per group and padded column the words [x(c) + offset, x(c+2) + offset] and
//   [x(c+1) + offset, x(c+3) + offset] (SXTAB16), zeros for padding columns and rows.
//   A padded tap then contributes w * 0, exactly what the reference's skipping gives.
// - Per output pixel and group: nine taps of two LDRDs and four SMLAxy into four
//   accumulators that start at the bias, then the four outputs requantized together.
// Channels past the last multiple of four are done one by one over the taps inside the
// image. Without the fast requantization every pixel takes the general tap-by-tap path.
//
// Scratch (4-byte aligned): table 16 * C, filter 18 * (C & ~3), ring 3 * 2 * (C & ~3) * Wp
// bytes, Wp = (out_w - 1) * stride_w + 3 padded columns.
#include "depthwise_conv2d/depthwise_conv2d.h"
#include "depthwise_conv2d/depthwise_conv2d_s8_dsp_common.h"
#include "depthwise_conv2d/depthwise_conv2d_shapes.h"
#include "quant/quant_check.h"

namespace mote {

namespace {

using depthwise_dsp::ChannelRequant;
using depthwise_dsp::Output;

int32_t padded_columns(const DepthwiseConv2dS8Params& params, const DepthwiseConv2dShape& shape) {
  return (shape.out_w - 1) * params.stride_w + 3;
}

// One row of outputs for one channel group (accumulators doubled, see above). rows[k]: the group's extended words of input
// row k of the windows, at the first window's first column; filter: the group's 9 x 2
// extended filter words; step: words between horizontally adjacent windows.
MOTE_DEPTHWISE_DSP_HOT void row_group(const uint32_t* row0, const uint32_t* row1,
                                      const uint32_t* row2, const uint32_t* filter,
                                      const ChannelRequant* q, int32_t count, int32_t step,
                                      int32_t out_step, uint32_t lo4, uint32_t hi4,
                                      int8_t* out) {
  const int32_t row_advance = step - 6;  // the taps advance each row pointer by 6 words
  for (int32_t i = 0; i < count; ++i) {
    int32_t a0 = q[0].bias2, a1 = q[1].bias2, a2 = q[2].bias2, a3 = q[3].bias2;
    const uint32_t* w = filter;
    auto tap = [&](const uint32_t*& x) {
      uint32_t xe, xo, we, wo;
      dsp::load2_u32_advance(x, xe, xo);
      dsp::load2_u32_advance(w, we, wo);
      a0 = dsp::smlabb(xe, we, a0);
      a2 = dsp::smlatt(xe, we, a2);
      a1 = dsp::smlabb(xo, wo, a1);
      a3 = dsp::smlatt(xo, wo, a3);
    };
    tap(row0);
    tap(row0);
    tap(row0);
    tap(row1);
    tap(row1);
    tap(row1);
    tap(row2);
    tap(row2);
    tap(row2);
    depthwise_dsp::finish4_fast(q, a0, a1, a2, a3, lo4, hi4, out);
    row0 += row_advance;
    row1 += row_advance;
    row2 += row_advance;
    out += out_step;
  }
}

// Extends input row iy (or zeros outside the image) into slot: [group][column][2 words].
void extend_row(const int8_t* image, const DepthwiseConv2dShape& shape, int32_t iy,
                int32_t pad_left, int32_t columns, int32_t groups, uint32_t offset2,
                uint32_t* slot) {
  const int32_t group_stride = columns * 2;
  for (int32_t j = 0; j < columns; ++j) {
    const int32_t x = j - pad_left;
    uint32_t* dst = slot + 2 * j;
    if (iy < 0 || iy >= shape.in_h || x < 0 || x >= shape.in_w) {
      for (int32_t g = 0; g < groups; ++g) {
        dst[0] = 0;
        dst[1] = 0;
        dst += group_stride;
      }
      continue;
    }
    const int8_t* src = image + (iy * shape.in_w + x) * shape.in_c;
    for (int32_t g = 0; g < groups; ++g) {
      const uint32_t v = dsp::load_u32(src);
      dst[0] = dsp::sxtab16(offset2, v);
      dst[1] = dsp::sxtab16_ror8(offset2, v);
      src += 4;
      dst += group_stride;
    }
  }
}

// Channels [first, C) of one output pixel, one by one over the taps inside the image.
void tail_channels(const DepthwiseConv2dS8Params& params, const DepthwiseConv2dShape& shape,
                   const Output& out, const int8_t* image, const int8_t* filter, int32_t y0,
                   int32_t x0, int32_t first, int8_t* output) {
  const int32_t channels = shape.in_c;
  const int32_t input_offset = -params.input_zero_point;
  const TapRange ky_range = taps_inside(y0, 1, 3, shape.in_h);
  const TapRange kx_range = taps_inside(x0, 1, 3, shape.in_w);
  for (int32_t c = first; c < channels; ++c) {
    uint32_t acc = static_cast<uint32_t>(out.bias_of(c));
    for (int32_t ky = ky_range.begin; ky < ky_range.end; ++ky) {
      for (int32_t kx = kx_range.begin; kx < kx_range.end; ++kx) {
        const int32_t x = image[((y0 + ky) * shape.in_w + x0 + kx) * channels + c];
        const int32_t w = filter[(ky * 3 + kx) * channels + c];
        acc += static_cast<uint32_t>(w * (x + input_offset));
      }
    }
    output[c] = out.finish(c, static_cast<int32_t>(acc));
  }
}

}  // namespace

uint32_t depthwise_conv2d_s8_3x3__dsp_scratch_bytes(const DepthwiseConv2dS8Params& params,
                                                    const DepthwiseConv2dShape& shape) {
  const uint32_t full = static_cast<uint32_t>(shape.in_c & ~3);
  const uint32_t columns = static_cast<uint32_t>(padded_columns(params, shape));
  return depthwise_dsp::output_table_bytes(shape.in_c) + 18u * full + 6u * full * columns;
}

void depthwise_conv2d_s8_3x3__dsp(const DepthwiseConv2dS8Params& params,
                                  const int32_t* multipliers, const int32_t* shifts,
                                  const DepthwiseConv2dShape& shape, const int8_t* input,
                                  const int8_t* filter, const int32_t* bias, int8_t* output,
                                  void* scratch) {
  const int32_t channels = shape.in_c;
  const int32_t in_image_stride = shape.in_h * shape.in_w * channels;
  const int32_t out_image_stride = shape.out_h * shape.out_w * channels;
  const int32_t input_offset = -params.input_zero_point;
  const uint32_t offset2 = dsp::pack16(input_offset, input_offset);
  ChannelRequant* table = static_cast<ChannelRequant*>(scratch);
  const Output out =
      depthwise_dsp::make_output(params, multipliers, shifts, bias, channels, 9, table);

  if (out.table == nullptr) {  // exact requantization: the general path everywhere
    for (int32_t b = 0; b < shape.batch; ++b) {
      const int8_t* image = input + b * in_image_stride;
      for (int32_t oy = 0; oy < shape.out_h; ++oy) {
        for (int32_t ox = 0; ox < shape.out_w; ++ox) {
          depthwise_dsp::pixel(params, shape, out, image, filter,
                               oy * params.stride_h - params.pad_top,
                               ox * params.stride_w - params.pad_left, output);
          output += channels;
        }
      }
    }
    return;
  }

  const int32_t groups = channels / 4;
  const int32_t full = groups * 4;
  const int32_t columns = padded_columns(params, shape);
  uint32_t* const filter_ext = reinterpret_cast<uint32_t*>(table + channels);
  uint32_t* const ring = filter_ext + 18 * groups;
  const int32_t slot_words = 2 * groups * columns;
  for (int32_t g = 0; g < groups; ++g) {
    for (int32_t t = 0; t < 9; ++t) {
      const uint32_t w = dsp::load_u32(filter + t * channels + 4 * g);
      const uint32_t even = dsp::sxtb16(w);
      const uint32_t odd = dsp::sxtb16_ror8(w);
      filter_ext[(g * 9 + t) * 2] = dsp::sadd16(even, even);
      filter_ext[(g * 9 + t) * 2 + 1] = dsp::sadd16(odd, odd);
    }
  }

  for (int32_t b = 0; b < shape.batch; ++b) {
    const int8_t* image = input + b * in_image_stride;
    int8_t* const out_image = output + b * out_image_stride;
    // slot_row[s]: the input row ring slot s holds (none at the start of each image).
    int32_t slot_row[3] = {INT32_MIN, INT32_MIN, INT32_MIN};
    for (int32_t oy = 0; oy < shape.out_h; ++oy) {
      const int32_t y0 = oy * params.stride_h - params.pad_top;
      const uint32_t* rows[3];
      for (int32_t k = 0; k < 3; ++k) {
        int32_t slot = -1;
        for (int32_t s = 0; s < 3; ++s) {
          if (slot_row[s] == y0 + k) slot = s;
        }
        if (slot < 0) {  // reuse a slot holding none of this window's rows
          for (int32_t s = 0; s < 3 && slot < 0; ++s) {
            if (slot_row[s] < y0 || slot_row[s] > y0 + 2) slot = s;
          }
          slot_row[slot] = y0 + k;
          extend_row(image, shape, y0 + k, params.pad_left, columns, groups, offset2,
                     ring + slot * slot_words);
        }
        rows[k] = ring + slot * slot_words;
      }
      int8_t* const out_row = out_image + oy * shape.out_w * channels;
      for (int32_t g = 0; g < groups; ++g) {
        const int32_t offset = g * 2 * columns;
        row_group(rows[0] + offset, rows[1] + offset, rows[2] + offset, filter_ext + g * 18,
                  table + 4 * g, shape.out_w, 2 * params.stride_w, channels, out.act_min4,
                  out.act_max4, out_row + 4 * g);
      }
      if (full < channels) {
        for (int32_t ox = 0; ox < shape.out_w; ++ox) {
          tail_channels(params, shape, out, image, filter, y0,
                        ox * params.stride_w - params.pad_left, full,
                        out_row + ox * channels);
        }
      }
    }
  }
}

Status depthwise_conv2d_s8_3x3__dsp_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(depthwise_conv2d_s8_check(ctx));
  const DepthwiseConv2dS8Params& p = ctx.params<DepthwiseConv2dS8Params>();
  const TensorDesc& filter = ctx.input_desc(1);
  if (!depthwise_conv2d_s8_3x3__dsp_supports(p, filter.dims[1], filter.dims[2])) {
    return Status::kBadParams;
  }
  const DepthwiseConv2dShape shape =
      depthwise_conv2d_shape(ctx.input_desc(0), filter, ctx.output_desc(0));
  if (ctx.scratch().size() < depthwise_conv2d_s8_3x3__dsp_scratch_bytes(p, shape) ||
      (reinterpret_cast<uintptr_t>(ctx.scratch().data()) & 3u) != 0) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void depthwise_conv2d_s8_3x3__dsp_run(const OpContext& ctx) {
  const TensorDesc& filter = ctx.input_desc(1);
  const DepthwiseConv2dShape shape =
      depthwise_conv2d_shape(ctx.input_desc(0), filter, ctx.output_desc(0));
  const DepthwiseConv2dS8Params& p = ctx.params<DepthwiseConv2dS8Params>();
  const uint32_t out_c = filter.dims[3];
  const int32_t* bias =
      ctx.input_count() == 3 ? static_cast<const int32_t*>(ctx.input_data(2)) : nullptr;
  depthwise_conv2d_s8_3x3__dsp(p, params_array(p, 0, out_c), params_array(p, 1, out_c), shape,
                               static_cast<const int8_t*>(ctx.input_data(0)),
                               static_cast<const int8_t*>(ctx.input_data(1)), bias,
                               static_cast<int8_t*>(ctx.output_data(0)), ctx.scratch().data());
}

const KernelEntry kDepthwiseConv2dS83x3DspEntry = {depthwise_conv2d_s8_3x3__dsp_check,
                                                   depthwise_conv2d_s8_3x3__dsp_run};

}  // namespace mote
