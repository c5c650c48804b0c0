// ONNX source ops -> Mote ops (compiler/ir/mote_ops.md), choosing the layout.
//
// Layout algorithm. Every source tensor has a logical (ONNX, channels-first) layout and,
// for rank 3 and 4, possibly a channels-last copy: NCHW [N,C,H,W] is stored as NHWC
// [N,H,W,C], NCL [N,C,L] as NLC [N,L,C]. Legalization walks the nodes in order and keeps,
// per source tensor, the Mote tensor holding each layout it has been materialized in:
//  - spatial ops (conv, pools) read and write channels-last;
//  - layout-agnostic ops (unary, binary elementwise, concat, pad, mean, softmax on the
//    channel axis) run in whichever layout needs fewer conversions of their inputs,
//    with constant operands permuted and axes/pads remapped;
//  - ops that depend on logical element order (reshape and friends, matmul/gemm, any
//    transpose) read the logical layout, except that a channels-last tensor whose
//    permutation moves only size-1 dims (e.g. [N,1,1,C] after a global pool) already is
//    in logical element order and is read as is;
//  - slicing ops (Slice, Split, Gather, Expand) run in the layout their input has, the
//    bounds and axes remapped, unless the result's axes would leave both layouts' orders
//    (a scalar Gather dropping N or C of a channels-last tensor reads it logically);
//  - a conversion, when needed, is a transpose (or a reshape when only size-1 dims move)
//    inserted once per tensor and shared by all readers.
// Graph inputs and outputs keep the model's layout: the first channels-last reader of an
// input causes a transpose after it, and an output produced channels-last gets a
// transpose into the output tensor. A final cleanup composes adjacent transposes,
// cancels those that compose to the identity, merges reshape chains and folds transposes
// and reshapes of constants.
// 1-D convolutions and pools run as 2-D ones over [N,1,L,C].
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <sstream>

#include "common/error.h"
#include "import/onnx/onnx_importer.h"
#include "import/onnx/source_eval.h"

namespace mote::onnx_import {
namespace {

using ir::Op;

constexpr double kInf = std::numeric_limits<double>::infinity();
using Perm = std::vector<int64_t>;

// Physical position i of a channels-last tensor holds logical axis perm[i].
Perm channels_last_perm(size_t rank) {
  Perm p{0};
  for (size_t i = 2; i < rank; ++i) p.push_back(static_cast<int64_t>(i));
  p.push_back(1);
  return p;
}

Perm inverse(const Perm& p) {
  Perm inv(p.size());
  for (size_t i = 0; i < p.size(); ++i) inv[p[i]] = static_cast<int64_t>(i);
  return inv;
}

bool is_identity(const Perm& p) {
  for (size_t i = 0; i < p.size(); ++i)
    if (p[i] != static_cast<int64_t>(i)) return false;
  return true;
}

// True when transposing `shape` by `perm` keeps the row-major element order, i.e. only
// size-1 dims move: the transpose is a reshape.
bool order_preserving(const ir::Shape& shape, const Perm& perm) {
  int64_t last = -1;
  for (int64_t axis : perm) {
    if (shape[axis] == 1) continue;
    if (axis < last) return false;
    last = axis;
  }
  return true;
}

bool channels_last_rank(size_t rank) { return rank == 3 || rank == 4; }

class Legalizer {
 public:
  explicit Legalizer(SourceGraph source) : source_nodes_(std::move(source.nodes)) {
    g_.name = std::move(source.name);
    g_.file = std::move(source.file);
    g_.notes = std::move(source.notes);
    g_.tensors = std::move(source.tensors);
    g_.inputs = std::move(source.inputs);
    g_.outputs = std::move(source.outputs);
  }

  ir::Graph run() {
    const size_t count = g_.tensors.size();
    values_.assign(count, {});
    logical_shapes_.resize(count);
    for (size_t t = 0; t < count; ++t) {
      logical_shapes_[t] = g_.tensors[t].shape;
      if (g_.tensors[t].is_constant) values_[t].logical = static_cast<int>(t);
    }
    for (int t : g_.inputs) values_[t].logical = t;

    find_gelus();
    find_linear_biases();
    for (size_t k = 0; k < source_nodes_.size(); ++k) {
      if (gelu_[k] == kFusedAway || linear_bias_[k] == kFusedAway) continue;
      node_ = &source_nodes_[k];
      if (gelu_[k] >= 0) {
        emit_gelu(gelu_[k], gelu_approximate_[k]);
      } else {
        legalize_node(source_nodes_[k]);
      }
    }
    node_ = nullptr;
    for (int t : g_.outputs) {
      if (logical(t) != t) {
        // Only reachable when an output aliases another tensor: copy into it.
        emit(Op::kReshape, g_.tensors[t].name + "/copy", {values_[t].logical}, {t});
      }
    }
    return std::move(g_);
  }

 private:
  struct Value {
    int logical = ir::kNoTensor;
    int channels_last = ir::kNoTensor;
  };

  // ---- GELU fusion ----------------------------------------------------------------
  // PyTorch's nn.GELU exports (x any tensor, every inner result read only by the
  // pattern, each Add and Mul with its operands in either order, the two outer Muls in
  // either association):
  //   exact: 0.5 * x * (1 + Erf(x / sqrt 2))                 (Div, Erf, Add, Mul, Mul)
  //   tanh:  0.5 * x * (1 + Tanh(sqrt(2/pi) * (x + 0.044715 * x*x*x)))
  // become one gelu op at the pattern's last Mul; its other nodes emit nothing. The
  // constants must match to float precision.
  static constexpr int kFusedAway = -2;

  void find_gelus() {
    gelu_.assign(source_nodes_.size(), -1);
    gelu_approximate_.assign(source_nodes_.size(), 0);
    producer_.assign(g_.tensors.size(), -1);
    readers_.assign(g_.tensors.size(), 0);
    for (size_t k = 0; k < source_nodes_.size(); ++k) {
      for (int t : source_nodes_[k].inputs)
        if (t != ir::kNoTensor) ++readers_[t];
      for (int t : source_nodes_[k].outputs) producer_[t] = static_cast<int>(k);
    }
    for (int t : g_.outputs) ++readers_[t];
    for (size_t k = source_nodes_.size(); k-- > 0;) {
      if (gelu_[k] != -1 || source_nodes_[k].op != "Mul") continue;
      std::vector<int> pattern;
      int64_t approximate = 0;
      const int x = match_gelu(static_cast<int>(k), &pattern, &approximate);
      if (x == ir::kNoTensor) continue;
      for (int p : pattern) gelu_[p] = kFusedAway;
      gelu_[k] = x;
      gelu_approximate_[k] = approximate;
    }
  }

  // The node producing `t` when it is `op`, read once and not a graph output; else null.
  // Adds it to `pattern`.
  const SourceNode* inner(int t, const char* op, std::vector<int>* pattern) const {
    if (t == ir::kNoTensor || producer_[t] < 0 || readers_[t] != 1 || gelu_[producer_[t]] != -1) return nullptr;
    const SourceNode& n = source_nodes_[producer_[t]];
    if (n.op != op || n.inputs.size() != 2) return nullptr;
    pattern->push_back(producer_[t]);
    return &n;
  }

  bool is_scalar(int t, double value) const {
    if (t == ir::kNoTensor || !is_constant(t) || g_.tensors[t].elements() != 1) return false;
    return std::fabs(read_doubles(g_.tensors[t])[0] - value) <= 1e-6 * std::fabs(value);
  }

  // The operand of binary node n other than the one equal to `t` (kNoTensor if neither).
  static int other(const SourceNode& n, int t) {
    if (n.inputs[0] == t) return n.inputs[1];
    return n.inputs[1] == t ? n.inputs[0] : ir::kNoTensor;
  }
  // The operand of binary node n that is not the scalar `value`.
  int beside_scalar(const SourceNode& n, double value) const {
    if (is_scalar(n.inputs[1], value)) return n.inputs[0];
    return is_scalar(n.inputs[0], value) ? n.inputs[1] : ir::kNoTensor;
  }

  // x when `last` (a Mul) ends a GELU pattern, with its nodes in `pattern`.
  int match_gelu(int last, std::vector<int>* pattern, int64_t* approximate) const {
    const SourceNode& m = source_nodes_[last];
    // Three factors: 0.5, x and (1 + f(x)), one product of two nested in the other.
    std::vector<int> factors;
    for (int t : m.inputs) {
      std::vector<int> nested;
      if (const SourceNode* n = inner(t, "Mul", &nested)) {
        factors.insert(factors.end(), n->inputs.begin(), n->inputs.end());
        pattern->insert(pattern->end(), nested.begin(), nested.end());
      } else {
        factors.push_back(t);
      }
    }
    if (factors.size() != 3) return ir::kNoTensor;
    for (size_t h = 0; h < 3; ++h) {
      if (!is_scalar(factors[h], 0.5)) continue;
      for (size_t a = 0; a < 3; ++a) {
        if (a == h) continue;
        const int x = factors[3 - h - a];
        std::vector<int> found = *pattern;
        const SourceNode* add = inner(factors[a], "Add", &found);
        if (!add) continue;
        const int f = beside_scalar(*add, 1.0);
        if (const SourceNode* erf = inner_unary(f, "Erf", &found)) {
          const SourceNode* div = inner(erf->inputs[0], "Div", &found);
          if (div && div->inputs[0] == x && is_scalar(div->inputs[1], std::sqrt(2.0))) {
            *pattern = found;
            *approximate = 0;
            return x;
          }
          continue;
        }
        if (const SourceNode* tanh = inner_unary(f, "Tanh", &found)) {
          if (matches_tanh_argument(tanh->inputs[0], x, &found)) {
            *pattern = found;
            *approximate = 1;
            return x;
          }
        }
      }
    }
    return ir::kNoTensor;
  }

  const SourceNode* inner_unary(int t, const char* op, std::vector<int>* pattern) const {
    if (t == ir::kNoTensor || producer_[t] < 0 || readers_[t] != 1 || gelu_[producer_[t]] != -1) return nullptr;
    const SourceNode& n = source_nodes_[producer_[t]];
    if (n.op != op) return nullptr;
    pattern->push_back(producer_[t]);
    return &n;
  }

  // t = sqrt(2/pi) * (x + 0.044715 * x*x*x), the cube as (x*x)*x in any operand order.
  bool matches_tanh_argument(int t, int x, std::vector<int>* pattern) const {
    const SourceNode* scaled = inner(t, "Mul", pattern);
    if (!scaled) return false;
    const SourceNode* sum = inner(beside_scalar(*scaled, std::sqrt(2.0 / M_PI)), "Add", pattern);
    if (!sum) return false;
    const SourceNode* cubic = inner(other(*sum, x), "Mul", pattern);
    if (!cubic) return false;
    const SourceNode* cube = inner(beside_scalar(*cubic, 0.044715), "Mul", pattern);
    if (!cube) return false;
    const SourceNode* square = inner(other(*cube, x), "Mul", pattern);
    return square && square->inputs[0] == x && square->inputs[1] == x;
  }

  void emit_gelu(int x, int64_t approximate) {
    const int y = output0();
    const bool cl = choose_channels_last({x}, rank(x));
    const int in = cl ? channels_last(x) : logical(x);
    emit(Op::kGelu, node_->name, {in}, {output(y, cl)}).attrs["approximate"] = approximate;
  }

  // ---- linear layers ----------------------------------------------------------------
  // PyTorch's Linear on inputs of rank 3 and more exports MatMul(x, W^T) + Add(bias): a
  // MatMul whose B is a constant float32 matrix [K, N], its result read only by an Add
  // whose other operand is a constant float32 broadcasting along the last axis only
  // ([N] or [1, .., 1, N] of at most the result's rank, or one value), becomes one
  // fully_connected with that bias (find_linear_biases marks the pair; the Add emits
  // nothing).
  void find_linear_biases() {
    linear_bias_.assign(source_nodes_.size(), -1);
    for (size_t k = 0; k < source_nodes_.size(); ++k) {
      const SourceNode& add = source_nodes_[k];
      if (add.op != "Add" || add.inputs.size() != 2 || gelu_[k] != -1) continue;
      for (int side = 0; side < 2; ++side) {
        const int t = add.inputs[side], c = add.inputs[1 - side];
        if (t == ir::kNoTensor || c == ir::kNoTensor || producer_[t] < 0 || readers_[t] != 1) continue;
        const int m = producer_[t];
        const SourceNode& mm = source_nodes_[m];
        if (mm.op != "MatMul" || gelu_[m] != -1 || linear_bias_[m] != -1 || mm.inputs.size() != 2) continue;
        const int w = mm.inputs[1];
        if (!is_constant(w) || g_.tensors[w].dtype != DType::kFloat32 || rank(w) != 2) continue;
        if (!bias_along_last_axis(c, logical_shape(w)[1], rank(t))) continue;
        linear_bias_[m] = c;
        linear_bias_[k] = kFusedAway;
        break;
      }
    }
  }

  bool bias_along_last_axis(int c, int64_t cols, size_t result_rank) const {
    if (!is_constant(c) || g_.tensors[c].dtype != DType::kFloat32 || rank(c) > result_rank) return false;
    const ir::Shape& s = logical_shape(c);
    if (g_.tensors[c].elements() == 1) return true;
    return !s.empty() && s.back() == cols && g_.tensors[c].elements() == cols;
  }

  // The Add fused into MatMul node `mm` (the node reading its output).
  const SourceNode& bias_add_of(const SourceNode& mm) const {
    const int t = mm.outputs.at(0);
    for (const SourceNode& n : source_nodes_)
      if (n.op == "Add" && n.inputs.size() == 2 && (n.inputs[0] == t || n.inputs[1] == t)) return n;
    fail("internal: no Add reads the fused MatMul's output");
  }

  // ---- basics ---------------------------------------------------------------------
  [[noreturn]] void fail(const std::string& what) const {
    if (node_ == nullptr) throw CompileError(message_origin(g_) + ": " + what);
    fail_node(message_origin(g_), *node_, what);
  }

  const ir::Shape& logical_shape(int src) const { return logical_shapes_[src]; }
  size_t rank(int src) const { return logical_shapes_[src].size(); }
  bool is_constant(int src) const { return g_.tensors[src].is_constant; }
  bool has_cl(int src) const { return values_[src].channels_last != ir::kNoTensor; }
  bool has_logical(int src) const { return values_[src].logical != ir::kNoTensor; }

  int new_tensor(const std::string& name, DType dtype, ir::Shape shape) {
    ir::Tensor t;
    t.name = name;
    t.dtype = dtype;
    t.shape = std::move(shape);
    return g_.add_tensor(std::move(t));
  }

  int new_constant(const std::string& name, ir::Tensor t) {
    t.name = name;
    t.is_constant = true;
    return g_.add_tensor(std::move(t));
  }

  int float_constant(const std::string& name, ir::Shape shape, const std::vector<float>& values) {
    return g_.add_constant(name, DType::kFloat32, std::move(shape), float_bytes(values));
  }

  ir::Node& emit(Op op, const std::string& name, std::vector<int> inputs,
                 std::vector<int> outputs) {
    ir::Node n;
    n.name = name;
    n.op = op;
    n.inputs = std::move(inputs);
    n.outputs = std::move(outputs);
    g_.nodes.push_back(std::move(n));
    return g_.nodes.back();
  }

  // Moves `from` into a new or given tensor `to` permuted by perm: a reshape when only
  // size-1 dims move, else a transpose.
  void emit_permute(const std::string& name, int from, int to, const Perm& perm) {
    if (order_preserving(g_.tensors[from].shape, perm)) {
      emit(Op::kReshape, name, {from}, {to});
    } else {
      emit(Op::kTranspose, name, {from}, {to}).attrs["perm"] = perm;
    }
  }

