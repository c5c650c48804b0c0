// Random int8 LSTM cases shared by the lstm_s8__dsp and lstm_s8__mve conformance suites,
// each run through the kernels' OpContext entry points (the reference lstm_s8 and the
// variant on the same inputs, each with its own outputs and scratch): batch- and
// time-major layouts, odd input and unit counts (feature tails), zero points of every
// tensor (nonzero weight zero points in a third of the cases), realistic and wild
// multipliers and shifts, biases up to the int32 range (wrapping sums), cell clipping
// and every cell tanh scaling the check accepts. Each case runs twice, the second run
// starting from the first's final hidden and cell state (the state a program carries
// into its next run), and compares y, the final hidden state and the final cell state.
// A case with an INT32_MIN multiplier instead expects the variant's check to refuse it.
// Internal to those suites.
#pragma once

#include <string.h>

#include "conformance.h"
#include "lstm/lstm.h"
#include "lstm/lstm_common.h"
#include "mote/kernel.h"
#include "mote/program_format.h"

namespace mote::conformance {

struct LstmS8Variant {
  const char* name;
  Status (*check)(const OpContext& ctx);
  void (*run)(const OpContext& ctx);
  uint32_t (*scratch_bytes)(uint32_t inputs, uint32_t units);
};

namespace lstm_cases {

// Tensor indices of one case: the inputs, then each kernel's three outputs.
enum : uint32_t {
  kX = 0,
  kWeights = 1,  // 1..8
  kBias = 9,     // 9..12
  kH0 = 13,
  kC0 = 14,
  kRefOut = 15,      // y, h, c: 15..17
  kVariantOut = 18,  // 18..20
  kTensorCount = 21,
};

inline int32_t multiplier(Rng& rng, bool wild) {
  if (!wild) return rng.uniform(1 << 30, INT32_MAX);
  switch (rng.uniform(0, 3)) {
    case 0: return INT32_MAX;
    case 1: return rng.uniform(1, 1 << 20);
    case 2: return -rng.uniform(1, INT32_MAX);
    default: return rng.uniform(1 << 30, INT32_MAX);
  }
}

inline void draw_params(Rng& rng, LstmIntegerParams* p) {
  const bool wild = rng.uniform(0, 3) == 0;
  const bool weight_zero_points = rng.uniform(0, 2) == 0;
  for (LstmGateParams& g : p->gate) {
    g.input_multiplier = multiplier(rng, wild && rng.coin());
    g.recurrent_multiplier = multiplier(rng, wild && rng.coin());
    g.input_shift = wild ? rng.uniform(-31, 30) : rng.uniform(-16, -4);
    g.recurrent_shift = wild ? rng.uniform(-31, 30) : rng.uniform(-16, -4);
    g.input_weight_zero_point = weight_zero_points ? rng.uniform(-128, 127) : 0;
    g.recurrent_weight_zero_point = weight_zero_points ? rng.uniform(-128, 127) : 0;
  }
  LstmMulParams* muls[3] = {&p->forget_cell, &p->input_cell, &p->hidden};
  for (LstmMulParams* m : muls) {
    m->multiplier = multiplier(rng, wild && rng.coin());
    m->shift = wild ? rng.uniform(-31, 30) : rng.uniform(-24, -8);
  }
  p->input_zero_point = rng.uniform(-128, 127);
  p->hidden_zero_point = rng.uniform(-128, 127);
  if (rng.uniform(0, 3) == 0) {
    p->cell_tanh_multiplier = rng.uniform(1, 3 << 12);
    p->cell_tanh_shift = rng.uniform(0, 31);
  } else {
    const int32_t s = rng.uniform(-8, 12);  // 12 + log2 of the cell scale
    p->cell_tanh_multiplier = s >= 0 ? 3 << s : 3;
    p->cell_tanh_shift = s >= 0 ? 0 : -s;
  }
  p->cell_clip_enabled = rng.coin() ? 1u : 0u;
  p->cell_clip = p->cell_clip_enabled ? rng.uniform(0, 32767) : 0;
}

inline uint32_t align16(uint32_t v) { return (v + 15u) & ~15u; }

}  // namespace lstm_cases

inline int run_lstm_s8_cases(const LstmS8Variant& variant, Rng& rng, int cases) {
  using namespace lstm_cases;
  int failed = 0;
  for (int c = 0; c < cases; ++c) {
    Arena& a = arena();
    a.reset();
    const uint32_t batches = static_cast<uint32_t>(rng.uniform(1, 3));
    const uint32_t steps = static_cast<uint32_t>(rng.uniform(1, 5));
    const uint32_t inputs = static_cast<uint32_t>(rng.coin() ? rng.uniform(1, 9) : rng.uniform(1, 40));
    const uint32_t units = static_cast<uint32_t>(rng.coin() ? rng.uniform(1, 9) : rng.uniform(1, 24));
    LstmIntegerParams p{};
    draw_params(rng, &p);
    p.time_major = rng.coin() ? 1u : 0u;
    const bool min_multiplier = rng.uniform(0, 15) == 0;
    if (min_multiplier) {
      int32_t* targets[3] = {&p.gate[rng.uniform(0, 3)].input_multiplier, &p.gate[rng.uniform(0, 3)].recurrent_multiplier,
                             &p.hidden.multiplier};
      *targets[rng.uniform(0, 2)] = INT32_MIN;
    }

    // The tensors, one after another in one block (the context's arena).
    TensorDesc t[kTensorCount];
    memset(t, 0, sizeof(t));
    uint32_t offset = 0;
    auto place = [&](uint32_t index, DType dtype, uint32_t rank, uint32_t d0, uint32_t d1, uint32_t d2) {
      TensorDesc& desc = t[index];
      desc.dtype = static_cast<uint8_t>(dtype);
      desc.rank = static_cast<uint8_t>(rank);
      desc.storage = static_cast<uint8_t>(Storage::kArena);
      for (uint32_t i = 0; i < kMaxRank; ++i) desc.dims[i] = 1;
      desc.dims[0] = d0;
      if (rank > 1) desc.dims[1] = d1;
      if (rank > 2) desc.dims[2] = d2;
      desc.offset = offset;
      desc.bytes = d0 * (rank > 1 ? d1 : 1) * (rank > 2 ? d2 : 1) * dtype_size(dtype);
      desc.quant_offset = kNoOffset;
      desc.name_offset = kNoOffset;
      offset = align16(offset + desc.bytes);
    };
    const uint32_t d0 = p.time_major ? steps : batches;
    const uint32_t d1 = p.time_major ? batches : steps;
    place(kX, DType::kInt8, 3, d0, d1, inputs);
    for (uint32_t g = 0; g < 4; ++g) {
      place(kWeights + g, DType::kInt8, 2, units, inputs, 1);
      place(kWeights + 4 + g, DType::kInt8, 2, units, units, 1);
      place(kBias + g, DType::kInt32, 1, units, 1, 1);
    }
    place(kH0, DType::kInt8, 2, batches, units, 1);
    place(kC0, DType::kInt16, 2, batches, units, 1);
    const uint32_t output_sets[2] = {kRefOut, kVariantOut};
    for (uint32_t out : output_sets) {
      place(out, DType::kInt8, 3, d0, d1, units);
      place(out + 1, DType::kInt8, 2, batches, units, 1);
      place(out + 2, DType::kInt16, 2, batches, units, 1);
    }
    const uint32_t ref_scratch = static_cast<uint32_t>(lstm_s8_scratch_bytes(inputs, units));
    const uint32_t variant_scratch = variant.scratch_bytes(inputs, units);
    const uint32_t ref_scratch_offset = offset;
    const uint32_t variant_scratch_offset = align16(ref_scratch_offset + ref_scratch);
    const uint32_t total = variant_scratch_offset + variant_scratch;
    uint8_t* block = static_cast<uint8_t*>(a.alloc(total));
    if (block == nullptr) {
      skip_case(variant.name, c, "arena too small");
      continue;
    }
    auto data = [&](uint32_t index) { return block + t[index].offset; };
    fill_s8(rng, reinterpret_cast<int8_t*>(data(kX)), t[kX].bytes);
    for (uint32_t w = 0; w < 8; ++w) fill_s8(rng, reinterpret_cast<int8_t*>(data(kWeights + w)), t[kWeights + w].bytes);
    const bool extreme_bias = rng.uniform(0, 3) == 0;
    for (uint32_t g = 0; g < 4; ++g) {
      fill_s32(rng, reinterpret_cast<int32_t*>(data(kBias + g)), units, extreme_bias ? INT32_MIN : -200000,
               extreme_bias ? INT32_MAX : 200000);
    }
    fill_s8(rng, reinterpret_cast<int8_t*>(data(kH0)), t[kH0].bytes);
    int16_t* c0 = reinterpret_cast<int16_t*>(data(kC0));
    for (uint32_t i = 0; i < batches * units; ++i) c0[i] = static_cast<int16_t>(rng.uniform(-32768, 32767));

    // io lists: the 24 inputs (absent ones kNoTensor), then the three outputs.
    uint32_t io_ref[kLstmInputCount + 3];
    for (uint32_t i = 0; i < kLstmInputCount; ++i) io_ref[i] = kNoTensor;
    io_ref[0] = kX;
    for (uint32_t w = 0; w < 8; ++w) io_ref[1 + w] = kWeights + w;
    for (uint32_t g = 0; g < 4; ++g) io_ref[12 + g] = kBias + g;
    io_ref[kLstmHiddenStateInput] = kH0;
    io_ref[kLstmCellStateInput] = kC0;
    uint32_t io_variant[kLstmInputCount + 3];
    memcpy(io_variant, io_ref, sizeof(io_ref));
    for (uint32_t o = 0; o < 3; ++o) {
      io_ref[kLstmInputCount + o] = kRefOut + o;
      io_variant[kLstmInputCount + o] = kVariantOut + o;
    }
    OpDesc op_ref{};
    op_ref.input_count = kLstmInputCount;
    op_ref.output_count = 3;
    op_ref.params_bytes = sizeof(LstmIntegerParams);
    op_ref.scratch_offset = ref_scratch_offset;
    op_ref.scratch_bytes = ref_scratch;
    OpDesc op_variant = op_ref;
    op_variant.scratch_offset = variant_scratch_offset;
    op_variant.scratch_bytes = variant_scratch;
    const uint8_t* params = reinterpret_cast<const uint8_t*>(&p);
    const OpContext ref_ctx(t, io_ref, &op_ref, params, nullptr, block);
    const OpContext variant_ctx(t, io_variant, &op_variant, params, nullptr, block);

    if (lstm_s8_check(ref_ctx) != Status::kOk) {
      print(variant.name);
      print(" case ");
      print_int(c);
      print(": the reference refuses the case (suite error)\n");
      ++failed;
      continue;
    }
    const Status variant_status = variant.check(variant_ctx);
    if (min_multiplier || variant_status != Status::kOk) {
      if (!min_multiplier || variant_status == Status::kOk) {
        print(variant.name);
        print(" case ");
        print_int(c);
        print(min_multiplier ? ": check accepts an INT32_MIN multiplier\n" : ": check refuses the case\n");
        ++failed;
      }
      continue;
    }
    bool ok = true;
    for (int run = 0; run < 2 && ok; ++run) {
      if (run == 1) {
        // The next run starts from the state the first left (outputs 1 and 2), on a new
        // input sequence.
        memcpy(data(kH0), data(kRefOut + 1), t[kH0].bytes);
        memcpy(data(kC0), data(kRefOut + 2), t[kC0].bytes);
        fill_s8(rng, reinterpret_cast<int8_t*>(data(kX)), t[kX].bytes);
      }
      lstm_s8_run(ref_ctx);
      variant.run(variant_ctx);
      const char* what = run == 0 ? "y" : "y (carried state)";
      ok = expect_equal_s8(variant.name, c, what, reinterpret_cast<const int8_t*>(data(kRefOut)),
                           reinterpret_cast<const int8_t*>(data(kVariantOut)), t[kRefOut].bytes) &&
           expect_equal_s8(variant.name, c, "final hidden state", reinterpret_cast<const int8_t*>(data(kRefOut + 1)),
                           reinterpret_cast<const int8_t*>(data(kVariantOut + 1)), t[kRefOut + 1].bytes) &&
           expect_equal_s16(variant.name, c, "final cell state", reinterpret_cast<const int16_t*>(data(kRefOut + 2)),
                            reinterpret_cast<const int16_t*>(data(kVariantOut + 2)), batches * units);
    }
    if (!ok) ++failed;
  }
  return failed;
}

}  // namespace mote::conformance
