// float32 convolution for cores with a single-precision FPU (hard float), groups == 1,
// any KH x KW, stride, dilation and padding; the reference's results up to float
// rounding (each output sums the same products in the same order as conv2d_f32: bias,
// then the taps inside the image in (ky, kx, channel) order, so on a given core and
// compiler the two agree bit for bit; the conformance suite allows the rounding of any
// summation order).
//
// Register blocking: outputs are taken two pixels (in output order) x four channels at a
// time, eight accumulators in s-registers; each input value loaded feeds four products,
// each weight two. Two pixels pair up when their windows are cut by the image border the
// same way (same tap ranges), which all pixels of a 1x1 unpadded convolution and every
// interior pixel of a larger one do; the others, and an odd last pixel, go one at a time.
// A pixel's window is walked in runs of contiguous values: with dilation_w == 1 the taps
// of one window row are contiguous in the input and in the filter (KW_inside * C
// values), so a 1x1 convolution is a single run of C values per pixel. Runs are unrolled
// four values at a time. Output channels past a multiple of four go one at a time.
// No scratch.
#include "conv2d/conv2d.h"
#include "conv2d/conv2d_f32_pairs.h"
#include "isa/fpu.h"
#include "kernel_util.h"
#include "pixel_pairs.h"

namespace mote {
namespace {

// Accumulators of two pixels (a, b) x four channels (0..3).
struct Acc2x4 {
  float a0, a1, a2, a3, b0, b1, b2, b3;
};

// acc += n products of the run at xa / xb with the four filter runs w, w + ws, ...
__attribute__((always_inline)) inline void run_2x4(Acc2x4& acc, const float* xa, const float* xb, const float* w,
                                                   int32_t ws, int32_t n) {
  float a0 = acc.a0, a1 = acc.a1, a2 = acc.a2, a3 = acc.a3;
  float b0 = acc.b0, b1 = acc.b1, b2 = acc.b2, b3 = acc.b3;
  const float* w0 = w;
  const float* w1 = w + ws;
  const float* w2 = w1 + ws;
  const float* w3 = w2 + ws;
  for (; n >= 4; n -= 4) fpu::fma_2x4_step4(a0, a1, a2, a3, b0, b1, b2, b3, xa, xb, w0, w1, w2, w3);
  for (; n > 0; --n) {
    const float x = *xa++, y = *xb++;
    const float v0 = *w0++, v1 = *w1++, v2 = *w2++, v3 = *w3++;
    a0 += x * v0;
    b0 += y * v0;
    a1 += x * v1;
    b1 += y * v1;
    a2 += x * v2;
    b2 += y * v2;
    a3 += x * v3;
    b3 += y * v3;
  }
  acc = Acc2x4{a0, a1, a2, a3, b0, b1, b2, b3};
}

// One pixel x four channels.
struct Acc1x4 {
  float a0, a1, a2, a3;
};
__attribute__((always_inline)) inline void run_1x4(Acc1x4& acc, const float* xa, const float* w, int32_t ws,
                                                   int32_t n) {
  float a0 = acc.a0, a1 = acc.a1, a2 = acc.a2, a3 = acc.a3;
  const float* w0 = w;
  const float* w1 = w + ws;
  const float* w2 = w1 + ws;
  const float* w3 = w2 + ws;
  for (; n >= 4; n -= 4) fpu::fma_1x4_step4(a0, a1, a2, a3, xa, w0, w1, w2, w3);
  for (; n > 0; --n) {
    const float x = *xa++;
    a0 += x * *w0++;
    a1 += x * *w1++;
    a2 += x * *w2++;
    a3 += x * *w3++;
  }
  acc = Acc1x4{a0, a1, a2, a3};
}

// One pixel x one channel.
inline float run_1x1(float acc, const float* xa, const float* w, int32_t n) {
  for (int32_t i = 0; i < n; ++i) acc += xa[i] * w[i];
  return acc;
}

// acc += the products of a window whose runs start at xa / xb and w (channel 0 of the
// four; the others fs values apart): row by row, runs_per_row runs each.
__attribute__((always_inline)) inline void window_2x4(Acc2x4& acc, const WindowRuns& walk, int32_t ky_count,
                                                      const float* xa, const float* xb, const float* w) {
  if (ky_count == 1 && walk.runs_per_row == 1) {  // e.g. every 1x1 convolution
    run_2x4(acc, xa, xb, w, walk.filter_oc, walk.run_length);
    return;
  }
  for (int32_t ky = 0; ky < ky_count; ++ky, xa += walk.row_step, xb += walk.row_step, w += walk.filter_row) {
    const float* ra = xa;
    const float* rb = xb;
    const float* rw = w;
    for (int32_t r = 0; r < walk.runs_per_row; ++r, ra += walk.run_step, rb += walk.run_step, rw += walk.in_c) {
      run_2x4(acc, ra, rb, rw, walk.filter_oc, walk.run_length);
    }
  }
}
__attribute__((always_inline)) inline void window_1x4(Acc1x4& acc, const WindowRuns& walk, int32_t ky_count,
                                                      const float* xa, const float* w) {
  for (int32_t ky = 0; ky < ky_count; ++ky, xa += walk.row_step, w += walk.filter_row) {
    const float* ra = xa;
    const float* rw = w;
    for (int32_t r = 0; r < walk.runs_per_row; ++r, ra += walk.run_step, rw += walk.in_c) {
      run_1x4(acc, ra, rw, walk.filter_oc, walk.run_length);
    }
  }
}
inline float window_1x1(float acc, const WindowRuns& walk, int32_t ky_count, const float* x, const float* w) {
  for (int32_t ky = 0; ky < ky_count; ++ky, x += walk.row_step, w += walk.filter_row) {
    const float* rx = x;
    const float* rw = w;
    for (int32_t r = 0; r < walk.runs_per_row; ++r, rx += walk.run_step, rw += walk.in_c) {
      acc = run_1x1(acc, rx, rw, walk.run_length);
    }
  }
  return acc;
}

// Every output channel of the pixels a (and b when kPair), whose windows have the same
// tap ranges; outputs at out_a / out_b. (The walk is a copy: the asm steps clobber memory.)
struct Block {
  template <bool kPair, bool kClamp>
  static void pixels(const Conv2dParams& params, const WindowRuns walk, int32_t out_c, const PixelWindow& wa,
                     const float* origin_b, const float* filter, const float* bias, float* out_a, float* out_b) {
    const float lo = params.act_min, hi = params.act_max;
    const int32_t fs = walk.filter_oc;
    const int32_t ky_count = wa.ky_count;
    const float* const xa = wa.origin;
    const float* w_oc = filter + wa.filter_offset;
    int32_t oc = 0;
    for (; oc + 4 <= out_c; oc += 4, w_oc += 4 * fs) {
      float c0, c1, c2, c3;
      load_bias4(bias, oc, c0, c1, c2, c3);
      if (kPair) {
        Acc2x4 acc{c0, c1, c2, c3, c0, c1, c2, c3};
        window_2x4(acc, walk, ky_count, xa, origin_b, w_oc);
        out_a[oc] = activate<kClamp>(acc.a0, lo, hi);
        out_a[oc + 1] = activate<kClamp>(acc.a1, lo, hi);
        out_a[oc + 2] = activate<kClamp>(acc.a2, lo, hi);
        out_a[oc + 3] = activate<kClamp>(acc.a3, lo, hi);
        out_b[oc] = activate<kClamp>(acc.b0, lo, hi);
        out_b[oc + 1] = activate<kClamp>(acc.b1, lo, hi);
        out_b[oc + 2] = activate<kClamp>(acc.b2, lo, hi);
        out_b[oc + 3] = activate<kClamp>(acc.b3, lo, hi);
      } else {
        Acc1x4 acc{c0, c1, c2, c3};
        window_1x4(acc, walk, ky_count, xa, w_oc);
        out_a[oc] = activate<kClamp>(acc.a0, lo, hi);
        out_a[oc + 1] = activate<kClamp>(acc.a1, lo, hi);
        out_a[oc + 2] = activate<kClamp>(acc.a2, lo, hi);
        out_a[oc + 3] = activate<kClamp>(acc.a3, lo, hi);
      }
    }
    for (; oc < out_c; ++oc, w_oc += fs) {
      const float c = bias != nullptr ? bias[oc] : 0.0f;
      out_a[oc] = activate<kClamp>(window_1x1(c, walk, ky_count, xa, w_oc), lo, hi);
      if (kPair) out_b[oc] = activate<kClamp>(window_1x1(c, walk, ky_count, origin_b, w_oc), lo, hi);
    }
  }
};

}  // namespace

void conv2d_f32__fpu(const Conv2dParams& params, const Conv2dShape& shape, const float* input, const float* filter,
                     const float* bias, float* output) {
  conv2d_f32_by_pixel_pairs<Block>(params, shape, input, filter, bias, output);
}

Status conv2d_f32__fpu_check(const OpContext& ctx) { return conv2d_f32_ungrouped_check(ctx); }

void conv2d_f32__fpu_run(const OpContext& ctx) { conv2d_f32_run_op<conv2d_f32__fpu>(ctx); }

const KernelEntry kConv2dF32FpuEntry = {conv2d_f32__fpu_check, conv2d_f32__fpu_run};

}  // namespace mote
