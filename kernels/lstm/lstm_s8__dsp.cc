// int8 LSTM with the Armv7E-M DSP extension, bit-exact with lstm_s8 (lstm_s8.cc).
//
// Algorithm. Each step widens its input row and previous hidden row once, offsets added
// (v + offset is in [-255, 255]), four features per two words in the order sxtb16 /
// sxtb16_ror8 of a weight word produce (the int8 fully connected DSP variant's layout):
//   word 2q = [v(4q), v(4q+2)]      word 2q+1 = [v(4q+1), v(4q+3)]
// Then per unit the four gates' rows go through one pass over those words (one LDRD of the
// activation words; per gate one weight-word load, two extends and two SMLADs: 21
// instructions per 16 MACs, dsp::dot_group_s16x8_4rows). Features past the last multiple
// of four are added one by one from the int8 row. Weight zero points are applied as
//   sum_k (w + w_offset) * v = sum_k w * v + w_offset * sum_k v
// (equal modulo 2^32, so the wrapping sums agree exactly), the row sum formed once per
// step and only when some weight offset is not zero. The gate requantizations use
// requant_dsp (SMMULR), without its range check when no gate shift is positive and the
// biases bound every sum below 2^30 (checked once per run); the unit's element-wise step
// is LstmUnitDsp (lstm_integer_dsp.h). Both are exact for every multiplier but INT32_MIN,
// which check() refuses.
// Cost on the MNIST LSTM (I = 28, H = 20, 28 steps; Cortex-M4): about 770 instructions
// per unit and step, of which about 310 the 192 MACs, 150 the gates' requantization and
// 220 the unit's step (lstm_s8: about 1,180).
// Scratch: lstm_s8__dsp_scratch_bytes(I, H) (lstm_s8's), 4-aligned.
#include "isa/dsp.h"
#include "lstm/lstm.h"
#include "lstm/lstm_common.h"
#include "lstm/lstm_integer.h"
#include "lstm/lstm_integer_dsp.h"
#include "quant/quant_math_dsp.h"

