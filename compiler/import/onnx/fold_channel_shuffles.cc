// A channel shuffle (ShuffleNet: x [N,C,...] reshaped to [N,g,C/g,...], axes 1 and 2
// swapped, reshaped back to [N,C,...]) only permutes the channels: it becomes one Gather
// along axis 1 with the permutation as constant indices, which legalize runs in the
// tensor's channels-last layout instead of converting it to NCHW and back.
#include "import/onnx/onnx_importer.h"
#include "import/onnx/source_eval.h"

namespace mote::onnx_import {
namespace {

// The node reading `tensor` when it is the only reader and `tensor` is no graph output.
int sole_reader(const SourceGraph& graph, int tensor, const char* op) {
  if (graph.is_graph_output(tensor)) return -1;
  const std::vector<int> readers = graph.consumers(tensor);
  if (readers.size() != 1 || graph.nodes[readers[0]].op != op) return -1;
  return readers[0];
}

}  // namespace

void fold_channel_shuffles(SourceGraph& graph) {
  std::vector<bool> removed(graph.nodes.size(), false);
  for (size_t k = 0; k < graph.nodes.size(); ++k) {
    const SourceNode& split = graph.nodes[k];
    if (split.op != "Reshape" || removed[k] || split.inputs.empty()) continue;
    const int x = split.inputs[0], a = split.outputs[0];
    const ir::Shape& xs = graph.tensors[x].shape;
    const ir::Shape& as = graph.tensors[a].shape;
    // x [N,C,rest...] -> a [N,g,C/g,rest...].
    // (g * C/g == C checked by division: a corrupt shape's product could overflow.)
    if (xs.size() < 2 || as.size() != xs.size() + 1 || as[0] != xs[0] || as[1] <= 0 || as[2] <= 0 ||
        xs[1] % as[1] != 0 || xs[1] / as[1] != as[2] ||
        !std::equal(xs.begin() + 2, xs.end(), as.begin() + 3))
      continue;
    const int t = sole_reader(graph, a, "Transpose");
    if (t < 0) continue;
    std::vector<int64_t> swap(as.size());
    for (size_t i = 0; i < swap.size(); ++i) swap[i] = static_cast<int64_t>(i);
    std::swap(swap[1], swap[2]);
    if (graph.nodes[t].get_ints("perm") != swap) continue;
    const int merge = sole_reader(graph, graph.nodes[t].outputs[0], "Reshape");
    if (merge < 0 || graph.tensors[graph.nodes[merge].outputs[0]].shape != xs) continue;
    // Output channel i * g + j (i < C/g, j < g) is input channel j * (C/g) + i.
    const int64_t groups = as[1], per_group = as[2];
    std::vector<int64_t> source;
    for (int64_t i = 0; i < per_group; ++i)
      for (int64_t j = 0; j < groups; ++j) source.push_back(j * per_group + i);
    const int indices = graph.add_constant(split.name + "/channel_order", DType::kInt64, {xs[1]},
                                           encode_ints(DType::kInt64, source));
    SourceNode& gather = graph.nodes[merge];
    gather.op = "Gather";
    gather.inputs = {x, indices};
    gather.attrs.clear();
    gather.attrs["axis"] = int64_t{1};
    removed[k] = removed[t] = true;
  }
  remove_nodes(graph, removed);
}

}  // namespace mote::onnx_import
