// Conformance of gru_s8__dsp against gru_s8: gru_cases.h's cases (sequences, both
// linear_before_reset forms, zero and nonzero zero points, odd sizes, misaligned scratch,
// the last hidden state fed back as the next run's h0).
#include "gru_cases.h"

namespace mote::conformance {

int run_gru_s8__dsp(Rng& rng, int cases) { return run_gru_s8_cases("gru_s8__dsp", kGruS8DspEntry, rng, cases); }

}  // namespace mote::conformance
