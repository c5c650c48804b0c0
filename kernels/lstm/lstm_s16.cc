// Reference 16x8 LSTM (TFLite UNIDIRECTIONAL_SEQUENCE_LSTM with int16 activations, int8
// weights and int64 biases), bit-exact with TFLite Micro's integer path. As lstm_s8, it
// computes a step unit by unit and reads the previous hidden state from the previous
// output row; the gate sums are int64 as TFLite's (each product
// (w + w_offset) * (v + v_offset) in int32), the element-wise part is lstm_s8's
// (lstm_integer.h). Cost per step: 4 * H * (I + H) multiply-adds.
#include "lstm/lstm.h"

#include "lstm/lstm_common.h"
#include "lstm/lstm_integer.h"

namespace mote {
namespace {

inline int64_t dot_s16(const int8_t* w, int32_t w_offset, const int16_t* v, int32_t v_offset, int32_t n) {
  int64_t acc = 0;
  for (int32_t k = 0; k < n; ++k) acc += (w[k] + w_offset) * (v[k] + v_offset);
  return acc;
}

}  // namespace

Status lstm_s16_check(const OpContext& ctx) {
  if (ctx.params_bytes() != sizeof(LstmIntegerParams)) return Status::kBadParams;
  const LstmIntegerParams& p = ctx.params<LstmIntegerParams>();
  LstmDims d{};
  MOTE_RETURN_IF_ERROR(lstm_check_layout(
      ctx, p.time_major, {DType::kInt16, DType::kInt8, DType::kInt64, DType::kInt16}, &d));
  if (!lstm_integer_params_valid<int16_t>(p, valid_shift64)) return Status::kBadParams;
  return Status::kOk;
}

void lstm_s16_run(const OpContext& ctx) {
  const LstmIntegerParams& p = ctx.params<LstmIntegerParams>();
  const LstmDims d = lstm_dims(ctx, p.time_major);
  const int32_t inputs = d.inputs;
  const int32_t units = d.units;
  const int16_t* x = static_cast<const int16_t*>(ctx.input_data(0));
  const int16_t* h0 = static_cast<const int16_t*>(ctx.input_data(kLstmHiddenStateInput));
  int16_t* y = static_cast<int16_t*>(ctx.output_data(0));
  const int8_t* wx[4];
  const int8_t* wh[4];
  const int64_t* bias[4];
  for (int32_t g = 0; g < 4; ++g) {
    wx[g] = static_cast<const int8_t*>(ctx.input_data(1 + g));
    wh[g] = static_cast<const int8_t*>(ctx.input_data(5 + g));
    bias[g] = static_cast<const int64_t*>(ctx.input_data(12 + g));
  }
  const int32_t x_offset = -p.input_zero_point;
  const int32_t h_offset = -p.hidden_zero_point;

  for (int32_t b = 0; b < d.batches; ++b) {
    int16_t* cell = lstm_begin_cell<int16_t>(ctx, b, units);
    for (int32_t t = 0; t < d.steps; ++t) {
      const int32_t row = d.row(b, t);
      const int16_t* x_row = x + row * inputs;
      const int16_t* h_row = t == 0 ? h0 + b * units : y + d.previous_row(row) * units;
      int16_t* out = y + row * units;
      for (int32_t n = 0; n < units; ++n) {
        int32_t pre[4];
        for (int32_t g = 0; g < 4; ++g) {
          const LstmGateParams& gp = p.gate[g];
          const int64_t acc_x = wrapping_add64(
              dot_s16(wx[g] + n * inputs, -gp.input_weight_zero_point, x_row, x_offset, inputs), bias[g][n]);
          const int64_t acc_h = dot_s16(wh[g] + n * units, -gp.recurrent_weight_zero_point, h_row, h_offset, units);
          const int32_t fc_x =
              lstm_clamp16(multiply_by_quantized_multiplier64(acc_x, gp.input_multiplier, gp.input_shift));
          const int32_t fc_h =
              lstm_clamp16(multiply_by_quantized_multiplier64(acc_h, gp.recurrent_multiplier, gp.recurrent_shift));
          pre[g] = lstm_gate_sum(fc_x, fc_h);
        }
        const int32_t hidden = lstm_integer_unit(p, pre, &cell[n]);
        out[n] = static_cast<int16_t>(lstm_clamp16(hidden));
      }
    }
    lstm_end_hidden<int16_t>(ctx, d, b);
  }
}

const KernelEntry kLstmS16Entry = {lstm_s16_check, lstm_s16_run};

}  // namespace mote
