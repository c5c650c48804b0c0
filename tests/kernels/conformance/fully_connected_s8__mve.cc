// Conformance of fully_connected_s8__mve against fully_connected_s8: feature tails
// (1..17 and longer rows), batches, per-tensor and per-channel multipliers, input and
// filter zero points, clamps, absent bias, extreme multipliers / shifts and wrapping
// biases.
#include "conformance.h"
#include "fully_connected/fully_connected.h"

namespace mote::conformance {

int run_fully_connected_s8__mve(Rng& rng, int cases) {
  static const char kName[] = "fully_connected_s8__mve";
  int failed = 0;
  for (int c = 0; c < cases; ++c) {
    Arena& a = arena();
    a.reset();
    const int32_t batches = rng.uniform(1, 3);
    const int32_t k = rng.coin() ? rng.uniform(1, 17) : rng.uniform(1, 400);
    const int32_t n = rng.coin() ? rng.uniform(1, 17) : rng.uniform(1, 40);
    const bool per_channel = rng.coin();
    FullyConnectedS8Params p;
    p.input_zero_point = rng.uniform(0, 3) == 0 ? 0 : rng.uniform(-128, 127);
    p.filter_zero_point = per_channel || rng.coin() ? 0 : rng.uniform(-128, 127);
    p.output_zero_point = rng.uniform(-128, 127);
    p.act_min = rng.coin() ? -128 : rng.uniform(-128, 127);
    p.act_max = rng.coin() ? 127 : rng.uniform(p.act_min, 127);
    p.channel_count = per_channel ? static_cast<uint32_t>(n) : 1u;
    const bool extreme = rng.uniform(0, 3) == 0;
    const int32_t channels = static_cast<int32_t>(p.channel_count);

    int8_t* input = a.alloc_array<int8_t>(batches * k);
    int8_t* weights = a.alloc_array<int8_t>(n * k);
    int32_t* bias = rng.uniform(0, 3) == 0 ? nullptr : a.alloc_array<int32_t>(n);
    int32_t* multipliers = a.alloc_array<int32_t>(channels);
    int32_t* shifts = a.alloc_array<int32_t>(channels);
    int8_t* expected = a.alloc_array<int8_t>(batches * n);
    int8_t* actual = a.alloc_array<int8_t>(batches * n);
    if (input == nullptr || weights == nullptr || multipliers == nullptr || shifts == nullptr ||
        expected == nullptr || actual == nullptr) {
      skip_case("fully_connected_s8__mve", c, "arena too small");
      continue;
    }
    fill_s8(rng, input, batches * k);
    fill_s8(rng, weights, n * k);
    if (bias != nullptr) {
      fill_s32(rng, bias, n, extreme ? INT32_MIN : -60000, extreme ? INT32_MAX : 60000);
    }
    for (int32_t i = 0; i < channels; ++i) {
      const bool wild = extreme && rng.coin();
      multipliers[i] = !wild ? rng.uniform(1 << 30, INT32_MAX)
                             : (rng.coin() ? INT32_MIN : -rng.uniform(0, INT32_MAX));
      shifts[i] = wild ? rng.uniform(-31, 30) : rng.uniform(-12, 1);
    }
    fully_connected_s8(p, multipliers, shifts, batches, k, n, input, weights, bias, expected);
    fully_connected_s8__mve(p, multipliers, shifts, batches, k, n, input, weights, bias, actual);
    if (!expect_equal_s8(kName, c, per_channel ? "per-channel" : "per-tensor", expected, actual,
                         static_cast<size_t>(batches * n))) {
      ++failed;
    }
  }
  return failed;
}

}  // namespace mote::conformance
