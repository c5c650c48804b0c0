// Conformance of depthwise_conv2d_f32__fpu against depthwise_conv2d_f32 (depth multiplier
// 1): windows 1x1 to 5x5 with padding, strides and dilations (border pixels that do not
// pair), channel counts that leave tails of 1..3, odd pixel counts, batches, absent bias,
// every activation range, value ranges from 1e-3 to 300. Tolerance: expect_close_f32 with
// KH * KW + 1 terms (the same order as the reference is kept, so most outputs agree bit
// for bit; the bound admits any order).
#include "f32_variant_suites.h"

namespace mote::conformance {

int run_depthwise_conv2d_f32__fpu(Rng& rng, int cases) {
  return run_depthwise_conv2d_f32_cases(rng, cases, "depthwise_conv2d_f32__fpu", depthwise_conv2d_f32__fpu);
}

}  // namespace mote::conformance
