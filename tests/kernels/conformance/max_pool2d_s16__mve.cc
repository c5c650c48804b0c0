// Conformance of max_pool2d_s16__mve against max_pool2d_s16 (pool2d_s16_cases.h).
#include "pool2d_s16_cases.h"

namespace mote::conformance {

int run_max_pool2d_s16__mve(Rng& rng, int cases) {
  return run_pool2d_s16_cases("max_pool2d_s16__mve", max_pool2d_s16, max_pool2d_s16__mve, 65535, rng, cases);
}

}  // namespace mote::conformance
