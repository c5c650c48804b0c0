// Dot products of one int16 row against four int8 rows with Helium (the 16x8 kernels'
// inner step, shared by the Helium convolution and fully connected kernels): per 8 values one
// VLDRH of x, four VLDRB.S16 of the rows and four VMLADAVA.S16, then a predicated tail.
// On a core without MVE the portable definitions of isa/mve.h run the same code.
#pragma once

#include <stdint.h>

#include "isa/mve.h"

namespace mote::mve {

// Four int32 sums, wrapping as VMLADAVA does.
struct Dot4 {
  int32_t a0, a1, a2, a3;
};

// sum_j x[j] * wi[j] over j < k for the rows w0..w3 (wrapping int32).
__attribute__((always_inline)) inline Dot4 dot_s16x8_x4(const int16_t* x, const int8_t* w0,
                                                       const int8_t* w1, const int8_t* w2,
                                                       const int8_t* w3, int32_t k) {
  Dot4 d{0, 0, 0, 0};
  const int32_t n = k % 8;
  for (int32_t steps = k / 8; steps > 0; --steps) {
    const int16x8_t vx = vldrhq_s16(x);
    d.a0 = vmladavaq_s16(d.a0, vx, vldrbq_s16(w0));
    d.a1 = vmladavaq_s16(d.a1, vx, vldrbq_s16(w1));
    d.a2 = vmladavaq_s16(d.a2, vx, vldrbq_s16(w2));
    d.a3 = vmladavaq_s16(d.a3, vx, vldrbq_s16(w3));
    x += 8;
    w0 += 8;
    w1 += 8;
    w2 += 8;
    w3 += 8;
  }
  if (n > 0) {
    const mve_pred16_t p = vctp16q(static_cast<uint32_t>(n));
    const int16x8_t vx = vldrhq_z_s16(x, p);
    d.a0 = vmladavaq_s16(d.a0, vx, vldrbq_z_s16(w0, p));
    d.a1 = vmladavaq_s16(d.a1, vx, vldrbq_z_s16(w1, p));
    d.a2 = vmladavaq_s16(d.a2, vx, vldrbq_z_s16(w2, p));
    d.a3 = vmladavaq_s16(d.a3, vx, vldrbq_z_s16(w3, p));
  }
  return d;
}

}  // namespace mote::mve
