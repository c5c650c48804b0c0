// rnn_f32: the float32 RNN of rnn.h.
#include <math.h>

#include "rnn/recurrent_f32.h"
#include "rnn/rnn.h"

namespace mote {

Status rnn_f32_check(const OpContext& ctx) {
  if (ctx.params_bytes() != sizeof(RnnF32Params)) return Status::kBadParams;
  const RnnF32Params& p = ctx.params<RnnF32Params>();
  if (p.activation > kRnnRelu) return Status::kBadParams;
  return recurrent_f32_check(ctx, 1, p.time_major);
}

void rnn_f32_run(const OpContext& ctx) {
  const RnnF32Params& p = ctx.params<RnnF32Params>();
  const LstmDims d = lstm_dims(ctx, p.time_major);
  const float* w = static_cast<const float*>(ctx.input_data(1));
  const float* r = static_cast<const float*>(ctx.input_data(2));
  const float* bias = static_cast<const float*>(ctx.input_data(3));
  const int32_t inputs = d.inputs, units = d.units;
  recurrent_f32_walk(ctx, d, [&](const float* x_row, const float* h, float* out) {
    for (int32_t n = 0; n < units; ++n) {
      const float v = recurrent_gate(w, bias, r, bias + units, x_row, h, n, inputs, units);
      out[n] = p.activation == kRnnRelu ? (v > 0.0f ? v : 0.0f) : tanhf(v);
    }
  });
}

const KernelEntry kRnnF32Entry = {rnn_f32_check, rnn_f32_run};

}  // namespace mote
