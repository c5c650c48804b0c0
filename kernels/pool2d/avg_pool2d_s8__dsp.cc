// Armv7E-M / Armv8-M DSP int8 average pooling; bit-exact with avg_pool2d_s8
// (pool2d_integer::average, see pool2d.h), any shape the reference accepts.
//
// Eight channels per step: per tap two word loads, and four SXTAB16 accumulate their
// bytes 0/2 and 1/3 into int16 halves; taps two at a time (17 instructions for 16
// values), and a window as wide as the input (global pooling) as one run of pixels. Four
// channels left over (channels % 8 >= 4, channels >= 8) take the last eight channels
// again. A window of at most 256 taps keeps every half sum in [-32768, 32512], so the
// halves never wrap and equal the reference's int32 sums. Larger windows (never seen in
// practice) run the reference. The remaining channels (channels % 4, or all of them when
// fewer than 8) are summed one by one in int32. The division (rounding half away from
// zero) is the reference's.
#include "isa/dsp.h"
#include "kernel_util.h"
#include "pool2d/pool2d.h"
#include "pool2d/pool2d_integer.h"

namespace mote {

namespace {

constexpr int32_t kMaxHalfTaps = 256;

inline int8_t finish(int32_t sum, int32_t count, int32_t act_min, int32_t act_max) {
  return static_cast<int8_t>(
      clamp_i32(pool2d_integer::rounded_average(sum, count), act_min, act_max));
}

// The window's sums of 8 channels from `window` (its first tap, channel c): acc[0] /
// acc[2] hold the int16 halves of bytes 0/2 of words 0 / 1, acc[1] / acc[3] those of
// bytes 1/3. Scalars, not an array: GCC would store an array element back on every tap.
void sum_channels8(const int8_t* window, int32_t taps_h, int32_t taps_w, int32_t channels,
                   int32_t row_stride, uint32_t (&acc)[4]) {
  uint32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  for (int32_t y = 0; y < taps_h; ++y) {
    const int8_t* px = window;
    int32_t x = taps_w;
    for (; x >= 2; x -= 2) {
      const uint32_t a0 = dsp::load_u32(px);
      const uint32_t a1 = dsp::load_u32(px + 4);
      const uint32_t b0 = dsp::load_u32(px + channels);
      const uint32_t b1 = dsp::load_u32(px + channels + 4);
      px += 2 * channels;
      s0 = dsp::sxtab16(dsp::sxtab16(s0, a0), b0);
      s1 = dsp::sxtab16_ror8(dsp::sxtab16_ror8(s1, a0), b0);
      s2 = dsp::sxtab16(dsp::sxtab16(s2, a1), b1);
      s3 = dsp::sxtab16_ror8(dsp::sxtab16_ror8(s3, a1), b1);
    }
    if (x != 0) {
      const uint32_t a0 = dsp::load_u32(px);
      const uint32_t a1 = dsp::load_u32(px + 4);
      s0 = dsp::sxtab16(s0, a0);
      s1 = dsp::sxtab16_ror8(s1, a0);
      s2 = dsp::sxtab16(s2, a1);
      s3 = dsp::sxtab16_ror8(s3, a1);
    }
    window += row_stride;
  }
  acc[0] = s0;
  acc[1] = s1;
  acc[2] = s2;
  acc[3] = s3;
}

}  // namespace

void avg_pool2d_s8__dsp(const Pool2dS8Params& params, const Pool2dShape& shape,
                        const int8_t* input, int8_t* output) {
  if (params.kernel_h * params.kernel_w > kMaxHalfTaps) {
    avg_pool2d_s8(params, shape, input, output);
    return;
  }
  const int32_t channels = shape.channels;
  const int32_t channels4 = channels & ~3;
  const int32_t in_row_stride = shape.in_w * channels;
  const int32_t in_image_stride = shape.in_h * in_row_stride;
  const int32_t act_min = params.act_min;
  const int32_t act_max = params.act_max;
  for (int32_t n = 0; n < shape.batch; ++n) {
    const int8_t* image = input + n * in_image_stride;
    for (int32_t oy = 0; oy < shape.out_h; ++oy) {
      const int32_t y0 = oy * params.window.stride_h - params.window.pad_top;
      const TapRange ky = taps_inside(y0, 1, params.kernel_h, shape.in_h);
      for (int32_t ox = 0; ox < shape.out_w; ++ox) {
        const int32_t x0 = ox * params.window.stride_w - params.window.pad_left;
        const TapRange kx = taps_inside(x0, 1, params.kernel_w, shape.in_w);
        const int32_t count = (ky.end - ky.begin) * (kx.end - kx.begin);
        const int32_t taps_w = kx.end - kx.begin;
        const int8_t* window = image + (y0 + ky.begin) * in_row_stride + (x0 + kx.begin) * channels;
        // A window as wide as the input (global pooling) is one run of pixels.
        const bool one_run = taps_w == shape.in_w;
        const int32_t taps_h = one_run ? 1 : ky.end - ky.begin;
        const int32_t run_w = one_run ? count : taps_w;
        // Eight channels at a time; four left over (channels >= 8) take the last eight
        // again (rewriting four outputs with the same values).
        int32_t c = 0;
        while (c + 8 <= channels || (c < channels4 && channels >= 8)) {
          const int32_t c8 = c + 8 <= channels ? c : channels4 - 8;
          uint32_t acc[4];
          sum_channels8(window + c8, taps_h, run_w, channels, in_row_stride, acc);
          for (int32_t w = 0; w < 2; ++w) {
            int8_t* out = output + c8 + 4 * w;
            out[0] = finish(dsp::lo16(acc[2 * w]), count, act_min, act_max);
            out[1] = finish(dsp::lo16(acc[2 * w + 1]), count, act_min, act_max);
            out[2] = finish(dsp::hi16(acc[2 * w]), count, act_min, act_max);
            out[3] = finish(dsp::hi16(acc[2 * w + 1]), count, act_min, act_max);
          }
          c = c8 + 8;
        }
        for (; c < channels; ++c) {
          int32_t sum = 0;
          const int8_t* row = window + c;
          for (int32_t y = ky.begin; y < ky.end; ++y) {
            const int8_t* px = row;
            for (int32_t x = 0; x < taps_w; ++x) {
              sum += *px;
              px += channels;
            }
            row += in_row_stride;
          }
          output[c] = finish(sum, count, act_min, act_max);
        }
        output += channels;
      }
    }
  }
}

Status avg_pool2d_s8__dsp_check(const OpContext& ctx) { return pool2d_s8_check(ctx); }

void avg_pool2d_s8__dsp_run(const OpContext& ctx) {
  pool2d_integer::run<int8_t, Pool2dS8Params, avg_pool2d_s8__dsp>(ctx);
}

const KernelEntry kAvgPool2dS8DspEntry = {avg_pool2d_s8__dsp_check, avg_pool2d_s8__dsp_run};

}  // namespace mote
