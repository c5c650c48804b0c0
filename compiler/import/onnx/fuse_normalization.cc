// Normalizations PyTorch exports as several ONNX ops, recognised and replaced by one
// source op each (onnx_importer.h lists their normalized form):
//
//  LayerNorm below opset 17 (torch's layer_norm symbolic), and any hand-written
//  (x - mean) / sqrt(var + eps) of the same form:
//    m = ReduceMean(x, axes, keepdims 1)      axes: the last k axes of x
//    d = Sub(x, m)
//    s = Pow(d', 2) or Mul(d', d')            d' = d, or another Sub(x, ReduceMean(x, axes))
//    v = ReduceMean(s, axes, keepdims 1)
//    y = Div(d, Sqrt(Add(v, eps)))            eps a constant scalar >= 0 (either Add operand);
//        or Mul(d, Div(1, Sqrt(...)))         torch.rsqrt's form, Mul operands in either order
//    [y = Mul(y, gamma)] [y = Add(y, beta)]   gamma, beta constants varying only along the
//                                             normalized axes (either operand)
//  -> LayerNormalization(x, gamma or ones, [beta]) with axis = the first normalized axis.
//  Float Casts between the pieces are gone already (remove_identities).
//
//  GroupNorm (torch's group_norm symbolic):
//    r = Reshape(x [N,C,...], [N, G, M])
//    i = InstanceNormalization(r, ones [G], zeros [G], eps)
//    y = Reshape(i, x's shape)
//    [y = Mul(y, gamma)] [y = Add(y, beta)]   gamma, beta per channel ([C,1,..] or [1,C,1,..])
//  -> GroupNormalization(x, gamma or ones [C], beta or zeros [C]) with num_groups G.
//
// Each piece is checked (same x, constant exponent 2, constant eps, last-axes reductions,
// keepdims, shapes); a chain where one does not match stays as it is. The nodes a fused
// op replaces are dropped when nothing else reads their outputs; intermediate values that
// other nodes (or the graph outputs) read keep their nodes. Multiplying and adding the
// affine constants are absorbed only when the normalized value has no other reader.
#include <algorithm>

#include "import/onnx/onnx_importer.h"
#include "import/onnx/source_eval.h"

namespace mote::onnx_import {
namespace {

class NormalizationFuser {
 public:
  explicit NormalizationFuser(SourceGraph& graph) : g_(graph) {}

  void run() {
    const size_t count = g_.nodes.size();
    replacement_.assign(count, {});
    drop_.assign(count, false);
    for (size_t k = 0; k < count; ++k) {
      const std::string& op = g_.nodes[k].op;
      if (op == "Div" || op == "Mul") fuse_layer_norm(static_cast<int>(k));
      if (op == "InstanceNormalization") fuse_group_norm(static_cast<int>(k));
    }
    std::vector<SourceNode> result;
    for (size_t k = 0; k < count; ++k) {
      if (!replacement_[k].op.empty()) {
        result.push_back(std::move(replacement_[k]));
      } else if (!drop_[k]) {
        result.push_back(std::move(g_.nodes[k]));
      }
    }
    g_.nodes = std::move(result);
    g_.remove_dead();
  }

 private:
  // The node producing `tensor` when it is `op`, else nullptr.
  const SourceNode* producer(int tensor, const char* op) const {
    if (tensor == ir::kNoTensor) return nullptr;
    const int p = g_.producer(tensor);
    return p >= 0 && g_.nodes[p].op == op ? &g_.nodes[p] : nullptr;
  }

  const ir::Tensor& tensor(int id) const { return g_.tensors[id]; }

  bool scalar_constant(int id, double* value) const {
    if (id == ir::kNoTensor || !tensor(id).is_constant || tensor(id).elements() != 1) return false;
    *value = read_doubles(tensor(id))[0];
    return true;
  }

  // `m` is ReduceMean(x, axes) with keepdims, the axes being the last k of x's rank.
  bool mean_of(int m, int x, std::vector<int64_t>* axes) const {
    const SourceNode* r = producer(m, "ReduceMean");
    if (r == nullptr || r->inputs.at(0) != x || r->get_int("keepdims", 1) != 1) return false;
    const std::vector<int64_t> a = r->get_ints("axes");
    const int64_t rank = static_cast<int64_t>(tensor(x).shape.size());
    if (a.empty()) return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (a[i] != rank - static_cast<int64_t>(a.size()) + static_cast<int64_t>(i)) return false;
    if (!axes->empty() && *axes != a) return false;
    *axes = a;
    return true;
  }

