// The accumulators an int8 channel can reach, exactly: acc = bias + sum_i w_i * (x_i +
// offset), offset = -input zero point, over every input x_i in [-128, 127]. Each term is
// smallest at one end of x's range and largest at the other (w_i * x_lo or w_i * x_hi,
// x_lo = -128 - zp <= 0 <= x_hi = 127 - zp), and the terms vary independently, so the
// sums of the ends are reached. The kernels that replace a requantization by a cheaper
// exact one use it: monotone in acc (multiplier >= 0), a channel whose outputs at lo and hi
// agree is that constant for every input, and a scaled accumulator that fits at both ends
// fits everywhere. In int64: no wrap for up to 2^16 weights and any int32 bias.
#pragma once

#include <stdint.h>

namespace mote {

struct AccRange {
  int64_t lo, hi;        // the least and the greatest reachable acc
  int32_t w_min, w_max;  // the weights' extremes, and 0
};

// The range over `count` weights at w, w + stride, ... (stride in elements), with bias
// and the input's zero point.
inline AccRange acc_range(int64_t bias, const int8_t* w, int32_t count, int32_t stride,
                          int32_t input_zero_point) {
  const int32_t x_lo = -128 - input_zero_point, x_hi = 127 - input_zero_point;
  AccRange r{bias, bias, 0, 0};
  for (int32_t i = 0; i < count; ++i, w += stride) {
    const int32_t v = *w;
    r.lo += v < 0 ? v * x_hi : v * x_lo;
    r.hi += v < 0 ? v * x_lo : v * x_hi;
    r.w_min = v < r.w_min ? v : r.w_min;
    r.w_max = v > r.w_max ? v : r.w_max;
  }
  return r;
}

}  // namespace mote
