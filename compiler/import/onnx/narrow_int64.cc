// Integer data a model computes in int64 -> int32. ONNX exports every integer result as
// int64 ((mask > 0).sum(1), x.argmax(1), a length counted from comparisons), and Mote's
// kernels have no int64 arithmetic; int32 has add, sub, mul, div, floor_mod, maximum,
// minimum, sum, compare, select and the data movement ops.
//
// One walk in execution order gives a computed int64 tensor a range [lo, hi] when its
// producer is one of these and each of its int64 value inputs has a range (a constant:
// its values):
//   Cast to int64     the source dtype's range (bool [0, 1], uint8, int8, int16, int32);
//                     float32: the int32 range (a value beyond it saturates there, as the
//                     cast kernel's float -> int32, where ONNX would keep it)
//   ArgMax, ArgMin    [0, axis size - 1]; TopK's indices likewise
//   Add, Sub, Mul     interval arithmetic; Div (truncating) |a|'s bound; Mod the divisor's
//   ReduceSum         the reduced element count times the bounds
//   Max, Min          elementwise max / min of the bounds
//   Where, Concat, Reshape, Flatten, Squeeze, Unsqueeze, Transpose, Slice, Gather, Expand,
//   Tile, Split       the union of the int64 value inputs' ranges (data movement)
// A tensor whose range fits int32 becomes int32 ("narrowed"): its producer then computes
// in int32 and reads its int64 constant value inputs as int32 copies (they fit, being
// inside the range). Comparisons (Equal, Less, LessOrEqual, Greater, GreaterOrEqual)
// whose int64 inputs are all narrowed or constants that fit compare in int32.
//
// A reader that takes int32 wherever it takes int64 (a Cast's input, Gather's indices) or
// is itself narrowed reads the int32 tensor. Any other reader, and a graph output, reads
// it cast back to int64 (a graph output keeps its name and dtype), except that a Cast,
// ArgMax, ArgMin or TopK result nothing reads in int32 stays int64: their kernels write it.
// Where no range fits, nothing changes and legalize refuses the int64 op as before.
// Cost: one pass over the nodes, plus reading the int64 constants they use.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

#include "import/onnx/onnx_importer.h"
#include "import/onnx/source_eval.h"

namespace mote::onnx_import {
namespace {

// Closed range of integer values, in doubles: exact below 2^53 and monotonic beyond, so
// the int32 test at +-2^31 is exact.
struct Range {
  double lo = 0, hi = 0;
};

Range hull(Range a, Range b) { return {std::min(a.lo, b.lo), std::max(a.hi, b.hi)}; }

bool fits_int32(Range r) {
  return r.lo >= std::numeric_limits<int32_t>::min() && r.hi <= std::numeric_limits<int32_t>::max();
}

constexpr Range kInt32Range = {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()};

// The range of a Cast's source values of `dtype`.
std::optional<Range> source_range(DType dtype) {
  switch (dtype) {
    case DType::kBool: return Range{0, 1};
    case DType::kUInt8: return Range{0, 255};
    case DType::kInt8: return Range{-128, 127};
    case DType::kInt16: return Range{-32768, 32767};
    case DType::kInt32:
    case DType::kFloat32: return kInt32Range;
    default: return std::nullopt;
  }
}

bool is_comparison(const std::string& op) {
  return op == "Equal" || op == "Less" || op == "LessOrEqual" || op == "Greater" || op == "GreaterOrEqual";
}

// The inputs of `node` that carry its integer values (not shapes, axes or indices): the
// ones narrowing converts. Empty for ops narrowing does not know.
std::vector<size_t> value_inputs(const SourceNode& node) {
  const std::string& op = node.op;
  if (op == "Add" || op == "Sub" || op == "Mul" || op == "Div" || op == "Mod" || op == "Max" || op == "Min" ||
      op == "Concat" || is_comparison(op)) {
    std::vector<size_t> all(node.inputs.size());
    for (size_t k = 0; k < all.size(); ++k) all[k] = k;
    return all;
  }
  if (op == "Where") return {1, 2};
  if (op == "ReduceSum" || op == "Reshape" || op == "Flatten" || op == "Squeeze" || op == "Unsqueeze" ||
      op == "Transpose" || op == "Slice" || op == "Gather" || op == "Expand" || op == "Tile" || op == "Split")
    return {0};
  return {};
}

// True when `node` reads input `k` as int32 as readily as int64 without computing on it.
bool takes_either(const SourceNode& node, size_t k) {
  return (node.op == "Cast" && k == 0) || (node.op == "Gather" && k == 1);
}

class Narrowing {
 public:
  explicit Narrowing(SourceGraph& graph) : g_(graph), ranges_(graph.tensors.size()) {}

  void run() {
    std::vector<bool> narrowed_node(g_.nodes.size(), false);
    for (size_t k = 0; k < g_.nodes.size(); ++k) narrowed_node[k] = visit(g_.nodes[k]);
    keep_native_int64(narrowed_node);
    apply(narrowed_node);
  }

