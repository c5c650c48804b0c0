// Armv7E-M DSP int8 convolution for small windows (few input channels, e.g. a 3x3x3
// first layer or kws' 10x4x1), groups == 1, any stride, dilation and padding, bit-exact
// with conv2d_s8. check() takes a window of at most kMaxSteps SMLAD steps (see
// RowsLayout); larger ones go to conv2d_s8__dsp, whose scheme (4-pixel im2col blocks,
// every channel over them) spends most of its time per channel and block on such small
// windows, not per MAC. Here:
// - K order: every filter row's whole words first (row by row, each word as its even
//   and odd taps, the SXTAB16 / SXTAB16 ROR #8 halves), then the bytes past the last
//   whole word of every row ("tail", row by row) as words. Each word is two steps, one
//   int16 pair per step. Tail padding has weight 0.
// - Output pixels are taken chunk_pixels() at a time: each one's window becomes S = steps
//   int16 pairs in scratch (input offset added), in blocks of 4 pixels laid out
//   [step][pixel]. Each pair of output channels has its weights widened into
//   [step][channel] int16 pairs (once per run for up to kCachedPairs pairs, else once
//   per chunk), and every block runs 4 pixels x 2 channels: per
//   step one LDRD of the weights, two LDRD of the pixels, 8 SMLAD (16 MACs in 11
//   instructions, fully unrolled; on DSP cores in asm, entered at step kMaxSteps - S,
//   always even). Odd out_c: the last pair's second channel has zero weights and is
//   not stored. Windows inside the image are expanded in place (3x3x3 two pixels at a
//   time, in asm on DSP cores); border windows of 3x3x3 with dilation_w 1 row by row
//   (rows inside read in place, others through zero-point rows), others gathered first
//   (padding words, then only the rows and columns inside the image).
// - Requantization in the pair blocks (run_pair_blocks): the doubled one (6
//   instructions per output), or for ReLU-like layers (output zp -128, full clamp) the
//   shifted one (see shifted_exponent(): 3 per output with weights and biases scaled
//   once, cached pairs; 4 scaling the accumulators, uncached). Partial blocks and other
//   requantizations: the same chain storing its accumulators (kRaw), then C++.
// Scratch: chunk_pixels() * S * 4 + kCachedPairs * S * 8 bytes, plus the gathered window
// (border pixels) and the tail bytes, each rounded up to a word. With more than
// kCachedPairs pairs, the one pair widened per chunk sits at the end of the cache and
// the columns of a larger chunk fill the space before it.
// - Records path (param pair_records 1, granted by the compiler where the memory plan has
//   room; windows of one-word rows, kernel_w * in_c == 4 as kws' 10x4x1, dilation_w 1;
//   even out_c with more than kCachedPairs pairs, ReLU-like, every pair in the shifted
//   requantization): every pair's record (weights scaled, biases, multipliers, addends)
//   written once per run, then blocks of 4 pixels outermost: each block's 4 windows
//   expanded at once (PixelWalk::expand_words4), every pair run over them in the same
//   asm chain (run_pair_blocks, mode kRecords: 259 instructions per pair and block of
//   20 steps, 221 of them the steps), the last partial block stepping back. kws' first
//   layer (32 pairs): 367,520 -> 305,520 instructions on cortex-m4, scratch 5,480 ->
//   6,336 bytes (its arena unchanged). Other layers take the chunked path above.
//   Scratch: records_scratch(); see conv2d_records. The code is held to what kws' link
//   allows (firmware_size_link_kws_int8): one chain for every mode, no expanders beside
//   the two layouts' own.
#include <stddef.h>

#include "conv2d/conv2d.h"
#include "conv2d/conv2d_s8_dsp_block.h"
#include "conv2d/conv2d_shapes.h"
#include "kernel_util.h"
#include "quant/quant_check.h"

