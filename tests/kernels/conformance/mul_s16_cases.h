// Random int16 MUL (16x8) cases shared by the mul_s16__dsp, mul_s16__mve and
// mul_s16__v6m conformance suites: the variant's check and run against mul_s16's on the
// same op (OpCase), bit for bit. Rank-3 outputs of odd and even sizes; inputs of the
// output's shape, broadcast along any dims (each dim 1 or the output's), of lower rank
// (the innermost dim only) or one element; multipliers as the compiler derives them
// (positive, shift in [-20, -1], a low half of 0x8000 at times), odd ones near 2^31 or
// below 2^17 with shifts in [-2, 0] (the DSP variant's doubled product of -32768 *
// -32768), and wild ones (INT32_MIN, INT32_MAX, 0, negative, tiny; any shift in
// [-31, 30]); clamps narrower than int16; inputs at the int16 extremes; the in-place
// forms (output over an input of its shape).
// Internal to those suites.
#pragma once

#include "conformance.h"
#include "elementwise/elementwise.h"
#include "op_case.h"

namespace mote::conformance {

inline void draw_mul_s16_params(Rng& rng, QuantMulParams* q) {
  q->input1_zero_point = q->input2_zero_point = q->output_zero_point = 0;
  switch (rng.uniform(0, 3)) {
    case 0:
    case 1:
      q->output_multiplier = rng.uniform(1 << 30, INT32_MAX);
      q->output_shift = rng.uniform(-20, -1);
      // A low half of 0x8000 (the ARMv6-M split's edge: with a shift of -1 and a value whose
      // low half is 0x8000, its low product plus rounding reaches 2^32) one time in eight.
      if (rng.uniform(0, 7) == 0) {
        q->output_multiplier = static_cast<int32_t>((q->output_multiplier & 0xFFFF0000) | 0x8000);
        if (rng.coin()) q->output_shift = -1;
      }
      break;
    case 2:
      // Odd: near 2^31, or small enough that 2^30 * m / 2^31 (the product of -32768 and
      // -32768) is not saturated to int16 under a shift of 0 or -1.
      q->output_multiplier = (rng.coin() ? rng.uniform(1 << 29, INT32_MAX / 2) : rng.uniform(0, 1 << 16)) * 2 + 1;
      q->output_shift = rng.uniform(-2, 0);
      break;
    default:
      switch (rng.uniform(0, 5)) {
        case 0: q->output_multiplier = INT32_MIN; break;
        case 1: q->output_multiplier = INT32_MAX; break;
        case 2: q->output_multiplier = 0; break;
        case 3: q->output_multiplier = rng.uniform(1, 1 << 16); break;
        default: q->output_multiplier = rng.uniform(INT32_MIN, INT32_MAX); break;
      }
      q->output_shift = rng.coin() ? rng.uniform(-31, 30) : rng.uniform(-31, 2);
      break;
  }
  q->act_min = rng.coin() ? -32768 : rng.uniform(-32768, 32767);
  q->act_max = rng.coin() ? 32767 : rng.uniform(q->act_min, 32767);
  if (rng.uniform(0, 4) == 0) {
    q->act_min = 0;
    q->act_max = 32767;
  }
}

// Any int16 values; one case in four mostly -32768 (half) and 32767, one in four small.
inline void fill_mul_s16(Rng& rng, int32_t kind, int16_t* data, uint32_t count) {
  for (uint32_t i = 0; i < count; ++i) {
    int32_t v = kind == 1 ? rng.uniform(-300, 300) : rng.uniform(-32768, 32767);
    if (kind == 0 && rng.uniform(0, 5) != 0) v = rng.uniform(0, 2) != 0 ? -32768 : 32767;
    data[i] = static_cast<int16_t>(v);
  }
}

// An input's dims for output dims out[3]: kind 0 the output's, 1 each dim 1 or the
// output's, 2 rank 1 of the innermost dim, 3 one element (rank 1).
inline uint8_t draw_mul_input_dims(Rng& rng, int32_t kind, const uint32_t out[3], uint32_t dims[3]) {
  dims[0] = out[0];
  dims[1] = out[1];
  dims[2] = out[2];
  if (kind == 1) {
    for (int i = 0; i < 3; ++i) {
      if (rng.coin()) dims[i] = 1;
    }
    return 3;
  }
  if (kind == 2 || kind == 3) {
    dims[0] = kind == 2 ? out[2] : 1;
    dims[1] = dims[2] = 1;
    return 1;
  }
  return 3;
}

inline uint32_t dims_count(const uint32_t d[3]) { return d[0] * d[1] * d[2]; }

inline int run_mul_s16_cases(const char* name, const KernelEntry& variant, Rng& rng, int cases) {
  int failed = 0;
  for (int c = 0; c < cases; ++c) {
    arena().reset();
    uint32_t out_dims[3];
    const bool big = rng.uniform(0, 3) == 0;
    out_dims[0] = static_cast<uint32_t>(rng.uniform(1, 3));
    out_dims[1] = static_cast<uint32_t>(rng.uniform(1, big ? 12 : 5));
    out_dims[2] = static_cast<uint32_t>(rng.coin() ? rng.uniform(1, 17) : rng.uniform(1, big ? 130 : 40));
    // Half the cases both inputs of the output's shape; else each input any kind, one of
    // them of the output's shape (so that the output's shape is theirs).
    int32_t kind_a = 0, kind_b = 0;
    if (rng.coin()) {
      if (rng.coin()) {
        kind_b = rng.uniform(1, 3);
      } else {
        kind_a = rng.uniform(1, 3);
      }
    }
    uint32_t a_dims[3], b_dims[3];
    const uint8_t a_rank = draw_mul_input_dims(rng, kind_a, out_dims, a_dims);
    const uint8_t b_rank = draw_mul_input_dims(rng, kind_b, out_dims, b_dims);
    QuantMulParams q;
    draw_mul_s16_params(rng, &q);
    OpCase op;
    int16_t* a = op.add_input<int16_t>(DType::kInt16, a_rank, a_dims[0], a_dims[1], a_dims[2]);
    int16_t* b = op.add_input<int16_t>(DType::kInt16, b_rank, b_dims[0], b_dims[1], b_dims[2]);
    int16_t* y = op.add_output<int16_t>(DType::kInt16, 3, out_dims[0], out_dims[1], out_dims[2]);
    const uint32_t count = dims_count(out_dims);
    int16_t* expected = arena().alloc_array<int16_t>(count);
    if (!op.ok() || expected == nullptr) {
      skip_case(name, c, "arena too small");
      continue;
    }
    op.set_params(q);
    fill_mul_s16(rng, rng.uniform(0, 3), a, dims_count(a_dims));
    fill_mul_s16(rng, rng.uniform(0, 3), b, dims_count(b_dims));
    const OpContext ctx = op.context();
    if (kMulS16Entry.check(ctx) != Status::kOk) {
      print(name);
      print(": reference refused a case\n");
      ++failed;
      continue;
    }
    if (variant.check(ctx) != Status::kOk) {
      print(name);
      print(": variant refused a case the reference takes\n");
      ++failed;
      continue;
    }
    kMulS16Entry.run(ctx);
    for (uint32_t i = 0; i < count; ++i) expected[i] = y[i];
    // 0: a fresh output; 1: over input a, 2: over input b (when of the output's shape).
    int32_t mode = rng.uniform(0, 2);
    if ((mode == 1 && kind_a != 0) || (mode == 2 && kind_b != 0)) mode = 0;
    const char* what = "mul";
    int16_t* result = y;
    if (mode == 0) {
      for (uint32_t i = 0; i < count; ++i) y[i] = static_cast<int16_t>(0xA5A5);
    } else {
      const uint32_t over = mode == 1 ? 0u : 1u;
      op.desc(2).offset = op.desc(over).offset;
      result = mode == 1 ? a : b;
      what = mode == 1 ? "in place over a" : "in place over b";
    }
    variant.run(op.context());
    if (!expect_equal_s16(name, c, what, expected, result, count)) ++failed;
  }
  return failed;
}

}  // namespace mote::conformance