  // `d` is Sub(x, ReduceMean(x, axes)).
  bool centered(int d, int x, std::vector<int64_t>* axes) const {
    const SourceNode* sub = producer(d, "Sub");
    return sub != nullptr && sub->inputs.at(0) == x && mean_of(sub->inputs.at(1), x, axes);
  }

  // The single reader of `t` when it is `op` and t is not a graph output, else -1.
  int sole_reader(int t, const char* op) const {
    if (g_.is_graph_output(t)) return -1;
    const std::vector<int> readers = g_.consumers(t);
    if (readers.size() != 1 || g_.nodes[readers[0]].op != op) return -1;
    return readers[0];
  }

  // Absorbs y -> Mul(y, c) and then -> Add(., c') when their constants vary only along
  // `kept` dims of `shape`. Returns the last absorbed node (or `last`), setting `scale`
  // and `shift` to the constants' values.
  int absorb_affine(int last, const ir::Shape& shape, const std::vector<bool>& kept, std::vector<float>* scale,
                    std::vector<float>* shift) {
    auto constant_operand = [&](int node, std::vector<float>* values) {
      const SourceNode& n = g_.nodes[node];
      const int y = g_.nodes[last].outputs[0];
      const int other = n.inputs.at(0) == y ? n.inputs.at(1) : n.inputs.at(0);
      if (tensor(other).dtype != DType::kFloat32 || tensor(n.outputs[0]).shape != shape) return false;
      *values = broadcast_along(tensor(other), shape, kept);
      return !values->empty();
    };
    const int mul = sole_reader(g_.nodes[last].outputs[0], "Mul");
    if (mul >= 0 && constant_operand(mul, scale)) {
      drop_[last] = true;
      last = mul;
    }
    const int add = sole_reader(g_.nodes[last].outputs[0], "Add");
    if (add >= 0 && constant_operand(add, shift)) {
      drop_[last] = true;
      last = add;
    }
    return last;
  }

  // The centered value d and the standard deviation sd that `node` divides: Div(d, sd),
  // or Mul(d, Div(1, sd)) in either operand order (torch.rsqrt's export). False otherwise.
  bool divides(const SourceNode& node, int* d, int* sd) const {
    if (node.op == "Div") {
      *d = node.inputs.at(0);
      *sd = node.inputs.at(1);
      return true;
    }
    for (int k = 0; k < 2; ++k) {
      const SourceNode* inverse = producer(node.inputs.at(1 - k), "Div");
      double one = 0;
      if (inverse != nullptr && scalar_constant(inverse->inputs.at(0), &one) && one == 1.0) {
        *d = node.inputs.at(k);
        *sd = inverse->inputs.at(1);
        return true;
      }
    }
    return false;
  }

