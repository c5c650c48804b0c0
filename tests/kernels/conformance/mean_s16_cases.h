// Random int16 MEAN cases shared by the mean_s16__dsp, mean_s16__mve and mean_s16__v6m
// conformance suites: the variant's check and run against mean_s16's on the same op
// (OpCase), bit for bit. Inputs [N, H, W, C] (rank 4) or [H, W, C] reduced over H, W
// (global average pooling: C odd and even, up to 1280), over the innermost axis or two,
// over everything, or over a random axis set (the variants refuse what is not one strided
// run per output: then only the refusal is checked, against mean_s16_single_runs);
// input and output zero points anywhere in int16; multipliers as the compiler derives
// them (mean_multiplier: positive, shift in [-24, -1], a low half of 0x8000 at times)
// and wild ones (INT32_MIN, INT32_MAX, 0, negative; any shift in [-31, 30]); inputs at
// the int16 extremes (sums past the variants' 2^30 bound). Internal to those suites.
#pragma once

#include "conformance.h"
#include "mean/mean.h"
#include "op_case.h"

namespace mote::conformance {

inline int run_mean_s16_cases(const char* name, const KernelEntry& variant, Rng& rng, int cases) {
  int failed = 0;
  for (int c = 0; c < cases; ++c) {
    arena().reset();
    // dims: rank 4 [n, h, w, ch] or rank 3 [h, w, ch]; axes by kind.
    const int32_t kind = rng.uniform(0, 5);
    const bool rank4 = rng.coin();
    uint32_t dims[4];
    dims[0] = rank4 ? static_cast<uint32_t>(rng.uniform(1, 2)) : 1u;
    const bool big = rng.uniform(0, 4) == 0;
    dims[1] = static_cast<uint32_t>(rng.uniform(1, big ? 3 : 8));
    dims[2] = static_cast<uint32_t>(rng.uniform(1, big ? 3 : 8));
    dims[3] = static_cast<uint32_t>(big ? rng.uniform(600, 1280) : (rng.coin() ? rng.uniform(1, 20) : rng.uniform(1, 70)));
    uint32_t mask = 0;
    switch (kind) {
      case 0:
      case 1: mask = rank4 ? 0x6u : 0x3u; break;  // H, W
      case 2: mask = rank4 ? 0x8u : 0x4u; break;  // innermost
      case 3: mask = rank4 ? 0xCu : 0x6u; break;  // innermost two
      case 4: mask = rank4 ? 0xFu : 0x7u; break;  // everything
      default: mask = static_cast<uint32_t>(rng.uniform(0, rank4 ? 15 : 7)); break;
    }
    const uint32_t rank = rank4 ? 4u : 3u;
    uint32_t in_dims[4];
    for (uint32_t i = 0; i < rank; ++i) in_dims[i] = rank4 ? dims[i] : dims[i + 1];
    uint32_t total = 1, kept = 1;
    for (uint32_t i = 0; i < rank; ++i) {
      total *= in_dims[i];
      if ((mask >> i & 1u) == 0) kept *= in_dims[i];
    }
    MeanS16Params p;
    p.axes_mask = mask;
    p.input_zero_point = rng.coin() ? 0 : (rng.coin() ? rng.uniform(-32768, 32767) : (rng.coin() ? -32768 : 32767));
    p.output_zero_point = rng.coin() ? 0 : rng.uniform(-32768, 32767);
    if (rng.uniform(0, 3) != 0) {
      p.multiplier = rng.uniform(1 << 30, INT32_MAX);
      p.shift = rng.uniform(-24, -1);
      // A low half of 0x8000 (the ARMv6-M split's edge: with a shift of -1 and a value whose
      // low half is 0x8000, its low product plus rounding reaches 2^32) one time in eight.
      if (rng.uniform(0, 7) == 0) {
        p.multiplier = static_cast<int32_t>((p.multiplier & 0xFFFF0000) | 0x8000);
        if (rng.coin()) p.shift = -1;
      }
    } else {
      switch (rng.uniform(0, 4)) {
        case 0: p.multiplier = INT32_MIN; break;
        case 1: p.multiplier = INT32_MAX; break;
        case 2: p.multiplier = 0; break;
        default: p.multiplier = rng.uniform(INT32_MIN, INT32_MAX); break;
      }
      p.shift = rng.coin() ? rng.uniform(-31, 30) : rng.uniform(-3, 1);
    }
    OpCase op;
    int16_t* x = op.add_input<int16_t>(DType::kInt16, 1, total);
    int16_t* y = op.add_output<int16_t>(DType::kInt16, 1, kept);
    int16_t* expected = arena().alloc_array<int16_t>(kept);
    if (!op.ok() || expected == nullptr) {
      skip_case(name, c, "arena too small");
      continue;
    }
    TensorDesc& in_desc = op.desc(0);
    in_desc.rank = static_cast<uint8_t>(rank);
    for (uint32_t i = 0; i < rank; ++i) in_desc.dims[i] = in_dims[i];
    op.set_params(p);
    const int32_t fill = rng.uniform(0, 3);
    for (uint32_t i = 0; i < total; ++i) {
      int32_t v = fill == 1 ? rng.uniform(-200, 200) : rng.uniform(-32768, 32767);
      if (fill == 0) v = rng.coin() ? -32768 : 32767;
      x[i] = static_cast<int16_t>(v);
    }
    const OpContext ctx = op.context();
    if (kMeanS16Entry.check(ctx) != Status::kOk) {
      print(name);
      print(": reference refused a case\n");
      ++failed;
      continue;
    }
    const bool takes = mean_s16_single_runs(in_desc, mask);
    const Status status = variant.check(ctx);
    if ((status == Status::kOk) != takes) {
      print(name);
      print(": check disagrees with mean_s16_single_runs\n");
      ++failed;
      continue;
    }
    if (!takes) continue;
    kMeanS16Entry.run(ctx);
    for (uint32_t i = 0; i < kept; ++i) expected[i] = y[i];
    for (uint32_t i = 0; i < kept; ++i) y[i] = static_cast<int16_t>(0xA5A5);
    variant.run(ctx);
    if (!expect_equal_s16(name, c, "mean", expected, y, kept)) ++failed;
  }
  return failed;
}

}  // namespace mote::conformance
