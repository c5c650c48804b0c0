// Conformance of add_s8_lut__dsp against the reference int8 ADD arithmetic
// (binary_quant::AddSub, what add_s8 computes per element) on same-shape inputs, with
// the tables made by add_s8_lut__dsp_make_params() as the compiler makes them: random
// lengths (short ones and past the 4-lane loop), zero points, multipliers (realistic and
// extreme, INT32_MIN included), shifts in [-31, 0], clamp ranges, and in place (out == a
// or out == b). (check() on corrupted tables: tests/kernels/add_s8_lut_dsp_test.cc.)
#include "conformance.h"
#include "elementwise/binary_quant.h"
#include "elementwise/elementwise.h"

namespace mote::conformance {

namespace {

int32_t lut_multiplier(Rng& rng) {
  const int32_t kind = rng.uniform(0, 9);
  if (kind == 0) return INT32_MIN;
  if (kind == 1) return rng.uniform(INT32_MIN + 1, -1);
  if (kind == 2) return rng.uniform(0, 1 << 16);
  return rng.uniform(1 << 30, INT32_MAX);  // what the compiler derives
}

}  // namespace

int run_add_s8_lut__dsp(Rng& rng, int cases) {
  static const char kName[] = "add_s8_lut__dsp";
  using Ref = binary_quant::AddSub<kAddSubLeftShiftS8, +1>;
  int failed = 0;
  for (int c = 0; c < cases; ++c) {
    Arena& mem = arena();
    mem.reset();
    const int32_t count = rng.coin() ? rng.uniform(1, 64) : rng.uniform(500, 5000);
    QuantAddSubParams q;
    q.input1_zero_point = rng.uniform(-128, 127);
    q.input2_zero_point = rng.uniform(-128, 127);
    q.output_zero_point = rng.uniform(-128, 127);
    q.input1_multiplier = lut_multiplier(rng);
    q.input2_multiplier = lut_multiplier(rng);
    q.output_multiplier = lut_multiplier(rng);
    const bool typical = rng.uniform(0, 2) != 0;
    q.input1_shift = typical ? rng.uniform(-4, 0) : rng.uniform(-31, 0);
    q.input2_shift = typical ? rng.uniform(-4, 0) : rng.uniform(-31, 0);
    q.output_shift = typical ? rng.uniform(-23, -14) : rng.uniform(-31, 0);
    q.act_min = rng.coin() ? -128 : rng.uniform(-128, 127);
    q.act_max = rng.coin() ? 127 : rng.uniform(q.act_min, 127);

    AddS8LutParams* params = mem.alloc_array<AddS8LutParams>(1);
    int8_t* a = mem.alloc_array<int8_t>(count);
    int8_t* b = mem.alloc_array<int8_t>(count);
    int8_t* expected = mem.alloc_array<int8_t>(count);
    int8_t* actual = mem.alloc_array<int8_t>(count);
    if (params == nullptr || a == nullptr || b == nullptr || expected == nullptr || actual == nullptr) {
      print("add_s8_lut__dsp: arena too small, case skipped\n");
      continue;
    }
    add_s8_lut__dsp_make_params(q, params);
    fill_s8(rng, a, count);
    fill_s8(rng, b, count);
    for (int32_t i = 0; i < count; ++i) expected[i] = static_cast<int8_t>(Ref::apply(q, a[i], b[i]));
    const int32_t mode = rng.uniform(0, 3);  // 0, 1: fresh output; 2: over a; 3: over b
    const char* what = "add";
    if (mode == 2) {
      for (int32_t i = 0; i < count; ++i) actual[i] = a[i];
      add_s8_lut__dsp(*params, actual, b, actual, count);
      what = "in place over a";
    } else if (mode == 3) {
      for (int32_t i = 0; i < count; ++i) actual[i] = b[i];
      add_s8_lut__dsp(*params, a, actual, actual, count);
      what = "in place over b";
    } else {
      add_s8_lut__dsp(*params, a, b, actual, count);
    }
    if (!expect_equal_s8(kName, c, what, expected, actual, count)) ++failed;
  }
  return failed;
}

}  // namespace mote::conformance
