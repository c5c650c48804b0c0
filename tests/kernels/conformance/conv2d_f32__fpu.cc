// Conformance of conv2d_f32__fpu against conv2d_f32 (groups 1): 1x1 unpadded windows
// (the fast path, any stride), larger windows with padding, strides and dilations (border
// pixels that do not pair), channel counts that leave tails of 1..3 channels and of 1..3
// values per run, odd pixel counts, batches, absent bias, every activation range, value
// ranges from 1e-3 to 300. Tolerance: expect_close_f32 with the window's K + 1 terms
// (the same order as the reference is kept, so most outputs agree bit for bit; the
// bound admits any order).
#include "f32_variant_suites.h"

namespace mote::conformance {

int run_conv2d_f32__fpu(Rng& rng, int cases) {
  return run_conv2d_f32_cases(rng, cases, "conv2d_f32__fpu", conv2d_f32__fpu);
}

}  // namespace mote::conformance
