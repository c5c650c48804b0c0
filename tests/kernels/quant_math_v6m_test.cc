// The ARMv6-M requantization (quant/quant_math_v6m.h: 16-bit partial products, no 64-bit
// multiply) against multiply_by_quantized_multiplier, bit for bit: every pair of edge
// values (INT32_MIN/MAX and the neighbours of each 2^15 / 2^16 / 2^30 boundary) for every
// valid shift, then a few million seeded random triples with operands of every magnitude.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "quant/quant_math.h"
#include "quant/quant_math_v6m.h"

namespace mote {
namespace quant_math_v6m_test {

int32_t v6m(int32_t x, int32_t multiplier, int32_t shift) {
  return requant_v6m(x, requant_v6m_prepare(multiplier, shift));
}

std::vector<int32_t> edge_values() {
  std::vector<int32_t> v = {INT32_MIN, INT32_MIN + 1, INT32_MAX, INT32_MAX - 1, 0, 1, -1};
  for (const int64_t base : {int64_t{1} << 15, int64_t{1} << 16, int64_t{1} << 30,
                             (int64_t{1} << 31) - (int64_t{1} << 15)}) {
    for (int64_t d = -2; d <= 2; ++d) {
      v.push_back(static_cast<int32_t>(base + d));
      v.push_back(static_cast<int32_t>(-base + d));
    }
  }
  v.push_back(0x7FFF7FFF);
  v.push_back(static_cast<int32_t>(0x80008000u));
  v.push_back(static_cast<int32_t>(0x8000FFFFu));
  return v;
}

TEST(QuantMathV6m, EdgeValuesForEveryShift) {
  const std::vector<int32_t> edges = edge_values();
  for (const int32_t x : edges) {
    for (const int32_t m : edges) {
      for (int32_t s = kMinShift; s <= kMaxShift; ++s) {
        ASSERT_EQ(v6m(x, m, s), multiply_by_quantized_multiplier(x, m, s))
            << "x=" << x << " m=" << m << " shift=" << s;
      }
    }
  }
}

TEST(QuantMathV6m, SaturatingCaseGivesInt32Max) {
  EXPECT_EQ(v6m(INT32_MIN, INT32_MIN, 0), INT32_MAX);
  EXPECT_EQ(v6m(INT32_MIN, INT32_MIN, 0), multiply_by_quantized_multiplier(INT32_MIN, INT32_MIN, 0));
  // acc << shift wraps to INT32_MIN: 1 << 31 with shift 30 from acc = 2.
  EXPECT_EQ(v6m(2, INT32_MIN, 30), multiply_by_quantized_multiplier(2, INT32_MIN, 30));
}

TEST(QuantMathV6m, RandomOperandsOfEveryMagnitude) {
  std::mt19937 rng(0x76360001u);
  for (int i = 0; i < 4000000; ++i) {
    int32_t x = static_cast<int32_t>(rng());
    int32_t m = static_cast<int32_t>(rng());
    if (i & 1) x >>= rng() % 32;  // small accumulators too
    if (i & 2) m >>= rng() % 32;
    if ((i & 12) == 4) m = static_cast<int32_t>((rng() >> 1) | 0x40000000u);  // TFLite range
    const int32_t s = static_cast<int32_t>(rng() % 62) + kMinShift;
    ASSERT_EQ(v6m(x, m, s), multiply_by_quantized_multiplier(x, m, s))
        << "x=" << x << " m=" << m << " shift=" << s;
  }
}

TEST(QuantMathV6m, OutputAddsZeroPointAndClamps) {
  const RequantV6m q = requant_v6m_prepare(1 << 30, 1);  // x1.0
  EXPECT_EQ(requant_v6m_output(5, q, 3, -128, 127), 8);
  EXPECT_EQ(requant_v6m_output(500, q, 3, -128, 127), 127);
  EXPECT_EQ(requant_v6m_output(-500, q, 3, -20, 127), -20);
}

}  // namespace quant_math_v6m_test
}  // namespace mote
