// Armv7E-M / Armv8-M DSP int16 average pooling; bit-exact with avg_pool2d_s16
// (pool2d_integer::average, see pool2d.h), any shape the reference accepts.
//
// Four channels per step, tap innermost, the four int32 sums in registers: two word
// loads per tap (two int16 channels each), the low halves added with SXTAH and the high
// halves with ADD ..., ASR #16 (one instruction per channel and tap). The int32 sums are
// the reference's (check() bounds a window to 65535 cells, so they cannot overflow). A
// remaining pair of channels takes one word, a last odd channel goes alone. The division
// (rounding half away from zero, one SDIV) and the clamp are the reference's.
#include "isa/dsp.h"
#include "kernel_util.h"
#include "pool2d/pool2d.h"
#include "pool2d/pool2d_integer.h"

namespace mote {

namespace {

// The rounded average, clamped unless [act_min, act_max] is all of int16 (clamp false):
// an average of int16 taps is an int16 already.
inline int16_t finish(int32_t sum, int32_t count, bool clamp, int32_t act_min, int32_t act_max) {
  const int32_t avg = pool2d_integer::rounded_average(sum, count);
  return static_cast<int16_t>(clamp ? clamp_i32(avg, act_min, act_max) : avg);
}

// The int32 sums of 2 kWords channels (kWords words) over a window's taps: the low half
// of each word sign-extended and added (SXTAH), the high half added shifted (ADD ASR #16).
template <int kWords>
inline void window_sums(const int16_t* first_tap, int32_t rows, int32_t cols, int32_t channels,
                        int32_t in_row_stride, int32_t sums[2 * kWords]) {
  for (int k = 0; k < 2 * kWords; ++k) sums[k] = 0;
  for (int32_t y = 0; y < rows; ++y) {
    const int16_t* px = first_tap + y * in_row_stride;
    for (int32_t x = 0; x < cols; ++x) {
      for (int k = 0; k < kWords; ++k) {
        const int32_t w = static_cast<int32_t>(dsp::load_u32(px + 2 * k));
        sums[2 * k] += static_cast<int16_t>(w);
        sums[2 * k + 1] += w >> 16;
      }
      px += channels;
    }
  }
}

}  // namespace

void avg_pool2d_s16__dsp(const Pool2dS16Params& params, const Pool2dShape& shape,
                         const int16_t* input, int16_t* output) {
  const int32_t channels = shape.channels;
  const int32_t channels4 = channels & ~3;
  const int32_t in_row_stride = shape.in_w * channels;
  const int32_t in_image_stride = shape.in_h * in_row_stride;
  const int32_t act_min = params.act_min;
  const int32_t act_max = params.act_max;
  const bool clamp = act_min > -32768 || act_max < 32767;
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
        const int32_t count = rows * cols;
        const int16_t* window =
            image + (y0 + ky.begin) * in_row_stride + (x0 + kx.begin) * channels;
        int32_t c = 0;
        for (; c < channels4; c += 4) {
          int32_t sums[4];
          window_sums<2>(window + c, rows, cols, channels, in_row_stride, sums);
          for (int k = 0; k < 4; ++k) output[c + k] = finish(sums[k], count, clamp, act_min, act_max);
        }
        if (channels - c >= 2) {
          int32_t sums[2];
          window_sums<1>(window + c, rows, cols, channels, in_row_stride, sums);
          for (int k = 0; k < 2; ++k) output[c + k] = finish(sums[k], count, clamp, act_min, act_max);
          c += 2;
        }
        if (c < channels) {
          int32_t sum = 0;
          const int16_t* row = window + c;
          for (int32_t y = 0; y < rows; ++y) {
            const int16_t* px = row;
            for (int32_t x = 0; x < cols; ++x) {
              sum += *px;
              px += channels;
            }
            row += in_row_stride;
          }
          output[c] = finish(sum, count, clamp, act_min, act_max);
        }
        output += channels;
      }
    }
  }
}

Status avg_pool2d_s16__dsp_check(const OpContext& ctx) { return avg_pool2d_s16_check(ctx); }

void avg_pool2d_s16__dsp_run(const OpContext& ctx) {
  pool2d_integer::run<int16_t, Pool2dS16Params, avg_pool2d_s16__dsp>(ctx);
}

const KernelEntry kAvgPool2dS16DspEntry = {avg_pool2d_s16__dsp_check, avg_pool2d_s16__dsp_run};

}  // namespace mote
