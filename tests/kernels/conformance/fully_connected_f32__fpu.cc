// Conformance of fully_connected_f32__fpu against fully_connected_f32: feature counts
// that leave tails of 1..3 values and 1..3 output features, long rows (up to 1300, as
// MobileNet's 1280-feature classifier), batches, absent bias, every activation range,
// value ranges from 1e-3 to 300. Tolerance: expect_close_f32 with K + 1 terms (the same
// order as the reference is kept, so most outputs agree bit for bit; the bound admits
// any order).
#include "conformance.h"
#include "f32_cases.h"
#include "fully_connected/fully_connected.h"

namespace mote::conformance {

int run_fully_connected_f32__fpu(Rng& rng, int cases) {
  static const char kName[] = "fully_connected_f32__fpu";
  int failed = 0;
  for (int c = 0; c < cases; ++c) {
    Arena& a = arena();
    a.reset();
    const int32_t batches = rng.uniform(1, 3);
    const int32_t k_kind = rng.uniform(0, 2);
    const int32_t k = k_kind == 0 ? rng.uniform(1, 17) : (k_kind == 1 ? rng.uniform(18, 300) : rng.uniform(1000, 1300));
    const int32_t n = rng.coin() ? rng.uniform(1, 17) : rng.uniform(18, k_kind == 2 ? 24 : 40);
    FullyConnectedParams p{};
    draw_f32_activation(rng, &p.act_min, &p.act_max);
    F32Case t;
    const bool has_bias = rng.uniform(0, 3) != 0;
    if (!t.draw(a, rng, static_cast<size_t>(batches) * k, static_cast<size_t>(n) * k, has_bias ? n : 0,
                static_cast<size_t>(batches) * n)) {
      skip_case(kName, c, "arena too small");
      continue;
    }
    fully_connected_f32(p, batches, k, n, t.input, t.weights, t.bias, t.expected);
    fully_connected_f32__fpu(p, batches, k, n, t.input, t.weights, t.bias, t.actual);
    const FullyConnectedParams magnitude_params{-__builtin_inff(), __builtin_inff()};
    fully_connected_f32(magnitude_params, batches, k, n, t.abs_input, t.abs_weights, t.abs_bias, t.magnitude);
    if (!expect_close_f32(kName, c, has_bias ? "bias" : "no bias", t.expected, t.actual, t.magnitude, k + 1,
                          t.out_n)) {
      ++failed;
    }
  }
  return failed;
}

}  // namespace mote::conformance
