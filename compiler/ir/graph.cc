#include "ir/graph.h"

#include <algorithm>
#include <unordered_map>

#include "common/error.h"

namespace mote::ir {

int64_t element_count(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

std::string shape_string(const Shape& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i != 0) s += ',';
    s += std::to_string(shape[i]);
  }
  return s + "]";
}

bool is_permutation(const std::vector<int64_t>& perm, size_t rank) {
  if (perm.size() != rank) return false;
  std::vector<bool> seen(rank, false);
  for (int64_t axis : perm) {
    if (axis < 0 || static_cast<size_t>(axis) >= rank || seen[axis]) return false;
    seen[axis] = true;
  }
  return true;
}

Shape permuted(const Shape& shape, const std::vector<int64_t>& perm) {
  Shape out(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) out[i] = shape[perm[i]];
  return out;
}

std::vector<int64_t> broadcast_source(const Shape& in, const Shape& out) {
  const int64_t count = ir::element_count(out);
  std::vector<int64_t> source(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) {
    int64_t rest = i, index = 0, stride = 1;
    for (size_t k = 0; k < out.size(); ++k) {
      const size_t axis = out.size() - 1 - k;
      const int64_t coord = rest % out[axis];
      rest /= out[axis];
      if (k < in.size()) {
        const int64_t dim = in[in.size() - 1 - k];
        index += coord % dim * stride;
        stride *= dim;
      }
    }
    source[static_cast<size_t>(i)] = index;
  }
  return source;
}

const char* dtype_name(DType dtype) {
  switch (dtype) {
    case DType::kFloat32: return "float32";
    case DType::kInt8: return "int8";
    case DType::kInt16: return "int16";
    case DType::kInt32: return "int32";
    case DType::kUInt8: return "uint8";
    case DType::kInt64: return "int64";
    case DType::kBool: return "bool";
  }
  return "unknown";
}

template <typename OpT>
int64_t BasicNode<OpT>::get_int(const std::string& key, int64_t fallback) const {
  auto it = attrs.find(key);
  if (it == attrs.end()) return fallback;
  if (auto* v = std::get_if<int64_t>(&it->second)) return *v;
  if (auto* d = std::get_if<double>(&it->second)) return static_cast<int64_t>(*d);
  return fallback;
}

template <typename OpT>
double BasicNode<OpT>::get_float(const std::string& key, double fallback) const {
  auto it = attrs.find(key);
  if (it == attrs.end()) return fallback;
  if (auto* d = std::get_if<double>(&it->second)) return *d;
  if (auto* v = std::get_if<int64_t>(&it->second)) return static_cast<double>(*v);
  return fallback;
}

template <typename OpT>
std::vector<int64_t> BasicNode<OpT>::get_ints(const std::string& key, std::vector<int64_t> fallback) const {
  auto it = attrs.find(key);
  if (it == attrs.end()) return fallback;
  if (auto* v = std::get_if<std::vector<int64_t>>(&it->second)) return *v;
  return fallback;
}

template <typename OpT>
std::string BasicNode<OpT>::get_string(const std::string& key, std::string fallback) const {
  auto it = attrs.find(key);
  if (it == attrs.end()) return fallback;
  if (auto* v = std::get_if<std::string>(&it->second)) return *v;
  return fallback;
}

template <typename OpT>
int BasicGraph<OpT>::add_tensor(Tensor tensor) {
  tensors.push_back(std::move(tensor));
  return static_cast<int>(tensors.size()) - 1;
}

template <typename OpT>
int BasicGraph<OpT>::add_constant(std::string name, DType dtype, Shape shape, std::vector<uint8_t> data) {
  Tensor t;
  t.name = std::move(name);
  t.dtype = dtype;
  t.shape = std::move(shape);
  t.is_constant = true;
  t.data = std::move(data);
  return add_tensor(std::move(t));
}

template <typename OpT>
int BasicGraph<OpT>::producer(int tensor) const {
  for (size_t i = 0; i < nodes.size(); ++i) {
    const auto& outs = nodes[i].outputs;
    if (std::find(outs.begin(), outs.end(), tensor) != outs.end()) return static_cast<int>(i);
  }
  return -1;
}

template <typename OpT>
std::vector<int> BasicGraph<OpT>::consumers(int tensor) const {
  std::vector<int> result;
  for (size_t i = 0; i < nodes.size(); ++i) {
    const auto& ins = nodes[i].inputs;
    if (std::find(ins.begin(), ins.end(), tensor) != ins.end()) result.push_back(static_cast<int>(i));
  }
  return result;
}

template <typename OpT>
bool BasicGraph<OpT>::is_graph_output(int tensor) const {
  return std::find(outputs.begin(), outputs.end(), tensor) != outputs.end();
}

namespace {

enum class IdRole { kInput, kOutput, kResult };

// The one walk over a node's tensor id lists: f(ids, role) for its inputs and outputs,
// then, for each of its regions, the lists of the region's nodes (nested regions too)
// and the region's results. NodeT may be const.
template <typename NodeT, typename F>
void visit_id_lists(NodeT& node, F&& f) {
  f(node.inputs, IdRole::kInput);
  f(node.outputs, IdRole::kOutput);
  for (auto& region : node.regions) {
    for (auto& inner : region.nodes) visit_id_lists(inner, f);
    f(region.results, IdRole::kResult);
  }
}

}  // namespace

