// ARMv6-M (Cortex-M0+) int16 ADD (TFLite 16x8: left shift 15) of two tensors of the
// output's shape (no broadcasting); bit-exact with add_s16 (binary_quant::AddSub, see
// elementwise.h) for every parameter add_s16's check accepts. ARMv6-M multiplies only
// 32x32->32, so the reference's 64-bit products are calls to __aeabi_lmul; this loop uses
// four to six MULS per element instead.
//
// Input rescaling. For an int16 input x (zero point 0), multiplier m > 0 split as
// m = mh * 2^16 + ml (0 <= ml < 2^16, mh < 2^15) and r = -shift:
//   SaturatingRoundingDoublingHighMul(x << 15, m) = floor((x * m + 2^15) / 2^16)
//                                                 = x * mh + ((x * ml + 2^15) >> 16) = h
// (x << 15 is never INT32_MIN; |x * ml| < 2^31), and for r > 0
//   RoundingDivideByPOT(h, r) = (h + 2^(r-1) - [h < 0]) >> r = (h + 2^(r-1) + (x >> 31)) >> r
// since with m > 0, h < 0 implies x < 0, and x < 0 with h == 0 gives 0 either way. The
// larger-scale input of a compiled ADD has m == 2^30 and r == 0 ("exact": h = x << 14);
// the inputs are swapped (addition commutes) so that input a is that one when either is.
//
// Output rescaling of raw = a' + b' (|raw| <= 2^30, checked) with output shift -ro,
// ro >= 1: split_requant (quant/split_requant.h), 32-bit multiplies only. The act range
// lies within int16, so no saturation is needed.
// Whether the parameters allow this (input zero points 0, positive multipliers, an output
// shift of at least 1, the bounds above) is decided once per run from the reference
// arithmetic at the input extremes (each step is monotonic in the input); otherwise every
// element takes the reference arithmetic. A compiled ADD (one input exact, the other's
// shift in [-14, -1], an output shift of at most -2) runs the same arithmetic as a
// Thumb-1 loop, v6m::add_16x8 (43 instructions per element; its own split of the
// constants: loop_constants). `out` may be `a` or `b` (each element is read before it is
// written).
#include "elementwise/add_s16_same_shape.h"
#include "elementwise/binary_quant.h"
#include "elementwise/elementwise.h"
#include "isa/v6m.h"
#include "kernel_util.h"
#include "quant/split_requant.h"

