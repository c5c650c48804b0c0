// The compiler's graph IR: what the importers produce and every pass transforms.
//
// ir::Graph is a graph of Mote ops (ir::Op, compiler/ir/ops.h): snake_case names
// ("conv2d", "fully_connected", ...), NHWC, one per kernel family, specified with their
// tensors and attributes in compiler/ir/mote_ops.md. It is the only vocabulary the
// Mote-level passes, quantization and lowering see; they dispatch on it with exhaustive
// switches. The .tflite importer emits Mote ops directly.
//
// The ONNX importer first reads a file into a graph of the same shape whose ops are
// ONNX's own names and semantics ("Conv", NCHW): onnx_import::SourceGraph, a
// BasicGraph<std::string> (compiler/import/onnx/source_graph.h). Its source-level stages
// run on that graph and legalization turns it into an ir::Graph, so ONNX op names never
// leave compiler/import/onnx/. Both graph types share the tensors, attributes and graph
// helpers below; they differ only in the type of Node::op.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "ir/ops.h"
#include "mote/program_format.h"

namespace mote::ir {

using Shape = std::vector<int64_t>;

int64_t element_count(const Shape& shape);  // 1 for rank 0
std::string shape_string(const Shape& shape);  // "[1,3,224,224]", for messages
// A transpose's perm: true when it holds each axis 0..rank-1 once (callers word the error).
bool is_permutation(const std::vector<int64_t>& perm, size_t rank);
// The shape `shape` transposed by `perm` (a permutation of its axes): shape[perm[i]].
Shape permuted(const Shape& shape, const std::vector<int64_t>& perm);
// For each element of `out` (row-major), the row-major index of the element of `in` it
// reads when `in` is numpy-broadcast to `out` (in's dims right-aligned, 1s repeated) or
// tiled over it (numpy.tile: in's dims divide out's): each coordinate modulo in's dim.
std::vector<int64_t> broadcast_source(const Shape& in, const Shape& out);
const char* dtype_name(DType dtype);           // "float32", "int64", ..., for messages

struct QuantParams {
  std::vector<float> scales;       // empty: not quantized
  std::vector<int32_t> zero_points;
  int32_t axis = -1;               // per-channel axis, -1 for per-tensor
  bool empty() const { return scales.empty(); }
};

struct Tensor {
  std::string name;
  DType dtype = DType::kFloat32;
  Shape shape;                 // static; importers refuse symbolic or unknown dims
  bool is_constant = false;
  std::vector<uint8_t> data;   // constant payload, row-major, little-endian
  QuantParams quant;
  // State kept between runs (a TFLite resource variable, or a variable tensor: SVDF and
  // LSTM state): nodes read it and copy nodes write it, in the graph's node order
  // (order_edges()); it has no single producer, lives through the whole schedule and never
  // shares bytes (program TensorDesc kTensorPersistent). Its zero point's low byte (0
  // without quantization) is what its fill_bytes init node (passes::fill_state) writes
  // on the first run after load() or reset_state().
  bool is_persistent = false;
  // Vela's OfflineMemoryAllocation (an Ethos-U model): the byte offset this arena tensor
  // must have from the NPU area's base, or -1 for a tensor the compiler places. Such a
  // tensor needs no producer (an NPU op's scratch), keeps its own bytes (no alias, no
  // in-place write) and keeps the model's op order (Vela's plan assumes it); the link
  // stage gives every one of them its offset in one block of the arena (link.h).
  int64_t offline_offset = -1;

