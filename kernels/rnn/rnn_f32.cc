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
  const float* x = static_cast<const float*>(ctx.input_data(0));
  const float* w = static_cast<const float*>(ctx.input_data(1));
  const float* r = static_cast<const float*>(ctx.input_data(2));
  const float* bias = static_cast<const float*>(ctx.input_data(3));
  const float* h0 = static_cast<const float*>(ctx.input_data(4));
  float* y = static_cast<float*>(ctx.output_data(0));
  const int32_t inputs = d.inputs, units = d.units;

  for (int32_t b = 0; b < d.batches; ++b) {
    for (int32_t t = 0; t < d.steps; ++t) {
      const int32_t row = d.row(b, t);
      const float* x_row = x + row * inputs;
      const float* h = t == 0 ? h0 + b * units : y + d.previous_row(row) * units;
      float* out = y + row * units;
      for (int32_t n = 0; n < units; ++n) {
        const float v = recurrent_dot(w + n * inputs, x_row, inputs) + bias[n] +
                        recurrent_dot(r + n * units, h, units) + bias[units + n];
        out[n] = p.activation == kRnnRelu ? (v > 0.0f ? v : 0.0f) : tanhf(v);
      }
    }
    recurrent_f32_last_hidden(ctx, d, b);
  }
}

const KernelEntry kRnnF32Entry = {rnn_f32_check, rnn_f32_run};

}  // namespace mote
