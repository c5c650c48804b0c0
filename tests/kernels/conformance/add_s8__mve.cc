// Conformance of add_s8__mve against the reference int8 ADD arithmetic; the cases are
// add_cases.h's, with every tail of the 16-lane loop among the short lengths.
#include "add_cases.h"

namespace mote::conformance {

namespace {

bool run_variant(const QuantAddSubParams& q, const int8_t* a, const int8_t* b, int8_t* out,
                 int32_t count) {
  add_s8__mve(q, a, b, out, count);
  return true;
}

}  // namespace

int run_add_s8__mve(Rng& rng, int cases) {
  return run_add_cases<AddS8Draws>("add_s8__mve", run_variant, AddLengths{40, 1, 5000}, rng, cases);
}

}  // namespace mote::conformance
