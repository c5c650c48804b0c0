// Armv7E-M DSP int8 convolution written for code size (`--optimize size`): any KH x KW,
// stride, dilation and padding, groups == 1, bit-exact with conv2d_s8. One generic loop,
// no specialized paths:
//
// - Output pixels are taken two at a time, in output order (batch, row, column). Each
//   one's window is gathered as K = KH * KW * C int8 bytes in filter order (padding taps
//   and the bytes past K up to a whole word hold the input zero point), then widened
//   with the input offset added (SXTAB16 / SXTAB16 ROR #8) into its half of a two-pixel
//   int16 column: per group of four K values g, the words
//     (x[4g], x[4g+2]), (x[4g+1], x[4g+3]) of pixel 0, then the same of pixel 1,
//   the order SXTB16 / SXTB16 ROR #8 split a weight word into. A padding value becomes
//   0. A last pixel without a partner fills both halves; the copy's outputs are dropped.
// - Output channels are taken two at a time (an odd last one with itself): one weight
//   word of each channel is widened on the fly and meets both pixels, 16 MACs in 18
//   instructions (dsp::dot_groups_s16x8_2rows_2inputs). The weights are read as stored
//   (unaligned words); a row's last partial group is assembled from its bytes, so
//   nothing past a row is read, and its missing taps meet the column's zero padding.
// - Requantization per output: one SMLAL with the output zero point folded in
//   (conv2d_dsp::requantize_fast) for the usual channels (multiplier >= 0, right shift
//   of 2 to 23), the reference arithmetic for any other; then the clamp.
//
// Accumulation wraps in 32 bits like the reference (the bias is added first, which
// changes nothing modulo 2^32).
//
// Scratch (4-aligned): the column, 16 * ceil(K / 4) bytes, then the gathered window,
// 4 * ceil(K / 4) bytes.
#include "conv2d/conv2d.h"
#include "conv2d/conv2d_s8_dsp_block.h"
#include "isa/dsp.h"
#include "kernel_util.h"
#include "quant/quant_check.h"
#include "quant/quant_math.h"

