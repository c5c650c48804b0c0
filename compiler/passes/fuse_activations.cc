// fuse_activations: a clamp that is the only reader of a conv/fc/matmul/elementwise/pool
// result becomes that op's fused activation range (act_min/act_max), saving one pass over
// the tensor and one arena buffer. Float32 results only (quantized graphs come with their
// activations already fused by the .tflite importer).
#include <algorithm>
#include <limits>

#include "ir/graph.h"
#include "passes/passes.h"

namespace mote::passes {
namespace {

// Folds the clamp reading node `index`'s output into the node; false when there is none
// that can be fused.
bool fuse_one(ir::Graph& graph, size_t index) {
  ir::Node& node = graph.nodes[index];
  if (!ir::op_traits(node.op).fuses_activation || node.outputs.size() != 1) return false;
  const int result = node.outputs[0];
  if (graph.is_graph_output(result)) return false;
  // Quantized results keep their clamps: a quantized op's range is TFLite's fused
  // activation (mote_ops.md), and a separate clamp is not bit-for-bit the same thing.
  const ir::Tensor& value = graph.tensors[result];
  if (value.dtype != DType::kFloat32 || !value.quant.empty()) return false;
  const std::vector<int> readers = graph.consumers(result);
  if (readers.size() != 1) return false;
  const size_t clamp_index = static_cast<size_t>(readers[0]);
  const ir::Node& clamp = graph.nodes[clamp_index];
  if (clamp.op != ir::Op::kClamp || clamp.inputs.size() != 1 || clamp.outputs.size() != 1) return false;

  constexpr double kInf = std::numeric_limits<double>::infinity();
  const double act_min = std::max(node.get_float("act_min", -kInf), clamp.get_float("min", -kInf));
  const double act_max = std::min(node.get_float("act_max", kInf), clamp.get_float("max", kInf));
  // Disjoint ranges (clamp to [7, 8] after ReLU6) are not one clamp; leave them alone.
  if (!(act_min <= act_max)) return false;

  node.attrs["act_min"] = act_min;
  node.attrs["act_max"] = act_max;
  node.outputs[0] = clamp.outputs[0];
  graph.erase_node(clamp_index);
  return true;
}

}  // namespace

void fuse_activations(ir::Graph& graph) {
  bool changed = false;
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    while (fuse_one(graph, i)) changed = true;  // clamp after clamp: fuse both
  }
  if (changed) graph.remove_dead();
}

}  // namespace mote::passes
