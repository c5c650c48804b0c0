// Helium (MVE) int16 average pooling; bit-exact with avg_pool2d_s16 (pool2d.h).
//
// Per output pixel the taps inside the image are found once; channels go 8 at a time in
// two vectors of int32 lanes (the last block tail-predicated), summing the n taps with
// VLDRH.S32 + VADD (int32 sums, as the reference's). The reference's C division rounding
// half away from zero,
//   sum > 0 ? (sum + n/2) / n : (sum - n/2) / n,
// is sign(sum) * floor(v / n) with v = |sum| + n/2 (0 when sum == 0). For n >= 2 let
// t = floor(log2(n - 1)) (so 2^t < n <= 2^(t+1)) and M = ceil(2^(31+t) / n) < 2^31; then
// floor(v / n) = VQDMULH(v, M) >> t: VQDMULH gives floor(v M / 2^31) (no saturation),
// and v M / 2^(31+t) = v / n + v e / (n 2^(31+t)) with e = M n - 2^(31+t) in [0, n), so
// the floor is floor(v / n) whenever v e < 2^(31+t), which v < 2^30 and e < n <= 2^(t+1)
// guarantee. v <= 32768 n + n/2 < 2^30 for n <= kAvgPool2dS16MveMaxTaps = 32767, the
// bound check() puts on kernel_h * kernel_w. n == 1 is the tap itself. M and t change
// only where a window's count does (the padded edges) and are kept between pixels.
#include "isa/mve.h"
#include "kernel_util.h"
#include "pool2d/pool2d.h"
#include "pool2d/pool2d_integer.h"

namespace mote {

namespace {

using mve::int32x4_t;
using mve::mve_pred16_t;

// The division by count as avg_pool2d_s16__mve's header derives it.
struct Reciprocal {
  int32_t count = 0;
  int32_t half = 0;
  int32_t multiplier = 0;  // M (count >= 2)
  int32_t right = 0;       // -t, the VSHL amount
};

inline void set_count(Reciprocal& r, int32_t count) {
  if (count == r.count) return;
  r.count = count;
  r.half = count / 2;
  if (count < 2) return;
  int32_t t = 0;
  while ((int32_t{2} << t) < count) ++t;  // 2^t < count <= 2^(t+1)
  const uint64_t power = uint64_t{1} << (31 + t);
  r.multiplier = static_cast<int32_t>((power + static_cast<uint64_t>(count) - 1u) /
                                      static_cast<uint64_t>(count));
  r.right = -t;
}

inline int32x4_t divide(int32x4_t sum, const Reciprocal& r) {
  if (r.count < 2) return sum;
  const int32x4_t magnitude = mve::vaddq_n_s32(mve::vabsq_s32(sum), r.half);
  const int32x4_t quotient = mve::vshlq_s32(
      mve::vqdmulhq_s32(magnitude, mve::vdupq_n_s32(r.multiplier)), mve::vdupq_n_s32(r.right));
  const int32x4_t sign = MOTE_MVE_VSHRQ_N_S32(sum, 31);  // 0 or -1
  return mve::vsubq_s32(mve::veorq_s32(quotient, sign), sign);
}

}  // namespace

void avg_pool2d_s16__mve(const Pool2dS16Params& params, const Pool2dShape& shape,
                         const int16_t* input, int16_t* output) {
  const int32_t channels = shape.channels;
  const int32_t in_row_stride = shape.in_w * channels;
  const int32_t in_image_stride = shape.in_h * in_row_stride;
  const int32x4_t act_min = mve::vdupq_n_s32(params.act_min);
  const int32x4_t act_max = mve::vdupq_n_s32(params.act_max);
  Reciprocal reciprocal;
  for (int32_t b = 0; b < shape.batch; ++b) {
    const int16_t* image = input + b * in_image_stride;
    for (int32_t oy = 0; oy < shape.out_h; ++oy) {
      const int32_t y0 = oy * params.window.stride_h - params.window.pad_top;
      const TapRange ky = taps_inside(y0, 1, params.kernel_h, shape.in_h);
      const int32_t rows = ky.end - ky.begin;
      for (int32_t ox = 0; ox < shape.out_w; ++ox) {
        const int32_t x0 = ox * params.window.stride_w - params.window.pad_left;
        const TapRange kx = taps_inside(x0, 1, params.kernel_w, shape.in_w);
        const int32_t cols = kx.end - kx.begin;
        set_count(reciprocal, rows * cols);  // >= 1 (check())
        const int16_t* first_tap =
            image + (y0 + ky.begin) * in_row_stride + (x0 + kx.begin) * channels;
        for (int32_t c = 0; c < channels; c += 8) {
          const uint32_t left = static_cast<uint32_t>(channels - c);
          const mve_pred16_t pred_lo = mve::vctp32q(left);
          const mve_pred16_t pred_hi = mve::vctp32q(left > 4u ? left - 4u : 0u);
          int32x4_t sum_lo = mve::vdupq_n_s32(0);
          int32x4_t sum_hi = mve::vdupq_n_s32(0);
          for (int32_t y = 0; y < rows; ++y) {
            const int16_t* p = first_tap + y * in_row_stride + c;
            for (int32_t x = 0; x < cols; ++x) {
              sum_lo = mve::vaddq_s32(sum_lo, mve::vldrhq_z_s32(p, pred_lo));
              sum_hi = mve::vaddq_s32(sum_hi, mve::vldrhq_z_s32(p + 4, pred_hi));
              p += channels;
            }
          }
          mve::vstrhq_p_s32(output + c,
                            mve::vminq_s32(mve::vmaxq_s32(divide(sum_lo, reciprocal), act_min), act_max),
                            pred_lo);
          mve::vstrhq_p_s32(output + c + 4,
                            mve::vminq_s32(mve::vmaxq_s32(divide(sum_hi, reciprocal), act_min), act_max),
                            pred_hi);
        }
        output += channels;
      }
    }
  }
}

Status avg_pool2d_s16__mve_check(const OpContext& ctx) {
  return pool2d_integer::check<int16_t, Pool2dS16Params>(ctx, kAvgPool2dS16MveMaxTaps);
}

void avg_pool2d_s16__mve_run(const OpContext& ctx) {
  pool2d_integer::run<int16_t, Pool2dS16Params, avg_pool2d_s16__mve>(ctx);
}

const KernelEntry kAvgPool2dS16MveEntry = {avg_pool2d_s16__mve_check, avg_pool2d_s16__mve_run};

}  // namespace mote
