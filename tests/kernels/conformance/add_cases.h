// Random quantized ADD cases shared by the add_s8__dsp, add_s8__mve, add_s8_lut__dsp,
// add_s16__dsp and add_s16__mve conformance suites, checked against the reference
// arithmetic (binary_quant::AddSub, what add_s8 / add_s16 compute per element) on
// same-shape inputs: random lengths, zero points, multipliers (realistic and extreme:
// INT32_MIN, INT32_MAX, negative, tiny), shifts in [-31, 0], clamp ranges, and the
// in-place forms (out == a, out == b). Internal to those suites.
#pragma once

#include "conformance.h"
#include "elementwise/binary_quant.h"
#include "elementwise/elementwise.h"

namespace mote::conformance {

// Runs the variant under test on `count` elements; returns false when it could not get
// the memory it needs from arena() (the case is then skipped).
template <typename T>
using AddVariant = bool (*)(const QuantAddSubParams& q, const T* a, const T* b, T* out,
                            int32_t count);
using AddS8Variant = AddVariant<int8_t>;
using AddS16Variant = AddVariant<int16_t>;

// Lengths: half the cases in [1, short_max], half in [long_min, long_max].
struct AddLengths {
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

// Zero points from zero_point(rng), any multipliers, shifts three times in four
// realistic (inputs in [-4, 0], output in [out_shift_lo, out_shift_hi]), else in [-31, 0].
inline void draw_wild_add_params(Rng& rng, int32_t (*zero_point)(Rng&), int32_t out_shift_lo,
                                 int32_t out_shift_hi, QuantAddSubParams* q) {
  q->input1_zero_point = zero_point(rng);
  q->input2_zero_point = zero_point(rng);
  q->output_zero_point = zero_point(rng);
  q->input1_multiplier = random_add_multiplier(rng);
  q->input2_multiplier = random_add_multiplier(rng);
  q->output_multiplier = random_add_multiplier(rng);
  const bool realistic = rng.uniform(0, 3) != 0;
  q->input1_shift = realistic ? rng.uniform(-4, 0) : rng.uniform(-31, 0);
  q->input2_shift = realistic ? rng.uniform(-4, 0) : rng.uniform(-31, 0);
  q->output_shift = realistic ? rng.uniform(out_shift_lo, out_shift_hi) : rng.uniform(-31, 0);
}

// [act_min, act_max] within [lo, hi]: each end at the type's bound half the time.
inline void draw_add_act_range(Rng& rng, int32_t lo, int32_t hi, QuantAddSubParams* q) {
  q->act_min = rng.coin() ? lo : rng.uniform(lo, hi);
  q->act_max = rng.coin() ? hi : rng.uniform(q->act_min, hi);
}

// int8: left shift 20; realistic output shifts in [-23, -14].
struct AddS8Draws {
  using T = int8_t;
  static constexpr int32_t kLeftShift = kAddSubLeftShiftS8;
  static int32_t zero_point(Rng& rng) { return rng.uniform(-128, 127); }
  static QuantAddSubParams params(Rng& rng) {
    QuantAddSubParams q;
    draw_wild_add_params(rng, zero_point, -23, -14, &q);
    draw_add_act_range(rng, -128, 127, &q);
    return q;
  }
  static void fill(Rng& rng, int8_t* data, int32_t count) { fill_s8(rng, data, count); }
};

// int16 (TFLite 16x8): left shift 15. Half the cases as the compiler derives them (zero
// points 0, one input at multiplier 2^30 and shift 0 or both, the other at a multiplier in
// [2^30, 2^31) and a shift in [-4, -1], output shift in [-18, -10] or [-4, -1]), a quarter
// with input zero points 0, large positive multipliers and input shifts of 0 or -1 (the
// rescaled sum near and past 2^30), a quarter drawn as for int8 over int16's ranges with
// extreme zero points.
struct AddS16Draws {
  using T = int16_t;
  static constexpr int32_t kLeftShift = kAddSubLeftShiftS16;
  // -32768, 32767 or any, a quarter of the time each; maybe_: 0 half the time.
  static int32_t zero_point(Rng& rng) {
    switch (rng.uniform(0, 3)) {
      case 0: return -32768;
      case 1: return 32767;
      default: return rng.uniform(-32768, 32767);
    }
  }
  static int32_t maybe_zero_point(Rng& rng) { return rng.coin() ? 0 : zero_point(rng); }
  static QuantAddSubParams params(Rng& rng) {
    QuantAddSubParams q;
    const int32_t kind = rng.uniform(0, 3);
    if (kind == 2) {  // near the bounds of the variants' int32 arithmetic
      q.input1_zero_point = q.input2_zero_point = 0;
      q.output_zero_point = rng.coin() ? 0 : zero_point(rng);
      q.input1_multiplier = rng.coin() ? INT32_MAX : rng.uniform(1 << 29, INT32_MAX);
      q.input2_multiplier = rng.coin() ? INT32_MAX : rng.uniform(1 << 29, INT32_MAX);
      q.output_multiplier = rng.coin() ? INT32_MAX : rng.uniform(1, INT32_MAX);
      q.input1_shift = rng.uniform(-1, 0);
      q.input2_shift = rng.uniform(-1, 0);
      q.output_shift = rng.uniform(-31, -1);
    } else if (kind <= 1) {
      q.input1_zero_point = q.input2_zero_point = 0;
      q.output_zero_point = rng.uniform(0, 3) == 0 ? zero_point(rng) : 0;
      const int32_t larger = rng.uniform(0, 2);  // 0: input 1, 1: input 2, 2: equal scales
      q.input1_multiplier = larger != 1 ? 1 << 30 : rng.uniform(1 << 30, INT32_MAX);
      q.input1_shift = larger != 1 ? 0 : rng.uniform(-4, -1);
      q.input2_multiplier = larger != 0 ? 1 << 30 : rng.uniform(1 << 30, INT32_MAX);
      q.input2_shift = larger != 0 ? 0 : rng.uniform(-4, -1);
      q.output_multiplier = rng.uniform(1 << 30, INT32_MAX);
      // A small output shift (an output scale near the inputs') makes every unit of the
      // rescaled inputs, and so their rounding, visible in the output.
      q.output_shift = rng.uniform(0, 3) == 0 ? rng.uniform(-4, -1) : rng.uniform(-18, -10);
    } else {
      draw_wild_add_params(rng, maybe_zero_point, -18, -10, &q);
    }
    draw_add_act_range(rng, -32768, 32767, &q);
    return q;
  }
  // Any int16 values; one case in four half -32768 or 32767, one in four small (|v| <= 40:
  // unsaturated outputs under a small output shift).
  static void fill(Rng& rng, int16_t* data, int32_t count) {
    const int32_t kind = rng.uniform(0, 3);
    for (int32_t i = 0; i < count; ++i) {
      int32_t v = kind == 1 ? rng.uniform(-40, 40) : rng.uniform(-32768, 32767);
      if (kind == 0 && rng.coin()) v = rng.coin() ? -32768 : 32767;
      data[i] = static_cast<int16_t>(v);
    }
  }
};

inline bool expect_equal(const char* variant, int case_index, const char* what,
                         const int8_t* expected, const int8_t* actual, int32_t count) {
  return expect_equal_s8(variant, case_index, what, expected, actual, static_cast<size_t>(count));
}
inline bool expect_equal(const char* variant, int case_index, const char* what,
                         const int16_t* expected, const int16_t* actual, int32_t count) {
  return expect_equal_s16(variant, case_index, what, expected, actual, static_cast<size_t>(count));
}

template <typename Draws>
int run_add_cases(const char* name, AddVariant<typename Draws::T> variant, AddLengths lengths,
                  Rng& rng, int cases) {
  using T = typename Draws::T;
  using Ref = binary_quant::AddSub<Draws::kLeftShift, +1>;
  int failed = 0;
  for (int c = 0; c < cases; ++c) {
    Arena& mem = arena();
    mem.reset();
    const int32_t count = rng.coin() ? rng.uniform(1, lengths.short_max)
                                     : rng.uniform(lengths.long_min, lengths.long_max);
    const QuantAddSubParams q = Draws::params(rng);
    T* a = mem.alloc_array<T>(count);
    T* b = mem.alloc_array<T>(count);
    T* expected = mem.alloc_array<T>(count);
    T* actual = mem.alloc_array<T>(count);
    if (a == nullptr || b == nullptr || expected == nullptr || actual == nullptr) {
      skip_case(name, c, "arena too small");
      continue;
    }
    Draws::fill(rng, a, count);
    Draws::fill(rng, b, count);
    for (int32_t i = 0; i < count; ++i) expected[i] = static_cast<T>(Ref::apply(q, a[i], b[i]));
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
    if (!expect_equal(name, c, what, expected, actual, count)) ++failed;
  }
  return failed;
}

}  // namespace mote::conformance