namespace mote {
namespace {

inline constexpr int32_t kMaxSteps = 24;
// Pixels per chunk: as many as kActsBudget bytes of columns hold (a multiple of 4, at
// most kMaxChunkPixels): 72 for a 3x3x3 window (14 steps), 52 for a 10x4x1 one (20).
// With more than kCachedPairs pairs the cache's unused pairs hold columns too: 64
// pixels for 10x4x1, so that kws' first layer (125 pixels) takes two chunks, not three
// (each widens every pair's weights again); kActsBudget is the least that gives it.
inline constexpr int32_t kMaxChunkPixels = 128;
inline constexpr int32_t kActsBudget = 4160;
// Channel pairs whose widened weights stay in scratch for the whole run (more: widened
// again per chunk).
inline constexpr int32_t kCachedPairs = 8;

// The K order of the small-window path for windows of kernel_h rows of row_bytes bytes.
struct RowsLayout {
  int32_t kernel_h, row_bytes;
  int32_t row_words;   // whole words per row
  int32_t rem;         // bytes per row past them (0..3)
  int32_t tail_words;  // ceil(kernel_h * rem / 4)
  int32_t steps;       // 2 * (kernel_h * row_words + tail_words)
};

RowsLayout rows_layout(int32_t kernel_h, int32_t kernel_w, int32_t in_c) {
  RowsLayout l;
  l.kernel_h = kernel_h;
  l.row_bytes = kernel_w * in_c;
  l.row_words = l.row_bytes / 4;
  l.rem = l.row_bytes % 4;
  l.tail_words = (kernel_h * l.rem + 3) / 4;
  l.steps = 2 * (kernel_h * l.row_words + l.tail_words);
  return l;
}

bool small_applies(const RowsLayout& l) { return l.steps > 0 && l.steps <= kMaxSteps; }

int32_t chunk_pixels(const RowsLayout& l) {
  const int32_t fit = (kActsBudget / (l.steps * 4)) & ~3;
  return fit < kMaxChunkPixels ? fit : kMaxChunkPixels;
}

uint32_t round4(int32_t n) { return static_cast<uint32_t>((n + 3) & ~3); }

// The weights of channels o, o + 1 of a layout of whole words (rem 0, no tail: the K
// order is the filter's) as [step][channel]: 2 LDR, 4 SXTAB16 and 2 STRD per word.
void widen_pair_words(const int8_t* f0, const int8_t* f1, int32_t words, uint32_t* dst) {
  for (int32_t q = 0; q < words; ++q, f0 += 4, f1 += 4) {
    const uint32_t x0 = dsp::load_u32(f0);
    const uint32_t x1 = dsp::load_u32(f1);
    dsp::store2_u32_advance<8>(dst, dsp::sxtab16(0u, x0), dsp::sxtab16(0u, x1));
    dsp::store2_u32_advance<8>(dst, dsp::sxtab16_ror8(0u, x0), dsp::sxtab16_ror8(0u, x1));
  }
}

// widen_pair_words with each channel's weights times 2^e0, 2^e1 (see scale_channel):
// 2 LDR, 4 SXTAB16, 4 LSL, 4 AND and 2 STRD per word.
void widen_pair_words_scaled(const int8_t* f0, const int8_t* f1, int32_t words, int32_t e0, int32_t e1,
                             uint32_t* dst) {
  const uint32_t mask0 = ~(((1u << e0) - 1u) << 16);
  const uint32_t mask1 = ~(((1u << e1) - 1u) << 16);
  for (int32_t q = 0; q < words; ++q, f0 += 4, f1 += 4) {
    const uint32_t x0 = dsp::load_u32(f0);
    const uint32_t x1 = dsp::load_u32(f1);
    dsp::store2_u32_advance<8>(dst, (dsp::sxtab16(0u, x0) << e0) & mask0, (dsp::sxtab16(0u, x1) << e1) & mask1);
    dsp::store2_u32_advance<8>(dst, (dsp::sxtab16_ror8(0u, x0) << e0) & mask0,
                               (dsp::sxtab16_ror8(0u, x1) << e1) & mask1);
  }
}

// Scratch of the small-window path, in this order.
struct SmallScratch {
  uint32_t acts_bytes, weights_bytes, gathered_bytes, tail_bytes;
  uint32_t total() const { return acts_bytes + weights_bytes + gathered_bytes + tail_bytes; }
};
SmallScratch small_scratch(const RowsLayout& l) {
  return SmallScratch{static_cast<uint32_t>(chunk_pixels(l) * l.steps * 4),
                      static_cast<uint32_t>(kCachedPairs * l.steps * 8),
                      round4(l.kernel_h * l.row_bytes),
                      static_cast<uint32_t>(l.tail_words * 4)};
}

// The steps of one window (kernel_h rows of row_bytes bytes, row_step apart), each value
// plus the offset in its half, to dst[0], dst[stride], dst[2 * stride], ... The tail bytes
// go through tail (whose bytes past kernel_h * rem stay as they are).
void expand_rows(const int8_t* src, int32_t row_step, const RowsLayout& l, uint32_t offsets,
                 int8_t* tail, uint32_t* dst, int32_t stride) {
  int8_t* t = tail;
  for (int32_t r = 0; r < l.kernel_h; ++r, src += row_step) {
    const int8_t* s = src;
    for (int32_t q = 0; q < l.row_words; ++q, s += 4) {
      const uint32_t x = dsp::load_u32(s);
      dst[0] = dsp::sxtab16(offsets, x);
      dst[stride] = dsp::sxtab16_ror8(offsets, x);
      dst += 2 * stride;
    }
    for (int32_t b = 0; b < l.rem; ++b) *t++ = s[b];
  }
  for (int32_t q = 0; q < l.tail_words; ++q) {
    const uint32_t x = dsp::load_u32(tail + 4 * q);
    dst[0] = dsp::sxtab16(offsets, x);
    dst[stride] = dsp::sxtab16_ror8(offsets, x);
    dst += 2 * stride;
  }
}

// The usual first layer, 3x3 window of a 3-channel image (row_bytes 9): 14 steps, the
// tail word being byte 8 of rows 0, 1, 2 (and a padding byte, weight 0).
__attribute__((always_inline)) inline void expand_rows_3x9(const int8_t* src, const int8_t* r1,
                                                          const int8_t* r2, uint32_t offsets,
                                                          uint32_t* dst, int32_t stride) {
  uint32_t x = dsp::load_u32(src);
  dst[0] = dsp::sxtab16(offsets, x);
  dst[stride] = dsp::sxtab16_ror8(offsets, x);
  x = dsp::load_u32(src + 4);
  dst[2 * stride] = dsp::sxtab16(offsets, x);
  dst[3 * stride] = dsp::sxtab16_ror8(offsets, x);
  x = dsp::load_u32(r1);
  dst[4 * stride] = dsp::sxtab16(offsets, x);
  dst[5 * stride] = dsp::sxtab16_ror8(offsets, x);
  x = dsp::load_u32(r1 + 4);
  dst[6 * stride] = dsp::sxtab16(offsets, x);
  dst[7 * stride] = dsp::sxtab16_ror8(offsets, x);
  x = dsp::load_u32(r2);
  dst[8 * stride] = dsp::sxtab16(offsets, x);
  dst[9 * stride] = dsp::sxtab16_ror8(offsets, x);
  x = dsp::load_u32(r2 + 4);
  dst[10 * stride] = dsp::sxtab16(offsets, x);
  dst[11 * stride] = dsp::sxtab16_ror8(offsets, x);
  // (r0[8], r2[8]) and (r1[8], pad): bytes 0, 2 and 1 of the tail word.
  x = static_cast<uint32_t>(static_cast<uint8_t>(src[8])) |
      (static_cast<uint32_t>(static_cast<uint8_t>(r1[8])) << 8) |
      (static_cast<uint32_t>(static_cast<uint8_t>(r2[8])) << 16);
  dst[12 * stride] = dsp::sxtab16(offsets, x);
  dst[13 * stride] = dsp::sxtab16_ror8(offsets, x);
}
__attribute__((always_inline)) inline void expand_rows_3x9(const int8_t* src, int32_t row_step,
                                                          uint32_t offsets, uint32_t* dst,
                                                          int32_t stride) {
  expand_rows_3x9(src, src + row_step, src + 2 * row_step, offsets, dst, stride);
}

// expand_rows_3x9 out of line, for the weights (once per channel and run).
__attribute__((noinline)) void widen_rows_3x9(const int8_t* src, uint32_t* dst) {
  expand_rows_3x9(src, 9, 0u, dst, 2);
}

// The weights of channels o, o + 1 (zero for a missing o + 1) of a filter of k taps per
// channel as [step][channel] (tail: the layout's tail bytes, as in expand_rows).
void widen_pair_any(const int8_t* filter, int32_t k, const RowsLayout& l, int32_t out_c, int8_t* tail,
                    int32_t o, uint32_t* dst) {
  const bool rows_3x9 = l.kernel_h == 3 && l.row_bytes == 9;
  if (l.rem == 0 && o + 1 < out_c) {
    widen_pair_words(filter + o * k, filter + (o + 1) * k, k / 4, dst);
    return;
  }
  if (rows_3x9) {
    widen_rows_3x9(filter + o * k, dst);
  } else {
    expand_rows(filter + o * k, l.row_bytes, l, 0u, tail, dst, 2);
  }
  if (o + 1 < out_c && rows_3x9) {
    widen_rows_3x9(filter + (o + 1) * k, dst + 1);
  } else if (o + 1 < out_c) {
    expand_rows(filter + (o + 1) * k, l.row_bytes, l, 0u, tail, dst + 1, 2);
  } else {
    for (int32_t j = 0; j < l.steps; ++j) dst[2 * j + 1] = 0;
  }
}

// The window of output pixel (oy, ox) to dst (kernel_h rows of kernel_w * in_c bytes,
// then the padding up to a word), for pixels at the border: padding (the input zero point)
// written a word at a time, then the taps inside the image, a range of rows and in each
// the same range of columns (computed once), copied.
__attribute__((noinline)) void gather_small(const Conv2dS8Params& params, const Conv2dShape& shape,
                                            const int8_t* image, int32_t oy, int32_t ox, int8_t* dst) {
  const int32_t c = shape.in_c;
  const int32_t row_bytes = shape.kernel_w * c;
  const uint32_t pad4 = static_cast<uint8_t>(params.input_zero_point) * 0x01010101u;
  uint32_t* const words = reinterpret_cast<uint32_t*>(dst);
  for (uint32_t q = 0; q < round4(shape.kernel_h * row_bytes) / 4; ++q) words[q] = pad4;
  // Taps [lo, hi) of a dimension inside [0, size): first tap at t0, dilation dl, n taps.
  auto inside = [](int32_t t0, int32_t dl, int32_t n, int32_t size, int32_t* lo, int32_t* hi) {
    *lo = t0 >= 0 ? 0 : (dl - 1 - t0) / dl;
    *hi = size - 1 - t0 < 0 ? 0 : (size - 1 - t0) / dl + 1;
    if (*hi > n) *hi = n;
    if (*hi < *lo) *hi = *lo;
  };
  const int32_t y0 = oy * params.window.stride_h - params.window.pad_top;
  const int32_t x0 = ox * params.window.stride_w - params.window.pad_left;
  const int32_t dh = params.window.dilation_h, dw = params.window.dilation_w;
  int32_t ky_lo, ky_hi, kx_lo, kx_hi;
  inside(y0, dh, shape.kernel_h, shape.in_h, &ky_lo, &ky_hi);
  inside(x0, dw, shape.kernel_w, shape.in_w, &kx_lo, &kx_hi);
  // Runs of bytes per row: one of every tap inside (dilation_w 1), else one per tap.
  const int32_t runs = dw == 1 ? (kx_hi > kx_lo ? 1 : 0) : kx_hi - kx_lo;
  const int32_t run_bytes = dw == 1 ? (kx_hi - kx_lo) * c : c;
  for (int32_t ky = ky_lo; ky < ky_hi; ++ky) {
    const int8_t* s = image + ((y0 + ky * dh) * shape.in_w + x0 + kx_lo * dw) * c;
    int8_t* d = dst + ky * row_bytes + kx_lo * c;
    for (int32_t r = 0; r < runs; ++r, s += dw * c, d += c) {
      for (int32_t j = 0; j < run_bytes; ++j) d[j] = s[j];
    }
  }
}

// The rows of a 3x9 window crossing the image border with dilation_w 1 (see
// expand_border_3x9) to row[0..2].
inline void border_rows_3x9(const Conv2dS8Params& params, const Conv2dShape& shape, const int8_t* image,
                            int32_t oy, int32_t ox, int8_t* rows, const int8_t** row) {
  const int32_t c = shape.in_c;
  const int32_t y0 = oy * params.window.stride_h - params.window.pad_top;
  const int32_t x0 = ox * params.window.stride_w - params.window.pad_left;
  const int32_t lo = x0 < 0 ? (-x0 < shape.kernel_w ? -x0 : shape.kernel_w) * c : 0;
  const int32_t right = shape.in_w - x0;  // taps inside from the window's left edge
  int32_t hi = right < shape.kernel_w ? (right > 0 ? right : 0) * c : 9;
  if (hi < lo) hi = lo;
  const uint32_t pad4 = static_cast<uint8_t>(params.input_zero_point) * 0x01010101u;
  uint32_t* const words = reinterpret_cast<uint32_t*>(rows);
  for (int32_t q = 0; q < 7; ++q) words[q] = pad4;
  for (int32_t ky = 0; ky < 3; ++ky) {
    const int32_t y = y0 + ky * params.window.dilation_h;
    int8_t* const buf = rows + 9 * ky;
    row[ky] = buf;
    if (y < 0 || y >= shape.in_h) continue;
    const int8_t* const s = image + (y * shape.in_w + x0) * c;
    if (lo == 0 && hi == 9) {
      row[ky] = s;
      continue;
    }
    for (int32_t j = lo; j < hi; ++j) buf[j] = s[j];
  }
}

// A 3x9 window (see expand_rows_3x9) crossing the image border: with dilation_w 1 rows
// inside the image horizontally are read in place, the others from `rows` (3 rows of 9
// bytes, the input zero point but for each row's bytes [lo, hi) inside the image); else
// gathered (gather_small) to `rows`.
__attribute__((noinline)) void expand_border_3x9(const Conv2dS8Params& params, const Conv2dShape& shape,
                                                 const int8_t* image, int32_t oy, int32_t ox,
                                                 uint32_t offsets, int8_t* rows, uint32_t* dst) {
  const int8_t* row[3] = {rows, rows + 9, rows + 18};
  if (params.window.dilation_w != 1) {
    gather_small(params, shape, image, oy, ox, rows);
  } else {
    border_rows_3x9(params, shape, image, oy, ox, rows, row);
  }
  expand_rows_3x9(row[0], row[1], row[2], offsets, dst, 4);
}

// expand_rows_3x9 of two neighbouring pixels (columns dst[0] and dst[1]), each pair of
// words stored together (STRD, post-increment). On DSP cores in asm: 34 instructions per
// pixel (GCC spilled its row pointers, ~47).
#if MOTE_HAS_DSP
// Word o of the current row of both pixels: 2 LDR, 4 SXTAB16, 2 STRD.
#define MOTE_3X9_WORD(o)                          \
  "ldr %[x0], [%[a], #" #o "]\n\t"                \
  "ldr %[x1], [%[b], #" #o "]\n\t"                \
  "sxtab16 %[y0], %[off], %[x0]\n\t"              \
  "sxtab16 %[y1], %[off], %[x1]\n\t"              \
  "strd %[y0], %[y1], [%[d]], #16\n\t"            \
  "sxtab16 %[y0], %[off], %[x0], ror #8\n\t"      \
  "sxtab16 %[y1], %[off], %[x1], ror #8\n\t"      \
  "strd %[y0], %[y1], [%[d]], #16\n\t"
// Byte 8 of the current row (row > 0) into byte `row` of the tail words.
#define MOTE_3X9_TAIL_BYTE(row)                   \
  "ldrb %[x0], [%[a], #8]\n\t"                    \
  "ldrb %[x1], [%[b], #8]\n\t"                    \
  "orr %[t0], %[t0], %[x0], lsl #" #row "\n\t"    \
  "orr %[t1], %[t1], %[x1], lsl #" #row "\n\t"
#define MOTE_3X9_NEXT_ROW                         \
  "add %[a], %[a], %[rs]\n\t"                     \
  "add %[b], %[b], %[rs]\n\t"
#endif
__attribute__((always_inline)) inline void expand_two_3x9(const int8_t* src0, const int8_t* src1,
                                                         int32_t row_step, uint32_t offsets,
                                                         uint32_t* dst) {
#if MOTE_HAS_DSP
  uint32_t x0, x1, y0, y1, t0, t1;
  __asm__ volatile(MOTE_3X9_WORD(0) MOTE_3X9_WORD(4)
          "ldrb %[t0], [%[a], #8]\n\t"
          "ldrb %[t1], [%[b], #8]\n\t"
          MOTE_3X9_NEXT_ROW
          MOTE_3X9_WORD(0) MOTE_3X9_WORD(4) MOTE_3X9_TAIL_BYTE(8) MOTE_3X9_NEXT_ROW
          MOTE_3X9_WORD(0) MOTE_3X9_WORD(4) MOTE_3X9_TAIL_BYTE(16)
          "sxtab16 %[y0], %[off], %[t0]\n\t"
          "sxtab16 %[y1], %[off], %[t1]\n\t"
          "strd %[y0], %[y1], [%[d]], #16\n\t"
          "sxtab16 %[y0], %[off], %[t0], ror #8\n\t"
          "sxtab16 %[y1], %[off], %[t1], ror #8\n\t"
          "strd %[y0], %[y1], [%[d]]\n\t"
          : [a] "+&r"(src0), [b] "+&r"(src1), [d] "+&r"(dst), [x0] "=&r"(x0), [x1] "=&r"(x1),
            [y0] "=&r"(y0), [y1] "=&r"(y1), [t0] "=&r"(t0), [t1] "=&r"(t1)
          : [rs] "r"(row_step), [off] "r"(offsets)
          : "memory");
#else
  uint32_t x0 = dsp::load_u32(src0);
  uint32_t x1 = dsp::load_u32(src1);
  dsp::store2_u32_advance<16>(dst, dsp::sxtab16(offsets, x0), dsp::sxtab16(offsets, x1));
  dsp::store2_u32_advance<16>(dst, dsp::sxtab16_ror8(offsets, x0), dsp::sxtab16_ror8(offsets, x1));
  x0 = dsp::load_u32(src0 + 4);
  x1 = dsp::load_u32(src1 + 4);
  dsp::store2_u32_advance<16>(dst, dsp::sxtab16(offsets, x0), dsp::sxtab16(offsets, x1));
  dsp::store2_u32_advance<16>(dst, dsp::sxtab16_ror8(offsets, x0), dsp::sxtab16_ror8(offsets, x1));
  x0 = dsp::load_u32(src0 + row_step);
  x1 = dsp::load_u32(src1 + row_step);
  dsp::store2_u32_advance<16>(dst, dsp::sxtab16(offsets, x0), dsp::sxtab16(offsets, x1));
  dsp::store2_u32_advance<16>(dst, dsp::sxtab16_ror8(offsets, x0), dsp::sxtab16_ror8(offsets, x1));
  x0 = dsp::load_u32(src0 + row_step + 4);
  x1 = dsp::load_u32(src1 + row_step + 4);
  dsp::store2_u32_advance<16>(dst, dsp::sxtab16(offsets, x0), dsp::sxtab16(offsets, x1));
  dsp::store2_u32_advance<16>(dst, dsp::sxtab16_ror8(offsets, x0), dsp::sxtab16_ror8(offsets, x1));
  x0 = dsp::load_u32(src0 + 2 * row_step);
  x1 = dsp::load_u32(src1 + 2 * row_step);
  dsp::store2_u32_advance<16>(dst, dsp::sxtab16(offsets, x0), dsp::sxtab16(offsets, x1));
  dsp::store2_u32_advance<16>(dst, dsp::sxtab16_ror8(offsets, x0), dsp::sxtab16_ror8(offsets, x1));
  x0 = dsp::load_u32(src0 + 2 * row_step + 4);
  x1 = dsp::load_u32(src1 + 2 * row_step + 4);
  dsp::store2_u32_advance<16>(dst, dsp::sxtab16(offsets, x0), dsp::sxtab16(offsets, x1));
  dsp::store2_u32_advance<16>(dst, dsp::sxtab16_ror8(offsets, x0), dsp::sxtab16_ror8(offsets, x1));
  // Tail words: byte 8 of rows 0, 1, 2 (see expand_rows_3x9).
  x0 = static_cast<uint32_t>(static_cast<uint8_t>(src0[8])) |
       (static_cast<uint32_t>(static_cast<uint8_t>(src0[row_step + 8])) << 8) |
       (static_cast<uint32_t>(static_cast<uint8_t>(src0[2 * row_step + 8])) << 16);
  x1 = static_cast<uint32_t>(static_cast<uint8_t>(src1[8])) |
       (static_cast<uint32_t>(static_cast<uint8_t>(src1[row_step + 8])) << 8) |
       (static_cast<uint32_t>(static_cast<uint8_t>(src1[2 * row_step + 8])) << 16);
  dsp::store2_u32_advance<16>(dst, dsp::sxtab16(offsets, x0), dsp::sxtab16(offsets, x1));
  dsp::store2_u32_advance<16>(dst, dsp::sxtab16_ror8(offsets, x0), dsp::sxtab16_ror8(offsets, x1));
#endif
}
#if MOTE_HAS_DSP
#undef MOTE_3X9_WORD
#undef MOTE_3X9_TAIL_BYTE
#undef MOTE_3X9_NEXT_ROW
#endif

// `count` windows wholly inside the image, `advance` bytes apart (one output row),
// expanded into the pixel slots slot, slot + 1, ... of the chunk (acts, blocks of
// block_words words). Kept out of line so that its few variables stay in registers;
// 3x9 windows go four at a time when they fill a block.
template <bool k3x9>
__attribute__((noinline)) void expand_run(const int8_t* src, int32_t advance, int32_t row_step,
                                          const RowsLayout& l, uint32_t offsets, int8_t* tail,
                                          uint32_t* acts, int32_t block_words, int32_t slot,
                                          int32_t count) {
  uint32_t* dst = acts + (slot >> 2) * block_words + (slot & 3);
  const int32_t block_jump = block_words - 3;  // from slot 3 of a block to slot 0 of the next
  for (; count > 0; --count, src += advance) {
    if (k3x9 && (slot & 3) == 0 && count >= 4) {
      do {
        expand_two_3x9(src, src + advance, row_step, offsets, dst);
        expand_two_3x9(src + 2 * advance, src + 3 * advance, row_step, offsets, dst + 2);
        src += 4 * advance;
        dst += block_words;
        count -= 4;
        slot += 4;
      } while (count >= 4);
      if (count == 0) break;
    }
    if (k3x9) {
      expand_rows_3x9(src, row_step, offsets, dst, 4);
    } else {
      expand_rows(src, row_step, l, offsets, tail, dst, 4);
    }
    dst += (++slot & 3) == 0 ? block_jump : 1;
  }
}

#if MOTE_HAS_DSP
// One step of a block (a: [step][4 pixels]) against the weights of a channel pair (w:
// [step][2 channels]), accumulators r0..r3 (channel 0, pixels 0..3) and r4, r5, r6, r8
// (channel 1): 16 MACs in 11 instructions of 4 bytes each. r9 the pixels, r10 the
// weights, r11 / r7 / r12 / lr scratch.
#define MOTE_SMALL_STEP(j)                      \
  "ldrd r12, lr, [r10, #(" #j " * 8)]\n\t"      \
  "ldrd r11, r7, [r9, #(" #j " * 16)]\n\t"      \
  "smlad r0, r11, r12, r0\n\t"                  \
  "smlad r1, r7, r12, r1\n\t"                   \
  "smlad r4, r11, lr, r4\n\t"                   \
  "smlad r5, r7, lr, r5\n\t"                    \
  "ldrd r11, r7, [r9, #(" #j " * 16 + 8)]\n\t"  \
  "smlad r2, r11, r12, r2\n\t"                  \
  "smlad r3, r7, r12, r3\n\t"                   \
  "smlad r6, r11, lr, r6\n\t"                   \
  "smlad r8, r7, lr, r8\n\t"
// The first step of a block with the accumulators taken from the biases in r0 (channel
// 0) and r4 (channel 1), which are overwritten last; then on to step j + 1 of the chain
// (label ".Lmote_small_" j+1 "_%="). 48 bytes. Only for even j: every layout has an even
// number of steps (two per word), so the chain is entered at an even step.
#define MOTE_SMALL_FIRST(j, next)                     \
  "ldrd r12, lr, [r10, #(" #j " * 8)]\n\t"            \
  "ldrd r11, r7, [r9, #(" #j " * 16 + 8)]\n\t"        \
  "smlad r2, r11, r12, r0\n\t"                        \
  "smlad r3, r7, r12, r0\n\t"                         \
  "smlad r6, r11, lr, r4\n\t"                         \
  "smlad r8, r7, lr, r4\n\t"                          \
  "ldrd r11, r7, [r9, #(" #j " * 16)]\n\t"            \
  "smlad r1, r7, r12, r0\n\t"                         \
  "smlad r5, r7, lr, r4\n\t"                          \
  "smlad r0, r11, r12, r0\n\t"                        \
  "smlad r4, r11, lr, r4\n\t"                         \
  "b.w .Lmote_small_" #next "_%=\n\t"
#define MOTE_SMALL_LABELED(j) ".Lmote_small_" #j "_%=:\n\t" MOTE_SMALL_STEP(j)
inline constexpr int32_t kFirstStepCodeBytes = 48;
static_assert(kMaxSteps % 2 == 0, "the chain is entered at even steps only");
// The chain's entry for a layout of `steps` (even) steps: the first step's offset from
// the chain's start (kMaxSteps - steps skipped), plus 1 (Thumb).
uintptr_t chain_entry(int32_t steps) {
  return static_cast<uintptr_t>((kMaxSteps - steps) * (kFirstStepCodeBytes / 2) + 1);
}
#endif

// The shifted requantization (pair blocks, output zero point -128 and clamp [-128, 127]):
// with right = -shift in [4, kShiftR - 1], d = kShiftR - right and e = 1 + d (2..8),
//   out = SSAT #8 (SMMLA(acc << e, m, A), ASR #kShiftR),  A = 2^(d - 1) + 2^d R,
// R = 2^(right - 1) + (zp << right), is floor((2 acc m + 2^31 + R 2^32) / 2^(32 + right))
// (nested floors), the doubled requantization without its sign correction (which only
// moves ties of a negative high multiply, whose outputs are at most zp: clamped to
// act_min = zp either way). 4 instructions per output instead of 6 (kShifted), 3 with the
// weights and bias scaled by 2^e beforehand (kScaled: cached weights). The exponent e when
// channel (q, bias, k taps) takes it: every |acc| <= |bias| + k * 255 * 128 stays below
// 2^(31 - e), so acc << e fits int32 (and |A| < 2^19, |SMMLA| < 2^31); else 0.
inline constexpr int32_t kShiftR = 11;  // the SSAT's ASR in run_pair_blocks
int32_t shifted_exponent(const conv2d_dsp::ChannelQuant& q, int32_t bias, int32_t k) {
  const int32_t right = q.right_minus_1 + 1;
  if (!q.fast || right < 4 || right >= kShiftR) return 0;
  const int32_t e = 1 + kShiftR - right;
  const int64_t reach = (bias < 0 ? -int64_t{bias} : int64_t{bias}) + int64_t{k} * 255 * 128;
  return reach < (int64_t{1} << (31 - e)) ? e : 0;
}
int32_t shifted_addend(int32_t right_minus_1, int32_t zero_point) {
  const uint32_t d = static_cast<uint32_t>(kShiftR - 1 - right_minus_1);
  const uint32_t r = (1u << right_minus_1) + (static_cast<uint32_t>(zero_point) << (right_minus_1 + 1));
  return static_cast<int32_t>((1u << (d - 1)) + (r << d));
}
// One channel's widened weights (every other word from w, `steps` of them) times 2^e
// (e <= 8: int8 weights times 2^8 keep int16): the word shifted left, less the low
// half's bits shifted into the high one (3 instructions and the loop per word).
void scale_channel(uint32_t* w, int32_t steps, int32_t e) {
  const uint32_t mask = ~(((1u << e) - 1u) << 16);
  for (int32_t j = 0; j < steps; ++j, w += 2) *w = (*w << e) & mask;
}
// Channels o, o + 1 of a ReLU-like layer: their exponents when both take the shifted
// requantization (else 0, 0).
struct PairShift {
  int32_t e0, e1;
};
PairShift pair_shift(const conv2d_dsp::ChannelQuant& q0, const conv2d_dsp::ChannelQuant& q1,
                     const int32_t* bias, int32_t k, int32_t o) {
  const int32_t e0 = shifted_exponent(q0, bias != nullptr ? bias[o] : 0, k);
  const int32_t e1 = shifted_exponent(q1, bias != nullptr ? bias[o + 1] : 0, k);
  return e0 != 0 && e1 != 0 ? PairShift{e0, e1} : PairShift{0, 0};
}

#if MOTE_HAS_DSP
// Blocks of 4 pixels x a channel pair, requantization included, for the common case:
// both channels requantize_fast (fast_right_applies), clamp [-128, 127], whole blocks,
// every |acc| < 2^30 (conv2d_dsp::acc_fits_doubled); high is H = (2 zp + 1) << (right -
// 1) (conv2d_dsp::doubled_high).
// kShifted (see shifted_exponent()): high is A and right the exponent e instead; kScaled
// likewise with the weights and biases scaled by 2^e already (right unused). kRaw: one
// block, its 8 accumulators stored to out (int32[8]: channel 0's pixels 0..3, then
// channel 1's), no requantization (the other cases' C++ loop). kRecords: the records
// path's one block (a) against every pair's record from w on (see conv2d_records; out,
// out_c, a, w and entry used).
// Field offsets are hard-coded in run_pair_blocks.
inline constexpr int32_t kScaled = 0, kShifted = 1, kDoubled = 2, kRaw = 3, kRecords = 4;
struct PairBlocks {
  int32_t multiplier0, high0, right0;           // 0, 4, 8
  int8_t* out;                                  // 12: output of channel 0, pixel 0
  int32_t out_c;                                // 16: output pixel stride
  int32_t multiplier1, high1, right1;           // 20, 24, 28
  int32_t bias0, bias1;                         // 32, 36
  const uint32_t* a;                            // 40: block, moved back by the skipped steps
  int32_t a_step;                               // 44: bytes per block
  const uint32_t* w;                            // 48: weights, likewise
  uintptr_t entry;                              // 52: chain_entry(steps),
                                                //     then the address to enter at (asm)
  const uint32_t* a_end;                        // 56: a past the last block
  int32_t mode;                                 // 60: kScaled, kShifted, kDoubled, kRaw or kRecords
};
static_assert(offsetof(PairBlocks, out) == 12 && offsetof(PairBlocks, multiplier1) == 20 &&
                  offsetof(PairBlocks, bias0) == 32 && offsetof(PairBlocks, a) == 40 &&
                  offsetof(PairBlocks, entry) == 52 && offsetof(PairBlocks, a_end) == 56 &&
                  offsetof(PairBlocks, mode) == 60,
              "PairBlocks offsets are hard-coded in run_pair_blocks");

// The requantization of the accumulator in `acc` (|acc| < 2^30; r9 multiplier, r10 H =
// (2 zp + 1) << (right - 1), r11 right), SSAT and STRB to `addr`; r12 scratch. SMMLAR of
// the doubled accumulator gives the rounding high multiply plus H - [acc < 0], see
// acc_fits_doubled in conv2d_s8_dsp_block.h. 6 instructions.
#define MOTE_SMALL_OUT(acc, addr)           \
  "add r12, r10, " acc ", asr #31\n\t"      \
  "lsl " acc ", " acc ", #1\n\t"            \
  "smmlar r12, " acc ", r9, r12\n\t"        \
  "asr r12, r12, r11\n\t"                   \
  "ssat r12, #8, r12\n\t"                   \
  "strb r12, " addr "\n\t"
// The shifted requantization of `acc` (scaled: acc << e; r9 multiplier, r10 A; see
// shifted_exponent()), STRB to `addr`. 3 instructions.
#define MOTE_SMALL_SHIFTED_OUT(acc, addr)  \
  "smmla " acc ", " acc ", r9, r10\n\t"    \
  "ssat " acc ", #8, " acc ", asr #11\n\t" \
  "strb " acc ", " addr "\n\t"

// The record's words past the weights, from the moved-back weight pointer r10 (kRecords):
// biases at 192, multiplier and addend of channel 0 at 200, of channel 1 at 208, next at
// 216 (kMaxSteps * 8 + 4 * word).
static_assert(kMaxSteps * 8 == 192, "record offsets are hard-coded in run_pair_blocks");
// MOTE_SMALL_SHIFTED_OUT with the multiplier in r11 and the addend in r12.
#define MOTE_SMALL_RECORD_OUT(acc, addr)   \
  "smmla " acc ", " acc ", r11, r12\n\t"  \
  "ssat " acc ", #8, " acc ", asr #11\n\t" \
  "strb " acc ", " addr "\n\t"

// Every block from state->a to state->a_end (kRecords: every record for one block). One
// chain of steps serves every mode: its end jumps to the mode's exit, whose address the
// prologue puts on the stack. Frame: [sp] out, [sp, #4] out_c, [sp, #8] entry, [sp, #12]
// exit, [sp, #20] the state pointer, while all 14 other registers are in use. Per block,
// beyond the 11 instructions per step (the first one taking the biases, plus a branch): 6
// to start, 6 per output (kScaled 3), 12 for the jump to the exit, the channel constants
// and output addresses, 8 to advance (into the next block: MOTE_SMALL_NEXT_BLOCK); the
// exit address is computed once per call. kRecords, per pair: 2 to enter (biases,
// branch into the chain), 1 branch in its first step, 2 for the exit, 24 for the 8
// outputs (kScaled) and 10 for the constants, output addresses and the next record.
// The next block (state in register s, its pixels in r9): the biases, weights and
// entry, then in.
#define MOTE_SMALL_NEXT_BLOCK(s)          \
  "ldrd r0, r4, [" s ", #32]\n\t"        \
  "ldrd r10, r11, [" s ", #48]\n\t"      \
  "bx r11\n"
inline void run_pair_blocks(PairBlocks* state) {
  register PairBlocks* s __asm__("r12") = state;
  __asm__ volatile(
      // The frame (r0..r3 only make room) and the chain's entry address.
      "push {r0, r1, r2, r3, r7, r12}\n\t"
      "ldr r11, [r12, #52]\n\t"
      "adr.w r9, 1f\n\t"
      "add r11, r11, r9\n\t"
      // The mode becomes the address to leave the chain for (Thumb bit set).
      "ldr r10, [r12, #60]\n\t"
      "adr.w r9, 7f\n\t"
      "cmp r10, #1\n\t"
      "blo 9f\n\t"
      "adr.w r9, 3f\n\t"
      "beq 9f\n\t"
      "adr.w r9, 6f\n\t"
      "cmp r10, #3\n\t"
      "blo 9f\n\t"
      "adr.w r9, 5f\n\t"
      "bne 12f\n"
      "9:\n\t"
      "str r11, [r12, #52]\n\t"
      "orr r9, r9, #1\n\t"
      "str r9, [sp, #12]\n\t"
      "ldrd r0, r4, [r12, #32]\n\t"
      "ldr r9, [r12, #40]\n\t"
      "ldrd r10, r11, [r12, #48]\n\t"
      "bx r11\n"
      // kRecords: out, out_c, entry and exit to the frame, the block and the first record
      // (the state unchanged).
      "12:\n\t"
      "ldrd r9, r10, [r12, #12]\n\t"
      "strd r9, r10, [sp]\n\t"
      "str r11, [sp, #8]\n\t"
      "adr.w r9, 10f\n\t"
      "orr r9, r9, #1\n\t"
      "str r9, [sp, #12]\n\t"
      "ldr r9, [r12, #40]\n\t"
      "ldr r10, [r12, #48]\n\t"
      "ldrd r0, r4, [r10, #192]\n\t"
      "bx r11\n\t"
      ".p2align 2\n"
      "1:\n\t"
      MOTE_SMALL_FIRST(0, 1) MOTE_SMALL_FIRST(2, 3) MOTE_SMALL_FIRST(4, 5)
      MOTE_SMALL_FIRST(6, 7) MOTE_SMALL_FIRST(8, 9) MOTE_SMALL_FIRST(10, 11)
      MOTE_SMALL_FIRST(12, 13) MOTE_SMALL_FIRST(14, 15) MOTE_SMALL_FIRST(16, 17)
      MOTE_SMALL_FIRST(18, 19) MOTE_SMALL_FIRST(20, 21) MOTE_SMALL_FIRST(22, 23)
      MOTE_SMALL_LABELED(1) MOTE_SMALL_LABELED(2) MOTE_SMALL_LABELED(3)
      MOTE_SMALL_LABELED(4) MOTE_SMALL_LABELED(5) MOTE_SMALL_LABELED(6)
      MOTE_SMALL_LABELED(7) MOTE_SMALL_LABELED(8) MOTE_SMALL_LABELED(9)
      MOTE_SMALL_LABELED(10) MOTE_SMALL_LABELED(11) MOTE_SMALL_LABELED(12)
      MOTE_SMALL_LABELED(13) MOTE_SMALL_LABELED(14) MOTE_SMALL_LABELED(15)
      MOTE_SMALL_LABELED(16) MOTE_SMALL_LABELED(17) MOTE_SMALL_LABELED(18)
      MOTE_SMALL_LABELED(19) MOTE_SMALL_LABELED(20) MOTE_SMALL_LABELED(21)
      MOTE_SMALL_LABELED(22) MOTE_SMALL_LABELED(23)
      ".Lmote_small_24_%=:\n\t"
      "ldr pc, [sp, #12]\n\t"
      ".p2align 2\n"
      "7:\n\t"
      "ldr r7, [sp, #20]\n\t"
      "ldmia r7, {r9, r10, r11, lr}\n"
      "11:\n\t"
      "ldr r12, [r7, #16]\n\t"
      MOTE_SMALL_SHIFTED_OUT("r0", "[lr]")
      MOTE_SMALL_SHIFTED_OUT("r1", "[lr, r12]")
      MOTE_SMALL_SHIFTED_OUT("r2", "[lr, r12, lsl #1]")
      "add r1, lr, r12\n\t"
      MOTE_SMALL_SHIFTED_OUT("r3", "[r1, r12, lsl #1]")
      "ldrd r9, r10, [r7, #20]\n\t"
      "add r3, lr, #1\n\t"
      MOTE_SMALL_SHIFTED_OUT("r4", "[r3]")
      MOTE_SMALL_SHIFTED_OUT("r5", "[r3, r12]")
      MOTE_SMALL_SHIFTED_OUT("r6", "[r3, r12, lsl #1]")
      "add r1, r3, r12\n\t"
      MOTE_SMALL_SHIFTED_OUT("r8", "[r1, r12, lsl #1]")
      "add lr, lr, r12, lsl #2\n\t"
      "str lr, [r7, #12]\n\t"
      "ldrd r1, r3, [r7, #40]\n\t"
      "add r9, r1, r3\n\t"
      "str r9, [r7, #40]\n\t"
      "ldr r3, [r7, #56]\n\t"
      "cmp r9, r3\n\t"
      "beq 4f\n\t"
      MOTE_SMALL_NEXT_BLOCK("r7")
      // kShifted: the accumulators scaled here (e0 in r11, e1), then as kScaled.
      ".p2align 2\n"
      "3:\n\t"
      "ldr r7, [sp, #20]\n\t"
      "ldmia r7, {r9, r10, r11, lr}\n\t"
      "ldr r12, [r7, #28]\n\t"
      "lsl r0, r0, r11\n\t"
      "lsl r1, r1, r11\n\t"
      "lsl r2, r2, r11\n\t"
      "lsl r3, r3, r11\n\t"
      "lsl r4, r4, r12\n\t"
      "lsl r5, r5, r12\n\t"
      "lsl r6, r6, r12\n\t"
      "lsl r8, r8, r12\n\t"
      "b 11b\n"
      ".p2align 2\n"
      "6:\n\t"
      "ldr r7, [sp, #20]\n\t"
      "ldmia r7, {r9, r10, r11, lr}\n\t"
      MOTE_SMALL_OUT("r0", "[lr]")
      "ldr r0, [r7, #16]\n\t"
      MOTE_SMALL_OUT("r1", "[lr, r0]")
      MOTE_SMALL_OUT("r2", "[lr, r0, lsl #1]")
      "add r1, lr, r0\n\t"
      MOTE_SMALL_OUT("r3", "[r1, r0, lsl #1]")
      "ldrd r9, r10, [r7, #20]\n\t"
      "ldr r11, [r7, #28]\n\t"
      "add r3, lr, #1\n\t"
      MOTE_SMALL_OUT("r4", "[r3]")
      MOTE_SMALL_OUT("r5", "[r3, r0]")
      MOTE_SMALL_OUT("r6", "[r3, r0, lsl #1]")
      "add r1, r3, r0\n\t"
      MOTE_SMALL_OUT("r8", "[r1, r0, lsl #1]")
      // out += 4 * out_c, a += a_step, until a_end.
      "add lr, lr, r0, lsl #2\n\t"
      "str lr, [r7, #12]\n\t"
      "ldrd r1, r3, [r7, #40]\n\t"
      "add r9, r1, r3\n\t"
      "str r9, [r7, #40]\n\t"
      "ldr r3, [r7, #56]\n\t"
      "cmp r9, r3\n\t"
      "beq 4f\n\t"
      MOTE_SMALL_NEXT_BLOCK("r7")
      // kRecords: the pair's 8 outputs, then the next record (r10) or out.
      ".p2align 2\n"
      "10:\n\t"
      "ldrd lr, r7, [sp]\n\t"
      "ldrd r11, r12, [r10, #200]\n\t"
      MOTE_SMALL_RECORD_OUT("r0", "[lr]")
      MOTE_SMALL_RECORD_OUT("r1", "[lr, r7]")
      MOTE_SMALL_RECORD_OUT("r2", "[lr, r7, lsl #1]")
      "add r0, lr, r7\n\t"
      MOTE_SMALL_RECORD_OUT("r3", "[r0, r7, lsl #1]")
      "ldrd r11, r12, [r10, #208]\n\t"
      MOTE_SMALL_RECORD_OUT("r4", "[lr, #1]")
      MOTE_SMALL_RECORD_OUT("r5", "[r0, #1]")
      "add r0, r0, r7\n\t"
      MOTE_SMALL_RECORD_OUT("r6", "[r0, #1]")
      "add r0, r0, r7\n\t"
      MOTE_SMALL_RECORD_OUT("r8", "[r0, #1]")
      "add lr, lr, #2\n\t"
      "str lr, [sp]\n\t"
      "ldr r10, [r10, #216]\n\t"
      "cmp r10, #0\n\t"
      "beq 4f\n\t"
      "ldrd r0, r4, [r10, #192]\n\t"
      "ldr pc, [sp, #8]\n"
      ".p2align 2\n"
      "5:\n\t"
      "ldr r7, [sp, #20]\n\t"
      "ldr lr, [r7, #12]\n\t"
      "stmia lr, {r0, r1, r2, r3, r4, r5, r6, r8}\n"
      "4:\n\t"
      "pop {r0, r1, r2, r3, r7, r12}\n\t"
      : "+r"(s)
      :
      : "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r8", "r9", "r10", "r11", "lr", "cc",
        "memory");
}
#endif

// acc[0..3] = b0 + channel 0 over pixels 0..3 of one block (a: [step][4 pixels]), acc[4..7]
// = b1 + channel 1 (w: [step][2 channels]); on DSP cores the pair blocks' chain (kRaw).
inline void block_accs(const uint32_t* a, const uint32_t* w, int32_t steps, int32_t b0, int32_t b1,
                       int32_t acc[8]) {
#if MOTE_HAS_DSP
  const int32_t skip = kMaxSteps - steps;
  PairBlocks state{0, 0, 0, reinterpret_cast<int8_t*>(acc), 0, 0, 0, 0, b0, b1, a - 4 * skip, 0,
                   w - 2 * skip, chain_entry(steps), nullptr, kRaw};
  run_pair_blocks(&state);
#else
  for (int32_t p = 0; p < 4; ++p) {
    acc[p] = b0;
    acc[4 + p] = b1;
  }
  for (int32_t j = 0; j < steps; ++j, a += 4, w += 2) {
    for (int32_t p = 0; p < 4; ++p) {
      acc[p] = dsp::smlad(a[p], w[0], acc[p]);
      acc[4 + p] = dsp::smlad(a[p], w[1], acc[4 + p]);
    }
  }
#endif
}

// Out of line: inlined into conv2d_s8_small_window__dsp, GCC allocates registers worse
// around the pair loop (kws' first conv +20K instructions on qemu-cortex-m4).
__attribute__((noinline)) void conv2d_small(const Conv2dS8Params& params, const int32_t* multipliers,
                  const int32_t* shifts, const Conv2dShape& shape, const int8_t* input,
                  const int8_t* filter, const int32_t* bias, int8_t* output, uint8_t* scratch,
                  const RowsLayout& l) {
  const SmallScratch sizes = small_scratch(l);
  uint32_t* const acts = reinterpret_cast<uint32_t*>(scratch);
  uint32_t* const weights_all = reinterpret_cast<uint32_t*>(scratch + sizes.acts_bytes);
  int8_t* const gathered =
      reinterpret_cast<int8_t*>(scratch + sizes.acts_bytes + sizes.weights_bytes);
  int8_t* const tail = gathered + sizes.gathered_bytes;
  // Tail padding: weight 0 (and an input value that meets it).
  for (uint32_t j = 0; j < sizes.tail_bytes; ++j) tail[j] = 0;

  const int32_t steps = l.steps;
  const int32_t block_words = 4 * steps;
  const int32_t k = shape.kernel_h * shape.kernel_w * shape.in_c;
  const int32_t out_c = shape.out_c;
  const uint32_t offsets = conv2d_dsp::offset_pair(-params.input_zero_point);
  const int32_t zp = params.output_zero_point;
  const int32_t act_min = params.act_min;
  const int32_t act_max = params.act_max;
  const bool rows_3x9 = l.kernel_h == 3 && l.row_bytes == 9;

  const int32_t image_step = shape.in_h * shape.in_w * shape.in_c;
  const int32_t image_pixels = shape.out_h * shape.out_w;
  const int32_t pixels = shape.batch * image_pixels;
  const int32_t in_row_bytes = shape.in_w * shape.in_c;
  const int32_t window_row_step = params.window.dilation_h * in_row_bytes;
  const int32_t x_last = params.window.dilation_w == 1 ? shape.in_w - shape.kernel_w : -1;
  const int32_t y_last = shape.in_h - 1 - (shape.kernel_h - 1) * params.window.dilation_h;

  // The asm pair loop (run_pair_blocks) when the clamp is the full range and every |acc|
  // < 2^30, for its requantization.
  [[maybe_unused]] const bool pair_loop = act_min == -128 && act_max == 127 && conv2d_dsp::acc_fits_doubled(k, bias, out_c);
  auto widen_pair = [&](int32_t o, uint32_t* dst) { widen_pair_any(filter, k, l, out_c, tail, o, dst); };
  // ReLU-like layers: pairs whose channels both take the shifted requantization
  // (pair_shift); cached, their weights are scaled once (kScaled), else kShifted.
  const bool relu = zp == -128 && act_min == -128 && act_max == 127;
  const bool cached = (out_c + 1) / 2 <= kCachedPairs;
  if (cached) {
    for (int32_t o = 0; o < out_c; o += 2) {
      uint32_t* const w = weights_all + (o / 2) * steps * 2;
      widen_pair(o, w);
      const PairShift ps =
          relu && o + 1 < out_c
              ? pair_shift(conv2d_dsp::channel_quant(multipliers[o], shifts[o], zp),
                           conv2d_dsp::channel_quant(multipliers[o + 1], shifts[o + 1], zp), bias, k, o)
              : PairShift{0, 0};
      if (ps.e0 != 0) {
        scale_channel(w, steps, ps.e0);
        scale_channel(w + 1, steps, ps.e1);
      }
    }
  }
  // Output columns whose windows lie inside the image horizontally: ox_min .. ox_max
  // (none with dilation_w > 1: those windows are always gathered).
  const int32_t ox_min = (params.window.pad_left + params.window.stride_w - 1) / params.window.stride_w;
  const int32_t ox_max =
      x_last >= 0 ? (x_last + params.window.pad_left) / params.window.stride_w : ox_min - 1;
  const int32_t advance = params.window.stride_w * shape.in_c;
  // The pixel walk: (image, oy, ox) and whether the window rows lie inside the image.
  int32_t oy = 0, ox = 0;
  const int8_t* image = input;
  int32_t y0 = -params.window.pad_top;
  bool y_inside = y0 >= 0 && y0 <= y_last;
  // Uncached: the one pair's weights at the end of the cache, columns before them.
  const uint32_t pair_bytes = static_cast<uint32_t>(steps * 8);
  const int32_t uncached_fit =
      static_cast<int32_t>((sizes.acts_bytes + sizes.weights_bytes - pair_bytes) / (steps * 4)) & ~3;
  const int32_t chunk = cached ? chunk_pixels(l) : (uncached_fit < kMaxChunkPixels ? uncached_fit : kMaxChunkPixels);
  uint32_t* const weights_one = weights_all + (sizes.weights_bytes - pair_bytes) / 4;
  for (int32_t p0 = 0; p0 < pixels; p0 += chunk) {
    const int32_t n = pixels - p0 < chunk ? pixels - p0 : chunk;
    const int32_t blocks = (n + 3) / 4;
    // The windows of pixels p0 .. p0 + n - 1, one output row's run at a time: straight
    // from the image when inside it, else gathered first (padding = input zero point).
    for (int32_t i = 0; i < n;) {
      const int32_t run_end = ox + (n - i < shape.out_w - ox ? n - i : shape.out_w - ox);
      while (ox < run_end) {
        if (y_inside && ox >= ox_min && ox <= ox_max) {
          const int32_t count = (run_end <= ox_max ? run_end : ox_max + 1) - ox;
          const int8_t* const window =
              image + y0 * in_row_bytes + (ox * params.window.stride_w - params.window.pad_left) * shape.in_c;
          if (rows_3x9) {
            expand_run<true>(window, advance, window_row_step, l, offsets, tail, acts,
                             block_words, i, count);
          } else {
            expand_run<false>(window, advance, window_row_step, l, offsets, tail, acts,
                              block_words, i, count);
          }
          ox += count;
          i += count;
          continue;
        }
        uint32_t* const dst = acts + (i >> 2) * block_words + (i & 3);
        if (rows_3x9) {
          expand_border_3x9(params, shape, image, oy, ox, offsets, gathered, dst);
        } else {
          gather_small(params, shape, image, oy, ox, gathered);
          expand_rows(gathered, l.row_bytes, l, offsets, tail, dst, 4);
        }
        ++ox;
        ++i;
      }
      if (ox == shape.out_w) {
        ox = 0;
        y0 += params.window.stride_h;
        if (++oy == shape.out_h) {
          oy = 0;
          y0 = -params.window.pad_top;
          image += image_step;
        }
        y_inside = y0 >= 0 && y0 <= y_last;
      }
    }
    // Pixels past n in the last block: zero columns (their outputs are not stored).
    for (int32_t i = n; i < blocks * 4; ++i) {
      uint32_t* dst = acts + (i >> 2) * block_words + (i & 3);
      for (int32_t j = 0; j < steps; ++j, dst += 4) *dst = 0;
    }

    int8_t* const chunk_out = output + p0 * out_c;
    for (int32_t o = 0; o < out_c; o += 2) {
      const bool pair = o + 1 < out_c;
      uint32_t* const weights = cached ? weights_all + (o / 2) * steps * 2 : weights_one;
      if (!cached) widen_pair(o, weights);
      const conv2d_dsp::ChannelQuant q0 = conv2d_dsp::channel_quant(multipliers[o], shifts[o], zp);
      const conv2d_dsp::ChannelQuant q1 = pair ? conv2d_dsp::channel_quant(multipliers[o + 1], shifts[o + 1], zp)
                                                : conv2d_dsp::ChannelQuant{0, 0, 0, 0, true};
      const PairShift ps = relu && pair ? pair_shift(q0, q1, bias, k, o) : PairShift{0, 0};
      const bool shifted = ps.e0 != 0;
      const bool scaled = shifted && cached;
      const uint32_t scale0 = scaled ? static_cast<uint32_t>(ps.e0) : 0u;
      const uint32_t scale1 = scaled ? static_cast<uint32_t>(ps.e1) : 0u;
      const int32_t b0 = static_cast<int32_t>(static_cast<uint32_t>(bias != nullptr ? bias[o] : 0) << scale0);
      const int32_t b1 = static_cast<int32_t>(static_cast<uint32_t>(bias != nullptr && pair ? bias[o + 1] : 0) << scale1);
      const int32_t a0 = shifted ? shifted_addend(q0.right_minus_1, zp) : 0;
      const int32_t a1 = shifted ? shifted_addend(q1.right_minus_1, zp) : 0;
      const uint32_t* a = acts;
      int8_t* dst = chunk_out + o;
      int32_t b = 0;
#if MOTE_HAS_DSP
      if (pair_loop && pair && q0.fast && q1.fast && n >= 4) {
        const int32_t whole = n / 4;
        const int32_t skip = kMaxSteps - steps;
        PairBlocks state{q0.multiplier,
                         shifted ? a0 : conv2d_dsp::doubled_high(zp, q0.right_minus_1),
                         shifted ? ps.e0 : q0.right_minus_1 + 1,
                         dst,
                         out_c,
                         q1.multiplier,
                         shifted ? a1 : conv2d_dsp::doubled_high(zp, q1.right_minus_1),
                         shifted ? ps.e1 : q1.right_minus_1 + 1,
                         b0,
                         b1,
                         acts - 4 * skip,
                         block_words * 4,
                         weights - 2 * skip,
                         chain_entry(steps),
                         acts - 4 * skip + whole * block_words,
                         scaled ? kScaled : shifted ? kShifted : kDoubled};
        run_pair_blocks(&state);
        b = whole;
        a += whole * block_words;
        dst = state.out;
      }
#endif
      for (; b < blocks; ++b, a += block_words, dst += 4 * out_c) {
        int32_t acc[8];
        block_accs(a, weights, steps, b0, b1, acc);
        const int32_t valid = n - 4 * b < 4 ? n - 4 * b : 4;
        for (int32_t p = 0; p < valid && scaled; ++p) {
          dst[p * out_c] = static_cast<int8_t>(dsp::ssat8_asr<kShiftR>(dsp::smmla(acc[p], q0.multiplier, a0)));
          dst[p * out_c + 1] = static_cast<int8_t>(dsp::ssat8_asr<kShiftR>(dsp::smmla(acc[4 + p], q1.multiplier, a1)));
        }
        for (int32_t p = 0; p < valid && !scaled; ++p) {
          dst[p * out_c] = conv2d_dsp::requantize_one(acc[p], q0, zp, act_min, act_max);
          if (pair) dst[p * out_c + 1] = conv2d_dsp::requantize_one(acc[4 + p], q1, zp, act_min, act_max);
        }
      }
    }
  }
}


// ---- Every pair's record kept (pair_records, the compiler's grant): blocks outermost.
// With more than kCachedPairs pairs, an even out_c and the shifted requantization
// (kScaled) in every pair, each pair's record -- its weights [step][channel] scaled by
// 2^e, then kRecordWords words: both biases scaled, multiplier and addend of each
// channel and the next record's weight pointer as the asm takes it (0 after the last) --
// is written once per run; then each block of 4 output pixels has its windows expanded
// once (columns of one block) and runs every pair over them (run_pair_blocks, kRecords:
// 11 instructions per step, 3 per output and 15 per pair and block), where the chunked path
// widens every pair's weights again per chunk and shifts its accumulators. A last partial
// block steps back to the last 4 pixels (their outputs written again, the same values:
// in-place block rule 4). Scratch: the records, one block's columns, the gathered window
// and the tail bytes.
inline constexpr int32_t kRecordWords = 7;
bool records_apply(const RowsLayout& l, int64_t out_c) {
  return small_applies(l) && l.row_bytes == 4 && out_c % 2 == 0 && out_c / 2 > kCachedPairs && out_c <= 65536;
}
uint32_t record_words(const RowsLayout& l) { return static_cast<uint32_t>(2 * l.steps + kRecordWords); }
uint32_t records_scratch(const RowsLayout& l, int32_t out_c) {
  return static_cast<uint32_t>(out_c / 2) * record_words(l) * 4 + static_cast<uint32_t>(16 * l.steps);
}

// The windows of consecutive output pixels from a given one on, 4 at a time, for the
// records path (windows of one-word rows).
struct PixelWalk {
  const Conv2dS8Params& params;
  const Conv2dShape& shape;
  const int8_t* input;
  uint32_t offsets;
  int32_t oy, ox, y0;
  const int8_t* image;

