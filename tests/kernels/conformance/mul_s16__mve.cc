// Conformance of mul_s16__mve against mul_s16 (mul_s16_cases.h).
#include "mul_s16_cases.h"

namespace mote::conformance {

int run_mul_s16__mve(Rng& rng, int cases) { return run_mul_s16_cases("mul_s16__mve", kMulS16MveEntry, rng, cases); }

}  // namespace mote::conformance
