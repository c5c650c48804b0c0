// GRU over a sequence: ONNX's GRU operator (one direction, default activations sigmoid and
// tanh, no clip), float32 (gru_f32). The importer runs a reverse direction over the
// time-reversed sequence and a bidirectional GRU as two ops.
//
//   inputs: 0 x    float32 [T, B, I] (time_major 1) or [B, T, I] (time_major 0)
//           1 w    float32 [3H, I]   input weights, gates in ONNX's order z, r, h
//           2 r    float32 [3H, H]   recurrent weights, same order
//           3 bias float32 [6H]      Wb (z, r, h), then Rb (z, r, h)
//           4 h0   float32 B * H elements: the initial hidden state (row b = batch b)
//   outputs: 0 y   float32 [T, B, H] ([B, T, H] when not time major): the hidden state
//                  after each step
//            1 h   float32 B * H: the hidden state after the last step
//
// Per batch row b and step t, with h the previous hidden state (h0 row b, then y's row of
// step t-1), for each unit n (ONNX's equations; the sums in float, in index order):
//   z[n]  = sigmoid(Wz[n].x + Wbz[n] + Rz[n].h + Rbz[n])
//   r[n]  = sigmoid(Wr[n].x + Wbr[n] + Rr[n].h + Rbr[n])
//   linear_before_reset 0: g[n] = tanh(Wh[n].x + Wbh[n] + Rh[n].(r * h) + Rbh[n])
//   linear_before_reset 1: g[n] = tanh(Wh[n].x + Wbh[n] + r[n] * (Rh[n].h + Rbh[n]))
//   h_new[n] = (1 - z[n]) * g[n] + z[n] * h[n]   -> y[b, t]
// sigmoid(v) = 1 / (1 + e^-v).
// Scratch: gru_f32_scratch_bytes(H) bytes, 4-aligned (r, or r * h, for the step).
// check() (rnn/recurrent_f32.h for the tensors): the shapes and dtypes above,
// linear_before_reset and time_major 0 or 1, the
// scratch.
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

struct GruF32Params {
  uint32_t linear_before_reset;  // 0 or 1
  uint32_t time_major;           // 0 or 1
};

inline uint64_t gru_f32_scratch_bytes(uint32_t units) { return uint64_t{units} * sizeof(float); }

Status gru_f32_check(const OpContext& ctx);
void gru_f32_run(const OpContext& ctx);
extern const KernelEntry kGruF32Entry;

// Multiply-accumulates of one op (the registry's macs column; host tools): output
// [T, B, H]; per step three gates of [H, I] + [H, H].
inline uint64_t gru_macs(const OpContext& ctx) {
  const TensorDesc& w = ctx.input_desc(1);  // [3H, I]
  const TensorDesc& y = ctx.output_desc(0);
  return uint64_t{element_count(y)} * 3 * (uint64_t{w.dims[1]} + y.dims[2]);
}

}  // namespace mote
