// Requantizations that stress the ARMv6-M kernels' output step, shared by the
// conv2d_s8__v6m and depthwise_conv2d_s8__v6m suites: call after the case's own
// multipliers, shifts, biases and output range are drawn. P is the op's params (it needs
// output_zero_point, act_min and act_max); bias may be null.
#pragma once

#include <stdint.h>

#include "conformance.h"

namespace mote::conformance {

template <typename P>
void perturb_v6m_requant(Rng& rng, P& p, int32_t channels, int32_t* multipliers, int32_t* shifts, int32_t* bias) {
  if (rng.uniform(0, 3) == 0) {
    // Requantizations whose every rounding shows: small multipliers of any low half
    // (negative ones included), shifts -1..-3, no clamping, sums spread over +-2^17 (the
    // blocks' split at [-2^15, 2^15) and the partial products' signs).
    p.output_zero_point = rng.uniform(-8, 8);
    p.act_min = -128;
    p.act_max = 127;
    for (int32_t o = 0; o < channels; ++o) {
      multipliers[o] = rng.uniform(1, 1 << 21);
      shifts[o] = rng.uniform(-3, -1);
      if (bias != nullptr) bias[o] = rng.uniform(-(1 << 17), 1 << 17);
    }
  }
  if (rng.uniform(0, 5) == 0) {  // zero multipliers (all-zero weights) with any shift, left ones included
    for (int32_t o = 0; o < channels; ++o) {
      if (rng.uniform(0, 2) != 0) continue;
      multipliers[o] = 0;
      shifts[o] = rng.uniform(-31, 30);
    }
  }
}

}  // namespace mote::conformance
