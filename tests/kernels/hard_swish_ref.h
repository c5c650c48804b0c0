// An independent model of TFLite's quantized reference_ops::HardSwish (int8) for the
// kernel and per-op tests, written from its arithmetic rules rather than from Mote's
// kernel: exact products in 64/128-bit integers and explicit rounding rules
//   srdhm16(a, b)   = floor(a * b / 2^15 + 1/2)   (ties toward +inf; -2^15 * -2^15 -> 2^15 - 1)
//   sdhm16(a, b)    = a * b / 2^15 truncated toward zero
//   rdbpot16(x, e)  = x / 2^e rounded half away from zero for e <= 15; for e >= 16
//                     gemmlowp's int16 mask is all ones, which makes it 1 for x >= 0 and
//                     -1 for x < 0
//   sat16(v)        = v clamped to [-2^15, 2^15 - 1]
#pragma once

#include <stdint.h>

#include "quant_test_util.h"

namespace mote::testing {

struct RefHardSwishParams {
  int32_t input_zero_point, output_zero_point;
  int32_t reluish_multiplier, reluish_exponent;  // 16-bit multiplier in [0, 2^15)
  int32_t output_multiplier, output_exponent;    // output_exponent <= 0
};

inline int32_t ref_sat16(int64_t v) { return static_cast<int32_t>(v < -32768 ? -32768 : (v > 32767 ? 32767 : v)); }

inline int32_t ref_srdhm16(int32_t a, int32_t b) {
  if (a == -32768 && b == -32768) return 32767;
  return static_cast<int32_t>(floor_div_pow2(2 * static_cast<i128>(a) * b + (1 << 15), 16));
}

inline int32_t ref_sdhm16(int32_t a, int32_t b) {
  const int64_t p = static_cast<int64_t>(a) * b;
  const int64_t magnitude = (p < 0 ? -p : p) >> 15;
  return static_cast<int32_t>(p < 0 ? -magnitude : magnitude);
}

inline int32_t ref_rdbpot16(int32_t x, int e) {
  if (e >= 16) return x >= 0 ? 1 : -1;
  return ref_rdbpot(x, e);
}

// TFLite DownScaleInt32ToInt16Multiplier: the 32-bit multiplier rounded to its top 16 bits.
inline int32_t ref_downscale16(int32_t m) {
  if (static_cast<int64_t>(m) + 32768 >= INT32_MAX) return 32767;
  return static_cast<int32_t>(floor_div_pow2(static_cast<i128>(m) + 32768, 16));
}

inline int8_t ref_hard_swish_s8(int8_t input, const RefHardSwishParams& p) {
  const int32_t hires = (input - p.input_zero_point) * 128;  // |.| <= 255 * 128 fits int16
  const int32_t on_output_scale = ref_srdhm16(hires, p.output_multiplier);
  // The input as a fraction of 3 (3.0 -> 2^15, saturated), then mapped to [0, 1].
  int32_t reluish;
  if (p.reluish_exponent > 0) {
    // hires * 2^(exponent - 1) in 64 bits (a multiply: shifting a negative value is undefined).
    const int32_t pre = ref_sat16(static_cast<int64_t>(hires) * (int64_t{1} << (p.reluish_exponent - 1)));
    reluish = ref_sat16(2 * static_cast<int64_t>(ref_srdhm16(pre, p.reluish_multiplier)));
  } else {
    reluish = ref_rdbpot16(ref_srdhm16(hires, p.reluish_multiplier), -p.reluish_exponent);
  }
  const int32_t gate = (reluish + 32768) / 2;  // reluish + 2^15 >= 0: a plain halving
  const int32_t y = ref_rdbpot16(ref_sdhm16(gate, on_output_scale), -p.output_exponent);
  return static_cast<int8_t>(ref_clamp(static_cast<int64_t>(y) + p.output_zero_point, -128, 127));
}

}  // namespace mote::testing
