// Helium (MVE) int8 1x1 convolution (pointwise), bit-exact with conv2d_s8: kernel 1x1,
// no padding, groups == 1, any stride. Each output pixel's input pixel is a row of C
// contiguous bytes, so the op is a matrix product of pixel rows by filter rows
// (conv2d_s8_mve_rows.h: 2 pixels x 4 channels per block, a pixel of C <= 32 bytes
// loaded once per pixel pair, four outputs requantized per vector). The input offset is
// folded into a per-channel bias computed once per call into scratch.
//
// Constant channels: a channel whose output cannot vary with the input (trained ReLU
// networks have them: a bias near -2^30 clamps every output to act_min; 488 of vww's
// 640 channels in its 128-channel layers) is found once per call (split_channels: the
// exact accumulator range the weights allow, [lo, hi], and the reference's output at both
// ends; the requantization is monotone, so equal ends mean a constant). When enough
// channels are constant (an eighth; rows of more than 32 bytes only, see
// conv2d_s8_1x1__mve), each pixel's output is first the bytes of a template (the
// constants; a load and a store per 16 channels), then only the live channels run the 2 x 4 blocks, four at a time through a
// list of their indices: filter rows by index, bias / multiplier / shift by gathers,
// outputs by byte scatters (about 8 instructions per block more than contiguous
// channels). With fewer constant channels every channel runs as before.
//
// Scratch: bias_eff (out_c int32), the live list (int16, out_c rounded up to 4), the
// template (out_c rounded up to 4 bytes).
//
// On a core without MVE the same code runs through the portable definitions of
// kernels/isa/mve.h.
#include "conv2d/conv2d.h"
#include "conv2d/conv2d_s8_mve_rows.h"
#include "conv2d/conv2d_shapes.h"
#include "kernel_util.h"
#include "quant/quant_check.h"

