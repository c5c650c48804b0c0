// Draws shared by the float32 variant suites: value ranges (small, large, tiny, signed
// or not), fused activation ranges (none, ReLU, ReLU6, random, a single value) and the
// absolute values the tolerance of expect_close_f32 is computed from.
#pragma once

#include "conformance.h"

namespace mote::conformance {

// Fills data with values of a randomly drawn range.
inline void fill_f32_values(Rng& rng, float* data, size_t count) {
  switch (rng.uniform(0, 4)) {
    case 0: fill_f32(rng, data, count, -1.0f, 1.0f); break;
    case 1: fill_f32(rng, data, count, -300.0f, 300.0f); break;
    case 2: fill_f32(rng, data, count, 0.0f, 1e-3f); break;
    case 3: fill_f32(rng, data, count, 0.0f, 8.0f); break;
    default:  // small integers and zeros: many exact sums
      for (size_t i = 0; i < count; ++i) data[i] = static_cast<float>(rng.uniform(-4, 4));
      break;
  }
}

// A fused activation range: none (+-inf), ReLU, ReLU6, a random range, a single value.
inline void draw_f32_activation(Rng& rng, float* lo, float* hi) {
  const float inf = __builtin_inff();
  switch (rng.uniform(0, 4)) {
    case 0: *lo = -inf; *hi = inf; break;
    case 1: *lo = 0.0f; *hi = inf; break;
    case 2: *lo = 0.0f; *hi = 6.0f; break;
    case 3: {
      float r[2];
      fill_f32(rng, r, 2, -20.0f, 20.0f);
      *lo = r[0] < r[1] ? r[0] : r[1];
      *hi = r[0] < r[1] ? r[1] : r[0];
      break;
    }
    default: fill_f32(rng, lo, 1, -2.0f, 2.0f); *hi = *lo; break;
  }
}

// The buffers of one case of a float op with an input, weights, an optional bias and an
// output: the reference's and the variant's outputs, and the absolute values of the
// operands, which the reference run over (without activation) turns into the magnitudes
// expect_close_f32 bounds the difference with.
struct F32Case {
  size_t in_n = 0, w_n = 0, bias_n = 0, out_n = 0;
  float* input = nullptr;
  float* weights = nullptr;
  float* bias = nullptr;  // nullptr: no bias
  float* expected = nullptr;
  float* actual = nullptr;
  float* abs_input = nullptr;
  float* abs_weights = nullptr;
  float* abs_bias = nullptr;
  float* magnitude = nullptr;

  // Takes the buffers from the arena (bias_count 0: no bias) and fills input, weights and
  // bias with drawn values; false when the arena is too small.
  bool draw(Arena& a, Rng& rng, size_t input_count, size_t weight_count, size_t bias_count, size_t output_count) {
    in_n = input_count;
    w_n = weight_count;
    bias_n = bias_count;
    out_n = output_count;
    input = a.alloc_array<float>(in_n);
    weights = a.alloc_array<float>(w_n);
    expected = a.alloc_array<float>(out_n);
    actual = a.alloc_array<float>(out_n);
    abs_input = a.alloc_array<float>(in_n);
    abs_weights = a.alloc_array<float>(w_n);
    magnitude = a.alloc_array<float>(out_n);
    if (bias_n != 0) {
      bias = a.alloc_array<float>(bias_n);
      abs_bias = a.alloc_array<float>(bias_n);
      if (bias == nullptr || abs_bias == nullptr) return false;
    }
    if (input == nullptr || weights == nullptr || expected == nullptr || actual == nullptr || abs_input == nullptr ||
        abs_weights == nullptr || magnitude == nullptr) {
      return false;
    }
    fill_f32_values(rng, input, in_n);
    fill_f32_values(rng, weights, w_n);
    if (bias != nullptr) fill_f32_values(rng, bias, bias_n);
    absolute(input, abs_input, in_n);
    absolute(weights, abs_weights, w_n);
    if (bias != nullptr) absolute(bias, abs_bias, bias_n);
    return true;
  }

 private:
  static void absolute(const float* in, float* out, size_t count) {
    for (size_t i = 0; i < count; ++i) out[i] = in[i] < 0.0f ? -in[i] : in[i];
  }
};

}  // namespace mote::conformance
