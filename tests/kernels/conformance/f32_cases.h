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

// out[i] = |in[i]| (nullptr stays nullptr).
inline const float* abs_copy(const float* in, float* out, size_t count) {
  if (in == nullptr) return nullptr;
  for (size_t i = 0; i < count; ++i) out[i] = in[i] < 0.0f ? -in[i] : in[i];
  return out;
}

}  // namespace mote::conformance
