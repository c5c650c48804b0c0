// Conformance of mul_s16__v6m against mul_s16 (mul_s16_cases.h).
#include "mul_s16_cases.h"

namespace mote::conformance {

int run_mul_s16__v6m(Rng& rng, int cases) { return run_mul_s16_cases("mul_s16__v6m", kMulS16V6mEntry, rng, cases); }

}  // namespace mote::conformance
