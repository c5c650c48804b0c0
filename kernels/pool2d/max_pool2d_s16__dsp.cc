// Armv7E-M / Armv8-M DSP int16 max pooling; bit-exact with max_pool2d_s16
// (pool2d_integer::max, see pool2d.h), any shape the reference accepts.
//
// Four channels per step, tap innermost: two word loads per tap (two int16 channels
// each) and a halfwise signed maximum (SSUB16 + SEL, dsp::max_s16x2) into two registers,
// then the clamp to [act_min, act_max] halfwise (dsp::clamp_s16x2) and two word stores.
// A remaining pair of channels takes one word, a last odd channel goes alone.
#include "isa/dsp.h"
#include "kernel_util.h"
#include "pool2d/pool2d.h"
#include "pool2d/pool2d_integer.h"

namespace mote {

namespace {

inline uint32_t splat_s16(int32_t v) { return (static_cast<uint32_t>(v) & 0xFFFFu) * 0x00010001u; }

// The halfwise maxima of kWords words (2 kWords channels) over a window's taps.
template <int kWords>
inline void window_max(const int16_t* first_tap, int32_t rows, int32_t cols, int32_t channels,
                       int32_t in_row_stride, uint32_t m[kWords]) {
  for (int k = 0; k < kWords; ++k) m[k] = 0x80008000u;
  for (int32_t y = 0; y < rows; ++y) {
    const int16_t* px = first_tap + y * in_row_stride;
    for (int32_t x = 0; x < cols; ++x) {
      for (int k = 0; k < kWords; ++k) m[k] = dsp::max_s16x2(m[k], dsp::load_u32(px + 2 * k));
      px += channels;
    }
  }
}

}  // namespace

void max_pool2d_s16__dsp(const Pool2dS16Params& params, const Pool2dShape& shape,
                         const int16_t* input, int16_t* output) {
  const int32_t channels = shape.channels;
  const int32_t channels4 = channels & ~3;
  const int32_t in_row_stride = shape.in_w * channels;
  const int32_t in_image_stride = shape.in_h * in_row_stride;
  const int32_t act_min = params.act_min;
  const int32_t act_max = params.act_max;
  const uint32_t min2 = splat_s16(act_min);
  const uint32_t max2 = splat_s16(act_max);
  for (int32_t n = 0; n < shape.batch; ++n) {
    const int16_t* image = input + n * in_image_stride;
    for (int32_t oy = 0; oy < shape.out_h; ++oy) {
      const int32_t y0 = oy * params.window.stride_h - params.window.pad_top;
      const TapRange ky = taps_inside(y0, 1, params.kernel_h, shape.in_h);
      const int32_t rows = ky.end - ky.begin;
      for (int32_t ox = 0; ox < shape.out_w; ++ox) {
        const int32_t x0 = ox * params.window.stride_w - params.window.pad_left;
        const TapRange kx = taps_inside(x0, 1, params.kernel_w, shape.in_w);
        const int32_t cols = kx.end - kx.begin;
        const int16_t* window =
            image + (y0 + ky.begin) * in_row_stride + (x0 + kx.begin) * channels;
        int32_t c = 0;
        for (; c < channels4; c += 4) {
          uint32_t m[2];
          window_max<2>(window + c, rows, cols, channels, in_row_stride, m);
          dsp::store_u32(output + c, dsp::clamp_s16x2(m[0], min2, max2));
          dsp::store_u32(output + c + 2, dsp::clamp_s16x2(m[1], min2, max2));
        }
        if (channels - c >= 2) {
          uint32_t m[1];
          window_max<1>(window + c, rows, cols, channels, in_row_stride, m);
          dsp::store_u32(output + c, dsp::clamp_s16x2(m[0], min2, max2));
          c += 2;
        }
        if (c < channels) {
          const int32_t m = pool2d_integer::channel_window_max(window + c, rows, cols, channels, in_row_stride);
          output[c] = static_cast<int16_t>(clamp_i32(m, act_min, act_max));
        }
        output += channels;
      }
    }
  }
}

Status max_pool2d_s16__dsp_check(const OpContext& ctx) { return max_pool2d_s16_check(ctx); }

void max_pool2d_s16__dsp_run(const OpContext& ctx) {
  pool2d_integer::run<int16_t, Pool2dS16Params, max_pool2d_s16__dsp>(ctx);
}

const KernelEntry kMaxPool2dS16DspEntry = {max_pool2d_s16__dsp_check, max_pool2d_s16__dsp_run};

}  // namespace mote