  int reshaped(int from, const ir::Shape& shape, const std::string& name) {
    if (g_.tensors[from].shape == shape) return from;
    const ir::Tensor& t = g_.tensors[from];
    const int to = new_tensor(name, t.dtype, shape);
    emit(Op::kReshape, name, {from}, {to});
    return to;
  }

  // ---- layouts --------------------------------------------------------------------
  // The Mote tensor holding source tensor `src` in logical layout, converting once.
  int logical(int src) {
    Value& v = values_[src];
    if (v.logical != ir::kNoTensor) return v.logical;
    if (v.channels_last == ir::kNoTensor)
      fail("internal: tensor '" + g_.tensors[src].name + "' used before it is produced");
    const std::string name = g_.tensors[src].name;
    // The source tensor id is free unless it holds the channels-last data.
    const int to = v.channels_last == src
                       ? new_tensor(name + "_nchw", g_.tensors[src].dtype, logical_shape(src))
                       : src;
    g_.tensors[to].shape = logical_shape(src);
    emit_permute(name + "/to_nchw", v.channels_last, to, inverse(channels_last_perm(rank(src))));
    values_[src].logical = to;
    return to;
  }

  // The Mote tensor holding `src` channels-last (rank 3 or 4), converting once.
  int channels_last(int src) {
    Value& v = values_[src];
    if (v.channels_last != ir::kNoTensor) return v.channels_last;
    const Perm perm = channels_last_perm(rank(src));
    const std::string base = g_.tensors[src].name;
    const DType dtype = g_.tensors[src].dtype;
    int to;
    if (is_constant(src)) {
      ir::Tensor permuted = permute_tensor(g_.tensors[src], perm);
      to = new_constant(base + "_nhwc", std::move(permuted));
    } else {
      const int from = logical(src);
      to = new_tensor(base + "_nhwc", dtype, ir::permuted(logical_shape(src), perm));
      emit_permute(base + "/to_nhwc", from, to, perm);
    }
    values_[src].channels_last = to;
    return to;
  }

  // The tensor a node writes for source output `src` in the given layout.
  int output(int src, bool cl) {
    if (!cl) {
      values_[src].logical = src;
      return src;
    }
    const ir::Shape shape = ir::permuted(logical_shape(src), channels_last_perm(rank(src)));
    int to = src;
    if (g_.is_graph_output(src)) {
      to = new_tensor(g_.tensors[src].name + "_nhwc", g_.tensors[src].dtype, shape);
    } else {
      g_.tensors[src].shape = shape;
    }
    values_[src].channels_last = to;
    return to;
  }

  // Source output `src` is the data of Mote tensor `tensor` (same layout, no op).
  void alias(int src, int tensor, bool cl) {
    if (cl) {
      values_[src].channels_last = tensor;
    } else if (g_.is_graph_output(src)) {
      emit(Op::kReshape, node_->name, {tensor}, {src});
      values_[src].logical = src;
    } else {
      values_[src].logical = tensor;
    }
  }

  // Reading `src` in logical element order: the channels-last copy will do when it only
  // moved size-1 dims.
  int logical_order(int src) {
    if (has_logical(src)) return values_[src].logical;
    if (channels_last_rank(rank(src)) && has_cl(src) &&
        order_preserving(logical_shape(src), channels_last_perm(rank(src))))
      return values_[src].channels_last;
    return logical(src);
  }

  // Chooses channels-last for an op whose variable inputs of rank `r` could run in either
  // layout: the layout that needs fewer conversions, channels-last on a tie when any
  // input has it.
  bool choose_channels_last(const std::vector<int>& inputs, size_t r) {
    if (!channels_last_rank(r)) return false;
    int missing_cl = 0, missing_logical = 0;
    bool any_cl = false;
    for (int t : inputs) {
      if (t == ir::kNoTensor || is_constant(t) || rank(t) != r) continue;
      missing_cl += !has_cl(t);
      missing_logical += !has_logical(t);
      any_cl = any_cl || has_cl(t);
    }
    return any_cl && missing_cl <= missing_logical;
  }

  // An operand of a broadcasting op of output rank r, in the chosen layout.
  int operand(int src, size_t r, bool cl) {
    if (!cl) return logical(src);
    const Perm perm = channels_last_perm(r);
    if (rank(src) == r && !is_constant(src)) return channels_last(src);
    if (rank(src) == 0) return src;
    const std::string name = g_.tensors[src].name;
    const DType dtype = g_.tensors[src].dtype;
    // Lower rank (or constant): align right to rank r, permute, drop leading 1s.
    ir::Shape padded(r - rank(src), 1);
    padded.insert(padded.end(), logical_shape(src).begin(), logical_shape(src).end());
    ir::Shape target = ir::permuted(padded, perm);
    while (target.size() > 1 && target.front() == 1) target.erase(target.begin());
    if (is_constant(src)) {
      ir::Tensor c = g_.tensors[src];
      c.shape = padded;
      c = permute_tensor(c, perm);
      c.shape = target;
      return new_constant(name + "_nhwc", std::move(c));
    }
    const int from = logical(src);
    const int base = reshaped(from, padded, name + "_rank" + std::to_string(r));
    const int permuted = new_tensor(name + "_nhwc", dtype, ir::permuted(padded, perm));
    emit_permute(name + "/to_nhwc", base, permuted, perm);
    return reshaped(permuted, target, name + "_nhwc_b");
  }

  int input(size_t k) const {
    return k < node_->inputs.size() ? node_->inputs[k] : ir::kNoTensor;
  }
  int output0() const { return node_->outputs.at(0); }

  const ir::Tensor& constant_input(size_t k, const std::string& what) {
    const int id = input(k);
    if (id == ir::kNoTensor) fail("input '" + what + "' missing");
    if (!is_constant(id)) fail("non-constant " + what + " not supported");
    if (g_.tensors[id].dtype != DType::kFloat32)
      fail(what + " dtype " + dtype_name(g_.tensors[id].dtype) + " not supported");
    return g_.tensors[id];
  }

  // ---- dispatch -------------------------------------------------------------------
  void legalize_node(const SourceNode& node) {
    // fuse_normalization's own op (ONNX has it from opset 18 only: not listed).
    if (node.op == "GroupNormalization") return group_norm();
    for (const Conversion& c : conversions())
      if (node.op == c.name) return c.convert(*this);
    if (is_host_evaluable(node.op)) fail("op not supported on non-constant inputs");
    fail("op not supported");
  }

 public:
  // The ONNX operators legalize converts and every Mote op each conversion may emit
  // besides the layout's transposes and reshapes (onnx_operators() lists them).
  struct Conversion {
    const char* name;
    void (*convert)(Legalizer&);
    std::vector<Op> becomes;  // every Mote op it may emit; first the one it usually becomes
                              // (`--list-ops` takes that one's int8/int16 for the operator's)
    // The dtypes the operator runs in when fewer than its ops' kernels take (space-separated,
    // as coverage lines write them; empty: theirs): the unary functions whose lowering has
    // no integer kernel (Exp runs on unary, whose int8/int16 kernels are ABS's), and the
    // reductions ending in one. tests/compiler/coverage_test.cc checks them against lowering.
    const char* takes = "";
  };
  static const std::vector<Conversion>& conversions() {
    using L = Legalizer;
    static const std::vector<Conversion> kConversions = {
        {"Abs", [](L& l) { l.unary_fn("abs"); }, {Op::kUnary}},
        {"Add", [](L& l) { l.binary(Op::kAdd); }, {Op::kAdd}},
        {"And", [](L& l) { l.logical_op("and"); }, {Op::kLogical}},
        {"ArgMax", [](L& l) { l.arg(Op::kArgMax); }, {Op::kArgMax}},
        {"ArgMin", [](L& l) { l.arg(Op::kArgMin); }, {Op::kArgMin}},
        {"AveragePool", [](L& l) { l.pool(); }, {Op::kAvgPool2d}},
        {"BatchNormalization", [](L& l) { l.fail("not folded (fold_batch_norm must run before legalize)"); },
         {Op::kMul, Op::kAdd}},  // folded into the Conv before it, else Mul + Add
        {"Cast", [](L& l) { l.cast(); }, {Op::kCast}},
        {"CumSum", [](L& l) { l.cumsum(); }, {Op::kCumsum}},
        {"Ceil", [](L& l) { l.unary_fn("ceil"); }, {Op::kUnary}, "float32"},
        {"Celu", [](L& l) { l.celu(); }, {Op::kElu, Op::kMul}},
        {"Clip", [](L& l) { l.clip(); }, {Op::kClamp}},
        {"Concat", [](L& l) { l.concat(); }, {Op::kConcat}},
        {"Conv", [](L& l) { l.conv(); }, {Op::kConv2d, Op::kDepthwiseConv2d, Op::kAdd}},
        {"ConvTranspose", [](L& l) { l.conv_transpose(); }, {Op::kTransposeConv}},
        // With --quantize a constant divisor becomes a mul by its reciprocal (passes.h).
        {"DepthToSpace", [](L& l) { l.depth_to_space(); }, {Op::kDepthToSpace, Op::kGather}},
        {"Div", [](L& l) { l.binary(Op::kDiv); }, {Op::kMul, Op::kDiv}},
        {"Dropout", [](L& l) { l.identity(); }, {}},
        {"Elu", [](L& l) { l.elu(); }, {Op::kElu, Op::kClamp, Op::kMul, Op::kAdd}},
        // Equal and Where of constants fold while importing; on computed tensors (a
        // key_padding_mask given as an input) they run.
        {"Equal", [](L& l) { l.compare("equal"); }, {Op::kCompare}},
        // An exact GELU pattern around it becomes one gelu (find_gelus).
        {"Erf", [](L& l) { l.unary_fn("erf"); }, {Op::kUnary, Op::kGelu}, "float32"},
        {"Einsum", [](L& l) { l.einsum(); }, {Op::kBatchMatMul, Op::kSum, Op::kTranspose}},
        {"Exp", [](L& l) { l.unary_fn("exp"); }, {Op::kUnary}, "float32"},
        {"Expand", [](L& l) { l.expand(); }, {Op::kGather}},
        {"Flatten", [](L& l) { l.reshape(); }, {Op::kReshape}},
        {"Floor", [](L& l) { l.unary_fn("floor"); }, {Op::kUnary}, "float32"},
        {"Greater", [](L& l) { l.compare("greater"); }, {Op::kCompare}},
        {"GreaterOrEqual", [](L& l) { l.compare("greater_equal"); }, {Op::kCompare}},
        {"Gather", [](L& l) { l.gather(); }, {Op::kStridedSlice, Op::kGather}},
        {"Gemm", [](L& l) { l.gemm(); }, {Op::kFullyConnected, Op::kBatchMatMul, Op::kMul, Op::kAdd}},
        {"GlobalAveragePool", [](L& l) { l.global_average_pool(); }, {Op::kMean}},
        {"GlobalMaxPool", [](L& l) { l.global_max_pool(); }, {Op::kMaxPool2d}},
        {"HardSigmoid", [](L& l) { l.piecewise_linear(); }, {Op::kMul, Op::kAdd, Op::kClamp}},
        {"HardSwish", [](L& l) { l.piecewise_linear(); }, {Op::kMul, Op::kAdd, Op::kClamp}},
        {"Identity", [](L& l) { l.identity(); }, {}},
        {"InstanceNormalization", [](L& l) { l.group_norm(); }, {Op::kGroupNorm}},
        {"GRU", [](L& l) { l.gru_or_rnn(Op::kGru, 3); }, {Op::kGru, Op::kStridedSlice, Op::kConcat}},
        {"RNN", [](L& l) { l.gru_or_rnn(Op::kRnn, 1); }, {Op::kRnn, Op::kStridedSlice, Op::kConcat}},
        {"LSTM", [](L& l) { l.lstm(); }, {Op::kLstm, Op::kStridedSlice, Op::kConcat}},
        {"Less", [](L& l) { l.compare("less"); }, {Op::kCompare}},
        {"LessOrEqual", [](L& l) { l.compare("less_equal"); }, {Op::kCompare}},
        {"LayerNormalization", [](L& l) { l.layer_norm(); }, {Op::kLayerNorm, Op::kMul, Op::kAdd}},
        {"LeakyRelu", [](L& l) { l.piecewise_linear(); }, {Op::kClamp, Op::kMul, Op::kAdd}},
        {"Log", [](L& l) { l.unary_fn("log"); }, {Op::kUnary}, "float32"},
        {"LogSoftmax", [](L& l) { l.softmax(Op::kLogSoftmax); }, {Op::kLogSoftmax}},
        {"MatMul", [](L& l) { l.matmul(); }, {Op::kFullyConnected, Op::kBatchMatMul}},
        {"Max", [](L& l) { l.variadic(Op::kMaximum); }, {Op::kMaximum}},
        {"MaxPool", [](L& l) { l.pool(); }, {Op::kMaxPool2d}},
        {"Min", [](L& l) { l.variadic(Op::kMinimum); }, {Op::kMinimum}},
        {"Mod", [](L& l) { l.mod(); }, {Op::kFloorMod, Op::kUnary, Op::kMul}},
        {"Mul", [](L& l) { l.binary(Op::kMul); }, {Op::kMul}},
        {"Neg", [](L& l) { l.unary_fn("neg"); }, {Op::kUnary}, "float32"},
        {"Not", [](L& l) { l.logical_not(); }, {Op::kCompare}},
        {"Or", [](L& l) { l.logical_op("or"); }, {Op::kLogical}},
        {"PRelu", [](L& l) { l.piecewise_linear(); }, {Op::kClamp, Op::kMul, Op::kAdd}},
        {"Pad", [](L& l) { l.pad(); }, {Op::kPad}},
        {"Pow", [](L& l) { l.pow(); }, {Op::kMul, Op::kUnary, Op::kDiv, Op::kCopy, Op::kPow}},
        {"Reciprocal", [](L& l) { l.reciprocal(); }, {Op::kDiv}},
        {"Round", [](L& l) { l.unary_fn("round"); }, {Op::kUnary}, "float32"},
        {"ReduceMax", [](L& l) { l.reduce(Op::kReduceMax); }, {Op::kReduceMax}},
        {"ReduceMean", [](L& l) { l.reduce(Op::kMean); }, {Op::kMean}},
        {"ReduceL1", [](L& l) { l.reduce_composite(); }, {Op::kUnary, Op::kSum}},
        {"ReduceL2", [](L& l) { l.reduce_composite(); }, {Op::kMul, Op::kSum, Op::kUnary}, "float32"},  // sqrt
        {"ReduceLogSumExp", [](L& l) { l.reduce_composite(); },
         {Op::kUnary, Op::kReduceMax, Op::kSub, Op::kSum, Op::kAdd}, "float32"},  // exp, log
        {"ReduceMin", [](L& l) { l.reduce(Op::kReduceMin); }, {Op::kReduceMin}},
        {"ReduceProd", [](L& l) { l.reduce(Op::kReduceProd); }, {Op::kReduceProd}},
        {"ReduceSum", [](L& l) { l.reduce(Op::kSum); }, {Op::kSum}},
        {"ReduceSumSquare", [](L& l) { l.reduce_composite(); }, {Op::kMul, Op::kSum}},
        {"Relu", [](L& l) { l.unary(Op::kClamp, 0.0, kInf); }, {Op::kClamp}},
        {"Reshape", [](L& l) { l.reshape(); }, {Op::kReshape}},
        {"Resize", [](L& l) { l.resize(); }, {Op::kResizeNearest, Op::kResizeBilinear, Op::kResizeCubic}},
        {"Selu", [](L& l) { l.elu(); }, {Op::kElu, Op::kClamp, Op::kMul, Op::kAdd}},
        {"Sigmoid", [](L& l) { l.unary(Op::kSigmoid, 0, 0); }, {Op::kSigmoid}},
        {"Sign", [](L& l) { l.unary_fn("sign"); }, {Op::kUnary}, "float32"},
        {"Slice", [](L& l) { l.slice(); }, {Op::kStridedSlice}},
        {"Softmax", [](L& l) { l.softmax(Op::kSoftmax); }, {Op::kSoftmax}},
        {"Softplus", [](L& l) { l.unary_fn("softplus"); }, {Op::kUnary}, "float32"},
        {"SpaceToDepth", [](L& l) { l.space_to_depth(); }, {Op::kSpaceToDepth}},
        {"Split", [](L& l) { l.split(); }, {Op::kStridedSlice}},
        {"Sqrt", [](L& l) { l.unary_fn("sqrt"); }, {Op::kUnary}, "float32"},
        {"Squeeze", [](L& l) { l.reshape(); }, {Op::kReshape}},
        {"Sub", [](L& l) { l.binary(Op::kSub); }, {Op::kSub}},
        {"Tile", [](L& l) { l.tile(); }, {Op::kGather}},
        {"Where", [](L& l) { l.where(); }, {Op::kSelect}},
        {"Xor", [](L& l) { l.compare("not_equal"); }, {Op::kCompare}},
        {"Tanh", [](L& l) { l.unary(Op::kTanh, 0, 0); }, {Op::kTanh, Op::kGelu}},  // tanh GELU: one gelu
        {"Transpose", [](L& l) { l.transpose(); }, {Op::kTranspose}},
        {"TopK", [](L& l) { l.top_k(); }, {Op::kTopK}},
        {"Trilu", [](L& l) { l.trilu(); }, {Op::kSelect}},
        {"Unsqueeze", [](L& l) { l.reshape(); }, {Op::kReshape}},
    };
    return kConversions;
  }

