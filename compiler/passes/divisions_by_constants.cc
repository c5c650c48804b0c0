// div by a float32 constant -> mul by its reciprocal, for --quantize (passes.h).
#include <cstring>

#include "passes/passes.h"

namespace mote::passes {

void divisions_to_multiplications(ir::Graph& graph) {
  for (size_t k = 0; k < graph.nodes.size(); ++k) {
    const ir::Node& n = graph.nodes[k];
    if (n.op != ir::Op::kDiv || n.inputs.size() != 2) continue;
    const ir::Tensor& divisor = graph.tensors[n.inputs[1]];
    if (!divisor.is_constant || divisor.dtype != DType::kFloat32 ||
        graph.tensors[n.inputs[0]].dtype != DType::kFloat32)
      continue;
    std::vector<float> reciprocal(static_cast<size_t>(divisor.elements()));
    for (size_t i = 0; i < reciprocal.size(); ++i) reciprocal[i] = 1.0f / divisor.as<float>()[i];
    std::vector<uint8_t> bytes(reciprocal.size() * sizeof(float));
    if (!bytes.empty()) std::memcpy(bytes.data(), reciprocal.data(), bytes.size());
    const std::string name = divisor.name + "/reciprocal";
    const ir::Shape shape = divisor.shape;
    const int constant = graph.add_constant(name, DType::kFloat32, shape, std::move(bytes));
    graph.nodes[k].inputs[1] = constant;
    graph.nodes[k].op = ir::Op::kMul;
  }
  graph.remove_dead();
}

}  // namespace mote::passes
