// An independent model of TFLite's integer requantization arithmetic for the integer
// kernel tests, plus generators for test data.
//
// The model is written from the mathematical definitions, not from the kernels' code:
// exact products in 128-bit integers and explicit rounding rules
//   SaturatingRoundingDoublingHighMul(a, b) = floor(a * b / 2^31 + 1/2)    (ties up)
//   RoundingDivideByPOT(x, e)               = x / 2^e rounded half away from zero
//   64-bit MultiplyByQuantizedMultiplier    = floor(x * r / 2^(15 - s) + 1/2) with the
//                                             16-bit reduced multiplier r
// so a transcription error in either place shows up as a mismatch.
#pragma once

#include <stdint.h>
#include <string.h>

#include <random>
#include <vector>

#include "kernel_test_util.h"

namespace mote::testing {

using i128 = __int128;

// floor(a / 2^n) for n in [0, 126].
inline i128 floor_div_pow2(i128 a, int n) {
  const i128 d = static_cast<i128>(1) << n;
  i128 q = a / d;
  if (a % d != 0 && a < 0) q -= 1;
  return q;
}

inline int32_t wrap32(i128 v) {
  return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v)));
}

inline int32_t ref_srdhm(int32_t a, int32_t b) {
  if (a == INT32_MIN && b == INT32_MIN) return INT32_MAX;
  const i128 p = static_cast<i128>(a) * b;
  return static_cast<int32_t>(floor_div_pow2(2 * p + (static_cast<i128>(1) << 31), 32));
}

inline int32_t ref_rdbpot(int32_t x, int e) {
  if (e == 0) return x;
  const i128 mag = x < 0 ? -static_cast<i128>(x) : static_cast<i128>(x);
  const i128 q = floor_div_pow2(mag + (static_cast<i128>(1) << (e - 1)), e);
  return static_cast<int32_t>(x < 0 ? -q : q);
}

// Double-rounding MultiplyByQuantizedMultiplier(int32): x * 2^max(s, 0) in int32
// (wrapping), then the rounded high multiply, then the rounding right shift.
inline int32_t ref_mbqm(int32_t x, int32_t m, int32_t s) {
  const int left = s > 0 ? s : 0;
  const int right = s > 0 ? 0 : -s;
  const int32_t shifted = wrap32(static_cast<i128>(x) * (static_cast<i128>(1) << left));
  return ref_rdbpot(ref_srdhm(shifted, m), right);
}

inline int32_t ref_mbqm64(int64_t x, int32_t m, int32_t s) {
  const int64_t r = m < 0x7FFF0000 ? floor_div_pow2(static_cast<i128>(m) + 32768, 16) : 0x7FFF;
  const int total = 15 - s;
  return wrap32(floor_div_pow2(2 * static_cast<i128>(x) * r + (static_cast<i128>(1) << total),
                               total + 1));
}

inline int32_t ref_clamp(int64_t v, int64_t lo, int64_t hi) {
  return static_cast<int32_t>(v < lo ? lo : (v > hi ? hi : v));
}

// Uniform integers in [lo, hi] from a fixed seed.
template <typename T>
std::vector<T> random_ints(size_t count, uint32_t seed, int64_t lo, int64_t hi) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int64_t> dist(lo, hi);
  std::vector<T> v(count);
  for (T& x : v) x = static_cast<T>(dist(rng));
  return v;
}

template <typename T>
std::vector<T> random_full_range(size_t count, uint32_t seed) {
  return random_ints<T>(count, seed, std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
}

// A quantized multiplier in [2^30, 2^31) and a shift in [shift_lo, shift_hi].
struct Multiplier {
  int32_t multiplier;
  int32_t shift;
};
inline std::vector<Multiplier> random_multipliers(size_t count, uint32_t seed, int32_t shift_lo,
                                                  int32_t shift_hi) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int32_t> m(1 << 30, INT32_MAX);
  std::uniform_int_distribution<int32_t> s(shift_lo, shift_hi);
  std::vector<Multiplier> v(count);
  for (Multiplier& x : v) x = {m(rng), s(rng)};
  return v;
}

// Header struct P followed by int32 arrays, as the per-channel kernels expect.
template <typename P>
std::vector<uint8_t> params_bytes(const P& header, const std::vector<Multiplier>& channels) {
  std::vector<uint8_t> bytes(sizeof(P) + channels.size() * 8);
  memcpy(bytes.data(), &header, sizeof(P));
  for (size_t i = 0; i < channels.size(); ++i) {
    memcpy(bytes.data() + sizeof(P) + i * 4, &channels[i].multiplier, 4);
    memcpy(bytes.data() + sizeof(P) + (channels.size() + i) * 4, &channels[i].shift, 4);
  }
  return bytes;
}

// Mutable access to a per-channel params blob in a TestOp, for corruption tests.
template <typename P>
int32_t* params_array_of(TestOp& op, uint32_t index, uint32_t count) {
  return reinterpret_cast<int32_t*>(&op.params<P>() + 1) + index * count;
}

// TFLite's GetInvSqrtQuantizedMultiplierExp(input, kReverseShift = -1, ...), in the
// test's own arithmetic (128-bit products): the multiplier and left shift of 1/sqrt(input).
inline void ref_inv_sqrt_multiplier_exp(int32_t input, int32_t* multiplier, int32_t* shift) {
  if (input <= 1) {
    *multiplier = INT32_MAX, *shift = 0;
    return;
  }
  int right = 11;
  while (input >= (1 << 29)) input /= 4, ++right;
  int clz = 0;
  while (clz < 32 && (static_cast<uint32_t>(input) << clz & 0x80000000u) == 0) ++clz;
  const int pairs = (clz - 1) / 2 - 1;
  right -= pairs;
  input <<= 2 * pairs;
  auto sat_shl = [](int32_t v, int e) {
    return static_cast<int32_t>(ref_clamp(static_cast<int64_t>(v) * (int64_t{1} << e), INT32_MIN, INT32_MAX));
  };
  const int32_t half_input = ref_rdbpot(input >> 1, 1);
  int32_t x = 1 << 28;
  for (int i = 0; i < 5; ++i) {
    const int32_t cube = sat_shl(ref_srdhm(ref_srdhm(x, x), x), 6);                       // Q9 -> Q3
    x = sat_shl(wrap32(static_cast<i128>(ref_srdhm((1 << 28) + (1 << 27), x)) - ref_srdhm(half_input, cube)), 3);
  }
  x = ref_srdhm(x, 1518500250);
  if (right < 0) x = wrap32(static_cast<i128>(x) << -right), right = 0;
  *multiplier = x, *shift = -right;
}

// TFLite's integer L2Normalization of one vector of `depth` int8 values: the inverse
// square root of the sum of squared differences from the zero point, output in 1/128.
inline void ref_l2_normalize_s8(const int8_t* x, size_t depth, int32_t zero_point, int8_t* y) {
  int32_t acc = 0;
  for (size_t c = 0; c < depth; ++c) acc += (x[c] - zero_point) * (x[c] - zero_point);
  int32_t m = 0, s = 0;
  ref_inv_sqrt_multiplier_exp(acc, &m, &s);
  for (size_t c = 0; c < depth; ++c)
    y[c] = static_cast<int8_t>(ref_clamp(ref_mbqm(x[c] - zero_point, m, s + 7), -128, 127));
}

}  // namespace mote::testing
