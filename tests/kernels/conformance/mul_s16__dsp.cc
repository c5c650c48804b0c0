// Conformance of mul_s16__dsp against mul_s16 (mul_s16_cases.h).
#include "mul_s16_cases.h"

namespace mote::conformance {

int run_mul_s16__dsp(Rng& rng, int cases) { return run_mul_s16_cases("mul_s16__dsp", kMulS16DspEntry, rng, cases); }

}  // namespace mote::conformance
