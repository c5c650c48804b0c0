// The inner part shared by the Helium int8 convolution variants (internal): output
// pixels as rows of K = KH * KW * C input bytes (an input pixel for 1x1, an im2col row
// otherwise), filters as rows of K bytes (OHWI is already that layout), and
//   out[p][o] = requant(sum_k row_p[k] * filter_o[k] + bias_eff[o])
// where bias_eff[o] = bias[o] + input_offset * sum_k filter_o[k] (conv2d_s8_mve_bias):
// sum w * (x + off) == sum w * x + off * sum w exactly in wrapping int32, and a padding
// tap stored as x = input_zero_point (= -off) contributes w * 0 like the reference's
// skipped tap.
//
// Blocking: two pixel rows x four filter rows; the eight VMLADAV sums become two vectors
// of four channels (two two-lane VMOVs each), requantized four outputs at a time
// (quant/quant_math_mve.h).
// - Rows of K <= 48: each pixel row is one to three vectors loaded once per pixel pair
//   (lanes >= K zero), so a filter row may be loaded as 16, 32 or 48 whole bytes: lanes
//   >= K multiply 0. That is done when every group of four channels keeps those loads
//   inside the filter (K = 16, 32 or 48, or enough channels past the last group of
//   four); otherwise the last vector of each row loads under a predicate. Cost per
//   2 pixels x 4 channels (K <= 16): 4 loads, 8 VMLADAV, 4 VMOV, 2 x 7 requant when
//   every shift is negative.
// - Long rows: two passes of 2 pixels x 2 channels over 16-byte steps, the K % 16 tail
//   one predicated step.
// Output channels out_c % 4 run the same block with the missing rows replaced by the
// first one and their lanes not stored.
#pragma once

#include <stdint.h>

#include "conv2d/conv2d.h"
#include "isa/mve.h"
#include "quant/quant_math_mve.h"

