// Reference float32 LSTM (TFLite UNIDIRECTIONAL_SEQUENCE_LSTM), TFLite Micro's float path.
// As the int8 kernel, it computes a step unit by unit (the four gates of unit n, then its
// cell and hidden value) and reads the previous hidden state from the previous output
// row; each gate's sums are accumulated in TFLite's order (input products, + bias, then
// + the recurrent products). Cost per step: 4 * H * (I + H) multiply-adds.
#include <math.h>

#include "lstm/lstm.h"
#include "lstm/lstm_common.h"

namespace mote {
namespace {

// TFLite's reference_ops::Logistic for float.
inline float logistic(float v) {
  if (v > 16.619047164916992188f) return 1.0f;
  if (v < -9.0f) return expf(v);
  return 1.0f / (1.0f + expf(-v));
}

inline float dot(const float* w, const float* v, int32_t n) {
  float total = 0.0f;
  for (int32_t k = 0; k < n; ++k) total += v[k] * w[k];
  return total;
}

}  // namespace

Status lstm_f32_check(const OpContext& ctx) {
  if (ctx.params_bytes() != sizeof(LstmF32Params)) return Status::kBadParams;
  const LstmF32Params& p = ctx.params<LstmF32Params>();
  LstmDims d{};
  MOTE_RETURN_IF_ERROR(lstm_check_layout(
      ctx, p.time_major, {DType::kFloat32, DType::kFloat32, DType::kFloat32, DType::kFloat32}, &d));
  if (!(p.cell_clip >= 0.0f)) return Status::kBadParams;
  return Status::kOk;
}

void lstm_f32_run(const OpContext& ctx) {
  const LstmF32Params& p = ctx.params<LstmF32Params>();
  const LstmDims d = lstm_dims(ctx, p.time_major);
  const int32_t inputs = d.inputs;
  const int32_t units = d.units;
  const float* x = static_cast<const float*>(ctx.input_data(0));
  const float* h0 = static_cast<const float*>(ctx.input_data(kLstmHiddenStateInput));
  float* y = static_cast<float*>(ctx.output_data(0));
  const float* wx[4];
  const float* wh[4];
  const float* bias[4];
  for (int32_t g = 0; g < 4; ++g) {
    wx[g] = static_cast<const float*>(ctx.input_data(1 + g));
    wh[g] = static_cast<const float*>(ctx.input_data(5 + g));
    bias[g] = static_cast<const float*>(ctx.input_data(12 + g));
  }
  const float clip = p.cell_clip;

  for (int32_t b = 0; b < d.batches; ++b) {
    float* cell = lstm_begin_cell<float>(ctx, b, units);
    for (int32_t t = 0; t < d.steps; ++t) {
      const int32_t row = d.row(b, t);
      const float* x_row = x + row * inputs;
      const float* h_row = t == 0 ? h0 + b * units : y + d.previous_row(row) * units;
      float* out = y + row * units;
      for (int32_t n = 0; n < units; ++n) {
        float pre[4];
        for (int32_t g = 0; g < 4; ++g) {
          const float fc_x = dot(wx[g] + n * inputs, x_row, inputs) + bias[g][n];
          pre[g] = fc_x + dot(wh[g] + n * units, h_row, units);
        }
        const float in_gate = logistic(pre[kLstmInputGate]);
        const float forget = logistic(pre[kLstmForgetGate]);
        const float cell_in = tanhf(pre[kLstmCellGate]);
        const float out_gate = logistic(pre[kLstmOutputGate]);
        const float kept = forget * cell[n];
        const float added = in_gate * cell_in;
        float c = kept + added;
        if (clip > 0.0f) c = c > clip ? clip : (c < -clip ? -clip : c);
        cell[n] = c;
        out[n] = tanhf(c) * out_gate;
      }
    }
    lstm_end_hidden<float>(ctx, d, b);
  }
}

const KernelEntry kLstmF32Entry = {lstm_f32_check, lstm_f32_run};

}  // namespace mote
