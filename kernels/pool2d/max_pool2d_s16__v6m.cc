// ARMv6-M (Cortex-M0+) int16 max pooling; bit-exact with max_pool2d_s16
// (pool2d_integer::max, see pool2d.h), any shape the reference accepts.
//
// The reference keeps its running maxima in the output row (a load and a store per
// channel and tap); here two channels per step keep theirs in registers with the taps
// innermost, then clamp and store once. When the input is 4-byte aligned and the channel
// count even, every channel pair is one aligned word (ARMv6-M has no unaligned access):
// four channels (two words) at a time, then a last pair, run v6m::max_s16_words (one LDR
// per word and tap, the two halves compared in place: see kernels/isa/v6m.h). Otherwise
// channel pairs take two halfword loads per tap, and a last odd channel goes alone.
#include <stdint.h>

#include "isa/v6m.h"
#include "kernel_util.h"
#include "pool2d/pool2d.h"
#include "pool2d/pool2d_integer.h"

namespace mote {

namespace {

// Channels [c, c + 2) of one window from two halfword loads (any alignment).
inline void max_pair_halves(const int16_t* window, int32_t rows, int32_t cols, int32_t channels,
                            int32_t in_row_stride, int32_t* m0, int32_t* m1) {
  int32_t a = -32768, b = -32768;
  for (int32_t y = 0; y < rows; ++y) {
    const int16_t* px = window + y * in_row_stride;
    for (int32_t x = 0; x < cols; ++x) {
      const int32_t v0 = px[0];
      const int32_t v1 = px[1];
      if (v0 > a) a = v0;
      if (v1 > b) b = v1;
      px += channels;
    }
  }
  *m0 = a;
  *m1 = b;
}

// out[k] = m[k] clamped to [act_min, act_max]; without the clamp when that range is all
// of int16 (clamp false), which every maximum of int16 taps lies in already.
template <int kCount>
inline void store_maxima(int16_t* out, const int32_t* m, bool clamp, int32_t act_min, int32_t act_max) {
  if (clamp) {
    for (int k = 0; k < kCount; ++k) out[k] = static_cast<int16_t>(clamp_i32(m[k], act_min, act_max));
  } else {
    for (int k = 0; k < kCount; ++k) out[k] = static_cast<int16_t>(m[k]);
  }
}

}  // namespace

void max_pool2d_s16__v6m(const Pool2dS16Params& params, const Pool2dShape& shape,
                         const int16_t* input, int16_t* output) {
  const int32_t channels = shape.channels;
  const int32_t channels2 = channels & ~1;
  const int32_t in_row_stride = shape.in_w * channels;
  const int32_t in_image_stride = shape.in_h * in_row_stride;
  const int32_t act_min = params.act_min;
  const int32_t act_max = params.act_max;
  const bool clamp = act_min > -32768 || act_max < 32767;
  const bool words = (reinterpret_cast<uintptr_t>(input) & 3u) == 0 && (channels & 1) == 0;
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
        if (words) {
          int32_t m[4];
          for (; c + 4 <= channels; c += 4) {
            v6m::max_s16_words<2>(window + c, rows, cols, channels, in_row_stride, m);
            store_maxima<4>(output + c, m, clamp, act_min, act_max);
          }
          if (c < channels) {  // channels is even: one pair left
            v6m::max_s16_words<1>(window + c, rows, cols, channels, in_row_stride, m);
            store_maxima<2>(output + c, m, clamp, act_min, act_max);
            c += 2;
          }
        }
        for (; c < channels2; c += 2) {
          int32_t m0, m1;
          max_pair_halves(window + c, rows, cols, channels, in_row_stride, &m0, &m1);
          output[c] = static_cast<int16_t>(clamp_i32(m0, act_min, act_max));
          output[c + 1] = static_cast<int16_t>(clamp_i32(m1, act_min, act_max));
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

Status max_pool2d_s16__v6m_check(const OpContext& ctx) { return max_pool2d_s16_check(ctx); }

void max_pool2d_s16__v6m_run(const OpContext& ctx) {
  pool2d_integer::run<int16_t, Pool2dS16Params, max_pool2d_s16__v6m>(ctx);
}

const KernelEntry kMaxPool2dS16V6mEntry = {max_pool2d_s16__v6m_check, max_pool2d_s16__v6m_run};

}  // namespace mote
