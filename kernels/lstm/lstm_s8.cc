// Reference int8 LSTM (TFLite UNIDIRECTIONAL_SEQUENCE_LSTM, 8x8->16), bit-exact with
// TFLite Micro's integer path. TFLite Micro runs each step gate by gate over whole rows
// through four int16 scratch rows and keeps the hidden and cell state in variable tensors;
// every operation after the two matrix products is elementwise, so this kernel computes
// the step unit by unit instead: the four gates of unit n, then its cell and hidden value.
// The previous hidden state is read from the previous output row (TFLite copies the
// hidden state there unchanged) and the batch row's cell state is kept in output 2 (the new
// cell state), so the scratch is the step's input and hidden rows widened to int16 with
// their zero points applied (each product
// (w + w_offset) * (v + v_offset) is TFLite's, with the adds hoisted out of the loops).
// Cost per step: 4 * H * (I + H) multiply-adds, no division.
#include "lstm/lstm.h"

#include "lstm/lstm_common.h"
#include "lstm/lstm_integer.h"

namespace mote {
namespace {

// acc[g] = sum_k (w[g][k] + w_offset[g]) * v[k] for the four gates of one unit, wrapping
// like TFLite's int32 sums; v already holds the activation plus its offset, so each term
// is TFLite's exactly. One pass over v serves all four gates.
inline void dot4_s8(const int8_t* const w[4], const int32_t w_offset[4], const int16_t* v,
                    int32_t n, int32_t acc[4]) {
  const int8_t* w0 = w[0];
  const int8_t* w1 = w[1];
  const int8_t* w2 = w[2];
  const int8_t* w3 = w[3];
  uint32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  if ((w_offset[0] | w_offset[1] | w_offset[2] | w_offset[3]) == 0) {
    // TFLite's weights are symmetric: the usual case.
    for (int32_t k = 0; k < n; ++k) {
      const int32_t vk = v[k];
      a0 += static_cast<uint32_t>(w0[k] * vk);
      a1 += static_cast<uint32_t>(w1[k] * vk);
      a2 += static_cast<uint32_t>(w2[k] * vk);
      a3 += static_cast<uint32_t>(w3[k] * vk);
    }
  } else {
    for (int32_t k = 0; k < n; ++k) {
      const int32_t vk = v[k];
      a0 += static_cast<uint32_t>((w0[k] + w_offset[0]) * vk);
      a1 += static_cast<uint32_t>((w1[k] + w_offset[1]) * vk);
      a2 += static_cast<uint32_t>((w2[k] + w_offset[2]) * vk);
      a3 += static_cast<uint32_t>((w3[k] + w_offset[3]) * vk);
    }
  }
  acc[0] = static_cast<int32_t>(a0);
  acc[1] = static_cast<int32_t>(a1);
  acc[2] = static_cast<int32_t>(a2);
  acc[3] = static_cast<int32_t>(a3);
}

// dst[k] = src[k] + offset (int8 plus an offset in [-127, 128] fits int16).
inline void add_offset(const int8_t* src, int32_t offset, int32_t n, int16_t* dst) {
  for (int32_t k = 0; k < n; ++k) dst[k] = static_cast<int16_t>(src[k] + offset);
}

}  // namespace

Status lstm_s8_check(const OpContext& ctx) {
  if (ctx.params_bytes() != sizeof(LstmIntegerParams)) return Status::kBadParams;
  const LstmIntegerParams& p = ctx.params<LstmIntegerParams>();
  LstmDims d{};
  MOTE_RETURN_IF_ERROR(lstm_check_layout(
      ctx, p.time_major, {DType::kInt8, DType::kInt8, DType::kInt32, DType::kInt16}, &d));
  if (!lstm_integer_params_valid<int8_t>(p, valid_shift)) return Status::kBadParams;
  if (!lstm_scratch_fits(ctx, lstm_s8_scratch_bytes(static_cast<uint32_t>(d.inputs),
                                                    static_cast<uint32_t>(d.units)),
                         alignof(int16_t))) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void lstm_s8_run(const OpContext& ctx) {
  const LstmIntegerParams& p = ctx.params<LstmIntegerParams>();
  const LstmDims d = lstm_dims(ctx, p.time_major);
  const int32_t inputs = d.inputs;
  const int32_t units = d.units;
  const int8_t* x = static_cast<const int8_t*>(ctx.input_data(0));
  const int8_t* h0 = static_cast<const int8_t*>(ctx.input_data(kLstmHiddenStateInput));
  int8_t* y = static_cast<int8_t*>(ctx.output_data(0));
  // Scratch: this step's x and h plus their offsets ([I], [H]).
  int16_t* x_shifted = reinterpret_cast<int16_t*>(ctx.scratch().data());
  int16_t* h_shifted = x_shifted + inputs;
  const int8_t* wx[4];
  const int8_t* wh[4];
  const int32_t* bias[4];
  for (int32_t g = 0; g < 4; ++g) {
    wx[g] = static_cast<const int8_t*>(ctx.input_data(1 + g));
    wh[g] = static_cast<const int8_t*>(ctx.input_data(5 + g));
    bias[g] = static_cast<const int32_t*>(ctx.input_data(12 + g));
  }
  const int32_t x_offset = -p.input_zero_point;
  const int32_t h_offset = -p.hidden_zero_point;
  int32_t wx_offset[4], wh_offset[4];
  for (int32_t g = 0; g < 4; ++g) {
    wx_offset[g] = -p.gate[g].input_weight_zero_point;
    wh_offset[g] = -p.gate[g].recurrent_weight_zero_point;
  }

  for (int32_t b = 0; b < d.batches; ++b) {
    int16_t* cell = lstm_begin_cell<int16_t>(ctx, b, units);
    for (int32_t t = 0; t < d.steps; ++t) {
      const int32_t row = d.row(b, t);
      add_offset(x + row * inputs, x_offset, inputs, x_shifted);
      add_offset(t == 0 ? h0 + b * units : y + d.previous_row(row) * units, h_offset, units, h_shifted);
      int8_t* out = y + row * units;
      for (int32_t n = 0; n < units; ++n) {
        const int8_t* wx_rows[4];
        const int8_t* wh_rows[4];
        for (int32_t g = 0; g < 4; ++g) {
          wx_rows[g] = wx[g] + n * inputs;
          wh_rows[g] = wh[g] + n * units;
        }
        int32_t acc_x[4], acc_h[4], pre[4];
        dot4_s8(wx_rows, wx_offset, x_shifted, inputs, acc_x);
        dot4_s8(wh_rows, wh_offset, h_shifted, units, acc_h);
        for (int32_t g = 0; g < 4; ++g) {
          const LstmGateParams& gp = p.gate[g];
          const int32_t fc_x = lstm_clamp16(multiply_by_quantized_multiplier(
              wrapping_add(acc_x[g], bias[g][n]), gp.input_multiplier, gp.input_shift));
          const int32_t fc_h = lstm_clamp16(multiply_by_quantized_multiplier(
              acc_h[g], gp.recurrent_multiplier, gp.recurrent_shift));
          pre[g] = lstm_gate_sum(fc_x, fc_h);
        }
        const int32_t hidden = lstm_integer_unit(p, pre, &cell[n]);
        out[n] = static_cast<int8_t>(clamp_i32(hidden, -128, 127));
      }
    }
    lstm_end_hidden<int8_t>(ctx, d, b);
  }
}

const KernelEntry kLstmS8Entry = {lstm_s8_check, lstm_s8_run};

}  // namespace mote
