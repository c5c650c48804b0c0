// Conformance of fully_connected_s16__mve against fully_connected_s16: feature tails
// (1..17, longer rows, and rows past the variant's 256-feature int32 chunks), output
// tails, batches, both accumulators, per-tensor and per-channel multipliers, filter zero
// points, clamps, absent bias, inputs at the int16 extremes with weights at -128 (the
// largest sums), extreme multipliers / shifts and wrapping biases.
#include "conformance.h"
#include "fully_connected/fully_connected.h"

namespace mote::conformance {

int run_fully_connected_s16__mve(Rng& rng, int cases) {
  static const char kName[] = "fully_connected_s16__mve";
  int failed = 0;
  for (int c = 0; c < cases; ++c) {
    Arena& a = arena();
    a.reset();
    const int32_t batches = rng.uniform(1, 3);
    const int32_t k_kind = rng.uniform(0, 3);
    const int32_t k = k_kind == 0 ? rng.uniform(1, 17)
                                  : (k_kind == 1 ? rng.uniform(1, 400) : rng.uniform(500, 1400));
    const int32_t n = rng.coin() ? rng.uniform(1, 17) : rng.uniform(1, 40);
    const bool per_channel = rng.coin();
    FullyConnectedS16Params p;
    p.accumulator = rng.uniform(0, 2) == 0 ? 32 : 64;
    p.filter_zero_point = per_channel || rng.coin() ? 0 : rng.uniform(-128, 127);
    p.act_min = rng.coin() ? -32768 : rng.uniform(-32768, 32767);
    p.act_max = rng.coin() ? 32767 : rng.uniform(p.act_min, 32767);
    p.channel_count = per_channel ? static_cast<uint32_t>(n) : 1u;
    const bool extreme = rng.uniform(0, 3) == 0;
    const bool largest_sums = rng.uniform(0, 5) == 0;
    const int32_t channels = static_cast<int32_t>(p.channel_count);

    int16_t* input = a.alloc_array<int16_t>(batches * k);
    int8_t* weights = a.alloc_array<int8_t>(n * k);
    const bool has_bias = rng.uniform(0, 3) != 0;
    int64_t* bias64 = has_bias && p.accumulator == 64 ? a.alloc_array<int64_t>(n) : nullptr;
    int32_t* bias32 = has_bias && p.accumulator == 32 ? a.alloc_array<int32_t>(n) : nullptr;
    int32_t* multipliers = a.alloc_array<int32_t>(channels);
    int32_t* shifts = a.alloc_array<int32_t>(channels);
    int16_t* expected = a.alloc_array<int16_t>(batches * n);
    int16_t* actual = a.alloc_array<int16_t>(batches * n);
    if (input == nullptr || weights == nullptr || multipliers == nullptr || shifts == nullptr ||
        expected == nullptr || actual == nullptr || (has_bias && bias64 == nullptr && bias32 == nullptr)) {
      skip_case(kName, c, "arena too small");
      continue;
    }
    for (int32_t i = 0; i < batches * k; ++i) {
      input[i] = static_cast<int16_t>(largest_sums ? -32768 : rng.uniform(-32768, 32767));
    }
    if (largest_sums) {
      fill_s8_range(rng, weights, n * k, -128, -128);
    } else {
      fill_s8(rng, weights, n * k);
    }
    for (int32_t i = 0; i < n; ++i) {
      if (bias64 != nullptr) {
        bias64[i] = extreme ? static_cast<int64_t>((uint64_t{rng.next()} << 32) | rng.next())
                            : rng.uniform(-70000, 70000);
      }
      if (bias32 != nullptr) bias32[i] = extreme ? static_cast<int32_t>(rng.next()) : rng.uniform(-70000, 70000);
    }
    const int32_t max_shift = p.accumulator == 64 ? 14 : 30;
    for (int32_t i = 0; i < channels; ++i) {
      const bool wild = extreme && rng.coin();
      multipliers[i] = !wild ? rng.uniform(1 << 30, INT32_MAX)
                             : (rng.coin() ? INT32_MIN : -rng.uniform(0, INT32_MAX));
      shifts[i] = wild ? rng.uniform(-31, max_shift) : rng.uniform(-20, 0);
    }
    const void* bias = bias64 != nullptr ? static_cast<const void*>(bias64) : bias32;
    fully_connected_s16(p, multipliers, shifts, batches, k, n, input, weights, bias, expected);
    fully_connected_s16__mve(p, multipliers, shifts, batches, k, n, input, weights, bias, actual);
    if (!expect_equal_s16(kName, c, per_channel ? "per-channel" : "per-tensor", expected, actual,
                          static_cast<size_t>(batches * n))) {
      ++failed;
    }
  }
  return failed;
}

}  // namespace mote::conformance
