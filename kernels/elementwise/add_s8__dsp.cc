// Armv7E-M / Armv8-M DSP int8 ADD of two tensors of the output's shape (no
// broadcasting); bit-exact with add_s8 (binary_quant::AddSub, see elementwise.h).
//
// An int8 input takes only 256 values, so each input's rescaling
//   multiply_by_quantized_multiplier((v - zp) << 20, multiplier, shift)
// is tabulated once per run for all 256 values (two int32 tables in the scratch, built
// with the reference function itself), stored doubled: |entry| <= 2^28 + 1, so the
// doubled sum of two entries, 2 * raw, fits int32 exactly. The output rescaling of raw
// (|raw| < 2^30) is then SMMULR(2 * raw, m) = SaturatingRoundingDoublingHighMul(raw, m)
// followed by the rounding divide (the fast path of quant_math_dsp.h; the output shift
// is <= 0 by check()). Per element, usually: two byte loads, two table loads, an add, one
// SMMLAR (rescaling, rounding constant and output zero point), the sign fix-up, a shift
// and SSAT; the clamp to [act_min, act_max] takes four lanes at once (see add_loop). Tensors shorter than the tables use the reference
// arithmetic directly; an output multiplier of INT32_MIN (which SMMULR cannot take)
// falls back to the reference function per element.
#include "elementwise/binary_quant.h"
#include "elementwise/elementwise.h"
#include "isa/dsp.h"
#include "quant/quant_math.h"

namespace mote {

namespace {

constexpr int32_t kTableEntries = 256;
constexpr int32_t kMinTableCount = 2 * kTableEntries;  // shorter tensors skip the tables

using AddS8Ref = binary_quant::AddSub<kAddSubLeftShiftS8, +1>;

// table[v + 128] = 2 * multiply_by_quantized_multiplier((v - zp) << 20, m, s).
void build_table(int32_t* table, int32_t zero_point, int32_t multiplier, int32_t shift) {
  for (int32_t v = -128; v < 128; ++v) {
    const int32_t shifted = wrapping_sub(v, zero_point) * (1 << kAddSubLeftShiftS8);
    table[v + 128] = 2 * multiply_by_quantized_multiplier(shifted, multiplier, shift);
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

}  // namespace

uint32_t add_s8__dsp_scratch_bytes() { return 2 * kTableEntries * sizeof(int32_t); }

void add_s8__dsp(const QuantAddSubParams& p, const int8_t* a, const int8_t* b, int8_t* out,
                 int32_t count, uint8_t* scratch) {
  if (count < kMinTableCount || p.output_multiplier == INT32_MIN) {
    for (int32_t i = 0; i < count; ++i) out[i] = static_cast<int8_t>(AddS8Ref::apply(p, a[i], b[i]));
    return;
  }
  int32_t* a_table = reinterpret_cast<int32_t*>(scratch);
  int32_t* b_table = a_table + kTableEntries;
  build_table(a_table, p.input1_zero_point, p.input1_multiplier, p.input1_shift);
  build_table(b_table, p.input2_zero_point, p.input2_multiplier, p.input2_shift);
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

Status add_s8__dsp_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(add_sub_s8_check(ctx));
  const TensorDesc& a = ctx.input_desc(0);
  const TensorDesc& b = ctx.input_desc(1);
  const TensorDesc& out = ctx.output_desc(0);
  if (a.rank != out.rank || b.rank != out.rank) return Status::kBadParams;
  for (uint32_t d = 0; d < out.rank; ++d) {
    if (a.dims[d] != out.dims[d] || b.dims[d] != out.dims[d]) return Status::kBadParams;
  }
  const Span<uint8_t> scratch = ctx.scratch();
  if (scratch.size() < add_s8__dsp_scratch_bytes() ||
      reinterpret_cast<uintptr_t>(scratch.data()) % alignof(int32_t) != 0) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void add_s8__dsp_run(const OpContext& ctx) {
  add_s8__dsp(ctx.params<QuantAddSubParams>(), static_cast<const int8_t*>(ctx.input_data(0)),
              static_cast<const int8_t*>(ctx.input_data(1)),
              static_cast<int8_t*>(ctx.output_data(0)),
              static_cast<int32_t>(element_count(ctx.output_desc(0))), ctx.scratch().data());
}

const KernelEntry kAddS8DspEntry = {add_s8__dsp_check, add_s8__dsp_run};

}  // namespace mote
