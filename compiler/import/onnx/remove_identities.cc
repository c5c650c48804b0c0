// Identity, Dropout (inference) and Casts to the same dtype carry data through unchanged:
// their output becomes an alias of their input.
//
// When the output is a graph output its name must survive, so instead the input's
// producer is made to write the output tensor directly. Where that is impossible (the
// input is a graph input, a constant or itself a graph output) the node stays;
// legalize turns it into a copy.
#include <algorithm>

#include "import/onnx/onnx_importer.h"
#include "import/onnx/source_eval.h"

namespace mote::onnx_import {
namespace {

bool is_identity(const SourceGraph& graph, const SourceNode& node) {
  if (node.inputs.empty() || node.outputs.empty() || node.inputs[0] == ir::kNoTensor) return false;
  if (node.op == "Identity" || node.op == "Dropout") return true;
  if (node.op == "Cast")
    return graph.tensors[node.inputs[0]].dtype == graph.tensors[node.outputs[0]].dtype;
  return false;
}

}  // namespace

void remove_identities(SourceGraph& graph) {
  std::vector<bool> removed(graph.nodes.size(), false);
  for (size_t k = 0; k < graph.nodes.size(); ++k) {
    const SourceNode& node = graph.nodes[k];
    if (!is_identity(graph, node)) continue;
    const int in = node.inputs[0];
    const int out = node.outputs[0];
    if (!graph.is_graph_output(out)) {
      graph.replace_uses(out, in);
      removed[k] = true;
      continue;
    }
    const int producer = graph.producer(in);
    if (producer < 0 || graph.is_graph_output(in)) continue;
    // The producer writes the graph output; other readers of `in` read it from there.
    for (int& t : graph.nodes[producer].outputs)
      if (t == in) t = out;
    graph.replace_uses(in, out);
    removed[k] = true;
  }
  remove_nodes(graph, removed);
}

}  // namespace mote::onnx_import
