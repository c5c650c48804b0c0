// The ARMv6-M int8 fully connected variant (fully_connected_s8__v6m) against the reference
// fully_connected_s8, bit for bit, on seeded random cases: K and N around the 4-feature
// blocks (1..9 and beyond), batches 1-3, per-tensor and per-channel multipliers with
// shifts both ways, input and filter zero points, clamps, absent bias, INT32_MIN/MAX
// multipliers and wrapping biases; plus the MLPerf Tiny layer shapes.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "fully_connected/fully_connected.h"
#include "quant/quant_math.h"

namespace mote {
namespace fully_connected_v6m_test {

int32_t uni(std::mt19937& rng, int32_t lo, int32_t hi) {
  return std::uniform_int_distribution<int32_t>(lo, hi)(rng);
}

void check_case(std::mt19937& rng, int32_t batches, int32_t k, int32_t n, bool per_channel,
                bool extreme, int index) {
  FullyConnectedS8Params p{};
  p.input_zero_point = uni(rng, 0, 3) == 0 ? 0 : uni(rng, -128, 127);
  p.filter_zero_point = per_channel || uni(rng, 0, 1) == 0 ? 0 : uni(rng, -128, 127);
  p.output_zero_point = uni(rng, -128, 127);
  p.act_min = uni(rng, 0, 1) ? -128 : uni(rng, -128, 127);
  p.act_max = uni(rng, 0, 1) ? 127 : uni(rng, p.act_min, 127);
  p.channel_count = per_channel ? static_cast<uint32_t>(n) : 1u;
  std::vector<int8_t> input(size_t(batches) * k), weights(size_t(n) * k);
  for (int8_t& v : input) v = static_cast<int8_t>(uni(rng, -128, 127));
  for (int8_t& v : weights) v = static_cast<int8_t>(uni(rng, -128, 127));
  std::vector<int32_t> bias(n), multipliers(p.channel_count), shifts(p.channel_count);
  for (int32_t& v : bias) v = extreme ? static_cast<int32_t>(rng()) : uni(rng, -40000, 40000);
  for (uint32_t c = 0; c < p.channel_count; ++c) {
    const bool wild = extreme && uni(rng, 0, 1) == 1;
    multipliers[c] = wild ? (uni(rng, 0, 3) == 0 ? INT32_MIN : static_cast<int32_t>(rng()))
                          : uni(rng, 1 << 30, INT32_MAX);
    shifts[c] = wild ? uni(rng, kMinShift, kMaxShift) : uni(rng, -12, 2);
  }
  const bool has_bias = uni(rng, 0, 4) != 0;
  const int32_t* b = has_bias ? bias.data() : nullptr;
  std::vector<int8_t> expected(size_t(batches) * n), actual(size_t(batches) * n, 0x5A);
  fully_connected_s8(p, multipliers.data(), shifts.data(), batches, k, n, input.data(),
                     weights.data(), b, expected.data());
  fully_connected_s8__v6m(p, multipliers.data(), shifts.data(), batches, k, n, input.data(),
                          weights.data(), b, actual.data());
  for (size_t i = 0; i < expected.size(); ++i) {
    ASSERT_EQ(actual[i], expected[i]) << "case " << index << " element " << i << ": batches "
                                      << batches << " K " << k << " N " << n;
  }
}

TEST(FullyConnectedS8V6m, MatchesReferenceOnRandomCases) {
  std::mt19937 rng(0x76360f01u);
  for (int i = 0; i < 2000; ++i) {
    const int32_t k = uni(rng, 0, 1) ? uni(rng, 1, 9) : uni(rng, 1, 300);
    const int32_t n = uni(rng, 0, 1) ? uni(rng, 1, 9) : uni(rng, 1, 40);
    check_case(rng, uni(rng, 1, 3), k, n, uni(rng, 0, 1) == 1, uni(rng, 0, 3) == 0, i);
  }
}

// ad01 (640 -> 128 -> .. -> 8 -> .. -> 640), kws 64 -> 12, vww 256 -> 2, ResNet 64 -> 10.
TEST(FullyConnectedS8V6m, MatchesReferenceOnModelShapes) {
  std::mt19937 rng(0x76360f02u);
  const int32_t shapes[][2] = {{640, 128}, {128, 8}, {8, 128}, {128, 640}, {64, 12},
                               {256, 2},   {64, 10}, {1, 1}};
  int index = 0;
  for (const auto& kn : shapes) check_case(rng, 1, kn[0], kn[1], false, false, index++);
  for (const auto& kn : shapes) check_case(rng, 2, kn[0], kn[1], true, true, index++);
}

}  // namespace fully_connected_v6m_test
}  // namespace mote
