// Conformance of add_s16__v6m against the reference int16 ADD arithmetic; the cases are
// add_cases.h's int16 draws: half as the compiler derives them (the kernel's 32-bit-multiply
// loop), half wild (its per-element fallback, and the fast loop at its exactness
// bounds), odd lengths.
#include "add_cases.h"

namespace mote::conformance {

namespace {

bool run_variant(const QuantAddSubParams& q, const int16_t* a, const int16_t* b, int16_t* out,
                 int32_t count) {
  add_s16__v6m(q, a, b, out, count);
  return true;
}

}  // namespace

int run_add_s16__v6m(Rng& rng, int cases) {
  return run_add_cases<AddS16Draws>("add_s16__v6m", run_variant, AddLengths{40, 1, 6000}, rng, cases);
}

}  // namespace mote::conformance