  void fuse_layer_norm(int anchor_index) {
    const SourceNode anchor = g_.nodes[anchor_index];
    int d = ir::kNoTensor, sd = ir::kNoTensor;
    if (!divides(anchor, &d, &sd)) return;
    const SourceNode* sub = producer(d, "Sub");
    if (sub == nullptr) return;
    const int x = sub->inputs.at(0);
    std::vector<int64_t> axes;
    if (tensor(x).dtype != DType::kFloat32 || !mean_of(sub->inputs.at(1), x, &axes)) return;
    const SourceNode* sqrt = producer(sd, "Sqrt");
    const SourceNode* add = sqrt ? producer(sqrt->inputs.at(0), "Add") : nullptr;
    if (add == nullptr) return;
    double eps = 0;
    int v = add->inputs.at(0);
    if (!scalar_constant(add->inputs.at(1), &eps)) {
      v = add->inputs.at(1);
      if (!scalar_constant(add->inputs.at(0), &eps)) return;
    }
    if (!(eps >= 0)) return;
    const SourceNode* var = producer(v, "ReduceMean");
    if (var == nullptr || var->get_int("keepdims", 1) != 1 || var->get_ints("axes") != axes) return;
    const int s = var->inputs.at(0);
    const SourceNode* pow = producer(s, "Pow");
    const SourceNode* square = producer(s, "Mul");
    int base = ir::kNoTensor;
    double exponent = 0;
    if (pow != nullptr && scalar_constant(pow->inputs.at(1), &exponent) && exponent == 2.0) base = pow->inputs.at(0);
    if (square != nullptr && square->inputs.at(0) == square->inputs.at(1)) base = square->inputs.at(0);
    if (base == ir::kNoTensor || (base != d && !centered(base, x, &axes))) return;
    const ir::Shape shape = tensor(x).shape;
    if (tensor(anchor.outputs[0]).shape != shape) return;

    const int64_t axis = static_cast<int64_t>(shape.size() - axes.size());
    std::vector<bool> kept(shape.size(), false);
    for (size_t i = static_cast<size_t>(axis); i < shape.size(); ++i) kept[i] = true;
    std::vector<float> scale, shift;
    const int last = absorb_affine(anchor_index, shape, kept, &scale, &shift);
    const ir::Shape norm_shape(shape.begin() + axis, shape.end());
    if (scale.empty()) scale.assign(ir::element_count(norm_shape), 1.0f);

    SourceNode ln;
    ln.name = anchor.name;
    ln.op = "LayerNormalization";
    ln.inputs = {x, g_.add_constant(anchor.name + "_scale", DType::kFloat32, norm_shape, float_bytes(scale))};
    if (!shift.empty())
      ln.inputs.push_back(g_.add_constant(anchor.name + "_bias", DType::kFloat32, norm_shape, float_bytes(shift)));
    ln.outputs = {g_.nodes[last].outputs[0]};
    ln.attrs["axis"] = axis;
    ln.attrs["epsilon"] = eps;
    replacement_[last] = std::move(ln);
  }

  void fuse_group_norm(int in_index) {
    const SourceNode inorm = g_.nodes[in_index];
    const SourceNode* reshape = producer(inorm.inputs.at(0), "Reshape");
    if (reshape == nullptr) return;
    const int x = reshape->inputs.at(0);
    const ir::Shape shape = tensor(x).shape;
    const ir::Shape& grouped = tensor(inorm.inputs[0]).shape;
    if (tensor(x).dtype != DType::kFloat32 || shape.size() < 3 || grouped.size() != 3 || grouped[0] != shape[0])
      return;
    const int64_t channels = shape[1], groups = grouped[1];
    if (groups < 1 || channels % groups != 0) return;
    // The instance normalization's own scale and bias must be ones and zeros.
    for (size_t k = 1; k < 3; ++k) {
      const int id = inorm.inputs.size() > k ? inorm.inputs[k] : ir::kNoTensor;
      if (id == ir::kNoTensor || !tensor(id).is_constant) return;
      for (double value : read_doubles(tensor(id)))
        if (value != (k == 1 ? 1.0 : 0.0)) return;
    }
    const int back = sole_reader(inorm.outputs[0], "Reshape");
    if (back < 0 || tensor(g_.nodes[back].outputs[0]).shape != shape) return;

    std::vector<bool> kept(shape.size(), false);
    kept[1] = true;
    std::vector<float> scale, shift;
    drop_[in_index] = true;
    const int last = absorb_affine(back, shape, kept, &scale, &shift);
    drop_[back] = true;
    if (scale.empty()) scale.assign(channels, 1.0f);
    if (shift.empty()) shift.assign(channels, 0.0f);

    SourceNode gn;
    gn.name = inorm.name;
    gn.op = "GroupNormalization";
    gn.inputs = {x, g_.add_constant(inorm.name + "_scale", DType::kFloat32, {channels}, float_bytes(scale)),
                 g_.add_constant(inorm.name + "_bias", DType::kFloat32, {channels}, float_bytes(shift))};
    gn.outputs = {g_.nodes[last].outputs[0]};
    gn.attrs["num_groups"] = groups;
    gn.attrs["epsilon"] = inorm.get_float("epsilon", 1e-5);
    replacement_[last] = std::move(gn);
  }

  SourceGraph& g_;
  std::vector<SourceNode> replacement_;  // by node index: the fused node written there
  std::vector<bool> drop_;               // by node index: absorbed into a fused node
};

}  // namespace

void fuse_normalization(SourceGraph& graph) { NormalizationFuser(graph).run(); }

}  // namespace mote::onnx_import
