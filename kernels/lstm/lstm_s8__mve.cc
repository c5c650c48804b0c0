// int8 LSTM with Helium (MVE), bit-exact with lstm_s8 (lstm_s8.cc).
//
// Algorithm. The matrix products run on the int8 rows as stored, 16 features per
// VMLADAVA.S8, with the offsets moved out of the sums:
//   sum_k (w + wo) * (v + vo) = sum_k w * v + vo * sum_k w + wo * sum_k v + K * wo * vo
// which equals TFLite's wrapping int32 sum modulo 2^32, so the results agree exactly. The
// terms that do not depend on the step (the bias, vo * sum_k w and K * wo * vo of each
// gate row) are formed once per run into scratch, unit by unit as eight int32 (the four
// gates' input-row terms, then their hidden-row terms); wo * sum_k v is formed once per
// step, only when some weight offset is not zero. Per unit one pass over the input row
// and one over the hidden row serve all four gates (one activation load, four weight
// loads and four VMLADAVAs per 16 features; the last block predicated). The four gates'
// requantizations run as one vector (quant/quant_math_mve.h, lanes = gates), then the
// unit's element-wise step in the DSP extension's form (lstm_integer_dsp.h).
// Cost on the MNIST LSTM (I = 28, H = 20, 28 steps; Cortex-M55): about 455 instructions
// per unit and step (lstm_s8: about 1,130).
// Scratch: lstm_s8__mve_scratch_bytes(I, H), 4-aligned: 32 * H bytes, or lstm_s8's when
// that is more.
#include "isa/mve.h"
#include "lstm/lstm.h"
#include "lstm/lstm_common.h"
#include "lstm/lstm_integer.h"
#include "lstm/lstm_integer_dsp.h"
#include "quant/quant_math_mve.h"

