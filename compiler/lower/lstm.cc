// Lowering of lstm (TFLite UNIDIRECTIONAL_SEQUENCE_LSTM) to the kernels of
// kernels/lstm/lstm.h, the forms TFLite Micro runs: float32 (lstm_f32) and the integer
// 8x8->16 (lstm_s8) and 16x8 (lstm_s16) ones. Every form takes the same tensors
// (check_lstm); the dtype then picks the kernel and its parameters.
#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>

#include "lower/node_lowering.h"
#include "lower/quantization.h"
// Kernel parameter structs.
#include "lstm/lstm.h"

namespace mote::lower {
namespace {

// What lstm's check establishes: the shapes (input [B,T,I], or [T,B,I] when time_major;
// hidden and cell state B x units elements).
struct LstmCheck {
  bool time_major = false;
  int64_t batches = 0, steps = 0, inputs = 0, units = 0;
};

// The tensors and attributes every TFLite Micro LSTM takes (its ValidateTensorStatus and
// ValidateTensorSize): no peephole, projection, layer norm or CIFG; input [B,T,I] (or
// [T,B,I] when time_major), output [B,T,H], hidden and cell state of B x H elements;
// outputs 1 and 2 are the hidden and cell state after the sequence. The state inputs are
// either TFLite variables (persistent: the TFLite importer copies outputs 1 and 2 back
// into them) or ordinary tensors, an initial state per run (ONNX's initial_h and
// initial_c); the kernels only read them.
LstmCheck check_lstm(const NodeLowering& l) {
  const ir::Node& node = l.node();
  if (node.inputs.size() != 24) {
    l.fail("has " + std::to_string(node.inputs.size()) + " inputs, expected TFLite's 24");
  }
  if (node.outputs.size() != 3) l.fail("expected three outputs (y, the new hidden and cell state)");
  struct Variant { int first, last; const char* what; };
  static const Variant kUnsupported[] = {
      {9, 11, "peephole connections (inputs 9..11, cell-to-gate weights)"},
      {16, 17, "a projection layer (inputs 16..17)"},
      {20, 23, "layer normalization (inputs 20..23)"},
  };
  for (const Variant& v : kUnsupported)
    for (int i = v.first; i <= v.last; ++i)
      if (l.has_input(i)) l.fail(std::string("uses ") + v.what + ", which TFLite Micro's LSTM does not support");
  for (int i : {1, 5, 12})
    if (!l.has_input(i)) l.fail("input " + std::to_string(i) + " is missing: coupled input and forget gates (CIFG) are not supported by TFLite Micro's LSTM");
  for (int i : {0, 2, 3, 4, 6, 7, 8, 13, 14, 15, 18, 19})
    if (!l.has_input(i)) l.fail("input " + std::to_string(i) + " is missing");

  const ir::Tensor& x = l.input(0);
  const ir::Tensor& y = l.output(0);
  const ir::Tensor& h0 = l.input(18);
  const ir::Tensor& c0 = l.input(19);
  l.expect_rank(x, "input", 3);
  l.expect_rank(y, "output", 3);
  LstmCheck c;
  c.time_major = node.get_int("time_major", 0) != 0;
  c.batches = c.time_major ? x.shape[1] : x.shape[0];
  c.steps = c.time_major ? x.shape[0] : x.shape[1];
  c.inputs = x.shape[2];
  c.units = h0.shape.empty() ? 0 : h0.shape.back();
  if (c.units < 1 || h0.elements() != c.batches * c.units) {
    l.fail(l.label(h0, "hidden state") + " has shape " + shape_string(h0.shape) + ", expected " +
           std::to_string(c.batches) + " x units elements");
  }
  if (c0.elements() != c.batches * c.units) {
    l.fail(l.label(c0, "cell state") + " has shape " + shape_string(c0.shape) + ", expected " +
           std::to_string(c.batches * c.units) + " elements");
  }
  for (const auto& [state, next, what] : {std::tuple{&h0, &l.output(1), "new hidden state"},
                                          std::tuple{&c0, &l.output(2), "new cell state"}}) {
    if (next->dtype != state->dtype || next->shape != state->shape || next->quant.scales != state->quant.scales) {
      l.fail(l.label(*next, what) + " is not shaped, typed and scaled as its state input");
    }
  }
  l.expect_shape(y, "output", {x.shape[0], x.shape[1], c.units});
  return c;
}

// Names of the gates in TFLite's order (LstmGate).
const char* const kGateNames[4] = {"input", "forget", "cell", "output"};

// Gate g's weights ([units, I] and [units, units], dtype `weight`) and bias ([units],
// dtype `bias`).
void check_gate_tensors(const NodeLowering& l, const LstmCheck& c, int g, DType weight, DType bias) {
  const std::string gate = kGateNames[g];
  const std::string wx_role = gate + " gate input weights";
  const std::string wh_role = gate + " gate recurrent weights";
  const std::string bias_role = gate + " gate bias";
  l.expect_dtype(l.input(1 + g), wx_role.c_str(), weight);
  l.expect_dtype(l.input(5 + g), wh_role.c_str(), weight);
  l.expect_shape(l.input(1 + g), wx_role.c_str(), {c.units, c.inputs});
  l.expect_shape(l.input(5 + g), wh_role.c_str(), {c.units, c.units});
  l.expect_dtype(l.input(12 + g), bias_role.c_str(), bias);
  l.expect_shape(l.input(12 + g), bias_role.c_str(), {c.units});
}

// The fused activation option is the cell gate's: TFLite Micro applies tanh or sigmoid,
// and of those the .tflite schema can only say TANH (on any other value its Eval aborts in a
// debug build and leaves the gate unactivated in a release one: refused here).
void expect_tanh_cell_gate(const NodeLowering& l) {
  const std::string activation = l.node().get_string("activation", "tanh");
  if (activation != "tanh") {
    l.fail("cell gate activation '" + activation + "' is not supported (TFLite Micro's LSTM: tanh)");
  }
}

// The cell_clip option: > 0 clips the cell state (TFLite Micro's CellStateInfo).
float cell_clip_option(const NodeLowering& l) {
  const double cell_clip = l.node().get_float("cell_clip", 0.0);
  if (std::isnan(cell_clip)) l.fail("cell_clip is NaN");
  return static_cast<float>(cell_clip);
}

// Multiply-accumulates: per step and batch row, four gates of [H, I] + [H, H].
uint64_t lstm_op_macs(const LstmCheck& c) {
  return static_cast<uint64_t>(c.batches * c.steps) * static_cast<uint64_t>(4 * c.units * (c.inputs + c.units));
}

// Gate g's (input, forget, cell, output) input and recurrent requantization to the gate
// pre-activation scale 2^-12, after checking its weights (int8 per tensor) and bias
// (`bias`: int32 for lstm_s8, int64 for lstm_s16); the shifts within the kernel's
// multiply's range (up to max_shift).
void lstm_gate_params(const NodeLowering& l, const LstmCheck& c, int g, const TensorQuant& x_q,
                      const TensorQuant& h_q, DType bias, int32_t max_shift, LstmGateParams& gp) {
  const float gate_scale = 1.0f / 4096;  // 2^-12: gate pre-activations, Q3.12
  const std::string gate = kGateNames[g];
  const ir::Tensor& wx = l.input(1 + g);
  const ir::Tensor& wh = l.input(5 + g);
  const std::string wx_role = gate + " gate input weights";
  const std::string wh_role = gate + " gate recurrent weights";
  check_gate_tensors(l, c, g, DType::kInt8, bias);
  for (const ir::Tensor* w : {&wx, &wh}) {
    if (w->quant.scales.size() > 1) {
      l.fail(l.label(*w, "weights") + " is quantized per channel; TFLite Micro's LSTM uses "
             "per-tensor weight scales only");
    }
  }
  const TensorQuant wx_q = per_tensor(l, wx, wx_role.c_str());
  const TensorQuant wh_q = per_tensor(l, wh, wh_role.c_str());
  fully_connected_multiplier(x_q.scale, wx_q.scale, gate_scale, &gp.input_multiplier, &gp.input_shift);
  fully_connected_multiplier(h_q.scale, wh_q.scale, gate_scale, &gp.recurrent_multiplier, &gp.recurrent_shift);
  expect_shift(l, gp.input_shift, kMinShift, max_shift, gate + " gate input");
  expect_shift(l, gp.recurrent_shift, kMinShift, max_shift, gate + " gate recurrent");
  gp.input_weight_zero_point = wx_q.zero_point;
  gp.recurrent_weight_zero_point = wh_q.zero_point;
}

// The integer LSTMs: 8x8->16 (lstm_s8: int8 activations, int32 biases) and 16x8 (lstm_s16:
// int16 activations, int64 biases), both with int8 per-tensor weights, an int16 cell
// state of zero point 0 and the cell gate's activation tanh; parameters derived as TFLite
// Micro's PrepareGateParametersInteger / CreateLstmCellStateInfo do. Scratch (lstm_s8
// only): the step's input and hidden rows widened to int16.
LoweredOp lower_lstm_integer(const NodeLowering& l, const LstmCheck& c) {
  const bool int16 = l.input(0).dtype == DType::kInt16;
  const DType act = int16 ? DType::kInt16 : DType::kInt8;
  l.expect_dtype(l.output(0), "output", act);
  l.expect_dtype(l.input(18), "hidden state", act);
  l.expect_dtype(l.input(19), "cell state", DType::kInt16);
  expect_tanh_cell_gate(l);
  // The states' quantization as TFLite gives it is on the new-state outputs: a persistent
  // tensor's zero point is its fill value (the importer's tensor()).
  const ir::Tensor& c0 = l.input(19);
  const TensorQuant x_q = per_tensor(l, l.input(0), "input");
  const TensorQuant h_q = per_tensor(l, l.output(1), "hidden state");
  const TensorQuant c_q = per_tensor(l, l.output(2), "cell state");
  expect_zero_point_zero(l, c0, "cell state", c_q.zero_point);
  const float gate_out_scale = 1.0f / 32768;  // 2^-15: gate outputs, Q0.15

  LstmIntegerParams p{};
  for (int g = 0; g < 4; ++g) {
    lstm_gate_params(l, c, g, x_q, h_q, int16 ? DType::kInt64 : DType::kInt32, int16 ? kMaxShift64 : kMaxShift,
                     p.gate[g]);
  }
  mul_multiplier(gate_out_scale, c_q.scale, c_q.scale, &p.forget_cell.multiplier, &p.forget_cell.shift);
  mul_multiplier(gate_out_scale, gate_out_scale, c_q.scale, &p.input_cell.multiplier, &p.input_cell.shift);
  mul_multiplier(gate_out_scale, gate_out_scale, h_q.scale, &p.hidden.multiplier, &p.hidden.shift);
  expect_shift(l, p.forget_cell.shift, kMinShift, kMaxShift, "forget x cell");
  expect_shift(l, p.input_cell.shift, kMinShift, kMaxShift, "input x cell gate");
  expect_shift(l, p.hidden.shift, kMinShift, kMaxShift, "hidden state");
  p.input_zero_point = x_q.zero_point;
  p.hidden_zero_point = h_q.zero_point;

  // tanh of the cell state: TFLite Micro's lstm_internal::Tanh with the cell scale's power.
  int32_t power = 0;
  checked_log2(c_q.scale, &power);  // TFLite Micro ignores whether the scale is a power of 2
  const int32_t tanh_shift = 12 + power;  // (15 + power) - 3
  if (tanh_shift > 12 || tanh_shift < -31) {
    l.fail(l.label(c0, "cell state") + " has scale " + float_string(c_q.scale) +
           ", outside what the integer LSTM's tanh supports (2^-43 .. 2^0)");
  }
  p.cell_tanh_multiplier = tanh_shift >= 0 ? 3 << tanh_shift : 3;
  p.cell_tanh_shift = tanh_shift >= 0 ? 0 : -tanh_shift;

  const float cell_clip = cell_clip_option(l);
  p.cell_clip_enabled = cell_clip > 0.0f ? 1 : 0;
  if (p.cell_clip_enabled) {
    const double q = std::min(std::max(static_cast<double>(cell_clip) /
                                           static_cast<double>(c_q.scale), -32768.0),
                              32767.0);
    p.cell_clip = static_cast<int16_t>(q);
  }
  p.time_major = c.time_major ? 1 : 0;

  const auto inputs = static_cast<uint32_t>(c.inputs);
  const auto units = static_cast<uint32_t>(c.units);
  LoweredOp op = lowered(int16 ? KernelId::kLstmS16 : KernelId::kLstmS8, params_bytes(p), lstm_op_macs(c));
  if (!int16) op.scratch_bytes = lstm_s8_scratch_bytes(inputs, units);
  return op;
}

// The float32 LSTM (lstm_f32): every tensor float32 (TFLite Micro runs no hybrid LSTM),
// the cell gate's activation tanh (TFLite Micro's CalculateLstmGate applies tanh or
// sigmoid, and a .tflite file can only say tanh of the two). No scratch.
LoweredOp lower_lstm_f32(const NodeLowering& l, const LstmCheck& c) {
  l.expect_dtype(l.output(0), "output", DType::kFloat32);
  l.expect_dtype(l.input(18), "hidden state", DType::kFloat32);
  l.expect_dtype(l.input(19), "cell state", DType::kFloat32);
  for (int g = 0; g < 4; ++g) check_gate_tensors(l, c, g, DType::kFloat32, DType::kFloat32);
  expect_tanh_cell_gate(l);
  LstmF32Params p{};
  const float cell_clip = cell_clip_option(l);
  p.cell_clip = cell_clip > 0.0f ? cell_clip : 0.0f;
  p.time_major = c.time_major ? 1 : 0;
  return lowered(KernelId::kLstmF32, params_bytes(p), lstm_op_macs(c));
}

}  // namespace

// UNIDIRECTIONAL_SEQUENCE_LSTM: what TFLite Micro's Prepare accepts (check_lstm), then the
// kernel of its input's dtype.
LoweredOp lower_lstm(const NodeLowering& l) {
  const LstmCheck c = check_lstm(l);
  const ir::Tensor& x = l.input(0);
  switch (x.dtype) {
    case DType::kFloat32: return lower_lstm_f32(l, c);
    case DType::kInt8:
    case DType::kInt16: return lower_lstm_integer(l, c);
    default:
      l.fail(l.label(x, "input") + " has dtype " + dtype_name(x.dtype) +
             ", expected float32, int8 or int16 (TFLite Micro's float, 8x8->16 and 16x8 LSTMs)");
  }
}

}  // namespace mote::lower
