// Simple (Elman) RNN over a sequence: ONNX's RNN operator (one direction, activation tanh
// or relu, no clip) in float32 (rnn_f32) and in the integer forms rnn_s8 (int8
// activations) and rnn_s16 (16x8: int16 activations), further down. The importer runs a
// reverse direction over the time-reversed sequence and a bidirectional RNN as two ops.
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

// ---------------------------------------------------------------------------------------
// Integer RNN, designed as the integer GRU (gru.h): int8 matrix products, for tanh
// requantized to an int16 pre-activation in Q3.12 and squashed by the int16 LUT tanh of
// quant/sigmoid_lut_s16.h, for relu requantized straight to the hidden state's scale.
//
// rnn_s8: inputs 0 x int8, 1 w int8 [H, I], 2 r int8 [H, H], 3 bias int32 [2H], 4 h0 int8;
// outputs y and h int8 (shapes and order as rnn_f32's). rnn_s16 (16x8): x, h0, y and h
// int16 with zero point 0, w and r int8, bias int64.
// Quantization: x (x_scale, x_zp); h0, y and h one quantization (h_scale, h_zp); w and r
// int8 symmetric per tensor (wx_scale, wh_scale); bias Wb at x_scale * wx_scale, Rb at
// h_scale * wh_scale (the compiler may fold Rb into Wb and leave Rb 0).
//
// Per batch row b and step t, with h the previous hidden state (h0 row b, then y's row of
// step t-1), xc = x - x_zp and hc = h - h_zp, for each unit n:
//   fc_x[n] = rq(Wb[n] + sum_k w[n,k] * xc[k], input_*)
//   fc_h[n] = rq(Rb[n] + sum_k r[n,k] * hc[k], recurrent_*)
//   tanh: h_new = sat(h_zp + mbqm(tanh16(sat16(clamp16(fc_x) + clamp16(fc_h))), output_*))
//   relu: h_new = sat(max(h_zp + fc_x + fc_h, h_zp))  (int32, wrapping)
// -> y[b, t], where the sums, rq, sat, sat16 and tanh16 are the integer GRU's (gru.h).
//
// Params: RnnIntegerParams (no arrays). The compiler computes, with pre = 2^-12 (tanh) or
// h_scale (relu):
//   input_*     = fully_connected_multiplier(x_scale, wx_scale, pre)
//   recurrent_* = fully_connected_multiplier(h_scale, wh_scale, pre)
//   output_*    = requantize_multiplier(2^-15, h_scale)   (tanh; 0, 0 for relu)
// Scratch: rnn_s8_scratch_bytes(I, H) bytes, 2-aligned (the widened rows), none for
// rnn_s16.
// check(): the tensors as above, input and recurrent shifts in [-31, 30] (rnn_s8) or
// [-31, 14] (rnn_s16), output_shift in [-31, 30], zero points int8 (rnn_s8) or 0
// (rnn_s16), activation and time_major 0 or 1, the scratch.
// Cost per step: H * (I + H) multiply-adds.
struct RnnIntegerParams {
  int32_t input_multiplier, input_shift;          // x -> pre-activation
  int32_t recurrent_multiplier, recurrent_shift;  // h -> pre-activation
  int32_t output_multiplier, output_shift;        // tanh (Q0.15) -> h
  int32_t input_zero_point;
  int32_t hidden_zero_point;
  uint32_t activation;  // RnnActivation
  uint32_t time_major;  // 0 or 1
};

inline uint64_t rnn_s8_scratch_bytes(uint32_t inputs, uint32_t units) {
  return (uint64_t{inputs} + units) * sizeof(int16_t);
}

Status rnn_s8_check(const OpContext& ctx);
void rnn_s8_run(const OpContext& ctx);
extern const KernelEntry kRnnS8Entry;

Status rnn_s16_check(const OpContext& ctx);
void rnn_s16_run(const OpContext& ctx);
extern const KernelEntry kRnnS16Entry;

// Multiply-accumulates of one op (the registry's macs column; host tools): output
// [T, B, H]; per step [H, I] + [H, H].
inline uint64_t rnn_macs(const OpContext& ctx) {
  const TensorDesc& w = ctx.input_desc(1);  // [H, I]
  const TensorDesc& y = ctx.output_desc(0);
  return uint64_t{element_count(y)} * (uint64_t{w.dims[1]} + y.dims[2]);
}

}  // namespace mote