 private:
  // Cast of computed data: an identity between equal dtypes, else the cast op (float32,
  // int8, int16, int32, int64, bool -> float32, int8, int16, int32, int64: an int64 index or
  // shape to int32 keeps its low bits, exact for every value that fits; to int64 where
  // narrow_int64 computed an int64 graph output in int32).
  void cast() {
    const int x = input(0), y = output0();
    const DType from = g_.tensors[x].dtype, to = g_.tensors[y].dtype;
    if (from == to) return identity();
    const auto numeric = [](DType d) {
      return d == DType::kFloat32 || d == DType::kInt8 || d == DType::kInt16 || d == DType::kInt32 ||
             d == DType::kInt64;
    };
    if (!(numeric(from) || from == DType::kBool) || !numeric(to)) {
      fail(std::string("cast from ") + dtype_name(from) + " to " + dtype_name(to) +
           " of non-constant data not supported (float32, int8, int16, int32, int64 or bool to float32, int8, "
           "int16, int32 or int64)");
    }
    const bool cl = choose_channels_last({x}, rank(x));
    emit(Op::kCast, node_->name, {cl ? channels_last(x) : logical(x)}, {output(y, cl)});
  }

  // ---- spatial ops ----------------------------------------------------------------
  // The input as [N,H,W,C]: channels-last, with 1-D ([N,L,C]) viewed as [N,1,L,C].
  int spatial_input(int x) {
    const size_t r = rank(x);
    if (r != 3 && r != 4) fail("input rank " + std::to_string(r) + " not supported (1-D and 2-D only)");
    int in = channels_last(x);
    if (r == 3) {
      const ir::Shape s = g_.tensors[in].shape;
      in = reshaped(in, {s[0], 1, s[1], s[2]}, g_.tensors[x].name + "_2d");
    }
    return in;
  }

  // The output tensor for a spatial op: [N,OH,OW,C] written directly, or for 1-D a
  // 4-D temporary reshaped into the [N,OL,C] channels-last output.
  struct SpatialOut {
    int tensor;     // what the op writes
    int final = -1; // 1-D: the channels-last output to reshape into
  };
  SpatialOut spatial_output(int y) {
    const int out = output(y, true);
    if (rank(y) == 4) return {out, -1};
    const ir::Shape& s = g_.tensors[out].shape;
    return {new_tensor(g_.tensors[out].name + "_2d", g_.tensors[out].dtype, {s[0], 1, s[1], s[2]}), out};
  }
  void finish_spatial(const SpatialOut& o) {
    if (o.final >= 0) emit(Op::kReshape, node_->name + "/to_1d", {o.tensor}, {o.final});
  }

  // ONNX per-axis lists -> Mote's two-axis lists (1-D: H is a unit axis).
  std::vector<int64_t> spatial2(const std::vector<int64_t>& v, int64_t unit) const {
    if (v.size() == 2) return v;
    return {unit, v.at(0)};
  }
  std::vector<int64_t> pads4(const std::vector<int64_t>& pads) const {
    if (pads.size() == 4) return pads;  // [top, left, bottom, right]
    return {0, pads.at(0), 0, pads.at(1)};
  }

  void conv() {
    const SourceNode& n = *node_;
    const int x = input(0), y = output0();
    const ir::Tensor w = constant_input(1, "weights");  // a copy: tensors grow below
    const int bias = input(2);
    const int64_t group = n.get_int("group", 1);
    const int64_t channels = logical_shape(x).at(1);
    const int64_t out_channels = w.shape.at(0);
    const bool depthwise = group == channels && group > 1;

    ir::Tensor w4 = w;  // [O, C/g, KH, KW]
    if (w4.shape.size() == 3) w4.shape = {w.shape[0], w.shape[1], 1, w.shape[2]};
    if (w4.shape.size() != 4) fail("weights rank " + std::to_string(w.shape.size()) + " not supported");
    const int filter =
        depthwise ? new_constant(w.name + "_1hwo", permute_tensor(w4, {1, 2, 3, 0}))
                  : new_constant(w.name + "_ohwi", permute_tensor(w4, {0, 2, 3, 1}));

    std::map<std::string, ir::AttrValue> attrs = window_attrs();
    if (depthwise) {
      attrs["depth_multiplier"] = out_channels / channels;
    } else {
      attrs["group"] = group;
    }
    emit_weighted_spatial(depthwise ? Op::kDepthwiseConv2d : Op::kConv2d, x, filter, bias, y, std::move(attrs));
  }

  // The window attributes of the node being legalized (Conv, ConvTranspose) in Mote's
  // two-axis form.
  std::map<std::string, ir::AttrValue> window_attrs() const {
    const SourceNode& n = *node_;
    return {{"strides", spatial2(n.get_ints("strides"), 1)},
            {"dilations", spatial2(n.get_ints("dilations"), 1)},
            {"pads", pads4(n.get_ints("pads"))}};
  }

  // A weighted spatial op (conv2d, depthwise_conv2d, transpose_conv) named after the node,
  // reading x channels-last and its filter, writing source output y. A constant float32
  // bias is its input 2; any other bias is added after it.
  void emit_weighted_spatial(Op op, int x, int filter, int bias, int y, std::map<std::string, ir::AttrValue> attrs) {
    std::vector<int> inputs = {spatial_input(x), filter};
    const bool separate_bias =
        bias != ir::kNoTensor && !(is_constant(bias) && g_.tensors[bias].dtype == DType::kFloat32);
    if (bias != ir::kNoTensor && !separate_bias) inputs.push_back(bias);
    SpatialOut out = spatial_output(y);
    int op_out = out.tensor;
    if (separate_bias) {
      const ir::Tensor& o = g_.tensors[out.tensor];
      op_out = new_tensor(o.name + "_nobias", o.dtype, o.shape);
    }
    emit(op, node_->name, inputs, {op_out}).attrs = std::move(attrs);
    if (separate_bias) emit(Op::kAdd, node_->name + "/bias", {op_out, logical(bias)}, {out.tensor});
    finish_spatial(out);
  }

  // ConvTranspose -> transpose_conv: weights [C, O/G, K...] -> filter [O, KH, KW, C/G]
  // (group g's output channels read its input channels only).
  void conv_transpose() {
    const SourceNode& n = *node_;
    const int x = input(0), y = output0();
    const ir::Tensor w = constant_input(1, "weights");  // a copy: tensors grow below
    const int bias = input(2);
    const int64_t group = n.get_int("group", 1);
    ir::Tensor w5 = w;  // [G, C/G, O/G, KH, KW]
    const int64_t kh = w.shape.size() == 4 ? w.shape[2] : 1;
    w5.shape = {group, w.shape[0] / group, w.shape[1], kh, w.shape.back()};
    ir::Tensor filter_t = permute_tensor(w5, {0, 2, 3, 4, 1});
    filter_t.shape = {group * w.shape[1], kh, w.shape.back(), w.shape[0] / group};
    const int filter = new_constant(w.name + "_ohwi", std::move(filter_t));

    std::map<std::string, ir::AttrValue> attrs = window_attrs();
    attrs["group"] = group;
    emit_weighted_spatial(Op::kTransposeConv, x, filter, bias, y, std::move(attrs));
  }

  // Resize -> resize_nearest / resize_bilinear / resize_cubic over H and W (1-D: L) with
  // ONNX's coordinates; the batch and channel axes keep their size.
  void resize() {
    const SourceNode& n = *node_;
    const int x = input(0), y = output0();
    const ir::Shape& in = logical_shape(x);
    const ir::Shape& out = logical_shape(y);
    if (in.size() != 3 && in.size() != 4)
      fail("input rank " + std::to_string(in.size()) + " not supported (1-D and 2-D images NCL, NCHW only)");
    std::vector<double> scales;
    const int scales_in = input(1), sizes_in = input(2);
    if (scales_in != ir::kNoTensor && !is_constant(scales_in)) fail("non-constant scales not supported");
    if (sizes_in != ir::kNoTensor && !is_constant(sizes_in)) fail("non-constant sizes not supported");
    if (scales_in != ir::kNoTensor && g_.tensors[scales_in].elements() > 0) {
      scales = read_doubles(g_.tensors[scales_in]);
    } else if (sizes_in != ir::kNoTensor && g_.tensors[sizes_in].elements() > 0) {
      for (size_t i = 0; i < in.size(); ++i)
        scales.push_back(static_cast<double>(out.at(i)) / static_cast<double>(in[i]));
    } else {
      fail("neither scales nor sizes given");
    }
    if (scales.size() != in.size())
      fail("scales have " + std::to_string(scales.size()) + " values, expected " + std::to_string(in.size()));
    if (out[0] != in[0] || out[1] != in[1])
      fail("resizing the batch or channel axis (" + shape_string(in) + " to " + shape_string(out) + ") not supported");
    const std::string mode = n.get_string("mode");
    const std::string transform = n.get_string("coordinate_transformation_mode");
    const Op op = mode == "cubic" ? Op::kResizeCubic : mode == "linear" ? Op::kResizeBilinear : Op::kResizeNearest;
    const std::vector<double> roi = transform == "tf_crop_and_resize" ? resize_roi(in) : std::vector<double>{};
    const int in_t = spatial_input(x);
    SpatialOut o = spatial_output(y);
    ir::Node& r = emit(op, n.name, {in_t}, {o.tensor});
    r.attrs["coordinate_transform"] = transform;
    if (op == Op::kResizeNearest) r.attrs["nearest_mode"] = n.get_string("nearest_mode");
    if (op == Op::kResizeCubic) {
      r.attrs["cubic_coeff_a"] = n.get_float("cubic_coeff_a", -0.75);
      r.attrs["exclude_outside"] = n.get_int("exclude_outside", 0);
    }
    if (!roi.empty()) {
      r.attrs["roi"] = roi;
      r.attrs["extrapolation_value"] = n.get_float("extrapolation_value", 0.0);
    }
    r.attrs["scale_h"] = in.size() == 4 ? scales[2] : 1.0;
    r.attrs["scale_w"] = scales.back();
    finish_spatial(o);
  }

  // tf_crop_and_resize's constant roi [starts..., ends...] as {h_start, h_end, w_start,
  // w_end} (1-D: H is [0, 1]); the batch and channel axes must not be cropped.
  std::vector<double> resize_roi(const ir::Shape& in) {
    const int roi_in = input(3);
    if (roi_in == ir::kNoTensor || g_.tensors[roi_in].elements() == 0)
      fail("coordinate_transformation_mode 'tf_crop_and_resize' without a roi");
    if (!is_constant(roi_in)) fail("roi is computed, not a constant: not supported");
    const std::vector<double> roi = read_doubles(g_.tensors[roi_in]);
    const size_t rank = in.size();
    if (roi.size() != 2 * rank)
      fail("roi has " + std::to_string(roi.size()) + " values, expected " + std::to_string(2 * rank));
    for (size_t axis = 0; axis < 2; ++axis)
      if (in[axis] > 1 && (roi[axis] != 0.0 || roi[rank + axis] != 1.0))
        fail("roi crops the batch or channel axis, not supported");
    const size_t w = rank - 1;
    if (rank == 3) return {0.0, 1.0, roi[w], roi[rank + w]};
    return {roi[2], roi[rank + 2], roi[w], roi[rank + w]};
  }

  void emit_pool(Op op, int x, int y, const std::vector<int64_t>& kernel,
                 const std::vector<int64_t>& strides, const std::vector<int64_t>& dilations,
                 const std::vector<int64_t>& pads, int64_t count_include_pad) {
    const int in = spatial_input(x);
    SpatialOut out = spatial_output(y);
    ir::Node& n = emit(op, node_->name, {in}, {out.tensor});
    n.attrs["kernel"] = spatial2(kernel, 1);
    n.attrs["strides"] = spatial2(strides, 1);
    n.attrs["dilations"] = spatial2(dilations, 1);
    n.attrs["pads"] = pads4(pads);
    if (op == Op::kAvgPool2d) n.attrs["count_include_pad"] = count_include_pad;
    finish_spatial(out);
  }

  void pool() {
    const SourceNode& n = *node_;
    const bool avg = n.op == "AveragePool";
    emit_pool(avg ? Op::kAvgPool2d : Op::kMaxPool2d, input(0), output0(), n.get_ints("kernel_shape"),
              n.get_ints("strides"), n.get_ints("dilations"), n.get_ints("pads"),
              n.get_int("count_include_pad", 0));
  }

  void global_max_pool() {
    const int x = input(0);
    const ir::Shape& s = logical_shape(x);
    if (s.size() != 3 && s.size() != 4) fail("input rank " + std::to_string(s.size()) + " not supported");
    const std::vector<int64_t> kernel(s.begin() + 2, s.end());
    const std::vector<int64_t> ones(kernel.size(), 1), zeros(2 * kernel.size(), 0);
    emit_pool(Op::kMaxPool2d, x, output0(), kernel, ones, ones, zeros, 0);
  }

  void global_average_pool() {
    const int x = input(0), y = output0();
    const size_t r = rank(x);
    if (r < 3) fail("input rank " + std::to_string(r) + " not supported");
    const bool cl = channels_last_rank(r) && has_cl(x);
    std::vector<int64_t> axes;
    for (size_t i = 0; i + 2 < r; ++i) axes.push_back(static_cast<int64_t>(cl ? i + 1 : i + 2));
    const int in = cl ? channels_last(x) : logical(x);
    emit(Op::kMean, node_->name, {in}, {output(y, cl)}).attrs["axes"] = axes;
  }

  // ---- matrix products --------------------------------------------------------------
  // [rows, cols] float data of a constant 2-D tensor.
  static std::vector<float> floats(const ir::Tensor& t) {
    return std::vector<float>(t.as<float>(), t.as<float>() + t.elements());
  }

  int transposed_2d(int t, const std::string& name) {
    const ir::Shape& s = g_.tensors[t].shape;
    const int out = new_tensor(name, g_.tensors[t].dtype, {s[1], s[0]});
    emit_permute(name, t, out, {1, 0});
    return out;
  }

