// Conformance of avg_pool2d_s16__mve against avg_pool2d_s16 (pool2d_s16_cases.h).
#include "pool2d_s16_cases.h"

namespace mote::conformance {

int run_avg_pool2d_s16__mve(Rng& rng, int cases) {
  return run_pool2d_s16_cases("avg_pool2d_s16__mve", avg_pool2d_s16, avg_pool2d_s16__mve,
                              kAvgPool2dS16MveMaxTaps, rng, cases);
}

}  // namespace mote::conformance
