// Armv7E-M DSP 16x8 convolution (int16 activations, int8 weights), any KH x KW, stride,
// dilation and padding, groups == 1, both accumulator forms; bit-exact with conv2d_s16.
//
// Algorithm. Output pixels are taken four at a time in output order (a last block of 1
// to 3 pixels computes four and stores the valid ones). Each pixel's window (K = KH * KW
// * C values in filter order, padding 0) becomes a column in scratch, interleaved as
// conv2d_s8_dsp_block.h lays out its columns:
//   word 8g + 2p = (x[4g], x[4g+2]) of pixel p,  word 8g + 2p + 1 = (x[4g+1], x[4g+3])
// (PKHBT / PKHTB of two input words), the halves SXTB16 and SXTB16 ROR #8 split a
// weight word into. Every output channel then expands each weight word once and runs 8
// SMLADs over the block: 16 MACs per 15 instructions. K is zero-padded to a multiple of
// 4 in the columns; a channel's last partial weight group is assembled from its bytes.
//
// Accumulation and requantization:
// - accumulator 64, every channel "fast" (shift in [-17, -1] and K * 2^22 + |bias| below
//   2^31, so the int32 SMLAD sum started at the bias is the int64 accumulator): one
//   SMMULR per output (quant/quant_math64_dsp.h) and a clamp.
// - accumulator 64 otherwise: int32 sums over chunks of at most kMaxExactTaps16x8 taps
//   (exact), added in int64, then the reference requantization.
// - accumulator 32: the wrapping int32 sum (SMLAD wraps like the reference), the bias,
//   then the reference int32 requantization.
//
// Small windows (K 8 or 16, every channel fast): chunks of kSmallChunkPixels (16) pixels,
// their columns pixel after pixel; each channel widens its weights once per chunk into
// registers and runs over the chunk (chunk_small).
//
// Scratch: the column block (32 * ceil(K / 4) bytes; 32 * K for K 8 or 16), the
// per-channel table (8 * O: bias and SMMULR multiplier) and, when C % 4 != 0, the
// gathered window (8 * ceil(K / 4)).
#include "conv2d/conv2d.h"
#include "conv2d/conv2d_shapes.h"
#include "isa/dsp.h"
#include "kernel_util.h"
#include "quant/quant_check.h"
#include "quant/quant_math.h"
#include "quant/quant_math64_dsp.h"

