// GRU over a sequence: ONNX's GRU operator (one direction, default activations sigmoid and
// tanh, no clip) in float32 (gru_f32) and in the integer forms gru_s8 (int8 activations)
// and gru_s16 (16x8: int16 activations), further down. The importer runs a reverse
// direction over the time-reversed sequence and a bidirectional GRU as two ops.
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

// ---------------------------------------------------------------------------------------
// Integer GRU, designed after TFLite's integer LSTM (lstm.h; TFLite has no GRU): int8
// matrix products requantized to int16 gate pre-activations in Q3.12 (scale 2^-12), the
// int16 LUT sigmoid and tanh of quant/sigmoid_lut_s16.h giving Q0.15 gates, and the hidden
// state in the activation type.
//
// gru_s8: inputs 0 x int8, 1 w int8 [3H, I], 2 r int8 [3H, H], 3 bias int32 [6H], 4 h0
// int8; outputs y and h int8 (shapes and order as gru_f32's). gru_s16 (16x8): x, h0, y and
// h int16 with zero point 0, w and r int8, bias int64.
// Quantization: x (x_scale, x_zp); h0, y and h one quantization (h_scale, h_zp); the rows
// of gate g (z, r, h) of w and r int8 symmetric with one scale per gate (wx_scale_g,
// wh_scale_g); bias Wb_g at x_scale * wx_scale_g and Rb_g at h_scale * wh_scale_g (the
// compiler may fold Rb_g into Wb_g and leave Rb_g 0 where the formulas allow: not the
// h gate's with linear_before_reset 1).
//
// Per batch row b and step t, with h the previous hidden state (h0 row b, then y's row of
// step t-1), xc = x - x_zp and hc = h - h_zp, for each gate g and unit n:
//   fc_x(g)[n] = clamp16(rq(Wb_g[n] + sum_k w_g[n,k] * xc[k], gate[g].input_*))
//   fc_h(g)[n] = clamp16(rq(Rb_g[n] + sum_k r_g[n,k] * hc[k], gate[g].recurrent_*))
//   z = sigmoid16(sat16(fc_x(z) + fc_h(z))),  rg = sigmoid16(sat16(fc_x(r) + fc_h(r)))
//   linear_before_reset 1: pre_h = sat16(fc_x(h) + mul15(rg, fc_h(h)))
//   linear_before_reset 0: rh[k] = mul15(rg[k], hc[k]) (r * h at h's scale, zero point 0)
//                          pre_h = sat16(fc_x(h) + clamp16(rq(Rb_h[n] + sum_k r_h[n,k] * rh[k],
//                                                              gate[h].recurrent_*)))
//   g = tanh16(pre_h)
//   h_new = sat(h_zp + mbqm((32768 - z) * g, hidden_*) + mul15(z, hc[n]))   -> y[b, t]
// where the sums wrap in int32 (gru_s8) or are int64 (gru_s16), rq is
// multiply_by_quantized_multiplier (gru_s8) or multiply_by_quantized_multiplier64
// (gru_s16), mul15(q, v) = (q * v + 2^14) >> 15, sat16 and sat clamp to int16 and to the
// activation type, and sigmoid16(v) = lut_sigmoid_scaled(3 v), tanh16(v) =
// lut_tanh_scaled(3 v): TFLite's int16 Logistic and Tanh of a Q3.12 input, Q0.15 out.
//
// Params: GruIntegerParams (no arrays). The compiler computes
//   gate[g].input_*     = fully_connected_multiplier(x_scale, wx_scale_g, 2^-12)
//   gate[g].recurrent_* = fully_connected_multiplier(h_scale, wh_scale_g, 2^-12)
//   hidden_*            = mul_multiplier(2^-15, 2^-15, h_scale)
// Scratch: gru_s8_scratch_bytes(I, H) or gru_s16_scratch_bytes(H) bytes, 2-aligned (the
// widened rows, gru_s8 only, and z, fc_x(h) and rh of a linear_before_reset 0 step).
// check(): the tensors as above, gate shifts in [-31, 30] (gru_s8) or [-31, 14] (gru_s16),
// hidden_shift in [-31, 30], zero points int8 (gru_s8) or 0 (gru_s16),
// linear_before_reset and time_major 0 or 1, the scratch.
// Cost per step: 3 * H * (I + H) multiply-adds, no division.
enum GruGate : uint32_t { kGruUpdateGate = 0, kGruResetGate = 1, kGruHiddenGate = 2 };

struct GruGateParams {
  int32_t input_multiplier, input_shift;          // x -> gate pre-activation
  int32_t recurrent_multiplier, recurrent_shift;  // h -> gate pre-activation
};

struct GruIntegerParams {
  GruGateParams gate[3];  // indexed by GruGate
  int32_t hidden_multiplier, hidden_shift;  // (32768 - z) * g -> h
  int32_t input_zero_point;
  int32_t hidden_zero_point;
  uint32_t linear_before_reset;  // 0 or 1
  uint32_t time_major;           // 0 or 1
};

inline uint64_t gru_s16_scratch_bytes(uint32_t units) { return uint64_t{units} * 3 * sizeof(int16_t); }
inline uint64_t gru_s8_scratch_bytes(uint32_t inputs, uint32_t units) {
  return (uint64_t{inputs} + units) * sizeof(int16_t) + gru_s16_scratch_bytes(units);
}

Status gru_s8_check(const OpContext& ctx);
void gru_s8_run(const OpContext& ctx);
extern const KernelEntry kGruS8Entry;

// Variants of gru_s8 (gru_integer.h's step with their own matrix-row products): the DSP
// extension (gru_s8__dsp.cc) and Helium (gru_s8__mve.cc). Same inputs, params, scratch,
// check and results as gru_s8.
Status gru_s8__dsp_check(const OpContext& ctx);
void gru_s8__dsp_run(const OpContext& ctx);
extern const KernelEntry kGruS8DspEntry;
Status gru_s8__mve_check(const OpContext& ctx);
void gru_s8__mve_run(const OpContext& ctx);
extern const KernelEntry kGruS8MveEntry;

Status gru_s16_check(const OpContext& ctx);
void gru_s16_run(const OpContext& ctx);
extern const KernelEntry kGruS16Entry;

// Multiply-accumulates of one op (the registry's macs column; host tools): output
// [T, B, H]; per step three gates of [H, I] + [H, H].
inline uint64_t gru_macs(const OpContext& ctx) {
  const TensorDesc& w = ctx.input_desc(1);  // [3H, I]
  const TensorDesc& y = ctx.output_desc(0);
  return uint64_t{element_count(y)} * 3 * (uint64_t{w.dims[1]} + y.dims[2]);
}

}  // namespace mote
