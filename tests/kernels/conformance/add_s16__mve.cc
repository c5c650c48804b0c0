// Conformance of add_s16__mve against the reference int16 ADD arithmetic; the cases are
// add_cases.h's int16 draws, with every tail of the 4-lane loop among the short lengths.
#include "add_cases.h"

namespace mote::conformance {

namespace {

bool run_variant(const QuantAddSubParams& q, const int16_t* a, const int16_t* b, int16_t* out,
                 int32_t count) {
  add_s16__mve(q, a, b, out, count);
  return true;
}

}  // namespace

int run_add_s16__mve(Rng& rng, int cases) {
  return run_add_cases<AddS16Draws>("add_s16__mve", run_variant, AddLengths{40, 1, 6000}, rng, cases);
}

}  // namespace mote::conformance
