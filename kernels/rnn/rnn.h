// Simple (Elman) RNN over a sequence: ONNX's RNN operator (one direction, activation tanh
// or relu, no clip), float32 (rnn_f32). The importer runs a reverse direction over the
// time-reversed sequence and a bidirectional RNN as two ops.
//
//   inputs: 0 x    float32 [T, B, I] (time_major 1) or [B, T, I] (time_major 0)
//           1 w    float32 [H, I]   input weights
//           2 r    float32 [H, H]   recurrent weights
//           3 bias float32 [2H]     Wb, then Rb
//           4 h0   float32 B * H elements: the initial hidden state (row b = batch b)
//   outputs: 0 y   float32 [T, B, H] ([B, T, H] when not time major): the hidden state
//                  after each step
//            1 h   float32 B * H: the hidden state after the last step
//
// Per batch row b and step t, with h the previous hidden state (h0 row b, then y's row of
// step t-1), for each unit n (the sums in float, in index order):
//   h_new[n] = f(W[n].x + Wb[n] + R[n].h + Rb[n])   -> y[b, t]
// f = tanh (activation 0) or max(v, 0) (activation 1). Scratch: none.
// check() (rnn/recurrent_f32.h for the tensors): the shapes and dtypes above, activation
// and time_major 0 or 1.
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

enum RnnActivation : uint32_t { kRnnTanh = 0, kRnnRelu = 1 };

struct RnnF32Params {
  uint32_t activation;  // RnnActivation
  uint32_t time_major;  // 0 or 1
};

Status rnn_f32_check(const OpContext& ctx);
void rnn_f32_run(const OpContext& ctx);
extern const KernelEntry kRnnF32Entry;

// Multiply-accumulates of one op (the registry's macs column; host tools): output
// [T, B, H]; per step [H, I] + [H, H].
inline uint64_t rnn_macs(const OpContext& ctx) {
  const TensorDesc& w = ctx.input_desc(1);  // [H, I]
  const TensorDesc& y = ctx.output_desc(0);
  return uint64_t{element_count(y)} * (uint64_t{w.dims[1]} + y.dims[2]);
}

}  // namespace mote
