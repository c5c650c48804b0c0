// The 16x8 requantization for the __dsp kernel variants (int16 activations), bit-exact
// with multiply_by_quantized_multiplier64(acc, multiplier, shift) (quant/quant_math.h)
// where it applies.
//
// Why one SMMULR is exact. The reference computes (acc * r + 2^(t-1)) >> t with
// r = reduced multiplier (|r| <= 2^15) and t = 15 - shift. For shift in [-17, -1],
// s = 32 - t = 17 + shift is in [0, 16] and m = r * 2^s fits int32 (|m| <= 2^31, the
// bound reached only by r = -2^15, s = 16). Then
//   SMMULR(acc, m) = floor((acc * r * 2^s + 2^31) / 2^32) = floor((acc * r + 2^(t-1)) / 2^t)
// for every int32 acc, since acc * m is formed exactly in 64 bits. The reference's int64
// product cannot wrap for |acc| < 2^31, so the two agree whenever the int64 accumulator
// (sum plus bias) fits int32; callers check that bound (requant64_sum_fits) and fall
// back to the reference otherwise.
#pragma once

#include <stdint.h>

#include "isa/dsp.h"
#include "quant/quant_math.h"

namespace mote {

// Largest |int16 * int8| product: 32768 * 128.
inline constexpr int64_t kMaxProduct16x8 = int64_t{1} << 22;

// True when SMMULR with requant64_multiplier() gives the reference's bits.
inline bool requant64_smmulr_applies(int32_t shift) { return shift >= -17 && shift <= -1; }

// The SMMULR multiplier r * 2^(17 + shift); requant64_smmulr_applies(shift) must hold.
inline int32_t requant64_multiplier(int32_t multiplier, int32_t shift) {
  const int32_t reduced = multiplier < 0x7FFF0000 ? ((multiplier + (1 << 15)) >> 16) : 0x7FFF;
  return static_cast<int32_t>(static_cast<uint32_t>(reduced) << (17 + shift));
}

// True when a sum of `taps` int16 x int8 products plus `bias` always fits int32, i.e.
// an SMLAD accumulator started at the bias holds the int64 accumulator exactly.
inline bool requant64_sum_fits(int64_t taps, int64_t bias) {
  const int64_t magnitude = bias < 0 ? -bias : bias;
  return taps * kMaxProduct16x8 + magnitude <= INT32_MAX;
}

// multiply_by_quantized_multiplier64(acc, ...) for an acc that fits int32, given the
// channel's requant64_multiplier() (fast) or its (multiplier, shift) otherwise.
inline int32_t requant64_smmulr(int32_t acc, int32_t fast_multiplier) {
  return dsp::smmulr(acc, fast_multiplier);
}

// The int16 output clamp, its form chosen once per run: SSAT #16 for the whole int16
// range, USAT #15 for [0, 32767] (ReLU), else two compares.
enum class Clamp16 : uint8_t { kFull, kRelu, kAny };
inline Clamp16 clamp16_kind(int32_t act_min, int32_t act_max) {
  if (act_min == -32768 && act_max == 32767) return Clamp16::kFull;
  return act_min == 0 && act_max == 32767 ? Clamp16::kRelu : Clamp16::kAny;
}
template <Clamp16 kKind>
inline int16_t clamp16(int32_t v, int32_t act_min, int32_t act_max) {
  if (kKind == Clamp16::kFull) return static_cast<int16_t>(dsp::ssat16(v));
  if (kKind == Clamp16::kRelu) return static_cast<int16_t>(dsp::usat15(v));
  return static_cast<int16_t>(v < act_min ? act_min : (v > act_max ? act_max : v));
}

// The largest number of taps an int32 SMLAD sum holds exactly (|sum| < 2^31), rounded
// down to a multiple of 4: longer sums run in chunks of this many, added in int64.
inline constexpr int32_t kMaxExactTaps16x8 = 508;
static_assert(kMaxExactTaps16x8 * kMaxProduct16x8 < (int64_t{1} << 31), "chunk bound");

}  // namespace mote
