// int8 depthwise convolution with a depth multiplier M >= 2 (any filter size, stride,
// dilation and padding) on the Armv7E-M DSP extension; bit-exact with
// depthwise_conv2d_s8.
//
// Algorithm. Output channels c*M .. c*M+M-1 all read input channel c, so per input channel
// and output pixel the M outputs are a fully connected layer of M rows over the window's
// taps, computed with the fully connected __dsp variant's pieces
// (fully_connected_s8_dsp_core.h):
//   x[t]            = the input at tap t of channel c plus the input offset, or 0 where
//                     the tap lies outside the image (the reference skips those taps,
//                     which adds the same zero), widened to int16 in that variant's order,
//   filter_c[m][t]  = filter[ky, kx, c*M + m] (0 for the padding taps below),
// with the same bias, per-channel multipliers and shifts, output zero point and clamp; the
// int32 sums (wrapping) and the requantization are the reference's, so the outputs agree.
// Taps are laid out row by row with each filter row padded to a multiple of four
// (kernel_w_padded), so groups of four never straddle filter rows and the rows of
// filter_c are 4-byte aligned (the two-row LDRD/LDM dot product). The compiler writes
// filter_c of every channel after the params (depthwise_conv2d_s8_mult__dsp_arrange), so
// no scratch holds it. The window is built once per pixel and channel: rows inside the image that are
// contiguous (one input channel, dilation 1, kernel_w % 4 == 0) are widened straight from
// the input, other windows are gathered as int8 first (the pad value being the input zero
// point) and then widened.
#include <string.h>

#include "depthwise_conv2d/depthwise_conv2d.h"
#include "depthwise_conv2d/depthwise_conv2d_shapes.h"
#include "fully_connected/fully_connected.h"
#include "fully_connected/fully_connected_s8_dsp_core.h"
#include "isa/dsp.h"
#include "quant/quant_check.h"