  void seek(int32_t p) {
    const int32_t image_pixels = shape.out_h * shape.out_w;
    image = input + (p / image_pixels) * (shape.in_h * shape.in_w * shape.in_c);
    const int32_t r = p % image_pixels;
    oy = r / shape.out_w;
    ox = r % shape.out_w;
    y0 = oy * params.window.stride_h - params.window.pad_top;
  }
  // One block's 4 windows of one-word rows (kernel_w * in_c == 4, e.g. kws' 10x4x1;
  // dilation_w 1, image rows of at least 4 bytes: conv2d_records checks) into acts (one block),
  // the walk moving on past them. Per row inside the image one word: read in place (7.5
  // instructions per row, two at a time), or at the left / right border read inside the
  // row, shifted into place, its bytes outside the image set to the input zero point
  // (15); rows above or below the image are zero steps. kws: ~200 per window, 25K of
  // its 304K.
  __attribute__((noinline)) void expand_words4(uint32_t* acts) {
    const int32_t c = shape.in_c, in_row_bytes = shape.in_w * c, in_h = shape.in_h;
    const int32_t kernel_h = shape.kernel_h, dh = params.window.dilation_h;
    const int32_t stride_w = params.window.stride_w * c, pad_left = params.window.pad_left * c;
    const int32_t row_step = dh * in_row_bytes;
    const int32_t y_last = in_h - 1 - (kernel_h - 1) * dh;
    const uint32_t pad4 = static_cast<uint8_t>(params.input_zero_point) * 0x01010101u;
    const uint32_t off = offsets;
    int32_t x = ox, y = y0, row_y = oy;
    const int8_t* img = image;
    for (int32_t slot = 0; slot < 4; ++slot) {
      uint32_t* dst = acts + slot;
      const int32_t xb = x * stride_w - pad_left;  // the window's first byte in its rows
      int32_t ky_lo = 0, ky_hi = kernel_h;
      if (y < 0 || y > y_last) {
        ky_lo = y >= 0 ? 0 : (dh - 1 - y) / dh;
        ky_hi = in_h - 1 - y < 0 ? 0 : (in_h - 1 - y) / dh + 1;
        if (ky_hi > kernel_h) ky_hi = kernel_h;
        if (ky_hi < ky_lo) ky_hi = ky_lo;
      }
      int32_t ky = 0;
      for (; ky < ky_lo; ++ky, dst += 8) {
        dst[0] = 0;
        dst[4] = 0;
      }
      if (xb >= 0 && xb + 4 <= in_row_bytes) {
        const int8_t* row = img + (y + ky_lo * dh) * in_row_bytes + xb;
        for (; ky + 2 <= ky_hi; ky += 2, row += 2 * row_step, dst += 16) {
          const uint32_t w0 = dsp::load_u32(row);
          const uint32_t w1 = dsp::load_u32(row + row_step);
          dst[0] = dsp::sxtab16(off, w0);
          dst[4] = dsp::sxtab16_ror8(off, w0);
          dst[8] = dsp::sxtab16(off, w1);
          dst[12] = dsp::sxtab16_ror8(off, w1);
        }
        if (ky < ky_hi) {
          const uint32_t w0 = dsp::load_u32(row);
          dst[0] = dsp::sxtab16(off, w0);
          dst[4] = dsp::sxtab16_ror8(off, w0);
          ++ky;
          dst += 8;
        }
      } else {
        // The word's bytes [lo, hi) lie inside the row: a word read from the row's start
        // shifted left, or from its last 4 bytes shifted right, then masked.
        const int32_t lo = xb < 0 ? (-xb < 4 ? -xb : 4) : 0;
        int32_t hi = in_row_bytes - xb < 4 ? in_row_bytes - xb : 4;
        if (hi < lo) hi = lo;
        uint32_t keep = 0, left = 0, right = 0;
        int32_t from = 0;
        if (hi > lo) {
          keep = hi - lo == 4 ? 0xFFFFFFFFu : ((1u << (8 * (hi - lo))) - 1u) << (8 * lo);
          if (xb < 0) {
            left = static_cast<uint32_t>(8 * lo);
          } else {
            from = in_row_bytes - 4;
            right = static_cast<uint32_t>(8 * (4 - hi));
          }
        }
        const uint32_t pad = pad4 & ~keep;
        const int8_t* row = img + (y + ky_lo * dh) * in_row_bytes + from;
        for (; ky < ky_hi; ++ky, row += row_step, dst += 8) {
          const uint32_t w0 = (((dsp::load_u32(row) >> right) << left) & keep) | pad;
          dst[0] = dsp::sxtab16(off, w0);
          dst[4] = dsp::sxtab16_ror8(off, w0);
        }
      }
      for (; ky < kernel_h; ++ky, dst += 8) {
        dst[0] = 0;
        dst[4] = 0;
      }
      if (++x == shape.out_w) {
        x = 0;
        y += params.window.stride_h;
        if (++row_y == shape.out_h) {
          row_y = 0;
          y = -params.window.pad_top;
          img += in_h * in_row_bytes;
        }
      }
    }
    ox = x;
    y0 = y;
    oy = row_y;
    image = img;
  }
};

#if MOTE_HAS_DSP
#undef MOTE_SMALL_OUT
#undef MOTE_SMALL_SHIFTED_OUT
#undef MOTE_SMALL_NEXT_BLOCK
#undef MOTE_SMALL_LABELED
#undef MOTE_SMALL_FIRST
#undef MOTE_SMALL_STEP
#undef MOTE_SMALL_RECORD_OUT
#endif

// The records path (see above) for windows of one-word rows (records_apply); false,
// having written nothing but scratch, when the layer does not take it (not ReLU-like, a
// pair outside the shifted requantization, fewer than 4 pixels, dilation_w > 1 or image
// rows under 4 bytes: see PixelWalk::expand_words4).
__attribute__((noinline)) bool conv2d_records(const Conv2dS8Params& params, const int32_t* multipliers,
                                              const int32_t* shifts, const Conv2dShape& shape,
                                              const int8_t* input, const int8_t* filter, const int32_t* bias,
                                              int8_t* output, uint8_t* scratch, const RowsLayout& l) {
  const int32_t zp = params.output_zero_point;
  const int32_t pixels = shape.batch * shape.out_h * shape.out_w;
  if (zp != -128 || params.act_min != -128 || params.act_max != 127 || pixels < 4 ||
      params.window.dilation_w != 1 || shape.in_w * shape.in_c < 4) {
    return false;
  }
  const int32_t steps = l.steps;
  const int32_t out_c = shape.out_c;
  const int32_t k = shape.kernel_h * shape.kernel_w * shape.in_c;
  const int32_t pairs = out_c / 2;
  const uint32_t rec_words = record_words(l);
  uint32_t* const records = reinterpret_cast<uint32_t*>(scratch);
  uint32_t* const cols = records + static_cast<uint32_t>(pairs) * rec_words;
  const int32_t skip = kMaxSteps - steps;
  for (int32_t o = 0; o < out_c; o += 2) {
    const conv2d_dsp::ChannelQuant q0 = conv2d_dsp::channel_quant(multipliers[o], shifts[o], zp);
    const conv2d_dsp::ChannelQuant q1 = conv2d_dsp::channel_quant(multipliers[o + 1], shifts[o + 1], zp);
    const PairShift ps = pair_shift(q0, q1, bias, k, o);
    if (ps.e0 == 0) return false;
    uint32_t* const w = records + static_cast<uint32_t>(o / 2) * rec_words;
    widen_pair_words_scaled(filter + o * k, filter + (o + 1) * k, k / 4, ps.e0, ps.e1, w);
    uint32_t* const c = w + 2 * steps;
    c[0] = static_cast<uint32_t>(bias != nullptr ? bias[o] : 0) << ps.e0;
    c[1] = static_cast<uint32_t>(bias != nullptr ? bias[o + 1] : 0) << ps.e1;
    c[2] = static_cast<uint32_t>(q0.multiplier);
    c[3] = static_cast<uint32_t>(shifted_addend(q0.right_minus_1, zp));
    c[4] = static_cast<uint32_t>(q1.multiplier);
    c[5] = static_cast<uint32_t>(shifted_addend(q1.right_minus_1, zp));
    // The next record's weights moved back by the skipped steps (the asm's r10; on a
    // 64-bit host only its low word, unused there).
    c[6] = o + 2 < out_c ? static_cast<uint32_t>(reinterpret_cast<uintptr_t>(w + rec_words - 2 * skip)) : 0u;
  }
  PixelWalk walk{params, shape, input, conv2d_dsp::offset_pair(-params.input_zero_point), 0, 0, 0, input};
  walk.seek(0);
#if MOTE_HAS_DSP
  // The asm leaves a kRecords state as it is: only out changes per block.
  PairBlocks state{0, 0, 0, output, out_c, 0, 0, 0, 0, 0, cols - 4 * skip, 0, records - 2 * skip,
                   chain_entry(steps), nullptr, kRecords};
#endif
  for (int32_t p0 = 0; p0 < pixels; p0 += 4) {
    if (p0 + 4 > pixels) {
      p0 = pixels - 4;
      walk.seek(p0);
    }
    walk.expand_words4(cols);
    int8_t* const out = output + p0 * out_c;
#if MOTE_HAS_DSP
    state.out = out;
    run_pair_blocks(&state);
#else
    for (int32_t q = 0; q < pairs; ++q) {
      const uint32_t* const w = records + static_cast<uint32_t>(q) * rec_words;
      const uint32_t* const c = w + 2 * steps;
      int32_t acc[8];
      block_accs(cols, w, steps, static_cast<int32_t>(c[0]), static_cast<int32_t>(c[1]), acc);
      for (int32_t p = 0; p < 4; ++p) {
        int8_t* const d = out + p * out_c + 2 * q;
        d[0] = static_cast<int8_t>(dsp::ssat8_asr<kShiftR>(
            dsp::smmla(acc[p], static_cast<int32_t>(c[2]), static_cast<int32_t>(c[3]))));
        d[1] = static_cast<int8_t>(dsp::ssat8_asr<kShiftR>(
            dsp::smmla(acc[4 + p], static_cast<int32_t>(c[4]), static_cast<int32_t>(c[5]))));
      }
    }
#endif
  }
  return true;
}

}  // namespace

uint32_t conv2d_s8_small_window__dsp_scratch_bytes(int32_t kernel_h, int32_t kernel_w, int32_t in_c) {
  const RowsLayout l = rows_layout(kernel_h, kernel_w, in_c);
  return small_applies(l) ? small_scratch(l).total() : 0u;
}

uint32_t conv2d_s8_small_window__dsp_records_bytes(int32_t kernel_h, int32_t kernel_w, int32_t in_c,
                                                   int32_t out_c) {
  const RowsLayout l = rows_layout(kernel_h, kernel_w, in_c);
  return records_apply(l, out_c) ? records_scratch(l, out_c) : 0u;
}

void conv2d_s8_small_window__dsp(const Conv2dS8Params& params, const int32_t* multipliers,
                                 const int32_t* shifts, const Conv2dShape& shape, const int8_t* input,
                                 const int8_t* filter, const int32_t* bias, int8_t* output,
                                 uint8_t* scratch, int32_t pair_records) {
  const RowsLayout l = rows_layout(shape.kernel_h, shape.kernel_w, shape.in_c);
  if (pair_records != 0 && records_apply(l, shape.out_c) &&
      conv2d_records(params, multipliers, shifts, shape, input, filter, bias, output, scratch, l)) {
    return;
  }
  conv2d_small(params, multipliers, shifts, shape, input, filter, bias, output, scratch, l);
}

int32_t conv2d_s8_small_window__dsp_shifted_exponent(int32_t multiplier, int32_t shift, int32_t bias,
                                                     int32_t taps) {
  return shifted_exponent(conv2d_dsp::channel_quant(multiplier, shift, -128), bias, taps);
}

Status conv2d_s8_small_window__dsp_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(conv2d_s8_check_params(ctx, 4));  // then the pair_records int32
  const TensorDesc& filter = ctx.input_desc(1);
  const Conv2dS8Params& p = ctx.params<Conv2dS8Params>();
  if (p.groups != 1) return Status::kBadParams;
  const uint64_t k = uint64_t{filter.dims[1]} * filter.dims[2] * filter.dims[3];
  if (k == 0 || k > 4u * kMaxSteps) return Status::kBadParams;  // each dim then fits in int32
  const RowsLayout l = rows_layout(static_cast<int32_t>(filter.dims[1]), static_cast<int32_t>(filter.dims[2]),
                                   static_cast<int32_t>(filter.dims[3]));
  if (!small_applies(l)) return Status::kBadParams;
  const uint32_t out_c = filter.dims[0];
  const int32_t pair_records = params_array(p, 2, out_c)[0];
  // Records only where the kernel keeps them (else the params are inconsistent).
  if (pair_records < 0 || pair_records > 1 || (pair_records == 1 && !records_apply(l, out_c))) {
    return Status::kBadParams;
  }
  uint32_t needed = small_scratch(l).total();
  if (pair_records == 1 && records_scratch(l, static_cast<int32_t>(out_c)) > needed) {
    needed = records_scratch(l, static_cast<int32_t>(out_c));
  }
  const Span<uint8_t> scratch = ctx.scratch();
  if (scratch.size() < needed || reinterpret_cast<uintptr_t>(scratch.data()) % 4 != 0) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void conv2d_s8_small_window__dsp_run(const OpContext& ctx) {
  const Conv2dS8Operands o = conv2d_s8_operands(ctx);
  conv2d_s8_small_window__dsp(o.params, o.multipliers, o.shifts, o.shape, o.input, o.filter, o.bias, o.output,
                              ctx.scratch().data(), params_array(o.params, 2, o.shape.out_c)[0]);
}

const KernelEntry kConv2dS8SmallWindowDspEntry = {conv2d_s8_small_window__dsp_check,
                                                  conv2d_s8_small_window__dsp_run};

}  // namespace mote
