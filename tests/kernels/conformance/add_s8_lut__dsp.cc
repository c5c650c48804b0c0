// Conformance of add_s8_lut__dsp against the reference int8 ADD arithmetic, with the
// tables made by add_s8_lut__dsp_make_params() as the compiler makes them; the cases are
// add_cases.h's, short lengths and lengths past the 4-lane loop. (check() on
// corrupted tables: tests/kernels/add_s8_lut_dsp_test.cc.)
#include "add_cases.h"

namespace mote::conformance {

namespace {

bool run_variant(const QuantAddSubParams& q, const int8_t* a, const int8_t* b, int8_t* out,
                 int32_t count) {
  AddS8LutParams* params = arena().alloc_array<AddS8LutParams>(1);
  if (params == nullptr) return false;
  add_s8_lut__dsp_make_params(q, params);
  add_s8_lut__dsp(*params, a, b, out, count);
  return true;
}

}  // namespace

int run_add_s8_lut__dsp(Rng& rng, int cases) {
  return run_add_cases<AddS8Draws>("add_s8_lut__dsp", run_variant, AddLengths{64, 500, 5000}, rng,
                          cases);
}

}  // namespace mote::conformance
