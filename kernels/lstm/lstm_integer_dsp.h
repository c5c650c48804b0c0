// lstm_integer_unit (lstm_integer.h) with the element-wise requantizations in the DSP
// extension's form (quant/quant_math_dsp.h): bit-exact for every multiplier but INT32_MIN
// (lstm_multipliers_above_min, lstm.h). Shared by the int8 LSTM's __dsp and
// __mve variants (a Helium core has the DSP extension too).
#pragma once

#include <stdint.h>

#include "isa/dsp.h"
#include "lstm/lstm_integer.h"
#include "quant/quant_math_dsp.h"

namespace mote {

class LstmUnitDsp {
 public:
  explicit LstmUnitDsp(const LstmIntegerParams& p)
      : p_(p),
        forget_cell_(requant_dsp_prepare(p.forget_cell.multiplier, p.forget_cell.shift)),
        input_cell_(requant_dsp_prepare(p.input_cell.multiplier, p.input_cell.shift)),
        hidden_(requant_dsp_prepare(p.hidden.multiplier, p.hidden.shift)),
        tanh_round_(p.cell_tanh_shift > 0 ? int32_t{1} << (p.cell_tanh_shift - 1) : 0) {}

  // lstm_integer_unit(p, pre, cell). Out of line for the reason lstm_integer_unit is.
  __attribute__((noinline)) int32_t step(const int32_t pre[4], int16_t* cell) const {
    return lstm_integer_unit_with(p_, *this, pre, cell);
  }

  // Each product is of two int16 values, one of them a gate in [0, 32767]: |v| < 2^30, so
  // without a left shift the fast form applies unchecked.
  int32_t forget_cell(int32_t v) const { return requant(v, forget_cell_); }
  int32_t input_cell(int32_t v) const { return requant(v, input_cell_); }
  int32_t hidden(int32_t v) const { return requant(v, hidden_); }
  static int32_t clamp16(int32_t v) { return dsp::ssat16(v); }
  // lut_scaled_input_s16 with its rounding term formed once.
  int32_t cell_tanh(int16_t c) const {
    return lut_tanh_scaled((int32_t{c} * p_.cell_tanh_multiplier + tanh_round_) >> p_.cell_tanh_shift);
  }

 private:
  static int32_t requant(int32_t v, const RequantDsp& q) {
    return q.left == 0 ? requant_dsp_unshifted(v, q) : requant_dsp(v, q);
  }

  const LstmIntegerParams& p_;
  RequantDsp forget_cell_, input_cell_, hidden_;
  int32_t tanh_round_;
};

}  // namespace mote
