// What the integer GRU (kernels/gru/gru_integer.h) and RNN (rnn_integer.h) kernels
// share: the step's input and hidden rows as int16 values less their zero points, the
// matrix-row products (int8 weights times those values, plus an int32 or int64 bias),
// their requantization and the Q0.15 products. int8 activations (the s8 kernels) are
// widened into scratch; int16 activations (16x8) have zero point 0, so their rows are
// used as they are.
#pragma once

#include <stdint.h>

#include "kernel_util.h"
#include "quant/quant_check.h"
#include "quant/quant_math.h"
#include "rnn/recurrent.h"

namespace mote {

// The row less its zero point: int8 widened into dst (n values), int16 (zero point 0,
// checked by the kernel's check()) the row itself.
inline const int16_t* recurrent_centered(const int8_t* src, int32_t zero_point, int32_t n, int16_t* dst) {
  for (int32_t k = 0; k < n; ++k) dst[k] = static_cast<int16_t>(src[k] - zero_point);
  return dst;
}
inline const int16_t* recurrent_centered(const int16_t* src, int32_t, int32_t, int16_t*) { return src; }

// recurrent_walk (recurrent.h) of an integer kernel: step(x, h, out) with x and h the
// centered rows ([I] and [H]; int8 rows are widened into `centered`, I + H int16 values)
// and out y's row.
template <typename Act, typename Step>
inline void recurrent_integer_walk(const OpContext& ctx, const LstmDims& d, int32_t x_zero_point,
                                   int32_t h_zero_point, int16_t* centered, Step step) {
  recurrent_walk<Act>(ctx, d, [&](const Act* x, const Act* h, Act* out) {
    step(recurrent_centered(x, x_zero_point, d.inputs, centered),
         recurrent_centered(h, h_zero_point, d.units, centered + d.inputs), out);
  });
}

// bias + sum_k w[k] * v[k]. int32: wrapping, as TFLite's int8 sums; int64 (16x8): each
// product in int32, the sum in int64.
inline int32_t recurrent_dot(const int8_t* w, const int16_t* v, int32_t n, int32_t bias) {
  uint32_t acc = static_cast<uint32_t>(bias);
  for (int32_t k = 0; k < n; ++k) acc += static_cast<uint32_t>(w[k] * v[k]);
  return static_cast<int32_t>(acc);
}
inline int64_t recurrent_dot(const int8_t* w, const int16_t* v, int32_t n, int64_t bias) {
  int64_t acc = bias;
  for (int32_t k = 0; k < n; ++k) acc += w[k] * v[k];
  return acc;
}

// recurrent_dot of three rows (a GRU's three gates) in one pass over v: acc[g] =
// bias[g] + w[g] . v.
inline void recurrent_dot3(const int8_t* const w[3], const int16_t* v, int32_t n, const int32_t bias[3],
                           int32_t acc[3]) {
  const int8_t* w0 = w[0];
  const int8_t* w1 = w[1];
  const int8_t* w2 = w[2];
  uint32_t a0 = static_cast<uint32_t>(bias[0]), a1 = static_cast<uint32_t>(bias[1]),
           a2 = static_cast<uint32_t>(bias[2]);
  for (int32_t k = 0; k < n; ++k) {
    const int32_t vk = v[k];
    a0 += static_cast<uint32_t>(w0[k] * vk);
    a1 += static_cast<uint32_t>(w1[k] * vk);
    a2 += static_cast<uint32_t>(w2[k] * vk);
  }
  acc[0] = static_cast<int32_t>(a0);
  acc[1] = static_cast<int32_t>(a1);
  acc[2] = static_cast<int32_t>(a2);
}
inline void recurrent_dot3(const int8_t* const w[3], const int16_t* v, int32_t n, const int64_t bias[3],
                           int64_t acc[3]) {
  for (int32_t g = 0; g < 3; ++g) acc[g] = recurrent_dot(w[g], v, n, bias[g]);
}

// A sum's requantization: multiply_by_quantized_multiplier for int32 sums, its 64-bit form
// (TFLite's, as the 16x8 kernels use) for int64 ones.
inline int32_t recurrent_requantize(int32_t acc, int32_t multiplier, int32_t shift) {
  return multiply_by_quantized_multiplier(acc, multiplier, shift);
}
inline int32_t recurrent_requantize(int64_t acc, int32_t multiplier, int32_t shift) {
  return multiply_by_quantized_multiplier64(acc, multiplier, shift);
}

inline int32_t recurrent_clamp16(int32_t v) { return clamp_i32(v, -32768, 32767); }

// q15 * v / 2^15 rounded (ties up): a Q0.15 factor in [0, 32767] times a value with
// |v| <= 65536 (the product fits int32).
inline int32_t recurrent_mul_q15(int32_t q15, int32_t v) { return (q15 * v + (1 << 14)) >> 15; }

// v clamped to Act's range.
template <typename Act>
inline Act recurrent_saturate(int32_t v) {
  return static_cast<Act>(clamp_i32(v, IntRange<Act>::kMin, IntRange<Act>::kMax));
}

// A shift check for int32 sums (valid_shift) or int64 ones (valid_shift64).
inline bool recurrent_shift_ok(int32_t shift, DType bias) {
  return bias == DType::kInt64 ? valid_shift64(shift) : valid_shift(shift);
}

// The zero point of an activation: any int8 value, or 0 for int16 (16x8: symmetric).
inline bool recurrent_zero_point_ok(int32_t zero_point, DType activation) {
  return activation == DType::kInt16 ? zero_point == 0 : valid_zero_point<int8_t>(zero_point);
}

}  // namespace mote
