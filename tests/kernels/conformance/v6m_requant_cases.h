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

// ReLU-like output ranges (act_min at or above the zero point) with positive multipliers
// and right shifts of 1..15 (a few channels 16..31, a few zero multipliers), sums spread
// over +-2^18, so that the floors are exact and requant_v6m_positive_s8 takes the op
// (both of its paths: sums inside and outside [-2^15, 2^15)).
template <typename P>
void positive_v6m_requant(Rng& rng, P& p, int32_t channels, int32_t* multipliers, int32_t* shifts, int32_t* bias) {
  p.output_zero_point = rng.uniform(-128, 20);
  p.act_min = rng.coin() ? p.output_zero_point : rng.uniform(p.output_zero_point, 40);
  p.act_max = rng.coin() ? 127 : rng.uniform(p.act_min, 127);
  const bool small = rng.coin();  // small multipliers and shifts: every rounding shows
  for (int32_t o = 0; o < channels; ++o) {
    multipliers[o] = small ? rng.uniform(1, 1 << 21) : rng.uniform(1 << 30, INT32_MAX);
    shifts[o] = small ? rng.uniform(-4, -1) : rng.uniform(-15, -1);
    if (rng.uniform(0, 15) == 0) shifts[o] = rng.uniform(-31, -16);
    if (rng.uniform(0, 15) == 0) multipliers[o] = 0;
    if (bias != nullptr) bias[o] = rng.uniform(-(1 << 18), 1 << 18);
  }
}

}  // namespace mote::conformance