namespace mote {

namespace {

int32_t kernel_w_padded(const DepthwiseConv2dShape& shape) {
  return (shape.kernel_w + 3) & ~3;
}

// Taps of the patch: kernel_h rows of kernel_w_padded.
int32_t padded_taps(const DepthwiseConv2dShape& shape) {
  return shape.kernel_h * kernel_w_padded(shape);
}

// Output rows (channels of one input channel) per block of accumulators on the stack.
constexpr int32_t kBlockRows = 32;

// What one gather of a window needs: the input channel's plane and the filter geometry.
struct Window {
  const int8_t* image;  // channel c of one image: (y, x) at y * row_stride + x * channels
  int32_t in_h, in_w, row_stride, channels;
  int32_t kernel_h, kernel_w, kernel_w_padded, dilation_h, dilation_w;
  int8_t pad;        // the input zero point
  uint32_t offset2;  // the input offset in both halves
  bool word_rows;    // one channel, dilation_w 1, kernel_w % 4 == 0: rows are whole words
};

// x = the widened window whose top-left tap is at (y0, x0) (taps * 2 bytes, the layout of
// fully_connected_s8_dsp_core.h), taps ky * kernel_w_padded + kx. patch: taps bytes of
// int8 scratch for windows that cross the image's left or right edge (or whose rows are not
// whole words), gathered with the pad value first; its padding taps (kx >= kernel_w) hold
// the pad value. The taps inside the image are the rows [ky_begin, ky_end) and in each the
// columns [kx_begin, kx_end).
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((noinline, optimize("no-schedule-insns")))
#endif
void gather(const Window& window, int32_t y0, int32_t x0, int8_t* patch, uint32_t* x) {
  const Window w = window;
  const int32_t kw = w.kernel_w;
  int32_t kx_begin = 0, kx_end = kw, ky_begin = 0, ky_end = w.kernel_h;
  while (kx_begin < kw && x0 + kx_begin * w.dilation_w < 0) ++kx_begin;
  while (kx_end > kx_begin && x0 + (kx_end - 1) * w.dilation_w >= w.in_w) --kx_end;
  while (ky_begin < ky_end && y0 + ky_begin * w.dilation_h < 0) ++ky_begin;
  while (ky_end > ky_begin && y0 + (ky_end - 1) * w.dilation_h >= w.in_h) --ky_end;
  const int32_t row_words = w.kernel_w_padded / 2;  // widened words per filter row
  if (w.word_rows && kx_begin == 0 && kx_end == kw) {
    // The common case: whole contiguous rows, widened straight from the input; rows
    // outside the image are zeros.
    for (int32_t i = 0; i < ky_begin * row_words; ++i) x[i] = 0;
    uint32_t* out = x + ky_begin * row_words;
    for (int32_t ky = ky_begin; ky < ky_end; ++ky) {
      const int8_t* src = w.image + (y0 + ky * w.dilation_h) * w.row_stride + x0;
      for (int32_t q = 0; q < kw; q += 4) {
        const uint32_t v = dsp::load_u32(src + q);
        dsp::store2_u32_advance<8>(out, dsp::sxtab16(w.offset2, v),
                                   dsp::sxtab16_ror8(w.offset2, v));
      }
    }
    for (int32_t i = ky_end * row_words; i < w.kernel_h * row_words; ++i) x[i] = 0;
    return;
  }
  const int32_t row_bytes = w.kernel_w_padded;
  for (int32_t ky = 0; ky < w.kernel_h; ++ky) {
    if (ky < ky_begin || ky >= ky_end) {
      memset(patch + ky * row_bytes, w.pad, static_cast<size_t>(kw));
    }
  }
  const int32_t x_step = w.dilation_w * w.channels;
  for (int32_t ky = ky_begin; ky < ky_end; ++ky) {
    // Index (not pointer) arithmetic: x0 may be negative.
    const int32_t row_base = (y0 + ky * w.dilation_h) * w.row_stride + x0 * w.channels;
    int8_t* dst = patch + ky * row_bytes;
    for (int32_t kx = 0; kx < kx_begin; ++kx) dst[kx] = w.pad;
    for (int32_t kx = kx_begin; kx < kx_end; ++kx) dst[kx] = w.image[row_base + kx * x_step];
    for (int32_t kx = kx_end; kx < kw; ++kx) dst[kx] = w.pad;
  }
  const int32_t groups = w.kernel_h * w.kernel_w_padded / 4;
  for (int32_t g = 0; g < groups; ++g) {
    const uint32_t v = dsp::load_u32(patch + 4 * g);
    dsp::store2_u32_advance<8>(x, dsp::sxtab16(w.offset2, v), dsp::sxtab16_ror8(w.offset2, v));
  }
}

}  // namespace

uint32_t depthwise_conv2d_s8_mult__dsp_scratch_bytes(const DepthwiseConv2dS8Params& /*params*/,
                                                     const DepthwiseConv2dShape& shape) {
  // The widened window (2 * taps) and the int8 window (taps).
  return 3u * static_cast<uint32_t>(padded_taps(shape));
}

uint32_t depthwise_conv2d_s8_mult__dsp_arranged_bytes(const DepthwiseConv2dShape& shape) {
  return static_cast<uint32_t>(shape.out_c) * static_cast<uint32_t>(padded_taps(shape));
}

void depthwise_conv2d_s8_mult__dsp_arrange(const DepthwiseConv2dShape& shape,
                                           const int8_t* filter, int8_t* arranged) {
  // Output channel o = c * M + m is row o: c-major, as the kernel walks the channels.
  const int32_t kw = shape.kernel_w;
  const int32_t kw_padded = kernel_w_padded(shape);
  int8_t* row = arranged;
  for (int32_t o = 0; o < shape.out_c; ++o) {
    for (int32_t ky = 0; ky < shape.kernel_h; ++ky) {
      const int8_t* src = filter + ky * kw * shape.out_c + o;
      for (int32_t kx = 0; kx < kw_padded; ++kx) row[kx] = kx < kw ? src[kx * shape.out_c] : 0;
      row += kw_padded;
    }
  }
}

void depthwise_conv2d_s8_mult__dsp(const DepthwiseConv2dS8Params& params,
                                   const int32_t* multipliers, const int32_t* shifts,
                                   const DepthwiseConv2dShape& shape, const int8_t* input,
                                   const int8_t* arranged, const int32_t* bias, int8_t* output,
                                   void* scratch) {
  const int32_t mult = params.depth_multiplier;
  const int32_t channels = shape.in_c;
  const int32_t out_c = shape.out_c;
  const int32_t kw = shape.kernel_w;
  const int32_t kw_padded = kernel_w_padded(shape);
  const int32_t taps = padded_taps(shape);
  uint8_t* const bytes = static_cast<uint8_t*>(scratch);
  uint32_t* const x = reinterpret_cast<uint32_t*>(bytes);
  int8_t* const patch = reinterpret_cast<int8_t*>(bytes + 2 * taps);
  const int8_t pad_value = static_cast<int8_t>(params.input_zero_point);
  memset(patch, static_cast<uint8_t>(pad_value), static_cast<size_t>(taps));
  const int32_t input_offset = -params.input_zero_point;

  Window window;
  window.in_h = shape.in_h;
  window.in_w = shape.in_w;
  window.row_stride = shape.in_w * channels;
  window.channels = channels;
  window.kernel_h = shape.kernel_h;
  window.kernel_w = kw;
  window.kernel_w_padded = kw_padded;
  window.dilation_h = params.window.dilation_h;
  window.dilation_w = params.window.dilation_w;
  window.pad = pad_value;
  window.offset2 = dsp::pack16(input_offset, input_offset);
  window.word_rows = channels == 1 && params.window.dilation_w == 1 && (kw & 3) == 0;
  const int32_t in_image_stride = shape.in_h * window.row_stride;

  for (int32_t c = 0; c < channels; ++c) {
    const int8_t* const filter_c = arranged + c * mult * taps;
    const int32_t* const bias_c = bias != nullptr ? bias + c * mult : nullptr;
    const fc_dsp::Finisher finish{multipliers + c * mult,
                                  shifts + c * mult,
                                  1,
                                  requant_dsp_applies(multipliers + c * mult, mult),
                                  params.output_zero_point,
                                  params.act_min,
                                  params.act_max};
    for (int32_t b = 0; b < shape.batch; ++b) {
      window.image = input + b * in_image_stride + c;
      int8_t* out = output + b * shape.out_h * shape.out_w * out_c + c * mult;
      for (int32_t oy = 0; oy < shape.out_h; ++oy) {
        const int32_t y0 = oy * params.window.stride_h - params.window.pad_top;
        for (int32_t ox = 0; ox < shape.out_w; ++ox) {
          gather(window, y0, ox * params.window.stride_w - params.window.pad_left, patch, x);
          for (int32_t m0 = 0; m0 < mult; m0 += kBlockRows) {
            const int32_t count = mult - m0 < kBlockRows ? mult - m0 : kBlockRows;
            int32_t acc[kBlockRows];
            fc_dsp::dot_block_aligned(filter_c + m0 * taps, taps, x, count, acc);
            fc_dsp::finish_block(finish, m0, count, acc,
                                 bias_c != nullptr ? bias_c + m0 : nullptr, 0, out + m0);
          }
          out += out_c;
        }
      }
    }
  }
}

// check(): the reference's checks on the reference's part of the params, then the
// arranged filter after it, byte for byte against input 1 (a program is read from
// storage: a corrupt copy is refused at load, never run).
Status depthwise_conv2d_s8_mult__dsp_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 2, 3, 1));
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& filter = ctx.input_desc(1);
  const TensorDesc& out = ctx.output_desc(0);
  if (in.rank != 4 || filter.rank != 4 || out.rank != 4) return Status::kBadParams;
  const DepthwiseConv2dShape shape = window_shape(in, filter, out);
  const uint64_t arranged_bytes = uint64_t{filter.dims[3]} * filter.dims[1] *
                                  ((uint64_t{filter.dims[2]} + 3) & ~uint64_t{3});
  const uint64_t reference_bytes = sizeof(DepthwiseConv2dS8Params) + 2 * 4 * uint64_t{filter.dims[3]};
  if (ctx.params_bytes() != reference_bytes + arranged_bytes) return Status::kBadParams;
  MOTE_RETURN_IF_ERROR(depthwise_conv2d_s8_check_params(ctx, static_cast<uint32_t>(arranged_bytes)));
  const DepthwiseConv2dS8Params& p = ctx.params<DepthwiseConv2dS8Params>();
  if (!depthwise_conv2d_s8_mult__dsp_supports(p)) return Status::kBadParams;
  if (ctx.scratch().size() < depthwise_conv2d_s8_mult__dsp_scratch_bytes(p, shape) ||
      (reinterpret_cast<uintptr_t>(ctx.scratch().data()) & 3u) != 0) {
    return Status::kBadParams;
  }
  // Compare tap by tap without a copy: row o, tap (ky, kx).
  const int8_t* arranged = reinterpret_cast<const int8_t*>(params_array(p, 2, filter.dims[3]));
  const int8_t* weights = static_cast<const int8_t*>(ctx.input_data(1));
  const int32_t kw = shape.kernel_w;
  const int32_t kw_padded = kernel_w_padded(shape);
  const int32_t out_c = static_cast<int32_t>(filter.dims[3]);
  for (int32_t o = 0; o < out_c; ++o) {
    for (int32_t ky = 0; ky < shape.kernel_h; ++ky) {
      for (int32_t kx = 0; kx < kw_padded; ++kx) {
        const int8_t want = kx < kw ? weights[(ky * kw + kx) * out_c + o] : 0;
        if (*arranged++ != want) return Status::kBadParams;
      }
    }
  }
  return Status::kOk;
}

void depthwise_conv2d_s8_mult__dsp_run(const OpContext& ctx) {
  const TensorDesc& filter = ctx.input_desc(1);
  const DepthwiseConv2dShape shape =
      window_shape(ctx.input_desc(0), filter, ctx.output_desc(0));
  const DepthwiseConv2dS8Params& p = ctx.params<DepthwiseConv2dS8Params>();
  const uint32_t out_c = filter.dims[3];
  const int32_t* bias =
      ctx.input_count() == 3 ? static_cast<const int32_t*>(ctx.input_data(2)) : nullptr;
  depthwise_conv2d_s8_mult__dsp(p, params_array(p, 0, out_c), params_array(p, 1, out_c), shape,
                                static_cast<const int8_t*>(ctx.input_data(0)),
                                reinterpret_cast<const int8_t*>(params_array(p, 2, out_c)), bias,
                                static_cast<int8_t*>(ctx.output_data(0)), ctx.scratch().data());
}

const KernelEntry kDepthwiseConv2dS8MultDspEntry = {depthwise_conv2d_s8_mult__dsp_check,
                                                    depthwise_conv2d_s8_mult__dsp_run};

}  // namespace mote