  void gemm() {
    const SourceNode& n = *node_;
    const int a = input(0), b = input(1), c = input(2), y = output0();
    const double alpha = n.get_float("alpha", 1.0), beta = n.get_float("beta", 1.0);
    const bool trans_a = n.get_int("transA", 0) != 0, trans_b = n.get_int("transB", 0) != 0;
    if (rank(a) != 2 || rank(b) != 2) fail("inputs must be 2-D");
    const ir::Shape& ys = logical_shape(y);
    const int64_t m = ys[0], cols = ys[1];
    int lhs = logical(a);
    if (trans_a) lhs = transposed_2d(lhs, g_.tensors[a].name + "_t");

    int product;  // [M, N] = alpha * A' B'
    const bool has_c = c != ir::kNoTensor && beta != 0.0;
    // Whether C folds into a [N] bias.
    const bool c_is_bias = has_c && is_constant(c) && g_.tensors[c].dtype == DType::kFloat32 &&
                           (g_.tensors[c].elements() == 1 ||
                            (g_.tensors[c].elements() == cols && logical_shape(c).back() == cols));
    const int result = output(y, false);
    const bool extra_c = has_c && !c_is_bias;
    const int mm_out = extra_c ? new_tensor(g_.tensors[y].name + "_ab", DType::kFloat32, {m, cols}) : result;

    if (is_constant(b) && g_.tensors[b].dtype == DType::kFloat32) {
      const ir::Tensor& bt = g_.tensors[b];
      const int64_t k = trans_b ? bt.shape[1] : bt.shape[0];
      std::vector<float> src = floats(bt), weights(cols * k);
      for (int64_t i = 0; i < cols; ++i)
        for (int64_t j = 0; j < k; ++j)
          weights[i * k + j] = static_cast<float>(alpha * (trans_b ? src[i * k + j] : src[j * cols + i]));
      std::vector<int> inputs = {lhs, float_constant(bt.name + "_fc", {cols, k}, weights)};
      if (c_is_bias) {
        const std::vector<float> cv = floats(g_.tensors[c]);
        std::vector<float> bias(cols);
        for (int64_t i = 0; i < cols; ++i) bias[i] = static_cast<float>(beta * cv[cv.size() == 1 ? 0 : i]);
        inputs.push_back(float_constant(g_.tensors[c].name + "_bias", {cols}, bias));
      }
      emit(Op::kFullyConnected, n.name, inputs, {mm_out});
      product = mm_out;
    } else {
      int rhs = logical(b);
      if (trans_b) rhs = transposed_2d(rhs, g_.tensors[b].name + "_t");
      const bool scale = alpha != 1.0;
      const bool bias_add = c_is_bias;
      const int raw = (scale || bias_add)
                          ? new_tensor(g_.tensors[y].name + "_mm", DType::kFloat32, {m, cols})
                          : mm_out;
      emit(Op::kBatchMatMul, n.name, {lhs, rhs}, {raw});
      int cur = raw;
      if (scale) {
        const int to = bias_add ? new_tensor(g_.tensors[y].name + "_scaled", DType::kFloat32, {m, cols}) : mm_out;
        emit(Op::kMul, n.name + "/alpha", {cur, float_constant(n.name + "_alpha", {1}, {static_cast<float>(alpha)})}, {to});
        cur = to;
      }
      if (bias_add) {
        ir::Tensor cb = g_.tensors[c];
        std::vector<float> cv = floats(cb);
        for (float& v : cv) v = static_cast<float>(beta * v);
        emit(Op::kAdd, n.name + "/bias", {cur, float_constant(cb.name + "_beta", cb.shape, cv)}, {mm_out});
      }
      product = mm_out;
    }
    if (extra_c) {
      int cin = logical(c);
      if (beta != 1.0) {
        if (is_constant(c)) {
          ir::Tensor cb = g_.tensors[c];
          std::vector<float> cv = floats(cb);
          for (float& v : cv) v = static_cast<float>(beta * v);
          cin = float_constant(cb.name + "_beta", cb.shape, cv);
        } else {
          const int scaled = new_tensor(g_.tensors[c].name + "_beta", DType::kFloat32, logical_shape(c));
          emit(Op::kMul, n.name + "/beta", {cin, float_constant(n.name + "_beta", {1}, {static_cast<float>(beta)})}, {scaled});
          cin = scaled;
        }
      }
      emit(Op::kAdd, n.name + "/c", {product, cin}, {result});
    }
  }

  void matmul() {
    const SourceNode& n = *node_;
    const int a = input(0), b = input(1), y = output0();
    const size_t ra = rank(a), rb = rank(b);
    const ir::Shape& ys = logical_shape(y);
    if (is_constant(b) && rb <= 2 && g_.tensors[b].dtype == DType::kFloat32) {
      const ir::Tensor& bt = g_.tensors[b];
      const int64_t k = bt.shape[0], cols = rb == 2 ? bt.shape[1] : 1;
      const std::vector<float> src = floats(bt);
      std::vector<float> weights(cols * k);
      for (int64_t i = 0; i < cols; ++i)
        for (int64_t j = 0; j < k; ++j) weights[i * k + j] = src[j * cols + i];
      const int w = float_constant(bt.name + "_fc", {cols, k}, weights);
      const int bias = linear_bias_[static_cast<size_t>(node_ - source_nodes_.data())];
      if (bias >= 0) {  // find_linear_biases: the Add's output, with the bias in
        const std::vector<float> cv = floats(g_.tensors[bias]);
        const std::vector<float> values = cv.size() == 1 ? std::vector<float>(static_cast<size_t>(cols), cv[0]) : cv;
        const int b = float_constant(g_.tensors[bias].name + "_bias", {cols}, values);
        emit(Op::kFullyConnected, n.name, {logical(a), w, b}, {output(bias_add_of(n).outputs.at(0), false)});
        return;
      }
      const int result = output(y, false);
      if (rb == 2) {
        emit(Op::kFullyConnected, n.name, {logical(a), w}, {result});
      } else {
        ir::Shape tmp_shape = ys;
        tmp_shape.push_back(1);
        const int tmp = new_tensor(g_.tensors[y].name + "_n1", DType::kFloat32, tmp_shape);
        emit(Op::kFullyConnected, n.name, {logical(a), w}, {tmp});
        emit(Op::kReshape, n.name + "/squeeze", {tmp}, {result});
      }
      return;
    }
    // General case: batch_matmul on operands of rank >= 2 (1-D ones get a unit dim).
    int lhs = logical(a), rhs = logical(b);
    ir::Shape out_shape = ys;
    if (ra == 1) {
      lhs = reshaped(lhs, {1, logical_shape(a)[0]}, g_.tensors[a].name + "_row");
      out_shape.insert(out_shape.end() - (rb == 1 ? 0 : 1), 1);
    }
    if (rb == 1) {
      rhs = reshaped(rhs, {logical_shape(b)[0], 1}, g_.tensors[b].name + "_col");
      out_shape.push_back(1);
    }
    const int result = output(y, false);
    if (out_shape == ys) {
      emit(Op::kBatchMatMul, n.name, {lhs, rhs}, {result});
    } else {
      const int tmp = new_tensor(g_.tensors[y].name + "_2d", DType::kFloat32, out_shape);
      emit(Op::kBatchMatMul, n.name, {lhs, rhs}, {tmp});
      emit(Op::kReshape, n.name + "/squeeze", {tmp}, {result});
    }
  }

  // Einsum of one or two operands in the logical layout. The equation (normalized: no
  // spaces, "->" present, "..." expanded to digits aligned right) names each axis by a
  // letter. Letters of one operand missing from the output are summed first; one operand:
  // then a transpose. Two: a batch_matmul [batch, left, contracted] x [batch,
  // contracted, right], the batch letters (in both and the output), the contracted (in
  // both only) and the free ones grouped by reshapes and transposes, then the output order.
  void einsum() {
    const SourceNode& n = *node_;
    const std::string& eq = n.get_string("equation");
    const size_t arrow = eq.find("->");
    const std::string out_letters = eq.substr(arrow + 2);
    std::vector<std::string> terms;
    for (size_t start = 0;;) {
      const size_t comma = eq.find(',', start);
      terms.push_back(eq.substr(start, std::min(comma, arrow) - start));
      if (comma == std::string::npos || comma > arrow) break;
      start = comma + 1;
    }
    if (terms.size() != node_->inputs.size() || terms.size() > 2)
      fail("equation '" + eq + "' with " + std::to_string(node_->inputs.size()) + " inputs not supported (1 or 2)");
    for (int t : node_->inputs)
      if (g_.tensors[t].dtype != DType::kFloat32)
        fail(std::string("input dtype ") + dtype_name(g_.tensors[t].dtype) + " not supported (float32 only)");
    std::map<char, int64_t> size;
    std::vector<int> operands;
    for (size_t k = 0; k < terms.size(); ++k) {
      const ir::Shape& s = logical_shape(input(k));
      for (size_t i = 0; i < terms[k].size(); ++i) {
        const char c = terms[k][i];
        if (terms[k].find(c) != i) fail(std::string("repeated index '") + c + "' in one operand (a diagonal) not supported");
        if (size.count(c) && size[c] != s[i])
          fail(std::string("index '") + c + "' has sizes " + std::to_string(size[c]) + " and " + std::to_string(s[i]) +
               " (broadcast not supported)");
        size[c] = s[i];
      }
      operands.push_back(logical(input(k)));
    }
    auto shape_of = [&](const std::string& letters) {
      ir::Shape s;
      for (char c : letters) s.push_back(size[c]);
      return s;
    };
    // Sums out the letters of `term` in neither the output nor `other`.
    auto sum_private = [&](int t, std::string& term, const std::string& other, const std::string& name) {
      std::vector<int64_t> axes;
      std::string kept;
      for (size_t i = 0; i < term.size(); ++i) {
        if (out_letters.find(term[i]) == std::string::npos && other.find(term[i]) == std::string::npos) {
          axes.push_back(static_cast<int64_t>(i));
        } else {
          kept += term[i];
        }
      }
      if (axes.empty()) return t;
      const int to = new_tensor(name, DType::kFloat32, shape_of(kept));
      emit(Op::kSum, name, {t}, {to}).attrs["axes"] = axes;
      term = kept;
      return to;
    };
    // `t` with letters `from` permuted to the order `to` and reshaped to `shape`.
    auto arranged = [&](int t, const std::string& from, const std::string& to, const ir::Shape& shape,
                        const std::string& name, int result = ir::kNoTensor) {
      Perm perm;
      for (char c : to) perm.push_back(static_cast<int64_t>(from.find(c)));
      int permuted = t;
      if (!std::is_sorted(perm.begin(), perm.end())) {
        permuted = result != ir::kNoTensor && shape_of(to) == shape ? result
                                                                     : new_tensor(name, DType::kFloat32, shape_of(to));
        emit_permute(name, t, permuted, perm);
      }
      if (result == ir::kNoTensor) return reshaped(permuted, shape, name + "_r");
      if (permuted != result) emit(Op::kReshape, name + "_r", {permuted}, {result});
      return result;
    };
    const int y = output0();
    const std::string other = terms.size() == 2 ? terms[1] : "";
    int a = sum_private(operands[0], terms[0], other, n.name + "/sum_a");
    if (terms.size() == 1) {
      arranged(a, terms[0], out_letters, logical_shape(y), n.name + "/transpose", output(y, false));
      return;
    }
    int b = sum_private(operands[1], terms[1], terms[0], n.name + "/sum_b");
    std::string batch, left, contracted, right;
    for (char c : out_letters) {
      const bool in_a = terms[0].find(c) != std::string::npos, in_b = terms[1].find(c) != std::string::npos;
      if (in_a && in_b) batch += c;
      else if (in_a) left += c;
      else right += c;
    }
    for (char c : terms[0])
      if (terms[1].find(c) != std::string::npos && out_letters.find(c) == std::string::npos) contracted += c;
    auto count = [&](const std::string& letters) { return ir::element_count(shape_of(letters)); };
    const int64_t nb = count(batch), nl = count(left), nk = count(contracted), nr = count(right);
    a = arranged(a, terms[0], batch + left + contracted, {nb, nl, nk}, n.name + "/lhs");
    b = arranged(b, terms[1], batch + contracted + right, {nb, nk, nr}, n.name + "/rhs");
    const int product = new_tensor(n.name + "/matmul", DType::kFloat32, {nb, nl, nr});
    emit(Op::kBatchMatMul, n.name, {a, b}, {product});
    const std::string grouped = batch + left + right;
    const int unflat = reshaped(product, shape_of(grouped), n.name + "/unflatten");
    arranged(unflat, grouped, out_letters, logical_shape(y), n.name + "/out", output(y, false));
  }

  // ---- elementwise ----------------------------------------------------------------
  void binary(Op op) {
    int a = input(0), b = input(1);
    const int y = output0();
    // A constant first operand of add/mul (PyTorch's Linear on 3-D inputs: bias + x W)
    // goes second, where quantization and the kernels expect constants.
    if ((op == Op::kAdd || op == Op::kMul) && is_constant(a) && !is_constant(b)) std::swap(a, b);
    const size_t r = rank(y);
    const bool cl = choose_channels_last({a, b}, r);
    const int ia = operand(a, r, cl), ib = operand(b, r, cl);
    emit(op, node_->name, {ia, ib}, {output(y, cl)});
  }

  // Equal, Less, LessOrEqual, Greater, GreaterOrEqual and Xor (not_equal of bools) ->
  // bool: compare `fn` (numpy broadcast, one dtype; the lowering names the dtypes each
  // fn takes).
  void compare(const char* fn) { two_operands(Op::kCompare, fn); }
  // And, Or of bools: logical `fn`.
  void logical_op(const char* fn) { two_operands(Op::kLogical, fn); }
  // Not(x) = (x == false).
  void logical_not() {
    const int x = input(0), y = output0();
    if (g_.tensors[x].dtype != DType::kBool)
      fail(std::string("input dtype ") + dtype_name(g_.tensors[x].dtype) + " not supported (bool only)");
    const int no = g_.add_constant(node_->name + "_false", DType::kBool, {1}, std::vector<uint8_t>{0});
    const bool cl = choose_channels_last({x}, rank(x));
    emit(Op::kCompare, node_->name, {cl ? channels_last(x) : logical(x), no}, {output(y, cl)}).attrs["fn"] =
        std::string("equal");
  }
  void two_operands(Op op, const char* fn) {
    const int a = input(0), b = input(1), y = output0();
    if (g_.tensors[a].dtype != g_.tensors[b].dtype)
      fail(std::string("inputs of dtypes ") + dtype_name(g_.tensors[a].dtype) + " and " +
           dtype_name(g_.tensors[b].dtype) + " differ");
    const size_t r = rank(y);
    const bool cl = choose_channels_last({a, b}, r);
    emit(op, node_->name, {operand(a, r, cl), operand(b, r, cl)}, {output(y, cl)}).attrs["fn"] = std::string(fn);
  }

  // Where(condition, x, y): select (numpy broadcast of all three; x and y of one dtype of
  // 1, 2 or 4 bytes: int64 data is refused by select's lowering).
  void where() {
    const int c = input(0), x = input(1), z = input(2), y = output0();
    if (g_.tensors[c].dtype != DType::kBool)
      fail(std::string("condition dtype ") + dtype_name(g_.tensors[c].dtype) + " not supported (bool only)");
    const size_t r = rank(y);
    const bool cl = choose_channels_last({c, x, z}, r);
    emit(Op::kSelect, node_->name, {operand(c, r, cl), operand(x, r, cl), operand(z, r, cl)}, {output(y, cl)});
  }

  void unary(Op op, double lo, double hi) {
    const int x = input(0), y = output0();
    const bool cl = choose_channels_last({x}, rank(x));
    const int in = cl ? channels_last(x) : logical(x);
    ir::Node& n = emit(op, node_->name, {in}, {output(y, cl)});
    if (op == Op::kClamp) {
      n.attrs["min"] = lo;
      n.attrs["max"] = hi;
    }
  }

