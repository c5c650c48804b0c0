// Armv7E-M DSP int8 convolution written for code size (`--optimize size`): any KH x KW,
// stride, dilation and padding, groups == 1, bit-exact with conv2d_s8. One generic loop,
// no shape-specialized paths:
//
// - Output pixels are taken a chunk at a time (whole blocks of four, as many as fit in
//   kColumnsBudget bytes of columns, 1 to 4 blocks), in output order (batch, row,
//   column). Each pixel's window is gathered as K = KH * KW * C int8 bytes in filter
//   order (padding taps, and the bytes past K up to a whole word, hold the input zero
//   point; a 1x1 window without padding with C % 4 == 0 is read in place), then
//   widened with the input offset added (conv2d_dsp::expand_words: SXTAB16 / SXTAB16
//   ROR #8) into its column of the block, in the interleaved layout of
//   conv2d_s8_dsp_block.h (a padding value becomes 0). A last block with fewer than four
//   pixels repeats the last window; those outputs are not stored.
// - Then for every output channel (its quantization set up once per chunk) and block:
//   one weight word widened on the fly (SXTB16 / SXTB16 ROR #8) meets the four columns,
//   16 MACs in 17 instructions (dsp::dot_groups_s16x8_4inputs). The weights are read as
//   stored (unaligned words); a row's last partial group is assembled from its bytes, so
//   nothing past a row is read, and its missing taps meet the columns' zero padding.
// - Requantization: one SMLAL with the output zero point folded in
//   (conv2d_dsp::requantize_fast, four outputs unrolled; SSAT for the full clamp range)
//   for the usual channels (multiplier >= 0, right shift of 2 to 23), the reference
//   arithmetic for any other (conv2d_dsp::requantize_one).
//
// Accumulation wraps in 32 bits like the reference (the bias is added first, which
// changes nothing modulo 2^32).
//
// Scratch (4-aligned): the chunk's columns, 32 * ceil(K / 4) bytes per block, then the
// gathered window, 4 * ceil(K / 4) bytes (scratch_for).
#include "conv2d/conv2d.h"
#include "conv2d/conv2d_shapes.h"
#include "conv2d/conv2d_s8_dsp_block.h"
#include "isa/dsp.h"
#include "kernel_util.h"
#include "quant/quant_check.h"
#include "quant/quant_math.h"