namespace mote {
namespace {

// One widened row: `groups` groups of four features in words, and what the words leave
// out (the int8 row with its offset, for the tail and the weight-offset sum).
struct WidenedRow {
  const uint32_t* words;
  const int8_t* row;
  int32_t offset, features, groups;
};

WidenedRow widen(const int8_t* row, int32_t offset, int32_t features, uint32_t* words) {
  const int32_t groups = features / 4;
  const uint32_t offset2 = dsp::pack16(offset, offset);
  uint32_t* out = words;
  for (int32_t q = 0; q < groups; ++q) {
    const uint32_t v = dsp::load_u32(row + 4 * q);
    dsp::store2_u32_advance<8>(out, dsp::sxtab16(offset2, v), dsp::sxtab16_ror8(offset2, v));
  }
  return {words, row, offset, features, groups};
}

// acc[g] = sum over the row's groups of w[g] times the widened row, for the four gates
// (dsp::dot_group_s16x8_4rows: 21 instructions per 16 MACs); each w[g] advances past the
// groups.
inline void dot4(const int8_t* w[4], const WidenedRow& v, int32_t acc[4]) {
  int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  const int8_t* w0 = w[0];
  const int8_t* w1 = w[1];
  const int8_t* w2 = w[2];
  const int8_t* w3 = w[3];
  const uint32_t* x = v.words;
  const uint32_t* const end = x + 2 * v.groups;
  while (x != end) dsp::dot_group_s16x8_4rows(x, w0, w1, w2, w3, a0, a1, a2, a3);
  w[0] = w0;
  w[1] = w1;
  w[2] = w2;
  w[3] = w3;
  acc[0] = a0;
  acc[1] = a1;
  acc[2] = a2;
  acc[3] = a3;
}

// acc[g] += what the groups of four leave out of sum_k (w[g][k] + w_offset[g]) * (row[k] +
// offset): the features past the last group, and w_offset[g] * sum_k (row[k] + offset)
// when `w_offsets` (some weight offset is not zero). Wrapping, as the sums.
__attribute__((noinline)) void add_rest(const int8_t* const w[4], const int32_t w_offset[4], bool w_offsets,
                                        const WidenedRow& v, int32_t acc[4]) {
  uint32_t s[4] = {static_cast<uint32_t>(acc[0]), static_cast<uint32_t>(acc[1]), static_cast<uint32_t>(acc[2]),
                   static_cast<uint32_t>(acc[3])};
  for (int32_t k = 4 * v.groups; k < v.features; ++k) {
    const int32_t vk = v.row[k] + v.offset;
    for (int32_t g = 0; g < 4; ++g) s[g] += static_cast<uint32_t>(w[g][k] * vk);
  }
  if (w_offsets) {
    uint32_t sum = 0;
    for (int32_t k = 0; k < v.features; ++k) sum += static_cast<uint32_t>(v.row[k] + v.offset);
    for (int32_t g = 0; g < 4; ++g) s[g] += static_cast<uint32_t>(w_offset[g]) * sum;
  }
  for (int32_t g = 0; g < 4; ++g) acc[g] = static_cast<int32_t>(s[g]);
}

// The four gates' pre-activations (lstm.h: clamp16 of fc_x + fc_h) from their sums.
// kInRange: every sum, bias included, is known to be in (-2^30, 2^30) and no shift is
// positive, so the requantizations need no range check.
template <bool kInRange>
inline void gate_pre(const int32_t acc_x[4], const int32_t* const bias[4], int32_t n, const int32_t acc_h[4],
                     const RequantDsp qx[4], const RequantDsp qh[4], int32_t pre[4]) {
  for (int32_t g = 0; g < 4; ++g) {
    const int32_t sum_x = wrapping_add(acc_x[g], bias[g][n]);
    const int32_t fc_x = dsp::ssat16(kInRange ? requant_dsp_in_range(sum_x, qx[g]) : requant_dsp(sum_x, qx[g]));
    const int32_t fc_h = dsp::ssat16(kInRange ? requant_dsp_in_range(acc_h[g], qh[g]) : requant_dsp(acc_h[g], qh[g]));
    pre[g] = dsp::ssat16(fc_x + fc_h);
  }
}

// True when gate_pre<true> applies: no gate shift is positive and every sum is in
// (-2^30, 2^30), whatever the activations: |(w + wo) * (v + vo)| <= 255 * 255 per term.
bool gate_sums_in_range(const RequantDsp qx[4], const RequantDsp qh[4], const int32_t* const bias[4],
                        int32_t inputs, int32_t units) {
  constexpr int64_t kLimit = (int64_t{1} << 30) - 1;
  constexpr int64_t kTerm = 255 * 255;
  if (int64_t{units} * kTerm >= kLimit) return false;
  for (int32_t g = 0; g < 4; ++g) {
    if (qx[g].left != 0 || qh[g].left != 0) return false;
    for (int32_t n = 0; n < units; ++n) {
      const int64_t b = bias[g][n];
      if ((b < 0 ? -b : b) + int64_t{inputs} * kTerm >= kLimit) return false;
    }
  }
  return true;
}

}  // namespace

uint32_t lstm_s8__dsp_scratch_bytes(uint32_t inputs, uint32_t units) {
  // The widened words take at most lstm_s8's bytes, which its check requires.
  return static_cast<uint32_t>(lstm_s8_scratch_bytes(inputs, units));
}

Status lstm_s8__dsp_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(lstm_s8_check(ctx));
  const LstmIntegerParams& p = ctx.params<LstmIntegerParams>();
  const LstmDims d = lstm_dims(ctx, p.time_major);
  if (!lstm_multipliers_above_min(p) ||
      !lstm_scratch_fits(ctx,
                         lstm_s8__dsp_scratch_bytes(static_cast<uint32_t>(d.inputs), static_cast<uint32_t>(d.units)),
                         alignof(uint32_t))) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void lstm_s8__dsp_run(const OpContext& ctx) {
  const LstmIntegerParams& p = ctx.params<LstmIntegerParams>();
  const LstmDims d = lstm_dims(ctx, p.time_major);
  const int32_t inputs = d.inputs;
  const int32_t units = d.units;
  uint32_t* x_words = reinterpret_cast<uint32_t*>(ctx.scratch().data());
  uint32_t* h_words = x_words + 2 * (inputs / 4);
  const int8_t* wx[4];
  const int8_t* wh[4];
  const int32_t* bias[4];
  int32_t wx_offset[4], wh_offset[4];
  RequantDsp qx[4], qh[4];
  for (int32_t g = 0; g < 4; ++g) {
    const LstmGateParams& gp = p.gate[g];
    wx[g] = static_cast<const int8_t*>(ctx.input_data(1 + g));
    wh[g] = static_cast<const int8_t*>(ctx.input_data(5 + g));
    bias[g] = static_cast<const int32_t*>(ctx.input_data(12 + g));
    wx_offset[g] = -gp.input_weight_zero_point;
    wh_offset[g] = -gp.recurrent_weight_zero_point;
    qx[g] = requant_dsp_prepare(gp.input_multiplier, gp.input_shift);
    qh[g] = requant_dsp_prepare(gp.recurrent_multiplier, gp.recurrent_shift);
  }
  const bool wx_offsets = (wx_offset[0] | wx_offset[1] | wx_offset[2] | wx_offset[3]) != 0;
  const bool wh_offsets = (wh_offset[0] | wh_offset[1] | wh_offset[2] | wh_offset[3]) != 0;
  const bool x_rest = wx_offsets || inputs % 4 != 0;
  const bool h_rest = wh_offsets || units % 4 != 0;
  const bool in_range = gate_sums_in_range(qx, qh, bias, inputs, units);
  const int32_t x_tail = inputs % 4;
  const int32_t h_tail = units % 4;
  const LstmUnitDsp unit(p);

  lstm_walk<int8_t>(ctx, d, [&](const int8_t* x_row, const int8_t* h_row, int8_t* y_row, int16_t* cell) {
    const WidenedRow xv = widen(x_row, -p.input_zero_point, inputs, x_words);
    const WidenedRow hv = widen(h_row, -p.hidden_zero_point, units, h_words);
    // The four gates' rows of unit n, advanced unit by unit.
    const int8_t* rx[4] = {wx[0], wx[1], wx[2], wx[3]};
    const int8_t* rh[4] = {wh[0], wh[1], wh[2], wh[3]};
    for (int32_t n = 0; n < units; ++n) {
      const int8_t* const wx_rows[4] = {rx[0], rx[1], rx[2], rx[3]};
      const int8_t* const wh_rows[4] = {rh[0], rh[1], rh[2], rh[3]};
      int32_t acc_x[4], acc_h[4];
      dot4(rx, xv, acc_x);
      dot4(rh, hv, acc_h);
      if (x_tail != 0 || h_tail != 0) {
        for (int32_t g = 0; g < 4; ++g) {
          rx[g] += x_tail;
          rh[g] += h_tail;
        }
      }
      if (x_rest) add_rest(wx_rows, wx_offset, wx_offsets, xv, acc_x);
      if (h_rest) add_rest(wh_rows, wh_offset, wh_offsets, hv, acc_h);
      int32_t pre[4];
      if (in_range) {
        gate_pre<true>(acc_x, bias, n, acc_h, qx, qh, pre);
      } else {
        gate_pre<false>(acc_x, bias, n, acc_h, qx, qh, pre);
      }
      y_row[n] = static_cast<int8_t>(dsp::ssat8(unit.step(pre, &cell[n])));
    }
  });
}

const KernelEntry kLstmS8DspEntry = {lstm_s8__dsp_check, lstm_s8__dsp_run};

}  // namespace mote
