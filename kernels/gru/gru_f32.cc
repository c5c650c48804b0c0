// gru_f32: the float32 GRU of gru.h.
#include <math.h>

#include "gru/gru.h"
#include "rnn/recurrent_f32.h"

namespace mote {
namespace {

inline float sigmoid(float v) { return 1.0f / (1.0f + expf(-v)); }

}  // namespace

Status gru_f32_check(const OpContext& ctx) {
  if (ctx.params_bytes() != sizeof(GruF32Params)) return Status::kBadParams;
  const GruF32Params& p = ctx.params<GruF32Params>();
  if (p.linear_before_reset > 1) return Status::kBadParams;
  MOTE_RETURN_IF_ERROR(recurrent_f32_check(ctx, 3, p.time_major));
  const Span<uint8_t> scratch = ctx.scratch();
  if (scratch.size() < gru_f32_scratch_bytes(ctx.output_desc(0).dims[2]) ||
      reinterpret_cast<uintptr_t>(scratch.data()) % alignof(float) != 0) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void gru_f32_run(const OpContext& ctx) {
  const GruF32Params& p = ctx.params<GruF32Params>();
  const LstmDims d = lstm_dims(ctx, p.time_major);
  const int32_t inputs = d.inputs, units = d.units;
  const float* w = static_cast<const float*>(ctx.input_data(1));
  const float* r = static_cast<const float*>(ctx.input_data(2));
  const float* bias = static_cast<const float*>(ctx.input_data(3));
  float* reset = reinterpret_cast<float*>(ctx.scratch().data());  // r, or r * h
  // Gate g's rows of w and r start at row g * units; Wb at bias[g * units], Rb at
  // bias[(3 + g) * units].
  const float* wz = w;
  const float* wr = w + units * inputs;
  const float* wh = w + 2 * units * inputs;
  const float* rz = r;
  const float* rr = r + units * units;
  const float* rh = r + 2 * units * units;

  recurrent_f32_walk(ctx, d, [&](const float* x_row, const float* h, float* out) {
    for (int32_t n = 0; n < units; ++n) {
      const float gate = recurrent_gate(wr, bias + units, rr, bias + 4 * units, x_row, h, n, inputs, units);
      reset[n] = p.linear_before_reset ? sigmoid(gate) : sigmoid(gate) * h[n];
    }
    for (int32_t n = 0; n < units; ++n) {
      const float z = sigmoid(recurrent_gate(wz, bias, rz, bias + 3 * units, x_row, h, n, inputs, units));
      const float input_part = recurrent_dot(wh + n * inputs, x_row, inputs) + bias[2 * units + n];
      const float recurrent_part =
          p.linear_before_reset ? reset[n] * (recurrent_dot(rh + n * units, h, units) + bias[5 * units + n])
                                : recurrent_dot(rh + n * units, reset, units) + bias[5 * units + n];
      const float g = tanhf(input_part + recurrent_part);
      out[n] = (1.0f - z) * g + z * h[n];
    }
  });
}

const KernelEntry kGruF32Entry = {gru_f32_check, gru_f32_run};

}  // namespace mote
