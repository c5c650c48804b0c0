// LSTM over a sequence: TFLite's UNIDIRECTIONAL_SEQUENCE_LSTM in the three forms TFLite
// Micro runs (micro/kernels/unidirectional_sequence_lstm.cc + lstm_eval.{h,cc} at
// 90b983c2): lstm_s8 (8x8->16, below), lstm_s16 (16x8) and lstm_f32 (float32), further
// down. All take the same tensors (lstm_common.h): no peephole, no projection, no layer
// norm, no CIFG (TFLite Micro refuses them too), cell-gate activation tanh.
//
// lstm_s8: int8 activations and weights, int32 biases, int16 cell state, bit-exact with
// TFLite Micro's integer kernel.
//
//   inputs (TFLite's order; the absent ones are kNoTensor):
//     0  x                 int8  [B, T, I] (time_major: [T, B, I])
//     1..4  input->gate weights  int8 [H, I]   gates in the order input, forget, cell, output
//     5..8  hidden->gate weights int8 [H, H]   same order
//     9..11 peephole weights      absent
//     12..15 gate biases    int32 [H]          same order
//     16, 17 projection     absent
//     18 hidden state h0    int8  B * H elements (row b = batch b)
//     19 cell state   c0    int16 B * H elements
//     20..23 layer norm     absent
//   outputs: 0 y            int8  [B, T, H] (time_major: [T, B, H]): the hidden state after
//                                 each step (its bytes; TFLite copies them unchanged)
//            1 h            int8  B * H: the hidden state after the last step (y's last row
//                                 of each batch)
//            2 c            int16 B * H: the cell state after the last step
//
// The state. Inputs 18 and 19 are TFLite variable tensors, which TFLite Micro's reference
// kernel updates in place, so they carry over into the next Invoke() (its CMSIS-NN kernel
// keeps its own copy and starts every Invoke() from the reset values instead). Mote's
// importer makes them persistent arena tensors (filled with TFLite Micro's reset value,
// zeros or the int8 zero point, by the first run after load() or reset_state()); every LSTM kernel reads them
// and writes the final hidden and cell state to outputs 1 and 2, which copies write back
// into the variables after the op. So run n equals the reference kernel's n-th Invoke();
// calling reset_state() before every run gives the CMSIS-NN kernel's stateless behaviour.
// The kernels only read inputs 18 and 19, so they may also be ordinary tensors: an initial
// state per run (ONNX's LSTM).
//
// Per batch row b and step t, with h the previous hidden state (h0 row b, then y[b, t-1])
// and c the cell state (c0 row b, then updated in place in output 2's row b), for each gate
// g and unit n:
//   fc_x(g)[n] = clamp16(mbqm(sum_k (Wx_g[n,k] - wx_zp_g) * (x[k] - x_zp) + bias_g[n],
//                             gate[g].input_multiplier, gate[g].input_shift))
//   fc_h(g)[n] = clamp16(mbqm(sum_k (Wh_g[n,k] - wh_zp_g) * (h[k] - h_zp),
//                             gate[g].recurrent_multiplier, gate[g].recurrent_shift))
//   pre(g)[n]  = sat16(fc_x(g)[n] + fc_h(g)[n])                       (Q3.12)
//   i, f, o    = sigmoid16(pre),  z = tanh16(pre, 3, 0)                (Q0.15)
//   c          = sat16(mul16(f, c, forget_cell) + mul16(i, z, input_cell))
//   c          = clamp(c, -cell_clip, cell_clip)          when cell_clip_enabled
//   h_new      = clamp8(mul(tanh16(c, cell_tanh_multiplier, cell_tanh_shift), o,
//                           hidden) + h_zp)  -> y[b, t]
// where mbqm is multiply_by_quantized_multiplier (int32 sums wrap), mul16(a, b, m) =
// clamp16(mbqm(a * b, m.multiplier, m.shift)), and
//   sigmoid16:   TFLite reference_integer_ops::Logistic on int16 with input_multiplier 0,
//                input_left_shift 0 (x * 3, then the 256-entry sigmoid table
//                sigmoid(i / 24) in Q0.16 with 9 fractional index bits): lut_sigmoid_s16
//                (quant/sigmoid_lut_s16.h) with multiplier 3, shift 0;
//   tanh16(x, m, s): reference_integer_ops::Tanh on int16 with the input scaled as
//                (x * m + round) >> s, then the same table with 8 fractional index bits:
//                lut_tanh_s16.
// Batches are independent, so every layout runs batch by batch (the results equal
// TFLite's, which runs all batches of one step together when time_major).
//
// Params: LstmIntegerParams (no arrays). The compiler computes, as TFLite Micro's
// PrepareGateParametersInteger does (gate pre-activations at scale 2^-12, gate outputs at
// 2^-15):
//   gate[g].input_*     = fully_connected_multiplier(x_scale, Wx_g scale, 2^-12)
//   gate[g].recurrent_* = fully_connected_multiplier(h0_scale, Wh_g scale, 2^-12)
//   forget_cell = mul_multiplier(2^-15, c0_scale, c0_scale)
//   input_cell  = mul_multiplier(2^-15, 2^-15, c0_scale)
//   hidden      = mul_multiplier(2^-15, 2^-15, h0_scale), h_zp = h0's zero point
//   p = round(log2(c0_scale)) (float, TFLite CheckedLog2); s = 12 + p:
//     s >= 0: cell_tanh_multiplier = 3 << s, cell_tanh_shift = 0
//     s <  0: cell_tanh_multiplier = 3,      cell_tanh_shift = -s
//   cell_clip = int16(clamp(double(cell_clip) / double(c0_scale), -32768, 32767)) (toward 0),
//   cell_clip_enabled = the option cell_clip > 0.
// Scratch: lstm_s8_scratch_bytes(I, H) bytes, 2-aligned.
// check(): shapes and dtypes as above, zero points in int8, shifts in [-31, 30],
// cell_tanh_multiplier in [1, 12288] and cell_tanh_shift in [0, 31], cell_clip >= 0.
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

