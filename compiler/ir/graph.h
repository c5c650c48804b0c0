// The compiler's graph IR: what every importer produces and every pass transforms.
//
// Two op vocabularies live in it, one after the other:
//   1. Source ops, named as in ONNX ("Conv", "Gemm", ...) with ONNX semantics and
//      layouts (NCHW). The ONNX importer emits these with every attribute normalized
//      (defaults filled in, auto_pad resolved to explicit pads).
//   2. Mote ops, snake_case ("conv2d", "fully_connected", ...), NHWC, one per kernel
//      family. The legalize pass turns source ops into Mote ops (choosing the layout);
//      the .tflite importer emits Mote ops directly. Lowering accepts only Mote ops.
// The Mote op set, its tensors and attributes, is specified in compiler/ir/mote_ops.md.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "mote/program_format.h"

namespace mote::ir {

using Shape = std::vector<int64_t>;

int64_t element_count(const Shape& shape);  // 1 for rank 0

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

struct Node {
  std::string name;  // source node name (for messages and reports)
  std::string op;    // "Conv" (source) or "conv2d" (Mote)
  std::vector<int> inputs;   // tensor ids; kNoTensor for an omitted optional input
  std::vector<int> outputs;  // tensor ids
  std::map<std::string, AttrValue> attrs;

  bool has(const std::string& key) const { return attrs.count(key) != 0; }
  int64_t get_int(const std::string& key, int64_t fallback) const;
  double get_float(const std::string& key, double fallback) const;
  std::vector<int64_t> get_ints(const std::string& key, std::vector<int64_t> fallback = {}) const;
  std::string get_string(const std::string& key, std::string fallback = {}) const;
};

struct Graph {
  std::string name;                 // model file stem, for reports
  std::vector<Tensor> tensors;
  std::vector<Node> nodes;          // kept in a valid execution (topological) order
  std::vector<int> inputs;          // graph inputs (non-constant), in model order
  std::vector<int> outputs;         // graph outputs, in model order

  int add_tensor(Tensor tensor);    // returns its id
  int add_constant(std::string name, DType dtype, Shape shape, std::vector<uint8_t> data);
  // Index of the node producing tensor id, or -1 (graph input, constant).
  int producer(int tensor) const;
  // Indices of nodes reading tensor id.
  std::vector<int> consumers(int tensor) const;
  bool is_graph_output(int tensor) const;
  // Drops nodes whose outputs nobody reads (and are not graph outputs) and tensors no
  // node or graph io references; renumbers tensor ids.
  void remove_dead();
};

}  // namespace mote::ir
