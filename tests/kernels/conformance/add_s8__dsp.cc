// Conformance of add_s8__dsp (tables built in scratch per run) against the reference int8
// ADD arithmetic; the cases are add_cases.h's, with lengths on both sides of the
// kernel's table threshold.
#include "add_cases.h"

namespace mote::conformance {

namespace {

bool run_variant(const QuantAddSubParams& q, const int8_t* a, const int8_t* b, int8_t* out,
                 int32_t count) {
  uint8_t* scratch = arena().alloc_array<uint8_t>(add_s8__dsp_scratch_bytes());
  if (scratch == nullptr) return false;
  add_s8__dsp(q, a, b, out, count, scratch);
  return true;
}

}  // namespace

int run_add_s8__dsp(Rng& rng, int cases) {
  return run_add_cases<AddS8Draws>("add_s8__dsp", run_variant, AddLengths{600, 1, 6000}, rng, cases);
}

}  // namespace mote::conformance
