#include "ir/graph.h"

#include <algorithm>
#include <unordered_map>

namespace mote::ir {

int64_t element_count(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

int64_t Node::get_int(const std::string& key, int64_t fallback) const {
  auto it = attrs.find(key);
  if (it == attrs.end()) return fallback;
  if (auto* v = std::get_if<int64_t>(&it->second)) return *v;
  if (auto* d = std::get_if<double>(&it->second)) return static_cast<int64_t>(*d);
  return fallback;
}

double Node::get_float(const std::string& key, double fallback) const {
  auto it = attrs.find(key);
  if (it == attrs.end()) return fallback;
  if (auto* d = std::get_if<double>(&it->second)) return *d;
  if (auto* v = std::get_if<int64_t>(&it->second)) return static_cast<double>(*v);
  return fallback;
}

std::vector<int64_t> Node::get_ints(const std::string& key, std::vector<int64_t> fallback) const {
  auto it = attrs.find(key);
  if (it == attrs.end()) return fallback;
  if (auto* v = std::get_if<std::vector<int64_t>>(&it->second)) return *v;
  return fallback;
}

std::string Node::get_string(const std::string& key, std::string fallback) const {
  auto it = attrs.find(key);
  if (it == attrs.end()) return fallback;
  if (auto* v = std::get_if<std::string>(&it->second)) return *v;
  return fallback;
}

int Graph::add_tensor(Tensor tensor) {
  tensors.push_back(std::move(tensor));
  return static_cast<int>(tensors.size()) - 1;
}

int Graph::add_constant(std::string name, DType dtype, Shape shape, std::vector<uint8_t> data) {
  Tensor t;
  t.name = std::move(name);
  t.dtype = dtype;
  t.shape = std::move(shape);
  t.is_constant = true;
  t.data = std::move(data);
  return add_tensor(std::move(t));
}

int Graph::producer(int tensor) const {
  for (size_t i = 0; i < nodes.size(); ++i) {
    const auto& outs = nodes[i].outputs;
    if (std::find(outs.begin(), outs.end(), tensor) != outs.end()) return static_cast<int>(i);
  }
  return -1;
}

std::vector<int> Graph::consumers(int tensor) const {
  std::vector<int> result;
  for (size_t i = 0; i < nodes.size(); ++i) {
    const auto& ins = nodes[i].inputs;
    if (std::find(ins.begin(), ins.end(), tensor) != ins.end()) result.push_back(static_cast<int>(i));
  }
  return result;
}

bool Graph::is_graph_output(int tensor) const {
  return std::find(outputs.begin(), outputs.end(), tensor) != outputs.end();
}

void Graph::remove_dead() {
  // Mark live tensors backwards from the graph outputs.
  std::vector<bool> live_tensor(tensors.size(), false);
  for (int t : outputs) live_tensor[t] = true;
  std::vector<bool> live_node(nodes.size(), false);
  for (size_t k = nodes.size(); k-- > 0;) {
    const Node& n = nodes[k];
    bool needed = false;
    for (int t : n.outputs) needed = needed || live_tensor[t];
    if (!needed) continue;
    live_node[k] = true;
    for (int t : n.inputs)
      if (t != kNoTensor) live_tensor[t] = true;
    for (int t : n.outputs) live_tensor[t] = true;
  }
  for (int t : inputs) live_tensor[t] = true;

  std::vector<Node> kept_nodes;
  for (size_t k = 0; k < nodes.size(); ++k)
    if (live_node[k]) kept_nodes.push_back(std::move(nodes[k]));

  std::vector<int> remap(tensors.size(), kNoTensor);
  std::vector<Tensor> kept_tensors;
  for (size_t t = 0; t < tensors.size(); ++t) {
    if (!live_tensor[t]) continue;
    remap[t] = static_cast<int>(kept_tensors.size());
    kept_tensors.push_back(std::move(tensors[t]));
  }
  auto map_ids = [&](std::vector<int>& ids) {
    for (int& id : ids)
      if (id != kNoTensor) id = remap[id];
  };
  for (Node& n : kept_nodes) {
    map_ids(n.inputs);
    map_ids(n.outputs);
  }
  map_ids(inputs);
  map_ids(outputs);
  nodes = std::move(kept_nodes);
  tensors = std::move(kept_tensors);
}

}  // namespace mote::ir
