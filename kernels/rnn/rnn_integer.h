// The integer RNN of rnn.h, shared by rnn_s8 (Act int8, int32 sums) and rnn_s16 (Act
// int16, int64 sums): the kernels differ only in the activation type, the sums' width and
// their requantization (recurrent_integer.h's overloads). A step runs unit by unit.
#pragma once

#include <stdint.h>

#include "kernel_util.h"
#include "quant/sigmoid_lut_s16.h"
#include "rnn/recurrent_integer.h"
#include "rnn/rnn.h"

namespace mote {

// The checks both kernels make; `activation` int8 or int16, `bias` int32 or int64.
inline Status rnn_integer_check(const OpContext& ctx, DType activation, DType bias) {
  if (ctx.params_bytes() != sizeof(RnnIntegerParams)) return Status::kBadParams;
  const RnnIntegerParams& p = ctx.params<RnnIntegerParams>();
  if (p.activation > kRnnRelu) return Status::kBadParams;
  MOTE_RETURN_IF_ERROR(recurrent_check_layout(ctx, 1, p.time_major, {activation, DType::kInt8, bias}));
  if (!recurrent_shift_ok(p.input_shift, bias) || !recurrent_shift_ok(p.recurrent_shift, bias) ||
      !valid_shift(p.output_shift) || !recurrent_zero_point_ok(p.input_zero_point, activation) ||
      !recurrent_zero_point_ok(p.hidden_zero_point, activation)) {
    return Status::kBadParams;
  }
  // rnn_s16 needs no scratch; rnn_s8 widens its rows into it.
  const bool fits = activation == DType::kInt16 ||
                    lstm_scratch_fits(ctx, rnn_s8_scratch_bytes(ctx.input_desc(0).dims[2], ctx.output_desc(0).dims[2]),
                                      alignof(int16_t));
  return fits ? Status::kOk : Status::kBadParams;
}

template <typename Act, typename Acc>
inline void rnn_integer_run(const OpContext& ctx) {
  const RnnIntegerParams& p = ctx.params<RnnIntegerParams>();
  const LstmDims d = lstm_dims(ctx, p.time_major);
  const int32_t inputs = d.inputs, units = d.units;
  const int8_t* w = static_cast<const int8_t*>(ctx.input_data(1));
  const int8_t* r = static_cast<const int8_t*>(ctx.input_data(2));
  const Acc* bias = static_cast<const Acc*>(ctx.input_data(3));
  int16_t* centered = reinterpret_cast<int16_t*>(ctx.scratch().data());
  recurrent_integer_walk<Act>(ctx, d, p.input_zero_point, p.hidden_zero_point, centered,
                              [&](const int16_t* xc, const int16_t* hc, Act* out) {
    for (int32_t n = 0; n < units; ++n) {
      const int32_t fc_x = recurrent_requantize(recurrent_dot(w + n * inputs, xc, inputs, bias[n]),
                                                p.input_multiplier, p.input_shift);
      const int32_t fc_h = recurrent_requantize(recurrent_dot(r + n * units, hc, units, bias[units + n]),
                                                p.recurrent_multiplier, p.recurrent_shift);
      int32_t v;
      if (p.activation == kRnnRelu) {
        v = wrapping_add(p.hidden_zero_point, wrapping_add(fc_x, fc_h));
        if (v < p.hidden_zero_point) v = p.hidden_zero_point;
      } else {
        const int32_t pre = recurrent_clamp16(recurrent_clamp16(fc_x) + recurrent_clamp16(fc_h));
        v = wrapping_add(p.hidden_zero_point,
                         multiply_by_quantized_multiplier(lut_tanh_scaled(3 * pre), p.output_multiplier, p.output_shift));
      }
      out[n] = recurrent_saturate<Act>(v);
    }
  });
}

}  // namespace mote