namespace mote {
namespace {

constexpr int32_t kTermsPerUnit = 8;

// acc[g] = sum_k w[g][k] * v[k] for the four gates' rows (int8 as stored), wrapping.
inline mve::int32x4_t dot4(const int8_t* const w[4], const int8_t* v, int32_t features) {
  int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  for (int32_t k = 0; k < features; k += 16) {
    const mve::mve_pred16_t active = mve::vctp8q(static_cast<uint32_t>(features - k));
    const mve::int8x16_t vk = mve::vldrbq_z_s8(v + k, active);
    a0 = mve::vmladavaq_s8(a0, mve::vldrbq_z_s8(w[0] + k, active), vk);
    a1 = mve::vmladavaq_s8(a1, mve::vldrbq_z_s8(w[1] + k, active), vk);
    a2 = mve::vmladavaq_s8(a2, mve::vldrbq_z_s8(w[2] + k, active), vk);
    a3 = mve::vmladavaq_s8(a3, mve::vldrbq_z_s8(w[3] + k, active), vk);
  }
  mve::int32x4_t acc = mve::vdupq_n_s32(a0);
  acc = mve::vsetq_lane_s32<1>(a1, acc);
  acc = mve::vsetq_lane_s32<2>(a2, acc);
  return mve::vsetq_lane_s32<3>(a3, acc);
}

// sum_k v[k], wrapping.
inline int32_t row_sum(const int8_t* v, int32_t features) {
  int32_t sum = 0;
  for (int32_t k = 0; k < features; k += 16) {
    const mve::mve_pred16_t active = mve::vctp8q(static_cast<uint32_t>(features - k));
    sum = mve::vaddvaq_s8(sum, mve::vldrbq_z_s8(v + k, active));
  }
  return sum;
}

// One product's step-independent terms for gate rows `w` (row n of each gate at
// w[g] + n * features): terms[n * kTermsPerUnit + g] = bias + vo * sum_k w + K * wo * vo.
void form_terms(const int8_t* const w[4], const int32_t* const bias[4], const int32_t w_offset[4],
                int32_t v_offset, int32_t features, int32_t units, int32_t* terms) {
  for (int32_t n = 0; n < units; ++n) {
    for (int32_t g = 0; g < 4; ++g) {
      uint32_t t = bias != nullptr ? static_cast<uint32_t>(bias[g][n]) : 0u;
      t += static_cast<uint32_t>(v_offset) * static_cast<uint32_t>(row_sum(w[g] + n * features, features));
      t += static_cast<uint32_t>(features) * static_cast<uint32_t>(w_offset[g]) * static_cast<uint32_t>(v_offset);
      terms[n * kTermsPerUnit + g] = static_cast<int32_t>(t);
    }
  }
}

// The four gates' (multiplier, shift) of one product as lanes.
RequantS8x4 gate_requant(const LstmIntegerParams& p, bool recurrent) {
  int32_t multipliers[4], shifts[4];
  for (int32_t g = 0; g < 4; ++g) {
    multipliers[g] = recurrent ? p.gate[g].recurrent_multiplier : p.gate[g].input_multiplier;
    shifts[g] = recurrent ? p.gate[g].recurrent_shift : p.gate[g].input_shift;
  }
  return requant_s8x4_prepare(mve::vldrwq_s32(multipliers), mve::vldrwq_s32(shifts));
}

}  // namespace

uint32_t lstm_s8__mve_scratch_bytes(uint32_t inputs, uint32_t units) {
  // At least lstm_s8's bytes, which its check requires.
  const uint32_t terms = units * kTermsPerUnit * 4u;
  const uint32_t reference = static_cast<uint32_t>(lstm_s8_scratch_bytes(inputs, units));
  return terms > reference ? terms : reference;
}

Status lstm_s8__mve_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(lstm_s8_check(ctx));
  const LstmIntegerParams& p = ctx.params<LstmIntegerParams>();
  const LstmDims d = lstm_dims(ctx, p.time_major);
  if (!lstm_multipliers_above_min(p) ||
      !lstm_scratch_fits(ctx, lstm_s8__mve_scratch_bytes(static_cast<uint32_t>(d.inputs), static_cast<uint32_t>(d.units)), alignof(int32_t))) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void lstm_s8__mve_run(const OpContext& ctx) {
  const LstmIntegerParams& p = ctx.params<LstmIntegerParams>();
  const LstmDims d = lstm_dims(ctx, p.time_major);
  const int32_t inputs = d.inputs;
  const int32_t units = d.units;
  int32_t* terms = reinterpret_cast<int32_t*>(ctx.scratch().data());
  const int8_t* wx[4];
  const int8_t* wh[4];
  const int32_t* bias[4];
  int32_t wx_offset[4], wh_offset[4];
  for (int32_t g = 0; g < 4; ++g) {
    wx[g] = static_cast<const int8_t*>(ctx.input_data(1 + g));
    wh[g] = static_cast<const int8_t*>(ctx.input_data(5 + g));
    bias[g] = static_cast<const int32_t*>(ctx.input_data(12 + g));
    wx_offset[g] = -p.gate[g].input_weight_zero_point;
    wh_offset[g] = -p.gate[g].recurrent_weight_zero_point;
  }
  const int32_t x_offset = -p.input_zero_point;
  const int32_t h_offset = -p.hidden_zero_point;
  form_terms(wx, bias, wx_offset, x_offset, inputs, units, terms);
  form_terms(wh, nullptr, wh_offset, h_offset, units, units, terms + 4);
  const mve::int32x4_t wx_offsets = mve::vldrwq_s32(wx_offset);
  const mve::int32x4_t wh_offsets = mve::vldrwq_s32(wh_offset);
  const bool any_w_offset = (wx_offset[0] | wx_offset[1] | wx_offset[2] | wx_offset[3] | wh_offset[0] |
                             wh_offset[1] | wh_offset[2] | wh_offset[3]) != 0;
  const RequantS8x4 qx = gate_requant(p, false);
  const RequantS8x4 qh = gate_requant(p, true);
  const mve::int32x4_t zero = mve::vdupq_n_s32(0);
  const mve::int32x4_t lo = mve::vdupq_n_s32(-32768);
  const mve::int32x4_t hi = mve::vdupq_n_s32(32767);
  const LstmUnitDsp unit(p);

  lstm_walk<int8_t>(ctx, d, [&](int32_t /*t*/, const int8_t* x_row, const int8_t* /*next_x_row*/,
                                const int8_t* h_row, int8_t* y_row, int16_t* cell) {
    // wo * sum_k v of this step's rows (each gate's lane), added to the per-unit terms.
    mve::int32x4_t x_step = zero;
    mve::int32x4_t h_step = zero;
    if (any_w_offset) {
      x_step = mve::vmlaq_n_s32(zero, wx_offsets, row_sum(x_row, inputs));
      h_step = mve::vmlaq_n_s32(zero, wh_offsets, row_sum(h_row, units));
    }
    for (int32_t n = 0; n < units; ++n) {
      const int8_t* wx_rows[4] = {wx[0] + n * inputs, wx[1] + n * inputs, wx[2] + n * inputs, wx[3] + n * inputs};
      const int8_t* wh_rows[4] = {wh[0] + n * units, wh[1] + n * units, wh[2] + n * units, wh[3] + n * units};
      const int32_t* unit_terms = terms + n * kTermsPerUnit;
      const mve::int32x4_t acc_x =
          mve::vaddq_s32(mve::vaddq_s32(dot4(wx_rows, x_row, inputs), mve::vldrwq_s32(unit_terms)), x_step);
      const mve::int32x4_t acc_h =
          mve::vaddq_s32(mve::vaddq_s32(dot4(wh_rows, h_row, units), mve::vldrwq_s32(unit_terms + 4)), h_step);
      const mve::int32x4_t fc_x = requant_s8x4(acc_x, qx, zero, lo, hi);
      const mve::int32x4_t fc_h = requant_s8x4(acc_h, qh, zero, lo, hi);
      const mve::int32x4_t sum = mve::vaddq_s32(fc_x, fc_h);
      int32_t pre[4];
      mve::vstrwq_p_s32(pre, mve::vminq_s32(mve::vmaxq_s32(sum, lo), hi), mve::vctp32q(4));
      y_row[n] = static_cast<int8_t>(clamp_i32(unit.step(pre, &cell[n]), -128, 127));
    }
  });
}

const KernelEntry kLstmS8MveEntry = {lstm_s8__mve_check, lstm_s8__mve_run};

}  // namespace mote
