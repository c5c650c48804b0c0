// Conformance of lstm_s8__dsp against lstm_s8: lstm_s8_cases.h's cases (input and unit
// counts with and without feature tails past the last group of four, weight zero points,
// wild requantizations, carried state).
#include "lstm_s8_cases.h"

namespace mote::conformance {

int run_lstm_s8__dsp(Rng& rng, int cases) {
  const LstmS8Variant variant = {"lstm_s8__dsp", lstm_s8__dsp_check, lstm_s8__dsp_run,
                                 lstm_s8__dsp_scratch_bytes};
  return run_lstm_s8_cases(variant, rng, cases);
}

}  // namespace mote::conformance
