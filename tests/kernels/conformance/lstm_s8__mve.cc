// Conformance of lstm_s8__mve against lstm_s8: lstm_s8_cases.h's cases (input and unit
// counts below, at and past 16, so the predicated last block of every length; weight
// zero points, wild requantizations, carried state).
#include "lstm_s8_cases.h"

namespace mote::conformance {

int run_lstm_s8__mve(Rng& rng, int cases) {
  const LstmS8Variant variant = {"lstm_s8__mve", lstm_s8__mve_check, lstm_s8__mve_run,
                                 lstm_s8__mve_scratch_bytes};
  return run_lstm_s8_cases(variant, rng, cases);
}

}  // namespace mote::conformance
