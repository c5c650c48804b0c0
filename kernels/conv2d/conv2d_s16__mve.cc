// Helium (MVE) 16x8 convolution (int16 activations, int8 weights), bit-exact with
// conv2d_s16 for both accumulators: any kernel, stride, dilation and padding, groups 1.
// Each output pixel is a row of K = KH * KW * C int16 values (the input pixel itself for
// a 1x1 kernel without padding; otherwise its window copied into scratch, taps outside
// the image written as 0, which adds nothing like the reference's skipped taps), and
//   out[p][o] = requant(sum_k row_p[k] * filter_o[k] + bias[o])
// with filters as rows of K bytes (OHWI), widened to int16 by VLDRB.S16 and summed by
// VMLADAVA.S16, four channels requantized per vector.
//
// int32 sums are exact for the int64 accumulator when |sum| + |bias| < 2^31, which holds
// when K <= kFastMaxK (|w * x| <= 2^22, so |sum| <= 2^30) and every |bias| < 2^30; with
// every shift < 0 the requantization is then requant64_x4 (quant/quant_math_mve.h).
// Other int64 cases (shift >= 0, larger K or bias) sum in int64 with VMLALDAVA.S16 and
// requantize one output at a time with the reference's arithmetic. The int32
// accumulator wraps in VMLADAVA like the reference and requantizes as the int8 variants
// (requant_s8x4, quant/quant_math_mve.h).
//
// Blocking: rows of K <= 8 (pointwise layers of 8 channels) are held in registers, two
// pixels x four channels per block; longer rows run one pixel x four channels over
// 8-value steps with a predicated tail. Channels out_c % 4 repeat the group's first
// filter row in the missing lanes, which are not stored.
//
// Scratch (16-byte aligned): bias as int32 and the vector multipliers, out_c rounded up
// to 4 each, then two rows of K int16 unless the kernel is 1x1 without padding.
// On a core without MVE the same code runs through the portable definitions of
// kernels/isa/mve.h.
#include "conv2d/conv2d.h"
#include "conv2d/conv2d_s8_mve_rows.h"  // conv2d_s8_mve_lanes
#include "conv2d/conv2d_shapes.h"
#include "isa/mve.h"
#include "isa/mve_dot_s16x8.h"
#include "kernel_util.h"
#include "quant/quant_check.h"
#include "quant/quant_math.h"
#include "quant/quant_math_mve.h"

