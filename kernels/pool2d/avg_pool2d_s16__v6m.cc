// ARMv6-M (Cortex-M0+) int16 average pooling; bit-exact with avg_pool2d_s16
// (pool2d_integer::average, see pool2d.h), any shape the reference accepts.
//
// The reference divides every output with a C division, a call to __aeabi_idiv on a core
// without a divider. Here each window's count n gets a reciprocal once (kept while n
// stays the same, i.e. away from padded edges) and every quotient is three 16x16 MULS
// and at most two corrections:
//   sum > 0 ? (sum + n/2) / n : (sum - n/2) / n  ==  sign(sum) * floor(v / n),
//   v = |sum| + n/2 <= 32768 n + n/2 < 2^31 (check(): n <= 65535).
// With R = floor(2^32 / n) (n >= 2) split R = rh 2^16 + rl and v = vh 2^16 + vl,
//   q0 = vh rh + ((vh rl + vl rh) >> 16)
// (each product < 2^31, their sum < 2^32) drops vl rl / 2^32 < 1 and the floor of the
// middle term, and R >= 2^32 / n - 1 loses less than v / 2^32 < 1/2, so
// floor(v / n) - 2 <= q0 <= floor(v / n); the remainder v - q0 n then settles it.
// n == 1 is the sum itself.
//
// Sums are int32 in registers, two channels per step with the taps innermost (LDRSH,
// register offsets; GCC keeps the loop in low registers); the remaining odd channel goes
// alone.
#include "kernel_util.h"
#include "pool2d/pool2d.h"
#include "pool2d/pool2d_integer.h"

namespace mote {

namespace {

struct Divisor {
  int32_t count = 0;
  int32_t half = 0;
  uint32_t rh = 0, rl = 0;  // R = floor(2^32 / count) (count >= 2)
};

inline void set_count(Divisor& d, int32_t count) {
  if (count == d.count) return;
  d.count = count;
  d.half = count / 2;
  if (count < 2) return;
  const uint32_t n = static_cast<uint32_t>(count);
  // floor(2^32 / n) = floor((2^32 - 1) / n), plus 1 where n divides 2^32.
  uint32_t r = 0xFFFFFFFFu / n;
  if (0xFFFFFFFFu - r * n == n - 1u) ++r;
  d.rh = r >> 16;
  d.rl = r & 0xFFFFu;
}

inline int16_t finish(int32_t sum, const Divisor& d, int32_t act_min, int32_t act_max) {
  int32_t avg = sum;
  if (d.count >= 2) {
    const uint32_t v = static_cast<uint32_t>(sum < 0 ? -sum : sum) + static_cast<uint32_t>(d.half);
    const uint32_t vh = v >> 16;
    const uint32_t vl = v & 0xFFFFu;
    uint32_t q = vh * d.rh + ((vh * d.rl + vl * d.rh) >> 16);
    const uint32_t n = static_cast<uint32_t>(d.count);
    uint32_t r = v - q * n;
    if (r >= n) {
      ++q;
      r -= n;
      if (r >= n) ++q;
    }
    avg = sum < 0 ? -static_cast<int32_t>(q) : static_cast<int32_t>(q);
  }
  return static_cast<int16_t>(clamp_i32(avg, act_min, act_max));
}

}  // namespace

void avg_pool2d_s16__v6m(const Pool2dS16Params& params, const Pool2dShape& shape,
                         const int16_t* input, int16_t* output) {
  const int32_t channels = shape.channels;
  const int32_t channels2 = channels & ~1;
  const int32_t in_row_stride = shape.in_w * channels;
  const int32_t in_image_stride = shape.in_h * in_row_stride;
  const int32_t act_min = params.act_min;
  const int32_t act_max = params.act_max;
  Divisor divisor;
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
        set_count(divisor, rows * cols);
        const int16_t* window =
            image + (y0 + ky.begin) * in_row_stride + (x0 + kx.begin) * channels;
        int32_t c = 0;
        for (; c < channels2; c += 2) {
          int32_t s0 = 0, s1 = 0;
          const int16_t* row = window + c;
          for (int32_t y = 0; y < rows; ++y) {
            const int16_t* px = row;
            for (int32_t x = 0; x < cols; ++x) {
              s0 += px[0];
              s1 += px[1];
              px += channels;
            }
            row += in_row_stride;
          }
          output[c] = finish(s0, divisor, act_min, act_max);
          output[c + 1] = finish(s1, divisor, act_min, act_max);
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
          output[c] = finish(sum, divisor, act_min, act_max);
        }
        output += channels;
      }
    }
  }
}

Status avg_pool2d_s16__v6m_check(const OpContext& ctx) { return avg_pool2d_s16_check(ctx); }

void avg_pool2d_s16__v6m_run(const OpContext& ctx) {
  pool2d_integer::run<int16_t, Pool2dS16Params, avg_pool2d_s16__v6m>(ctx);
}

const KernelEntry kAvgPool2dS16V6mEntry = {avg_pool2d_s16__v6m_check, avg_pool2d_s16__v6m_run};

}  // namespace mote
