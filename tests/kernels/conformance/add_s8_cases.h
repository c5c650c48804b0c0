// Random int8 ADD cases shared by the add_s8__dsp, add_s8__mve and add_s8_lut__dsp
// conformance suites, checked against the reference arithmetic (binary_quant::AddSub, what
// add_s8 computes per element) on same-shape inputs: random lengths, zero points,
// multipliers (realistic and extreme: INT32_MIN, INT32_MAX, negative, tiny), shifts in
// [-31, 0], clamp ranges, and the in-place forms (out == a, out == b). Internal to those
// suites.
#pragma once

#include "conformance.h"
#include "elementwise/binary_quant.h"
#include "elementwise/elementwise.h"

namespace mote::conformance {

// Runs the variant under test on `count` elements; returns false when it could not get
// the memory it needs from arena() (the case is then skipped).
using AddS8Variant = bool (*)(const QuantAddSubParams& q, const int8_t* a, const int8_t* b,
                              int8_t* out, int32_t count);

// Lengths: half the cases in [1, short_max], half in [long_min, long_max].
struct AddS8Lengths {
  int32_t short_max;
  int32_t long_min;
  int32_t long_max;
};

inline int32_t random_add_multiplier(Rng& rng) {
  switch (rng.uniform(0, 7)) {
    case 0: return INT32_MIN;
    case 1: return INT32_MAX;
    case 2: return rng.uniform(0, 1 << 20);
    case 3: return -rng.uniform(1, INT32_MAX);
    default: return rng.uniform(1 << 30, INT32_MAX);  // what the compiler derives
  }
}

inline QuantAddSubParams random_add_params(Rng& rng) {
  QuantAddSubParams q;
  q.input1_zero_point = rng.uniform(-128, 127);
  q.input2_zero_point = rng.uniform(-128, 127);
  q.output_zero_point = rng.uniform(-128, 127);
  q.input1_multiplier = random_add_multiplier(rng);
  q.input2_multiplier = random_add_multiplier(rng);
  q.output_multiplier = random_add_multiplier(rng);
  const bool realistic = rng.uniform(0, 3) != 0;
  q.input1_shift = realistic ? rng.uniform(-4, 0) : rng.uniform(-31, 0);
  q.input2_shift = realistic ? rng.uniform(-4, 0) : rng.uniform(-31, 0);
  q.output_shift = realistic ? rng.uniform(-23, -14) : rng.uniform(-31, 0);
  q.act_min = rng.coin() ? -128 : rng.uniform(-128, 127);
  q.act_max = rng.coin() ? 127 : rng.uniform(q.act_min, 127);
  return q;
}

inline int run_add_s8_cases(const char* name, AddS8Variant variant, AddS8Lengths lengths,
                            Rng& rng, int cases) {
  using Ref = binary_quant::AddSub<kAddSubLeftShiftS8, +1>;
  int failed = 0;
  for (int c = 0; c < cases; ++c) {
    Arena& mem = arena();
    mem.reset();
    const int32_t count = rng.coin() ? rng.uniform(1, lengths.short_max)
                                     : rng.uniform(lengths.long_min, lengths.long_max);
    const QuantAddSubParams q = random_add_params(rng);
    int8_t* a = mem.alloc_array<int8_t>(count);
    int8_t* b = mem.alloc_array<int8_t>(count);
    int8_t* expected = mem.alloc_array<int8_t>(count);
    int8_t* actual = mem.alloc_array<int8_t>(count);
    if (a == nullptr || b == nullptr || expected == nullptr || actual == nullptr) {
      skip_case(name, c, "arena too small");
      continue;
    }
    fill_s8(rng, a, count);
    fill_s8(rng, b, count);
    for (int32_t i = 0; i < count; ++i) expected[i] = static_cast<int8_t>(Ref::apply(q, a[i], b[i]));
    const int32_t mode = rng.uniform(0, 3);  // 0, 1: a fresh output; 2: over a; 3: over b
    const char* what = "add";
    bool ran = false;
    if (mode == 2) {
      for (int32_t i = 0; i < count; ++i) actual[i] = a[i];
      ran = variant(q, actual, b, actual, count);
      what = "in place over a";
    } else if (mode == 3) {
      for (int32_t i = 0; i < count; ++i) actual[i] = b[i];
      ran = variant(q, a, actual, actual, count);
      what = "in place over b";
    } else {
      ran = variant(q, a, b, actual, count);
    }
    if (!ran) {
      skip_case(name, c, "arena too small for the variant's memory");
      continue;
    }
    if (!expect_equal_s8(name, c, what, expected, actual, count)) ++failed;
  }
  return failed;
}

}  // namespace mote::conformance
