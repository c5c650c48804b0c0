// Lowering of gru and rnn (ONNX's GRU and RNN, one direction each) to the kernels of
// kernels/gru/gru.h and kernels/rnn/rnn.h: float32 (gru_f32, rnn_f32) and the integer forms
// designed after TFLite's integer LSTM (TFLite has neither op): int8 activations (gru_s8,
// rnn_s8) and 16x8 (gru_s16, rnn_s16: int16 activations of zero point 0, int64 biases),
// both with int8 symmetric weights of one scale per gate and the hidden state's
// quantization shared by h0, y and the final hidden state. The input's dtype picks the
// kernel.
#include <string>

#include "lower/node_lowering.h"
#include "lower/quantization.h"
// Kernel parameter structs.
#include "gru/gru.h"
#include "rnn/rnn.h"

namespace mote::lower {
namespace {

struct RecurrentCheck {
  bool time_major = true;
  int64_t inputs = 0, units = 0;
  uint64_t macs = 0;
  DType activation = DType::kFloat32;
};

// x [T, B, I] (time_major) or [B, T, I], w [G*H, I], r [G*H, H], bias [2*G*H], h0 B x H
// elements; outputs y (x's layout with H) and the final hidden state (h0's shape). G =
// `gates`. Dtypes: all float32, or x, h0, y and the final state int8 (int16), w and r
// int8, bias int32 (int64).
RecurrentCheck check_recurrent(const NodeLowering& l, int64_t gates) {
  const ir::Node& node = l.node();
  if (node.inputs.size() != 5) l.fail("has " + std::to_string(node.inputs.size()) + " inputs, expected 5");
  if (node.outputs.size() != 2) l.fail("expected two outputs (y and the final hidden state)");
  for (int i = 0; i < 5; ++i)
    if (!l.has_input(i)) l.fail("input " + std::to_string(i) + " is missing");
  const ir::Tensor& x = l.input(0);
  const ir::Tensor& h0 = l.input(4);
  l.expect_rank(x, "input", 3);
  RecurrentCheck c;
  c.time_major = node.get_int("time_major", 1) != 0;
  const int64_t batches = c.time_major ? x.shape[1] : x.shape[0];
  c.inputs = x.shape[2];
  c.units = l.input(2).shape.empty() ? 0 : l.input(2).shape.back();
  if (c.units < 1) l.fail("recurrent weights have no units");
  c.activation = x.dtype;
  DType weight = DType::kFloat32, bias = DType::kFloat32;
  if (x.dtype == DType::kInt8 || x.dtype == DType::kInt16) {
    weight = DType::kInt8;
    bias = x.dtype == DType::kInt8 ? DType::kInt32 : DType::kInt64;
  } else if (x.dtype != DType::kFloat32) {
    l.fail(l.label(x, "input") + " has dtype " + dtype_name(x.dtype) + ", expected float32, int8 or int16");
  }
  const char* roles[] = {"input", "input weights", "recurrent weights", "bias", "initial hidden state"};
  const DType dtypes[] = {c.activation, weight, weight, bias, c.activation};
  for (int i = 0; i < 5; ++i) l.expect_dtype(l.input(i), roles[i], dtypes[i]);
  l.expect_shape(l.input(1), "input weights", {gates * c.units, c.inputs});
  l.expect_shape(l.input(2), "recurrent weights", {gates * c.units, c.units});
  l.expect_shape(l.input(3), "bias", {2 * gates * c.units});
  if (h0.elements() != batches * c.units)
    l.fail(l.label(h0, "initial hidden state") + " has " + std::to_string(h0.elements()) + " elements, expected " +
           std::to_string(batches * c.units));
  l.expect_dtype(l.output(0), "output", c.activation);
  l.expect_dtype(l.output(1), "final hidden state", c.activation);
  l.expect_shape(l.output(0), "output", {x.shape[0], x.shape[1], c.units});
  l.expect_shape(l.output(1), "final hidden state", h0.shape);
  c.macs = static_cast<uint64_t>(x.shape[0] * x.shape[1]) * static_cast<uint64_t>(gates * c.units * (c.inputs + c.units));
  return c;
}

// The quantization every integer form shares: x's, and the hidden state's, which h0, y
// and the final hidden state must all have (h feeds back as the next step's h0); int16
// activations symmetric.
struct RecurrentQuant {
  TensorQuant x, h;
  bool int16 = false;
};

RecurrentQuant recurrent_quant(const NodeLowering& l, const RecurrentCheck& c) {
  RecurrentQuant q;
  q.int16 = c.activation == DType::kInt16;
  q.x = per_tensor(l, l.input(0), "input");
  q.h = per_tensor(l, l.output(0), "output");
  for (const auto& [t, role] : {std::pair{&l.input(4), "initial hidden state"}, std::pair{&l.output(1), "final hidden state"}}) {
    const TensorQuant other = per_tensor(l, *t, role);
    if (other.scale != q.h.scale || other.zero_point != q.h.zero_point) {
      l.fail(l.label(*t, role) + " is quantized (" + float_string(other.scale) + ", " +
             std::to_string(other.zero_point) + ") unlike the output (" + float_string(q.h.scale) + ", " +
             std::to_string(q.h.zero_point) + "): the integer kernels keep one hidden-state quantization");
    }
  }
  if (q.int16) {
    expect_zero_point_zero(l, l.input(0), "input", q.x.zero_point);
    expect_zero_point_zero(l, l.output(0), "output", q.h.zero_point);
  }
  return q;
}

// The scale of each of `gates` gates of int8 weights w [gates * units, K]: symmetric
// (every zero point 0), one scale per tensor or per row with the rows of a gate equal.
std::vector<float> gate_scales(const NodeLowering& l, const ir::Tensor& w, const char* role, int64_t gates,
                               int64_t units) {
  const std::vector<float> rows = channel_scales(l, w, 0, gates * units);
  for (int32_t zp : w.quant.zero_points)
    if (zp != 0) l.fail(l.label(w, role) + " has zero point " + std::to_string(zp) + ", expected symmetric int8 (0)");
  std::vector<float> scales;
  for (int64_t g = 0; g < gates; ++g) {
    const float s = rows[static_cast<size_t>(g * units)];
    for (int64_t n = 1; n < units; ++n) {
      if (rows[static_cast<size_t>(g * units + n)] != s) {
        l.fail(l.label(w, role) + " has several scales within gate " + std::to_string(g) +
               "; the integer kernels take one scale per gate");
      }
    }
    scales.push_back(s);
  }
  return scales;
}

// fully_connected_multiplier(in_scale, w_scale, out_scale) with its shift checked against
// the kernel's requantization (int32 or, for 16x8, int64 sums).
void recurrent_multiplier(const NodeLowering& l, const RecurrentQuant& q, float in_scale, float w_scale,
                          float out_scale, const std::string& what, int32_t* multiplier, int32_t* shift) {
  fully_connected_multiplier(in_scale, w_scale, out_scale, multiplier, shift);
  expect_shift(l, *shift, kMinShift, q.int16 ? kMaxShift64 : kMaxShift, what);
}

constexpr float kGateScale = 1.0f / 4096;      // 2^-12: gate pre-activations, Q3.12
constexpr float kGateOutScale = 1.0f / 32768;  // 2^-15: gate outputs, Q0.15

LoweredOp lower_gru_integer(const NodeLowering& l, const RecurrentCheck& c, uint32_t linear_before_reset) {
  const RecurrentQuant q = recurrent_quant(l, c);
  const std::vector<float> wx = gate_scales(l, l.input(1), "input weights", 3, c.units);
  const std::vector<float> wh = gate_scales(l, l.input(2), "recurrent weights", 3, c.units);
  static const char* const kGates[3] = {"update gate", "reset gate", "hidden gate"};
  GruIntegerParams p{};
  for (int g = 0; g < 3; ++g) {
    GruGateParams& gp = p.gate[g];
    recurrent_multiplier(l, q, q.x.scale, wx[g], kGateScale, std::string(kGates[g]) + " input", &gp.input_multiplier,
                         &gp.input_shift);
    recurrent_multiplier(l, q, q.h.scale, wh[g], kGateScale, std::string(kGates[g]) + " recurrent",
                         &gp.recurrent_multiplier, &gp.recurrent_shift);
  }
  mul_multiplier(kGateOutScale, kGateOutScale, q.h.scale, &p.hidden_multiplier, &p.hidden_shift);
  expect_shift(l, p.hidden_shift, kMinShift, kMaxShift, "hidden state");
  p.input_zero_point = q.x.zero_point;
  p.hidden_zero_point = q.h.zero_point;
  p.linear_before_reset = linear_before_reset;
  p.time_major = c.time_major ? 1 : 0;
  const auto units = static_cast<uint32_t>(c.units);
  LoweredOp op = lowered(q.int16 ? KernelId::kGruS16 : KernelId::kGruS8, params_bytes(p), c.macs);
  op.scratch_bytes = q.int16 ? gru_s16_scratch_bytes(units) : gru_s8_scratch_bytes(static_cast<uint32_t>(c.inputs), units);
  return op;
}

LoweredOp lower_rnn_integer(const NodeLowering& l, const RecurrentCheck& c, RnnActivation activation) {
  const RecurrentQuant q = recurrent_quant(l, c);
  const float wx = gate_scales(l, l.input(1), "input weights", 1, c.units)[0];
  const float wh = gate_scales(l, l.input(2), "recurrent weights", 1, c.units)[0];
  // tanh squashes a Q3.12 pre-activation; relu's goes straight to the hidden state's scale.
  const float pre_scale = activation == kRnnRelu ? q.h.scale : kGateScale;
  RnnIntegerParams p{};
  recurrent_multiplier(l, q, q.x.scale, wx, pre_scale, "input", &p.input_multiplier, &p.input_shift);
  recurrent_multiplier(l, q, q.h.scale, wh, pre_scale, "recurrent", &p.recurrent_multiplier, &p.recurrent_shift);
  if (activation == kRnnTanh) {
    requantize_multiplier(kGateOutScale, q.h.scale, &p.output_multiplier, &p.output_shift);
    expect_shift(l, p.output_shift, kMinShift, kMaxShift, "tanh output");
  }
  p.input_zero_point = q.x.zero_point;
  p.hidden_zero_point = q.h.zero_point;
  p.activation = activation;
  p.time_major = c.time_major ? 1 : 0;
  LoweredOp op = lowered(q.int16 ? KernelId::kRnnS16 : KernelId::kRnnS8, params_bytes(p), c.macs);
  if (!q.int16) op.scratch_bytes = rnn_s8_scratch_bytes(static_cast<uint32_t>(c.inputs), static_cast<uint32_t>(c.units));
  return op;
}

}  // namespace

LoweredOp lower_gru(const NodeLowering& l) {
  const RecurrentCheck c = check_recurrent(l, 3);
  const int64_t linear_before_reset = l.node().get_int("linear_before_reset", 0);
  if (linear_before_reset != 0 && linear_before_reset != 1)
    l.fail("linear_before_reset " + std::to_string(linear_before_reset) + ", expected 0 or 1");
  if (c.activation != DType::kFloat32) return lower_gru_integer(l, c, static_cast<uint32_t>(linear_before_reset));
  GruF32Params p{};
  p.linear_before_reset = static_cast<uint32_t>(linear_before_reset);
  p.time_major = c.time_major ? 1 : 0;
  LoweredOp op = lowered(KernelId::kGruF32, params_bytes(p), c.macs);
  op.scratch_bytes = gru_f32_scratch_bytes(static_cast<uint32_t>(c.units));
  return op;
}

LoweredOp lower_rnn(const NodeLowering& l) {
  const RecurrentCheck c = check_recurrent(l, 1);
  const std::string activation = l.node().get_string("activation", "tanh");
  if (activation != "tanh" && activation != "relu")
    l.fail("activation '" + activation + "' is not supported (tanh or relu)");
  const RnnActivation act = activation == "relu" ? kRnnRelu : kRnnTanh;
  if (c.activation != DType::kFloat32) return lower_rnn_integer(l, c, act);
  RnnF32Params p{};
  p.activation = act;
  p.time_major = c.time_major ? 1 : 0;
  return lowered(KernelId::kRnnF32, params_bytes(p), c.macs);
}

}  // namespace mote::lower