namespace mote {
namespace {

using conv2d_dsp::kBlockPixels;

// Blocks of four pixels per chunk: as many as kColumnsBudget bytes of columns hold, 1 to
// kMaxChunkBlocks (each channel's quantization is set up once per chunk).
inline constexpr uint32_t kColumnsBudget = 1024;
inline constexpr uint32_t kMaxChunkBlocks = 4;
uint32_t chunk_blocks(uint64_t groups) {
  if (groups * 32u > kColumnsBudget / 2) return 1;
  const uint32_t fit = kColumnsBudget / (32u * (groups > 0 ? static_cast<uint32_t>(groups) : 1u));
  return fit > kMaxChunkBlocks ? kMaxChunkBlocks : fit;
}
// The columns of a chunk, then the gathered window.
uint64_t scratch_for(uint64_t k) {
  const uint64_t groups = (k + 3) / 4;
  return chunk_blocks(groups) * 32u * groups + 4u * groups;
}

// n bytes to dst from src, src advancing by step (1: a run of the image; 0: the
// padding value repeated). Returns the end of dst. Not inlined, so that the compiler
// cannot turn it into memcpy / memset calls (costly for a few bytes).
__attribute__((noinline)) int8_t* copy_run(const int8_t* src, int32_t step, int32_t n, int8_t* dst) {
  for (int32_t j = 0; j < n; ++j, src += step) *dst++ = *src;
  return dst;
}

// n bytes of the image from src to dst: words, then copy_run for the last 1-3 bytes.
inline int8_t* copy_image(const int8_t* src, int32_t n, int8_t* dst) {
  for (; n >= 4; n -= 4, src += 4, dst += 4) dsp::store_u32(dst, dsp::load_u32(src));
  return n > 0 ? copy_run(src, 1, n, dst) : dst;
}

// Window of the output pixel whose top-left tap is at input (y0, x0), as K bytes in
// filter order: per filter row, the padding before the taps inside the image, those
// taps (one run when dilation_w is 1), the padding after them.
void gather_window(const Conv2dS8Params& params, const Conv2dShape& shape, const int8_t* image,
                   int32_t y0, int32_t x0, const int8_t* pad, int8_t* dst) {
  const int32_t c = shape.in_c;
  const int32_t row_bytes = shape.kernel_w * c;
  const int32_t dilation_w = params.window.dilation_w;
  TapRange kx = taps_inside(x0, dilation_w, shape.kernel_w, shape.in_w);
  if (kx.begin > shape.kernel_w) kx.begin = kx.end = shape.kernel_w;  // the whole row in the padding
  const int32_t before = kx.begin * c;
  const int32_t after = row_bytes - kx.end * c;
  const bool contiguous = dilation_w == 1;
  const int32_t runs = contiguous ? (kx.end > kx.begin ? 1 : 0) : kx.end - kx.begin;
  const int32_t run_bytes = contiguous ? (kx.end - kx.begin) * c : c;
  for (int32_t ky = 0; ky < shape.kernel_h; ++ky) {
    const int32_t y = y0 + ky * params.window.dilation_h;
    if (y < 0 || y >= shape.in_h) {
      dst = copy_run(pad, 0, row_bytes, dst);
      continue;
    }
    const int8_t* src = image + (y * shape.in_w + x0 + kx.begin * dilation_w) * c;
    if (before > 0) dst = copy_run(pad, 0, before, dst);
    for (int32_t r = 0; r < runs; ++r, src += dilation_w * c) dst = copy_image(src, run_bytes, dst);
    if (after > 0) dst = copy_run(pad, 0, after, dst);
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
  return static_cast<uint32_t>(scratch_for(uint64_t{static_cast<uint32_t>(kernel_h)} *
                                           static_cast<uint32_t>(kernel_w) * static_cast<uint32_t>(in_c)));
}

void conv2d_s8_compact__dsp(const Conv2dS8Params& params, const int32_t* multipliers,
                            const int32_t* shifts, const Conv2dShape& shape, const int8_t* input,
                            const int8_t* filter, const int32_t* bias, int8_t* output,
                            uint8_t* scratch) {
  const int32_t k = shape.kernel_h * shape.kernel_w * shape.in_c;
  const int32_t groups = conv2d_dsp::k_groups(k);
  const int32_t whole = k / 4;  // whole weight words per row
  const int32_t rest = k - 4 * whole;
  const int32_t out_c = shape.out_c;
  const int32_t block_words = 8 * groups;
  const int32_t chunk = kBlockPixels * static_cast<int32_t>(chunk_blocks(static_cast<uint32_t>(groups)));
  uint32_t* const columns = reinterpret_cast<uint32_t*>(scratch);
  int8_t* const window = reinterpret_cast<int8_t*>(columns + (chunk / kBlockPixels) * block_words);
  const int8_t pad = static_cast<int8_t>(params.input_zero_point);
  copy_run(&pad, 0, 4 * groups - k, window + k);
  const uint32_t offsets = conv2d_dsp::offset_pair(-params.input_zero_point);
  const int32_t zp = params.output_zero_point;
  const int32_t act_min = params.act_min;
  const int32_t act_max = params.act_max;
  const bool full_range = act_min == -128 && act_max == 127;

  const int32_t pixels = shape.batch * shape.out_h * shape.out_w;
  const int32_t image_step = shape.in_h * shape.in_w * shape.in_c;
  const int8_t* image = input;
  int32_t oy = 0, ox = 0;
  // A 1x1 window without padding over whole words (C % 4 == 0) is widened straight from
  // the image.
  const WindowGeometry& g = params.window;
  const bool direct = k == shape.in_c && k % 4 == 0 && g.pad_top == 0 && g.pad_left == 0 &&
                      g.pad_bottom == 0 && g.pad_right == 0;
  const int8_t* src = window;
  for (int32_t p = 0; p < pixels; p += chunk) {
    const int32_t count = pixels - p < chunk ? pixels - p : chunk;
    for (int32_t i = 0; i < ((count + 3) & ~3); ++i) {
      if (i < count) {  // else column i repeats the last pixel's window
        const int32_t y0 = oy * g.stride_h - g.pad_top;
        const int32_t x0 = ox * g.stride_w - g.pad_left;
        if (direct) {
          src = image + (y0 * shape.in_w + x0) * k;
        } else {
          gather_window(params, shape, image, y0, x0, &pad, window);
        }
        if (++ox == shape.out_w) {
          ox = 0;
          if (++oy == shape.out_h) {
            oy = 0;
            image += image_step;
          }
        }
      }
      conv2d_dsp::expand_words(src, groups, offsets, columns + (i >> 2) * block_words, i & 3);
    }

    for (int32_t o = 0; o < out_c; ++o) {
      const int32_t b = bias != nullptr ? bias[o] : 0;
      const conv2d_dsp::ChannelQuant q = conv2d_dsp::channel_quant(multipliers[o], shifts[o], zp);
      int8_t* dst = output + p * out_c + o;
      const uint32_t* block = columns;
      for (int32_t n = count; n > 0; n -= kBlockPixels, block += block_words, dst += kBlockPixels * out_c) {
        int32_t a0 = b, a1 = b, a2 = b, a3 = b;
        // The whole weight words, then (when K % 4 != 0) the row's last partial group.
        const int8_t* w = filter + o * k;
        const uint32_t* a = block;
        dsp::dot_groups_s16x8_4inputs(a, block + 8 * whole, w, a0, a1, a2, a3);
        if (rest != 0) {
          const uint32_t tail = partial_word(w, rest);
          const int8_t* t = reinterpret_cast<const int8_t*>(&tail);
          dsp::dot_groups_s16x8_4inputs(a, a + 8, t, a0, a1, a2, a3);
        }
        if (q.fast && n >= kBlockPixels) {  // the usual case: four requantize_fast, unrolled
          const int32_t r0 = conv2d_dsp::requantize_fast(a0, q.multiplier, q.high, q.right_minus_1);
          const int32_t r1 = conv2d_dsp::requantize_fast(a1, q.multiplier, q.high, q.right_minus_1);
          const int32_t r2 = conv2d_dsp::requantize_fast(a2, q.multiplier, q.high, q.right_minus_1);
          const int32_t r3 = conv2d_dsp::requantize_fast(a3, q.multiplier, q.high, q.right_minus_1);
          if (full_range) {  // one SSAT each
            dst[0] = static_cast<int8_t>(dsp::ssat8(r0));
            dst[out_c] = static_cast<int8_t>(dsp::ssat8(r1));
            dst[2 * out_c] = static_cast<int8_t>(dsp::ssat8(r2));
            dst[3 * out_c] = static_cast<int8_t>(dsp::ssat8(r3));
          } else {
            dst[0] = static_cast<int8_t>(clamp_i32(r0, act_min, act_max));
            dst[out_c] = static_cast<int8_t>(clamp_i32(r1, act_min, act_max));
            dst[2 * out_c] = static_cast<int8_t>(clamp_i32(r2, act_min, act_max));
            dst[3 * out_c] = static_cast<int8_t>(clamp_i32(r3, act_min, act_max));
          }
          continue;
        }
        const int32_t acc[kBlockPixels] = {a0, a1, a2, a3};
        for (int32_t px = 0; px < n && px < kBlockPixels; ++px) {
          dst[px * out_c] = conv2d_dsp::requantize_one(acc[px], q, zp, act_min, act_max);
        }
      }
    }
  }
}

Status conv2d_s8_compact__dsp_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(conv2d_s8_check(ctx));
  const TensorDesc& filter = ctx.input_desc(1);
  if (ctx.params<Conv2dS8Params>().groups != 1) return Status::kBadParams;
  const uint64_t needed = scratch_for(uint64_t{filter.dims[1]} * filter.dims[2] * filter.dims[3]);
  const Span<uint8_t> scratch = ctx.scratch();
  if (scratch.size() < needed || reinterpret_cast<uintptr_t>(scratch.data()) % 4 != 0) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void conv2d_s8_compact__dsp_run(const OpContext& ctx) {
  const Conv2dS8Operands o = conv2d_s8_operands(ctx);
  conv2d_s8_compact__dsp(o.params, o.multipliers, o.shifts, o.shape, o.input, o.filter, o.bias, o.output,
                         ctx.scratch().data());
}

const KernelEntry kConv2dS8CompactDspEntry = {conv2d_s8_compact__dsp_check,
                                              conv2d_s8_compact__dsp_run};

}  // namespace mote
