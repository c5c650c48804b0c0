// Armv7E-M / Armv8-M DSP int16 ADD (TFLite 16x8: left shift 15) of two tensors of the
// output's shape (no broadcasting); bit-exact with add_s16 (binary_quant::AddSub, see
// elementwise.h) for every parameter add_s16's check accepts.
//
// The fast loop takes two elements of each input per 32-bit load. With x an int16 input
// value placed in the high half of a word (x16 = x << 16, one LSL or AND), input zero
// point 0, multiplier m > 0 and r = -shift:
//   SaturatingRoundingDoublingHighMul(x << 15, m) = floor((x * m + 2^15) / 2^16)
//                                                 = SMMULR(x16, m) = h
// (x << 15 is never INT32_MIN, so the reference never saturates here), and for r > 0
//   RoundingDivideByPOT(h, r) = (h + 2^(r-1) - [h < 0]) >> r
//                             = (SMMLAR(x16, m, 2^(r-1)) + (x16 >> 31)) >> r,
// since with m > 0, h < 0 implies x < 0 and x < 0 with h == 0 gives the same result
// (|h| < 2^30, so nothing overflows). The larger-scale input of a compiled ADD has r == 0
// (its ratio is exactly 1/2), the other r > 0; the inputs are swapped (addition commutes)
// so that input a is the one without rounding when only one has it.
// With raw = a' + b' and 2 * raw fitting int32, the output rescaling is the add_s8 table
// loop's: y = SMMULR(2 * raw, m_out) is SaturatingRoundingDoublingHighMul(raw, m_out), and
//   rounding_divide_by_pot(y, r_out) + zp_out
//     = (SMMLAR(2 * raw, m_out, 2^(r_out-1) + zp_out * 2^r_out) + (raw >> 31)) >> r_out
// for m_out > 0 and r_out >= 1, given no overflow; then SSAT #16 and, unless the range is
// all of int16, the clamp of both halves at once (SSUB16/SEL).
// Whether these hold for every int16 input is decided once per run from the reference
// arithmetic at the input extremes (each step is monotonic in the input: see
// fast_path_constants); when they do not (non-zero input zero points, non-positive
// multipliers, an output shift of 0, extreme scale ratios), every element takes the
// reference arithmetic. `out` may be `a` or `b` (each pair is read before it is written).
#include "elementwise/add_s16_same_shape.h"
#include "elementwise/binary_quant.h"
#include "elementwise/elementwise.h"
#include "isa/dsp.h"
#include "kernel_util.h"

