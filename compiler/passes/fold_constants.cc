// fold_constants (Mote level): a node whose inputs are all constant is run once on the
// host with the same reference kernel the target would run, and its outputs become
// constants. Using the real kernel (not a second host implementation) keeps folded and
// unfolded results bit-identical: the node is compiled into a one-op program and run by
// the host runtime (host/loaded_program.h), like any other program. A node writing
// state (a persistent tensor) is not folded: its write must happen at run time; nor is a
// `while` or an `if` (its regions run at run time).
#include <string>
#include <vector>

#include "link/link.h"
#include "host/loaded_program.h"
#include "ir/graph.h"
#include "passes/passes.h"

namespace mote::passes {
namespace {

bool all_inputs_constant(const ir::Graph& graph, const ir::Node& node) {
  bool any = false;
  for (int id : node.inputs) {
    if (id == ir::kNoTensor) continue;
    if (!graph.tensors[id].is_constant) return false;
    any = true;
  }
  return any;
}

// The graph of `node` alone: its constant inputs, its outputs as the graph outputs.
ir::Graph single_node_graph(const ir::Graph& graph, const ir::Node& node) {
  ir::Graph single;
  single.name = graph.name;
  ir::Node copy = node;
  for (int& id : copy.inputs)
    if (id != ir::kNoTensor) id = single.add_tensor(graph.tensors[id]);
  for (int& id : copy.outputs) {
    ir::Tensor out = graph.tensors[id];
    out.data.clear();
    id = single.add_tensor(std::move(out));
    single.outputs.push_back(id);
  }
  single.nodes.push_back(std::move(copy));
  return single;
}

// Runs `node` on its constant inputs and turns its outputs into constants. Lowering
// checks the node exactly as it would for the program, so a malformed node fails here
// with the same message.
void evaluate(ir::Graph& graph, const ir::Node& node) {
  const CompileResult compiled = link::link_program(single_node_graph(graph, node), Target::kHost);
  LoadedProgram program(compiled.program, "node '" + node.name + "' (" + ir::op_name(node.op) + "): constant folding");
  program.run();
  for (size_t i = 0; i < node.outputs.size(); ++i) {
    ir::Tensor& t = graph.tensors[node.outputs[i]];
    const std::span<const uint8_t> out = program.output(static_cast<uint32_t>(i));
    t.data.assign(out.begin(), out.end());
    t.is_constant = true;
  }
}

}  // namespace

bool fold_node(ir::Graph& graph, size_t k) {
  const ir::Node& node = graph.nodes[k];
  if (!all_inputs_constant(graph, node) || graph.writes_state(node) || !node.regions.empty()) return false;
  evaluate(graph, node);
  graph.erase_node(k);
  return true;
}

void fold_constants(ir::Graph& graph) {
  bool changed = false;
  for (size_t k = 0; k < graph.nodes.size();) {
    if (fold_node(graph, k))
      changed = true;
    else
      ++k;
  }
  if (changed) graph.remove_dead();
}

}  // namespace mote::passes