  void clip() {
    const SourceNode& n = *node_;
    double lo = n.get_float("min", -kInf), hi = n.get_float("max", kInf);
    auto bound = [&](size_t k, const char* what, double& value) {
      const int id = input(k);
      if (id == ir::kNoTensor) return;
      if (!is_constant(id) || g_.tensors[id].elements() != 1)
        fail(std::string("input '") + what + "' must be a constant scalar");
      value = read_doubles(g_.tensors[id])[0];
    };
    bound(1, "min", lo);
    bound(2, "max", hi);
    unary(Op::kClamp, lo, hi);
  }

  // A float unary function (mote_ops.md "unary"), in x's layout.
  void unary_fn(const char* fn) {
    const int x = input(0), y = output0();
    if (g_.tensors[x].dtype != DType::kFloat32)
      fail(std::string("input dtype ") + dtype_name(g_.tensors[x].dtype) + " not supported (float32 only)");
    const bool cl = choose_channels_last({x}, rank(x));
    const int in = cl ? channels_last(x) : logical(x);
    emit(Op::kUnary, node_->name, {in}, {output(y, cl)}).attrs["fn"] = std::string(fn);
  }

  // CumSum over the normalized axis, in x's layout (exclusive and reverse as attributes).
  void cumsum() {
    const SourceNode& n = *node_;
    const int x = input(0), y = output0();
    const size_t r = rank(x);
    const bool cl = choose_channels_last({x}, r);
    int64_t axis = n.get_int("axis", 0);
    if (cl) axis = inverse(channels_last_perm(r))[axis];
    ir::Node& c = emit(Op::kCumsum, n.name, {cl ? channels_last(x) : logical(x)}, {output(y, cl)});
    c.attrs["axis"] = axis;
    c.attrs["exclusive"] = n.get_int("exclusive", 0);
    c.attrs["reverse"] = n.get_int("reverse", 0);
  }

  // TopK (float32) along the normalized axis, in x's layout: values and indices; K
  // constant (once folded), 1 to the axis' size.
  void top_k() {
    const SourceNode& n = *node_;
    const int x = input(0), k_input = input(1);
    if (g_.tensors[x].dtype != DType::kFloat32)
      fail(std::string("input dtype ") + dtype_name(g_.tensors[x].dtype) + " not supported (float32 only)");
    if (k_input == ir::kNoTensor || !is_constant(k_input) || g_.tensors[k_input].elements() != 1)
      fail("input 'K' must be a constant of one element");
    const int64_t k = read_ints(g_.tensors[k_input])[0], size = logical_shape(x)[n.get_int("axis", 0)];
    if (k < 1 || k > size)
      fail("K " + std::to_string(k) + " not supported (1 to the axis' size " + std::to_string(size) + ")");
    const size_t r = rank(x);
    const bool cl = choose_channels_last({x}, r);
    int64_t axis = n.get_int("axis", 0);
    if (cl) axis = inverse(channels_last_perm(r))[axis];
    const int values = output(n.outputs.at(0), cl), indices = output(n.outputs.at(1), cl);
    ir::Node& t = emit(Op::kTopK, n.name, {cl ? channels_last(x) : logical(x)}, {values, indices});
    t.attrs["axis"] = axis;
    t.attrs["k"] = k;
    t.attrs["largest"] = n.get_int("largest", 1);
  }

  // Mod: fmod 0 is floor_mod (the result takes the divisor's sign). fmod 1 (C fmod, the
  // dividend's sign; float32 only) is sign(a) * floor_mod(|a|, |b|): both exact, as the
  // floor and C remainders agree on non-negative operands.
  void mod() {
    const SourceNode& n = *node_;
    if (n.get_int("fmod", 0) == 0) return binary(Op::kFloorMod);
    const int a = input(0), b = input(1), y = output0();
    if (g_.tensors[a].dtype != DType::kFloat32 || g_.tensors[b].dtype != DType::kFloat32)
      fail("fmod 1 on dtype " + std::string(dtype_name(g_.tensors[a].dtype)) + " not supported (float32 only)");
    const size_t r = rank(y);
    const bool cl = choose_channels_last({a, b}, r);
    const int ia = operand(a, r, cl), ib = operand(b, r, cl);
    const int out = output(y, cl);
    auto unary = [&](const char* fn, int in, const std::string& suffix) {
      const int t = new_tensor(n.name + suffix, DType::kFloat32, g_.tensors[in].shape);
      emit(Op::kUnary, n.name + suffix, {in}, {t}).attrs["fn"] = std::string(fn);
      return t;
    };
    const int rem = new_tensor(n.name + "/abs_mod", DType::kFloat32, g_.tensors[out].shape);
    emit(Op::kFloorMod, n.name + "/abs_mod", {unary("abs", ia, "/abs_a"), unary("abs", ib, "/abs_b")}, {rem});
    emit(Op::kMul, n.name, {rem, unary("sign", ia, "/sign_a")}, {out});
  }

  // Trilu(x, k): x where the element (i, j) of each trailing matrix has j - i >= k
  // (upper) or j - i <= k (lower), else 0: select with a constant mask [rows, cols]
  // broadcast over the leading axes, in the logical layout.
  void trilu() {
    const SourceNode& n = *node_;
    const int x = input(0), y = output0();
    const ir::Shape& shape = logical_shape(x);
    const int64_t rows = shape[shape.size() - 2], cols = shape.back();
    const int64_t k = n.get_int("k", 0);
    const bool upper = n.get_int("upper", 1) != 0;
    std::vector<uint8_t> mask(static_cast<size_t>(rows * cols));
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j) mask[i * cols + j] = upper ? j - i >= k : j - i <= k;
    const int keep = g_.add_constant(n.name + "_mask", DType::kBool, {rows, cols}, mask);
    const DType dtype = g_.tensors[x].dtype;
    const std::vector<uint8_t> zero_bytes(dtype_size(dtype), 0);
    const int zero = g_.add_constant(n.name + "_zero", dtype, {1}, zero_bytes);
    emit(Op::kSelect, n.name, {keep, logical(x), zero}, {output(y, false)});
  }

  // Reciprocal(x) = 1 / x.
  void reciprocal() {
    const int x = input(0), y = output0();
    const bool cl = choose_channels_last({x}, rank(x));
    const int in = cl ? channels_last(x) : logical(x);
    emit(Op::kDiv, node_->name, {float_constant(node_->name + "_one", {1}, {1.0f}), in}, {output(y, cl)});
  }

  // Pow(x, e). A constant exponent with one value takes the exact equivalents: 1 a copy,
  // 2 x*x, 3 x*x*x, 0.5 sqrt, -0.5 rsqrt, -1 1/x (the int8 path keeps mul); any other
  // exponent (constant or computed, broadcast as ONNX does) runs pow.
  void pow() {
    const int x = input(0), e = input(1), y = output0();
    if (g_.tensors[x].dtype != DType::kFloat32)
      fail(std::string("base dtype ") + dtype_name(g_.tensors[x].dtype) + " not supported (float32 only)");
    const size_t r = rank(y);
    if (is_constant(e) && rank(x) == r) {
      const std::vector<double> v = read_doubles(g_.tensors[e]);
      const bool uniform = !v.empty() && std::all_of(v.begin(), v.end(), [&](double d) { return d == v[0]; });
      const double p = uniform ? v[0] : 0.0;
      if (uniform && (p == 1.0 || p == 2.0 || p == 3.0 || p == 0.5 || p == -0.5 || p == -1.0)) {
        const bool cl = choose_channels_last({x}, r);
        const int in = cl ? channels_last(x) : logical(x);
        const std::string& name = node_->name;
        if (p == 1.0) return alias(y, in, cl);
        if (p == 0.5 || p == -0.5) {
          emit(Op::kUnary, name, {in}, {output(y, cl)}).attrs["fn"] = std::string(p > 0 ? "sqrt" : "rsqrt");
          return;
        }
        if (p == -1.0) {
          emit(Op::kDiv, name, {float_constant(name + "_one", {1}, {1.0f}), in}, {output(y, cl)});
          return;
        }
        if (p == 2.0) {
          emit(Op::kMul, name, {in, in}, {output(y, cl)});
          return;
        }
        const int square = new_tensor(g_.tensors[y].name + "_square", DType::kFloat32, g_.tensors[in].shape);
        emit(Op::kMul, name + "/square", {in, in}, {square});
        emit(Op::kMul, name, {square, in}, {output(y, cl)});
        return;
      }
    }
    int exponent = e;
    if (g_.tensors[e].dtype != DType::kFloat32) {
      if (!is_constant(e))
        fail(std::string("non-constant exponent of dtype ") + dtype_name(g_.tensors[e].dtype) +
             " not supported (float32 only)");
      std::vector<float> v;
      for (double d : read_doubles(g_.tensors[e])) v.push_back(static_cast<float>(d));
      exponent = float_constant(g_.tensors[e].name + "_f32", logical_shape(e), v);
      values_.resize(g_.tensors.size());
      logical_shapes_.resize(g_.tensors.size());
      logical_shapes_[exponent] = g_.tensors[exponent].shape;
      values_[exponent].logical = exponent;
    }
    const bool cl = choose_channels_last({x, exponent}, r);
    emit(Op::kPow, node_->name, {operand(x, r, cl), operand(exponent, r, cl)}, {output(y, cl)});
  }

  // Elu(x; alpha) = x > 0 ? x : alpha * (e^x - 1); Selu = gamma * Elu(x; alpha). alpha 1
  // is the elu op; otherwise, exactly: clamp(x, 0, inf) + alpha * elu(clamp(x, -inf, 0)).
  void elu() {
    const SourceNode& n = *node_;
    const int x = input(0), y = output0();
    const bool selu = n.op == "Selu";
    const double alpha = n.get_float("alpha", 1.0), gamma = selu ? n.get_float("gamma", 1.0) : 1.0;
    const bool cl = choose_channels_last({x}, rank(x));
    const int in = cl ? channels_last(x) : logical(x);
    const ir::Shape shape = g_.tensors[in].shape;
    const std::string base = g_.tensors[y].name;
    auto temp = [&](const std::string& suffix) { return new_tensor(base + suffix, DType::kFloat32, shape); };
    auto scalar = [&](const std::string& suffix, double v) {
      return float_constant(n.name + suffix, {1}, {static_cast<float>(v)});
    };
    const int out = gamma == 1.0 ? output(y, cl) : temp("_elu");
    if (alpha == 1.0) {
      emit(Op::kElu, n.name + (gamma == 1.0 ? "" : "/elu"), {in}, {out});
    } else {
      const int pos = temp("_pos"), neg = temp("_neg"), neg_elu = temp("_neg_elu"), scaled = temp("_neg_scaled");
      ir::Node& p = emit(Op::kClamp, n.name + "/positive", {in}, {pos});
      p.attrs["min"] = 0.0;
      p.attrs["max"] = kInf;
      ir::Node& q = emit(Op::kClamp, n.name + "/negative", {in}, {neg});
      q.attrs["min"] = -kInf;
      q.attrs["max"] = 0.0;
      emit(Op::kElu, n.name + "/elu", {neg}, {neg_elu});
      emit(Op::kMul, n.name + "/alpha", {neg_elu, scalar("_alpha", alpha)}, {scaled});
      emit(Op::kAdd, n.name + (gamma == 1.0 ? "" : "/sum"), {pos, scaled}, {out});
    }
    if (gamma != 1.0) emit(Op::kMul, n.name, {out, scalar("_gamma", gamma)}, {output(y, cl)});
  }

  // Celu(x; alpha) = max(0, x) + min(0, alpha * (e^(x/alpha) - 1)) = alpha * elu(x / alpha)
  // (the alpha 1 elu op; for x > 0, alpha * x / alpha = x). alpha 1 is one elu.
  void celu() {
    const SourceNode& n = *node_;
    const int x = input(0), y = output0();
    const double alpha = n.get_float("alpha", 1.0);
    const bool cl = choose_channels_last({x}, rank(x));
    const int in = cl ? channels_last(x) : logical(x);
    if (alpha == 1.0) {
      emit(Op::kElu, n.name, {in}, {output(y, cl)});
      return;
    }
    const ir::Shape shape = g_.tensors[in].shape;
    const std::string base = g_.tensors[y].name;
    const int scaled = new_tensor(base + "_scaled", DType::kFloat32, shape);
    const int elu = new_tensor(base + "_elu", DType::kFloat32, shape);
    const int inv_alpha = float_constant(n.name + "_inv_alpha", {1}, {static_cast<float>(1.0 / alpha)});
    emit(Op::kMul, n.name + "/inv_alpha", {in, inv_alpha}, {scaled});
    emit(Op::kElu, n.name + "/elu", {scaled}, {elu});
    emit(Op::kMul, n.name, {elu, float_constant(n.name + "_alpha", {1}, {static_cast<float>(alpha)})}, {output(y, cl)});
  }

  // Max / Min of one or more inputs (numpy broadcast): a chain of maximum / minimum.
  void variadic(Op op) {
    const SourceNode& n = *node_;
    const int y = output0();
    const size_t r = rank(y);
    if (n.inputs.size() == 1) return identity();
    const bool cl = choose_channels_last(n.inputs, r);
    int acc = operand(n.inputs[0], r, cl);
    for (size_t k = 1; k < n.inputs.size(); ++k) {
      const bool last = k + 1 == n.inputs.size();
      const int a = acc, b = operand(n.inputs[k], r, cl);
      acc = last ? output(y, cl)
                 : new_tensor(g_.tensors[y].name + "_" + std::to_string(k), g_.tensors[y].dtype,
                              broadcast_shapes(g_.tensors[a].shape, g_.tensors[b].shape,
                                               g_.name + ": node '" + n.name + "' (" + n.op + ")"));
      emit(op, last ? n.name : n.name + "/" + std::to_string(k), {a, b}, {acc});
    }
  }

  // ArgMax / ArgMin along the logical axis; int64 output (ONNX's), int32 when the model
  // says so.
  void arg(Op op) {
    const SourceNode& n = *node_;
    const int x = input(0), y = output0();
    ir::Node& node = emit(op, n.name, {logical(x)}, {output(y, false)});
    node.attrs["axis"] = n.get_int("axis", 0);
    node.attrs["select_last"] = n.get_int("select_last_index", 0);
  }

  // DepthToSpace: DCR is depth_to_space's channel order; CRD (channel c of block (i, j)
  // at c*b*b + i*b + j) gathers the channels into DCR order first.
  void depth_to_space() {
    const SourceNode& n = *node_;
    const int x = input(0), y = output0();
    const int64_t b = n.get_int("blocksize", 1);
    const ir::Shape& s = logical_shape(x);
    if (s[1] % (b * b) != 0)
      fail("channels " + std::to_string(s[1]) + " not a multiple of blocksize^2 " + std::to_string(b * b));
    int in = channels_last(x);
    if (n.get_string("mode", "DCR") == "CRD" && b > 1) {
      const int64_t out_channels = s[1] / (b * b);
      std::vector<int64_t> index(s[1]);
      for (int64_t c = 0; c < out_channels; ++c)
        for (int64_t k = 0; k < b * b; ++k) index[k * out_channels + c] = c * b * b + k;
      const int indices = g_.add_constant(n.name + "_dcr_order", DType::kInt32, {s[1]}, encode_ints(DType::kInt32, index));
      const int dcr = new_tensor(g_.tensors[x].name + "_dcr", g_.tensors[in].dtype, g_.tensors[in].shape);
      ir::Node& gather = emit(Op::kGather, n.name + "/dcr_order", {in, indices}, {dcr});
      gather.attrs["axis"] = int64_t{3};
      gather.attrs["batch_dims"] = int64_t{0};
      in = dcr;
    }
    emit(Op::kDepthToSpace, n.name, {in}, {output(y, true)}).attrs["block_size"] = b;
  }