 private:
  bool computed_int64(int t) const {
    return t != ir::kNoTensor && g_.tensors[t].dtype == DType::kInt64 && !g_.tensors[t].is_constant;
  }

  // The range of int64 input `t`: narrowed already, or a constant's values.
  std::optional<Range> input_range(int t) const {
    if (ranges_[t]) return ranges_[t];
    const ir::Tensor& tensor = g_.tensors[t];
    if (!tensor.is_constant || tensor.elements() == 0) return std::nullopt;
    const std::vector<int64_t> v = read_ints(tensor);
    const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    const Range r{static_cast<double>(*lo), static_cast<double>(*hi)};
    if (!fits_int32(r)) return std::nullopt;
    return r;
  }

  // Decides whether `node` computes in int32 and records its outputs' ranges.
  bool visit(const SourceNode& node) {
    const std::string& op = node.op;
    if (op == "Cast") {
      const int out = node.outputs[0];
      if (!computed_int64(out)) return false;
      const int in = node.inputs[0];
      const std::optional<Range> r = g_.tensors[in].dtype == DType::kInt64 ? ranges_[in] : source_range(g_.tensors[in].dtype);
      return narrow_to(out, r);
    }
    if (op == "ArgMax" || op == "ArgMin" || op == "TopK") {
      const int out = node.outputs[op == "TopK" ? 1 : 0];
      if (!computed_int64(out)) return false;
      const int64_t dim = g_.tensors[node.inputs[0]].shape.at(node.get_int("axis", 0));
      return narrow_to(out, Range{0, static_cast<double>(std::max<int64_t>(dim - 1, 0))});
    }
    const std::vector<size_t> slots = value_inputs(node);
    if (slots.empty()) return false;
    std::vector<Range> in;
    bool any_narrowed = false;
    for (size_t k : slots) {
      const int t = node.inputs[k];
      if (t == ir::kNoTensor || g_.tensors[t].dtype != DType::kInt64) return false;
      const std::optional<Range> r = input_range(t);
      if (!r) return false;
      any_narrowed = any_narrowed || ranges_[t].has_value();
      in.push_back(*r);
    }
    if (!any_narrowed) return false;
    if (is_comparison(op)) return true;
    const std::optional<Range> out = result_range(node, in);
    if (!out || !fits_int32(*out)) return false;
    for (int t : node.outputs)
      if (!computed_int64(t)) return false;
    for (int t : node.outputs) ranges_[t] = out;
    return true;
  }

  bool narrow_to(int t, std::optional<Range> r) {
    if (!r || !fits_int32(*r)) return false;
    ranges_[t] = r;
    return true;
  }

  // The output range of an arithmetic or data movement op from its value inputs' ranges.
  std::optional<Range> result_range(const SourceNode& node, const std::vector<Range>& in) const {
    const std::string& op = node.op;
    if (op == "Add") return Range{in[0].lo + in[1].lo, in[0].hi + in[1].hi};
    if (op == "Sub") return Range{in[0].lo - in[1].hi, in[0].hi - in[1].lo};
    if (op == "Mul") {
      const double p[] = {in[0].lo * in[1].lo, in[0].lo * in[1].hi, in[0].hi * in[1].lo, in[0].hi * in[1].hi};
      return Range{*std::min_element(std::begin(p), std::end(p)), *std::max_element(std::begin(p), std::end(p))};
    }
    if (op == "Div") {
      const double m = std::max(std::abs(in[0].lo), std::abs(in[0].hi));
      return Range{-m, m};
    }
    if (op == "Mod") {
      const double m = std::max(std::abs(in[1].lo), std::abs(in[1].hi));
      return Range{-m, m};
    }
    if (op == "Max" || op == "Min") {
      Range r = in[0];
      for (const Range& x : in) r = op == "Max" ? Range{std::max(r.lo, x.lo), std::max(r.hi, x.hi)}
                                                : Range{std::min(r.lo, x.lo), std::min(r.hi, x.hi)};
      return r;
    }
    if (op == "ReduceSum") {
      if (node.get_int("noop", 0) != 0) return in[0];
      const ir::Shape& shape = g_.tensors[node.inputs[0]].shape;
      std::vector<int64_t> axes = node.get_ints("axes");
      if (axes.empty())
        for (size_t i = 0; i < shape.size(); ++i) axes.push_back(static_cast<int64_t>(i));
      double count = 1;
      for (int64_t a : axes) count *= static_cast<double>(shape.at(a));
      return Range{std::min(0.0, count * in[0].lo), std::max(0.0, count * in[0].hi)};
    }
    Range r = in[0];
    for (const Range& x : in) r = hull(r, x);
    return r;
  }

  // True when node `reader` reads its input `slot` in int32 once that input is narrowed.
  bool reads_int32(const std::vector<bool>& narrowed_node, size_t reader, size_t slot) const {
    if (takes_either(g_.nodes[reader], slot)) return true;
    if (!narrowed_node[reader]) return false;
    const std::vector<size_t> slots = value_inputs(g_.nodes[reader]);
    return std::find(slots.begin(), slots.end(), slot) != slots.end();
  }