struct LstmGateParams {
  int32_t input_multiplier, input_shift;          // x -> gate
  int32_t recurrent_multiplier, recurrent_shift;  // h -> gate
  int32_t input_weight_zero_point;                // of weights 1 + g
  int32_t recurrent_weight_zero_point;            // of weights 5 + g
};

struct LstmMulParams {
  int32_t multiplier, shift;
};

// TFLite's input-tensor positions of each gate's weights and bias: gate g uses inputs
// 1 + g, 5 + g and 12 + g.
enum LstmGate : uint32_t { kLstmInputGate = 0, kLstmForgetGate = 1, kLstmCellGate = 2, kLstmOutputGate = 3 };

struct LstmIntegerParams {
  LstmGateParams gate[4];  // indexed by LstmGate
  LstmMulParams forget_cell, input_cell, hidden;
  int32_t input_zero_point;
  int32_t hidden_zero_point;
  int32_t cell_tanh_multiplier, cell_tanh_shift;
  int32_t cell_clip;          // quantized, >= 0
  uint32_t cell_clip_enabled; // 0 or 1
  uint32_t time_major;        // 0 or 1
};

// Scratch bytes the kernel needs for `inputs` = I and `units` = H: the current step's
// input and hidden rows as int16 (offsets applied).
inline uint64_t lstm_s8_scratch_bytes(uint32_t inputs, uint32_t units) {
  return (uint64_t{units} + inputs) * 2u;
}

Status lstm_s8_check(const OpContext& ctx);
void lstm_s8_run(const OpContext& ctx);
extern const KernelEntry kLstmS8Entry;

// True when no multiplier of p is INT32_MIN: the condition of lstm_s8's variants, whose
// faster requantizations are exact for every other multiplier (the compiler's are all
// in [2^30, 2^31)).
inline bool lstm_multipliers_above_min(const LstmIntegerParams& p) {
  for (const LstmGateParams& g : p.gate) {
    if (g.input_multiplier == INT32_MIN || g.recurrent_multiplier == INT32_MIN) return false;
  }
  return p.forget_cell.multiplier != INT32_MIN && p.input_cell.multiplier != INT32_MIN &&
         p.hidden.multiplier != INT32_MIN;
}