namespace mote {
namespace {

constexpr int32_t kBlockPixels = 4;

int32_t k_groups(int32_t k) { return (k + 3) / 4; }

struct ChannelFast {
  int32_t bias;
  int32_t multiplier;  // requant64_multiplier()
};

struct Scratch {
  uint32_t* columns;
  ChannelFast* channels;
  int16_t* gathered;
};

// Pixels per chunk of the small-window path (conv2d_s16__dsp_stream_block depends on it).
constexpr int32_t kSmallChunkPixels = 16;
bool small_window(int32_t k) { return k == 8 || k == 16; }

// The column block: four pixels interleaved, or a small-window chunk.
uint32_t columns_bytes(int32_t k) {
  const uint32_t block = static_cast<uint32_t>(k_groups(k)) * 32u;
  const uint32_t chunk = small_window(k) ? static_cast<uint32_t>(kSmallChunkPixels * k * 2) : 0u;
  return block > chunk ? block : chunk;
}
uint32_t gathered_bytes(int32_t in_c, int32_t k) {
  return in_c % 4 == 0 ? 0u : static_cast<uint32_t>(k_groups(k)) * 8u;
}

// Four int16 values at src into column `pixel` of group g (dst = columns + 8g).
inline void put_group(const int16_t* src, uint32_t* dst) {
  const uint32_t a = dsp::load_u32(src);
  const uint32_t b = dsp::load_u32(src + 2);
  dst[0] = dsp::pack_lo_lo(a, b);
  dst[1] = dsp::pkhtb_hi_hi(a, b);
}

// n int16 values (a multiple of 4) into the column from group pointer dst on.
inline uint32_t* put_run(const int16_t* src, int32_t n, uint32_t* dst, int32_t stride) {
  for (int32_t i = 0; i < n; i += 4, dst += stride) put_group(src + i, dst);
  return dst;
}
inline uint32_t* zero_run(int32_t n, uint32_t* dst, int32_t stride) {
  for (int32_t i = 0; i < n; i += 4, dst += stride) {
    dst[0] = 0;
    dst[1] = 0;
  }
  return dst;
}

// The window of the pixel whose top-left tap is (y0, x0), in filter order, into the
// column at `column`, its groups `stride` words apart: straight from the image when
// C % 4 == 0, else through `gathered` (K values, padding 0, then zeros up to the group).
void fill_column(const Conv2dS16Params& params, const Conv2dShape& shape, const int16_t* image,
                 int32_t y0, int32_t x0, const Scratch& s, uint32_t* column, int32_t stride) {
  const int32_t c = shape.in_c;
  const int32_t row_values = shape.kernel_w * c;
  const int32_t in_row = shape.in_w * c;
  const bool x_inside = params.window.dilation_w == 1 && x0 >= 0 && x0 + shape.kernel_w <= shape.in_w;
  if (c % 4 == 0) {
    uint32_t* dst = column;
    for (int32_t ky = 0; ky < shape.kernel_h; ++ky) {
      const int32_t y = y0 + ky * params.window.dilation_h;
      if (y < 0 || y >= shape.in_h) {
        dst = zero_run(row_values, dst, stride);
        continue;
      }
      const int16_t* row = image + y * in_row;
      if (x_inside) {
        dst = put_run(row + x0 * c, row_values, dst, stride);
        continue;
      }
      for (int32_t kx = 0; kx < shape.kernel_w; ++kx) {
        const int32_t x = x0 + kx * params.window.dilation_w;
        dst = x < 0 || x >= shape.in_w ? zero_run(c, dst, stride) : put_run(row + x * c, c, dst, stride);
      }
    }
    return;
  }
  int16_t* g = s.gathered;
  for (int32_t ky = 0; ky < shape.kernel_h; ++ky) {
    const int32_t y = y0 + ky * params.window.dilation_h;
    const bool y_inside = y >= 0 && y < shape.in_h;
    const int16_t* row = image + (y_inside ? y : 0) * in_row;
    if (y_inside && x_inside) {  // the window row in one run
      const int16_t* src = row + x0 * c;
      for (int32_t j = 0; j < row_values; ++j) *g++ = src[j];
      continue;
    }
    for (int32_t kx = 0; kx < shape.kernel_w; ++kx) {
      const int32_t x = x0 + kx * params.window.dilation_w;
      if (y_inside && x >= 0 && x < shape.in_w) {
        const int16_t* src = row + x * c;
        for (int32_t j = 0; j < c; ++j) *g++ = src[j];
      } else {
        for (int32_t j = 0; j < c; ++j) *g++ = 0;
      }
    }
  }
  const int32_t k = shape.kernel_h * row_values;
  const int32_t groups = k_groups(k);
  put_run(s.gathered, groups * 4, column, stride);
}

// The four accumulators of one channel over a block, one per pixel column.
struct Acc4 {
  int32_t a0, a1, a2, a3;
};

// acc += sum over `groups` whole groups of each column (c, which advances) times the
// weights at w (4 per group, w advances).
__attribute__((always_inline)) inline void mac_groups(const uint32_t*& c, const int8_t*& w, int32_t groups,
                                                      Acc4& acc) {
  int32_t a0 = acc.a0, a1 = acc.a1, a2 = acc.a2, a3 = acc.a3;
  for (int32_t g = 0; g < groups; ++g, w += 4) {
    const uint32_t wv = dsp::load_u32(w);
    const uint32_t w02 = dsp::sxtb16(wv);
    const uint32_t w13 = dsp::sxtb16_ror8(wv);
    uint32_t x0, x1;
    dsp::load2_u32_advance(c, x0, x1);
    a0 = dsp::smlad(x0, w02, a0);
    a0 = dsp::smlad(x1, w13, a0);
    dsp::load2_u32_advance(c, x0, x1);
    a1 = dsp::smlad(x0, w02, a1);
    a1 = dsp::smlad(x1, w13, a1);
    dsp::load2_u32_advance(c, x0, x1);
    a2 = dsp::smlad(x0, w02, a2);
    a2 = dsp::smlad(x1, w13, a2);
    dsp::load2_u32_advance(c, x0, x1);
    a3 = dsp::smlad(x0, w02, a3);
    a3 = dsp::smlad(x1, w13, a3);
  }
  acc = Acc4{a0, a1, a2, a3};
}

// The last `tail` (1..3) weights of a channel (w advances past them) against group c
// (the columns' padding values are 0).
__attribute__((always_inline)) inline void mac_tail(const uint32_t* c, const int8_t*& w, int32_t tail,
                                                    Acc4& acc) {
  uint32_t wv = static_cast<uint8_t>(w[0]);
  if (tail > 1) wv |= static_cast<uint32_t>(static_cast<uint8_t>(w[1])) << 8;
  if (tail > 2) wv |= static_cast<uint32_t>(static_cast<uint8_t>(w[2])) << 16;
  w += tail;
  const uint32_t w02 = dsp::sxtb16(wv);
  const uint32_t w13 = dsp::sxtb16_ror8(wv);
  acc.a0 = dsp::smlad(c[1], w13, dsp::smlad(c[0], w02, acc.a0));
  acc.a1 = dsp::smlad(c[3], w13, dsp::smlad(c[2], w02, acc.a1));
  acc.a2 = dsp::smlad(c[5], w13, dsp::smlad(c[4], w02, acc.a2));
  acc.a3 = dsp::smlad(c[7], w13, dsp::smlad(c[6], w02, acc.a3));
}

// The common case: every channel fast (see the header comment), the accumulators in
// registers. kTail: K % 4 != 0, each channel's last partial group assembled.
template <Clamp16 kClamp, bool kTail>
void block_fast(const uint32_t* columns, const int8_t* filter, int32_t k, const ChannelFast* ch,
                int32_t out_c, int32_t act_min, int32_t act_max, int16_t* out, int32_t valid) {
  const int32_t groups = k / 4;
  const int32_t tail = k % 4;
  const int8_t* w = filter;
  for (int32_t o = 0; o < out_c; ++o, ++out) {
    Acc4 acc{ch[o].bias, ch[o].bias, ch[o].bias, ch[o].bias};
    const uint32_t* c = columns;
    mac_groups(c, w, groups, acc);
    if (kTail) mac_tail(c, w, tail, acc);
    const int32_t m = ch[o].multiplier;
    out[0] = clamp16<kClamp>(requant64_smmulr(acc.a0, m), act_min, act_max);
    if (valid > 1) out[out_c] = clamp16<kClamp>(requant64_smmulr(acc.a1, m), act_min, act_max);
    if (valid > 2) out[2 * out_c] = clamp16<kClamp>(requant64_smmulr(acc.a2, m), act_min, act_max);
    if (valid > 3) out[3 * out_c] = clamp16<kClamp>(requant64_smmulr(acc.a3, m), act_min, act_max);
  }
}

template <bool kTail>
void block_fast_clamped(Clamp16 clamp, const uint32_t* columns, const int8_t* filter, int32_t k,
                        const ChannelFast* ch, int32_t out_c, int32_t act_min, int32_t act_max, int16_t* out,
                        int32_t valid) {
  if (clamp == Clamp16::kFull) {
    block_fast<Clamp16::kFull, kTail>(columns, filter, k, ch, out_c, act_min, act_max, out, valid);
  } else if (clamp == Clamp16::kRelu) {
    block_fast<Clamp16::kRelu, kTail>(columns, filter, k, ch, out_c, act_min, act_max, out, valid);
  } else {
    block_fast<Clamp16::kAny, kTail>(columns, filter, k, ch, out_c, act_min, act_max, out, valid);
  }
}

// Small windows (K == 4 * kGroups, kGroups 2 or 4: the 1x1 convolutions over 8 or 16
// channels): the columns of up to kSmallChunkPixels pixels lie pixel after pixel, and
// each channel keeps its widened weights in registers while it runs over the chunk:
// per pixel 2 * kGroups SMLADs, one SMMULR, the clamp and a store.
template <int kGroups, Clamp16 kClamp>
void chunk_small(const uint32_t* columns, const int8_t* filter, const ChannelFast* ch, int32_t out_c,
                 int32_t act_min, int32_t act_max, int16_t* out, int32_t pixels) {
  static_assert(kGroups == 2 || kGroups == 4, "K 8 or 16");
  const uint32_t* const columns_end = columns + pixels * 2 * kGroups;
  for (int32_t o = 0; o < out_c; ++o, filter += 4 * kGroups) {
    uint32_t wv = dsp::load_u32(filter);
    const uint32_t w0 = dsp::sxtb16(wv), w1 = dsp::sxtb16_ror8(wv);
    wv = dsp::load_u32(filter + 4);
    const uint32_t w2 = dsp::sxtb16(wv), w3 = dsp::sxtb16_ror8(wv);
    uint32_t w4 = 0, w5 = 0, w6 = 0, w7 = 0;
    if (kGroups == 4) {
      wv = dsp::load_u32(filter + 8);
      w4 = dsp::sxtb16(wv);
      w5 = dsp::sxtb16_ror8(wv);
      wv = dsp::load_u32(filter + 12);
      w6 = dsp::sxtb16(wv);
      w7 = dsp::sxtb16_ror8(wv);
    }
    const int32_t bias = ch[o].bias;
    const int32_t m = ch[o].multiplier;
    int16_t* dst = out + o;
    for (const uint32_t* c = columns; c != columns_end; dst += out_c) {
      uint32_t x0, x1;
      dsp::load2_u32_advance(c, x0, x1);
      int32_t acc = dsp::smlad(x0, w0, bias);
      acc = dsp::smlad(x1, w1, acc);
      dsp::load2_u32_advance(c, x0, x1);
      acc = dsp::smlad(x0, w2, acc);
      acc = dsp::smlad(x1, w3, acc);
      if (kGroups == 4) {
        dsp::load2_u32_advance(c, x0, x1);
        acc = dsp::smlad(x0, w4, acc);
        acc = dsp::smlad(x1, w5, acc);
        dsp::load2_u32_advance(c, x0, x1);
        acc = dsp::smlad(x0, w6, acc);
        acc = dsp::smlad(x1, w7, acc);
      }
      *dst = clamp16<kClamp>(requant64_smmulr(acc, m), act_min, act_max);
    }
  }
}

template <int kGroups>
void chunk_small_clamped(Clamp16 clamp, const uint32_t* columns, const int8_t* filter, const ChannelFast* ch,
                         int32_t out_c, int32_t act_min, int32_t act_max, int16_t* out, int32_t pixels) {
  if (clamp == Clamp16::kFull) {
    chunk_small<kGroups, Clamp16::kFull>(columns, filter, ch, out_c, act_min, act_max, out, pixels);
  } else if (clamp == Clamp16::kRelu) {
    chunk_small<kGroups, Clamp16::kRelu>(columns, filter, ch, out_c, act_min, act_max, out, pixels);
  } else {
    chunk_small<kGroups, Clamp16::kAny>(columns, filter, ch, out_c, act_min, act_max, out, pixels);
  }
}

// Any channel, either accumulator (see the header comment).
void block_general(const Conv2dS16Params& params, const int32_t* multipliers, const int32_t* shifts,
                   const uint32_t* columns, const int8_t* filter, int32_t k, const void* bias,
                   int32_t out_c, int16_t* out, int32_t valid) {
  const int32_t groups = k / 4;
  const int32_t tail = k % 4;
  constexpr int32_t kChunkGroups = kMaxExactTaps16x8 / 4;
  const int8_t* w = filter;
  for (int32_t o = 0; o < out_c; ++o) {
    int64_t sum[4] = {0, 0, 0, 0};
    const uint32_t* c = columns;
    // Chunks of kChunkGroups groups; the last also takes the partial group (at most 511
    // taps: still exact).
    for (int32_t g = 0;; g += kChunkGroups) {
      const int32_t n = groups - g < kChunkGroups ? groups - g : kChunkGroups;
      Acc4 acc{0, 0, 0, 0};
      mac_groups(c, w, n, acc);
      if (g + n == groups && tail != 0) mac_tail(c, w, tail, acc);
      sum[0] += acc.a0;
      sum[1] += acc.a1;
      sum[2] += acc.a2;
      sum[3] += acc.a3;
      if (g + n == groups) break;
    }
    for (int32_t p = 0; p < valid; ++p) {
      int32_t scaled;
      if (params.accumulator == 32) {
        uint32_t acc = static_cast<uint32_t>(sum[p]);
        if (bias != nullptr) acc += static_cast<uint32_t>(static_cast<const int32_t*>(bias)[o]);
        scaled = multiply_by_quantized_multiplier(static_cast<int32_t>(acc), multipliers[o], shifts[o]);
      } else {
        int64_t acc = sum[p];
        if (bias != nullptr) acc = wrapping_add64(acc, static_cast<const int64_t*>(bias)[o]);
        scaled = multiply_by_quantized_multiplier64(acc, multipliers[o], shifts[o]);
      }
      out[p * out_c + o] = clamp16<Clamp16::kAny>(scaled, params.act_min, params.act_max);
    }
  }
}

// The fast table when every channel is fast, else false.
bool make_fast_table(const Conv2dS16Params& params, const int32_t* multipliers, const int32_t* shifts,
                     int32_t k, const void* bias, int32_t out_c, ChannelFast* table) {
  if (params.accumulator != 64) return false;
  const int64_t* b = static_cast<const int64_t*>(bias);
  for (int32_t o = 0; o < out_c; ++o) {
    const int64_t bo = b != nullptr ? b[o] : 0;
    if (!requant64_smmulr_applies(shifts[o]) || !requant64_sum_fits(k, bo)) return false;
    table[o].bias = static_cast<int32_t>(bo);
    table[o].multiplier = requant64_multiplier(multipliers[o], shifts[o]);
  }
  return true;
}

}  // namespace

uint32_t conv2d_s16__dsp_scratch_bytes(int32_t out_c, int32_t kernel_h, int32_t kernel_w, int32_t in_c) {
  const int32_t k = kernel_h * kernel_w * in_c;
  return columns_bytes(k) + 8u * static_cast<uint32_t>(out_c) + gathered_bytes(in_c, k);
}

void conv2d_s16__dsp(const Conv2dS16Params& params, const int32_t* multipliers, const int32_t* shifts,
                     const Conv2dShape& shape, const int16_t* input, const int8_t* filter,
                     const void* bias, int16_t* output, uint8_t* scratch) {
  const int32_t k = shape.kernel_h * shape.kernel_w * shape.in_c;
  const int32_t out_c = shape.out_c;
  Scratch s;
  s.columns = reinterpret_cast<uint32_t*>(scratch);
  s.channels = reinterpret_cast<ChannelFast*>(scratch + columns_bytes(k));
  s.gathered = reinterpret_cast<int16_t*>(scratch + columns_bytes(k) + 8u * static_cast<uint32_t>(out_c));
  // The gathered window's values past K stay 0 (fill_column writes K of them).
  const int32_t padded = k_groups(k) * 4;
  if (shape.in_c % 4 != 0) {
    for (int32_t j = k; j < padded; ++j) s.gathered[j] = 0;
  }
  const bool fast = make_fast_table(params, multipliers, shifts, k, bias, out_c, s.channels);
  const Clamp16 clamp = clamp16_kind(params.act_min, params.act_max);

  const int32_t image_step = shape.in_h * shape.in_w * shape.in_c;
  const int32_t pixels = shape.batch * shape.out_h * shape.out_w;
  int32_t oy = 0, ox = 0;
  const int16_t* image = input;
  // The next n pixels' columns, `pixel_words` apart, groups `stride` words apart.
  auto fill = [&](int32_t n, int32_t pixel_words, int32_t stride) {
    for (int32_t i = 0; i < n; ++i) {
      fill_column(params, shape, image, oy * params.window.stride_h - params.window.pad_top,
                  ox * params.window.stride_w - params.window.pad_left, s, s.columns + i * pixel_words, stride);
      if (++ox == shape.out_w) {
        ox = 0;
        if (++oy == shape.out_h) {
          oy = 0;
          image += image_step;
        }
      }
    }
  };
  if (fast && small_window(k)) {
    // 1x1, stride 1, no padding: the chunk's windows are its pixels' inputs back to back.
    const bool contiguous = shape.kernel_h == 1 && shape.kernel_w == 1 && params.window.stride_h == 1 &&
                            params.window.stride_w == 1 && params.window.pad_top == 0 &&
                            params.window.pad_left == 0 && shape.out_h == shape.in_h && shape.out_w == shape.in_w;
    for (int32_t p = 0; p < pixels; p += kSmallChunkPixels) {
      const int32_t n = pixels - p < kSmallChunkPixels ? pixels - p : kSmallChunkPixels;
      if (contiguous) {
        put_run(input + p * shape.in_c, n * k, s.columns, 2);
      } else {
        fill(n, k / 2, 2);
      }
      int16_t* out = output + p * out_c;
      if (k == 8) {
        chunk_small_clamped<2>(clamp, s.columns, filter, s.channels, out_c, params.act_min, params.act_max, out, n);
      } else {
        chunk_small_clamped<4>(clamp, s.columns, filter, s.channels, out_c, params.act_min, params.act_max, out, n);
      }
    }
    return;
  }
  for (int32_t p = 0; p < pixels; p += kBlockPixels) {
    const int32_t valid = pixels - p < kBlockPixels ? pixels - p : kBlockPixels;
    fill(valid, 2, 8);
    int16_t* out = output + p * out_c;
    if (fast && k % 4 != 0) {
      block_fast_clamped<true>(clamp, s.columns, filter, k, s.channels, out_c, params.act_min, params.act_max, out,
                               valid);
    } else if (fast) {
      block_fast_clamped<false>(clamp, s.columns, filter, k, s.channels, out_c, params.act_min, params.act_max,
                                out, valid);
    } else {
      block_general(params, multipliers, shifts, s.columns, filter, k, bias, out_c, out, valid);
    }
  }
}

Status conv2d_s16__dsp_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(conv2d_s16_check(ctx));
  const TensorDesc& filter = ctx.input_desc(1);
  const Conv2dS16Params& p = ctx.params<Conv2dS16Params>();
  if (p.groups != 1) return Status::kBadParams;
  const uint64_t k = uint64_t{filter.dims[1]} * filter.dims[2] * filter.dims[3];
  const uint64_t groups = (k + 3) / 4;
  const uint64_t block = k == 8 || k == 16 ? 32u * k : groups * 32u;
  const uint64_t needed = block + 8u * uint64_t{filter.dims[0]} + (filter.dims[3] % 4 != 0 ? groups * 8u : 0u);
  const Span<uint8_t> scratch = ctx.scratch();
  if (scratch.size() < needed || reinterpret_cast<uintptr_t>(scratch.data()) % 4 != 0) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void conv2d_s16__dsp_run(const OpContext& ctx) {
  const TensorDesc& filter = ctx.input_desc(1);
  const Conv2dShape shape = window_shape(ctx.input_desc(0), filter, ctx.output_desc(0));
  const Conv2dS16Params& p = ctx.params<Conv2dS16Params>();
  const uint32_t out_c = filter.dims[0];
  const void* bias = ctx.input_count() == 3 ? ctx.input_data(2) : nullptr;
  conv2d_s16__dsp(p, params_array(p, 0, out_c), params_array(p, 1, out_c), shape,
                  static_cast<const int16_t*>(ctx.input_data(0)), static_cast<const int8_t*>(ctx.input_data(1)),
                  bias, static_cast<int16_t*>(ctx.output_data(0)), ctx.scratch().data());
}

const KernelEntry kConv2dS16DspEntry = {conv2d_s16__dsp_check, conv2d_s16__dsp_run};

}  // namespace mote