namespace mote {

namespace {

int32_t round4(int32_t n) { return (n + 3) & ~3; }

// Scratch layout (see the top comment).
struct Scratch {
  int32_t* bias_eff;
  int16_t* live;
  int8_t* constants;
};
Scratch scratch_parts(int32_t* scratch, int32_t out_c) {
  int16_t* live = reinterpret_cast<int16_t*>(scratch + out_c);
  return Scratch{scratch, live, reinterpret_cast<int8_t*>(live + round4(out_c))};
}

// Channels are classified only up to this row length (the range terms below then fit
// int32) and this many channels (int16 indices).
constexpr int32_t kMaxSplitK = 8192;
constexpr int32_t kMaxSplitChannels = 32767;

}  // namespace

uint32_t conv2d_s8_1x1__mve_scratch_bytes(int32_t out_c) {
  return static_cast<uint32_t>(out_c) * 4u + static_cast<uint32_t>(round4(out_c)) * 3u;
}

namespace {

// sum_i w[i] and sum_i |w[i]| of one filter row of k bytes: 3 instructions per 16 bytes.
struct RowSums {
  int32_t sum;
  int32_t abs;
};
__attribute__((always_inline)) inline RowSums row_sums(const int8_t* w, int32_t k) {
  const mve::int8x16_t z = mve::vdupq_n_s8(0);
  int32_t sum = 0;
  uint32_t abs = 0;
  for (; k >= 16; k -= 16, w += 16) {
    const mve::int8x16_t v = mve::vldrbq_s8(w);
    sum = mve::vaddvaq_s8(sum, v);
    abs = mve::vabavq_s8(abs, v, z);
  }
  if (k > 0) {
    const mve::int8x16_t v = mve::vldrbq_z_s8(w, mve::vctp8q(static_cast<uint32_t>(k)));
    sum = mve::vaddvaq_s8(sum, v);
    abs = mve::vabavq_s8(abs, v, z);
  }
  return {sum, static_cast<int32_t>(abs)};
}

// bias_eff of every channel (as conv2d_s8_mve_bias), the live channels' indices in
// live[0, n) padded to a multiple of 4 with copies of the last, and the constant channels'
// outputs in constants[o]; returns n (the live channels before padding).
//
// Channel o's accumulator is b + sum_i w_i (x_i + off), x_i in [-128, 127], off = -input
// zero point, so with S = sum w_i and P = the sum of its positive weights (S + sum |w_i|)/2
// it reaches exactly [lo, hi] = b + [(off + 127) S - 255 P, (off - 128) S + 255 P]
// (|those terms| < 2^16 k, int32 for k <= kMaxSplitK). The reference's output,
// clamp(wrap(mbqm(acc) + zp)), is monotone in acc over [lo, hi] (non-decreasing for a
// multiplier >= 0, non-increasing below: VQRDMULH's one saturating case keeps that,
// rounding shifts are monotone) unless something wraps: b + the term (int32), acc << left
// (shift > 0) or mbqm + zp (only without a right shift: otherwise |mbqm| <= 2^30). Each is
// checked at both ends (between them nothing wraps then; kRightShifts, every shift < 0,
// leaves out the last two), and the channel is constant when none wraps and the outputs
// at lo and hi agree, or act_min == act_max. Four channels per step: 3 instructions per
// 16 weights and about 12 per channel (kRightShifts; groups all live or all constant
// store their list entries or constants as one vector).
template <bool kRightShifts>
int32_t split_channels(const Conv2dS8Params& params, const int32_t* multipliers,
                       const int32_t* shifts, const int8_t* filter, const int32_t* bias,
                       int32_t out_c, int32_t k, const Scratch& s) {
  const int32_t off = -params.input_zero_point;
  const int32_t output_zero_point = params.output_zero_point;
  const mve::int32x4_t zero = mve::vdupq_n_s32(0);
  const mve::int32x4_t zp = mve::vdupq_n_s32(params.output_zero_point);
  const mve::int32x4_t act_lo = mve::vdupq_n_s32(params.act_min);
  const mve::int32x4_t act_hi = mve::vdupq_n_s32(params.act_max);
  const bool classify = k <= kMaxSplitK && out_c <= kMaxSplitChannels;
  const bool narrow = params.act_min == params.act_max;
  int32_t* const bias_eff = s.bias_eff;
  int16_t* const live_list = s.live;
  int8_t* const constants = s.constants;
  mve::int32x4_t index = conv2d_s8_mve_lanes(0, 1, 2, 3);
  int32_t live = 0;
  for (int32_t o = 0; o < out_c; o += 4) {
    const int32_t n = out_c - o < 4 ? out_c - o : 4;
    const mve::mve_pred16_t pc = mve::vctp32q(static_cast<uint32_t>(n));
    // Rows past the last channel repeat it (their lanes are not stored).
    const int8_t* w = filter + o * k;
    const RowSums r0 = row_sums(w, k);
    const RowSums r1 = row_sums(n > 1 ? w + k : w, k);
    const RowSums r2 = row_sums(n > 2 ? w + 2 * k : w, k);
    const RowSums r3 = row_sums(n > 3 ? w + 3 * k : w, k);
    const mve::int32x4_t vs = conv2d_s8_mve_lanes(r0.sum, r1.sum, r2.sum, r3.sum);
    const mve::int32x4_t b = bias != nullptr ? mve::vldrwq_z_s32(bias + o, pc) : zero;
    mve::vstrwq_p_s32(bias_eff + o, mve::vmlaq_n_s32(b, vs, off), pc);
    // Lanes: -1 where the channel may vary, else 0; out_lo the constant.
    mve::int32x4_t varies = mve::vdupq_n_s32(-1);
    mve::int32x4_t out_lo = zero;
    if (classify) {
      const mve::int32x4_t va = conv2d_s8_mve_lanes(r0.abs, r1.abs, r2.abs, r3.abs);
      const mve::int32x4_t p255 =
          mve::vmulq_n_s32(MOTE_MVE_VSHRQ_N_S32(mve::vaddq_s32(vs, va), 1), 255);
      const mve::int32x4_t term_lo = mve::vsubq_s32(mve::vmulq_n_s32(vs, off + 127), p255);
      const mve::int32x4_t term_hi = mve::vaddq_s32(mve::vmulq_n_s32(vs, off - 128), p255);
      const mve::int32x4_t lo = mve::vaddq_s32(b, term_lo);
      const mve::int32x4_t hi = mve::vaddq_s32(b, term_hi);
      mve::int32x4_t wrapped = mve::vorrq_s32(mve::veorq_s32(lo, mve::vqaddq_s32(b, term_lo)),
                                              mve::veorq_s32(hi, mve::vqaddq_s32(b, term_hi)));
      const mve::int32x4_t mult = mve::vldrwq_z_s32(multipliers + o, pc);
      const mve::int32x4_t shift = mve::vldrwq_z_s32(shifts + o, pc);
      mve::int32x4_t out_hi;
      if (kRightShifts) {
        out_lo = conv2d_s8_mve_requant_right(lo, mult, shift, output_zero_point, act_lo, act_hi);
        out_hi = conv2d_s8_mve_requant_right(hi, mult, shift, output_zero_point, act_lo, act_hi);
      } else {
        const RequantS8x4 q = requant_s8x4_prepare(mult, shift);
        const mve::int32x4_t back = mve::vsubq_s32(zero, q.left);
        wrapped = mve::vorrq_s32(
            wrapped,
            mve::vorrq_s32(mve::veorq_s32(mve::vshlq_s32(mve::vshlq_s32(lo, q.left), back), lo),
                           mve::veorq_s32(mve::vshlq_s32(mve::vshlq_s32(hi, q.left), back), hi)));
        const mve::int32x4_t v_lo = requant_s32x4_scaled(lo, q);
        const mve::int32x4_t v_hi = requant_s32x4_scaled(hi, q);
        const mve::int32x4_t y_lo = mve::vaddq_s32(v_lo, zp);
        const mve::int32x4_t y_hi = mve::vaddq_s32(v_hi, zp);
        wrapped = mve::vorrq_s32(wrapped,
                                 mve::vorrq_s32(mve::veorq_s32(y_lo, mve::vqaddq_s32(v_lo, zp)),
                                                mve::veorq_s32(y_hi, mve::vqaddq_s32(v_hi, zp))));
        out_lo = mve::vminq_s32(mve::vmaxq_s32(y_lo, act_lo), act_hi);
        out_hi = mve::vminq_s32(mve::vmaxq_s32(y_hi, act_lo), act_hi);
      }
      // x != 0 -> -1: (x | -x) >> 31.
      const mve::int32x4_t differ = mve::vorrq_s32(wrapped, mve::veorq_s32(out_lo, out_hi));
      varies = narrow ? zero
                      : MOTE_MVE_VSHRQ_N_S32(mve::vorrq_s32(differ, mve::vsubq_s32(zero, differ)), 31);
    }
    const int32_t count = -mve::vaddvq_s32(varies);
    if (n == 4 && count == 4) {
      mve::vstrhq_s32(live_list + live, index);
      live += 4;
    } else if (n == 4 && count == 0) {
      mve::vstrbq_s32(constants + o, out_lo);
    } else {
      int32_t v[4], c[4];
      mve::vstrwq_p_s32(v, varies, pc);
      mve::vstrwq_p_s32(c, out_lo, pc);
      for (int32_t j = 0; j < n; ++j) {
        if (v[j] == 0) {
          constants[o + j] = static_cast<int8_t>(c[j]);
        } else {
          live_list[live++] = static_cast<int16_t>(o + j);
        }
      }
    }
    index = mve::vaddq_n_s32(index, 4);
  }
  for (int32_t i = live; i < round4(live); ++i) live_list[i] = live_list[live - 1];
  return live;
}

// The input pixel of each output pixel, in output order. With stride 1 the pixels are
// every k bytes of the input (one long row).
struct PixelWalk {
  const int8_t* image;
  const int8_t* row;
  int32_t ox, oy;
  int32_t out_w, out_h;
  int32_t col_step, row_step, image_step;

