// The table-driven int8 ADD shared by add_s8__dsp (tables built in its scratch on every
// run) and add_s8_lut__dsp (tables computed by the compiler, read from its parameters).
// Internal to kernels/elementwise/.
//
// An int8 input takes only 256 values, so each input's rescaling
//   multiply_by_quantized_multiplier((v - zp) << 20, multiplier, shift)
// is tabulated for all 256 values with the reference function itself, stored doubled.
// Undoubled, |value| <= |(v - zp) << 20| <= 255 * 2^20 < 2^28 (the multiplier's high
// multiply and the right shift never grow it), so |entry| <= kAddS8TableEntryBound and the
// sum of two entries, 2 * raw, fits int32 exactly. The output rescaling of raw
// (|raw| < 2^29) is then SMMULR(2 * raw, m) = SaturatingRoundingDoublingHighMul(raw, m)
// followed by the rounding divide (the fast path of quant_math_dsp.h; the output shift
// is <= 0 by check()). Per element, usually: two byte loads, two table loads, an add, one
// SMMLAR (rescaling, rounding constant and output zero point), the sign fix-up, a shift
// and SSAT; the clamp to [act_min, act_max] takes four lanes at once (see add_loop). An
// output multiplier of INT32_MIN (which SMMULR cannot take) falls back to the reference
// function per element.
#pragma once

#include <stdint.h>

#include "elementwise/binary_quant.h"
#include "elementwise/elementwise.h"
#include "isa/dsp.h"
#include "quant/quant_math.h"

