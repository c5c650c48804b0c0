// Evaluates source nodes whose inputs are all constant (and Shape/Size of any tensor,
// whose shape is static) on the host, in one pass in execution order, so chains of
// shape arithmetic fold completely. The evaluator is source_eval.h; nodes it does not
// cover are left alone. A node writing a graph output is not folded (the runtime
// produces outputs by running ops).
#include "common/error.h"
#include "import/onnx/onnx_importer.h"
#include "import/onnx/source_eval.h"

namespace mote::onnx_import {

void fold_constants_source(SourceGraph& graph) {
  std::vector<SourceNode> kept;
  for (SourceNode& node : graph.nodes) {
    bool writes_output = false;
    for (int t : node.outputs) writes_output = writes_output || graph.is_graph_output(t);
    if (writes_output || !inputs_ready_for_evaluation(graph, node)) {
      kept.push_back(std::move(node));
      continue;
    }
    std::vector<const ir::Tensor*> inputs;
    for (int t : node.inputs) inputs.push_back(t == ir::kNoTensor ? nullptr : &graph.tensors[t]);
    std::vector<DType> dtypes;
    for (int t : node.outputs) dtypes.push_back(graph.tensors[t].dtype);
    std::vector<ir::Tensor> results;
    try {
      results = evaluate_source_node(node, inputs, dtypes);
    } catch (const CompileError& e) {
      throw CompileError(message_origin(graph) + ": " + e.what());
    }
    for (size_t j = 0; j < node.outputs.size() && j < results.size(); ++j) {
      ir::Tensor& out = graph.tensors[node.outputs[j]];
      if (results[j].shape != out.shape)
        fail_node(message_origin(graph), node, "evaluated shape " + shape_string(results[j].shape) +
                                   " differs from the inferred " + shape_string(out.shape));
      out.is_constant = true;
      out.data = std::move(results[j].data);
    }
  }
  graph.nodes = std::move(kept);
  graph.remove_dead();
}

}  // namespace mote::onnx_import
