// Conformance of avg_pool2d_s8__mve against avg_pool2d_s8 (pool2d_s8_dsp_cases.h: windows
// up to 400 cells, odd channel counts, pads, strides, batch, clamps).
#include "pool2d_s8_dsp_cases.h"

namespace mote::conformance {

int run_avg_pool2d_s8__mve(Rng& rng, int cases) {
  return run_pool2d_s8_cases("avg_pool2d_s8__mve", avg_pool2d_s8, avg_pool2d_s8__mve, rng, cases);
}

}  // namespace mote::conformance