namespace mote {
namespace {

constexpr int32_t kFastMaxK = 256;
constexpr int64_t kFastMaxBias = (int64_t{1} << 30) - 1;

uint32_t table_bytes(int32_t out_c) { return 2u * ((static_cast<uint32_t>(out_c) + 3u) & ~3u) * 4u; }

bool pointwise(const Conv2dS16Params& params, const Conv2dShape& shape) {
  const WindowGeometry& w = params.window;
  return shape.kernel_h == 1 && shape.kernel_w == 1 && w.pad_top == 0 && w.pad_left == 0 &&
         w.pad_bottom == 0 && w.pad_right == 0;
}

// Everything about the filters and outputs that is the same for every pixel.
struct Rows {
  const int8_t* filter;     // out_c rows of k bytes
  const int32_t* bias;      // out_c rounded up to 4, int32
  const int32_t* mult;      // out_c rounded up to 4: requant64_vector_multiplier (64) or multiplier (32)
  const int32_t* shifts;    // out_c
  int32_t out_c;
  int32_t k;
  int32_t act_min, act_max;
};

// Four channel sums of one or two pixels.
struct Sums {
  mve::int32x4_t p0, p1;
};

// Rows of k <= 8 held in registers (lanes >= k zero): rows w0..w3 against both pixels.
// kWhole: 8 bytes may be read at each row (k == 8).
template <bool kPair, bool kWhole>
__attribute__((always_inline)) inline Sums near_2x4(mve::int16x8_t x0, mve::int16x8_t x1,
                                                    const int8_t* w0, const int8_t* w1,
                                                    const int8_t* w2, const int8_t* w3,
                                                    mve::mve_pred16_t pk) {
  const mve::int16x8_t v0 = kWhole ? mve::vldrbq_s16(w0) : mve::vldrbq_z_s16(w0, pk);
  const mve::int16x8_t v1 = kWhole ? mve::vldrbq_s16(w1) : mve::vldrbq_z_s16(w1, pk);
  const mve::int16x8_t v2 = kWhole ? mve::vldrbq_s16(w2) : mve::vldrbq_z_s16(w2, pk);
  const mve::int16x8_t v3 = kWhole ? mve::vldrbq_s16(w3) : mve::vldrbq_z_s16(w3, pk);
  Sums s;
  s.p0 = conv2d_s8_mve_lanes(mve::vmladavq_s16(x0, v0), mve::vmladavq_s16(x0, v1),
                             mve::vmladavq_s16(x0, v2), mve::vmladavq_s16(x0, v3));
  if (kPair) {
    s.p1 = conv2d_s8_mve_lanes(mve::vmladavq_s16(x1, v0), mve::vmladavq_s16(x1, v1),
                               mve::vmladavq_s16(x1, v2), mve::vmladavq_s16(x1, v3));
  } else {
    s.p1 = s.p0;
  }
  return s;
}

// Long rows: one pixel x four channels over k values.
__attribute__((always_inline)) inline Sums long_1x4(const int16_t* x, const int8_t* w0,
                                                    const int8_t* w1, const int8_t* w2,
                                                    const int8_t* w3, int32_t k) {
  const mve::Dot4 d = mve::dot_s16x8_x4(x, w0, w1, w2, w3, k);
  Sums s;
  s.p0 = s.p1 = conv2d_s8_mve_lanes(d.a0, d.a1, d.a2, d.a3);
  return s;
}

// Four outputs of one pixel: acc (sums + bias) requantized and clamped.
template <bool kAcc32>
__attribute__((always_inline)) inline mve::int32x4_t requant(mve::int32x4_t acc,
                                                             mve::int32x4_t mult,
                                                             mve::int32x4_t shift,
                                                             mve::int32x4_t lo,
                                                             mve::int32x4_t hi) {
  if (kAcc32) {
    return requant_s8x4(acc, requant_s8x4_prepare(mult, shift), mve::vdupq_n_s32(0), lo, hi);
  }
  const mve::int32x4_t out = requant64_x4(acc, mult, shift);
  return mve::vminq_s32(mve::vmaxq_s32(out, lo), hi);
}

// Output channels [0, out_c) of one or two pixels (kPair) into y0 (and y1). kNear: rows
// of k <= 8 values, x0 / x1 their registers (kEight: k == 8); otherwise the row at r0.
template <bool kNear, bool kEight, bool kPair, bool kAcc32>
__attribute__((always_inline)) inline void pixel_rows(const Rows& r, mve::int16x8_t x0,
                                                      mve::int16x8_t x1, const int16_t* r0,
                                                      int16_t* y0, int16_t* y1) {
  const int32_t k = kEight ? 8 : r.k;
  const int32_t out_c = r.out_c;
  const mve::int32x4_t lo = mve::vdupq_n_s32(r.act_min);
  const mve::int32x4_t hi = mve::vdupq_n_s32(r.act_max);
  const mve::mve_pred16_t pk = mve::vctp16q(static_cast<uint32_t>(k));
  const int8_t* w = r.filter;
  const int32_t* b = r.bias;
  const int32_t* m = r.mult;
  const int32_t* s = r.shifts;
  // Requantizes and stores the four channels of sums, lanes [0, left) (left >= 4: all).
  auto finish = [&](const Sums& sums, int32_t left) __attribute__((always_inline)) {
    const mve::mve_pred16_t pc = mve::vctp32q(static_cast<uint32_t>(left));
    const mve::int32x4_t bias = mve::vldrwq_s32(b);
    const mve::int32x4_t mult = mve::vldrwq_s32(m);
    const mve::int32x4_t shift = left >= 4 ? mve::vldrwq_s32(s) : mve::vldrwq_z_s32(s, pc);
    const mve::int32x4_t out0 = requant<kAcc32>(mve::vaddq_s32(sums.p0, bias), mult, shift, lo, hi);
    if (left >= 4) {
      mve::vstrhq_s32(y0, out0);
    } else {
      mve::vstrhq_p_s32(y0, out0, pc);
    }
    if (kPair) {
      const mve::int32x4_t out1 =
          requant<kAcc32>(mve::vaddq_s32(sums.p1, bias), mult, shift, lo, hi);
      if (left >= 4) {
        mve::vstrhq_s32(y1, out1);
      } else {
        mve::vstrhq_p_s32(y1, out1, pc);
      }
      y1 += 4;
    }
    y0 += 4;
    w += 4 * k;
    b += 4;
    m += 4;
    s += 4;
  };
  int32_t left = out_c;
  for (; left >= 4; left -= 4) {
    const Sums sums = !kNear ? long_1x4(r0, w, w + k, w + 2 * k, w + 3 * k, k)
                             : near_2x4<kPair, kEight>(x0, x1, w, w + k, w + 2 * k, w + 3 * k, pk);
    finish(sums, 4);
  }
  if (left == 0) return;
  // 1..3 channels: rows past the last one repeat the first; their lanes are not stored.
  const int8_t* w1 = left > 1 ? w + k : w;
  const int8_t* w2 = left > 2 ? w + 2 * k : w;
  finish(kNear ? near_2x4<kPair, false>(x0, x1, w, w1, w2, w, pk) : long_1x4(r0, w, w1, w2, w, k),
         left);
}

// One output pixel by int64 sums (VMLALDAVA) and the reference's requantization.
void pixel_exact64(const Conv2dS16Params& params, const int32_t* multipliers,
                   const int32_t* shifts, const int64_t* bias, const int8_t* filter,
                   int32_t out_c, int32_t k, const int16_t* row, int16_t* y) {
  for (int32_t o = 0; o < out_c; ++o) {
    const int8_t* w = filter + o * k;
    int64_t acc = 0;
    int32_t n = k;
    const int16_t* x = row;
    for (; n >= 8; n -= 8, x += 8, w += 8) {
      acc = mve::vmlaldavaq_s16(acc, mve::vldrhq_s16(x), mve::vldrbq_s16(w));
    }
    if (n > 0) {
      const mve::mve_pred16_t p = mve::vctp16q(static_cast<uint32_t>(n));
      acc = mve::vmlaldavaq_s16(acc, mve::vldrhq_z_s16(x, p), mve::vldrbq_z_s16(w, p));
    }
    if (bias != nullptr) acc = wrapping_add64(acc, bias[o]);
    const int32_t scaled = multiply_by_quantized_multiplier64(acc, multipliers[o], shifts[o]);
    y[o] = static_cast<int16_t>(clamp_i32(scaled, params.act_min, params.act_max));
  }
}

// n int16 values from src to dst, eight at a time (the last step predicated); n <= 0
// copies nothing.
__attribute__((always_inline)) inline void copy_values(int16_t* dst, const int16_t* src,
                                                       int32_t n) {
  for (; n > 0; n -= 8, dst += 8, src += 8) {
    const mve::mve_pred16_t p = mve::vctp16q(static_cast<uint32_t>(n));
    mve::vstrhq_p_s16(dst, mve::vldrhq_z_s16(src, p), p);
  }
}
// n zeros to dst.
void zero_values(int16_t* dst, int32_t n) {
  const mve::int16x8_t zero = mve::vdupq_n_s16(0);
  for (; n > 0; n -= 8, dst += 8) mve::vstrhq_p_s16(dst, zero, mve::vctp16q(static_cast<uint32_t>(n)));
}

// The window of output pixel (oy, ox) of `image` as one row of K values.
void im2col_row(const Conv2dS16Params& params, const Conv2dShape& shape, const int16_t* image,
                int32_t oy, int32_t ox, int16_t* row) {
  const int32_t c = shape.in_c;
  const int32_t y0 = oy * params.window.stride_h - params.window.pad_top;
  const int32_t x0 = ox * params.window.stride_w - params.window.pad_left;
  for (int32_t ky = 0; ky < shape.kernel_h; ++ky) {
    const int32_t y = y0 + ky * params.window.dilation_h;
    const bool y_inside = y >= 0 && y < shape.in_h;
    const int16_t* in_row = image + y * shape.in_w * c;
    if (y_inside && params.window.dilation_w == 1 && x0 >= 0 && x0 + shape.kernel_w <= shape.in_w) {
      copy_values(row, in_row + x0 * c, shape.kernel_w * c);
      row += shape.kernel_w * c;
      continue;
    }
    for (int32_t kx = 0; kx < shape.kernel_w; ++kx, row += c) {
      const int32_t x = x0 + kx * params.window.dilation_w;
      if (y_inside && x >= 0 && x < shape.in_w) {
        copy_values(row, in_row + x * c, c);
      } else {
        zero_values(row, c);
      }
    }
  }
}

// Every output pixel in order: its row (the input pixel, or its window copied to rows[0]
// / rows[1]), then its outputs; two pixels at a time with rows of k <= 8 (kNear; kEight:
// k == 8).
template <bool kNear, bool kEight, bool kAcc32>
void all_pixels(const Conv2dS16Params& params, const Conv2dShape& shape, const Rows& r,
                const int16_t* input, int16_t* rows, int16_t* output) {
  const bool direct = rows == nullptr;
  const int32_t out_c = shape.out_c;
  const int32_t k = r.k;
  const int32_t pixels = shape.batch * shape.out_h * shape.out_w;
  const int32_t image_step = shape.in_h * shape.in_w * shape.in_c;
  const mve::mve_pred16_t pk = mve::vctp16q(static_cast<uint32_t>(k));
  int32_t b = 0, oy = 0, ox = 0;
  auto next_row = [&](int16_t* scratch_row) __attribute__((always_inline)) {
    const int16_t* image = input + b * image_step;
    const int16_t* row;
    if (direct) {
      row = image + (oy * params.window.stride_h * shape.in_w + ox * params.window.stride_w) *
                        shape.in_c;
    } else {
      im2col_row(params, shape, image, oy, ox, scratch_row);
      row = scratch_row;
    }
    if (++ox == shape.out_w) {
      ox = 0;
      if (++oy == shape.out_h) {
        oy = 0;
        ++b;
      }
    }
    return row;
  };
  int32_t p = 0;
  if (kNear) {
    for (; p + 2 <= pixels; p += 2, output += 2 * out_c) {
      const int16_t* row0 = next_row(rows);
      const mve::int16x8_t x0 = kEight ? mve::vldrhq_s16(row0) : mve::vldrhq_z_s16(row0, pk);
      const int16_t* row1 = next_row(direct ? rows : rows + k);
      const mve::int16x8_t x1 = kEight ? mve::vldrhq_s16(row1) : mve::vldrhq_z_s16(row1, pk);
      pixel_rows<true, kEight, true, kAcc32>(r, x0, x1, nullptr, output, output + out_c);
    }
  }
  for (; p < pixels; ++p, output += out_c) {
    const int16_t* row = next_row(rows);
    const mve::int16x8_t x0 = kNear ? mve::vldrhq_z_s16(row, pk) : mve::vdupq_n_s16(0);
    pixel_rows<kNear, kEight, false, kAcc32>(r, x0, x0, row, output, nullptr);
  }
}

}  // namespace

uint32_t conv2d_s16__mve_scratch_bytes(const Conv2dS16Params& params, const Conv2dShape& shape) {
  const uint32_t k = static_cast<uint32_t>(shape.kernel_h * shape.kernel_w * shape.in_c);
  return table_bytes(shape.out_c) + (pointwise(params, shape) ? 0u : 2u * k * 2u);
}

void conv2d_s16__mve(const Conv2dS16Params& params, const int32_t* multipliers,
                     const int32_t* shifts, const Conv2dShape& shape, const int16_t* input,
                     const int8_t* filter, const void* bias, int16_t* output,
                     uint8_t* scratch) {
  const int32_t out_c = shape.out_c;
  const int32_t k = shape.kernel_h * shape.kernel_w * shape.in_c;
  const int32_t padded = (out_c + 3) & ~3;
  int32_t* bias32 = reinterpret_cast<int32_t*>(scratch);
  int32_t* mult = bias32 + padded;
  int16_t* rows = pointwise(params, shape) ? nullptr : reinterpret_cast<int16_t*>(mult + padded);
  const bool acc32 = params.accumulator == 32;
  bool fast = acc32 || k <= kFastMaxK;
  for (int32_t o = 0; o < padded; ++o) {
    const bool real = o < out_c;
    if (acc32) {
      bias32[o] = real && bias != nullptr ? static_cast<const int32_t*>(bias)[o] : 0;
      mult[o] = real ? multipliers[o] : 0;
      continue;
    }
    const int64_t b = real && bias != nullptr ? static_cast<const int64_t*>(bias)[o] : 0;
    const int32_t m = real ? multipliers[o] : 0;
    fast = fast && b <= kFastMaxBias && b >= -kFastMaxBias && (!real || shifts[o] < 0);
    bias32[o] = static_cast<int32_t>(b);
    mult[o] = requant64_vector_multiplier(m);
  }
  const Rows r{filter, bias32, mult, shifts, out_c, k, params.act_min, params.act_max};
  if (!fast) {
    const int32_t pixels = shape.batch * shape.out_h * shape.out_w;
    const int32_t image_step = shape.in_h * shape.in_w * shape.in_c;
    for (int32_t p = 0; p < pixels; ++p, output += out_c) {
      const int32_t b = p / (shape.out_h * shape.out_w);
      const int32_t oy = p / shape.out_w % shape.out_h;
      const int32_t ox = p % shape.out_w;
      const int16_t* image = input + b * image_step;
      const int16_t* row = image + (oy * params.window.stride_h * shape.in_w +
                                    ox * params.window.stride_w) * shape.in_c;
      if (rows != nullptr) {
        im2col_row(params, shape, image, oy, ox, rows);
        row = rows;
      }
      pixel_exact64(params, multipliers, shifts, static_cast<const int64_t*>(bias), filter,
                    out_c, k, row, output);
    }
    return;
  }
  if (k == 8 && !acc32) {
    all_pixels<true, true, false>(params, shape, r, input, rows, output);
  } else if (k <= 8) {
    if (acc32) {
      all_pixels<true, false, true>(params, shape, r, input, rows, output);
    } else {
      all_pixels<true, false, false>(params, shape, r, input, rows, output);
    }
  } else if (acc32) {
    all_pixels<false, false, true>(params, shape, r, input, rows, output);
  } else {
    all_pixels<false, false, false>(params, shape, r, input, rows, output);
  }
}

Status conv2d_s16__mve_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(conv2d_s16_check(ctx));
  const Conv2dS16Params& p = ctx.params<Conv2dS16Params>();
  if (p.groups != 1) return Status::kBadParams;
  const Conv2dShape shape =
      window_shape(ctx.input_desc(0), ctx.input_desc(1), ctx.output_desc(0));
  const Span<uint8_t> scratch = ctx.scratch();
  if (scratch.size() < conv2d_s16__mve_scratch_bytes(p, shape) ||
      reinterpret_cast<uintptr_t>(scratch.data()) % 4 != 0) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void conv2d_s16__mve_run(const OpContext& ctx) {
  const TensorDesc& filter = ctx.input_desc(1);
  const Conv2dShape shape = window_shape(ctx.input_desc(0), filter, ctx.output_desc(0));
  const Conv2dS16Params& p = ctx.params<Conv2dS16Params>();
  const uint32_t out_c = filter.dims[0];
  const void* bias = ctx.input_count() == 3 ? ctx.input_data(2) : nullptr;
  conv2d_s16__mve(p, params_array(p, 0, out_c), params_array(p, 1, out_c), shape,
                  static_cast<const int16_t*>(ctx.input_data(0)),
                  static_cast<const int8_t*>(ctx.input_data(1)), bias,
                  static_cast<int16_t*>(ctx.output_data(0)), ctx.scratch().data());
}

const KernelEntry kConv2dS16MveEntry = {conv2d_s16__mve_check, conv2d_s16__mve_run};

}  // namespace mote