  int64_t elements() const { return element_count(shape); }
  int64_t bytes() const { return elements() * dtype_size(dtype); }
  template <typename T>
  const T* as() const { return reinterpret_cast<const T*>(data.data()); }
  template <typename T>
  T* as_mut() { return reinterpret_cast<T*>(data.data()); }
};

using AttrValue = std::variant<int64_t, double, std::string, std::vector<int64_t>,
                               std::vector<double>>;

inline constexpr int kNoTensor = -1;  // an omitted optional input

// One op application. OpT is ir::Op for Mote graphs, std::string (ONNX op_type) for the
// ONNX importer's source graph.
template <typename OpT>
struct BasicNode {
  std::string name;  // source node name (for messages and reports)
  OpT op{};
  std::vector<int> inputs;   // tensor ids; kNoTensor for an omitted optional input
  std::vector<int> outputs;  // tensor ids
  std::map<std::string, AttrValue> attrs;
  // Control flow (ops `while` and `if`, compiler/ir/mote_ops.md): the nodes each region
  // runs, in order, and the tensors it gives. Region nodes read only constants, the
  // node's own tensors as that op states, and the outputs of earlier nodes of the same
  // region (or of its enclosing regions); the passes see the node as one op with its
  // inputs and outputs, and the link lays the regions out with jumps (link/control_flow.h).
  struct Region {
    std::vector<BasicNode> nodes;
    std::vector<int> results;
  };
  std::vector<Region> regions;

  bool has(const std::string& key) const { return attrs.count(key) != 0; }
  int64_t get_int(const std::string& key, int64_t fallback) const;
  double get_float(const std::string& key, double fallback) const;
  std::vector<int64_t> get_ints(const std::string& key, std::vector<int64_t> fallback = {}) const;
  std::string get_string(const std::string& key, std::string fallback = {}) const;
};

template <typename OpT>
struct BasicGraph {
  using Node = BasicNode<OpT>;

  std::string name;                 // model file stem, for reports
  std::string file;                 // the file read (messages name it); empty: built in code
  std::vector<std::string> notes;   // what import decided that the compile report states
  std::vector<Tensor> tensors;
  std::vector<Node> nodes;          // kept in a valid execution (topological) order
  std::vector<int> inputs;          // graph inputs (non-constant), in model order
  std::vector<int> outputs;         // graph outputs, in model order
  // nodes[0, init_nodes) run once, on the first run (TFLite's CALL_ONCE init subgraph);
  // they touch only their own tensors and persistent ones, and stay ahead of the rest.
  size_t init_nodes = 0;

  int add_tensor(Tensor tensor);    // returns its id
  int add_constant(std::string name, DType dtype, Shape shape, std::vector<uint8_t> data);
  // Index of the node producing tensor id, or -1 (graph input, constant).
  int producer(int tensor) const;
  // Indices of nodes reading tensor id.
  std::vector<int> consumers(int tensor) const;
  bool is_graph_output(int tensor) const;
  // Replaces every node input `from` by `to`, in regions too (graph outputs are not
  // touched).
  void replace_uses(int from, int to);
  // Appends the tensors named `names`, each an op's result, to the outputs (debugging and
  // golden checks of intermediates: a run then returns them, and no pass drops them).
  // Throws CompileError "<path>: extra output 'NAME': ..." for any other name.
  void add_named_outputs(const std::vector<std::string>& names, const std::string& path);
  // Drops nodes whose outputs nobody reads (and are not graph outputs) and tensors no
  // node (region nodes included) or graph io references; renumbers tensor ids. A node writing a persistent
  // tensor has an effect beyond its outputs and is kept.
  void remove_dead();
  // Removes node k (keeps init_nodes counting the init nodes).
  void erase_node(size_t k);
  // The order the data edges do not show, per node: the earlier nodes (indices into
  // nodes) it must run after. Every node after the init nodes follows each init node,
  // and the nodes reading or writing one persistent tensor (a `while` or an `if`: in its
  // regions) keep their order in `nodes` (each follows the previous one). A pass that reorders nodes keeps these with the
  // data edges; one that only removes or replaces nodes keeps them by keeping the order.
  std::vector<std::vector<size_t>> order_edges() const;
  // An output is persistent (or a region node's), or the node has no outputs: an Ethos-U
  // op writing into tensors of the NPU area that earlier ops produced (Vela's in-place
  // padding and concatenation), kept for that effect.
  bool writes_state(const Node& node) const;
  bool has_regions() const;                    // some node is a `while` or an `if`
};

// The Mote-op graph.
using Node = BasicNode<Op>;
using Graph = BasicGraph<Op>;

// Both instantiations live in graph.cc.
extern template struct BasicNode<Op>;
extern template struct BasicNode<std::string>;
extern template struct BasicGraph<Op>;
extern template struct BasicGraph<std::string>;

}  // namespace mote::ir
