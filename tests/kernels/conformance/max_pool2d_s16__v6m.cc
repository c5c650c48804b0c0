// Conformance of max_pool2d_s16__v6m against max_pool2d_s16 (pool2d_s16_cases.h).
#include "pool2d_s16_cases.h"

namespace mote::conformance {

int run_max_pool2d_s16__v6m(Rng& rng, int cases) {
  return run_pool2d_s16_cases("max_pool2d_s16__v6m", max_pool2d_s16, max_pool2d_s16__v6m, 65535, rng, cases);
}

}  // namespace mote::conformance
