// Conformance of max_pool2d_s16__dsp against max_pool2d_s16 (pool2d_s16_cases.h).
#include "pool2d_s16_cases.h"

namespace mote::conformance {

int run_max_pool2d_s16__dsp(Rng& rng, int cases) {
  return run_pool2d_s16_cases("max_pool2d_s16__dsp", max_pool2d_s16, max_pool2d_s16__dsp, 65535, rng, cases);
}

}  // namespace mote::conformance
