// Conformance of fully_connected_s16__v6m against fully_connected_s16: output counts
// around the 4-feature blocks, rows past one exact int32 run (511 products) and several
// runs (MobileNetV2's 1280-feature classifier), batches, int64 and int32 accumulators,
// per-tensor multipliers with any filter zero point (the row term taken out of the
// loop) and per-channel ones, full-scale inputs and weights, biases near and past the
// int32 bound, absent bias, any multiplier and shift, clamps.
#include "conformance.h"
#include "fully_connected/fully_connected.h"
#include "quant/quant_math.h"
#include "s16_cases.h"

namespace mote::conformance {

int run_fully_connected_s16__v6m(Rng& rng, int cases) {
  static const char kName[] = "fully_connected_s16__v6m";
  int failed = 0;
  for (int c = 0; c < cases; ++c) {
    arena().reset();
    const int32_t batches = rng.uniform(0, 3) == 0 ? rng.uniform(2, 3) : 1;
    const int32_t length = rng.uniform(0, 4);
    int32_t k = rng.uniform(1, 24);
    if (length == 1) k = rng.uniform(25, 510);
    if (length == 2) k = rng.coin() ? rng.uniform(510, 1100) : 1280;
    const int32_t n = rng.coin() ? rng.uniform(1, 9) : rng.uniform(1, k > 600 ? 10 : 33);
    const bool per_channel = rng.coin();
    FullyConnectedS16Params p;
    p.accumulator = rng.uniform(0, 3) == 0 ? 32 : 64;
    p.filter_zero_point = per_channel || rng.coin() ? 0 : (rng.coin() ? -128 : rng.uniform(-128, 127));
    const bool common = rng.uniform(0, 2) != 0;
    draw_act_range16(rng, common, &p.act_min, &p.act_max);
    p.channel_count = per_channel ? static_cast<uint32_t>(n) : 1u;
    const int32_t channels = static_cast<int32_t>(p.channel_count);

    S16Case t;
    const int32_t bias_count = rng.uniform(0, 3) != 0 ? n : 0;
    if (!draw_s16_case(rng, batches * k, n * k, p.accumulator, bias_count, channels, batches * n, &t)) {
      skip_case(kName, c, "arena too small");
      continue;
    }
    for (int32_t i = 0; i < channels; ++i) {
      draw_requant16(rng, !common, p.accumulator == 64 ? kMaxShift64 : kMaxShift, &t.multipliers[i], &t.shifts[i]);
    }
    fully_connected_s16(p, t.multipliers, t.shifts, batches, k, n, t.input, t.weights, t.bias, t.expected);
    fully_connected_s16__v6m(p, t.multipliers, t.shifts, batches, k, n, t.input, t.weights, t.bias, t.actual);
    if (!expect_equal_s16(kName, c, p.accumulator == 64 ? "int64 accumulator" : "int32 accumulator", t.expected,
                          t.actual, static_cast<size_t>(batches * n))) {
      ++failed;
    }
  }
  return failed;
}

}  // namespace mote::conformance
