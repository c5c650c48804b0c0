// TFLite Micro's int16 SOFTMAX transcribed for the tests: the two 513-entry tables its
// Prepare builds (softmax_common.cc with LUTPopulate<int16_t>, kernels/internal/common.h,
// in float), LUTLookup, and reference_ops::SoftmaxInt16 for one row, on the 128-bit model
// of quant_test_util.h.
#pragma once

#include <math.h>
#include <stdint.h>

#include <algorithm>
#include <functional>
#include <vector>

#include "quant_test_util.h"

namespace mote::testing {

// LUTPopulateInt16<float>: samples with half the midpoint interpolation error removed.
inline std::vector<int16_t> ref_lut_s16(float input_scale, int32_t input_zp, float output_scale, int32_t output_zp,
                                        const std::function<float(float)>& f) {
  const float in_lo = input_scale * static_cast<float>(-32768 - input_zp);
  const float in_hi = input_scale * static_cast<float>(32767 - input_zp);
  const float out_lo = output_scale * static_cast<float>(-32768 - output_zp);
  const float out_hi = output_scale * static_cast<float>(32767 - output_zp);
  const float step = (in_hi - in_lo) / 512.0f;
  const float inv = 65536.0f / (out_hi - out_lo);
  auto table_value = [](float v) { return static_cast<int16_t>(std::min(std::max(v, -32768.0f), 32767.0f)); };
  std::vector<int16_t> lut(513);
  for (int i = 0; i < 512; ++i) {
    const float x0 = in_lo + static_cast<float>(i) * step;
    const float y0 = f(x0), ymid = f(x0 + step / 2.0f), y1 = f(in_lo + static_cast<float>(i + 1) * step);
    const float interp = std::round((y1 * inv + std::round(y0 * inv)) / 2.0f);
    const float err = interp - std::round(ymid * inv);
    lut[static_cast<size_t>(i)] = table_value(std::round(y0 * inv) - std::round(err / 2.0f));
  }
  lut[512] = table_value(std::round(f(in_hi) * inv));
  return lut;
}

inline std::vector<int16_t> ref_softmax_exp_lut() {
  return ref_lut_s16(10.0f / 65535.0f, 32767, 2.0f / 65535.0f, 0, [](float x) { return std::exp(x); });
}
inline std::vector<int16_t> ref_softmax_reciprocal_lut() {
  return ref_lut_s16(1.0f / 65535.0f, -32768, 2.0f / 65535.0f, 0, [](float x) { return 1.0f / (1.0f + x); });
}

// LUTLookup(int16): 9 bits of index, 7 of linear interpolation.
inline int16_t ref_lut_lookup(const std::vector<int16_t>& lut, int16_t v) {
  const int index = 256 + (v >> 7);
  const int offset = v & 0x7f;
  const int slope = static_cast<int16_t>(lut[static_cast<size_t>(index) + 1] - lut[static_cast<size_t>(index)]);
  return static_cast<int16_t>(lut[static_cast<size_t>(index)] + ((slope * offset + 64) >> 7));
}

// One row of reference_ops::SoftmaxInt16.
inline std::vector<int16_t> ref_softmax_s16(const std::vector<int16_t>& row, int32_t multiplier, int32_t shift) {
  static const std::vector<int16_t> exp_lut = ref_softmax_exp_lut();
  static const std::vector<int16_t> recip_lut = ref_softmax_reciprocal_lut();
  const int16_t max = *std::max_element(row.begin(), row.end());
  std::vector<int16_t> e;
  int64_t sum = 0;
  for (int16_t v : row) {
    const int32_t scaled = ref_mbqm(v - max, multiplier, shift);
    e.push_back(ref_lut_lookup(exp_lut, static_cast<int16_t>(ref_clamp(int64_t{scaled} + 32767, -32768, 32767))));
    sum += e.back();
  }
  int headroom_plus_one = 0;  // leading zeros of the 32-bit sum
  while (headroom_plus_one < 32 && ((static_cast<uint32_t>(sum) << headroom_plus_one) & 0x80000000u) == 0)
    ++headroom_plus_one;
  const int64_t shifted = floor_div_pow2(static_cast<i128>(sum) * (int64_t{1} << (headroom_plus_one - 1)) + 8192, 14);
  const int16_t recip =
      ref_lut_lookup(recip_lut, static_cast<int16_t>(ref_clamp(shifted - (32768 + 65536), -32768, 32767)));
  const int right_shift = 31 - headroom_plus_one;
  std::vector<int16_t> out;
  for (int16_t v : e) {
    const int64_t r = static_cast<int64_t>(floor_div_pow2(static_cast<i128>(v) * recip + (int64_t{1} << (right_shift - 1)), right_shift));
    out.push_back(static_cast<int16_t>(ref_clamp(r, 0, 32767)));
  }
  return out;
}

}  // namespace mote::testing
