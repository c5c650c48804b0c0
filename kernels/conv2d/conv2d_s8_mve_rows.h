// The inner part shared by the Helium int8 convolution variants (internal): output
// pixels as rows of K = KH * KW * C input bytes (an input pixel for 1x1, an im2col row
// otherwise), filters as rows of K bytes (OHWI is already that layout), and
//   out[p][o] = requant(sum_k row_p[k] * filter_o[k] + bias_eff[o])
// where bias_eff[o] = bias[o] + input_offset * sum_k filter_o[k] (conv2d_s8_mve_bias):
// sum w * (x + off) == sum w * x + off * sum w exactly in wrapping int32, and a padding
// tap stored as x = input_zero_point (= -off) contributes w * 0 like the reference's
// skipped tap.
//
// Blocking: two pixel rows x two filter rows per pass (four VMLADAVA per four 16-byte
// loads), two passes per group of four output channels, whose accumulators are then
// requantized together (quant/quant_math_mve.h). K % 16 is one predicated step; K <= 16
// loads each pixel row once per group of four channels.
#pragma once

#include <stdint.h>

#include "conv2d/conv2d.h"
#include "isa/mve.h"
#include "quant/quant_math_mve.h"

namespace mote {

// {a, b, c, d} as one vector.
inline mve::int32x4_t conv2d_s8_mve_lanes(int32_t a, int32_t b, int32_t c, int32_t d) {
  mve::int32x4_t v = mve::vdupq_n_s32(a);
  v = mve::vsetq_lane_s32<1>(b, v);
  v = mve::vsetq_lane_s32<2>(c, v);
  return mve::vsetq_lane_s32<3>(d, v);
}

// acc[0] = x0.w0, acc[1] = x0.w1, acc[2] = x1.w0, acc[3] = x1.w1 over k bytes.
inline void conv2d_s8_mve_dot_2x2(const int8_t* x0, const int8_t* x1, const int8_t* w0,
                                  const int8_t* w1, int32_t k, int32_t* acc) {
  int32_t a00 = 0, a01 = 0, a10 = 0, a11 = 0;
  for (; k >= 16; k -= 16) {
    const mve::int8x16_t vx0 = mve::vldrbq_s8(x0);
    const mve::int8x16_t vx1 = mve::vldrbq_s8(x1);
    const mve::int8x16_t vw0 = mve::vldrbq_s8(w0);
    const mve::int8x16_t vw1 = mve::vldrbq_s8(w1);
    a00 = mve::vmladavaq_s8(a00, vx0, vw0);
    a01 = mve::vmladavaq_s8(a01, vx0, vw1);
    a10 = mve::vmladavaq_s8(a10, vx1, vw0);
    a11 = mve::vmladavaq_s8(a11, vx1, vw1);
    x0 += 16;
    x1 += 16;
    w0 += 16;
    w1 += 16;
  }
  if (k > 0) {
    const mve::mve_pred16_t p = mve::vctp8q(static_cast<uint32_t>(k));
    const mve::int8x16_t vx0 = mve::vldrbq_z_s8(x0, p);
    const mve::int8x16_t vx1 = mve::vldrbq_z_s8(x1, p);
    const mve::int8x16_t vw0 = mve::vldrbq_z_s8(w0, p);
    const mve::int8x16_t vw1 = mve::vldrbq_z_s8(w1, p);
    a00 = mve::vmladavaq_s8(a00, vx0, vw0);
    a01 = mve::vmladavaq_s8(a01, vx0, vw1);
    a10 = mve::vmladavaq_s8(a10, vx1, vw0);
    a11 = mve::vmladavaq_s8(a11, vx1, vw1);
  }
  acc[0] = a00;
  acc[1] = a01;
  acc[2] = a10;
  acc[3] = a11;
}

// Four filter rows w, w + k, w + 2k, w + 3k against two pixel rows, k bytes each:
// acc[j] = x0.w_j, acc[4 + j] = x1.w_j. k <= 16 is one predicated load per row and no
// loop; longer rows take two 2x2 passes.
inline void conv2d_s8_mve_dot_2x4(const int8_t* x0, const int8_t* x1, const int8_t* w,
                                  int32_t k, int32_t* acc) {
  if (k <= 16) {
    const mve::mve_pred16_t p = mve::vctp8q(static_cast<uint32_t>(k));
    const mve::int8x16_t vx0 = mve::vldrbq_z_s8(x0, p);
    const mve::int8x16_t vx1 = mve::vldrbq_z_s8(x1, p);
    for (int j = 0; j < 4; ++j) {
      const mve::int8x16_t vw = mve::vldrbq_z_s8(w + j * k, p);
      acc[j] = mve::vmladavaq_s8(0, vx0, vw);
      acc[4 + j] = mve::vmladavaq_s8(0, vx1, vw);
    }
    return;
  }
  int32_t a[8];
  conv2d_s8_mve_dot_2x2(x0, x1, w, w + k, k, a);
  conv2d_s8_mve_dot_2x2(x0, x1, w + 2 * k, w + 3 * k, k, a + 4);
  acc[0] = a[0];
  acc[1] = a[1];
  acc[2] = a[4];
  acc[3] = a[5];
  acc[4] = a[2];
  acc[5] = a[3];
  acc[6] = a[6];
  acc[7] = a[7];
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

// Output channels [0, out_c) of two pixels: rows x0, x1 (k bytes each) into out0, out1.
// out1 == nullptr: one pixel (x1 is then read but its results dropped; pass x1 = x0).
inline void conv2d_s8_mve_rows(const Conv2dS8Params& params, const int32_t* multipliers,
                               const int32_t* shifts, const int8_t* filter,
                               const int32_t* bias_eff, int32_t out_c, int32_t k,
                               const int8_t* x0, const int8_t* x1, int8_t* out0,
                               int8_t* out1) {
  const mve::int32x4_t zp = mve::vdupq_n_s32(params.output_zero_point);
  const mve::int32x4_t lo = mve::vdupq_n_s32(params.act_min);
  const mve::int32x4_t hi = mve::vdupq_n_s32(params.act_max);
  int32_t o = 0;
  for (; o + 4 <= out_c; o += 4) {
    const int8_t* w = filter + o * k;
    int32_t a[8];
    conv2d_s8_mve_dot_2x4(x0, x1, w, k, a);
    const RequantS8x4 q =
        requant_s8x4_prepare(mve::vldrwq_s32(multipliers + o), mve::vldrwq_s32(shifts + o));
    const mve::int32x4_t b = mve::vldrwq_s32(bias_eff + o);
    const mve::int32x4_t acc0 = conv2d_s8_mve_lanes(a[0], a[1], a[2], a[3]);
    mve::vstrbq_s32(out0 + o, requant_s8x4(mve::vaddq_s32(acc0, b), q, zp, lo, hi));
    if (out1 != nullptr) {
      const mve::int32x4_t acc1 = conv2d_s8_mve_lanes(a[4], a[5], a[6], a[7]);
      mve::vstrbq_s32(out1 + o, requant_s8x4(mve::vaddq_s32(acc1, b), q, zp, lo, hi));
    }
  }
  if (o < out_c) {
    // 1..3 channels left: the same with unused lanes zeroed and not stored.
    const int32_t left = out_c - o;
    const int8_t* w = filter + o * k;
    int32_t a[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    conv2d_s8_mve_dot_2x2(x0, x1, w, left > 1 ? w + k : w, k, a);
    if (left > 2) conv2d_s8_mve_dot_2x2(x0, x1, w + 2 * k, w + 2 * k, k, a + 4);
    int32_t m[4] = {0, 0, 0, 0}, s[4] = {0, 0, 0, 0}, be[4] = {0, 0, 0, 0};
    for (int32_t i = 0; i < left; ++i) {
      m[i] = multipliers[o + i];
      s[i] = shifts[o + i];
      be[i] = bias_eff[o + i];
    }
    const int32_t p0[4] = {a[0], a[1], a[4], 0};
    const int32_t p1[4] = {a[2], a[3], a[6], 0};
    const RequantS8x4 q = requant_s8x4_prepare(mve::vldrwq_s32(m), mve::vldrwq_s32(s));
    const mve::int32x4_t b = mve::vldrwq_s32(be);
    const mve::mve_pred16_t pred = mve::vctp32q(static_cast<uint32_t>(left));
    mve::vstrbq_p_s32(out0 + o,
                      requant_s8x4(mve::vaddq_s32(mve::vldrwq_s32(p0), b), q, zp, lo, hi),
                      pred);
    if (out1 != nullptr) {
      mve::vstrbq_p_s32(out1 + o,
                        requant_s8x4(mve::vaddq_s32(mve::vldrwq_s32(p1), b), q, zp, lo, hi),
                        pred);
    }
  }
}

}  // namespace mote
