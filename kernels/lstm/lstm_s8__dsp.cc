// int8 LSTM with the Armv7E-M DSP extension, bit-exact with lstm_s8 (lstm_s8.cc).
//
// Algorithm. Rows are widened once, offsets added (v + offset is in [-255, 255]), four
// features per two words in the order sxtb16 / sxtb16_ror8 of a weight word produce (the
// int8 fully connected DSP variant's layout):
//   word 2q = [v(4q), v(4q+2)]      word 2q+1 = [v(4q+1), v(4q+3)]
// - The input product does not depend on the recurrence, so it runs once per pair of steps
//   (t even: steps t and t + 1 of the batch row; a last odd step pairs with itself): the
//   two input rows widened and interleaved group by group, then per unit two passes of
//   two gate rows each, one weight word serving both steps (16 instructions per 16 MACs,
//   dsp::dot_group_s16x8_2rows_2inputs). Its requantized halves of the gates
//   (fc_x, int16 [2][H][4]) wait in scratch.
// - Each step then widens its hidden row and runs per unit one pass of the four gates'
//   recurrent rows (21 instructions per 16 MACs, dsp::dot_group_s16x8_4rows), the
//   recurrent requantization, pre = clamp16(fc_x + fc_h), and the unit's element-wise
//   step (LstmUnitDsp, lstm_integer_dsp.h).
// Features past the last multiple of four are added one by one from the int8 row. Weight
// zero points are applied as
//   sum_k (w + w_offset) * v = sum_k w * v + w_offset * sum_k v
// (equal modulo 2^32, so the wrapping sums agree exactly), only when some weight offset is
// not zero. The requantizations are requant_dsp's (SMMULR), without its range check when
// no shift is positive and the biases bound every sum below 2^30 whatever the activations
// (decided once per run); exact for every multiplier but INT32_MIN, which check() refuses.
// Cost on the MNIST LSTM (I = 28, H = 20, 28 steps; Cortex-M4): about 680 instructions
// per unit and step (lstm_s8: about 1,180), about 290 of them the 192 MACs.
// Scratch: lstm_s8__dsp_scratch_bytes(I, H): (I / 4) * 16 + (H / 4) * 8 + 16 * H bytes
// (or lstm_s8's when that is more), 4-aligned.
#include "isa/dsp.h"
#include "lstm/lstm.h"
#include "lstm/lstm_common.h"
#include "lstm/lstm_integer.h"
#include "lstm/lstm_integer_dsp.h"
#include "quant/quant_math_dsp.h"

