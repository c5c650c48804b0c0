// Armv7E-M / Armv8-M DSP int8 average pooling; bit-exact with avg_pool2d_s8
// (pool2d_integer::average, see pool2d.h), any shape the reference accepts.
//
// Four channels per step: one word load per tap, and two SXTAB16 accumulate its bytes
// 0/2 and 1/3 into int16 halves. A window of at most 256 taps keeps every half sum in
// [-32768, 32512], so the halves never wrap and equal the reference's int32 sums.
// Larger windows (never seen in practice) run the reference. The remaining channels
// (channels % 4) are summed one by one in int32. The division (rounding half away from
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
        int32_t c = 0;
        for (; c < channels4; c += 4) {
          uint32_t acc02 = 0;
          uint32_t acc13 = 0;
          const int8_t* row = window + c;
          for (int32_t y = ky.begin; y < ky.end; ++y) {
            const int8_t* px = row;
            for (int32_t x = 0; x < taps_w; ++x) {
              const uint32_t w = dsp::load_u32(px);
              acc02 = dsp::sxtab16(acc02, w);
              acc13 = dsp::sxtab16_ror8(acc13, w);
              px += channels;
            }
            row += in_row_stride;
          }
          output[c + 0] = finish(dsp::lo16(acc02), count, act_min, act_max);
          output[c + 1] = finish(dsp::lo16(acc13), count, act_min, act_max);
          output[c + 2] = finish(dsp::hi16(acc02), count, act_min, act_max);
          output[c + 3] = finish(dsp::hi16(acc13), count, act_min, act_max);
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
