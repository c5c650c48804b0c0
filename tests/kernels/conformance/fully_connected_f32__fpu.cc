// Conformance of fully_connected_f32__fpu against fully_connected_f32: feature counts
// that leave tails of 1..3 values and 1..3 output features, long rows (up to 1300, as
// MobileNet's 1280-feature classifier), batches, absent bias, every activation range,
// value ranges from 1e-3 to 300. Tolerance: expect_close_f32 with K + 1 terms (the same
// order as the reference is kept, so most outputs agree bit for bit; the bound admits
// any order).
#include "f32_variant_suites.h"

namespace mote::conformance {

int run_fully_connected_f32__fpu(Rng& rng, int cases) {
  return run_fully_connected_f32_cases(rng, cases, "fully_connected_f32__fpu", fully_connected_f32__fpu);
}

}  // namespace mote::conformance
