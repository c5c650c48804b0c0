// Conformance of max_pool2d_s8__mve against max_pool2d_s8 (pool2d_s8_dsp_cases.h).
#include "pool2d_s8_dsp_cases.h"

namespace mote::conformance {

int run_max_pool2d_s8__mve(Rng& rng, int cases) {
  return run_pool2d_s8_cases("max_pool2d_s8__mve", max_pool2d_s8, max_pool2d_s8__mve, rng, cases);
}

}  // namespace mote::conformance
