// Conformance of avg_pool2d_s16__v6m against avg_pool2d_s16 (pool2d_s16_cases.h).
#include "pool2d_s16_cases.h"

namespace mote::conformance {

int run_avg_pool2d_s16__v6m(Rng& rng, int cases) {
  return run_pool2d_s16_cases("avg_pool2d_s16__v6m", avg_pool2d_s16, avg_pool2d_s16__v6m, 65535, rng, cases);
}

}  // namespace mote::conformance
