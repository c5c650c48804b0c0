// Conformance of mean_s16__v6m against mean_s16 (mean_s16_cases.h).
#include "mean_s16_cases.h"

namespace mote::conformance {

int run_mean_s16__v6m(Rng& rng, int cases) { return run_mean_s16_cases("mean_s16__v6m", kMeanS16V6mEntry, rng, cases); }

}  // namespace mote::conformance
