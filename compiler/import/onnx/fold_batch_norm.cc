// BatchNormalization (inference): y = (x - mean) / sqrt(var + eps) * scale + B, per
// channel (axis 1). With s = scale / sqrt(var + eps) and t = B - mean * s:
//  - Conv -> BN, where BN is the only reader of the Conv output and the Conv weights and
//    bias are constant: weights[o] *= s[o], bias = bias * s + t, and the Conv writes the
//    BN output (the BN disappears).
//  - any other BN becomes Mul(x, s) -> Add(., t) with s, t shaped [C, 1, ..., 1] so they
//    broadcast over the dims after the channel axis.
// s and t are computed in double precision and stored as float32.
#include <cmath>

#include "import/onnx/onnx_importer.h"
#include "import/onnx/source_eval.h"

namespace mote::onnx_import {
namespace {

std::vector<double> channel_param(const SourceGraph& graph, const SourceNode& bn, int input,
                                  int64_t channels) {
  const int id = bn.inputs.size() > static_cast<size_t>(input) ? bn.inputs[input] : ir::kNoTensor;
  if (id == ir::kNoTensor) fail_node(message_origin(graph), bn, "input " + std::to_string(input) + " missing");
  const ir::Tensor& t = graph.tensors[id];
  if (!t.is_constant) fail_node(message_origin(graph), bn, "non-constant input '" + t.name + "' not supported");
  if (t.elements() != channels)
    fail_node(message_origin(graph), bn, "input '" + t.name + "' has shape " + shape_string(t.shape) +
                             ", expected [" + std::to_string(channels) + "]");
  return read_doubles(t);
}

bool fold_into_conv(SourceGraph& graph, const SourceNode& bn, const std::vector<double>& s,
                    const std::vector<double>& t) {
  const int x = bn.inputs[0];
  const int p = graph.producer(x);
  if (p < 0 || graph.nodes[p].op != "Conv" || graph.is_graph_output(x) ||
      graph.consumers(x).size() != 1)
    return false;
  SourceNode& conv = graph.nodes[p];
  const ir::Tensor& w = graph.tensors[conv.inputs[1]];
  if (!w.is_constant || w.dtype != DType::kFloat32) return false;
  const int bias_id = conv.inputs.size() > 2 ? conv.inputs[2] : ir::kNoTensor;
  if (bias_id != ir::kNoTensor &&
      (!graph.tensors[bias_id].is_constant || graph.tensors[bias_id].dtype != DType::kFloat32))
    return false;

  const int64_t out_channels = w.shape[0];
  const int64_t per_channel = w.elements() / out_channels;
  std::vector<float> weights(w.as<float>(), w.as<float>() + w.elements());
  for (int64_t o = 0; o < out_channels; ++o)
    for (int64_t i = 0; i < per_channel; ++i)
      weights[o * per_channel + i] = static_cast<float>(weights[o * per_channel + i] * s[o]);
  std::vector<float> bias(out_channels);
  for (int64_t o = 0; o < out_channels; ++o) {
    const double b = bias_id == ir::kNoTensor ? 0.0 : graph.tensors[bias_id].as<float>()[o];
    bias[o] = static_cast<float>(b * s[o] + t[o]);
  }
  // New tensors: the originals may be shared with other nodes.
  const ir::Shape w_shape = w.shape;
  const std::string w_name = w.name + "_bn", b_name = bn.name + "_bias";
  const int new_w = graph.add_constant(w_name, DType::kFloat32, w_shape, float_bytes(weights));
  const int new_b = graph.add_constant(b_name, DType::kFloat32, {out_channels}, float_bytes(bias));
  conv.inputs.resize(3);
  conv.inputs[1] = new_w;
  conv.inputs[2] = new_b;
  conv.outputs[0] = bn.outputs[0];
  return true;
}

}  // namespace

void fold_batch_norm(SourceGraph& graph) {
  std::vector<SourceNode> result;
  // Iterate over a snapshot of indices: folding edits the producer (an earlier node).
  const size_t count = graph.nodes.size();
  std::vector<bool> drop(count, false);
  std::vector<std::vector<SourceNode>> replacement(count);
  for (size_t k = 0; k < count; ++k) {
    const SourceNode bn = graph.nodes[k];
    if (bn.op != "BatchNormalization") continue;
    const ir::Tensor& x = graph.tensors[bn.inputs.at(0)];
    if (x.shape.size() < 2) fail_node(message_origin(graph), bn, "input rank " + std::to_string(x.shape.size()) +
                                                     " not supported");
    const int64_t channels = x.shape[1];
    const double eps = bn.get_float("epsilon", 1e-5);
    const std::vector<double> scale = channel_param(graph, bn, 1, channels);
    const std::vector<double> shift = channel_param(graph, bn, 2, channels);
    const std::vector<double> mean = channel_param(graph, bn, 3, channels);
    const std::vector<double> var = channel_param(graph, bn, 4, channels);
    std::vector<double> s(channels), t(channels);
    for (int64_t c = 0; c < channels; ++c) {
      s[c] = scale[c] / std::sqrt(var[c] + eps);
      t[c] = shift[c] - mean[c] * s[c];
    }
    drop[k] = true;
    if (fold_into_conv(graph, bn, s, t)) continue;

    ir::Shape param_shape(x.shape.size() - 1, 1);
    param_shape[0] = channels;
    const std::vector<float> sf(s.begin(), s.end()), tf(t.begin(), t.end());
    const int s_id = graph.add_constant(bn.name + "_scale", DType::kFloat32, param_shape, float_bytes(sf));
    const int t_id = graph.add_constant(bn.name + "_shift", DType::kFloat32, param_shape, float_bytes(tf));
    ir::Tensor scaled;
    scaled.name = graph.tensors[bn.outputs[0]].name + "_scaled";
    scaled.dtype = graph.tensors[bn.inputs[0]].dtype;
    scaled.shape = graph.tensors[bn.inputs[0]].shape;
    const int scaled_id = graph.add_tensor(std::move(scaled));
    SourceNode mul;
    mul.name = bn.name + "/scale";
    mul.op = "Mul";
    mul.inputs = {bn.inputs[0], s_id};
    mul.outputs = {scaled_id};
    SourceNode add;
    add.name = bn.name;
    add.op = "Add";
    add.inputs = {scaled_id, t_id};
    add.outputs = {bn.outputs[0]};
    replacement[k] = {std::move(mul), std::move(add)};
  }
  for (size_t k = 0; k < count; ++k) {
    if (!drop[k]) result.push_back(std::move(graph.nodes[k]));
    for (SourceNode& n : replacement[k]) result.push_back(std::move(n));
  }
  graph.nodes = std::move(result);
  graph.remove_dead();
}

}  // namespace mote::onnx_import
