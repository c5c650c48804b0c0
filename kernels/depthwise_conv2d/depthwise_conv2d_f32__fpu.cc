// float32 depthwise convolution for cores with a single-precision FPU (hard float),
// depth multiplier 1, any KH x KW, stride, dilation and padding; the reference's results
// up to float rounding (each output sums bias, then the taps inside the image in (ky, kx)
// order, as depthwise_conv2d_f32 does, so on a given core and compiler the two agree bit
// for bit; the conformance suite allows the rounding of any summation order).
//
// The reference accumulates in the output buffer (a load and a store per product); here
// the sums stay in s-registers: two output pixels (in output order) x four channels, each
// weight loaded once for both pixels. Two pixels pair up when the image border cuts their
// windows the same way (every interior pixel); the others, and an odd last pixel, go one
// at a time. Channels past a multiple of four go one at a time. No scratch.
#include "depthwise_conv2d/depthwise_conv2d.h"
#include "depthwise_conv2d/depthwise_conv2d_f32_pairs.h"
#include "isa/fpu.h"
#include "kernel_util.h"
#include "pixel_pairs.h"

namespace mote {
namespace {

// Every channel of the pixels a (and b when kPair), whose windows have the same tap
// ranges; outputs at out_a / out_b.
struct Block {
  template <bool kPair, bool kClamp>
  static void pixels(const DepthwiseConv2dParams& params, const DepthwiseSteps s, const PixelWindow& wa,
                     const float* origin_b, const float* filter, const float* bias, float* out_a, float* out_b) {
    const float lo = params.act_min, hi = params.act_max;
    const float* const w_first = filter + wa.filter_offset;
    int32_t c = 0;
    for (; c + 4 <= s.c; c += 4) {
      float a0, a1, a2, a3;
      load_bias4(bias, c, a0, a1, a2, a3);
      float b0 = a0, b1 = a1, b2 = a2, b3 = a3;
      const float* xa_row = wa.origin + c;
      const float* xb_row = kPair ? origin_b + c : nullptr;
      const float* w_row = w_first + c;
      // One tap: its four weights on the four channels of each pixel.
      const auto tap = [&](const float* xa, const float* xb, const float* w) {
        if (kPair) {
          fpu::fma_lanes_2x4(a0, a1, a2, a3, b0, b1, b2, b3, xa, xb, w);
        } else {
          fpu::fma_lanes_1x4(a0, a1, a2, a3, xa, w);
        }
      };
      for (int32_t ky = 0; ky < wa.ky_count; ++ky) {
        const float* xa = xa_row;
        const float* xb = xb_row;
        const float* w = w_row;
        if (wa.kx_count == 3) {
          // A 3x3 filter's full window row, unrolled: the same taps in the same order,
          // without the loop's count and branch per tap.
          tap(xa, xb, w);
          tap(xa + s.col, kPair ? xb + s.col : nullptr, w + s.c);
          tap(xa + 2 * s.col, kPair ? xb + 2 * s.col : nullptr, w + 2 * s.c);
        } else {
          for (int32_t kx = 0; kx < wa.kx_count; ++kx) {
            tap(xa, xb, w);
            xa += s.col;
            if (kPair) xb += s.col;
            w += s.c;
          }
        }
        xa_row += s.row;
        if (kPair) xb_row += s.row;
        w_row += s.filter_row;
      }
      out_a[c] = activate<kClamp>(a0, lo, hi);
      out_a[c + 1] = activate<kClamp>(a1, lo, hi);
      out_a[c + 2] = activate<kClamp>(a2, lo, hi);
      out_a[c + 3] = activate<kClamp>(a3, lo, hi);
      if (kPair) {
        out_b[c] = activate<kClamp>(b0, lo, hi);
        out_b[c + 1] = activate<kClamp>(b1, lo, hi);
        out_b[c + 2] = activate<kClamp>(b2, lo, hi);
        out_b[c + 3] = activate<kClamp>(b3, lo, hi);
      }
    }
    for (; c < s.c; ++c) {
      for (int32_t p = 0; p < (kPair ? 2 : 1); ++p) {
        float acc = bias != nullptr ? bias[c] : 0.0f;
        const float* x_row = (p == 0 ? wa.origin : origin_b) + c;
        const float* w_row = w_first + c;
        for (int32_t ky = 0; ky < wa.ky_count; ++ky) {
          for (int32_t kx = 0; kx < wa.kx_count; ++kx) acc += x_row[kx * s.col] * w_row[kx * s.c];
          x_row += s.row;
          w_row += s.filter_row;
        }
        (p == 0 ? out_a : out_b)[c] = activate<kClamp>(acc, lo, hi);
      }
    }
  }
};

}  // namespace

void depthwise_conv2d_f32__fpu(const DepthwiseConv2dParams& params, const DepthwiseConv2dShape& shape,
                               const float* input, const float* filter, const float* bias, float* output) {
  depthwise_conv2d_f32_by_pixel_pairs<Block>(params, shape, input, filter, bias, output);
}

Status depthwise_conv2d_f32__fpu_check(const OpContext& ctx) { return depthwise_conv2d_f32_multiplier_1_check(ctx); }

void depthwise_conv2d_f32__fpu_run(const OpContext& ctx) {
  depthwise_conv2d_f32_run_op<depthwise_conv2d_f32__fpu>(ctx);
}

const KernelEntry kDepthwiseConv2dF32FpuEntry = {depthwise_conv2d_f32__fpu_check, depthwise_conv2d_f32__fpu_run};

}  // namespace mote