template <typename OpT>
void BasicGraph<OpT>::replace_uses(int from, int to) {
  auto replace = [&](std::vector<int>& ids) {
    for (int& t : ids)
      if (t == from) t = to;
  };
  // Every list but a node's outputs is a use (a region's results too).
  for (Node& node : nodes)
    visit_id_lists(node, [&](std::vector<int>& ids, IdRole role) {
      if (role != IdRole::kOutput) replace(ids);
    });
}

template <typename OpT>
void BasicGraph<OpT>::add_named_outputs(const std::vector<std::string>& names, const std::string& path) {
  for (const std::string& wanted : names) {
    int found = -1;
    for (size_t id = 0; id < tensors.size(); ++id) {
      if (tensors[id].name == wanted) {
        found = static_cast<int>(id);
        break;
      }
    }
    if (found < 0) throw CompileError(path + ": extra output '" + wanted + "': no tensor has that name");
    if (producer(found) < 0) {
      throw CompileError(path + ": extra output '" + wanted +
                         "' is a constant or graph input, not an op's result");
    }
    outputs.push_back(found);
  }
}

template <typename OpT>
void BasicGraph<OpT>::remove_dead() {
  // Mark live tensors backwards from the graph outputs.
  std::vector<bool> live_tensor(tensors.size(), false);
  for (int t : outputs) live_tensor[t] = true;
  std::vector<bool> live_node(nodes.size(), false);
  for (size_t k = nodes.size(); k-- > 0;) {
    const Node& n = nodes[k];
    bool needed = writes_state(n);
    for (int t : n.outputs) needed = needed || live_tensor[t];
    if (!needed) continue;
    live_node[k] = true;
    visit_id_lists(n, [&](const std::vector<int>& ids, IdRole) {  // a kept region stays whole
      for (int t : ids)
        if (t != kNoTensor) live_tensor[t] = true;
    });
  }
  for (int t : inputs) live_tensor[t] = true;

  std::vector<Node> kept_nodes;
  size_t kept_init = 0;
  for (size_t k = 0; k < nodes.size(); ++k) {
    if (!live_node[k]) continue;
    kept_nodes.push_back(std::move(nodes[k]));
    if (k < init_nodes) ++kept_init;
  }
  init_nodes = kept_init;

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
  for (Node& node : kept_nodes) visit_id_lists(node, [&](std::vector<int>& ids, IdRole) { map_ids(ids); });
  map_ids(inputs);
  map_ids(outputs);
  nodes = std::move(kept_nodes);
  tensors = std::move(kept_tensors);
}

template <typename OpT>
void BasicGraph<OpT>::erase_node(size_t k) {
  nodes.erase(nodes.begin() + static_cast<std::ptrdiff_t>(k));
  if (k < init_nodes) --init_nodes;
}

namespace {

// Calls f(id, written) for each persistent tensor `node` reads or writes, in its regions'
// nodes too.
template <typename Node, typename F>
void for_each_state(const std::vector<Tensor>& tensors, const Node& node, F&& f) {
  visit_id_lists(node, [&](const std::vector<int>& ids, IdRole role) {
    if (role == IdRole::kResult) return;
    for (int t : ids)
      if (t != kNoTensor && tensors[static_cast<size_t>(t)].is_persistent) f(t, role == IdRole::kOutput);
  });
}

}  // namespace

template <typename OpT>
bool BasicGraph<OpT>::writes_state(const Node& node) const {
  if (node.outputs.empty() && node.regions.empty()) return true;  // there for its effect (an NPU op's writes)
  bool writes = false;
  for_each_state(tensors, node, [&](int, bool written) { writes = writes || written; });
  return writes;
}

template <typename OpT>
bool BasicGraph<OpT>::has_regions() const {
  for (const Node& node : nodes)
    if (!node.regions.empty()) return true;
  return false;
}

template <typename OpT>
std::vector<std::vector<size_t>> BasicGraph<OpT>::order_edges() const {
  std::vector<std::vector<size_t>> after(nodes.size());
  std::map<int, size_t> last_touch;  // persistent tensor -> last node reading or writing it
  for (size_t k = 0; k < nodes.size(); ++k) {
    if (k >= init_nodes)
      for (size_t i = 0; i < init_nodes; ++i) after[k].push_back(i);
    for_each_state(tensors, nodes[k], [&](int t, bool) {
      const auto found = last_touch.find(t);
      const bool listed = found != last_touch.end() &&
                          std::find(after[k].begin(), after[k].end(), found->second) != after[k].end();
      if (found != last_touch.end() && found->second != k && !listed) after[k].push_back(found->second);
      last_touch[t] = k;
    });
  }
  return after;
}

template struct BasicNode<Op>;
template struct BasicNode<std::string>;  // the ONNX importer's source graph
template struct BasicGraph<Op>;
template struct BasicGraph<std::string>;

}  // namespace mote::ir
