// The arithmetic the integer LSTM kernels (lstm_s8, lstm_s16) share: after a unit's four
// gate pre-activations (Q3.12), TFLite Micro's gate activations, cell update and hidden
// product (lstm.h's formulas), and the checks of LstmIntegerParams. The kernels differ
// only in their matrix products (int32 or int64 sums) and the hidden state's type.
#pragma once

#include <stdint.h>

#include "kernel_util.h"
#include "lstm/lstm.h"
#include "quant/quant_check.h"
#include "quant/quant_math.h"
#include "quant/sigmoid_lut_s16.h"

namespace mote {

inline int32_t lstm_clamp16(int32_t v) { return clamp_i32(v, -32768, 32767); }

// clamp16(fc_x + fc_h), each already clamped to int16: a gate's pre-activation.
inline int32_t lstm_gate_sum(int32_t fc_x, int32_t fc_h) { return lstm_clamp16(fc_x + fc_h); }

// One unit's step from its gate pre-activations `pre` (indexed by LstmGate): updates *cell
// and returns the hidden value with its zero point added, before the clamp to the hidden
// state's type. `mul` computes the three element-wise requantizations,
// mul.forget_cell(v) = mbqm(v, p.forget_cell), mul.input_cell(v) and mul.hidden(v) alike,
// mul.clamp16(v) = lstm_clamp16(v) and mul.cell_tanh(c) = lut_tanh_s16(c,
// p.cell_tanh_multiplier, p.cell_tanh_shift) (LstmReferenceMuls, or a variant's exact
// faster forms).
template <typename Muls>
inline int32_t lstm_integer_unit_with(const LstmIntegerParams& p, const Muls& mul, const int32_t pre[4],
                                      int16_t* cell) {
  // The gates' pre-activations are Q3.12, TFLite's canonical int16 input: multiplier 3, no
  // shift (pre is within int16, so pre * 3 needs no rounding).
  const int32_t in_gate = lut_sigmoid_scaled(pre[kLstmInputGate] * 3);
  const int32_t forget = lut_sigmoid_scaled(pre[kLstmForgetGate] * 3);
  const int32_t cell_in = lut_tanh_scaled(pre[kLstmCellGate] * 3);
  const int32_t out_gate = lut_sigmoid_scaled(pre[kLstmOutputGate] * 3);
  // TFLite's MulElementwise of two symmetric int16 values: clamp16(mbqm(a * b)).
  const int32_t kept = mul.clamp16(mul.forget_cell(forget * *cell));
  const int32_t added = mul.clamp16(mul.input_cell(in_gate * cell_in));
  int32_t c = mul.clamp16(kept + added);
  if (p.cell_clip_enabled) c = clamp_i32(c, -p.cell_clip, p.cell_clip);
  *cell = static_cast<int16_t>(c);
  const int32_t squashed = mul.cell_tanh(static_cast<int16_t>(c));
  return wrapping_add(p.hidden_zero_point, mul.hidden(squashed * out_gate));
}

// The reference requantizations of lstm_integer_unit_with.
struct LstmReferenceMuls {
  const LstmIntegerParams& p;
  int32_t forget_cell(int32_t v) const {
    return multiply_by_quantized_multiplier(v, p.forget_cell.multiplier, p.forget_cell.shift);
  }
  int32_t input_cell(int32_t v) const {
    return multiply_by_quantized_multiplier(v, p.input_cell.multiplier, p.input_cell.shift);
  }
  int32_t hidden(int32_t v) const { return multiply_by_quantized_multiplier(v, p.hidden.multiplier, p.hidden.shift); }
  static int32_t clamp16(int32_t v) { return lstm_clamp16(v); }
  int32_t cell_tanh(int16_t c) const { return lut_tanh_s16(c, p.cell_tanh_multiplier, p.cell_tanh_shift); }
};

// lstm_integer_unit_with the reference requantizations. Kept out of the kernels' unit
// loops (one call per unit): inlined, its registers crowd the matrix products' inner
// loops (the MNIST LSTM ran 1.9% more instructions on the Cortex-M0+; out of line, 0.8%
// fewer than before it was shared, and 1.0% fewer on the Cortex-M4).
__attribute__((noinline)) inline int32_t lstm_integer_unit(const LstmIntegerParams& p, const int32_t pre[4],
                                                           int16_t* cell) {
  return lstm_integer_unit_with(p, LstmReferenceMuls{p}, pre, cell);
}

// The parameter checks both kernels make: weight zero points in int8, input and hidden
// zero points in the activation type Act, gate shifts valid for the kernel's multiply
// (`gate_shift_ok`), the element-wise multiplies' shifts in [-31, 30], the cell's tanh
// scaling and clip in range, flags 0 or 1.
template <typename Act>
inline bool lstm_integer_params_valid(const LstmIntegerParams& p, bool (*gate_shift_ok)(int32_t)) {
  for (uint32_t g = 0; g < 4; ++g) {
    const LstmGateParams& gp = p.gate[g];
    if (!gate_shift_ok(gp.input_shift) || !gate_shift_ok(gp.recurrent_shift) ||
        !valid_zero_point<int8_t>(gp.input_weight_zero_point) ||
        !valid_zero_point<int8_t>(gp.recurrent_weight_zero_point)) {
      return false;
    }
  }
  return valid_shift(p.forget_cell.shift) && valid_shift(p.input_cell.shift) && valid_shift(p.hidden.shift) &&
         valid_zero_point<Act>(p.input_zero_point) && valid_zero_point<Act>(p.hidden_zero_point) &&
         p.cell_tanh_multiplier >= 1 && p.cell_tanh_multiplier <= (3 << 12) && p.cell_tanh_shift >= 0 &&
         p.cell_tanh_shift <= 31 && p.cell_clip >= 0 && p.cell_clip <= 32767 && p.cell_clip_enabled <= 1;
}

}  // namespace mote
