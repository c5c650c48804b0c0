// The int8 SVDF variants' cases (svdf_s8__dsp.cc, svdf_s8__mve.cc): the variant against
// svdf_s8 over several consecutive runs of one op, the new state (output 1) of each run
// fed back as the next run's state, as a program's copy op does. Shapes of every size
// from 1 (odd feature, filter and memory counts for the vector tails), rank 1-3, batches
// 1-2, int16 or int8 state, input and state zero points zero or any value of their type
// (both kinds of product sums), with or without bias; full-range int16 weights and state
// (sums that wrap), extreme multipliers and shifts now and then.
#pragma once

#include <string.h>

#include "conformance.h"
#include "op_case.h"
#include "svdf/svdf.h"

namespace mote::conformance {

struct SvdfTensors {
  int8_t* x;
  int8_t* wf;
  void* wt;
  int32_t* bias;
  void* state;
  int8_t* y;
  void* next;
};

inline SvdfTensors svdf_build(OpCase& op, DType state_dtype, uint32_t batches, uint32_t inputs, uint32_t filters,
                              uint32_t memory, uint32_t units, bool with_bias) {
  SvdfTensors t;
  t.x = op.add_input<int8_t>(DType::kInt8, 2, batches, inputs);
  t.wf = op.add_input<int8_t>(DType::kInt8, 2, filters, inputs);
  t.wt = op.add_input<void>(state_dtype, 2, filters, memory);
  t.bias = nullptr;
  if (with_bias) {
    t.bias = op.add_input<int32_t>(DType::kInt32, 1, units);
  } else {
    op.add_missing_input();
  }
  t.state = op.add_input<void>(state_dtype, 2, batches, memory * filters);
  t.y = op.add_output<int8_t>(DType::kInt8, 2, batches, units);
  t.next = op.add_output<void>(state_dtype, 2, batches, memory * filters);
  return t;
}

inline void svdf_fill(Rng& rng, void* data, uint32_t count, bool s16, int32_t lo, int32_t hi) {
  if (s16) {
    int16_t* p = static_cast<int16_t*>(data);
    for (uint32_t i = 0; i < count; ++i) p[i] = static_cast<int16_t>(rng.uniform(lo, hi));
  } else {
    fill_s8_range(rng, static_cast<int8_t*>(data), count, lo < -128 ? -128 : lo, hi > 127 ? 127 : hi);
  }
}

inline int run_svdf_s8_cases(const char* name, const KernelEntry& variant, Rng& rng, int cases) {
  int failed = 0;
  for (int c = 0; c < cases; ++c) {
    arena().reset();
    const bool s16 = rng.coin();
    const DType state_dtype = s16 ? DType::kInt16 : DType::kInt8;
    const uint32_t state_bytes = s16 ? 2 : 1;
    const uint32_t batches = static_cast<uint32_t>(rng.uniform(1, 2));
    const uint32_t inputs = static_cast<uint32_t>(rng.coin() ? rng.uniform(1, 20) : rng.uniform(1, 90));
    const uint32_t rank = static_cast<uint32_t>(rng.uniform(1, 3));
    const uint32_t units = static_cast<uint32_t>(rng.coin() ? rng.uniform(1, 6) : rng.uniform(1, 40));
    const uint32_t memory = static_cast<uint32_t>(rng.coin() ? rng.uniform(1, 9) : rng.uniform(1, 40));
    const uint32_t filters = units * rank;
    const bool with_bias = rng.uniform(0, 3) != 0;
    const bool extreme = rng.uniform(0, 3) == 0;
    SvdfS8Params p{};
    p.rank = static_cast<int32_t>(rank);
    p.input_zero_point = rng.coin() ? 0 : rng.uniform(-128, 127);
    p.state_zero_point = rng.coin() ? 0 : (s16 ? rng.uniform(-32768, 32767) : rng.uniform(-128, 127));
    p.output_zero_point = rng.uniform(-128, 127);
    auto multiplier = [&](int32_t* m, int32_t* shift, int32_t lo_shift, int32_t hi_shift) {
      const bool wild = extreme && rng.coin();
      *m = !wild ? rng.uniform(1 << 30, INT32_MAX) : (rng.coin() ? INT32_MIN : -rng.uniform(0, INT32_MAX));
      *shift = wild ? rng.uniform(-31, 30) : rng.uniform(lo_shift, hi_shift);
    };
    multiplier(&p.feature_multiplier, &p.feature_shift, -12, 2);
    multiplier(&p.output_multiplier, &p.output_shift, s16 ? -22 : -14, 0);

    OpCase ref, var;
    const SvdfTensors r = svdf_build(ref, state_dtype, batches, inputs, filters, memory, units, with_bias);
    const SvdfTensors v = svdf_build(var, state_dtype, batches, inputs, filters, memory, units, with_bias);
    if (!ref.ok() || !var.ok()) {
      skip_case(name, c, "arena too small");
      continue;
    }
    ref.set_params(p);
    var.set_params(p);
    const uint32_t state_count = batches * filters * memory;
    fill_s8(rng, r.wf, filters * inputs);
    svdf_fill(rng, r.wt, filters * memory, s16, extreme ? -32768 : -300, extreme ? 32767 : 300);
    if (with_bias) fill_s32(rng, r.bias, units, extreme ? INT32_MIN : -50000, extreme ? INT32_MAX : 50000);
    svdf_fill(rng, r.state, state_count, s16, -32768, 32767);
    memcpy(v.wf, r.wf, filters * inputs);
    memcpy(v.wt, r.wt, filters * memory * state_bytes);
    if (with_bias) memcpy(v.bias, r.bias, units * sizeof(int32_t));
    memcpy(v.state, r.state, state_count * state_bytes);
    const OpContext ref_ctx = ref.context();
    const OpContext var_ctx = var.context();
    if (svdf_s8_check(ref_ctx) != Status::kOk || variant.check(var_ctx) != Status::kOk) {
      print(name);
      print(": check refused a valid op\n");
      ++failed;
      continue;
    }
    for (int run = 0; run < 3; ++run) {
      fill_s8(rng, r.x, batches * inputs);
      memcpy(v.x, r.x, batches * inputs);
      svdf_s8_run(ref_ctx);
      variant.run(var_ctx);
      const char* what = s16 ? "int16 state, y" : "int8 state, y";
      bool same = expect_equal_s8(name, c, what, r.y, v.y, batches * units);
      same = same && (s16 ? expect_equal_s16(name, c, "new int16 state", static_cast<const int16_t*>(r.next),
                                             static_cast<const int16_t*>(v.next), state_count)
                          : expect_equal_s8(name, c, "new int8 state", static_cast<const int8_t*>(r.next),
                                            static_cast<const int8_t*>(v.next), state_count));
      if (!same) {
        ++failed;
        break;
      }
      memcpy(r.state, r.next, state_count * state_bytes);
      memcpy(v.state, v.next, state_count * state_bytes);
    }
  }
  return failed;
}

}  // namespace mote::conformance
