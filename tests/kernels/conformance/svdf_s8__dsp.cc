// Conformance of svdf_s8__dsp against svdf_s8: svdf_cases.h's cases (several runs of one
// op with the state carried over; int16 and int8 state, zero and nonzero zero points, odd
// sizes, wrapping sums, extreme multipliers).
#include "svdf_cases.h"

namespace mote::conformance {

int run_svdf_s8__dsp(Rng& rng, int cases) { return run_svdf_s8_cases("svdf_s8__dsp", kSvdfS8DspEntry, rng, cases); }

}  // namespace mote::conformance