namespace mote {

// sum_i a[i] * b[i], wrapping int32 (VMLADAV.S8): vmladavaq_s8 without the zeroed
// accumulator register.
__attribute__((always_inline)) inline int32_t conv2d_s8_mve_dot(mve::int8x16_t a,
                                                                mve::int8x16_t b) {
#if MOTE_HAS_MVE
  return __arm_vmladavq_s8(a, b);
#else
  return mve::vmladavaq_s8(0, a, b);
#endif
}

// {a, b, c, d} as one vector: two VMOV Qd[2], Qd[0], Rt, Rt2 (ACLE has no intrinsic for
// the two-lane move; vsetq_lane chains take four instructions).
__attribute__((always_inline)) inline mve::int32x4_t conv2d_s8_mve_lanes(int32_t a, int32_t b,
                                                                        int32_t c, int32_t d) {
#if MOTE_HAS_MVE
  mve::int32x4_t v;
  __asm__("vmov %q0[2], %q0[0], %1, %3\n\tvmov %q0[3], %q0[1], %2, %4"
          : "=&w"(v)
          : "r"(a), "r"(b), "r"(c), "r"(d));
  return v;
#else
  return {{a, b, c, d}};
#endif
}

// bias_eff[o] = bias[o] (0 without bias) + input_offset * sum of filter row o, wrapping.
inline void conv2d_s8_mve_bias(const int8_t* filter, const int32_t* bias, int32_t out_c,
                               int32_t k, int32_t input_offset, int32_t* bias_eff) {
  for (int32_t o = 0; o < out_c; ++o) {
    const int8_t* w = filter + o * k;
    int32_t sum = 0;
    int32_t n = k;
    for (; n >= 16; n -= 16, w += 16) sum = mve::vaddvaq_s8(sum, mve::vldrbq_s8(w));
    if (n > 0) {
      sum = mve::vaddvaq_s8(sum, mve::vldrbq_z_s8(w, mve::vctp8q(static_cast<uint32_t>(n))));
    }
    const uint32_t b = bias != nullptr ? static_cast<uint32_t>(bias[o]) : 0u;
    bias_eff[o] = static_cast<int32_t>(
        b + static_cast<uint32_t>(input_offset) * static_cast<uint32_t>(sum));
  }
}

// Everything about the filters and the output that is the same for every pixel pair.
struct Conv2dS8MveRows {
  const int8_t* filter;        // out_c rows of k bytes
  const int32_t* bias_eff;     // out_c (conv2d_s8_mve_bias)
  const int32_t* multipliers;  // out_c
  const int32_t* shifts;       // out_c
  int32_t out_c;
  int32_t k;
  int32_t output_zero_point;
  int32_t act_min;
  int32_t act_max;
  // Rows of k <= 48 bytes: the first `whole_groups` groups of four channels may load
  // 16, 32 or 48 bytes (k <= 16, 32, 48) at each of their filter rows without leaving
  // the filter.
  int32_t whole_groups;
  // Every shift < 0 (the usual case): requantization without the left shift
  // (conv2d_s8_mve_requant_right).
  bool right_shifts;
};

inline Conv2dS8MveRows conv2d_s8_mve_rows_prepare(const Conv2dS8Params& params,
                                                  const int32_t* multipliers,
                                                  const int32_t* shifts, const int8_t* filter,
                                                  const int32_t* bias_eff, int32_t out_c,
                                                  int32_t k) {
  // Group g reads up to filter + (4g + 3) * k + load, which must be <= filter + out_c * k.
  const int32_t load = k <= 16 ? 16 : (k <= 32 ? 32 : 48);
  int32_t whole = out_c / 4;
  while (whole > 0 && (4 * (whole - 1) + 3) * k + load > out_c * k) --whole;
  bool right_shifts = true;
  for (int32_t o = 0; o < out_c; ++o) right_shifts = right_shifts && shifts[o] < 0;
  return Conv2dS8MveRows{filter,          bias_eff,        multipliers,
                         shifts,          out_c,           k,
                         params.output_zero_point, params.act_min, params.act_max,
                         whole,           right_shifts};
}

// requant_s8x4 (quant/quant_math_mve.h) when every lane of shift is negative: the left
// shift is by 0 and (high & shift) >> 31 is high >> 31, so both steps drop out.
__attribute__((always_inline)) inline mve::int32x4_t conv2d_s8_mve_requant_right(
    mve::int32x4_t acc, mve::int32x4_t multiplier, mve::int32x4_t shift,
    int32_t output_zero_point, mve::int32x4_t lo, mve::int32x4_t hi) {
  const mve::int32x4_t high = mve::vqrdmulhq_s32(acc, multiplier);
  const mve::int32x4_t fixup = MOTE_MVE_VSHRQ_N_S32(high, 31);
  const mve::int32x4_t rounded = mve::vrshlq_s32(mve::vqaddq_s32(high, fixup), shift);
  const mve::int32x4_t out = mve::vaddq_n_s32(rounded, output_zero_point);
  return mve::vminq_s32(mve::vmaxq_s32(out, lo), hi);
}

// Two vectors of four channel sums, pixel 0 and pixel 1.
struct Conv2dS8MveAcc {
  mve::int32x4_t p0;
  mve::int32x4_t p1;
};

// Pixel rows held in registers: kVectors (1 to 3) vectors per pixel, lanes >= k zero.
struct Conv2dS8MvePixels {
  mve::int8x16_t x0a, x0b, x0c, x1a, x1b, x1c;
};

// Rows x0 and x1 (x0 twice without kPair) in registers for kVectors = 1 to 3; nothing
// loaded for 0. `last`: the lanes of the last vector inside the row.
template <int kVectors, bool kPair>
__attribute__((always_inline)) inline Conv2dS8MvePixels conv2d_s8_mve_pixels(
    const int8_t* x0, const int8_t* x1, mve::mve_pred16_t last) {
  Conv2dS8MvePixels x;
  x.x0a = x.x0b = x.x0c = x.x1a = x.x1b = x.x1c = mve::vdupq_n_s8(0);
  if (kVectors == 1) {
    x.x0a = mve::vldrbq_z_s8(x0, last);
    x.x1a = kPair ? mve::vldrbq_z_s8(x1, last) : x.x0a;
  } else if (kVectors == 2) {
    x.x0a = mve::vldrbq_s8(x0);
    x.x0b = mve::vldrbq_z_s8(x0 + 16, last);
    x.x1a = kPair ? mve::vldrbq_s8(x1) : x.x0a;
    x.x1b = kPair ? mve::vldrbq_z_s8(x1 + 16, last) : x.x0b;
  } else if (kVectors == 3) {
    x.x0a = mve::vldrbq_s8(x0);
    x.x0b = mve::vldrbq_s8(x0 + 16);
    x.x0c = mve::vldrbq_z_s8(x0 + 32, last);
    x.x1a = kPair ? mve::vldrbq_s8(x1) : x.x0a;
    x.x1b = kPair ? mve::vldrbq_s8(x1 + 16) : x.x0b;
    x.x1c = kPair ? mve::vldrbq_z_s8(x1 + 32, last) : x.x0c;
  }
  return x;
}

// One filter row w against both pixels: {x0.w, x1.w}. kWholeLoads: 16 * kVectors bytes at
// w may be read; otherwise the row's last vector loads under `last` (lanes < k % 16 or 16).
template <int kVectors, bool kWholeLoads>
__attribute__((always_inline)) inline void conv2d_s8_mve_near_row(const Conv2dS8MvePixels& x,
                                                                  const int8_t* w,
                                                                  mve::mve_pred16_t last,
                                                                  int32_t& a0, int32_t& a1) {
  if (kVectors == 1) {
    const mve::int8x16_t v = kWholeLoads ? mve::vldrbq_s8(w) : mve::vldrbq_z_s8(w, last);
    a0 = conv2d_s8_mve_dot(x.x0a, v);
    a1 = conv2d_s8_mve_dot(x.x1a, v);
  } else if (kVectors == 2) {
    const mve::int8x16_t va = mve::vldrbq_s8(w);
    const mve::int8x16_t vb =
        kWholeLoads ? mve::vldrbq_s8(w + 16) : mve::vldrbq_z_s8(w + 16, last);
    a0 = mve::vmladavaq_s8(conv2d_s8_mve_dot(x.x0a, va), x.x0b, vb);
    a1 = mve::vmladavaq_s8(conv2d_s8_mve_dot(x.x1a, va), x.x1b, vb);
  } else {
    const mve::int8x16_t va = mve::vldrbq_s8(w);
    const mve::int8x16_t vb = mve::vldrbq_s8(w + 16);
    const mve::int8x16_t vc =
        kWholeLoads ? mve::vldrbq_s8(w + 32) : mve::vldrbq_z_s8(w + 32, last);
    a0 = mve::vmladavaq_s8(mve::vmladavaq_s8(conv2d_s8_mve_dot(x.x0a, va), x.x0b, vb), x.x0c,
                           vc);
    a1 = mve::vmladavaq_s8(mve::vmladavaq_s8(conv2d_s8_mve_dot(x.x1a, va), x.x1b, vb), x.x1c,
                           vc);
  }
}

// Rows w0..w3 against both pixels held in registers.
template <int kVectors, bool kWholeLoads>
__attribute__((always_inline)) inline Conv2dS8MveAcc conv2d_s8_mve_near_2x4(
    const Conv2dS8MvePixels& x, const int8_t* w0, const int8_t* w1, const int8_t* w2,
    const int8_t* w3, mve::mve_pred16_t last) {
  int32_t a00, a10, a01, a11, a02, a12, a03, a13;
  conv2d_s8_mve_near_row<kVectors, kWholeLoads>(x, w0, last, a00, a10);
  conv2d_s8_mve_near_row<kVectors, kWholeLoads>(x, w1, last, a01, a11);
  conv2d_s8_mve_near_row<kVectors, kWholeLoads>(x, w2, last, a02, a12);
  conv2d_s8_mve_near_row<kVectors, kWholeLoads>(x, w3, last, a03, a13);
  return {conv2d_s8_mve_lanes(a00, a01, a02, a03), conv2d_s8_mve_lanes(a10, a11, a12, a13)};
}

// Long rows: {x0.wa, x0.wb, x1.wa, x1.wb} over `steps` 16-byte steps and a predicated
// tail step of `tail` bytes (0: none).
struct Conv2dS8MveDot2x2 {
  int32_t x0a, x0b, x1a, x1b;
};
__attribute__((always_inline)) inline Conv2dS8MveDot2x2 conv2d_s8_mve_long_2x2(
    const int8_t* x0, const int8_t* x1, const int8_t* wa, const int8_t* wb, int32_t steps,
    int32_t tail) {
  int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  for (int32_t s = 0; s < steps; ++s) {
    const mve::int8x16_t vx0 = mve::vldrbq_s8(x0);
    const mve::int8x16_t vx1 = mve::vldrbq_s8(x1);
    const mve::int8x16_t va = mve::vldrbq_s8(wa);
    const mve::int8x16_t vb = mve::vldrbq_s8(wb);
    a0 = mve::vmladavaq_s8(a0, vx0, va);
    a1 = mve::vmladavaq_s8(a1, vx0, vb);
    a2 = mve::vmladavaq_s8(a2, vx1, va);
    a3 = mve::vmladavaq_s8(a3, vx1, vb);
    x0 += 16;
    x1 += 16;
    wa += 16;
    wb += 16;
  }
  if (tail > 0) {
    const mve::mve_pred16_t p = mve::vctp8q(static_cast<uint32_t>(tail));
    const mve::int8x16_t vx0 = mve::vldrbq_z_s8(x0, p);
    const mve::int8x16_t vx1 = mve::vldrbq_z_s8(x1, p);
    const mve::int8x16_t va = mve::vldrbq_z_s8(wa, p);
    const mve::int8x16_t vb = mve::vldrbq_z_s8(wb, p);
    a0 = mve::vmladavaq_s8(a0, vx0, va);
    a1 = mve::vmladavaq_s8(a1, vx0, vb);
    a2 = mve::vmladavaq_s8(a2, vx1, va);
    a3 = mve::vmladavaq_s8(a3, vx1, vb);
  }
  return {a0, a1, a2, a3};
}

// One 16-byte step of the unrolled 2x2 passes below at byte offset `off` (a string
// literal): x0 and x1 against rows wa and wb, first (VMLADAV) or accumulating (VMLADAVA).
#define MOTE_MVE_STEP_2X2(op, off)                                                    \
  "vldrb.u8 q0, [%[x0], #" off "]\n\tvldrb.u8 q1, [%[x1], #" off "]\n\t"          \
  "vldrb.u8 q2, [%[wa], #" off "]\n\t" op " %[a0], q0, q2\n\t" op " %[a2], q1, q2\n\t" \
  "vldrb.u8 q2, [%[wb], #" off "]\n\t" op " %[a1], q0, q2\n\t" op " %[a3], q1, q2\n\t"

// conv2d_s8_mve_long_2x2 for rows of exactly kRowBytes = 64 or 128 bytes: the 16-byte
// steps unrolled with immediate offsets in one asm statement (8 instructions per step,
// no loop or its setup; the compiler's own unrolling spills), VMLADAV into even
// registers ("Te").
template <int kRowBytes>
__attribute__((always_inline)) inline Conv2dS8MveDot2x2 conv2d_s8_mve_long_2x2_unrolled(
    const int8_t* x0, const int8_t* x1, const int8_t* wa, const int8_t* wb) {
  static_assert(kRowBytes == 64 || kRowBytes == 128, "64 or 128 bytes");
#if MOTE_HAS_MVE
  using Row = const int8_t(*)[kRowBytes];
  int32_t a0, a1, a2, a3;
  if (kRowBytes == 64) {
    __asm__(MOTE_MVE_STEP_2X2("vmladav.s8", "0") MOTE_MVE_STEP_2X2("vmladava.s8", "16")
                MOTE_MVE_STEP_2X2("vmladava.s8", "32") MOTE_MVE_STEP_2X2("vmladava.s8", "48")
            : [a0] "=&Te"(a0), [a1] "=&Te"(a1), [a2] "=&Te"(a2), [a3] "=&Te"(a3)
            : [x0] "r"(x0), [x1] "r"(x1), [wa] "r"(wa), [wb] "r"(wb),
              "m"(*reinterpret_cast<Row>(x0)), "m"(*reinterpret_cast<Row>(x1)),
              "m"(*reinterpret_cast<Row>(wa)), "m"(*reinterpret_cast<Row>(wb))
            : "q0", "q1", "q2");
  } else {
    __asm__(MOTE_MVE_STEP_2X2("vmladav.s8", "0") MOTE_MVE_STEP_2X2("vmladava.s8", "16")
                MOTE_MVE_STEP_2X2("vmladava.s8", "32") MOTE_MVE_STEP_2X2("vmladava.s8", "48")
                MOTE_MVE_STEP_2X2("vmladava.s8", "64") MOTE_MVE_STEP_2X2("vmladava.s8", "80")
                MOTE_MVE_STEP_2X2("vmladava.s8", "96") MOTE_MVE_STEP_2X2("vmladava.s8", "112")
            : [a0] "=&Te"(a0), [a1] "=&Te"(a1), [a2] "=&Te"(a2), [a3] "=&Te"(a3)
            : [x0] "r"(x0), [x1] "r"(x1), [wa] "r"(wa), [wb] "r"(wb),
              "m"(*reinterpret_cast<Row>(x0)), "m"(*reinterpret_cast<Row>(x1)),
              "m"(*reinterpret_cast<Row>(wa)), "m"(*reinterpret_cast<Row>(wb))
            : "q0", "q1", "q2");
  }
  return {a0, a1, a2, a3};
#else
  return conv2d_s8_mve_long_2x2(x0, x1, wa, wb, kRowBytes / 16, 0);
#endif
}
#undef MOTE_MVE_STEP_2X2

template <int kRowBytes>
__attribute__((always_inline)) inline Conv2dS8MveAcc conv2d_s8_mve_long_2x4_unrolled(
    const int8_t* x0, const int8_t* x1, const int8_t* w0, const int8_t* w1, const int8_t* w2,
    const int8_t* w3) {
  const Conv2dS8MveDot2x2 a = conv2d_s8_mve_long_2x2_unrolled<kRowBytes>(x0, x1, w0, w1);
  const Conv2dS8MveDot2x2 b = conv2d_s8_mve_long_2x2_unrolled<kRowBytes>(x0, x1, w2, w3);
  return {conv2d_s8_mve_lanes(a.x0a, a.x0b, b.x0a, b.x0b),
          conv2d_s8_mve_lanes(a.x1a, a.x1b, b.x1a, b.x1b)};
}

__attribute__((always_inline)) inline Conv2dS8MveAcc conv2d_s8_mve_long_2x4(
    const int8_t* x0, const int8_t* x1, const int8_t* w0, const int8_t* w1, const int8_t* w2,
    const int8_t* w3, int32_t steps, int32_t tail) {
  const Conv2dS8MveDot2x2 a = conv2d_s8_mve_long_2x2(x0, x1, w0, w1, steps, tail);
  const Conv2dS8MveDot2x2 b = conv2d_s8_mve_long_2x2(x0, x1, w2, w3, steps, tail);
  return {conv2d_s8_mve_lanes(a.x0a, a.x0b, b.x0a, b.x0b),
          conv2d_s8_mve_lanes(a.x1a, a.x1b, b.x1a, b.x1b)};
}

// Output channels [0, out_c) of one or two pixels (kPair): rows x0, x1 (k bytes each)
// into out0, out1. Without kPair, x1 and out1 are not used. kVectors: 1, 2 or 3 for
// r.k <= 16, 32 or 48 (the pixel rows held in registers), 0 otherwise; kRightShifts:
// r.right_shifts; kRowBytes: r.k when known at compile time (its multiples become
// immediate offsets), else 0.
template <int kVectors, bool kPair, bool kRightShifts, int kRowBytes = 0>
__attribute__((always_inline)) inline void conv2d_s8_mve_rows(const Conv2dS8MveRows& r,
                                                              const int8_t* x0,
                                                              const int8_t* x1, int8_t* out0,
                                                              int8_t* out1) {
  if (!kPair) x1 = x0;
  // Locals, not r's fields: every int8 store below may alias r as far as the compiler
  // knows, which would reload them after each store.
  const int32_t k = kRowBytes > 0 ? kRowBytes : r.k;
  const int32_t output_zero_point = r.output_zero_point;
  const int32_t whole_groups = r.whole_groups;
  const int32_t groups = r.out_c / 4;
  const int32_t left = r.out_c - 4 * groups;
  const mve::int32x4_t zp = mve::vdupq_n_s32(r.output_zero_point);
  const mve::int32x4_t lo = mve::vdupq_n_s32(r.act_min);
  const mve::int32x4_t hi = mve::vdupq_n_s32(r.act_max);
  // The last vector of a row: lanes [0, k - 16 * (kVectors - 1)).
  const mve::mve_pred16_t last =
      mve::vctp8q(static_cast<uint32_t>(kVectors > 1 ? k - 16 * (kVectors - 1) : k));
  const int32_t steps = k / 16;
  const int32_t tail = k % 16;
  const Conv2dS8MvePixels x = conv2d_s8_mve_pixels<kVectors, kPair>(x0, x1, last);
  const int8_t* w = r.filter;
  const int32_t* m = r.multipliers;
  const int32_t* s = r.shifts;
  const int32_t* b = r.bias_eff;
  int8_t* y0 = out0;
  int8_t* y1 = out1;

  // Requantizes and stores four channels, then moves on to the next four.
  auto finish = [&](const Conv2dS8MveAcc& acc) {
    if (kRightShifts) {
      const mve::int32x4_t mult = mve::vldrwq_s32(m);
      const mve::int32x4_t shift = mve::vldrwq_s32(s);
      const mve::int32x4_t bias = mve::vldrwq_s32(b);
      mve::vstrbq_s32(y0, conv2d_s8_mve_requant_right(mve::vaddq_s32(acc.p0, bias), mult, shift,
                                                      output_zero_point, lo, hi));
      if (kPair) {
        mve::vstrbq_s32(y1, conv2d_s8_mve_requant_right(mve::vaddq_s32(acc.p1, bias), mult,
                                                        shift, output_zero_point, lo, hi));
        y1 += 4;
      }
      y0 += 4;
      w += 4 * k;
      m += 4;
      s += 4;
      b += 4;
      return;
    }
    const RequantS8x4 q = requant_s8x4_prepare(mve::vldrwq_s32(m), mve::vldrwq_s32(s));
    const mve::int32x4_t bias = mve::vldrwq_s32(b);
    mve::vstrbq_s32(y0, requant_s8x4(mve::vaddq_s32(acc.p0, bias), q, zp, lo, hi));
    if (kPair) {
      mve::vstrbq_s32(y1, requant_s8x4(mve::vaddq_s32(acc.p1, bias), q, zp, lo, hi));
      y1 += 4;
    }
    y0 += 4;
    w += 4 * k;
    m += 4;
    s += 4;
    b += 4;
  };

  int32_t g = 0;
  if (kVectors > 0 && whole_groups == groups) {
    for (; g < groups; ++g) {
      finish(conv2d_s8_mve_near_2x4<kVectors, true>(x, w, w + k, w + 2 * k, w + 3 * k, last));
    }
  } else if (kVectors > 0) {
    // One loop, not whole groups then predicated ones: its setup costs more than the
    // predicates.
    for (; g < groups; ++g) {
      finish(conv2d_s8_mve_near_2x4<kVectors, false>(x, w, w + k, w + 2 * k, w + 3 * k, last));
    }
  } else if (kVectors == 0 && (kRowBytes == 64 || kRowBytes == 128)) {
    constexpr int kUnrolled = kRowBytes == 128 ? 128 : 64;
    for (; g < groups; ++g) {
      finish(conv2d_s8_mve_long_2x4_unrolled<kUnrolled>(x0, x1, w, w + k, w + 2 * k,
                                                        w + 3 * k));
    }
  } else {
    for (; g < groups; ++g) {
      finish(conv2d_s8_mve_long_2x4(x0, x1, w, w + k, w + 2 * k, w + 3 * k, steps, tail));
    }
  }
  if (left == 0) return;
  // 1..3 channels: rows past the last one repeat the first; their lanes are not stored.
  const int8_t* w1 = left > 1 ? w + k : w;
  const int8_t* w2 = left > 2 ? w + 2 * k : w;
  const Conv2dS8MveAcc acc =
      kVectors > 0 ? conv2d_s8_mve_near_2x4<kVectors, false>(x, w, w1, w2, w, last)
                   : conv2d_s8_mve_long_2x4(x0, x1, w, w1, w2, w, steps, tail);
  const mve::mve_pred16_t pc = mve::vctp32q(static_cast<uint32_t>(left));
  const RequantS8x4 q =
      requant_s8x4_prepare(mve::vldrwq_z_s32(m, pc), mve::vldrwq_z_s32(s, pc));
  const mve::int32x4_t bias = mve::vldrwq_z_s32(b, pc);
  mve::vstrbq_p_s32(y0, requant_s8x4(mve::vaddq_s32(acc.p0, bias), q, zp, lo, hi), pc);
  if (kPair) {
    mve::vstrbq_p_s32(y1, requant_s8x4(mve::vaddq_s32(acc.p1, bias), q, zp, lo, hi), pc);
  }
}

}  // namespace mote
