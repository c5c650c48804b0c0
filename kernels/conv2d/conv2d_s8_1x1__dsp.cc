// Armv7E-M DSP int8 pointwise convolution: 1x1 filter, groups == 1, no padding, any
// stride (dilation does not matter for 1x1), batch >= 1; bit-exact with conv2d_s8.
// Four output pixels at a time: each one's C input values become an int16 column (input
// offset added) of the interleaved block of conv2d_s8_dsp_block.h, expanded straight
// from the input, then every output channel runs 16 MACs per weight word over the block.
// With stride 1 the pixels are consecutive in the input. A last single pixel runs on
// its own (run_single); a last 2 or 3 move the block back over pixels already done.
// Fewer than 4 output pixels in all: the reference kernel runs.
//
// Scratch: the column block, 32 * ceil(C / 4) bytes.
#include "conv2d/conv2d.h"
#include "conv2d/conv2d_s8_dsp_block.h"
#include "conv2d/conv2d_shapes.h"
#include "kernel_util.h"
#include "quant/quant_check.h"

namespace mote {

using conv2d_dsp::kBlockPixels;

uint32_t conv2d_s8_1x1__dsp_scratch_bytes(int32_t in_c) {
  return conv2d_dsp::columns_bytes(in_c);
}

void conv2d_s8_1x1__dsp(const Conv2dS8Params& params, const int32_t* multipliers,
                        const int32_t* shifts, const Conv2dShape& shape, const int8_t* input,
                        const int8_t* filter, const int32_t* bias, int8_t* output,
                        uint8_t* scratch) {
  const int32_t c = shape.in_c;
  uint32_t* columns = reinterpret_cast<uint32_t*>(scratch);
  const uint32_t offsets = conv2d_dsp::offset_pair(-params.input_zero_point);
  const conv2d_dsp::OutputQuant quant =
      conv2d_dsp::output_quant(params, multipliers, shifts, shape.out_c);

  const int32_t image_step = shape.in_h * shape.in_w * c;
  const int32_t pixel_step = params.stride_w * c;
  const int32_t row_step = params.stride_h * shape.in_w * c;
  const int32_t image_pixels = shape.out_h * shape.out_w;
  const int32_t pixels = shape.batch * image_pixels;
  if (pixels < kBlockPixels) {
    conv2d_s8(params, multipliers, shifts, shape, input, filter, bias, output);
    return;
  }
  int32_t oy = 0, ox = 0;
  const int8_t* image = input;
  const int8_t* row = input;
  const int8_t* src = input;
  for (int32_t p = 0; p < pixels; p += kBlockPixels) {
    if (p + 1 == pixels) {  // one pixel left: on its own
      conv2d_dsp::expand_into_column(src, c, offsets, columns, 0, 0);
      conv2d_dsp::run_single(columns, c, filter, bias, shape.out_c, quant,
                             output + p * shape.out_c);
      break;
    }
    if (p + kBlockPixels > pixels) {  // last block, moved back to end at the last pixel
      p = pixels - kBlockPixels;
      const int32_t in_image = p % image_pixels;
      image = input + (p / image_pixels) * image_step;
      oy = in_image / shape.out_w;
      ox = in_image % shape.out_w;
      row = image + oy * row_step;
      src = row + ox * pixel_step;
    }
    for (int32_t i = 0; i < kBlockPixels; ++i) {
      conv2d_dsp::expand_into_column(src, c, offsets, columns, i, 0);
      if (++ox < shape.out_w) {
        src += pixel_step;
        continue;
      }
      ox = 0;
      if (++oy < shape.out_h) {
        row += row_step;
      } else {
        oy = 0;
        image += image_step;
        row = image;
      }
      src = row;
    }
    conv2d_dsp::run_block(columns, c, filter, bias, shape.out_c, quant, output + p * shape.out_c);
  }
}

Status conv2d_s8_1x1__dsp_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(conv2d_s8_check(ctx));
  const TensorDesc& filter = ctx.input_desc(1);
  const Conv2dS8Params& p = ctx.params<Conv2dS8Params>();
  if (p.groups != 1 || filter.dims[1] != 1 || filter.dims[2] != 1) return Status::kBadParams;
  if (p.pad_top != 0 || p.pad_left != 0 || p.pad_bottom != 0 || p.pad_right != 0) {
    return Status::kBadParams;
  }
  const uint64_t needed = (uint64_t{filter.dims[3]} + 3) / 4 * 32u;
  const Span<uint8_t> scratch = ctx.scratch();
  if (scratch.size() < needed || reinterpret_cast<uintptr_t>(scratch.data()) % 4 != 0) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void conv2d_s8_1x1__dsp_run(const OpContext& ctx) {
  const TensorDesc& filter = ctx.input_desc(1);
  const Conv2dShape shape = conv2d_shape(ctx.input_desc(0), filter, ctx.output_desc(0));
  const Conv2dS8Params& p = ctx.params<Conv2dS8Params>();
  const uint32_t out_c = filter.dims[0];
  const int32_t* bias =
      ctx.input_count() == 3 ? static_cast<const int32_t*>(ctx.input_data(2)) : nullptr;
  conv2d_s8_1x1__dsp(p, params_array(p, 0, out_c), params_array(p, 1, out_c), shape,
                     static_cast<const int8_t*>(ctx.input_data(0)),
                     static_cast<const int8_t*>(ctx.input_data(1)), bias,
                     static_cast<int8_t*>(ctx.output_data(0)), ctx.scratch().data());
}

const KernelEntry kConv2dS81x1DspEntry = {conv2d_s8_1x1__dsp_check, conv2d_s8_1x1__dsp_run};

}  // namespace mote