namespace mote {

namespace {

using AddS16Ref = binary_quant::AddSub<kAddSubLeftShiftS16, +1>;

// Everything the fast loop reads, as locals (the output stores could otherwise alias a
// parameter struct).
struct FastConstants {
  int32_t a_multiplier, b_multiplier;
  int32_t a_round, a_right, b_round, b_right;  // 2^(r-1), r; unused where r == 0
  int32_t out_multiplier, out_round, out_right;  // out_round includes zp_out * 2^r_out
  uint32_t act_min2, act_max2;                   // the range in both halves
  bool full_range;                               // act range == int16 range
};

// One input's rescaled value from x16 = x << 16 (the reference's a' or b').
template <bool kRound>
inline int32_t scale_input(int32_t x16, int32_t multiplier, int32_t round, int32_t right) {
  if (!kRound) return dsp::smmulr(x16, multiplier);
  return (dsp::smmlar(x16, multiplier, round) + (x16 >> 31)) >> right;
}

// The output value (before the act clamp) of a' + b', saturated to int16.
inline int32_t scale_output(const FastConstants& k, int32_t a_scaled, int32_t b_scaled) {
  const int32_t raw2 = (a_scaled + b_scaled) * 2;  // fits: fast_path_constants
  return dsp::ssat16((dsp::smmlar(raw2, k.out_multiplier, k.out_round) + (raw2 >> 31)) >> k.out_right);
}

template <bool kRoundA, bool kRoundB>
inline int32_t one(const FastConstants& k, int32_t a16, int32_t b16) {
  return scale_output(k, scale_input<kRoundA>(a16, k.a_multiplier, k.a_round, k.a_right),
                      scale_input<kRoundB>(b16, k.b_multiplier, k.b_round, k.b_right));
}

template <bool kRoundA, bool kRoundB, bool kFullRange>
void fast_loop(const FastConstants& constants, const int16_t* a, const int16_t* b, int16_t* out,
               int32_t count) {
  const FastConstants k = constants;
  int32_t i = 0;
  for (; i + 2 <= count; i += 2) {
    const uint32_t wa = dsp::load_u32(a + i);
    const uint32_t wb = dsp::load_u32(b + i);
    const int32_t lo = one<kRoundA, kRoundB>(k, static_cast<int32_t>(wa << 16), static_cast<int32_t>(wb << 16));
    const int32_t hi = one<kRoundA, kRoundB>(k, static_cast<int32_t>(wa & 0xFFFF0000u),
                                             static_cast<int32_t>(wb & 0xFFFF0000u));
    uint32_t w = dsp::pack_lo_lo(static_cast<uint32_t>(lo), static_cast<uint32_t>(hi));
    if (!kFullRange) w = dsp::clamp_s16x2(w, k.act_min2, k.act_max2);
    dsp::store_u32(out + i, w);
  }
  if (i < count) {
    const int32_t v = one<kRoundA, kRoundB>(k, static_cast<int32_t>(static_cast<uint32_t>(a[i]) << 16),
                                            static_cast<int32_t>(static_cast<uint32_t>(b[i]) << 16));
    out[i] = static_cast<int16_t>(kFullRange ? v : clamp_i32(v, dsp::lo16(k.act_min2), dsp::lo16(k.act_max2)));
  }
}

template <bool kRoundA, bool kRoundB>
void fast_loop_range(const FastConstants& k, const int16_t* a, const int16_t* b, int16_t* out,
                     int32_t count) {
  if (k.full_range) {
    fast_loop<kRoundA, kRoundB, true>(k, a, b, out, count);
  } else {
    fast_loop<kRoundA, kRoundB, false>(k, a, b, out, count);
  }
}

// SMMULR(2 * raw, m) as the loop computes it, in int64.
int64_t output_high(int64_t raw, int32_t multiplier) {
  return (2 * raw * multiplier + (int64_t{1} << 31)) >> 32;
}

// Fills *k and returns true when the fast loop gives the reference's bits for every pair
// of int16 inputs under p (input a and b as given: the caller swaps them beforehand).
// Each step is monotonic in the input value (the multipliers being positive), so its
// extremes are those of the inputs -32768 and 32767:
//   - 2 * (a' + b') must fit int32: a' + b' in [-2^30, 2^30 - 1];
//   - the output SMMLAR's exact sum y + out_round - 1 .. y + out_round must fit int32.
// The inputs' own steps cannot overflow (-2^30 < h < 2^30 - 2^14 and 2^(r-1) <= 2^30).
bool fast_path_constants(const QuantAddSubParams& p, FastConstants* k) {
  int64_t raw_min = 0, raw_max = 0;
  if (!add_s16_same_shape::monotonic_raw_range(p, &raw_min, &raw_max)) return false;
  if (raw_min < -(int64_t{1} << 30) || raw_max >= (int64_t{1} << 30)) return false;
  const int32_t out_right = -p.output_shift;
  const int64_t out_round =
      (int64_t{1} << (out_right - 1)) + int64_t{p.output_zero_point} * (int64_t{1} << out_right);
  if (output_high(raw_min, p.output_multiplier) + out_round - 1 < INT32_MIN ||
      output_high(raw_max, p.output_multiplier) + out_round > INT32_MAX) {
    return false;
  }
  k->a_multiplier = p.input1_multiplier;
  k->b_multiplier = p.input2_multiplier;
  k->a_right = -p.input1_shift;
  k->b_right = -p.input2_shift;
  k->a_round = static_cast<int32_t>((uint32_t{1} << k->a_right) >> 1);
  k->b_round = static_cast<int32_t>((uint32_t{1} << k->b_right) >> 1);
  k->out_multiplier = p.output_multiplier;
  k->out_round = static_cast<int32_t>(out_round);
  k->out_right = out_right;
  k->act_min2 = dsp::pack16(p.act_min, p.act_min);
  k->act_max2 = dsp::pack16(p.act_max, p.act_max);
  k->full_range = p.act_min == -32768 && p.act_max == 32767;
  return true;
}

}  // namespace

uint32_t add_s16__dsp_scratch_bytes() { return 0; }

void add_s16__dsp(const QuantAddSubParams& params, const int16_t* a, const int16_t* b,
                  int16_t* out, int32_t count) {
  // Input a is the one whose shift is 0 when only one of them has a zero shift.
  const QuantAddSubParams p = add_s16_same_shape::ordered(
      params, params.input1_shift < 0 && params.input2_shift == 0, &a, &b);
  FastConstants k;
  if (!fast_path_constants(p, &k)) {
    for (int32_t i = 0; i < count; ++i) out[i] = static_cast<int16_t>(AddS16Ref::apply(p, a[i], b[i]));
    return;
  }
  if (k.a_right == 0 && k.b_right == 0) {
    fast_loop_range<false, false>(k, a, b, out, count);
  } else if (k.a_right == 0) {
    fast_loop_range<false, true>(k, a, b, out, count);
  } else {
    fast_loop_range<true, true>(k, a, b, out, count);
  }
}

Status add_s16__dsp_check(const OpContext& ctx) { return add_s16_same_shape::check(ctx); }

void add_s16__dsp_run(const OpContext& ctx) { add_s16_same_shape::run<add_s16__dsp>(ctx); }

const KernelEntry kAddS16DspEntry = {add_s16__dsp_check, add_s16__dsp_run};

}  // namespace mote
