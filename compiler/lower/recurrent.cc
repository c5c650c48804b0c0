// Lowering of gru and rnn (ONNX's GRU and RNN, one direction each) to gru_f32 and rnn_f32
// (kernels/gru/gru.h, kernels/rnn/rnn.h): float32 only; under --quantize they stay float
// (no integer kernel: TFLite has neither op).
#include <string>

#include "lower/node_lowering.h"
// Kernel parameter structs.
#include "gru/gru.h"
#include "rnn/rnn.h"

namespace mote::lower {
namespace {

struct RecurrentCheck {
  bool time_major = true;
  int64_t inputs = 0, units = 0;
  uint64_t macs = 0;
};

// x [T, B, I] (time_major) or [B, T, I], w [G*H, I], r [G*H, H], bias [2*G*H], h0 B x H
// elements, all float32; outputs y (x's layout with H) and the final hidden state (h0's
// shape). G = `gates`.
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
  const char* roles[] = {"input", "input weights", "recurrent weights", "bias", "initial hidden state"};
  for (int i = 0; i < 5; ++i) l.expect_dtype(l.input(i), roles[i], DType::kFloat32);
  l.expect_shape(l.input(1), "input weights", {gates * c.units, c.inputs});
  l.expect_shape(l.input(2), "recurrent weights", {gates * c.units, c.units});
  l.expect_shape(l.input(3), "bias", {2 * gates * c.units});
  if (h0.elements() != batches * c.units)
    l.fail(l.label(h0, "initial hidden state") + " has " + std::to_string(h0.elements()) + " elements, expected " +
           std::to_string(batches * c.units));
  l.expect_dtype(l.output(0), "output", DType::kFloat32);
  l.expect_dtype(l.output(1), "final hidden state", DType::kFloat32);
  l.expect_shape(l.output(0), "output", {x.shape[0], x.shape[1], c.units});
  l.expect_shape(l.output(1), "final hidden state", h0.shape);
  c.macs = static_cast<uint64_t>(x.shape[0] * x.shape[1]) * static_cast<uint64_t>(gates * c.units * (c.inputs + c.units));
  return c;
}

}  // namespace

LoweredOp lower_gru(const NodeLowering& l) {
  const RecurrentCheck c = check_recurrent(l, 3);
  const int64_t linear_before_reset = l.node().get_int("linear_before_reset", 0);
  if (linear_before_reset != 0 && linear_before_reset != 1)
    l.fail("linear_before_reset " + std::to_string(linear_before_reset) + ", expected 0 or 1");
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
  RnnF32Params p{};
  p.activation = activation == "relu" ? kRnnRelu : kRnnTanh;
  p.time_major = c.time_major ? 1 : 0;
  return lowered(KernelId::kRnnF32, params_bytes(p), c.macs);
}

}  // namespace mote::lower
