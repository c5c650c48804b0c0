// Armv7E-M / Armv8-M DSP int8 max pooling; bit-exact with max_pool2d_s8
// (pool2d_integer::max, see pool2d.h), any shape the reference accepts.
//
// Four channels per step: one word load per tap and a bytewise signed maximum
// (SSUB8 + SEL, dsp::max_s8x4) into a register, then the clamp to [act_min, act_max]
// as a bytewise max and min and one word store. The remaining channels
// (channels % 4) go one by one.
#include "isa/dsp.h"
#include "kernel_util.h"
#include "pool2d/pool2d.h"
#include "pool2d/pool2d_integer.h"

namespace mote {

namespace {

inline uint32_t splat_s8(int32_t v) { return (static_cast<uint32_t>(v) & 0xFFu) * 0x01010101u; }

}  // namespace

void max_pool2d_s8__dsp(const Pool2dS8Params& params, const Pool2dShape& shape,
                        const int8_t* input, int8_t* output) {
  const int32_t channels = shape.channels;
  const int32_t channels4 = channels & ~3;
  const int32_t in_row_stride = shape.in_w * channels;
  const int32_t in_image_stride = shape.in_h * in_row_stride;
  const int32_t act_min = params.act_min;
  const int32_t act_max = params.act_max;
  const uint32_t min4 = splat_s8(act_min);
  const uint32_t max4 = splat_s8(act_max);
  for (int32_t n = 0; n < shape.batch; ++n) {
    const int8_t* image = input + n * in_image_stride;
    for (int32_t oy = 0; oy < shape.out_h; ++oy) {
      const int32_t y0 = oy * params.window.stride_h - params.window.pad_top;
      const TapRange ky = taps_inside(y0, 1, params.kernel_h, shape.in_h);
      for (int32_t ox = 0; ox < shape.out_w; ++ox) {
        const int32_t x0 = ox * params.window.stride_w - params.window.pad_left;
        const TapRange kx = taps_inside(x0, 1, params.kernel_w, shape.in_w);
        const int32_t taps_w = kx.end - kx.begin;
        const int8_t* window = image + (y0 + ky.begin) * in_row_stride + (x0 + kx.begin) * channels;
        int32_t c = 0;
        for (; c < channels4; c += 4) {
          uint32_t m = 0x80808080u;
          const int8_t* row = window + c;
          for (int32_t y = ky.begin; y < ky.end; ++y) {
            const int8_t* px = row;
            for (int32_t x = 0; x < taps_w; ++x) {
              m = dsp::max_s8x4(m, dsp::load_u32(px));
              px += channels;
            }
            row += in_row_stride;
          }
          dsp::store_u32(output + c, dsp::min_s8x4(dsp::max_s8x4(m, min4), max4));
        }
        for (; c < channels; ++c) {
          const int32_t m = pool2d_integer::channel_window_max(window + c, ky.end - ky.begin, taps_w, channels,
                                                               in_row_stride);
          output[c] = static_cast<int8_t>(clamp_i32(m, act_min, act_max));
        }
        output += channels;
      }
    }
  }
}

Status max_pool2d_s8__dsp_check(const OpContext& ctx) { return pool2d_s8_check(ctx); }

void max_pool2d_s8__dsp_run(const OpContext& ctx) {
  pool2d_integer::run<int8_t, Pool2dS8Params, max_pool2d_s8__dsp>(ctx);
}

const KernelEntry kMaxPool2dS8DspEntry = {max_pool2d_s8__dsp_check, max_pool2d_s8__dsp_run};

}  // namespace mote