namespace mote {
namespace {

// An int8 row with its offset: `groups` whole groups of four features go through widened
// words, the rest (tail, weight-offset sum) through add_rest.
struct WidenedRow {
  const int8_t* row;
  int32_t offset, features, groups;
};

inline WidenedRow describe(const int8_t* row, int32_t offset, int32_t features) {
  return {row, offset, features, features / 4};
}

// The row's groups as word pairs (layout above), kStrideBytes from one pair to the next.
template <int kStrideBytes>
inline void widen(const WidenedRow& v, uint32_t* words) {
  const uint32_t offset2 = dsp::pack16(v.offset, v.offset);
  for (int32_t q = 0; q < v.groups; ++q) {
    const uint32_t word = dsp::load_u32(v.row + 4 * q);
    dsp::store2_u32_advance<kStrideBytes>(words, dsp::sxtab16(offset2, word), dsp::sxtab16_ror8(offset2, word));
  }
}

// acc[g] = sum over the groups of w[g] times the widened row `words`, for the four gates
// (dsp::dot_group_s16x8_4rows: 21 instructions per 16 MACs); each w[g] advances past the
// groups.
inline void dot4(const int8_t* w[4], const uint32_t* words, int32_t groups, int32_t acc[4]) {
  int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  const int8_t* w0 = w[0];
  const int8_t* w1 = w[1];
  const int8_t* w2 = w[2];
  const int8_t* w3 = w[3];
  const uint32_t* x = words;
  const uint32_t* const end = x + 2 * groups;
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

// As dot4 for two gate rows against two inputs whose groups alternate in `words` (u's
// group, then v's): a_r = u . w_r, b_r = v . w_r (16 instructions per 16 MACs).
inline void dot2x2(const int8_t*& w0, const int8_t*& w1, const uint32_t* words, int32_t groups, int32_t& a0,
                   int32_t& a1, int32_t& b0, int32_t& b1) {
  int32_t s0 = 0, s1 = 0, t0 = 0, t1 = 0;
  const int8_t* r0 = w0;
  const int8_t* r1 = w1;
  const uint32_t* x = words;
  const uint32_t* const end = x + 4 * groups;
  while (x != end) dsp::dot_group_s16x8_2rows_2inputs(x, r0, r1, s0, s1, t0, t1);
  w0 = r0;
  w1 = r1;
  a0 = s0;
  a1 = s1;
  b0 = t0;
  b1 = t1;
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

// One of the two matrix products (input or hidden rows): the four gates' weights, weight
// offsets and requantizations. `in_range`: no shift is positive and every sum (bias
// included) is in (-2^30, 2^30) whatever the activations, so requant_dsp needs no range
// check.
struct Product {
  const int8_t* w[4];
  int32_t w_offset[4];
  RequantDsp q[4];
  int32_t features, tail;
  bool w_offsets, rest, in_range;

  void init(const OpContext& ctx, const LstmIntegerParams& p, bool recurrent, int32_t k,
            const int32_t* const bias[4], int32_t units) {
    for (int32_t g = 0; g < 4; ++g) {
      const LstmGateParams& gp = p.gate[g];
      w[g] = static_cast<const int8_t*>(ctx.input_data((recurrent ? 5 : 1) + g));
      w_offset[g] = -(recurrent ? gp.recurrent_weight_zero_point : gp.input_weight_zero_point);
      q[g] = recurrent ? requant_dsp_prepare(gp.recurrent_multiplier, gp.recurrent_shift)
                       : requant_dsp_prepare(gp.input_multiplier, gp.input_shift);
    }
    features = k;
    tail = k % 4;
    w_offsets = (w_offset[0] | w_offset[1] | w_offset[2] | w_offset[3]) != 0;
    rest = w_offsets || tail != 0;
    // |(w + wo) * (v + vo)| <= 255 * 255 per term.
    constexpr int64_t kLimit = (int64_t{1} << 30) - 1;
    const int64_t sum_bound = int64_t{k} * (255 * 255);
    in_range = sum_bound < kLimit;
    for (int32_t g = 0; g < 4 && in_range; ++g) {
      in_range = q[g].left == 0;
      for (int32_t n = 0; n < units && in_range && bias != nullptr; ++n) {
        const int64_t b = bias[g][n];
        in_range = (b < 0 ? -b : b) + sum_bound < kLimit;
      }
    }
  }

  // clamp16(mbqm(acc, q[g])); kInRange == in_range (so q[g].left == 0).
  template <bool kInRange>
  int32_t requant(int32_t acc, int32_t g) const {
    return dsp::ssat16(kInRange ? requant_dsp_unshifted(acc, q[g]) : requant_dsp(acc, q[g]));
  }
};

// The scratch's parts: the input rows of two steps widened and interleaved group by group,
// the hidden row widened, then fc_x of the two steps (int16, [2][H][4]).
uint32_t input_words_bytes(uint32_t inputs) { return inputs / 4 * 16u; }
uint32_t hidden_words_bytes(uint32_t units) { return units / 4 * 8u; }

// The input product of the steps whose rows are x0 and x1 (x1 may repeat x0), all units:
// fc[(s * H + n) * 4 + g] = clamp16(mbqm(sum_k (wx + wo)(x_s + xo) + bias_g[n], gate g)).
// One pass over the weights serves both steps. kInRange == px.in_range.
template <bool kInRange>
void input_product(const Product& px, const int32_t* const bias[4], int32_t x_offset, int32_t units,
                   const int8_t* x0, const int8_t* x1, uint32_t* words, int16_t* fc) {
  const WidenedRow v0 = describe(x0, x_offset, px.features);
  const WidenedRow v1 = describe(x1, x_offset, px.features);
  widen<16>(v0, words);
  widen<16>(v1, words + 2);
  const int8_t* r[4] = {px.w[0], px.w[1], px.w[2], px.w[3]};
  int16_t* fc1 = fc + 4 * units;
  for (int32_t n = 0; n < units; ++n) {
    const int8_t* const rows[4] = {r[0], r[1], r[2], r[3]};
    int32_t acc0[4], acc1[4];
    dot2x2(r[0], r[1], words, v0.groups, acc0[0], acc0[1], acc1[0], acc1[1]);
    dot2x2(r[2], r[3], words, v0.groups, acc0[2], acc0[3], acc1[2], acc1[3]);
    if (px.rest) {
      for (int32_t g = 0; g < 4; ++g) r[g] += px.tail;
      add_rest(rows, px.w_offset, px.w_offsets, v0, acc0);
      add_rest(rows, px.w_offset, px.w_offsets, v1, acc1);
    }
    for (int32_t g = 0; g < 4; ++g) {
      fc[4 * n + g] = static_cast<int16_t>(px.requant<kInRange>(wrapping_add(acc0[g], bias[g][n]), g));
      fc1[4 * n + g] = static_cast<int16_t>(px.requant<kInRange>(wrapping_add(acc1[g], bias[g][n]), g));
    }
  }
}

// One step's hidden product and units: y_row[n] from fc (the step's input half of each
// gate, [H][4]) and the hidden row h_row; kInRange == ph.in_range.
template <bool kInRange>
void hidden_step(const Product& ph, const LstmUnitDsp& unit, const int8_t* h_row, int32_t h_offset, int32_t units,
                 uint32_t* words, const int16_t* fc, int8_t* y_row, int16_t* cell) {
  const WidenedRow hv = describe(h_row, h_offset, units);
  widen<8>(hv, words);
  const int8_t* r[4] = {ph.w[0], ph.w[1], ph.w[2], ph.w[3]};
  for (int32_t n = 0; n < units; ++n) {
    const int8_t* const rows[4] = {r[0], r[1], r[2], r[3]};
    int32_t acc[4];
    dot4(r, words, hv.groups, acc);
    if (ph.rest) {
      for (int32_t g = 0; g < 4; ++g) r[g] += ph.tail;
      add_rest(rows, ph.w_offset, ph.w_offsets, hv, acc);
    }
    int32_t pre[4];
    for (int32_t g = 0; g < 4; ++g) pre[g] = dsp::ssat16(fc[4 * n + g] + ph.requant<kInRange>(acc[g], g));
    y_row[n] = static_cast<int8_t>(dsp::ssat8(unit.step(pre, &cell[n])));
  }
}

}  // namespace

uint32_t lstm_s8__dsp_scratch_bytes(uint32_t inputs, uint32_t units) {
  // At least lstm_s8's bytes, which its check requires.
  const uint32_t own = input_words_bytes(inputs) + hidden_words_bytes(units) + units * 16u;
  const uint32_t reference = static_cast<uint32_t>(lstm_s8_scratch_bytes(inputs, units));
  return own > reference ? own : reference;
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
  const int32_t units = d.units;
  uint8_t* scratch = ctx.scratch().data();
  uint32_t* x_words = reinterpret_cast<uint32_t*>(scratch);
  uint32_t* h_words = reinterpret_cast<uint32_t*>(scratch + input_words_bytes(static_cast<uint32_t>(d.inputs)));
  int16_t* fc_x = reinterpret_cast<int16_t*>(reinterpret_cast<uint8_t*>(h_words) +
                                             hidden_words_bytes(static_cast<uint32_t>(units)));
  const int32_t* bias[4];
  for (int32_t g = 0; g < 4; ++g) bias[g] = static_cast<const int32_t*>(ctx.input_data(12 + g));
  Product px, ph;
  px.init(ctx, p, false, d.inputs, bias, units);
  ph.init(ctx, p, true, units, nullptr, units);
  const LstmUnitDsp unit(p);

  lstm_walk<int8_t>(ctx, d, [&](int32_t t, const int8_t* x_row, const int8_t* next_x_row, const int8_t* h_row,
                                int8_t* y_row, int16_t* cell) {
    // Even steps form the input product of this step and the next (fc_x's two halves).
    const int16_t* fc = fc_x + (t & 1) * 4 * units;
    if ((t & 1) == 0) {
      const int8_t* x1 = next_x_row != nullptr ? next_x_row : x_row;
      if (px.in_range) {
        input_product<true>(px, bias, -p.input_zero_point, units, x_row, x1, x_words, fc_x);
      } else {
        input_product<false>(px, bias, -p.input_zero_point, units, x_row, x1, x_words, fc_x);
      }
    }
    if (ph.in_range) {
      hidden_step<true>(ph, unit, h_row, -p.hidden_zero_point, units, h_words, fc, y_row, cell);
    } else {
      hidden_step<false>(ph, unit, h_row, -p.hidden_zero_point, units, h_words, fc, y_row, cell);
    }
  });
}

const KernelEntry kLstmS8DspEntry = {lstm_s8__dsp_check, lstm_s8__dsp_run};

}  // namespace mote