// Variants of lstm_s8 (bit-exact with it), for lstm_s8's contexts whose multipliers pass
// lstm_multipliers_above_min.
// lstm_s8__dsp (Armv7E-M DSP): scratch lstm_s8__dsp_scratch_bytes(I, H) bytes, 4-aligned
// (two steps' input rows and the hidden row widened to int16 pairs, and the input half of
// the gates of two steps; at least lstm_s8's).
uint32_t lstm_s8__dsp_scratch_bytes(uint32_t inputs, uint32_t units);
Status lstm_s8__dsp_check(const OpContext& ctx);
void lstm_s8__dsp_run(const OpContext& ctx);
extern const KernelEntry kLstmS8DspEntry;
// lstm_s8__mve (Helium): scratch lstm_s8__mve_scratch_bytes(I, H) bytes, 4-aligned (the
// step-independent terms of each gate row, formed once per run; at least lstm_s8's).
uint32_t lstm_s8__mve_scratch_bytes(uint32_t inputs, uint32_t units);
Status lstm_s8__mve_check(const OpContext& ctx);
void lstm_s8__mve_run(const OpContext& ctx);
extern const KernelEntry kLstmS8MveEntry;

// ---------------------------------------------------------------------------------------
// 16x8 LSTM: TFLite Micro's int16-activation path (int16 x, h0 and y, int8 weights, int64
// biases, int16 cell state; outputs 1 and 2 and the state as lstm_s8), the same arithmetic
// and parameters (LstmIntegerParams, derived
// from the tensors' scales as for lstm_s8) except that
//   fc_x(g)[n] = clamp16(mbqm64(sum_k (Wx_g[n,k] - wx_zp_g) * (x[k] - x_zp) + bias_g[n],
//                               gate[g].input_multiplier, gate[g].input_shift))
//   fc_h(g)[n] = clamp16(mbqm64(sum_k (Wh_g[n,k] - wh_zp_g) * (h[k] - h_zp), ...recurrent))
// sum in int64 (each product in int32) and mbqm64 is TFLite's 64-bit
// MultiplyByQuantizedMultiplier (multiply_by_quantized_multiplier64), and
//   h_new      = clamp16(mul(tanh16(c, ...), o, hidden) + h_zp).
// Scratch: none (the cell state of a batch row is kept in output 2's row).
// check(): the layout, input and hidden zero points in int16, gate shifts in [-31, 14],
// the rest as lstm_s8.
Status lstm_s16_check(const OpContext& ctx);
void lstm_s16_run(const OpContext& ctx);
extern const KernelEntry kLstmS16Entry;

// ---------------------------------------------------------------------------------------
// float32 LSTM: TFLite Micro's float path (lstm_eval.h with float tensors), the same inputs
// (lstm_common.h) and outputs all float32, the state as lstm_s8's, with the same
// restrictions (no peephole, projection, layer norm or CIFG). Per batch row b and step t, with h the previous hidden state (h0 row b,
// then y[b, t-1]) and c the cell state (c0 row b, then updated in output 2's row b):
//   pre(g)[n] = (sum_k Wx_g[n,k] * x[k] + bias_g[n]) + sum_k Wh_g[n,k] * h[k]
//   i, f, o   = sigmoid(pre)  (TFLite's reference Logistic: 1 above 16.619047, e^x below
//                              -9, else 1 / (1 + e^-x))
//   z         = tanh(pre(cell))
//   c         = f * c + i * z, then clamped to [-cell_clip, cell_clip] when cell_clip > 0
//   y[b, t]   = tanh(c) * o
// Scratch: none.
// check(): the layout, cell_clip >= 0 (not NaN), time_major 0 or 1.
struct LstmF32Params {
  float cell_clip;      // 0: no clipping
  uint32_t time_major;  // 0 or 1
};

Status lstm_f32_check(const OpContext& ctx);
void lstm_f32_run(const OpContext& ctx);
extern const KernelEntry kLstmF32Entry;

// Multiply-accumulates of one op (the registry's macs column; host tools): output
// [B, T, U]; per step four gates of [U, I] + [U, U].
inline uint64_t lstm_macs(const OpContext& ctx) {
  const TensorDesc& w = ctx.input_desc(2);  // input-to-forget weights [U, I]
  return uint64_t{element_count(ctx.output_desc(0))} * 4 * (uint64_t{w.dims[1]} + w.dims[0]);
}

}  // namespace mote