namespace mote {
namespace {

// Groups of four K values per window.
uint32_t window_groups(uint64_t k) { return static_cast<uint32_t>((k + 3) / 4); }

// n bytes to dst from src, src advancing by step (1: a run of the image; 0: the padding
// value repeated). Returns the end of dst. One loop for both, which the compiler cannot
// turn into memcpy / memset calls (costly for a few bytes).
int8_t* copy_run(const int8_t* src, int32_t step, int32_t n, int8_t* dst) {
  for (int32_t j = 0; j < n; ++j, src += step) *dst++ = *src;
  return dst;
}

// Window of the output pixel whose top-left tap is at input (y0, x0), as K bytes in
// filter order.
void gather_window(const Conv2dS8Params& params, const Conv2dShape& shape, const int8_t* image,
                   int32_t y0, int32_t x0, const int8_t* pad, int8_t* dst) {
  const int32_t c = shape.in_c;
  const bool row_inside =
      params.window.dilation_w == 1 && x0 >= 0 && x0 + shape.kernel_w <= shape.in_w;
  for (int32_t ky = 0; ky < shape.kernel_h; ++ky) {
    const int32_t y = y0 + ky * params.window.dilation_h;
    const bool y_inside = y >= 0 && y < shape.in_h;
    const int8_t* const in_row = image + (y_inside ? y : 0) * shape.in_w * c;
    if (y_inside && row_inside) {  // the whole filter row in one run
      dst = copy_run(in_row + x0 * c, 1, shape.kernel_w * c, dst);
      continue;
    }
    for (int32_t kx = 0; kx < shape.kernel_w; ++kx) {
      const int32_t x = x0 + kx * params.window.dilation_w;
      const bool inside = y_inside && x >= 0 && x < shape.in_w;
      dst = copy_run(inside ? in_row + x * c : pad, inside ? 1 : 0, c, dst);
    }
  }
}

// The gathered window (groups whole words) plus the offset, into half `half` (0, 1) of
// the two-pixel column.
void widen_window(const int8_t* window, uint32_t groups, uint32_t offsets, uint32_t* column,
                  int32_t half) {
  uint32_t* dst = column + 2 * half;
  for (uint32_t g = 0; g < groups; ++g, dst += 4) {
    const uint32_t x = dsp::load_u32(window + 4 * g);
    dst[0] = dsp::sxtab16(offsets, x);
    dst[1] = dsp::sxtab16_ror8(offsets, x);
  }
}

// The n (1..3) bytes at w as a word, the missing taps 0.
uint32_t partial_word(const int8_t* w, int32_t n) {
  uint32_t v = 0;
  for (int32_t j = n - 1; j >= 0; --j) v = (v << 8) | static_cast<uint8_t>(w[j]);
  return v;
}

}  // namespace

uint32_t conv2d_s8_compact__dsp_scratch_bytes(int32_t kernel_h, int32_t kernel_w, int32_t in_c) {
  return 20u * window_groups(uint64_t{static_cast<uint32_t>(kernel_h)} *
                             static_cast<uint32_t>(kernel_w) * static_cast<uint32_t>(in_c));
}

void conv2d_s8_compact__dsp(const Conv2dS8Params& params, const int32_t* multipliers,
                            const int32_t* shifts, const Conv2dShape& shape, const int8_t* input,
                            const int8_t* filter, const int32_t* bias, int8_t* output,
                            uint8_t* scratch) {
  const int32_t k = shape.kernel_h * shape.kernel_w * shape.in_c;
  const uint32_t groups = window_groups(static_cast<uint32_t>(k));
  const int32_t whole = k / 4;      // whole weight words per row
  const int32_t rest = k - 4 * whole;
  const int32_t out_c = shape.out_c;
  uint32_t* const column = reinterpret_cast<uint32_t*>(scratch);
  const uint32_t* const column_end = column + 4u * groups;
  int8_t* const window = reinterpret_cast<int8_t*>(scratch + 16u * groups);
  const int8_t pad = static_cast<int8_t>(params.input_zero_point);
  copy_run(&pad, 0, static_cast<int32_t>(4u * groups) - k, window + k);
  const uint32_t offsets = conv2d_dsp::offset_pair(-params.input_zero_point);
  const int32_t zp = params.output_zero_point;
  const int32_t act_min = params.act_min;
  const int32_t act_max = params.act_max;

  const int32_t pixels = shape.batch * shape.out_h * shape.out_w;
  const int32_t image_step = shape.in_h * shape.in_w * shape.in_c;
  const int8_t* image = input;
  int32_t oy = 0, ox = 0;
  for (int32_t p = 0; p < pixels; p += 2) {
    const int32_t count = pixels - p < 2 ? 1 : 2;
    for (int32_t half = 0; half < 2; ++half) {
      if (half < count) {
        gather_window(params, shape, image, oy * params.window.stride_h - params.window.pad_top,
                      ox * params.window.stride_w - params.window.pad_left, &pad, window);
        if (++ox == shape.out_w) {
          ox = 0;
          if (++oy == shape.out_h) {
            oy = 0;
            image += image_step;
          }
        }
      }
      widen_window(window, groups, offsets, column, half);
    }

    int8_t* const out = output + p * out_c;
    for (int32_t o = 0; o < out_c; o += 2) {
      const int32_t o1 = o + 1 < out_c ? o + 1 : o;
      // a<c>: channel o + c of pixel 0; b<c>: of pixel 1.
      int32_t a0 = bias != nullptr ? bias[o] : 0;
      int32_t a1 = bias != nullptr ? bias[o1] : 0;
      int32_t b0 = a0, b1 = a1;
      const uint32_t* x = column;
      const int8_t* w0 = filter + o * k;
      const int8_t* w1 = filter + o1 * k;
      // The whole words, then (once, when K % 4 != 0) the last partial group of each row
      // from tail: one call site, so the dot product is inlined once.
      const uint32_t* x_end = column + 4 * whole;
      uint32_t tail[2];
      for (;;) {
        dsp::dot_groups_s16x8_2rows_2inputs(x, x_end, w0, w1, a0, a1, b0, b1);
        if (x == column_end) break;
        tail[0] = partial_word(w0, rest);
        tail[1] = partial_word(w1, rest);
        w0 = reinterpret_cast<const int8_t*>(tail);
        w1 = w0 + 4;
        x_end = column_end;
      }
      const int32_t acc[2][2] = {{a0, b0}, {a1, b1}};  // [channel][pixel]
      for (int32_t ch = 0; ch <= o1 - o; ++ch) {
        const conv2d_dsp::ChannelQuant q =
            conv2d_dsp::channel_quant(multipliers[o + ch], shifts[o + ch], zp);
        for (int32_t px = 0; px < count; ++px) {
          out[px * out_c + o + ch] = conv2d_dsp::requantize_one(acc[ch][px], q, zp, act_min, act_max);
        }
      }
    }
  }
}

Status conv2d_s8_compact__dsp_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(conv2d_s8_check(ctx));
  const TensorDesc& filter = ctx.input_desc(1);
  if (ctx.params<Conv2dS8Params>().groups != 1) return Status::kBadParams;
  const uint64_t needed = 20u * uint64_t{window_groups(uint64_t{filter.dims[1]} * filter.dims[2] * filter.dims[3])};
  const Span<uint8_t> scratch = ctx.scratch();
  if (scratch.size() < needed || reinterpret_cast<uintptr_t>(scratch.data()) % 4 != 0) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void conv2d_s8_compact__dsp_run(const OpContext& ctx) {
  const TensorDesc& filter = ctx.input_desc(1);
  const Conv2dShape shape = window_shape(ctx.input_desc(0), filter, ctx.output_desc(0));
  const Conv2dS8Params& p = ctx.params<Conv2dS8Params>();
  const uint32_t out_c = filter.dims[0];
  const int32_t* bias =
      ctx.input_count() == 3 ? static_cast<const int32_t*>(ctx.input_data(2)) : nullptr;
  conv2d_s8_compact__dsp(p, params_array(p, 0, out_c), params_array(p, 1, out_c), shape,
                         static_cast<const int8_t*>(ctx.input_data(0)),
                         static_cast<const int8_t*>(ctx.input_data(1)), bias,
                         static_cast<int8_t*>(ctx.output_data(0)), ctx.scratch().data());
}

const KernelEntry kConv2dS8CompactDspEntry = {conv2d_s8_compact__dsp_check,
                                              conv2d_s8_compact__dsp_run};

}  // namespace mote
