// multiply_by_quantized_multiplier(raw, m, shift) + zero_point for |raw| <= 2^30, m > 0
// and shift <= -1, in 32x32->32 multiplies only (for ARMv6-M, whose 64-bit products are
// calls to __aeabi_lmul). Shared by the int16 __v6m variants (add, mul, mean).
//
// With m split as bh * 2^16 + bl (-2^15 < bl <= 2^15), raw = ah * 2^16 + al
// (al = (int16)raw) and ro = -shift >= 1:
//   RoundingDivideByPOT(SaturatingRoundingDoublingHighMul(raw, m), ro) + zp
//     = floor((raw * m + 2^30 + (2^(ro-1) - [raw < 0]) * 2^31) / 2^(31+ro)) + zp
// (the high product is negative only when raw is, and raw < 0 with a zero high product
// gives 0 either way). With raw * m = ah*bh * 2^32 + (ah*bl + al*bh) * 2^16 + al*bl,
// and since floor(floor(v / 2^16) / 2^k) = floor(v / 2^(16+k)):
//   mid = ah*bl + al*bh + ((al*bl + 2^30 + [ro == 1] * 2^31) >> 16, in uint32) - [raw < 0] * 2^15
//   out = (ah*bh + ([ro >= 2] * 2^(ro-2) + zp * 2^(ro-1)) + (mid >> 16)) >> (ro - 1)
// Every term fits its type: |ah| <= 2^14, |al|, |bl| <= 2^15, bh <= 2^15, so
// 0 <= al*bl + 2^30 (+ 2^31) < 2^32, |mid| < 2^31, and the rounding constant is required
// to lie within +-2^29 (make_split_requant). The result is not saturated.
#pragma once

#include <stdint.h>

namespace mote {

struct SplitRequant {
  int32_t hi, lo;      // bh, bl
  uint32_t low_round;  // 2^30, plus 2^31 when ro == 1
  int32_t round;       // [ro >= 2] * 2^(ro-2) + zp * 2^(ro-1)
  int32_t right;       // ro - 1
};

// Fills *s and returns true when the identity above holds for multiplier, shift and
// zero_point (m > 0, shift in [-31, -1], the rounding constant within +-2^29).
inline bool make_split_requant(int32_t multiplier, int32_t shift, int32_t zero_point, SplitRequant* s) {
  if (multiplier <= 0 || shift >= 0 || shift < -31) return false;
  const int32_t ro = -shift;
  const int64_t round = (ro >= 2 ? int64_t{1} << (ro - 2) : 0) + int64_t{zero_point} * (int64_t{1} << (ro - 1));
  if (round < -(int64_t{1} << 29) || round > (int64_t{1} << 29)) return false;
  // bl in (-2^15, 2^15]: the low 16 bits as a signed value, -2^15 taken as +2^15.
  int32_t lo = static_cast<int16_t>(multiplier);
  if (lo == -32768) lo = 32768;
  s->lo = lo;
  s->hi = static_cast<int32_t>((int64_t{multiplier} - lo) >> 16);
  s->low_round = (uint32_t{1} << 30) + (ro == 1 ? uint32_t{1} << 31 : 0u);
  s->round = static_cast<int32_t>(round);
  s->right = ro - 1;
  return true;
}

// The value above for |raw| <= 2^30.
inline int32_t split_requant(const SplitRequant& s, int32_t raw) {
  const int32_t al = static_cast<int16_t>(raw);
  const int32_t ah = (raw - al) >> 16;
  const uint32_t low = (static_cast<uint32_t>(al * s.lo) + s.low_round) >> 16;
  const int32_t mid = ah * s.lo + al * s.hi + static_cast<int32_t>(low) - ((raw >> 31) & 0x8000);
  return (ah * s.hi + s.round + (mid >> 16)) >> s.right;
}

}  // namespace mote
