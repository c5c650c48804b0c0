// What the float GRU (kernels/gru/) and the RNN here share: the tensors' check (x
// [T, B, I] or [B, T, I], w [G*H, I], r [G*H, H], bias [2*G*H], h0 and the final hidden
// state B * H elements, all float32; y x's layout with H), the dot product and the
// final-state copy. The rows of x and y are numbered as the LSTM's (LstmDims,
// lstm_dims(): the same layouts).
#pragma once

#include <stdint.h>

#include "kernel_util.h"
#include "lstm/lstm_common.h"
#include "mote/kernel.h"

namespace mote {

// Checks the inputs (x, w, r, bias, h0) and outputs (y, h) for G = `gates`.
inline Status recurrent_f32_check(const OpContext& ctx, uint32_t gates, uint32_t time_major) {
  if (ctx.input_count() != 5 || ctx.output_count() != 2 || time_major > 1) return Status::kBadParams;
  for (uint32_t i = 0; i < 5; ++i)
    if (!ctx.has_input(i)) return Status::kBadParams;
  const TensorDesc& x = ctx.input_desc(0);
  const TensorDesc& w = ctx.input_desc(1);
  const TensorDesc& r = ctx.input_desc(2);
  const TensorDesc& bias = ctx.input_desc(3);
  const TensorDesc& h0 = ctx.input_desc(4);
  const TensorDesc& y = ctx.output_desc(0);
  const TensorDesc& h = ctx.output_desc(1);
  const TensorDesc* const all[] = {&x, &w, &r, &bias, &h0, &y, &h};
  for (const TensorDesc* t : all)
    if (!has_dtype(*t, DType::kFloat32) || !index_math_fits(*t)) return Status::kBadParams;
  if (x.rank != 3 || y.rank != 3 || w.rank != 2 || r.rank != 2 || bias.rank != 1) return Status::kBadParams;
  const uint32_t units = y.dims[2], inputs = x.dims[2];
  if (units == 0 || inputs == 0 || y.dims[0] != x.dims[0] || y.dims[1] != x.dims[1]) return Status::kBadParams;
  const uint64_t rows = uint64_t{gates} * units;
  if (w.dims[0] != rows || w.dims[1] != inputs || r.dims[0] != rows || r.dims[1] != units || bias.dims[0] != 2 * rows) {
    return Status::kBadParams;
  }
  const uint64_t state = uint64_t{time_major ? x.dims[1] : x.dims[0]} * units;
  if (element_count(h0) != state || element_count(h) != state) return Status::kBadParams;
  return Status::kOk;
}

inline float recurrent_dot(const float* w, const float* v, int32_t n) {
  float total = 0.0f;
  for (int32_t k = 0; k < n; ++k) total += w[k] * v[k];
  return total;
}

// A gate's pre-activation for unit n: W row n . x + Wb[n] + R row n . h + Rb[n], summed in
// that order (w, r: the gate's rows; wb, rb: its biases).
inline float recurrent_gate(const float* w, const float* wb, const float* r, const float* rb, const float* x,
                            const float* h, int32_t n, int32_t inputs, int32_t units) {
  return recurrent_dot(w + n * inputs, x, inputs) + wb[n] + recurrent_dot(r + n * units, h, units) + rb[n];
}

// Output 1's row b: y's row of the last step (h0's row when there are no steps).
inline void recurrent_f32_last_hidden(const OpContext& ctx, const LstmDims& d, int32_t b) {
  const float* y = static_cast<const float*>(ctx.output_data(0));
  const float* h0 = static_cast<const float*>(ctx.input_data(4));
  const float* last = d.steps > 0 ? y + d.row(b, d.steps - 1) * d.units : h0 + b * d.units;
  float* h = static_cast<float*>(ctx.output_data(1)) + b * d.units;
  for (int32_t n = 0; n < d.units; ++n) h[n] = last[n];
}

// The sequence walk both kernels make: step(x_row, h, out) for every batch row b and step
// t in order, h the previous hidden state (h0's row b at t = 0, else y's previous row) and
// out y's row; then output 1's row b.
template <typename Step>
inline void recurrent_f32_walk(const OpContext& ctx, const LstmDims& d, Step step) {
  const float* x = static_cast<const float*>(ctx.input_data(0));
  const float* h0 = static_cast<const float*>(ctx.input_data(4));
  float* y = static_cast<float*>(ctx.output_data(0));
  for (int32_t b = 0; b < d.batches; ++b) {
    for (int32_t t = 0; t < d.steps; ++t) {
      const int32_t row = d.row(b, t);
      const float* h = t == 0 ? h0 + b * d.units : y + d.previous_row(row) * d.units;
      step(x + row * d.inputs, h, y + row * d.units);
    }
    recurrent_f32_last_hidden(ctx, d, b);
  }
}

}  // namespace mote
