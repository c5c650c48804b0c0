// Helium (MVE) int16 max pooling; bit-exact with max_pool2d_s16 (pool2d.h).
//
// Per output pixel the taps inside the image are found once; channels go 8 at a time in
// int16 lanes (the last block tail-predicated): VMAX.S16 over the taps from -32768, then
// the clamp to [act_min, act_max] (int16 values, check()) with VMAX/VMIN.S16.
#include "isa/mve.h"
#include "kernel_util.h"
#include "pool2d/pool2d.h"
#include "pool2d/pool2d_integer.h"

namespace mote {

void max_pool2d_s16__mve(const Pool2dS16Params& params, const Pool2dShape& shape,
                         const int16_t* input, int16_t* output) {
  const int32_t channels = shape.channels;
  const int32_t in_row_stride = shape.in_w * channels;
  const int32_t in_image_stride = shape.in_h * in_row_stride;
  const mve::int16x8_t lowest = mve::vdupq_n_s16(-32768);
  const mve::int16x8_t act_min = mve::vdupq_n_s16(static_cast<int16_t>(params.act_min));
  const mve::int16x8_t act_max = mve::vdupq_n_s16(static_cast<int16_t>(params.act_max));
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
        const int16_t* first_tap =
            image + (y0 + ky.begin) * in_row_stride + (x0 + kx.begin) * channels;
        for (int32_t c = 0; c < channels; c += 8) {
          const mve::mve_pred16_t pred = mve::vctp16q(static_cast<uint32_t>(channels - c));
          mve::int16x8_t max = lowest;
          for (int32_t y = 0; y < rows; ++y) {
            const int16_t* p = first_tap + y * in_row_stride + c;
            for (int32_t x = 0; x < cols; ++x) {
              max = mve::vmaxq_s16(max, mve::vldrhq_z_s16(p, pred));
              p += channels;
            }
          }
          mve::vstrhq_p_s16(output + c, mve::vminq_s16(mve::vmaxq_s16(max, act_min), act_max),
                            pred);
        }
        output += channels;
      }
    }
  }
}

Status max_pool2d_s16__mve_check(const OpContext& ctx) { return max_pool2d_s16_check(ctx); }

void max_pool2d_s16__mve_run(const OpContext& ctx) {
  pool2d_integer::run<int16_t, Pool2dS16Params, max_pool2d_s16__mve>(ctx);
}

const KernelEntry kMaxPool2dS16MveEntry = {max_pool2d_s16__mve_check, max_pool2d_s16__mve_run};

}  // namespace mote