namespace mote {

namespace {

using AddS16Ref = binary_quant::AddSub<kAddSubLeftShiftS16, +1>;

// One input's rescaling: mh, ml, 2^(r-1) (0 for r == 0), r, and -1 / 0 where the sign
// correction applies / does not (r > 0 / r == 0).
struct InputScale {
  int32_t mul_hi, mul_lo, round, right, sign_mask;
};

// Everything the loop reads, as locals (the output stores could otherwise alias a
// parameter struct).
struct V6mConstants {
  InputScale a, b;
  SplitRequant out;        // the output rescaling
  int32_t act_min, act_max;
  bool a_exact;            // input a has m == 2^30, r == 0: a' = x << 14
};

inline int32_t scaled_high(int32_t x, const InputScale& s) {
  return x * s.mul_hi + ((x * s.mul_lo + (1 << 15)) >> 16);
}

// a' or b' of the reference for input value x, any r (r == 0: round 0, sign_mask 0).
inline int32_t scale_input(int32_t x, const InputScale& s) {
  return (scaled_high(x, s) + s.round + ((x >> 31) & s.sign_mask)) >> s.right;
}

inline int16_t finish(const V6mConstants& k, int32_t raw) {
  return static_cast<int16_t>(clamp_i32(split_requant(k.out, raw), k.act_min, k.act_max));
}

void loop_general(const V6mConstants& constants, const int16_t* a, const int16_t* b, int16_t* out,
                  int32_t count) {
  const V6mConstants k = constants;
  for (int32_t i = 0; i < count; ++i) {
    out[i] = finish(k, scale_input(a[i], k.a) + scale_input(b[i], k.b));
  }
}

InputScale input_scale(int32_t multiplier, int32_t shift) {
  InputScale s;
  s.mul_hi = multiplier >> 16;
  s.mul_lo = multiplier & 0xFFFF;
  s.right = -shift;
  s.round = static_cast<int32_t>((uint32_t{1} << s.right) >> 1);
  s.sign_mask = s.right > 0 ? -1 : 0;
  return s;
}

// Whether an input's rescaling is x << 14 (the larger-scale input of a compiled ADD).
bool exact_input(int32_t multiplier, int32_t shift) { return multiplier == (1 << 30) && shift == 0; }

// Fills *k and returns true when the loops give the reference's bits for every pair of
// int16 inputs under p (input a and b as given: the caller swaps them beforehand).
bool fast_path_constants(const QuantAddSubParams& p, V6mConstants* k) {
  int64_t raw_min = 0, raw_max = 0;
  if (!add_s16_same_shape::monotonic_raw_range(p, &raw_min, &raw_max)) return false;
  if (raw_min < -(int64_t{1} << 30) || raw_max > (int64_t{1} << 30)) return false;
  if (!make_split_requant(p.output_multiplier, p.output_shift, p.output_zero_point, &k->out)) return false;
  k->a = input_scale(p.input1_multiplier, p.input1_shift);
  k->b = input_scale(p.input2_multiplier, p.input2_shift);
  k->act_min = p.act_min;
  k->act_max = p.act_max;
  k->a_exact = exact_input(p.input1_multiplier, p.input1_shift);
  return true;
}

// The constants of v6m::add_16x8 for input a exact, input b's shift in [-14, -1] and an
// output shift of at most -2: the same arithmetic with input b's multiplier split around
// its signed low half (|x * ml| <= 2^30, so 2^15 + 2^(15+r) joins the rounding before the
// shift) and raw split as hi * 2^16 + lo with 0 <= lo < 2^16 (hi = raw >> 16 is negative
// exactly when raw is): the middle sum then lies in [-2^29 - 2^16, 2^31 + 2^29] and is
// taken plus 2^30 as a uint32, the 2^14 of floor((lo * bl + 2^30) / 2^16) =
// ((lo * bl) >> 16) + 2^14 and the bias leaving through the outer constant.
v6m::Add16x8Constants loop_constants(const V6mConstants& k, const QuantAddSubParams& p) {
  v6m::Add16x8Constants c;
  c.b_mul_lo = static_cast<int16_t>(p.input2_multiplier);
  c.b_mul_hi = static_cast<int32_t>((int64_t{p.input2_multiplier} - c.b_mul_lo) >> 16);  // <= 2^15
  c.b_right = k.b.right;
  c.out_lo = k.out.lo;
  c.out_hi = k.out.hi;
  c.out_right = k.out.right;
  c.b_round = (1 << 15) + (1 << (15 + k.b.right));
  c.mid_round = (uint32_t{1} << 14) + (uint32_t{1} << 30);
  c.out_round = k.out.round - (1 << 14);
  c.act_min = k.act_min;
  c.act_max = k.act_max;
  return c;
}

}  // namespace

uint32_t add_s16__v6m_scratch_bytes() { return 0; }

void add_s16__v6m(const QuantAddSubParams& params, const int16_t* a, const int16_t* b,
                  int16_t* out, int32_t count) {
  // Input a is the exact one (m == 2^30, shift 0) when only input b is.
  const QuantAddSubParams p = add_s16_same_shape::ordered(
      params, exact_input(params.input2_multiplier, params.input2_shift) &&
                  !exact_input(params.input1_multiplier, params.input1_shift),
      &a, &b);
  V6mConstants k;
  if (!fast_path_constants(p, &k)) {
    for (int32_t i = 0; i < count; ++i) out[i] = static_cast<int16_t>(AddS16Ref::apply(p, a[i], b[i]));
    return;
  }
  if (k.a_exact && k.b.right >= 1 && k.b.right <= 14 && k.out.right >= 1) {
    v6m::add_16x8(loop_constants(k, p), a, b, out, count);
  } else {
    loop_general(k, a, b, out, count);
  }
}

Status add_s16__v6m_check(const OpContext& ctx) { return add_s16_same_shape::check(ctx); }

void add_s16__v6m_run(const OpContext& ctx) { add_s16_same_shape::run<add_s16__v6m>(ctx); }

const KernelEntry kAddS16V6mEntry = {add_s16__v6m_check, add_s16__v6m_run};

}  // namespace mote
