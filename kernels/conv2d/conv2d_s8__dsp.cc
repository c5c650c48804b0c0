// Armv7E-M DSP int8 convolution, any KH x KW, stride, dilation and padding, groups == 1,
// bit-exact with conv2d_s8. Four output pixels at a time: each one's window becomes an
// int16 column (input offset added, padding taps 0) in the interleaved block of
// conv2d_s8_dsp_block.h, then every output channel runs 16 MACs per weight word over
// the block.
//
// A last single pixel runs on its own (run_single); a last 2 or 3 move the block back
// over pixels already done. Fewer than 4 output pixels in all: the reference kernel runs.
//
// Filling a column: when C is a multiple of 4 every tap starts a group of four, so each
// tap (or a whole filter row, when the window row lies inside the image and dilation_w
// is 1) is expanded straight from the input. Otherwise the window is first gathered as
// K int8 bytes (padding written as input_zero_point; filter rows inside the image copied
// whole) and that row is expanded.
//
// Scratch: the column block, 32 * ceil(K / 4) bytes, plus 4 * ceil(K / 4) bytes for the
// gathered row when C % 4 != 0, plus the widened weights of the first wide_channels
// channels (8 * ceil(K / 4) bytes each, when ceil(K / 4) is a multiple of 4; as many as
// the params say, which the compiler sizes from the arena's slack at this op; widened once
// per run, used by the asm channel loop on DSP cores: 46 instructions per 64 MACs, not 54).
//
// Small windows (at most 24 SMLAD steps, e.g. a 3x3x3 first layer or kws' 10x4x1) have
// their own variant, conv2d_s8_small_window__dsp, which the compiler prefers; this one
// runs them too (the scheme above), as it runs any window.
#include <stddef.h>
#include <string.h>

#include "conv2d/conv2d.h"
#include "conv2d/conv2d_s8_dsp_block.h"
#include "conv2d/conv2d_shapes.h"
#include "kernel_util.h"
#include "quant/quant_check.h"