  void space_to_depth() {
    const int64_t b = node_->get_int("blocksize", 1);
    const ir::Shape& s = logical_shape(input(0));
    if (s[2] % b != 0 || s[3] % b != 0)
      fail("spatial size " + std::to_string(s[2]) + "x" + std::to_string(s[3]) + " not a multiple of blocksize " +
           std::to_string(b));
    emit(Op::kSpaceToDepth, node_->name, {channels_last(input(0))}, {output(output0(), true)}).attrs["block_size"] = b;
  }

  // Piecewise-linear activations as exact compositions of Mote ops, in x's layout:
  //   HardSigmoid(x) = clamp(alpha * x + beta, 0, 1)
  //   HardSwish(x)   = x * HardSigmoid(x) with alpha 1/6, beta 1/2
  //   LeakyRelu(x)   = clamp(x, 0, inf) + alpha * clamp(x, -inf, 0)
  //   PRelu(x, s)    = clamp(x, 0, inf) + s * clamp(x, -inf, 0)   (s broadcast to x)
  void piecewise_linear() {
    const SourceNode& n = *node_;
    const int x = input(0), y = output0();
    const size_t r = rank(x);
    const bool cl = choose_channels_last({x}, r);
    const int in = cl ? channels_last(x) : logical(x);
    const DType dtype = g_.tensors[in].dtype;
    const ir::Shape shape = g_.tensors[in].shape;
    const std::string base = g_.tensors[y].name;
    auto temp = [&](const std::string& suffix) { return new_tensor(base + suffix, dtype, shape); };
    auto scalar = [&](const std::string& suffix, double v) {
      return float_constant(n.name + suffix, {1}, {static_cast<float>(v)});
    };
    auto clamp = [&](int from, int to, double lo, double hi, const std::string& suffix) {
      ir::Node& c = emit(Op::kClamp, n.name + suffix, {from}, {to});
      c.attrs["min"] = lo;
      c.attrs["max"] = hi;
    };
    if (n.op == "HardSigmoid" || n.op == "HardSwish") {
      const bool swish = n.op == "HardSwish";
      const double alpha = swish ? 1.0 / 6.0 : n.get_float("alpha", 0.2);
      const double beta = swish ? 0.5 : n.get_float("beta", 0.5);
      const int scaled = temp("_scaled"), shifted = temp("_shifted");
      emit(Op::kMul, n.name + "/alpha", {in, scalar("_alpha", alpha)}, {scaled});
      emit(Op::kAdd, n.name + "/beta", {scaled, scalar("_beta", beta)}, {shifted});
      if (!swish) return clamp(shifted, output(y, cl), 0.0, 1.0, "");
      const int gate = temp("_gate");
      clamp(shifted, gate, 0.0, 1.0, "/gate");
      emit(Op::kMul, n.name, {in, gate}, {output(y, cl)});
      return;
    }
    const int slope = n.op == "LeakyRelu" ? scalar("_alpha", n.get_float("alpha", 0.01))
                                         : operand(input(1), r, cl);
    const int pos = temp("_pos"), neg = temp("_neg"), scaled = temp("_neg_scaled");
    clamp(in, pos, 0.0, kInf, "/positive");
    clamp(in, neg, -kInf, 0.0, "/negative");
    emit(Op::kMul, n.name + "/slope", {neg, slope}, {scaled});
    emit(Op::kAdd, n.name, {pos, scaled}, {output(y, cl)});
  }

  // softmax or log_softmax over one axis.
  void softmax_node(Op op, const std::string& name, int in, int out) {
    ir::Node& node = emit(op, name, {in}, {out});
    if (op == Op::kSoftmax) node.attrs["beta"] = 1.0;
  }

  void softmax(Op op) {
    const SourceNode& n = *node_;
    const int x = input(0), y = output0();
    const ir::Shape& shape = logical_shape(x);
    const size_t r = shape.size();
    const int64_t axis = n.get_int("axis", static_cast<int64_t>(r) - 1);
    const std::string name = g_.tensors[y].name;
    if (n.get_int("coerce_2d", 0) != 0) {
      // opset < 13: softmax over the input flattened to [prod(:axis), prod(axis:)].
      int64_t outer = 1;
      for (int64_t i = 0; i < axis; ++i) outer *= shape[i];
      const ir::Shape flat = {outer, ir::element_count(shape) / std::max<int64_t>(outer, 1)};
      const int in = reshaped(logical_order(x), flat, name + "_2d_in");
      const int out = new_tensor(name + "_2d", g_.tensors[y].dtype, flat);
      softmax_node(op, n.name, in, out);
      emit(Op::kReshape, n.name + "/unflatten", {out}, {output(y, false)});
      return;
    }
    const bool cl = channels_last_rank(r) && choose_channels_last({x}, r);
    const int in = cl ? channels_last(x) : logical(x);
    // Physical position of the softmax axis.
    const Perm layout = cl ? channels_last_perm(r) : [&] {
      Perm p(r);
      std::iota(p.begin(), p.end(), 0);
      return p;
    }();
    const int64_t phys = inverse(layout)[axis];
    if (phys == static_cast<int64_t>(r) - 1) {
      softmax_node(op, n.name, in, output(y, cl));
      return;
    }
    // Move the axis last, softmax, move it back.
    Perm to_last;
    for (int64_t i = 0; i < static_cast<int64_t>(r); ++i)
      if (i != phys) to_last.push_back(i);
    to_last.push_back(phys);
    const ir::Shape moved = ir::permuted(g_.tensors[in].shape, to_last);
    const int t_in = new_tensor(name + "_axis_last", g_.tensors[in].dtype, moved);
    emit_permute(n.name + "/axis_last", in, t_in, to_last);
    const int t_out = new_tensor(name + "_sm", g_.tensors[in].dtype, moved);
    softmax_node(op, n.name, t_in, t_out);
    emit_permute(n.name + "/axis_back", t_out, output(y, cl), inverse(to_last));
  }

  // ---- shape and data movement ----------------------------------------------------
  void reshape() {
    const int x = input(0), y = output0();
    const int in = logical_order(x);
    if (g_.tensors[in].shape == logical_shape(y)) return alias(y, in, false);
    emit(Op::kReshape, node_->name, {in}, {output(y, false)});
  }

  void identity() {
    const int x = input(0), y = output0();
    if (has_logical(x)) return alias(y, values_[x].logical, false);
    alias(y, channels_last(x), true);
  }

  void transpose() {
    const Perm perm = node_->get_ints("perm");
    const int x = input(0), y = output0();
    const size_t r = rank(x);
    if (channels_last_rank(r) && has_cl(x)) {
      // y axis i = logical axis perm[i] = physical axis pos[perm[i]].
      const Perm pos = inverse(channels_last_perm(r));
      Perm composed(r);
      for (size_t i = 0; i < r; ++i) composed[i] = pos[perm[i]];
      if (is_identity(composed)) return alias(y, values_[x].channels_last, false);
      if (!has_logical(x)) {
        emit_permute(node_->name, values_[x].channels_last, output(y, false), composed);
        return;
      }
    }
    const int in = logical(x);
    if (is_identity(perm)) return alias(y, in, false);
    emit_permute(node_->name, in, output(y, false), perm);
  }

  void concat() {
    const SourceNode& n = *node_;
    const int y = output0();
    const size_t r = rank(y);
    const int64_t axis = n.get_int("axis", 0);
    const bool cl = choose_channels_last(n.inputs, r);
    std::vector<int> inputs;
    for (int t : n.inputs) inputs.push_back(cl ? channels_last(t) : logical(t));
    const int64_t phys = cl ? inverse(channels_last_perm(r))[axis] : axis;
    emit(Op::kConcat, n.name, inputs, {output(y, cl)}).attrs["axis"] = phys;
  }

  void pad() {
    const SourceNode& n = *node_;
    const int x = input(0), y = output0();
    if (n.inputs.size() > 1) fail("non-constant pads or constant_value not supported");
    const size_t r = rank(x);
    std::vector<int64_t> pads = n.get_ints("pads");
    const bool cl = choose_channels_last({x}, r);
    if (cl) {
      const Perm perm = channels_last_perm(r);
      std::vector<int64_t> p(2 * r);
      for (size_t i = 0; i < r; ++i) {
        p[i] = pads[perm[i]];
        p[i + r] = pads[perm[i] + r];
      }
      pads = p;
    }
    ir::Node& op = emit(Op::kPad, n.name, {cl ? channels_last(x) : logical(x)}, {output(y, cl)});
    op.attrs["pads"] = pads;
    op.attrs["mode"] = n.get_string("mode", "constant");
    op.attrs["value"] = n.get_float("value", 0.0);
  }

  // ---- slicing ----------------------------------------------------------------------
  // The constant integer input k (absent: empty), or a one-line refusal.
  std::vector<int64_t> constant_ints(size_t k, const std::string& what) {
    const int id = input(k);
    if (id == ir::kNoTensor) return {};
    if (!is_constant(id)) fail("non-constant " + what + " not supported");
    return read_ints(g_.tensors[id]);
  }

  // Source y = the elements of source x at `bounds` (per logical axis of x), written by
  // one strided_slice named `name`. `dropped` >= 0: that axis (count 1) is not in y.
  // The slice runs in x's channels-last layout when x has it and y can take a layout
  // from it (the axes left keep the logical or channels-last order), else logically.
  void strided(const std::string& name, int x, int y, const std::vector<SliceAxis>& bounds,
               int64_t dropped = -1) {
    const size_t r = rank(x);
    for (size_t i = 0; i < r; ++i)
      if (bounds[i].count == 0) fail("empty result (axis " + std::to_string(i) + ") not supported");
    bool cl = choose_channels_last({x}, r);
    bool out_cl = cl && dropped < 0;
    if (cl && dropped >= 0) {
      Perm left;  // the physical order of y's axes, numbered as y's
      for (int64_t a : channels_last_perm(r))
        if (a != dropped) left.push_back(a > dropped ? a - 1 : a);
      if (!is_identity(left)) {
        out_cl = channels_last_rank(r - 1) && left == channels_last_perm(r - 1);
        cl = out_cl;
      }
    }
    Perm perm(r);
    std::iota(perm.begin(), perm.end(), 0);
    if (cl) perm = channels_last_perm(r);
    const int in = cl ? channels_last(x) : logical(x);
    bool whole = dropped < 0;
    std::vector<int64_t> begin, strides, sizes;
    for (size_t i = 0; i < r; ++i) {
      const SliceAxis& b = bounds[perm[i]];
      whole = whole && b.begin == 0 && b.step == 1 && b.count == g_.tensors[in].shape[i];
      begin.push_back(b.begin);
      strides.push_back(b.step);
      sizes.push_back(b.count);
    }
    if (whole) return alias(y, in, cl);
    ir::Node& n = emit(Op::kStridedSlice, name, {in}, {output(y, out_cl)});
    n.attrs["begin"] = begin;
    n.attrs["strides"] = strides;
    n.attrs["sizes"] = sizes;
  }

  std::vector<SliceAxis> whole_axes(int x) const {
    std::vector<SliceAxis> b;
    for (int64_t d : logical_shape(x)) b.push_back({0, 1, d});
    return b;
  }

  // Slice: every starts/ends/axes/steps form (negative, clamped, INT64 extremes, negative
  // steps) whose inputs are constant; strided_slice.
  void slice() {
    const int x = input(0);
    if (input(1) == ir::kNoTensor || input(2) == ir::kNoTensor) fail("inputs 'starts' and 'ends' required");
    std::vector<SliceAxis> bounds;
    const std::vector<int64_t> starts = constant_ints(1, "starts"), ends = constant_ints(2, "ends");
    const std::vector<int64_t> axes = constant_ints(3, "axes"), steps = constant_ints(4, "steps");
    try {
      bounds = slice_axes(*node_, logical_shape(x), starts, ends, axes, steps);
    } catch (const CompileError& e) {
      throw CompileError(message_origin(g_) + ": " + e.what());
    }
    strided(node_->name, x, output0(), bounds);
  }

  // Gather with constant indices (negative ones count from the end): a scalar index or
  // an evenly spaced list is a strided_slice, any other list a gather.
  void gather() {
    const int x = input(0), idx = input(1), y = output0();
    const int64_t axis = node_->get_int("axis", 0);
    if (idx != ir::kNoTensor && !is_constant(idx)) return gather_computed(x, idx, y, axis);
    std::vector<int64_t> indices = constant_ints(1, "indices");
    const ir::Shape index_shape = logical_shape(idx);
    const int64_t dim = logical_shape(x).at(axis);
    for (int64_t& i : indices) {
      if (i < -dim || i >= dim)
        fail("index " + std::to_string(i) + " out of range for dim " + std::to_string(dim) + " of axis " +
             std::to_string(axis));
      if (i < 0) i += dim;
    }
    std::vector<SliceAxis> bounds = whole_axes(x);
    if (index_shape.empty()) {
      bounds[axis] = {indices[0], 1, 1};
      return strided(node_->name, x, y, bounds, axis);
    }
    const int64_t n = static_cast<int64_t>(indices.size());
    const int64_t step = n > 1 ? indices[1] - indices[0] : 1;
    bool even = index_shape.size() == 1 && n > 0 && step != 0;
    for (int64_t k = 1; even && k < n; ++k) even = indices[k] - indices[k - 1] == step;
    if (even) {
      bounds[axis] = {indices[0], step, n};
      return strided(node_->name, x, y, bounds);
    }
    const size_t r = rank(x);
    const bool cl = index_shape.size() == 1 && choose_channels_last({x}, r);
    const int64_t phys = cl ? inverse(channels_last_perm(r))[axis] : axis;
    const int table = g_.add_constant(g_.tensors[idx].name + "_i32", DType::kInt32, index_shape,
                                      encode_ints(DType::kInt32, indices));
    ir::Node& g = emit(Op::kGather, node_->name, {cl ? channels_last(x) : logical(x), table}, {output(y, cl)});
    g.attrs["axis"] = phys;
    g.attrs["batch_dims"] = int64_t{0};
  }

  // Gather at computed indices (an embedding lookup: token ids from a model input): one
  // gather reading the int32 or int64 indices as they are, in the logical layout,
  // negative ones from the end as ONNX says; an index outside the axis reads zeros
  // (the gather kernel's contract) where ONNX leaves the result undefined.
  void gather_computed(int x, int idx, int y, int64_t axis) {
    const DType dtype = g_.tensors[idx].dtype;
    if (dtype != DType::kInt32 && dtype != DType::kInt64)
      fail(std::string("indices dtype ") + dtype_name(dtype) + " not supported (int32 or int64)");
    ir::Node& g = emit(Op::kGather, node_->name, {logical(x), logical(idx)}, {output(y, false)});
    g.attrs["axis"] = axis;
    g.attrs["batch_dims"] = int64_t{0};
    g.attrs["negative_from_end"] = int64_t{1};
  }

  // Split: one strided_slice per output, in x's layout.
  void split() {
    const int x = input(0);
    const int64_t axis = node_->get_int("axis", 0);
    const std::vector<int64_t> sizes = node_->get_ints("split");
    int64_t offset = 0;
    for (size_t k = 0; k < node_->outputs.size(); ++k) {
      std::vector<SliceAxis> bounds = whole_axes(x);
      bounds[axis] = {offset, 1, sizes.at(k)};
      offset += sizes[k];
      strided(node_->name + "/" + std::to_string(k), x, node_->outputs[k], bounds);
    }
  }

  // Expand of a computed tensor (a constant one folds before): a gather from the input
  // flattened, with the broadcast's source index per output element; in the input's
  // channels-last layout when it has one and the ranks agree (both permute alike).
  void expand() {
    if (input(1) != ir::kNoTensor && !is_constant(input(1))) fail("non-constant shape not supported");
    gather_repeated(input(0), output0());
  }

