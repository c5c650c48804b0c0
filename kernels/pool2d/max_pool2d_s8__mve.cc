// Helium (MVE) int8 max pooling; bit-exact with max_pool2d_s8 (pool2d.h).
//
// Per output pixel the taps inside the image are found once; channels go 16 at a time in
// int8 lanes (the last block tail-predicated): VMAX.S8 over the taps from -128, then the
// clamp to [act_min, act_max] (int8 values, check()) with VMAX/VMIN.S8.
#include "isa/mve.h"
#include "kernel_util.h"
#include "pool2d/pool2d.h"
#include "pool2d/pool2d_integer.h"

namespace mote {

void max_pool2d_s8__mve(const Pool2dS8Params& params, const Pool2dShape& shape,
                        const int8_t* input, int8_t* output) {
  const int32_t channels = shape.channels;
  const int32_t in_row_stride = shape.in_w * channels;
  const int32_t in_image_stride = shape.in_h * in_row_stride;
  const mve::int8x16_t lowest = mve::vdupq_n_s8(-128);
  const mve::int8x16_t act_min = mve::vdupq_n_s8(static_cast<int8_t>(params.act_min));
  const mve::int8x16_t act_max = mve::vdupq_n_s8(static_cast<int8_t>(params.act_max));
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
        const int8_t* first_tap =
            image + (y0 + ky.begin) * in_row_stride + (x0 + kx.begin) * channels;
        for (int32_t c = 0; c < channels; c += 16) {
          const mve::mve_pred16_t pred = mve::vctp8q(static_cast<uint32_t>(channels - c));
          mve::int8x16_t max = lowest;
          for (int32_t y = 0; y < rows; ++y) {
            const int8_t* p = first_tap + y * in_row_stride + c;
            for (int32_t x = 0; x < cols; ++x) {
              max = mve::vmaxq_s8(max, mve::vldrbq_z_s8(p, pred));
              p += channels;
            }
          }
          mve::vstrbq_p_s8(output + c, mve::vminq_s8(mve::vmaxq_s8(max, act_min), act_max),
                           pred);
        }
        output += channels;
      }
    }
  }
}

Status max_pool2d_s8__mve_check(const OpContext& ctx) { return pool2d_s8_check(ctx); }

void max_pool2d_s8__mve_run(const OpContext& ctx) {
  pool2d_integer::run<int8_t, Pool2dS8Params, max_pool2d_s8__mve>(ctx);
}

const KernelEntry kMaxPool2dS8MveEntry = {max_pool2d_s8__mve_check, max_pool2d_s8__mve_run};

}  // namespace mote