namespace mote {
namespace {

using conv2d_dsp::kBlockPixels;

// n bytes from src to dst (word copies; n is small: one filter row or tap).
void copy_bytes(const int8_t* src, int8_t* dst, int32_t n) {
  int32_t i = 0;
  for (; i + 4 <= n; i += 4) dsp::store_u32(dst + i, dsp::load_u32(src + i));
  for (; i < n; ++i) dst[i] = src[i];
}

// rows runs of row_bytes bytes, src_step apart, to dst back to back.
void copy_rows(const int8_t* src, int32_t src_step, int32_t rows, int32_t row_bytes,
               int8_t* dst) {
  const int32_t words = row_bytes >> 2;
  const int32_t rest = row_bytes & 3;
  for (int32_t r = 0; r < rows; ++r, src += src_step) {
    const int8_t* s = src;
    for (int32_t w = 0; w < words; ++w, s += 4, dst += 4) dsp::store_u32(dst, dsp::load_u32(s));
    for (int32_t j = 0; j < rest; ++j) *dst++ = s[j];
  }
}

// copy_rows for the 3x3 window of a 3-channel image (the usual first layer): three runs
// of 9 bytes, unrolled.
void copy_rows_3x9(const int8_t* src, int32_t src_step, int8_t* dst) {
  for (int32_t r = 0; r < 3; ++r, src += src_step, dst += 9) {
    dsp::store_u32(dst, dsp::load_u32(src));
    dsp::store_u32(dst + 4, dsp::load_u32(src + 4));
    dst[8] = src[8];
  }
}

// Window of output pixel (oy, ox) as K int8 bytes in filter order.
void gather_window(const Conv2dS8Params& params, const Conv2dShape& shape, const int8_t* image,
                   int32_t oy, int32_t ox, int8_t* row) {
  const int32_t c = shape.in_c;
  const int32_t row_bytes = shape.kernel_w * c;
  const int8_t pad = static_cast<int8_t>(params.input_zero_point);
  const int32_t y0 = oy * params.window.stride_h - params.window.pad_top;
  const int32_t x0 = ox * params.window.stride_w - params.window.pad_left;
  const bool x_inside =
      params.window.dilation_w == 1 && x0 >= 0 && x0 + shape.kernel_w - 1 < shape.in_w;
  for (int32_t ky = 0; ky < shape.kernel_h; ++ky, row += row_bytes) {
    const int32_t y = y0 + ky * params.window.dilation_h;
    if (y < 0 || y >= shape.in_h) {
      memset(row, pad, static_cast<size_t>(row_bytes));
      continue;
    }
    const int8_t* in_row = image + y * shape.in_w * c;
    if (x_inside) {
      copy_bytes(in_row + x0 * c, row, row_bytes);
      continue;
    }
    for (int32_t kx = 0; kx < shape.kernel_w; ++kx) {
      const int32_t x = x0 + kx * params.window.dilation_w;
      if (x < 0 || x >= shape.in_w) {
        memset(row + kx * c, pad, static_cast<size_t>(c));
      } else {
        copy_bytes(in_row + x * c, row + kx * c, c);
      }
    }
  }
}

// Column `pixel` of the block from the window of (oy, ox); C % 4 == 0.
void expand_window(const Conv2dS8Params& params, const Conv2dShape& shape, const int8_t* image,
                   int32_t oy, int32_t ox, uint32_t offsets, uint32_t* columns, int32_t pixel) {
  const int32_t c = shape.in_c;
  const int32_t tap_groups = c / 4;
  const int32_t y0 = oy * params.window.stride_h - params.window.pad_top;
  const int32_t x0 = ox * params.window.stride_w - params.window.pad_left;
  const bool x_inside =
      params.window.dilation_w == 1 && x0 >= 0 && x0 + shape.kernel_w - 1 < shape.in_w;
  int32_t group = 0;
  for (int32_t ky = 0; ky < shape.kernel_h; ++ky) {
    const int32_t y = y0 + ky * params.window.dilation_h;
    if (y < 0 || y >= shape.in_h) {
      conv2d_dsp::zero_column_groups(columns, pixel, group, shape.kernel_w * tap_groups);
      group += shape.kernel_w * tap_groups;
      continue;
    }
    const int8_t* in_row = image + y * shape.in_w * c;
    if (x_inside) {
      group = conv2d_dsp::expand_into_column(in_row + x0 * c, shape.kernel_w * c, offsets,
                                             columns, pixel, group);
      continue;
    }
    for (int32_t kx = 0; kx < shape.kernel_w; ++kx) {
      const int32_t x = x0 + kx * params.window.dilation_w;
      if (x < 0 || x >= shape.in_w) {
        conv2d_dsp::zero_column_groups(columns, pixel, group, tap_groups);
        group += tap_groups;
      } else {
        group = conv2d_dsp::expand_into_column(in_row + x * c, c, offsets, columns, pixel, group);
      }
    }
  }
}

uint32_t gather_bytes(int32_t in_c, int32_t k) {
  return in_c % 4 == 0 ? 0u : static_cast<uint32_t>(conv2d_dsp::k_groups(k)) * 4u;
}


}  // namespace

uint32_t conv2d_s8__dsp_wide_channel_bytes(int32_t kernel_h, int32_t kernel_w, int32_t in_c) {
  const int32_t k = kernel_h * kernel_w * in_c;
  if (!conv2d_dsp::wide_applies(k)) return 0;
  return conv2d_dsp::wide_channel_bytes(k);
}

uint32_t conv2d_s8__dsp_scratch_bytes(int32_t kernel_h, int32_t kernel_w, int32_t in_c,
                                      int32_t wide_channels) {
  const int32_t k = kernel_h * kernel_w * in_c;
  return conv2d_dsp::columns_bytes(k) + gather_bytes(in_c, k) +
         static_cast<uint32_t>(wide_channels) * conv2d_s8__dsp_wide_channel_bytes(kernel_h, kernel_w, in_c);
}

void conv2d_s8__dsp(const Conv2dS8Params& params, const int32_t* multipliers,
                    const int32_t* shifts, const Conv2dShape& shape, const int8_t* input,
                    const int8_t* filter, const int32_t* bias, int8_t* output,
                    uint8_t* scratch, int32_t wide_channels) {
  const int32_t k = shape.kernel_h * shape.kernel_w * shape.in_c;
  uint32_t* columns = reinterpret_cast<uint32_t*>(scratch);
  int8_t* gathered = reinterpret_cast<int8_t*>(scratch + conv2d_dsp::columns_bytes(k));
  const bool gather = shape.in_c % 4 != 0;
  const uint32_t offsets = conv2d_dsp::offset_pair(-params.input_zero_point);
  const conv2d_dsp::OutputQuant quant =
      conv2d_dsp::output_quant(params, multipliers, shifts, shape.out_c);

  const int32_t image_step = shape.in_h * shape.in_w * shape.in_c;
  const int32_t image_pixels = shape.out_h * shape.out_w;
  const int32_t pixels = shape.batch * image_pixels;
  if (pixels < kBlockPixels) {
    conv2d_s8(params, multipliers, shifts, shape, input, filter, bias, output);
    return;
  }
  // Widened weights: only for the asm channel loop (DSP cores, the common quantization).
  uint32_t* const wide = reinterpret_cast<uint32_t*>(scratch + conv2d_dsp::columns_bytes(k) +
                                                     gather_bytes(shape.in_c, k));
  const int32_t wide_count = MOTE_HAS_DSP && quant.all_common && bias != nullptr &&
                                         pixels >= conv2d_dsp::kWideMinPixels && conv2d_dsp::wide_applies(k)
                                 ? (wide_channels < shape.out_c ? wide_channels : shape.out_c)
                                 : 0;
  conv2d_dsp::widen_weights(filter, k, wide_count, wide);
  // The widened loop's doubled requantization when their every |acc| < 2^30.
  const bool wide_doubled = wide_count > 0 && conv2d_dsp::acc_fits_doubled(k, bias, wide_count);
  // The gathered row's bytes past K (up to the word) hold the input zero point, so the
  // whole words expand with a zero tail (written once: gather_window writes K bytes).
  const int32_t groups = conv2d_dsp::k_groups(k);
  if (gather) {
    const int8_t pad = static_cast<int8_t>(params.input_zero_point);
    for (int32_t j = k; j < groups * 4; ++j) gathered[j] = pad;
  }
  // Windows wholly inside the image with dilation_w 1 (x0 <= x_last, y0 <= y_last) are
  // gathered as kernel_h runs of row_bytes contiguous bytes.
  const int32_t row_bytes = shape.kernel_w * shape.in_c;
  const int32_t in_row_bytes = shape.in_w * shape.in_c;
  const int32_t window_row_step = params.window.dilation_h * in_row_bytes;
  const int32_t x_last = params.window.dilation_w == 1 ? shape.in_w - shape.kernel_w : -1;
  const int32_t y_last = shape.in_h - 1 - (shape.kernel_h - 1) * params.window.dilation_h;
  const bool rows_3x9 = shape.kernel_h == 3 && row_bytes == 9;
  int32_t oy = 0, ox = 0;
  const int8_t* image = input;
  // Column `i` of the block from the window of the pixel at (image, oy, ox).
  auto fill_column = [&](int32_t i) {
    const int32_t y0 = oy * params.window.stride_h - params.window.pad_top;
    const int32_t x0 = ox * params.window.stride_w - params.window.pad_left;
    const bool inside = x0 >= 0 && x0 <= x_last && y0 >= 0 && y0 <= y_last;
    const int8_t* const window = image + y0 * in_row_bytes + x0 * shape.in_c;
    if (gather) {
      if (inside && rows_3x9) {
        copy_rows_3x9(window, window_row_step, gathered);
      } else if (inside) {
        copy_rows(window, window_row_step, shape.kernel_h, row_bytes, gathered);
      } else {
        gather_window(params, shape, image, oy, ox, gathered);
      }
      conv2d_dsp::expand_words(gathered, groups, offsets, columns, i);
    } else if (inside) {
      // kernel_h runs of row_bytes (whole groups: C % 4 == 0) straight from the image.
      const int8_t* row = window;
      int32_t group = 0;
      for (int32_t ky = 0; ky < shape.kernel_h; ++ky, row += window_row_step) {
        group = conv2d_dsp::expand_into_column(row, row_bytes, offsets, columns, i, group);
      }
    } else {
      expand_window(params, shape, image, oy, ox, offsets, columns, i);
    }
  };
  for (int32_t p = 0; p < pixels; p += kBlockPixels) {
    if (p + 1 == pixels) {  // one pixel left: on its own
      fill_column(0);
      conv2d_dsp::run_single(columns, k, filter, bias, shape.out_c, quant,
                             output + p * shape.out_c);
      break;
    }
    if (p + kBlockPixels > pixels) {  // last block, moved back to end at the last pixel
      p = pixels - kBlockPixels;
      const int32_t in_image = p % image_pixels;
      image = input + (p / image_pixels) * image_step;
      oy = in_image / shape.out_w;
      ox = in_image % shape.out_w;
    }
    for (int32_t i = 0; i < kBlockPixels; ++i) {
      fill_column(i);
      if (++ox == shape.out_w) {
        ox = 0;
        if (++oy == shape.out_h) {
          oy = 0;
          image += image_step;
        }
      }
    }
    conv2d_dsp::run_block(columns, k, filter, bias, shape.out_c, quant, output + p * shape.out_c,
                          wide, wide_count, wide_doubled);
  }
}

Status conv2d_s8__dsp_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(conv2d_s8_check_params(ctx, 4));  // then the wide_channels int32
  const TensorDesc& filter = ctx.input_desc(1);
  const uint32_t out_c = filter.dims[0];
  const Conv2dS8Params& p = ctx.params<Conv2dS8Params>();
  if (p.groups != 1) return Status::kBadParams;
  const int32_t wide_channels = params_array(p, 2, out_c)[0];
  if (wide_channels < 0 || static_cast<uint32_t>(wide_channels) > out_c) return Status::kBadParams;
  const uint64_t k = uint64_t{filter.dims[1]} * filter.dims[2] * filter.dims[3];
  const uint64_t groups = (k + 3) / 4;
  uint64_t needed = groups * 32u + (filter.dims[3] % 4 != 0 ? groups * 4u : 0u);
  // Widened channels only where the kernel widens weights (else the params are inconsistent).
  if (wide_channels != 0 && (k == 0 || groups % 4 != 0)) return Status::kBadParams;
  needed += uint64_t{static_cast<uint32_t>(wide_channels)} * groups * 8u;
  const Span<uint8_t> scratch = ctx.scratch();
  if (scratch.size() < needed || reinterpret_cast<uintptr_t>(scratch.data()) % 4 != 0) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void conv2d_s8__dsp_run(const OpContext& ctx) {
  const Conv2dS8Operands o = conv2d_s8_operands(ctx);
  conv2d_s8__dsp(o.params, o.multipliers, o.shifts, o.shape, o.input, o.filter, o.bias, o.output,
                 ctx.scratch().data(), params_array(o.params, 2, o.shape.out_c)[0]);
}

const KernelEntry kConv2dS8DspEntry = {conv2d_s8__dsp_check, conv2d_s8__dsp_run};

}  // namespace mote
