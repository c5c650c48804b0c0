// Conformance of fully_connected_s16__dsp against fully_connected_s16: output pairs and a
// lone last output (odd and even N), feature tails
// (K mod 4), rows past one exact SMLAD chunk (508 features), misaligned weight rows,
// batches, int64 and int32 accumulators, per-tensor (with filter zero points) and
// per-channel multipliers, full-scale inputs and weights, biases near and past the
// int32 bound, absent bias, extreme multipliers / shifts, clamps.
#include "conformance.h"
#include "fully_connected/fully_connected.h"
#include "s16_cases.h"

namespace mote::conformance {

int run_fully_connected_s16__dsp(Rng& rng, int cases) {
  static const char kName[] = "fully_connected_s16__dsp";
  int failed = 0;
  for (int c = 0; c < cases; ++c) {
    Arena& a = arena();
    a.reset();
    const int32_t batches = rng.uniform(1, 3);
    const bool long_rows = rng.uniform(0, 5) == 0;
    const int32_t k = long_rows ? rng.uniform(509, 2100) : (rng.coin() ? rng.uniform(1, 17) : rng.uniform(1, 400));
    const int32_t n = long_rows ? rng.uniform(1, 6) : (rng.coin() ? rng.uniform(1, 17) : rng.uniform(1, 40));
    const int32_t weight_offset = rng.uniform(0, 3) == 0 ? rng.uniform(1, 3) : 0;
    const bool per_channel = rng.coin();
    FullyConnectedS16Params p;
    p.accumulator = rng.uniform(0, 3) == 0 ? 32 : 64;
    p.filter_zero_point = per_channel || rng.coin() ? 0 : rng.uniform(-128, 127);
    const bool common = rng.uniform(0, 3) != 0;
    draw_act_range16(rng, common, &p.act_min, &p.act_max);
    p.channel_count = per_channel ? static_cast<uint32_t>(n) : 1u;
    const int32_t channels = static_cast<int32_t>(p.channel_count);

    const bool has_bias = rng.uniform(0, 4) != 0;
    int16_t* input = a.alloc_array<int16_t>(batches * k);
    int8_t* weight_block = a.alloc_array<int8_t>(n * k + weight_offset);
    int8_t* weights = weight_block != nullptr ? weight_block + weight_offset : nullptr;
    void* bias = nullptr;
    if (has_bias) bias = p.accumulator == 64 ? a.alloc(8u * n, 8) : a.alloc(4u * n, 4);
    int32_t* multipliers = a.alloc_array<int32_t>(channels);
    int32_t* shifts = a.alloc_array<int32_t>(channels);
    int16_t* expected = a.alloc_array<int16_t>(batches * n);
    int16_t* actual = a.alloc_array<int16_t>(batches * n);
    uint32_t* scratch = a.alloc_array<uint32_t>(fully_connected_s16__dsp_scratch_bytes(k) / 4 + 1);
    if (input == nullptr || weights == nullptr || (has_bias && bias == nullptr) || multipliers == nullptr ||
        shifts == nullptr || expected == nullptr || actual == nullptr || scratch == nullptr) {
      skip_case(kName, c, "arena too small");
      continue;
    }
    fill_s16_operands(rng, input, batches * k, weights, n * k);
    if (has_bias) fill_bias16(rng, p.accumulator, bias, n);
    const int32_t max_shift = p.accumulator == 64 ? 14 : 30;
    for (int32_t i = 0; i < channels; ++i) {
      draw_requant16(rng, !common && rng.coin(), max_shift, &multipliers[i], &shifts[i]);
    }
    fully_connected_s16(p, multipliers, shifts, batches, k, n, input, weights, bias, expected);
    fully_connected_s16__dsp(p, multipliers, shifts, batches, k, n, input, weights, bias, actual, scratch);
    if (!expect_equal_s16(kName, c, p.accumulator == 64 ? "int64 accumulator" : "int32 accumulator", expected,
                          actual, static_cast<size_t>(batches * n))) {
      ++failed;
    }
  }
  return failed;
}

}  // namespace mote::conformance