  // Tile(x, repeats): y[i] = x[i mod x's shape], repeats constant (y's dims = x's x repeats).
  void tile() {
    const int x = input(0), y = output0();
    const int repeats = input(1);
    if (repeats == ir::kNoTensor || !is_constant(repeats)) fail("non-constant repeats not supported");
    const std::vector<int64_t> times = read_ints(g_.tensors[repeats]);
    const ir::Shape& in = logical_shape(x);
    if (times.size() != in.size())
      fail("repeats has " + std::to_string(times.size()) + " values for input rank " + std::to_string(in.size()));
    for (size_t i = 0; i < in.size(); ++i) {
      if (times[i] < 1) fail("repeats value " + std::to_string(times[i]) + " not supported (at least 1)");
      if (logical_shape(y).at(i) != in[i] * times[i]) fail("output shape disagrees with the input times repeats");
    }
    gather_repeated(x, y);
  }

  // y from x by numpy broadcasting or tiling (ir::broadcast_source): one gather of x's
  // flat elements at a constant index table, in x's layout (an alias when nothing repeats).
  void gather_repeated(int x, int y) {
    const size_t r = rank(y);
    const bool cl = rank(x) == r && choose_channels_last({x}, r);
    const int in = cl ? channels_last(x) : logical(x);
    const ir::Shape in_shape = g_.tensors[in].shape;
    const ir::Shape out = cl ? ir::permuted(logical_shape(y), channels_last_perm(r)) : logical_shape(y);
    if (in_shape == out) return alias(y, in, cl);
    const std::string base = g_.tensors[y].name;
    const int flat = reshaped(in, {ir::element_count(in_shape)}, base + "_flat_in");
    const int table = g_.add_constant(base + "_broadcast_index", DType::kInt32, out,
                                      encode_ints(DType::kInt32, ir::broadcast_source(in_shape, out)));
    ir::Node& g = emit(Op::kGather, node_->name, {flat, table}, {output(y, cl)});
    g.attrs["axis"] = int64_t{0};
    g.attrs["batch_dims"] = int64_t{0};
  }

  // mean, sum, reduce_max, reduce_min, reduce_prod over the normalized axes (an identity
  // with noop).
  void reduce(Op op) {
    const SourceNode& n = *node_;
    const int y = output0();
    if (n.get_int("noop", 0) != 0) return identity();
    const ReduceLayout at = reduce_layout();
    emit(op, n.name, {at.in}, {output(y, at.out_cl)}).attrs["axes"] = at.axes;
  }

  // Where a reduction runs: its input tensor (channels-last or logical), the axes of that
  // tensor, and whether the output stays channels-last.
  struct ReduceLayout {
    int in;
    std::vector<int64_t> axes;
    bool out_cl;
  };
  ReduceLayout reduce_layout() {
    const SourceNode& n = *node_;
    const int x = input(0);
    const size_t r = rank(x);
    const std::vector<int64_t> axes = n.get_ints("axes");
    const bool keepdims = n.get_int("keepdims", 1) != 0;
    if (choose_channels_last({x}, r)) {
      const Perm perm = channels_last_perm(r);
      std::vector<int64_t> phys_axes;
      Perm kept;  // logical axes left, in physical order
      for (size_t i = 0; i < r; ++i) {
        if (std::find(axes.begin(), axes.end(), perm[i]) != axes.end()) {
          phys_axes.push_back(static_cast<int64_t>(i));
        } else {
          kept.push_back(perm[i]);
        }
      }
      if (keepdims || std::is_sorted(kept.begin(), kept.end())) return {channels_last(x), phys_axes, keepdims};
    }
    return {logical(x), axes, false};
  }

  // ReduceL1 = sum |x|, ReduceL2 = sqrt(sum x^2), ReduceSumSquare = sum x^2 and
  // ReduceLogSumExp = m + log(sum exp(x - m)) with m the max over the axes (no overflow
  // for large x): unary (or mul) steps around sum, in the reduction's layout.
  void reduce_composite() {
    const SourceNode& n = *node_;
    const int x = input(0), y = output0();
    if (g_.tensors[x].dtype != DType::kFloat32)
      fail(std::string("input dtype ") + dtype_name(g_.tensors[x].dtype) + " not supported (float32 only)");
    const bool noop = n.get_int("noop", 0) != 0;
    const ReduceLayout at = noop ? ReduceLayout{logical(x), {}, false} : reduce_layout();
    const int out = output(y, at.out_cl);
    const ir::Shape in_shape = g_.tensors[at.in].shape;
    const ir::Shape out_shape = g_.tensors[out].shape;
    // Each step writes a new tensor of `shape`, or `out` when it is the last.
    auto step = [&](Op o, const std::string& suffix, std::vector<int> ins, const ir::Shape& shape,
                    bool last) -> ir::Node& {
      const int t = last ? out : new_tensor(n.name + suffix, DType::kFloat32, shape);
      return emit(o, n.name + suffix, std::move(ins), {t});
    };
    auto unary = [&](const char* fn, int in, const std::string& suffix, bool last) {
      ir::Node& u = step(Op::kUnary, suffix, {in}, g_.tensors[in].shape, last);
      u.attrs["fn"] = std::string(fn);
      return u.outputs[0];
    };
    auto sum = [&](int in, bool last) {
      if (noop) return last ? step(Op::kReshape, "/copy", {in}, out_shape, true).outputs[0] : in;
      ir::Node& s = step(Op::kSum, "/sum", {in}, out_shape, last);
      s.attrs["axes"] = at.axes;
      return s.outputs[0];
    };
    const std::string& op = n.op;
    if (op == "ReduceL1") {
      sum(unary("abs", at.in, "/abs", false), true);
    } else if (op == "ReduceSumSquare" || op == "ReduceL2") {
      const int squares = step(Op::kMul, "/square", {at.in, at.in}, in_shape, false).outputs[0];
      if (op == "ReduceSumSquare") {
        sum(squares, true);
      } else {
        unary("sqrt", sum(squares, false), "/sqrt", true);
      }
    } else if (noop) {  // ReduceLogSumExp over no axes: log(exp(x))
      unary("log", unary("exp", at.in, "/exp", false), "/log", true);
    } else {  // ReduceLogSumExp
      ir::Shape kept_shape = in_shape;  // the input's shape with the reduced axes 1
      for (int64_t a : at.axes) kept_shape[a] = 1;
      ir::Node& m = step(Op::kReduceMax, "/max", {at.in}, kept_shape, false);
      m.attrs["axes"] = at.axes;
      const int max = m.outputs[0];
      const int shifted = step(Op::kSub, "/shifted", {at.in, max}, in_shape, false).outputs[0];
      const int log = unary("log", sum(unary("exp", shifted, "/exp", false), false), "/log", false);
      step(Op::kAdd, "/add_max", {log, reshaped(max, out_shape, n.name + "/max_reduced")}, out_shape, true);
    }
  }

  // ---- recurrent layers -------------------------------------------------------------
  // LSTM over X [T, B, I] (layout 0), gates in ONNX's order i, o, f, c: per direction
  // one lstm (TFLite's UNIDIRECTIONAL_SEQUENCE_LSTM, time-major) with the gates'
  // weights split out of W [D, 4H, I] and R [D, 4H, H] in TFLite's order i, f, c, o and
  // the bias Wb + Rb; the initial state sliced out of initial_h / initial_c [D, B, H]
  // (zeros when absent). A reverse run reads X time-reversed and reverses its Y back.
  // Y [T, D, B, H], Y_h and Y_c [D, B, H] concatenate the directions; only the outputs
  // read are written.
  void lstm() {
    const SourceNode& n = *node_;
    const RecurrentWeights rw = recurrent_weights(4);
    const RecurrentDims& dims = rw.dims;
    const std::vector<float>& wd = rw.w;
    const std::vector<float>& rd = rw.r;
    const std::vector<float>& bias = rw.bias;
    const std::string& direction = rw.direction;
    const ir::Shape& xs = logical_shape(input(0));
    std::vector<std::array<int, 3>> results;  // per direction: y [T, B, H], h, c [B, H]
    for (int64_t d = 0; d < dims.directions; ++d) {
      const bool reverse = direction == "reverse" || d == 1;
      const std::string name = n.name + (dims.directions == 2 ? (d ? "/backward" : "/forward") : "");
      std::vector<int> in(24, ir::kNoTensor);
      in[0] = logical(input(0));
      if (reverse) in[0] = time_reversed(in[0], name + "/x_reversed");
      // TFLite gate g (i, f, c, o) is ONNX gate kOnnxGate[g].
      static const int64_t kOnnxGate[4] = {0, 2, 3, 1};
      static const char* const kGate[4] = {"input", "forget", "cell", "output"};
      const int64_t h = dims.hidden;
      for (int g = 0; g < 4; ++g) {
        const int64_t row = (d * 4 + kOnnxGate[g]) * h;
        const std::string gate = name + "/" + kGate[g];
        in[1 + g] = float_constant(gate + "_input_weights", {h, dims.inputs},
                                   rows(wd, row, h, dims.inputs));
        in[5 + g] = float_constant(gate + "_recurrent_weights", {h, h}, rows(rd, row, h, h));
        // B [D, 8H]: Wb of the 4 gates, then Rb, as rows of H.
        std::vector<float> gate_bias = rows(bias, d * 8 + kOnnxGate[g], 1, h);
        const std::vector<float> recurrent_bias = rows(bias, d * 8 + 4 + kOnnxGate[g], 1, h);
        for (int64_t k = 0; k < h; ++k) gate_bias[k] += recurrent_bias[k];
        in[12 + g] = float_constant(gate + "_bias", {h}, gate_bias);
      }
      in[18] = initial_state(4, d, dims, name + "/h0");
      in[19] = initial_state(5, d, dims, name + "/c0");
      std::array<int, 3> out = {new_tensor(name + "/y", DType::kFloat32, {xs[0], xs[1], h}),
                                new_tensor(name + "/h", DType::kFloat32, {xs[1], h}),
                                new_tensor(name + "/c", DType::kFloat32, {xs[1], h})};
      ir::Node& op = emit(Op::kLstm, name, in, {out[0], out[1], out[2]});
      op.attrs["activation"] = std::string("tanh");
      op.attrs["cell_clip"] = 0.0;
      op.attrs["proj_clip"] = 0.0;
      op.attrs["time_major"] = int64_t{1};
      if (reverse) out[0] = time_reversed(out[0], name + "/y_reversed_back");
      results.push_back(out);
    }
    recurrent_outputs(results, dims);
  }

  // GRU and RNN over X [T, B, I] (layout 0): per direction one gru (ONNX's equations,
  // gates z, r, h; `gates` 3) or rnn (`gates` 1) with W[d] [G*H, I], R[d] [G*H, H] and
  // B[d] [2*G*H] (zeros when absent), the initial state and the directions as LSTM's;
  // GRU's linear_before_reset and RNN's activation carried over.
  void gru_or_rnn(Op kind, int64_t gates) {
    const SourceNode& n = *node_;
    const RecurrentWeights rw = recurrent_weights(gates);
    const RecurrentDims& dims = rw.dims;
    const int64_t h = dims.hidden, rows_h = gates * h;
    std::vector<std::array<int, 3>> results;
    for (int64_t d = 0; d < dims.directions; ++d) {
      const bool reverse = rw.direction == "reverse" || d == 1;
      const std::string name = n.name + (dims.directions == 2 ? (d ? "/backward" : "/forward") : "");
      int x = logical(input(0));
      if (reverse) x = time_reversed(x, name + "/x_reversed");
      const int wc = float_constant(name + "/input_weights", {rows_h, dims.inputs},
                                    rows(rw.w, d, 1, rows_h * dims.inputs));
      const int rc = float_constant(name + "/recurrent_weights", {rows_h, h}, rows(rw.r, d, 1, rows_h * h));
      const int bc = float_constant(name + "/bias", {2 * rows_h}, rows(rw.bias, d, 1, 2 * rows_h));
      const int h0 = initial_state(4, d, dims, name + "/h0");
      std::array<int, 3> out = {new_tensor(name + "/y", DType::kFloat32, {dims.steps, dims.batches, h}),
                                new_tensor(name + "/h", DType::kFloat32, {dims.batches, h}), ir::kNoTensor};
      ir::Node& op = emit(kind, name, {x, wc, rc, bc, h0}, {out[0], out[1]});
      if (kind == Op::kGru) op.attrs["linear_before_reset"] = n.get_int("linear_before_reset", 0);
      if (kind == Op::kRnn) op.attrs["activation"] = n.get_string("activation", "tanh");
      op.attrs["time_major"] = int64_t{1};
      if (reverse) out[0] = time_reversed(out[0], name + "/y_reversed_back");
      results.push_back(out);
    }
    recurrent_outputs(results, dims);
  }

  struct RecurrentDims {
    int64_t steps, batches, inputs, hidden, directions;
  };

  // The node's direction, sizes and constant weights W [D, G*H, I], R [D, G*H, H] and bias
  // B [D, 2*G*H] (zeros when absent) for G = `gates`, as float data.
  struct RecurrentWeights {
    std::string direction;
    RecurrentDims dims;
    std::vector<float> w, r, bias;
  };
  RecurrentWeights recurrent_weights(int64_t gates) {
    const ir::Shape& xs = logical_shape(input(0));
    if (xs.size() != 3) fail("X must be 3-D [seq_length, batch_size, input_size], got " + shape_string(xs));
    RecurrentWeights rw;
    rw.direction = node_->get_string("direction", "forward");
    rw.dims = {xs[0], xs[1], xs[2], node_->get_int("hidden_size", 0), rw.direction == "bidirectional" ? 2 : 1};
    const int64_t d = rw.dims.directions, h = rw.dims.hidden;
    const ir::Tensor& w = constant_input(1, "W");
    const ir::Tensor& r = constant_input(2, "R");
    expect_recurrent_shape(w, "W", {d, gates * h, rw.dims.inputs});
    expect_recurrent_shape(r, "R", {d, gates * h, h});
    rw.w = floats(w);
    rw.r = floats(r);
    rw.bias.assign(static_cast<size_t>(d * 2 * gates * h), 0.0f);
    if (input(3) != ir::kNoTensor) {
      const ir::Tensor& b = constant_input(3, "B");
      expect_recurrent_shape(b, "B", {d, 2 * gates * h});
      rw.bias = floats(b);
    }
    return rw;
  }

  void expect_recurrent_shape(const ir::Tensor& t, const char* what, const ir::Shape& shape) {
    if (t.shape != shape)
      fail(std::string("input '") + what + "' has shape " + shape_string(t.shape) + ", expected " +
           shape_string(shape));
  }

  // `count` rows of `width` floats from row `first` of a row-major matrix.
  static std::vector<float> rows(const std::vector<float>& data, int64_t first, int64_t count, int64_t width) {
    const auto begin = data.begin() + first * width;
    return std::vector<float>(begin, begin + count * width);
  }

  // Tensor t [T, ...] with its first axis reversed (a strided_slice of step -1).
  int time_reversed(int t, const std::string& name) {
    const ir::Tensor& src = g_.tensors[t];
    const ir::Shape shape = src.shape;
    const int to = new_tensor(name, src.dtype, shape);
    ir::Node& op = emit(Op::kStridedSlice, name, {t}, {to});
    std::vector<int64_t> begin(shape.size(), 0), strides(shape.size(), 1);
    begin[0] = shape[0] - 1;
    strides[0] = -1;
    op.attrs["begin"] = begin;
    op.attrs["strides"] = strides;
    op.attrs["sizes"] = std::vector<int64_t>(shape.begin(), shape.end());
    return to;
  }