  // A Cast, ArgMax, ArgMin or TopK result no reader takes in int32 stays int64 (its kernel
  // writes int64; narrowing it would only add a cast back).
  void keep_native_int64(std::vector<bool>& narrowed_node) {
    for (size_t k = 0; k < g_.nodes.size(); ++k) {
      const SourceNode& node = g_.nodes[k];
      if (!narrowed_node[k] || (node.op != "Cast" && node.op != "ArgMax" && node.op != "ArgMin" && node.op != "TopK"))
        continue;
      const int t = node.outputs[node.op == "TopK" ? 1 : 0];
      bool any_int32_reader = false;
      for (size_t r = 0; r < g_.nodes.size(); ++r)
        for (size_t s = 0; s < g_.nodes[r].inputs.size(); ++s)
          if (g_.nodes[r].inputs[s] == t && reads_int32(narrowed_node, r, s)) any_int32_reader = true;
      if (any_int32_reader) continue;
      ranges_[t].reset();
      narrowed_node[k] = false;
    }
  }

  int int32_constant(int t) {
    if (auto it = int32_copies_.find(t); it != int32_copies_.end()) return it->second;
    const ir::Tensor& c = g_.tensors[t];
    const int id = g_.add_constant(c.name + "_int32", DType::kInt32, c.shape, encode_ints(DType::kInt32, read_ints(c)));
    int32_copies_[t] = id;
    return id;
  }

  // Rewrites the graph: narrowed tensors int32, narrowed nodes' int64 constants as int32
  // copies, casts back to int64 where a reader or a graph output needs int64.
  void apply(const std::vector<bool>& narrowed_node) {
    const size_t tensor_count = g_.tensors.size();
    // Per narrowed tensor: does something need it in int64?
    std::vector<bool> needs_int64(tensor_count, false);
    for (int t : g_.outputs)
      if (ranges_[t]) needs_int64[t] = true;
    for (size_t r = 0; r < g_.nodes.size(); ++r)
      for (size_t s = 0; s < g_.nodes[r].inputs.size(); ++s) {
        const int t = g_.nodes[r].inputs[s];
        if (t != ir::kNoTensor && ranges_[t] && !reads_int32(narrowed_node, r, s)) needs_int64[t] = true;
      }
    // A narrowed tensor needing int64 keeps its id as the int64 tensor (graph outputs keep
    // their name); the producer writes a new int32 tensor that int32 readers read.
    std::vector<int> int32_id(tensor_count, ir::kNoTensor);
    for (size_t t = 0; t < tensor_count; ++t) {
      if (!ranges_[t]) continue;
      if (!needs_int64[t]) {
        g_.tensors[t].dtype = DType::kInt32;
        int32_id[t] = static_cast<int>(t);
        continue;
      }
      ir::Tensor copy = g_.tensors[t];
      copy.name += "_int32";
      copy.dtype = DType::kInt32;
      int32_id[t] = g_.add_tensor(std::move(copy));
    }
    std::vector<SourceNode> nodes;
    for (size_t k = 0; k < g_.nodes.size(); ++k) {
      SourceNode node = std::move(g_.nodes[k]);
      for (size_t s = 0; s < node.inputs.size(); ++s) {
        const int t = node.inputs[s];
        if (t == ir::kNoTensor) continue;
        if (ranges_[t] && reads_int32(narrowed_node, k, s)) {
          node.inputs[s] = int32_id[t];
        } else if (narrowed_node[k] && g_.tensors[t].is_constant && g_.tensors[t].dtype == DType::kInt64) {
          const std::vector<size_t> slots = value_inputs(node);
          if (std::find(slots.begin(), slots.end(), s) != slots.end()) node.inputs[s] = int32_constant(t);
        }
      }
      std::vector<int> cast_back;
      for (int& t : node.outputs)
        if (ranges_[t]) {
          if (needs_int64[t]) cast_back.push_back(t);
          t = int32_id[t];
        }
      if (node.op == "Cast" && narrowed_node[k]) node.attrs["to"] = static_cast<int64_t>(DType::kInt32);
      nodes.push_back(std::move(node));
      for (int t : cast_back) {
        SourceNode cast;
        cast.name = g_.tensors[t].name + "/to_int64";
        cast.op = "Cast";
        cast.inputs = {int32_id[t]};
        cast.outputs = {t};
        cast.attrs["to"] = static_cast<int64_t>(DType::kInt64);
        nodes.push_back(std::move(cast));
      }
    }
    g_.nodes = std::move(nodes);
    g_.remove_dead();
  }

  SourceGraph& g_;
  std::vector<std::optional<Range>> ranges_;  // per tensor: set when narrowed
  std::map<int, int> int32_copies_;           // int64 constant -> its int32 copy
};

}  // namespace

void narrow_int64(SourceGraph& graph) { Narrowing(graph).run(); }

}  // namespace mote::onnx_import
