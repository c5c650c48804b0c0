// What the float GRU (kernels/gru/) and the RNN here share besides recurrent.h: the
// tensors' check with every tensor float32, the dot product and a gate's sum.
#pragma once

#include <stdint.h>

#include "kernel_util.h"
#include "lstm/lstm_common.h"
#include "mote/kernel.h"
#include "rnn/recurrent.h"

namespace mote {

// Checks the tensors (recurrent.h) for G = `gates`, all float32.
inline Status recurrent_f32_check(const OpContext& ctx, uint32_t gates, uint32_t time_major) {
  return recurrent_check_layout(ctx, gates, time_major, {DType::kFloat32, DType::kFloat32, DType::kFloat32});
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

// recurrent_walk (recurrent.h) over float32 tensors.
template <typename Step>
inline void recurrent_f32_walk(const OpContext& ctx, const LstmDims& d, Step step) {
  recurrent_walk<float>(ctx, d, step);
}

}  // namespace mote