namespace mote {
namespace add_s8_tables {

using AddS8Ref = binary_quant::AddSub<kAddSubLeftShiftS8, +1>;

// Bound on every stored (doubled) entry: 2 * (2^28 + 1). Two entries then add without
// overflow, and the loop's SMMLAR accumulator stays in range.
inline constexpr int32_t kAddS8TableEntryBound = (int32_t{1} << 29) + 2;

// The entry of int8 value v: 2 * multiply_by_quantized_multiplier((v - zp) << 20, m, s),
// for a zero point in [-128, 127] and a shift in [-31, 0] (what check() accepts).
inline int32_t table_entry(int32_t v, int32_t zero_point, int32_t multiplier, int32_t shift) {
  const int32_t shifted = wrapping_sub(v, zero_point) * (1 << kAddSubLeftShiftS8);
  return 2 * multiply_by_quantized_multiplier(shifted, multiplier, shift);
}

// table[v + 128] = table_entry(v, ...) for v in [-128, 127].
inline void build_table(int32_t* table, int32_t zero_point, int32_t multiplier, int32_t shift) {
  for (int32_t v = -128; v < 128; ++v) {
    table[v + 128] = table_entry(v, zero_point, multiplier, shift);
  }
}

// The elementwise loop over the tables. Per element, with raw2 = ta[a] + tb[b] = 2 * raw
// and y = SMMULR(raw2, m) = SaturatingRoundingDoublingHighMul(raw, m):
//   out = clamp(rounding_divide_by_pot(y, right) + zp, act_min, act_max)
//       = clamp(ssat8((y + 2^(right-1) - [y < 0] + zp * 2^right) >> right), ...)
// kFast (m > 0, 1 <= right <= 22): y + 2^(right-1) + zp * 2^right is one SMMLAR with
//   that constant as accumulator; |zp * 2^right| <= 2^29 and |y| <= 2^29 + 1, so it
//   cannot overflow. With m > 0, y < 0 implies raw2 < 0, and raw2 < 0 with y == 0 gives
//   (2^(right-1) - 1 + zp * 2^right) >> right == zp as well, so [y < 0] may be read from
//   raw2's sign.
// otherwise: the same from y itself, the zero point added after the shift.
// The clamp to [act_min, act_max] takes four saturated lanes at once (SSUB8/SEL).
template <bool kFast>
void add_loop(const QuantAddSubParams& p, const int32_t* ta, const int32_t* tb, const int8_t* a,
              const int8_t* b, int8_t* out, int32_t count) {
  const int32_t multiplier = p.output_multiplier;
  const int32_t right = -p.output_shift;
  const int32_t neg_right = -right;
  const int32_t half = static_cast<int32_t>((uint32_t{1} << right) >> 1);
  const int32_t round =
      kFast ? half + static_cast<int32_t>(static_cast<uint32_t>(p.output_zero_point) << right) : half;
  const int32_t zero_point = p.output_zero_point;
  auto one = [&](int32_t va, int32_t vb) -> uint32_t {
    const int32_t raw2 = ta[va] + tb[vb];  // 2 * raw, exact
    int32_t v;
    if (kFast) {
      v = (dsp::smmlar(raw2, multiplier, round) + (raw2 >> 31)) >> right;
    } else {
      const int32_t y = dsp::smmulr(raw2, multiplier);
      const int32_t negative = (y & neg_right) >> 31;  // -1 when y < 0 and right > 0
      v = ((y + round + negative) >> right) + zero_point;
    }
    return static_cast<uint32_t>(dsp::ssat8(v));
  };
  const uint32_t min4 = (static_cast<uint32_t>(p.act_min) & 0xFFu) * 0x01010101u;
  const uint32_t max4 = (static_cast<uint32_t>(p.act_max) & 0xFFu) * 0x01010101u;
  int32_t i = 0;
  for (; i + 4 <= count; i += 4) {
    // Lanes 0 and 2, 1 and 3 as halves (PKHBT), their low bytes (UXTB16), interleaved.
    const uint32_t v02 = dsp::pack_lo_lo(one(a[i], b[i]), one(a[i + 2], b[i + 2]));
    const uint32_t v13 = dsp::pack_lo_lo(one(a[i + 1], b[i + 1]), one(a[i + 3], b[i + 3]));
    const uint32_t w = dsp::uxtb16(v02) | (dsp::uxtb16(v13) << 8);
    dsp::store_u32(out + i, dsp::min_s8x4(dsp::max_s8x4(w, min4), max4));
  }
  for (; i < count; ++i) {
    const int32_t v = static_cast<int8_t>(one(a[i], b[i]));
    out[i] = static_cast<int8_t>(clamp_i32(v, p.act_min, p.act_max));
  }
}

// out[i] = add_s8 of a[i], b[i] through the two tables (kAddS8TableEntries each, built by
// build_table from p's input quantization). `out` may be `a` or `b`.
inline void add_with_tables(const QuantAddSubParams& p, const int32_t* a_table,
                            const int32_t* b_table, const int8_t* a, const int8_t* b, int8_t* out,
                            int32_t count) {
  if (p.output_multiplier == INT32_MIN) {
    for (int32_t i = 0; i < count; ++i) {
      out[i] = static_cast<int8_t>(AddS8Ref::apply(p, a[i], b[i]));
    }
    return;
  }
  // Indexed by the signed byte itself.
  const int32_t* ta = a_table + 128;
  const int32_t* tb = b_table + 128;
  const int32_t right = -p.output_shift;  // in [0, 31]
  if (p.output_multiplier > 0 && right >= 1 && right <= 22) {
    add_loop<true>(p, ta, tb, a, b, out, count);
  } else {
    add_loop<false>(p, ta, tb, a, b, out, count);
  }
}

// True when both inputs have the output's shape (no broadcasting), which the table
// variants require.
inline bool same_shape(const OpContext& ctx) {
  const TensorDesc& a = ctx.input_desc(0);
  const TensorDesc& b = ctx.input_desc(1);
  const TensorDesc& out = ctx.output_desc(0);
  if (a.rank != out.rank || b.rank != out.rank) return false;
  for (uint32_t d = 0; d < out.rank; ++d) {
    if (a.dims[d] != out.dims[d] || b.dims[d] != out.dims[d]) return false;
  }
  return true;
}

}  // namespace add_s8_tables
}  // namespace mote