  const int8_t* next() {
    const int8_t* px = row + ox * col_step;
    if (++ox == out_w) {
      ox = 0;
      if (++oy == out_h) {
        oy = 0;
        image += image_step;
        row = image;
      } else {
        row += row_step;
      }
    }
    return px;
  }
};

template <int kVectors, bool kRightShifts, int kRowBytes>
__attribute__((always_inline)) inline void pointwise_pixels(const Conv2dS8MveRows& r,
                                                            PixelWalk walk, int32_t pixels,
                                                            int8_t* out) {
  const int32_t out_c = r.out_c;
  int32_t p = 0;
  for (; p + 2 <= pixels; p += 2) {
    const int8_t* x0 = walk.next();
    const int8_t* x1 = walk.next();
    conv2d_s8_mve_rows<kVectors, true, kRightShifts, kRowBytes>(r, x0, x1, out, out + out_c);
    out += 2 * out_c;
  }
  if (p < pixels) {
    conv2d_s8_mve_rows<kVectors, false, kRightShifts, kRowBytes>(r, walk.next(), nullptr, out,
                                                                 nullptr);
  }
}

// The rows with pixels in registers run on a local copy of r, which the output stores
// cannot alias (so its fields stay in registers); the long rows keep the reference
// (measured: fewer instructions there).
template <int kVectors, bool kRightShifts, int kRowBytes = 0>
void pointwise(const Conv2dS8MveRows& r, PixelWalk walk, int32_t pixels, int8_t* out) {
  if (kVectors > 0) {
    const Conv2dS8MveRows local = r;
    pointwise_pixels<kVectors, kRightShifts, kRowBytes>(local, walk, pixels, out);
  } else {
    pointwise_pixels<kVectors, kRightShifts, kRowBytes>(r, walk, pixels, out);
  }
}

// The live channels' rows: r with the list of live channels (live_groups groups of four
// indices) and the template of constant outputs. r.whole_groups is live_groups when
// every live row may be loaded whole (see Conv2dS8MveRows), else 0.
struct LiveRows {
  Conv2dS8MveRows r;
  const int16_t* live;
  int32_t live_groups;
  const int8_t* constants;
};

// out_c bytes of the template to out: 2 instructions per 16 bytes and a predicated tail.
__attribute__((always_inline)) inline void copy_constants(int8_t* out, const int8_t* t,
                                                          int32_t out_c) {
  int32_t n = out_c;
  for (; n >= 16; n -= 16, t += 16, out += 16) mve::vstrbq_s8(out, mve::vldrbq_s8(t));
  if (n > 0) {
    const mve::mve_pred16_t p = mve::vctp8q(static_cast<uint32_t>(n));
    mve::vstrbq_p_s8(out, mve::vldrbq_z_s8(t, p), p);
  }
}

// As conv2d_s8_mve_rows over the live channels: the template to both pixels' outputs,
// then per group of four live channels the block, requantized by gathered constants
// and scattered to the channels' bytes (a padded group's repeated channel stores the
// same byte twice).
template <int kVectors, bool kPair, bool kRightShifts, int kRowBytes = 0>
__attribute__((always_inline)) inline void live_rows(const LiveRows& lr, const int8_t* x0,
                                                     const int8_t* x1, int8_t* out0,
                                                     int8_t* out1) {
  const Conv2dS8MveRows& r = lr.r;
  if (!kPair) x1 = x0;
  const int32_t k = kRowBytes > 0 ? kRowBytes : r.k;
  const int32_t output_zero_point = r.output_zero_point;
  const int32_t groups = lr.live_groups;
  const mve::int32x4_t zp = mve::vdupq_n_s32(r.output_zero_point);
  const mve::int32x4_t lo = mve::vdupq_n_s32(r.act_min);
  const mve::int32x4_t hi = mve::vdupq_n_s32(r.act_max);
  const mve::mve_pred16_t last =
      mve::vctp8q(static_cast<uint32_t>(kVectors > 1 ? k - 16 * (kVectors - 1) : k));
  const int32_t steps = k / 16;
  const int32_t tail = k % 16;
  const Conv2dS8MvePixels x = conv2d_s8_mve_pixels<kVectors, kPair>(x0, x1, last);
  copy_constants(out0, lr.constants, r.out_c);
  if (kPair) copy_constants(out1, lr.constants, r.out_c);
  const int8_t* filter = r.filter;
  const int16_t* li = lr.live;

  auto finish = [&](const Conv2dS8MveAcc& acc, mve::int32x4_t idx) {
    const mve::int32x4_t mult = mve::vldrwq_gather_shifted_offset_s32(r.multipliers, idx);
    const mve::int32x4_t shift = mve::vldrwq_gather_shifted_offset_s32(r.shifts, idx);
    const mve::int32x4_t bias = mve::vldrwq_gather_shifted_offset_s32(r.bias_eff, idx);
    if (kRightShifts) {
      mve::vstrbq_scatter_offset_s32(
          out0, idx, conv2d_s8_mve_requant_right(mve::vaddq_s32(acc.p0, bias), mult, shift,
                                                 output_zero_point, lo, hi));
      if (kPair) {
        mve::vstrbq_scatter_offset_s32(
            out1, idx, conv2d_s8_mve_requant_right(mve::vaddq_s32(acc.p1, bias), mult, shift,
                                                   output_zero_point, lo, hi));
      }
      return;
    }
    const RequantS8x4 q = requant_s8x4_prepare(mult, shift);
    mve::vstrbq_scatter_offset_s32(out0, idx,
                                   requant_s8x4(mve::vaddq_s32(acc.p0, bias), q, zp, lo, hi));
    if (kPair) {
      mve::vstrbq_scatter_offset_s32(out1, idx,
                                     requant_s8x4(mve::vaddq_s32(acc.p1, bias), q, zp, lo, hi));
    }
  };

  if (kVectors > 0 && r.whole_groups == groups) {
    for (int32_t g = 0; g < groups; ++g, li += 4) {
      const mve::int32x4_t idx = mve::vldrhq_s32(li);
      finish(conv2d_s8_mve_near_2x4<kVectors, true>(x, filter + li[0] * k, filter + li[1] * k,
                                                    filter + li[2] * k, filter + li[3] * k,
                                                    last),
             idx);
    }
  } else if (kVectors > 0) {
    for (int32_t g = 0; g < groups; ++g, li += 4) {
      const mve::int32x4_t idx = mve::vldrhq_s32(li);
      finish(conv2d_s8_mve_near_2x4<kVectors, false>(x, filter + li[0] * k, filter + li[1] * k,
                                                     filter + li[2] * k, filter + li[3] * k,
                                                     last),
             idx);
    }
  } else if (kVectors == 0 && (kRowBytes == 64 || kRowBytes == 128)) {
    constexpr int kUnrolled = kRowBytes == 128 ? 128 : 64;
    for (int32_t g = 0; g < groups; ++g, li += 4) {
      const mve::int32x4_t idx = mve::vldrhq_s32(li);
      finish(conv2d_s8_mve_long_2x4_unrolled<kUnrolled>(x0, x1, filter + li[0] * k,
                                                        filter + li[1] * k, filter + li[2] * k,
                                                        filter + li[3] * k),
             idx);
    }
  } else {
    for (int32_t g = 0; g < groups; ++g, li += 4) {
      const mve::int32x4_t idx = mve::vldrhq_s32(li);
      finish(conv2d_s8_mve_long_2x4(x0, x1, filter + li[0] * k, filter + li[1] * k,
                                    filter + li[2] * k, filter + li[3] * k, steps, tail),
             idx);
    }
  }
}

template <int kVectors, bool kRightShifts, int kRowBytes>
__attribute__((always_inline)) inline void live_pixels(const LiveRows& lr, PixelWalk walk,
                                                       int32_t pixels, int8_t* out) {
  const int32_t out_c = lr.r.out_c;
  int32_t p = 0;
  for (; p + 2 <= pixels; p += 2) {
    const int8_t* x0 = walk.next();
    const int8_t* x1 = walk.next();
    live_rows<kVectors, true, kRightShifts, kRowBytes>(lr, x0, x1, out, out + out_c);
    out += 2 * out_c;
  }
  if (p < pixels) {
    live_rows<kVectors, false, kRightShifts, kRowBytes>(lr, walk.next(), nullptr, out, nullptr);
  }
}

template <int kVectors, bool kRightShifts, int kRowBytes = 0>
void live(const LiveRows& lr, PixelWalk walk, int32_t pixels, int8_t* out) {
  const LiveRows local = lr;
  live_pixels<kVectors, kRightShifts, kRowBytes>(local, walk, pixels, out);
}

// Every channel (r) or the live ones (kLive: lr; long rows only), by the row length's path.
template <bool kLive, int kVectors, bool kRightShifts, int kRowBytes = 0>
void run_path(const Conv2dS8MveRows& r, const LiveRows& lr, PixelWalk walk, int32_t pixels,
              int8_t* out) {
  if constexpr (kLive && kVectors == 0) {
    live<kVectors, kRightShifts, kRowBytes>(lr, walk, pixels, out);
  } else {
    pointwise<kVectors, kRightShifts, kRowBytes>(r, walk, pixels, out);
  }
}

template <bool kLive>
void run_rows(const Conv2dS8MveRows& r, const LiveRows& lr, PixelWalk walk, int32_t pixels,
              int8_t* output) {
  const int32_t k = r.k;
  if (k <= 16) {
    if (r.right_shifts && k == 8) {
      run_path<kLive, 1, true, 8>(r, lr, walk, pixels, output);
    } else if (r.right_shifts && k == 16) {
      run_path<kLive, 1, true, 16>(r, lr, walk, pixels, output);
    } else if (r.right_shifts) {
      run_path<kLive, 1, true>(r, lr, walk, pixels, output);
    } else {
      run_path<kLive, 1, false>(r, lr, walk, pixels, output);
    }
  } else if (k <= 32) {
    if (r.right_shifts) {
      run_path<kLive, 2, true>(r, lr, walk, pixels, output);
    } else {
      run_path<kLive, 2, false>(r, lr, walk, pixels, output);
    }
  } else if (k == 64) {
    // kws' pointwise layers, vww's 64- and 128-channel ones: the steps unrolled
    // (conv2d_s8_mve_long_2x2_unrolled).
    run_path<kLive, 0, false, 64>(r, lr, walk, pixels, output);
  } else if (k == 128) {
    run_path<kLive, 0, false, 128>(r, lr, walk, pixels, output);
  } else {
    run_path<kLive, 0, false>(r, lr, walk, pixels, output);
  }
}

}  // namespace

void conv2d_s8_1x1__mve(const Conv2dS8Params& params, const int32_t* multipliers,
                        const int32_t* shifts, const Conv2dShape& shape, const int8_t* input,
                        const int8_t* filter, const int32_t* bias, int8_t* output,
                        int32_t* scratch) {
  const int32_t k = shape.in_c;
  const int32_t out_c = shape.out_c;
  const Scratch s = scratch_parts(scratch, out_c);
  const Conv2dS8MveRows r = conv2d_s8_mve_rows_prepare(params, multipliers, shifts, filter,
                                                       s.bias_eff, out_c, k);
  // Rows in registers (k <= 32) always run every channel: their live instances would
  // cost about 8 KB of code, and vww's such layers have too few constant channels (its
  // dead channels sit in the 64- to 256-channel layers).
  if (k <= 32) conv2d_s8_mve_bias(filter, bias, out_c, k, -params.input_zero_point, s.bias_eff);
  const int32_t live =
      k <= 32          ? out_c
      : r.right_shifts ? split_channels<true>(params, multipliers, shifts, filter, bias, out_c, k, s)
                       : split_channels<false>(params, multipliers, shifts, filter, bias, out_c, k, s);
  const int32_t pixels = shape.batch * shape.out_h * shape.out_w;
  const bool contiguous = params.window.stride_w == 1 && params.window.stride_h == 1;
  PixelWalk walk;
  walk.image = walk.row = input;
  walk.ox = walk.oy = 0;
  walk.out_w = contiguous ? pixels : shape.out_w;
  walk.out_h = contiguous ? 1 : shape.out_h;
  walk.col_step = params.window.stride_w * k;
  walk.row_step = params.window.stride_h * shape.in_w * k;
  walk.image_step = shape.in_h * shape.in_w * k;
  // The live channels only when enough are constant: each block of four constant
  // channels saves 30 to 250 instructions per pixel pair (more for longer rows), the list
  // costs about 8 per block of live ones and the template 3 per 16 channels per pixel.
  // Measured on vww (m55): 21 of 128 constant with k = 64 saves 1.7% of the layer, so an
  // eighth.
  const int32_t dead = out_c - live;
  if (8 * dead < out_c) {
    run_rows<false>(r, LiveRows{}, walk, pixels, output);
    return;
  }
  LiveRows lr{r, s.live, round4(live) / 4, s.constants};
  // Whole row loads when the highest live row's stays inside the filter.
  const int32_t load = k <= 16 ? 16 : (k <= 32 ? 32 : 48);
  int32_t top = 0;
  for (int32_t i = 0; i < live; ++i) top = s.live[i] > top ? s.live[i] : top;
  lr.r.whole_groups = top * k + load <= out_c * k ? lr.live_groups : 0;
  run_rows<true>(r, lr, walk, pixels, output);
}

Status conv2d_s8_1x1__mve_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(conv2d_s8_check(ctx));
  const TensorDesc& filter = ctx.input_desc(1);
  const Conv2dS8Params& p = ctx.params<Conv2dS8Params>();
  if (filter.dims[1] != 1 || filter.dims[2] != 1 || p.groups != 1) return Status::kBadParams;
  if (p.window.pad_top != 0 || p.window.pad_left != 0 || p.window.pad_bottom != 0 || p.window.pad_right != 0) {
    return Status::kBadParams;
  }
  const Span<uint8_t> scratch = ctx.scratch();
  if (scratch.size() < conv2d_s8_1x1__mve_scratch_bytes(static_cast<int32_t>(filter.dims[0])) ||
      reinterpret_cast<uintptr_t>(scratch.data()) % 4 != 0) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void conv2d_s8_1x1__mve_run(const OpContext& ctx) {
  const Conv2dS8Operands o = conv2d_s8_operands(ctx);
  conv2d_s8_1x1__mve(o.params, o.multipliers, o.shifts, o.shape, o.input, o.filter, o.bias, o.output,
                     reinterpret_cast<int32_t*>(ctx.scratch().data()));
}

const KernelEntry kConv2dS81x1MveEntry = {conv2d_s8_1x1__mve_check, conv2d_s8_1x1__mve_run};

}  // namespace mote
