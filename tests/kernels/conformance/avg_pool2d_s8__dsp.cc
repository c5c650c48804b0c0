// Conformance of avg_pool2d_s8__dsp against avg_pool2d_s8 (pool2d_s8_dsp_cases.h).
#include "pool2d_s8_dsp_cases.h"

namespace mote::conformance {

int run_avg_pool2d_s8__dsp(Rng& rng, int cases) {
  return run_pool2d_s8_cases("avg_pool2d_s8__dsp", avg_pool2d_s8, avg_pool2d_s8__dsp, rng, cases);
}

}  // namespace mote::conformance
