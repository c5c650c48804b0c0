// Hand-built Mote graphs for the compiler tests: float32 tensors, constants and nodes
// with one output each.
#pragma once

#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "ir/graph.h"

namespace mote {

inline std::vector<uint8_t> float_bytes(const std::vector<float>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(float));
  if (!values.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

struct GraphBuilder {
  ir::Graph graph;

  int input(const std::string& name, ir::Shape shape) {
    const int id = tensor(name, std::move(shape));
    graph.inputs.push_back(id);
    return id;
  }
  int tensor(const std::string& name, ir::Shape shape) {
    ir::Tensor t;
    t.name = name;
    t.shape = std::move(shape);
    return graph.add_tensor(std::move(t));
  }
  int constant(const std::string& name, ir::Shape shape, const std::vector<float>& values) {
    return graph.add_constant(name, DType::kFloat32, std::move(shape), float_bytes(values));
  }
  int node(ir::Op op, const std::string& name, std::vector<int> inputs, ir::Shape out_shape,
           std::map<std::string, ir::AttrValue> attrs = {}) {
    const int out = tensor(name + ":0", std::move(out_shape));
    ir::Node n;
    n.name = name;
    n.op = op;
    n.inputs = std::move(inputs);
    n.outputs = {out};
    n.attrs = std::move(attrs);
    graph.nodes.push_back(std::move(n));
    return out;
  }
  int clamp(const std::string& name, int x, const ir::Shape& shape, double lo, double hi) {
    return node(ir::Op::kClamp, name, {x}, shape, {{"min", lo}, {"max", hi}});
  }
  void output(int id) { graph.outputs.push_back(id); }
};

}  // namespace mote
