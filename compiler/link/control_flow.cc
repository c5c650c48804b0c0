#include "link/control_flow.h"

#include <algorithm>
#include <string>
#include <utility>

#include "common/error.h"

namespace mote::link {
namespace {

class LayOut {
 public:
  LayOut(ir::Graph& graph, ControlFlowLayout& result) : graph_(graph), result_(result) {}

  void nodes(std::vector<ir::Node>& nodes) {
    for (ir::Node& node : nodes) {
      if (node.op == ir::Op::kWhile)
        loop(node);
      else if (node.op == ir::Op::kIf)
        conditional(node);
      else if (!node.regions.empty())
        fail(node, "holds regions but is not a while or an if");
      else
        out_.push_back(std::move(node));
    }
  }

  std::vector<ir::Node> take() { return std::move(out_); }

 private:
  [[noreturn]] static void fail(const ir::Node& node, const std::string& what) {
    throw CompileError("node '" + node.name + "' (" + ir::op_name(node.op) + "): " + what);
  }

  void copy(const std::string& name, int from, int to) {
    ir::Node c;
    c.name = name;
    c.op = ir::Op::kCopy;
    c.inputs = {from};
    c.outputs = {to};
    out_.push_back(std::move(c));
  }

  size_t control(const std::string& name, ir::Op op, std::vector<int> inputs, int64_t when) {
    ir::Node c;
    c.name = name;
    c.op = op;
    c.inputs = std::move(inputs);
    if (op == ir::Op::kBranch) c.attrs["when"] = when;
    out_.push_back(std::move(c));
    return out_.size() - 1;
  }

  void target(size_t control_node, size_t to) { out_[control_node].attrs["target"] = static_cast<int64_t>(to); }

  void reassign(int id) { result_.reassigned[static_cast<size_t>(id)] = true; }

  void check_results(const ir::Node& node, const ir::Node::Region& region, const std::string& role,
                     const std::vector<int>& like) {
    if (region.results.size() != like.size())
      fail(node, role + " gives " + std::to_string(region.results.size()) + " results, expected " +
                     std::to_string(like.size()));
    for (size_t k = 0; k < like.size(); ++k) {
      const ir::Tensor& r = graph_.tensors[static_cast<size_t>(region.results[k])];
      const ir::Tensor& o = graph_.tensors[static_cast<size_t>(like[k])];
      if (r.dtype != o.dtype || r.shape != o.shape)
        fail(node, role + " result " + std::to_string(k) + " '" + r.name + "' is " + ir::dtype_name(r.dtype) + " " +
                       ir::shape_string(r.shape) + ", expected " + ir::dtype_name(o.dtype) + " " +
                       ir::shape_string(o.shape) + " as '" + o.name + "'");
    }
  }

  void loop(ir::Node& node) {
    if (node.regions.size() != 2 || node.regions[0].results.size() != 1)
      fail(node, "expected two regions, cond (one result) and body");
    if (node.inputs.size() != node.outputs.size())
      fail(node, "has " + std::to_string(node.inputs.size()) + " inputs and " + std::to_string(node.outputs.size()) +
                     " outputs, expected as many of each");
    const std::vector<int>& vars = node.outputs;
    check_results(node, node.regions[1], "body", vars);
    for (size_t k = 0; k < vars.size(); ++k) {
      copy(node.name + "/init " + std::to_string(k), node.inputs[k], vars[k]);
      reassign(vars[k]);
    }
    const size_t enter = control(node.name + "/enter", ir::Op::kJump, {}, 0);
    const size_t body = out_.size();
    nodes(node.regions[1].nodes);
    std::vector<int> next = node.regions[1].results;
    for (size_t k = 0; k < next.size(); ++k) {  // a result that is another variable: its value now
      const auto other = std::find(vars.begin(), vars.end(), next[k]);
      if (other == vars.end() || other - vars.begin() == static_cast<std::ptrdiff_t>(k)) continue;
      ir::Tensor t = graph_.tensors[static_cast<size_t>(next[k])];
      t.name += " (next " + std::to_string(k) + ")";
      const int held = graph_.add_tensor(std::move(t));
      result_.reassigned.push_back(false);
      copy(node.name + "/hold " + std::to_string(k), next[k], held);
      next[k] = held;
    }
    for (size_t k = 0; k < next.size(); ++k)
      if (next[k] != vars[k]) copy(node.name + "/next " + std::to_string(k), next[k], vars[k]);
    target(enter, out_.size());
    nodes(node.regions[0].nodes);
    const int c = node.regions[0].results[0];
    const ir::Tensor& condition = graph_.tensors[static_cast<size_t>(c)];
    if (condition.dtype != DType::kBool || condition.elements() < 1)
      fail(node, "condition '" + condition.name + "' is " + ir::dtype_name(condition.dtype) + " " +
                     ir::shape_string(condition.shape) + ", expected bool with an element");
    const size_t again = control(node.name + "/again", ir::Op::kBranch, {c}, 1);
    target(again, body);
    for (int v : vars) result_.live_until.emplace_back(v, static_cast<uint32_t>(again));
  }

  void conditional(ir::Node& node) {
    if (node.regions.size() != 2) fail(node, "expected two regions, then and else");
    if (node.inputs.empty()) fail(node, "has no condition");
    check_results(node, node.regions[0], "then", node.outputs);
    check_results(node, node.regions[1], "else", node.outputs);
    const size_t to_else = control(node.name + "/else", ir::Op::kBranch, {node.inputs[0]}, 0);
    nodes(node.regions[0].nodes);
    for (size_t k = 0; k < node.outputs.size(); ++k)
      copy(node.name + "/then " + std::to_string(k), node.regions[0].results[k], node.outputs[k]);
    const size_t done = control(node.name + "/done", ir::Op::kJump, {}, 0);
    target(to_else, out_.size());
    nodes(node.regions[1].nodes);
    for (size_t k = 0; k < node.outputs.size(); ++k)
      copy(node.name + "/else " + std::to_string(k), node.regions[1].results[k], node.outputs[k]);
    target(done, out_.size());
    for (int o : node.outputs) reassign(o);
  }

  ir::Graph& graph_;
  ControlFlowLayout& result_;
  std::vector<ir::Node> out_;
};

}  // namespace

ControlFlowLayout lay_out_control_flow(ir::Graph& graph) {
  ControlFlowLayout result;
  result.reassigned.assign(graph.tensors.size(), false);
  if (!graph.has_regions()) return result;
  if (graph.init_nodes > 0)
    for (size_t k = 0; k < graph.init_nodes; ++k)
      if (!graph.nodes[k].regions.empty())
        throw CompileError("node '" + graph.nodes[k].name + "': an init node holds regions, not supported");
  LayOut lay_out(graph, result);
  lay_out.nodes(graph.nodes);
  graph.nodes = lay_out.take();
  return result;
}

}  // namespace mote::link