  // Direction d's initial state [B, H] from source input k ([D, B, H]; zeros when absent):
  // a constant, or a strided_slice of a computed one.
  int initial_state(size_t k, int64_t d, const RecurrentDims& dims, const std::string& name) {
    const int src = input(k);
    const int64_t size = dims.batches * dims.hidden;
    if (src == ir::kNoTensor) {
      return float_constant(name, {dims.batches, dims.hidden}, std::vector<float>(static_cast<size_t>(size), 0.0f));
    }
    const char* what = k == 4 ? "initial_h" : "initial_c";
    if (logical_shape(src) != ir::Shape{dims.directions, dims.batches, dims.hidden})
      fail(std::string("input '") + what + "' has shape " + shape_string(logical_shape(src)) + ", expected " +
           shape_string({dims.directions, dims.batches, dims.hidden}));
    if (g_.tensors[src].dtype != DType::kFloat32) fail(std::string("input '") + what + "' must be float32");
    if (is_constant(src))
      return float_constant(name, {dims.batches, dims.hidden}, rows(floats(g_.tensors[src]), d, 1, size));
    int from = logical(src);
    if (dims.directions > 1) {
      const int part = new_tensor(name + "_direction", DType::kFloat32, {1, dims.batches, dims.hidden});
      ir::Node& op = emit(Op::kStridedSlice, name + "_direction", {from}, {part});
      op.attrs["begin"] = std::vector<int64_t>{d, 0, 0};
      op.attrs["strides"] = std::vector<int64_t>{1, 1, 1};
      op.attrs["sizes"] = std::vector<int64_t>{1, dims.batches, dims.hidden};
      from = part;
    }
    return reshaped(from, {dims.batches, dims.hidden}, name);
  }

  // The recurrent node's source outputs that are read, from each direction's results
  // (y [T, B, H], final hidden and cell state [B, H]): Y [T, D, B, H] and the states
  // [D, B, H], the directions concatenated.
  void recurrent_outputs(const std::vector<std::array<int, 3>>& results, const RecurrentDims& dims) {
    const SourceNode& n = *node_;
    for (size_t k = 0; k < n.outputs.size() && k < 3; ++k) {
      const int src = n.outputs[k];
      if (readers_[src] == 0) continue;
      const ir::Shape part = k == 0 ? ir::Shape{dims.steps, 1, dims.batches, dims.hidden}
                                    : ir::Shape{1, dims.batches, dims.hidden};
      static const char* const kOutput[3] = {"Y", "Y_h", "Y_c"};
      const std::string name = n.name + "/" + kOutput[k];
      if (results.size() == 1) {
        emit(Op::kReshape, name, {results[0][k]}, {output(src, false)});
        continue;
      }
      std::vector<int> parts;
      for (size_t d = 0; d < results.size(); ++d)
        parts.push_back(reshaped(results[d][k], part, name + "_" + std::to_string(d)));
      emit(Op::kConcat, name, parts, {output(src, false)}).attrs["axis"] = int64_t{k == 0 ? 1 : 0};
    }
  }

  // ---- normalization --------------------------------------------------------------
  // A constant scale or bias input of a normalization as `count` floats (`fill` when the
  // input is absent): broadcast along the `kept` dims of x's logical shape (layer_norm),
  // or without `kept`, a [count] vector (per channel).
  int norm_param(size_t k, const char* what, const std::vector<bool>& kept, int64_t count, float fill) {
    const int id = input(k);
    const std::string name = node_->name + "/" + what;
    if (id == ir::kNoTensor) return float_constant(name, {count}, std::vector<float>(count, fill));
    if (!is_constant(id)) fail(std::string("non-constant ") + what + " not supported");
    const ir::Tensor& t = g_.tensors[id];
    if (t.dtype != DType::kFloat32) fail(std::string(what) + " dtype " + dtype_name(t.dtype) + " not supported");
    const std::vector<float> values =
        !kept.empty() ? broadcast_along(t, logical_shape(input(0)), kept)
        : t.shape == ir::Shape{count} ? std::vector<float>(t.as<float>(), t.as<float>() + count)
                                       : std::vector<float>{};
    if (static_cast<int64_t>(values.size()) != count)
      fail(std::string(what) + " shape " + shape_string(t.shape) + " does not match the normalized dims (" +
           std::to_string(count) + " values)");
    return float_constant(name, {count}, values);
  }

  // LayerNormalization: layer_norm over the logical dims axis.. (the element order the
  // normalized rows need).
  void layer_norm() {
    const SourceNode& n = *node_;
    const int x = input(0), y = output0();
    const ir::Shape shape = logical_shape(x);  // a copy: new tensors may move the table
    const int64_t axis = n.get_int("axis", static_cast<int64_t>(shape.size()) - 1);
    std::vector<bool> kept(shape.size(), false);
    int64_t count = 1;
    for (size_t i = static_cast<size_t>(axis); i < shape.size(); ++i) {
      kept[i] = true;
      count *= shape[i];
    }
    // A computed scale or bias (numpy-broadcast to x) is a mul / add after the
    // normalization; constant ones stay in layer_norm.
    auto computed = [&](size_t k) {
      const int id = input(k);
      if (id == ir::kNoTensor || is_constant(id)) return false;
      if (g_.tensors[id].dtype != DType::kFloat32)
        fail(std::string(k == 1 ? "scale" : "bias") + " dtype " + dtype_name(g_.tensors[id].dtype) + " not supported");
      return true;
    };
    const bool scale_computed = computed(1), bias_computed = computed(2);
    const int scale = scale_computed ? float_constant(n.name + "/scale", {count}, std::vector<float>(count, 1.0f))
                                     : norm_param(1, "scale", kept, count, 1.0f);
    std::vector<int> inputs = {logical(x), scale};
    if (input(2) != ir::kNoTensor && !bias_computed) inputs.push_back(norm_param(2, "bias", kept, count, 0.0f));
    const std::string base = g_.tensors[y].name;
    int out = scale_computed || bias_computed ? new_tensor(base + "_normalized", DType::kFloat32, shape)
                                              : output(y, false);
    ir::Node& op = emit(Op::kLayerNorm, n.name, inputs, {out});
    op.attrs["axis"] = axis;
    op.attrs["epsilon"] = n.get_float("epsilon", 1e-5);
    if (scale_computed) {
      const int scaled = bias_computed ? new_tensor(base + "_scaled", DType::kFloat32, shape) : output(y, false);
      emit(Op::kMul, n.name + "/scale", {out, logical(input(1))}, {scaled});
      out = scaled;
    }
    if (bias_computed) emit(Op::kAdd, n.name + "/bias", {out, logical(input(2))}, {output(y, false)});
  }

  // InstanceNormalization (groups = C) and GroupNormalization: group_norm on the
  // channels-last tensor, which puts each group's channels last and consecutive.
  void group_norm() {
    const SourceNode& n = *node_;
    const int x = input(0), y = output0();
    const size_t r = rank(x);
    if (!channels_last_rank(r)) fail("input rank " + std::to_string(r) + " not supported (1-D and 2-D only)");
    const int64_t channels = logical_shape(x)[1];
    const int scale = norm_param(1, "scale", {}, channels, 1.0f);
    const int bias = norm_param(2, "bias", {}, channels, 0.0f);
    const int64_t groups = n.op == "GroupNormalization" ? n.get_int("num_groups", 1) : channels;
    ir::Node& op = emit(Op::kGroupNorm, n.name, {channels_last(x), scale, bias}, {output(y, true)});
    op.attrs["groups"] = groups;
    op.attrs["epsilon"] = n.get_float("epsilon", 1e-5);
  }

  ir::Graph g_;                             // the Mote graph, over the source tensors
  std::vector<SourceNode> source_nodes_;
  const SourceNode* node_ = nullptr;
  std::vector<Value> values_;              // by source tensor id
  std::vector<ir::Shape> logical_shapes_;  // by source tensor id
  // GELU fusion, by source node: the pattern's x at its last node, kFusedAway for its
  // other nodes, -1 elsewhere; approximate at the last node.
  std::vector<int> gelu_;
  std::vector<int64_t> gelu_approximate_;
  // Linear bias fusion, by source node: the bias tensor at the MatMul, kFusedAway at its
  // Add, -1 elsewhere.
  std::vector<int> linear_bias_;
  std::vector<int> producer_;  // by source tensor id: the source node writing it, or -1
  std::vector<int> readers_;   // by source tensor id: node inputs reading it (+1 if an output)
};

// ---- cleanup --------------------------------------------------------------------------
// pad(constant 0, only H and W of an NHWC tensor) read only by convolutions (as their
// input): the convolutions pad instead (TensorFlow exports pad explicitly).
bool fold_zero_pads(ir::Graph& g) {
  for (size_t k = 0; k < g.nodes.size(); ++k) {
    const ir::Node& pad = g.nodes[k];
    if (pad.op != Op::kPad || pad.get_string("mode", "constant") != "constant" ||
        pad.get_float("value", 0.0) != 0.0 || g.is_graph_output(pad.outputs[0]))
      continue;
    const std::vector<int64_t> p = pad.get_ints("pads");
    if (p.size() != 8 || p[0] != 0 || p[3] != 0 || p[4] != 0 || p[7] != 0) continue;
    const std::vector<int> readers = g.consumers(pad.outputs[0]);
    bool all_conv = !readers.empty();
    for (int r : readers) {
      const ir::Node& c = g.nodes[r];
      all_conv = all_conv && (c.op == Op::kConv2d || c.op == Op::kDepthwiseConv2d) &&
                 c.inputs[0] == pad.outputs[0] &&
                 std::count(c.inputs.begin(), c.inputs.end(), pad.outputs[0]) == 1;
    }
    if (!all_conv) continue;
    const int source = pad.inputs[0];
    for (int r : readers) {
      ir::Node& c = g.nodes[r];
      std::vector<int64_t> pads = c.get_ints("pads", {0, 0, 0, 0});
      pads[0] += p[1];  // top
      pads[1] += p[2];  // left
      pads[2] += p[5];  // bottom
      pads[3] += p[6];  // right
      c.attrs["pads"] = pads;
      c.inputs[0] = source;
    }
    g.nodes.erase(g.nodes.begin() + k);
    return true;
  }
  return false;
}

// transpose(perm, perm[0] == 0) -> reshape [B, K] -> fully_connected(s) with constant
// weights: the transpose only reorders the K features of each batch row, so permuting
// the weights' columns instead lets the reshape read the transpose's input directly.
// This removes the NHWC -> NCHW transpose before the classifier of LeNet-style models.
bool fold_flatten_transposes(ir::Graph& g) {
  for (ir::Node& reshape : g.nodes) {
    if (reshape.op != Op::kReshape) continue;
    const int flat = reshape.outputs[0];
    const int t = reshape.inputs[0];
    const int tp = g.producer(t);
    if (tp < 0 || g.nodes[tp].op != Op::kTranspose || g.is_graph_output(t) || g.is_graph_output(flat) ||
        g.consumers(t).size() != 1)
      continue;
    const Perm perm = g.nodes[tp].get_ints("perm");
    const int x = g.nodes[tp].inputs[0];
    const ir::Shape& xs = g.tensors[x].shape;
    const ir::Shape& fs = g.tensors[flat].shape;
    if (perm.empty() || perm[0] != 0 || fs.size() != 2 || fs[0] != xs[0]) continue;
    const std::vector<int> readers = g.consumers(flat);
    bool all_fc = !readers.empty();
    for (int r : readers) {
      const ir::Node& fc = g.nodes[r];
      all_fc = all_fc && fc.op == Op::kFullyConnected && fc.inputs[0] == flat &&
               std::count(fc.inputs.begin(), fc.inputs.end(), flat) == 1 &&
               g.tensors[fc.inputs[1]].is_constant && g.tensors[fc.inputs[1]].dtype == DType::kFloat32;
    }
    if (!all_fc) continue;

    // column[k_phys] = k_log: feature k_phys of x's row sits at k_log after the transpose.
    const size_t rank = xs.size();
    const ir::Shape ts = ir::permuted(xs, perm);
    const int64_t k = fs[1];
    std::vector<int64_t> column(k);
    std::vector<int64_t> index(rank, 0);  // index into x, dims 1..rank-1
    for (int64_t kp = 0; kp < k; ++kp) {
      int64_t kl = 0;
      for (size_t i = 1; i < rank; ++i) kl = kl * ts[i] + index[perm[i]];
      column[kp] = kl;
      for (size_t i = rank; i-- > 1;) {
        if (++index[i] < xs[i]) break;
        index[i] = 0;
      }
    }
    for (int r : readers) {
      const ir::Tensor& w = g.tensors[g.nodes[r].inputs[1]];
      const int64_t n = w.shape[0];
      std::vector<float> permuted(n * k);
      for (int64_t o = 0; o < n; ++o)
        for (int64_t kp = 0; kp < k; ++kp) permuted[o * k + kp] = w.as<float>()[o * k + column[kp]];
      const std::string name = w.name + "_nhwc";
      const ir::Shape shape = w.shape;
      g.nodes[r].inputs[1] = g.add_constant(name, DType::kFloat32, shape, float_bytes(permuted));
    }
    reshape.inputs[0] = x;
    return true;
  }
  return false;
}

// Composes transpose chains, drops identity transposes and reshapes, merges reshape
// chains, folds transposes/reshapes of constants. Repeats until nothing changes.
void simplify(ir::Graph& g) {
  bool changed = true;
  while (changed) {
    changed = false;
    for (size_t k = 0; k < g.nodes.size(); ++k) {
      ir::Node& n = g.nodes[k];
      if (n.op != Op::kTranspose && n.op != Op::kReshape) continue;
      const int in = n.inputs[0], out = n.outputs[0];
      const bool is_output = g.is_graph_output(out);
      if (g.tensors[in].is_constant && !is_output) {
        ir::Tensor& o = g.tensors[out];
        const ir::Shape shape = o.shape;
        ir::Tensor folded = n.op == Op::kTranspose ? permute_tensor(g.tensors[in], n.get_ints("perm"))
                                                : g.tensors[in];
        o.is_constant = true;
        o.data = std::move(folded.data);
        o.shape = shape;
        g.nodes.erase(g.nodes.begin() + k);
        changed = true;
        break;
      }
      const int p = g.producer(in);
      if (p >= 0 && g.nodes[p].op == n.op) {
        // Read the producer's input directly.
        const ir::Node& prev = g.nodes[p];
        if (n.op == Op::kTranspose) {
          const Perm first = prev.get_ints("perm"), second = n.get_ints("perm");
          Perm composed(second.size());
          for (size_t i = 0; i < second.size(); ++i) composed[i] = first[second[i]];
          n.attrs["perm"] = composed;
        }
        n.inputs[0] = prev.inputs[0];
        changed = true;
      }
      const int src = n.inputs[0];
      if (n.op == Op::kTranspose && order_preserving(g.tensors[src].shape, n.get_ints("perm"))) {
        n.op = Op::kReshape;
        n.attrs.clear();
        changed = true;
      }
      if (n.op == Op::kReshape && g.tensors[src].shape == g.tensors[out].shape) {
        if (!is_output) {
          g.replace_uses(out, src);
        } else {
          // A copy into a graph output: let the producer write the output instead.
          const int q = g.producer(src);
          if (q < 0 || g.is_graph_output(src) || g.consumers(src).size() != 1) continue;
          for (int& t : g.nodes[q].outputs)
            if (t == src) t = out;
        }
        g.nodes.erase(g.nodes.begin() + k);
        changed = true;
        break;
      }
    }
    if (!changed) changed = fold_flatten_transposes(g);
    if (!changed) changed = fold_zero_pads(g);
    if (changed) g.remove_dead();
  }
}

}  // namespace

std::vector<OnnxOperator> legalized_operators() {
  std::vector<OnnxOperator> ops;
  for (const Legalizer::Conversion& c : Legalizer::conversions()) {
    OnnxOperator op{c.name, c.becomes, false, {}};
    std::istringstream takes(c.takes);
    for (std::string dtype; takes >> dtype;) op.takes.push_back(dtype);
    ops.push_back(std::move(op));
  }
  return ops;
}

ir::Graph legalize(SourceGraph source) {
  ir::Graph graph = Legalizer(std::move(source)).run();
  graph.remove_dead();
  simplify(graph);
  return graph;
}

}  // namespace mote::onnx_import
