// Conformance of add_s8__dsp against the reference int8 ADD arithmetic
// (binary_quant::AddSub, what add_s8 computes per element) on same-shape inputs:
// random lengths (both sides of the table threshold), zero points, multipliers
// (realistic and extreme, INT32_MIN included), shifts in [-31, 0], clamp ranges, and
// the in-place form (out == a).
#include "conformance.h"
#include "elementwise/binary_quant.h"
#include "elementwise/elementwise.h"

namespace mote::conformance {

namespace {

int32_t random_multiplier(Rng& rng) {
  switch (rng.uniform(0, 7)) {
    case 0: return INT32_MIN;
    case 1: return INT32_MAX;
    case 2: return rng.uniform(0, 1 << 20);
    case 3: return -rng.uniform(1, INT32_MAX);
    default: return rng.uniform(1 << 30, INT32_MAX);  // what the compiler derives
  }
}

}  // namespace

int run_add_s8__dsp(Rng& rng, int cases) {
  static const char kName[] = "add_s8__dsp";
  using Ref = binary_quant::AddSub<kAddSubLeftShiftS8, +1>;
  int failed = 0;
  for (int c = 0; c < cases; ++c) {
    Arena& arena_ref = arena();
    arena_ref.reset();
    const int32_t count = rng.coin() ? rng.uniform(1, 600) : rng.uniform(1, 6000);
    QuantAddSubParams p;
    p.input1_zero_point = rng.uniform(-128, 127);
    p.input2_zero_point = rng.uniform(-128, 127);
    p.output_zero_point = rng.uniform(-128, 127);
    p.input1_multiplier = random_multiplier(rng);
    p.input2_multiplier = random_multiplier(rng);
    p.output_multiplier = random_multiplier(rng);
    const bool realistic = rng.uniform(0, 3) != 0;
    p.input1_shift = realistic ? rng.uniform(-3, 0) : rng.uniform(-31, 0);
    p.input2_shift = realistic ? rng.uniform(-3, 0) : rng.uniform(-31, 0);
    p.output_shift = realistic ? rng.uniform(-22, -15) : rng.uniform(-31, 0);
    p.act_min = rng.coin() ? -128 : rng.uniform(-128, 127);
    p.act_max = rng.coin() ? 127 : rng.uniform(p.act_min, 127);

    int8_t* a = arena_ref.alloc_array<int8_t>(count);
    int8_t* b = arena_ref.alloc_array<int8_t>(count);
    int8_t* expected = arena_ref.alloc_array<int8_t>(count);
    int8_t* actual = arena_ref.alloc_array<int8_t>(count);
    uint8_t* scratch = arena_ref.alloc_array<uint8_t>(add_s8__dsp_scratch_bytes());
    if (a == nullptr || b == nullptr || expected == nullptr || actual == nullptr ||
        scratch == nullptr) {
      print("add_s8__dsp: arena too small, case skipped\n");
      continue;
    }
    fill_s8(rng, a, count);
    fill_s8(rng, b, count);
    for (int32_t i = 0; i < count; ++i) expected[i] = static_cast<int8_t>(Ref::apply(p, a[i], b[i]));
    const bool in_place = rng.uniform(0, 3) == 0;
    if (in_place) {
      for (int32_t i = 0; i < count; ++i) actual[i] = a[i];
      add_s8__dsp(p, actual, b, actual, count, scratch);
    } else {
      add_s8__dsp(p, a, b, actual, count, scratch);
    }
    if (!expect_equal_s8(kName, c, in_place ? "in place" : "add", expected, actual, count)) {
      ++failed;
    }
  }
  return failed;
}

}  // namespace mote::conformance
