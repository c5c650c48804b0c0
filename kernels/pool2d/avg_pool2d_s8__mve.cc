// Helium (MVE) int8 average pooling; bit-exact with avg_pool2d_s8 (pool2d.h).
//
// Per output pixel the taps inside the image are found once; channels go 4 at a time in
// int32 lanes (the last block tail-predicated), summing the n taps with VLDRB.S32 + VADD.
// The reference's C division rounding half away from zero,
//   sum > 0 ? (sum + n/2) / n : (sum - n/2) / n,
// is sign(sum) * floor((|sum| + n/2) / n) (0 when sum == 0). The floor division of
// v = |sum| + n/2 <= 128 n + n/2 by n >= 2 is one VQDMULH by M = ceil(2^31 / n):
// floor(2 v M / 2^32) = floor(v M / 2^31) = floor(v / n + v e / (n 2^31)) with
// e = M n - 2^31 in [0, n), which equals floor(v / n) whenever v n < 2^31, i.e. for
// n <= 4087 windows (v n <= 128.5 n^2). check() limits kernel_h * kernel_w to
// kAvgPool2dS8MveMaxTaps. n == 1 is the tap itself.
#include "isa/mve.h"
#include "kernel_util.h"
#include "pool2d/pool2d.h"
#include "pool2d/pool2d_integer.h"

namespace mote {

namespace {

using mve::int32x4_t;
using mve::mve_pred16_t;

// One pixel's channels [c, c + 4) (fewer in the tail), divided by count.
inline int32x4_t window_sum(const int8_t* first_tap, int32_t row_stride, int32_t rows,
                            int32_t cols, int32_t channels, mve_pred16_t pred) {
  int32x4_t sum = mve::vdupq_n_s32(0);
  for (int32_t y = 0; y < rows; ++y) {
    const int8_t* p = first_tap + y * row_stride;
    for (int32_t x = 0; x < cols; ++x) {
      sum = mve::vaddq_s32(sum, mve::vldrbq_z_s32(p, pred));
      p += channels;
    }
  }
  return sum;
}

}  // namespace

void avg_pool2d_s8__mve(const Pool2dS8Params& params, const Pool2dShape& shape,
                        const int8_t* input, int8_t* output) {
  const int32_t channels = shape.channels;
  const int32_t in_row_stride = shape.in_w * channels;
  const int32_t in_image_stride = shape.in_h * in_row_stride;
  const int32x4_t act_min = mve::vdupq_n_s32(params.act_min);
  const int32x4_t act_max = mve::vdupq_n_s32(params.act_max);
  for (int32_t b = 0; b < shape.batch; ++b) {
    const int8_t* image = input + b * in_image_stride;
    for (int32_t oy = 0; oy < shape.out_h; ++oy) {
      const int32_t y0 = oy * params.window.stride_h - params.window.pad_top;
      const TapRange ky = taps_inside(y0, 1, params.kernel_h, shape.in_h);
      for (int32_t ox = 0; ox < shape.out_w; ++ox) {
        const int32_t x0 = ox * params.window.stride_w - params.window.pad_left;
        const TapRange kx = taps_inside(x0, 1, params.kernel_w, shape.in_w);
        const int32_t rows = ky.end - ky.begin;
        const int32_t cols = kx.end - kx.begin;
        const int32_t count = rows * cols;
        const int8_t* first_tap = image + (y0 + ky.begin) * in_row_stride + (x0 + kx.begin) * channels;
        // count >= 1 (check()); M = ceil(2^31 / count) for count >= 2.
        const int32_t half = count / 2;
        const int32_t reciprocal =
            count >= 2 ? static_cast<int32_t>(((uint32_t{1} << 31) + static_cast<uint32_t>(count) - 1u) /
                                              static_cast<uint32_t>(count))
                       : 0;
        for (int32_t c = 0; c < channels; c += 4) {
          const mve_pred16_t pred = mve::vctp32q(static_cast<uint32_t>(channels - c));
          const int32x4_t sum = window_sum(first_tap + c, in_row_stride, rows, cols, channels, pred);
          int32x4_t avg = sum;
          if (count >= 2) {
            const int32x4_t magnitude = mve::vaddq_n_s32(mve::vabsq_s32(sum), half);
            const int32x4_t quotient =
                mve::vqdmulhq_s32(magnitude, mve::vdupq_n_s32(reciprocal));
            const int32x4_t sign = MOTE_MVE_VSHRQ_N_S32(sum, 31);  // 0 or -1
            avg = mve::vsubq_s32(mve::veorq_s32(quotient, sign), sign);
          }
          mve::vstrbq_p_s32(output + c, mve::vminq_s32(mve::vmaxq_s32(avg, act_min), act_max),
                            pred);
        }
        output += channels;
      }
    }
  }
}

Status avg_pool2d_s8__mve_check(const OpContext& ctx) {
  return pool2d_integer::check<int8_t, Pool2dS8Params>(ctx, kAvgPool2dS8MveMaxTaps);
}

void avg_pool2d_s8__mve_run(const OpContext& ctx) {
  pool2d_integer::run<int8_t, Pool2dS8Params, avg_pool2d_s8__mve>(ctx);
}

const KernelEntry kAvgPool2dS8MveEntry = {avg_pool2d_s8__mve_check, avg_pool2d_s8__mve_run};

}  // namespace mote
