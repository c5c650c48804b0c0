// Internal to compiler/lower/: the per-node checking helpers shared by the float lowering
// (lower.cc) and the quantized lowering (lower_quantized.cc). Not part of the compiler's API.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "common/error.h"
#include "ir/graph.h"
#include "lower/lower.h"
#include "window_geometry.h"

namespace mote::lower {


inline constexpr int64_t kMaxI32 = std::numeric_limits<int32_t>::max();

inline std::string shape_string(const ir::Shape& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i != 0) s += ',';
    s += std::to_string(shape[i]);
  }
  s += ']';
  return s;
}

inline const char* dtype_string(DType dtype) {
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


// ---------------------------------------------------------------------------------------
// Per-node checks
// ---------------------------------------------------------------------------------------

class NodeLowering {
 public:
  NodeLowering(const ir::Graph& graph, const ir::Node& node) : graph_(graph), node_(node) {}

  [[noreturn]] void fail(const std::string& message) const {
    throw CompileError("node '" + node_.name + "' (" + ir::op_name(node_.op) + "): " + message);
  }

  void expect_io(size_t min_inputs, size_t max_inputs, size_t outputs) const {
    const size_t n = node_.inputs.size();
    if (n < min_inputs || n > max_inputs) {
      fail("has " + std::to_string(n) + " inputs, expected " +
           (min_inputs == max_inputs ? std::to_string(min_inputs)
                                     : std::to_string(min_inputs) + ".." + std::to_string(max_inputs)));
    }
    if (node_.outputs.size() != outputs) {
      fail("has " + std::to_string(node_.outputs.size()) + " outputs, expected " +
           std::to_string(outputs));
    }
    for (size_t i = 0; i < min_inputs; ++i)
      if (node_.inputs[i] == ir::kNoTensor) fail("input " + std::to_string(i) + " is missing");
    for (size_t i = 0; i < outputs; ++i)
      if (node_.outputs[i] == ir::kNoTensor) fail("output " + std::to_string(i) + " is missing");
  }

  bool has_input(size_t i) const { return i < node_.inputs.size() && node_.inputs[i] != ir::kNoTensor; }
  const ir::Tensor& input(size_t i) const { return tensor(node_.inputs[i]); }
  const ir::Tensor& output(size_t i) const { return tensor(node_.outputs[i]); }

  const ir::Tensor& tensor(int id) const {
    if (id < 0 || static_cast<size_t>(id) >= graph_.tensors.size())
      fail("refers to tensor id " + std::to_string(id) + " which does not exist");
    return graph_.tensors[id];
  }

  std::string label(const ir::Tensor& t, const char* role) const {
    return std::string(role) + " '" + t.name + "'";
  }

  void expect_rank(const ir::Tensor& t, const char* role, size_t rank) const {
    if (t.shape.size() != rank) {
      fail(label(t, role) + " has shape " + shape_string(t.shape) + " (rank " +
           std::to_string(t.shape.size()) + "), expected rank " + std::to_string(rank));
    }
  }
  void expect_min_rank(const ir::Tensor& t, const char* role, size_t rank) const {
    if (t.shape.size() < rank) {
      fail(label(t, role) + " has shape " + shape_string(t.shape) + ", expected rank >= " +
           std::to_string(rank));
    }
  }
  void expect_shape(const ir::Tensor& t, const char* role, const ir::Shape& expected) const {
    if (t.shape != expected) {
      fail(label(t, role) + " has shape " + shape_string(t.shape) + ", expected " +
           shape_string(expected));
    }
  }
  void expect_dtype(const ir::Tensor& t, const char* role, DType dtype) const {
    if (t.dtype != dtype) {
      fail(label(t, role) + " has dtype " + dtype_string(t.dtype) + ", expected " +
           dtype_string(dtype));
    }
  }

  // An int list attribute of exactly `size` entries (or `fallback` when absent), each >= min.
  std::vector<int32_t> ints(const std::string& key, size_t size, std::vector<int64_t> fallback,
                            int64_t min) const {
    if (!node_.has(key) && fallback.empty()) fail("attribute '" + key + "' is required");
    const std::vector<int64_t> values = node_.get_ints(key, fallback);
    if (values.size() != size) {
      fail("attribute '" + key + "' has " + std::to_string(values.size()) + " values, expected " +
           std::to_string(size));
    }
    std::vector<int32_t> result;
    for (int64_t v : values) {
      if (v < min || v > kMaxI32) {
        fail("attribute '" + key + "' value " + std::to_string(v) + " is out of range (expected >= " +
             std::to_string(min) + ")");
      }
      result.push_back(static_cast<int32_t>(v));
    }
    return result;
  }

  // The window attributes of a convolution or pooling node (mote_ops.md): strides and
  // dilations (default 1, each >= 1), pads [top, left, bottom, right] (default 0, >= 0).
  WindowGeometry window() const {
    const auto strides = ints("strides", 2, {1, 1}, 1);
    const auto dilations = ints("dilations", 2, {1, 1}, 1);
    const auto pads = ints("pads", 4, {0, 0, 0, 0}, 0);
    return {strides[0], strides[1], dilations[0], dilations[1], pads[0], pads[1], pads[2], pads[3]};
  }

  void act(float* act_min, float* act_max) const {
    const double lo = node_.get_float("act_min", -std::numeric_limits<double>::infinity());
    const double hi = node_.get_float("act_max", std::numeric_limits<double>::infinity());
    if (std::isnan(lo) || std::isnan(hi) || lo > hi) {
      fail("fused activation range [" + std::to_string(lo) + ", " + std::to_string(hi) +
           "] is empty or NaN");
    }
    *act_min = static_cast<float>(lo);
    *act_max = static_cast<float>(hi);
  }

  const ir::Node& node() const { return node_; }

 private:
  const ir::Graph& graph_;
  const ir::Node& node_;
};

// Broadcast of two shapes (numpy rules, right-aligned); false when they do not broadcast.
inline bool broadcast_shapes(const ir::Shape& a, const ir::Shape& b, ir::Shape* out) {
  const size_t rank = std::max(a.size(), b.size());
  out->assign(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) return false;
    (*out)[i] = da == 1 ? db : da;
  }
  return true;
}


// lower_quantized.cc: nodes on quantized tensors (int8/int16 activations, quantize,
// dequantize, lstm) go to the integer kernels. transpose stays on the dtype-agnostic path.
bool is_quantized_node(const ir::Graph& graph, const ir::Node& node);
LoweredOp lower_quantized_node(const NodeLowering& l, Target target);
// strided_slice of any dtype (kernel strided_slice).
LoweredOp lower_strided_slice(const NodeLowering& l);

}  // namespace mote::lower
