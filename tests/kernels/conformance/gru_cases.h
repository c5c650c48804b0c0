// The gru_s8 variants' cases (gru_s8__dsp.cc, gru_s8__mve.cc): the variant against gru_s8
// on sequences of 1-4 steps, batches 1-2, time major or not, linear_before_reset 0 and 1,
// input and hidden zero points zero or any int8 value, every input and unit count from 1
// (the vector tails), scratch at a 2-byte (not 4-byte) alignment now and then, wrapping
// biases and extreme multipliers now and then. Each case runs twice, the second run's h0
// the first run's last hidden state (output 1), as a streaming caller feeds it back.
#pragma once

#include <string.h>

#include "conformance.h"
#include "gru/gru.h"
#include "op_case.h"

namespace mote::conformance {

struct GruTensors {
  int8_t* x;
  int8_t* w;
  int8_t* r;
  int32_t* bias;
  int8_t* h0;
  int8_t* y;
  int8_t* h;
};

inline GruTensors gru_build(OpCase& op, bool time_major, uint32_t steps, uint32_t batches, uint32_t inputs,
                            uint32_t units, uint32_t misalign) {
  GruTensors t;
  const uint32_t d0 = time_major ? steps : batches, d1 = time_major ? batches : steps;
  t.x = op.add_input<int8_t>(DType::kInt8, 3, d0, d1, inputs);
  t.w = op.add_input<int8_t>(DType::kInt8, 2, 3 * units, inputs);
  t.r = op.add_input<int8_t>(DType::kInt8, 2, 3 * units, units);
  t.bias = op.add_input<int32_t>(DType::kInt32, 1, 6 * units);
  t.h0 = op.add_input<int8_t>(DType::kInt8, 2, batches, units);
  t.y = op.add_output<int8_t>(DType::kInt8, 3, d0, d1, units);
  t.h = op.add_output<int8_t>(DType::kInt8, 2, batches, units);
  op.set_scratch(static_cast<uint32_t>(gru_s8_scratch_bytes(inputs, units)), misalign);
  return t;
}

inline int run_gru_s8_cases(const char* name, const KernelEntry& variant, Rng& rng, int cases) {
  int failed = 0;
  for (int c = 0; c < cases; ++c) {
    arena().reset();
    const bool time_major = rng.coin();
    const uint32_t steps = static_cast<uint32_t>(rng.uniform(1, 4));
    const uint32_t batches = static_cast<uint32_t>(rng.uniform(1, 2));
    const uint32_t inputs = static_cast<uint32_t>(rng.coin() ? rng.uniform(1, 12) : rng.uniform(1, 60));
    const uint32_t units = static_cast<uint32_t>(rng.coin() ? rng.uniform(1, 12) : rng.uniform(1, 48));
    const uint32_t misalign = rng.coin() ? 0u : 2u;
    const bool extreme = rng.uniform(0, 3) == 0;
    GruIntegerParams p{};
    auto multiplier = [&](int32_t* m, int32_t* shift, int32_t lo_shift, int32_t hi_shift) {
      const bool wild = extreme && rng.coin();
      *m = !wild ? rng.uniform(1 << 30, INT32_MAX) : (rng.coin() ? INT32_MIN : -rng.uniform(0, INT32_MAX));
      *shift = wild ? rng.uniform(-31, 30) : rng.uniform(lo_shift, hi_shift);
    };
    for (GruGateParams& g : p.gate) {
      multiplier(&g.input_multiplier, &g.input_shift, -8, 1);
      multiplier(&g.recurrent_multiplier, &g.recurrent_shift, -8, 1);
    }
    multiplier(&p.hidden_multiplier, &p.hidden_shift, -26, -18);
    p.input_zero_point = rng.coin() ? 0 : rng.uniform(-128, 127);
    p.hidden_zero_point = rng.coin() ? 0 : rng.uniform(-128, 127);
    p.linear_before_reset = rng.coin() ? 1u : 0u;
    p.time_major = time_major ? 1u : 0u;

    OpCase ref, var;
    const GruTensors r = gru_build(ref, time_major, steps, batches, inputs, units, misalign);
    const GruTensors v = gru_build(var, time_major, steps, batches, inputs, units, misalign);
    if (!ref.ok() || !var.ok()) {
      skip_case(name, c, "arena too small");
      continue;
    }
    ref.set_params(p);
    var.set_params(p);
    const uint32_t x_count = steps * batches * inputs, y_count = steps * batches * units;
    fill_s8(rng, r.w, 3 * units * inputs);
    fill_s8(rng, r.r, 3 * units * units);
    fill_s32(rng, r.bias, 6 * units, extreme ? INT32_MIN : -40000, extreme ? INT32_MAX : 40000);
    fill_s8(rng, r.h0, batches * units);
    memcpy(v.w, r.w, 3 * units * inputs);
    memcpy(v.r, r.r, 3 * units * units);
    memcpy(v.bias, r.bias, 6 * units * sizeof(int32_t));
    memcpy(v.h0, r.h0, batches * units);
    const OpContext ref_ctx = ref.context();
    const OpContext var_ctx = var.context();
    if (gru_s8_check(ref_ctx) != Status::kOk || variant.check(var_ctx) != Status::kOk) {
      print(name);
      print(": check refused a valid op\n");
      ++failed;
      continue;
    }
    for (int run = 0; run < 2; ++run) {
      fill_s8(rng, r.x, x_count);
      memcpy(v.x, r.x, x_count);
      gru_s8_run(ref_ctx);
      variant.run(var_ctx);
      const char* what = p.linear_before_reset ? "linear_before_reset 1, y" : "linear_before_reset 0, y";
      if (!expect_equal_s8(name, c, what, r.y, v.y, y_count) ||
          !expect_equal_s8(name, c, "h", r.h, v.h, batches * units)) {
        ++failed;
        break;
      }
      memcpy(r.h0, r.h, batches * units);
      memcpy(v.h0, v.h, batches * units);
    }
  }
  return failed;
}

}  // namespace mote::conformance
