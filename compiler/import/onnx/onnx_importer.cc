#include "import/onnx/onnx_importer.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <unordered_map>

#include "common/error.h"
#include "onnx/checker.h"
#include "onnx/defs/schema.h"
#include "onnx/defs/shape_inference.h"
#include "onnx/onnx_pb.h"
#include "onnx/shape_inference/implementation.h"
#include "import/onnx/source_eval.h"
#include "window_geometry.h"

namespace mote {
namespace onnx_import {
namespace {

constexpr int64_t kMinOpset = 11;
constexpr int64_t kMaxOpset = 17;
constexpr double kInf = std::numeric_limits<double>::infinity();

std::string first_line(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
  return line;
}

std::string ints_string(const std::vector<int64_t>& v) { return shape_string(v); }

std::string node_name(const onnx::NodeProto& node) {
  if (!node.name().empty()) return node.name();
  if (node.output_size() > 0 && !node.output(0).empty()) return node.output(0);
  return node.op_type();
}

std::optional<DType> dtype_from_onnx(int32_t type) {
  switch (type) {
    case onnx::TensorProto::FLOAT: return DType::kFloat32;
    case onnx::TensorProto::INT64: return DType::kInt64;
    case onnx::TensorProto::INT32: return DType::kInt32;
    case onnx::TensorProto::INT16: return DType::kInt16;
    case onnx::TensorProto::INT8: return DType::kInt8;
    case onnx::TensorProto::UINT8: return DType::kUInt8;
    case onnx::TensorProto::BOOL: return DType::kBool;
    default: return std::nullopt;
  }
}

int32_t dtype_to_onnx(DType dtype) {
  switch (dtype) {
    case DType::kFloat32: return onnx::TensorProto::FLOAT;
    case DType::kInt64: return onnx::TensorProto::INT64;
    case DType::kInt32: return onnx::TensorProto::INT32;
    case DType::kInt16: return onnx::TensorProto::INT16;
    case DType::kInt8: return onnx::TensorProto::INT8;
    case DType::kUInt8: return onnx::TensorProto::UINT8;
    case DType::kBool: return onnx::TensorProto::BOOL;
  }
  return onnx::TensorProto::UNDEFINED;
}

std::string onnx_type_name(int32_t type) {
  if (onnx::TensorProto_DataType_IsValid(type))
    return onnx::TensorProto_DataType_Name(static_cast<onnx::TensorProto_DataType>(type));
  return std::to_string(type);
}

// ---- guarded shape inference ----------------------------------------------------------
// libonnx 1.12's shape inference for the convolution and pooling family
// (convPoolShapeInference, convTransposeShapeInference, MaxUnpool) trusts that the input
// rank, the weight rank and the lengths of kernel_shape/strides/dilations/pads agree: a
// Conv whose input has rank 2 but whose weights have rank 4 makes it index past the end
// of its dilations and input dims (a SEGV), and a zero stride divides by zero. The
// registry below hands InferShapes copies of those schemas whose inference function first
// checks exactly these preconditions on the ranks inference has reached for that node,
// and otherwise fails the node with an InferenceError (which InferShapes attributes to the
// node by name and op). It runs on every such node, including ones whose input rank only
// becomes known during inference, which a check before calling InferShapes could not see.

struct WindowOpInputs {
  int x = 0;   // data input
  int w = -1;  // weight input whose spatial dims give the kernel, or -1 (pools)
  int min_w_rank = 0;
};

const std::map<std::string, WindowOpInputs>& window_ops() {
  static const std::map<std::string, WindowOpInputs> kOps = {
      {"Conv", {0, 1, 1}},        {"ConvInteger", {0, 1, 1}}, {"QLinearConv", {0, 3, 1}},
      {"ConvTranspose", {0, 1, 2}}, {"AveragePool", {0}},     {"MaxPool", {0}},
      {"LpPool", {0}},            {"MaxUnpool", {0, 1, 2}},
  };
  return kOps;
}

// The rank of input `index`, or -1 when absent or of unknown shape.
int input_rank(onnx::InferenceContext& ctx, int index) {
  if (index < 0 || static_cast<size_t>(index) >= ctx.getNumInputs()) return -1;
  const onnx::TypeProto* type = ctx.getInputType(index);
  if (!type || !type->has_tensor_type() || !type->tensor_type().has_shape()) return -1;
  return type->tensor_type().shape().dim_size();
}

// What is wrong with a convolution or pooling node's ranks and window attributes, or ""
// when libonnx's inference for it can run safely.
std::string window_op_problem(const std::string& op, const WindowOpInputs& in,
                              onnx::InferenceContext& ctx) {
  const int x_rank = input_rank(ctx, in.x);
  if (x_rank < 0) return "";  // libonnx infers nothing without the input's shape
  if (x_rank < 3)
    return "input " + std::to_string(in.x) + " has rank " + std::to_string(x_rank) +
           ", expected at least 3 (batch, channels, spatial axes)";
  const size_t spatial = static_cast<size_t>(x_rank - 2);
  auto ints = [&](const char* name) -> std::optional<std::vector<int64_t>> {
    const onnx::AttributeProto* a = ctx.getAttribute(name);
    if (!a) return std::nullopt;
    return std::vector<int64_t>(a->ints().begin(), a->ints().end());
  };
  auto length_problem = [&](const char* name, size_t expected) -> std::string {
    const auto v = ints(name);
    if (!v || v->size() == expected) return "";
    return std::string("attribute '") + name + "' has " + std::to_string(v->size()) +
           " values, expected " + std::to_string(expected) + " for an input of rank " +
           std::to_string(x_rank);
  };
  for (const char* name : {"kernel_shape", "strides", "dilations", "output_padding"})
    if (std::string p = length_problem(name, spatial); !p.empty()) return p;
  if (std::string p = length_problem("pads", 2 * spatial); !p.empty()) return p;
  if (const auto strides = ints("strides"))
    for (int64_t s : *strides)
      if (s <= 0) return "attribute 'strides' value " + ints_string(*strides) + " must be positive";
  if (const onnx::AttributeProto* group = ctx.getAttribute("group"); group && group->i() <= 0)
    return "attribute 'group' value " + std::to_string(group->i()) + " must be positive";
  if (in.w < 0) return "";
  const int w_rank = input_rank(ctx, in.w);
  if (op == "MaxUnpool") {
    if (w_rank < in.min_w_rank)
      return "input " + std::to_string(in.w) + " needs a known shape of rank at least " +
             std::to_string(in.min_w_rank);
    return "";
  }
  if (w_rank < 0) return "";
  if (w_rank < in.min_w_rank || (!ints("kernel_shape") && w_rank != x_rank))
    return "input " + std::to_string(in.x) + " has rank " + std::to_string(x_rank) +
           " but weight input " + std::to_string(in.w) + " has rank " + std::to_string(w_rank) +
           ", expected the same rank";
  return "";
}

class GuardedSchemaRegistry final : public onnx::ISchemaRegistry {
 public:
  const onnx::OpSchema* GetSchema(const std::string& key, const int max_inclusive_version,
                                  const std::string& domain) const override {
    const onnx::OpSchema* schema =
        onnx::OpSchemaRegistry::Instance()->GetSchema(key, max_inclusive_version, domain);
    const auto op = window_ops().find(key);
    if (!schema || op == window_ops().end() || !(domain.empty() || domain == "ai.onnx"))
      return schema;
    auto& guarded = guarded_[schema];
    if (!guarded) {
      guarded = std::make_unique<onnx::OpSchema>(*schema);
      onnx::InferenceFunction original = schema->GetTypeAndShapeInferenceFunction();
      guarded->TypeAndShapeInferenceFunction(
          [original, key, inputs = op->second](onnx::InferenceContext& ctx) {
            if (std::string problem = window_op_problem(key, inputs, ctx); !problem.empty())
              fail_shape_inference(problem);
            if (original) original(ctx);
          });
    }
    return guarded.get();
  }

 private:
  mutable std::map<const onnx::OpSchema*, std::unique_ptr<onnx::OpSchema>> guarded_;
};

// The op types read_model accepts (onnx_operators()' names).
const std::set<std::string>& supported_ops() {
  static const std::set<std::string> kOps = [] {
    std::set<std::string> ops;
    for (const OnnxOperator& op : onnx_operators()) ops.insert(op.name);
    return ops;
  }();
  return kOps;
}

// The result of converting one NodeProto: the normalized node (inputs/outputs not yet
// set), which of the ONNX inputs it keeps, and how many leading outputs it keeps.
struct Converted {
  SourceNode node;
  std::vector<int> kept_inputs;  // positions in the NodeProto's input list
  int kept_outputs = 1;
};

class OnnxImporter {
 public:
  OnnxImporter(std::string path, std::vector<InputShape> input_shapes)
      : path_(std::move(path)), input_shapes_(std::move(input_shapes)) {}

  SourceGraph run() {
    load();
    fix_input_shapes();
    resolve_shapes();
    SourceGraph graph = convert();
    graph.notes = notes_;
    return graph;
  }

 private:
  // ---- errors -------------------------------------------------------------------------
  [[noreturn]] void fail(const std::string& what) const {
    throw CompileError(path_ + ": " + what);
  }
  [[noreturn]] void fail_node(const onnx::NodeProto& node, const std::string& what) const {
    fail("node '" + node_name(node) + "' (" + node.op_type() + "): " + what);
  }
  [[noreturn]] void fail_attr(const onnx::NodeProto& node, const std::string& attr,
                              const std::string& value, const std::string& why = {}) const {
    fail_node(node, "attribute '" + attr + "' value " + value + " not supported" +
                        (why.empty() ? "" : " (" + why + ")"));
  }

  // ---- loading ------------------------------------------------------------------------
  void load() {
    std::error_code ec;
    if (std::filesystem::is_directory(path_, ec)) fail("cannot open: is a directory");
    std::ifstream file(path_, std::ios::binary);
    if (!file) fail(std::string("cannot open: ") + std::strerror(errno));
    std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    if (file.bad()) fail(std::string("cannot read: ") + std::strerror(errno));
    if (!model_.ParseFromString(bytes)) fail("not a valid ONNX model: cannot parse the protobuf");

    for (const auto& opset : model_.opset_import()) {
      if (opset.domain().empty() || opset.domain() == "ai.onnx") opset_ = opset.version();
    }
    if (opset_ != 0 && (opset_ < kMinOpset || opset_ > kMaxOpset))
      fail("opset " + std::to_string(opset_) + " not supported (supported: " +
           std::to_string(kMinOpset) + " to " + std::to_string(kMaxOpset) + ")");
    // Before the checker, which would complain about the missing data file instead.
    for (const auto& init : model_.graph().initializer()) {
      if (init.data_location() == onnx::TensorProto::EXTERNAL)
        fail("tensor '" + init.name() + "' uses external data, not supported");
    }
    fill_empty_layer_norm_scales();
    try {
      onnx::checker::check_model(model_);
    } catch (const std::exception& e) {
      fail("not a valid ONNX model: " + first_line(e.what()));
    }
    if (opset_ == 0) fail("not a valid ONNX model: no opset for the default ONNX domain");
  }

  // torch 1.13 exports nn.LayerNorm(elementwise_affine=False) at opset 17 with an empty
  // scale input, which LayerNormalization requires (the exporter's own check raises after
  // the file is written). Its meaning is plain: scale 1. The input becomes a scalar 1.0
  // initializer (broadcast like any scale), with a note for the report.
  void fill_empty_layer_norm_scales() {
    onnx::GraphProto& g = *model_.mutable_graph();
    for (onnx::NodeProto& node : *g.mutable_node()) {
      if (node.op_type() != "LayerNormalization" || (!node.domain().empty() && node.domain() != "ai.onnx") ||
          node.input_size() < 2 || !node.input(1).empty())
        continue;
      const std::string name = node_name(node) + "/scale_ones";
      onnx::TensorProto* ones = g.add_initializer();
      ones->set_name(name);
      ones->set_data_type(onnx::TensorProto::FLOAT);
      ones->add_float_data(1.0f);
      node.set_input(1, name);
      notes_.push_back("node '" + node_name(node) + "' (LayerNormalization): empty scale input (torch 1.13's export of "
                       "elementwise_affine=False) read as 1");
    }
  }

  // ---- input shapes -------------------------------------------------------------------
  // Sets the graph inputs' dims from input_shapes_ (every dim of a named input; a static
  // one must agree), then fixes a symbolic or unknown axis 0 of the other inputs to 1 (a
  // batch axis; noted for the report). Other symbolic dims stay for checked_type to
  // refuse. When anything changed, the value infos and the outputs' symbolic dims are
  // cleared so that inference derives them from the new shapes.
  void fix_input_shapes() {
    onnx::GraphProto& g = *model_.mutable_graph();
    std::set<std::string> initializers, given;
    for (const auto& init : g.initializer()) initializers.insert(init.name());
    auto is_set = [](const onnx::TensorShapeProto::Dimension& d) { return d.has_dim_value(); };
    bool changed = false;
    for (const InputShape& s : input_shapes_) {
      const std::string option = "--input-shape " + s.name + "=" + dims_string(s.dims);
      onnx::ValueInfoProto* input = nullptr;
      std::string names;
      for (auto& in : *g.mutable_input()) {
        if (initializers.count(in.name())) continue;
        names += (names.empty() ? "" : ", ") + in.name();
        if (in.name() == s.name) input = &in;
      }
      if (!input) fail(option + ": no graph input named '" + s.name + "' (inputs: " + names + ")");
      if (!given.insert(s.name).second) fail(option + ": input '" + s.name + "' given twice");
      auto* shape = input->mutable_type()->mutable_tensor_type()->mutable_shape();
      if (input->type().tensor_type().has_shape() && shape->dim_size() != static_cast<int>(s.dims.size()))
        fail(option + ": rank " + std::to_string(s.dims.size()) + ", input '" + s.name + "' has rank " +
             std::to_string(shape->dim_size()));
      for (size_t i = 0; i < s.dims.size(); ++i) {
        if (s.dims[i] < 1) fail(option + ": dim " + std::to_string(i) + " is " + std::to_string(s.dims[i]) + ", expected >= 1");
        if (static_cast<int>(i) < shape->dim_size() && is_set(shape->dim(i)) && shape->dim(i).dim_value() != s.dims[i])
          fail(option + ": input '" + s.name + "' has dim " + std::to_string(shape->dim(i).dim_value()) +
               " at axis " + std::to_string(i));
      }
      shape->clear_dim();
      for (int64_t d : s.dims) shape->add_dim()->set_dim_value(d);
      changed = true;
    }
    for (auto& in : *g.mutable_input()) {
      if (initializers.count(in.name()) || given.count(in.name()) || !in.type().tensor_type().has_shape())
        continue;
      auto* shape = in.mutable_type()->mutable_tensor_type()->mutable_shape();
      if (shape->dim_size() == 0 || is_set(shape->dim(0))) continue;
      const std::string what = shape->dim(0).has_dim_param() ? "symbolic batch axis '" + shape->dim(0).dim_param() + "'"
                                                             : "unknown batch axis";
      shape->mutable_dim(0)->set_dim_value(1);
      notes_.push_back("input '" + in.name() + "': " + what + " fixed to 1 (set it with --input-shape " +
                       in.name() + "=...)");
      changed = true;
    }
    if (!changed) return;
    g.clear_value_info();
    for (auto& out : *g.mutable_output()) {
      if (!out.type().tensor_type().has_shape()) continue;
      for (auto& d : *out.mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim())
        if (d.has_dim_param()) d.clear_dim_param();
    }
  }

  static std::string dims_string(const std::vector<int64_t>& dims) {
    std::string out;
    for (size_t i = 0; i < dims.size(); ++i) out += (i ? "x" : "") + std::to_string(dims[i]);
    return out;
  }

  // ---- shape inference ----------------------------------------------------------------
  // Strict inference first; when a node's inference fails, its message is kept and
  // inference reruns leniently, so that conversion can name an unsupported op or
  // attribute of that node (the likelier cause) before reporting the failure.
  void infer(onnx::ModelProto& model) {
    const onnx::ModelProto original = model;
    try {
      onnx::ShapeInferenceOptions strict(/*check_type=*/true, /*error_mode=*/1,
                                         /*enable_data_propagation=*/true);
      onnx::shape_inference::InferShapes(model, &schemas_, strict);
      return;
    } catch (const std::exception& e) {
      inference_error_ = first_line(e.what());
    }
    model = original;
    try {
      onnx::ShapeInferenceOptions lenient(/*check_type=*/false, /*error_mode=*/0,
                                          /*enable_data_propagation=*/true);
      onnx::shape_inference::InferShapes(model, &schemas_, lenient);
    } catch (const std::exception& e) {
      fail("shape inference failed: " + first_line(e.what()));
    }
  }

  static bool has_static_shape(const onnx::TypeProto& type) {
    if (!type.has_tensor_type() || !type.tensor_type().has_shape()) return false;
    for (const auto& dim : type.tensor_type().shape().dim())
      if (!dim.has_dim_value()) return false;
    return true;
  }

  void index_types(const onnx::ModelProto& model) {
    types_.clear();
    const auto& g = model.graph();
    for (const auto& v : g.input()) types_[v.name()] = v.type();
    for (const auto& v : g.value_info()) types_[v.name()] = v.type();
    for (const auto& v : g.output()) types_[v.name()] = v.type();
  }

  // Runs shape inference; while it leaves a node output's shape unknown, evaluates the
  // graph's constant parts on the host (turning them into initializers) and infers again.
  void resolve_shapes() {
    for (int round = 0;; ++round) {
      inference_error_.clear();
      inferred_ = model_;
      infer(inferred_);
      index_types(inferred_);
      bool all_static = true;
      for (const auto& node : inferred_.graph().node())
        for (const auto& out : node.output())
          if (!out.empty() && (!types_.count(out) || !has_static_shape(types_[out])))
            all_static = false;
      if (all_static || round > 16) return;
      if (!fold_constant_nodes() && !complete_shapes()) return;
    }
  }

  // Output shapes ONNX 1.12's inference leaves symbolic although the inputs' are static:
  // Einsum's (it infers the rank only), from the normalized equation. Each becomes a
  // value_info of model_, or the graph output's shape (kept by the next inference).
  // Returns whether it wrote any.
  bool complete_shapes() {
    bool wrote = false;
    std::map<std::string, ir::Shape> initializer_dims;
    for (const auto& init : inferred_.graph().initializer())
      initializer_dims[init.name()] = ir::Shape(init.dims().begin(), init.dims().end());
    for (const auto& node : inferred_.graph().node()) {
      if (node.op_type() != "Einsum" || node.output_size() != 1) continue;
      const std::string& out = node.output(0);
      if (types_.count(out) && has_static_shape(types_[out])) continue;
      std::vector<ir::Tensor> holders(node.input_size());
      std::vector<const ir::Tensor*> inputs;
      bool ready = true;
      for (int k = 0; k < node.input_size() && ready; ++k) {
        auto it = types_.find(node.input(k));
        if (it != types_.end() && has_static_shape(it->second)) {
          holders[k].shape = static_shape(it->second);
        } else if (auto init = initializer_dims.find(node.input(k)); init != initializer_dims.end()) {
          holders[k].shape = init->second;
        } else {
          ready = false;
        }
        inputs.push_back(&holders[k]);
      }
      if (!ready) continue;
      const std::string eq = convert_node(node, inputs).node.get_string("equation");
      std::map<char, int64_t> size;
      const std::string lhs = eq.substr(0, eq.find("->"));
      size_t operand = 0, axis = 0;
      for (char c : lhs) {
        if (c == ',') {
          ++operand;
          axis = 0;
        } else {
          size[c] = std::max(size[c], inputs[operand]->shape[axis++]);
        }
      }
      onnx::ValueInfoProto* info = nullptr;  // the graph output's (its declared dims symbolic), else a new one
      for (auto& o : *model_.mutable_graph()->mutable_output())
        if (o.name() == out) info = &o;
      if (!info) info = model_.mutable_graph()->add_value_info();
      info->set_name(out);
      auto* tt = info->mutable_type()->mutable_tensor_type();
      tt->set_elem_type(types_.count(out) ? types_[out].tensor_type().elem_type() : onnx::TensorProto::FLOAT);
      tt->mutable_shape()->clear_dim();
      for (char c : eq.substr(eq.find("->") + 2)) tt->mutable_shape()->add_dim()->set_dim_value(size[c]);
      wrote = true;
    }
    return wrote;
  }

  // Host-evaluates every node of model_ whose inputs are known (initializers, Constant
  // outputs, earlier evaluated outputs, or a static shape for Shape/Size). Evaluated
  // values still read by remaining nodes or graph outputs become initializers. Returns
  // false when nothing but Constant nodes could be evaluated.
  bool fold_constant_nodes() {
    onnx::GraphProto& graph = *model_.mutable_graph();
    std::map<std::string, ir::Tensor> known;
    for (const auto& init : graph.initializer()) known[init.name()] = tensor_from_proto(init);
    std::vector<bool> folded(graph.node_size(), false);
    bool progress = false;
    for (int i = 0; i < graph.node_size(); ++i) {
      const onnx::NodeProto& node = graph.node(i);
      if (!node.domain().empty() && node.domain() != "ai.onnx") continue;
      if (node.op_type() == "Constant") {
        known[node.output(0)] = constant_node_value(node);
        folded[i] = true;
        continue;
      }
      if (!is_host_evaluable(node.op_type())) continue;
      const bool shape_only = node.op_type() == "Shape" || node.op_type() == "Size";
      std::vector<ir::Tensor> shape_holders(node.input_size());
      std::vector<const ir::Tensor*> inputs(node.input_size(), nullptr);
      bool ready = true;
      for (int k = 0; k < node.input_size() && ready; ++k) {
        const std::string& name = node.input(k);
        if (name.empty()) continue;
        if (auto it = known.find(name); it != known.end()) {
          inputs[k] = &it->second;
        } else if (shape_only && types_.count(name) && has_static_shape(types_[name])) {
          shape_holders[k].shape = static_shape(types_[name]);
          inputs[k] = &shape_holders[k];
        } else {
          ready = false;
        }
      }
      if (!ready) continue;
      Converted c = convert_node(node, inputs);
      std::vector<const ir::Tensor*> kept;
      for (int pos : c.kept_inputs) kept.push_back(pos < node.input_size() ? inputs[pos] : nullptr);
      std::vector<ir::Tensor> outputs;
      try {
        outputs = evaluate_source_node(c.node, kept, {evaluated_dtype(c.node, kept)});
      } catch (const CompileError& e) {
        fail(e.what());
      }
      for (int k = 0; k < c.kept_outputs && k < node.output_size(); ++k)
        known[node.output(k)] = std::move(outputs[k]);
      folded[i] = true;
      progress = true;
    }
    if (!progress) return false;

    std::set<std::string> still_read;
    for (int i = 0; i < graph.node_size(); ++i)
      if (!folded[i])
        for (const auto& in : graph.node(i).input()) still_read.insert(in);
    for (const auto& out : graph.output()) still_read.insert(out.name());
    std::set<std::string> initializers;
    for (const auto& init : graph.initializer()) initializers.insert(init.name());

    google::protobuf::RepeatedPtrField<onnx::NodeProto> kept_nodes;
    for (int i = 0; i < graph.node_size(); ++i) {
      if (!folded[i]) {
        *kept_nodes.Add() = graph.node(i);
        continue;
      }
      for (const auto& out : graph.node(i).output()) {
        if (out.empty() || !still_read.count(out) || initializers.count(out) || !known.count(out))
          continue;
        *graph.add_initializer() = tensor_to_proto(known[out], out);
        initializers.insert(out);
      }
    }
    graph.mutable_node()->Swap(&kept_nodes);
    return true;
  }

  // dtype of an evaluated node's first output.
  static DType evaluated_dtype(const SourceNode& node, const std::vector<const ir::Tensor*>& inputs) {
    if (node.op == "Shape" || node.op == "Size") return DType::kInt64;
    if (node.op == "Cast") return static_cast<DType>(node.get_int("to", 1));
    if (node.op == "ConstantOfShape")
      return static_cast<DType>(node.get_int("dtype", static_cast<int64_t>(DType::kFloat32)));
    return inputs.empty() || !inputs[0] ? DType::kFloat32 : inputs[0]->dtype;
  }

  // ---- tensors ------------------------------------------------------------------------
  ir::Shape static_shape(const onnx::TypeProto& type) const {
    ir::Shape shape;
    for (const auto& dim : type.tensor_type().shape().dim()) shape.push_back(dim.dim_value());
    return shape;
  }

  // The tensor's type as (dtype, static shape), or a one-line error naming it.
  std::pair<DType, ir::Shape> checked_type(const std::string& name, const std::string& context) const {
    auto it = types_.find(name);
    if (it == types_.end() || !it->second.has_tensor_type())
      fail("tensor '" + name + "'" + context + " has an unknown type after shape inference");
    const auto& tt = it->second.tensor_type();
    auto dtype = dtype_from_onnx(tt.elem_type());
    if (!dtype)
      fail("tensor '" + name + "'" + context + " has dtype " + onnx_type_name(tt.elem_type()) +
           ", not supported (supported: FLOAT, INT64, INT32, INT16, INT8, UINT8, BOOL)");
    if (!tt.has_shape()) {
      if (!inference_error_.empty()) fail("shape inference failed: " + inference_error_);
      fail("tensor '" + name + "'" + context +
           " has an unknown shape after shape inference; only static shapes are supported");
    }
    ir::Shape shape;
    for (int i = 0; i < tt.shape().dim_size(); ++i) {
      const auto& dim = tt.shape().dim(i);
      if (dim.has_dim_param())
        fail("tensor '" + name + "'" + context + " has a symbolic dimension '" + dim.dim_param() +
             "' at axis " + std::to_string(i) + "; only static shapes are supported (set it with --input-shape)");
      if (!dim.has_dim_value() && !inference_error_.empty())
        fail("shape inference failed: " + inference_error_);
      if (!dim.has_dim_value())
        fail("tensor '" + name + "'" + context + " has an unknown dimension at axis " +
             std::to_string(i) + "; only static shapes are supported");
      if (dim.dim_value() < 0)
        fail("tensor '" + name + "'" + context + " has a negative dimension at axis " +
             std::to_string(i));
      shape.push_back(dim.dim_value());
    }
    return {*dtype, shape};
  }

  ir::Tensor tensor_from_proto(const onnx::TensorProto& tp) const {
    const std::string& name = tp.name();
    if (tp.data_location() == onnx::TensorProto::EXTERNAL)
      fail("tensor '" + name + "' uses external data, not supported");
    auto dtype = dtype_from_onnx(tp.data_type());
    if (!dtype)
      fail("tensor '" + name + "' has dtype " + onnx_type_name(tp.data_type()) +
           ", not supported (supported: FLOAT, INT64, INT32, INT16, INT8, UINT8, BOOL)");
    ir::Tensor t;
    t.name = name;
    t.dtype = *dtype;
    t.is_constant = true;
    for (int64_t d : tp.dims()) {
      if (d < 0) fail("tensor '" + name + "' has a negative dimension");
      t.shape.push_back(d);
    }
    const int64_t count = t.elements();
    const size_t elem = dtype_size(t.dtype);
    auto check_count = [&](int64_t have) {
      if (have != count)
        fail("tensor '" + name + "' holds " + std::to_string(have) + " values, its shape " +
             shape_string(t.shape) + " needs " + std::to_string(count));
    };
    if (tp.has_raw_data()) {
      const std::string& raw = tp.raw_data();
      check_count(static_cast<int64_t>(raw.size() / elem));
      if (raw.size() % elem != 0) fail("tensor '" + name + "' has a truncated raw_data");
      t.data.assign(raw.begin(), raw.end());
      return t;
    }
    switch (t.dtype) {
      case DType::kFloat32:
        check_count(tp.float_data_size());
        t.data = float_bytes(std::vector<float>(tp.float_data().begin(), tp.float_data().end()));
        break;
      case DType::kInt64:
        check_count(tp.int64_data_size());
        t.data = encode_ints(t.dtype, std::vector<int64_t>(tp.int64_data().begin(),
                                                                   tp.int64_data().end()));
        break;
      default:  // int32, int16, int8, uint8, bool are stored in int32_data
        check_count(tp.int32_data_size());
        t.data = encode_ints(t.dtype, std::vector<int64_t>(tp.int32_data().begin(),
                                                                   tp.int32_data().end()));
        break;
    }
    return t;
  }

  static onnx::TensorProto tensor_to_proto(const ir::Tensor& t, const std::string& name) {
    onnx::TensorProto tp;
    tp.set_name(name);
    tp.set_data_type(dtype_to_onnx(t.dtype));
    for (int64_t d : t.shape) tp.add_dims(d);
    tp.set_raw_data(std::string(t.data.begin(), t.data.end()));
    return tp;
  }

  // The value of a Constant node.
  ir::Tensor constant_node_value(const onnx::NodeProto& node) const {
    if (node.attribute_size() != 1) fail_node(node, "expected exactly one value attribute");
    const onnx::AttributeProto& a = node.attribute(0);
    ir::Tensor t;
    t.is_constant = true;
    t.name = node.output(0);
    if (a.name() == "value") {
      t = tensor_from_proto(a.t());
      t.name = node.output(0);
    } else if (a.name() == "value_float") {
      t.dtype = DType::kFloat32;
      t.data = float_bytes({a.f()});
    } else if (a.name() == "value_floats") {
      t.dtype = DType::kFloat32;
      t.shape = {a.floats_size()};
      t.data = float_bytes(std::vector<float>(a.floats().begin(), a.floats().end()));
    } else if (a.name() == "value_int") {
      t.dtype = DType::kInt64;
      t.data = encode_ints(DType::kInt64, {a.i()});
    } else if (a.name() == "value_ints") {
      t.dtype = DType::kInt64;
      t.shape = {a.ints_size()};
      t.data = encode_ints(DType::kInt64, std::vector<int64_t>(a.ints().begin(), a.ints().end()));
    } else {
      fail_node(node, "attribute '" + a.name() + "' not supported");
    }
    return t;
  }

  // ---- attributes ---------------------------------------------------------------------
  static const onnx::AttributeProto* find_attr(const onnx::NodeProto& node, const std::string& name) {
    for (const auto& a : node.attribute())
      if (a.name() == name) return &a;
    return nullptr;
  }
  static int64_t attr_int(const onnx::NodeProto& node, const std::string& name, int64_t fallback) {
    const auto* a = find_attr(node, name);
    return a ? a->i() : fallback;
  }
  static double attr_float(const onnx::NodeProto& node, const std::string& name, double fallback) {
    const auto* a = find_attr(node, name);
    return a ? a->f() : fallback;
  }
  static std::string attr_string(const onnx::NodeProto& node, const std::string& name,
                                 const std::string& fallback) {
    const auto* a = find_attr(node, name);
    return a ? a->s() : fallback;
  }
  static std::optional<std::vector<int64_t>> attr_ints(const onnx::NodeProto& node,
                                                       const std::string& name) {
    const auto* a = find_attr(node, name);
    if (!a) return std::nullopt;
    return std::vector<int64_t>(a->ints().begin(), a->ints().end());
  }

  // ---- node conversion ----------------------------------------------------------------
  // Converts one NodeProto. inputs[k] describes ONNX input k (nullptr when omitted); it
  // carries the shape and, when constant, the data.
  Converted convert_node(const onnx::NodeProto& node,
                         const std::vector<const ir::Tensor*>& inputs) const {
    return NodeConverter(*this, node, inputs).run();
  }

  // The conversion of one node: its normalized attributes and the inputs and outputs it
  // keeps, one method per op that has attributes to normalize.
  class NodeConverter {
   public:
    NodeConverter(const OnnxImporter& importer, const onnx::NodeProto& node,
                  const std::vector<const ir::Tensor*>& inputs)
        : importer_(importer), node_(node), inputs_(inputs) {}

    Converted run() {
      c_.node.name = node_name(node_);
      c_.node.op = node_.op_type();
      const std::string& op = node_.op_type();
      if (op == "Conv" || op == "AveragePool" || op == "MaxPool") {
        importer_.convert_spatial(node_, inputs_, c_);
      } else if (op == "Gemm") {
        gemm();
      } else if (op == "Clip") {
        clip();
      } else if (op == "Softmax" || op == "LogSoftmax") {
        softmax();
      } else if (op == "BatchNormalization") {
        c_.kept_inputs = {0, 1, 2, 3, 4};
        if (attr_int("training_mode", 0) != 0)
          fail_attr("training_mode", std::to_string(attr_int("training_mode", 0)));
        attrs()["epsilon"] = attr_float("epsilon", 1e-5);
      } else if (op == "LayerNormalization") {
        layer_normalization();
      } else if (op == "InstanceNormalization") {
        c_.kept_inputs = {0, 1, 2};
        attrs()["epsilon"] = attr_float("epsilon", 1e-5);
      } else if (op == "Flatten") {
        flatten();
      } else if (op == "Reshape") {
        c_.kept_inputs = {0, 1};
        attrs()["allowzero"] = int64_t{attr_int("allowzero", 0) != 0};
      } else if (op == "Transpose") {
        transpose();
      } else if (op == "Concat") {
        keep_all();
        attrs()["axis"] = axis_in("axis", attr_int("axis", 0), rank_of(0));
      } else if (op == "Pad") {
        pad();
      } else if (op.rfind("Reduce", 0) == 0) {  // ReduceMean, Max, Min, Sum, Prod, L1, L2, SumSquare,
                                                // LogSumExp
        reduce();
      } else if (op == "ArgMax" || op == "ArgMin") {
        c_.kept_inputs = {0};
        attrs()["axis"] = axis_in("axis", attr_int("axis", 0), rank_of(0));
        attrs()["keepdims"] = int64_t{attr_int("keepdims", 1) != 0};
        attrs()["select_last_index"] = int64_t{attr_int("select_last_index", 0) != 0};
      } else if (op == "Elu") {
        c_.kept_inputs = {0};
        attrs()["alpha"] = attr_float("alpha", 1.0);
      } else if (op == "Celu") {
        c_.kept_inputs = {0};
        const double alpha = attr_float("alpha", 1.0);
        if (!std::isfinite(alpha) || alpha == 0.0) {
          std::ostringstream value;
          value << alpha;
          fail_attr("alpha", value.str(), "must be finite and non-zero");
        }
        attrs()["alpha"] = alpha;
      } else if (op == "Selu") {
        c_.kept_inputs = {0};
        attrs()["alpha"] = attr_float("alpha", 1.67326319217681884765625);
        attrs()["gamma"] = attr_float("gamma", 1.05070102214813232421875);
      } else if (op == "DepthToSpace" || op == "SpaceToDepth") {
        block_rearrangement();
      } else if (op == "Dropout") {
        c_.kept_inputs = {0};
        // Training mode drops nothing at ratio 0 (torchvision's attention dropout of
        // p = 0.0 exports training_mode 1 even in eval mode).
        if (const ir::Tensor* mode = constant_input(2, "training_mode")) {
          const ir::Tensor* ratio = constant_input(1, "ratio");
          const bool drops = ratio == nullptr || read_doubles(*ratio).at(0) != 0.0;
          if (read_ints(*mode).at(0) != 0 && drops)
            fail("input 'training_mode' value 1 not supported (inference only, or a ratio of 0)");
        }
      } else if (op == "Squeeze") {
        squeeze();
      } else if (op == "Unsqueeze") {
        unsqueeze();
      } else if (op == "Shape") {
        shape();
      } else if (op == "Gather") {
        c_.kept_inputs = {0, 1};
        attrs()["axis"] = axis_in("axis", attr_int("axis", 0), rank_of(0));
      } else if (op == "Split") {
        split();
      } else if (op == "Cast") {
        cast();
      } else if (op == "ConstantOfShape") {
        constant_of_shape();
      } else if (op == "Einsum") {
        einsum();
      } else if (op == "CumSum") {
        cumsum();
      } else if (op == "Trilu") {
        trilu();
      } else if (op == "TopK") {
        top_k();
      } else if (op == "Mod") {
        keep_all();
        attrs()["fmod"] = int64_t{attr_int("fmod", 0) != 0};
      } else if (op == "ScatterND") {
        keep_all();
        const std::string reduction = OnnxImporter::attr_string(node_, "reduction", "none");
        if (reduction != "none" && reduction != "add" && reduction != "mul" && reduction != "max" &&
            reduction != "min")
          fail_attr("reduction", "'" + reduction + "'");
        attrs()["reduction"] = reduction;
      } else if (op == "HardSigmoid") {
        c_.kept_inputs = {0};
        attrs()["alpha"] = attr_float("alpha", 0.2);
        attrs()["beta"] = attr_float("beta", 0.5);
      } else if (op == "ConvTranspose") {
        conv_transpose();
      } else if (op == "Resize") {
        resize();
      } else if (op == "LeakyRelu") {
        c_.kept_inputs = {0};
        attrs()["alpha"] = attr_float("alpha", 0.01);
      } else if (op == "LSTM") {
        recurrent({"Sigmoid", "Tanh", "Tanh"});
      } else if (op == "GRU") {
        recurrent({"Sigmoid", "Tanh"});
        attrs()["linear_before_reset"] = int64_t{attr_int("linear_before_reset", 0) != 0};
      } else if (op == "RNN") {
        recurrent({"Tanh"}, {"Relu"});
      } else {
        // MatMul, Add, Sub, Mul, Div, Relu, Sigmoid, Tanh, Identity, Size, Slice, Range, Expand,
        // Equal, Where,
        // GlobalAveragePool, GlobalMaxPool: no attributes.
        keep_all();
      }
      return std::move(c_);
    }

   private:
    // ---- helpers ----
    [[noreturn]] void fail(const std::string& what) const { importer_.fail_node(node_, what); }
    [[noreturn]] void fail_attr(const std::string& attr, const std::string& value,
                                const std::string& why = {}) const {
      importer_.fail_attr(node_, attr, value, why);
    }
    std::map<std::string, ir::AttrValue>& attrs() { return c_.node.attrs; }
    int64_t attr_int(const std::string& name, int64_t fallback) const {
      return OnnxImporter::attr_int(node_, name, fallback);
    }
    double attr_float(const std::string& name, double fallback) const {
      return OnnxImporter::attr_float(node_, name, fallback);
    }
    std::optional<std::vector<int64_t>> attr_ints(const std::string& name) const {
      return OnnxImporter::attr_ints(node_, name);
    }
    void keep_all() {
      for (int k = 0; k < node_.input_size(); ++k) c_.kept_inputs.push_back(k);
    }
    const ir::Tensor* input(int k) const {
      return k < static_cast<int>(inputs_.size()) ? inputs_[k] : nullptr;
    }
    int64_t rank_of(int k) const {
      const ir::Tensor* t = input(k);
      if (!t) fail("input " + std::to_string(k) + " missing");
      return static_cast<int64_t>(t->shape.size());
    }
    const ir::Tensor* constant_input(int k, const std::string& what) const {
      const ir::Tensor* t = input(k);
      if (t && !t->is_constant) fail("input '" + what + "' must be constant");
      return t;
    }
    int64_t axis_in(const std::string& attr, int64_t axis, int64_t rank) const {
      if (axis < -rank || axis >= rank)
        fail_attr(attr, std::to_string(axis), "out of range for rank " + std::to_string(rank));
      return axis < 0 ? axis + rank : axis;
    }
    std::vector<int64_t> sorted_axes(const std::string& attr, const std::vector<int64_t>& axes,
                                     int64_t rank) const {
      std::vector<int64_t> out;
      for (int64_t a : axes) out.push_back(axis_in(attr, a, rank));
      std::sort(out.begin(), out.end());
      if (std::adjacent_find(out.begin(), out.end()) != out.end())
        fail_attr(attr, ints_string(axes), "repeated axis");
      return out;
    }

    // ---- ops ----
    // Output Y only: Mean and InvStdDev (training outputs) are refused when read.
    void layer_normalization() {
      c_.kept_inputs = {0, 1, 2};
      attrs()["axis"] = axis_in("axis", attr_int("axis", -1), rank_of(0));
      attrs()["epsilon"] = attr_float("epsilon", 1e-5);
      const int64_t stash_type = attr_int("stash_type", onnx::TensorProto::FLOAT);
      if (stash_type != onnx::TensorProto::FLOAT)
        fail_attr("stash_type", std::to_string(stash_type), "statistics are computed in float (1)");
    }

    // ConvTranspose: output_padding, output_shape and auto_pad folded into pads (begin,
    // end; any sign), as the ONNX spec computes them.
    void conv_transpose() {
      const ir::Tensor* x = input(0);
      const ir::Tensor* w = input(1);
      if (!x || !w) fail("inputs X and W required");
      const size_t rank = x->shape.size();
      if (rank != 3 && rank != 4)
        fail("input '" + node_.input(0) + "' has rank " + std::to_string(rank) +
             ", expected 3 or 4 (1-D and 2-D only)");
      if (w->shape.size() != rank) fail("weights must have rank " + std::to_string(rank));
      const size_t spatial = rank - 2;
      const std::vector<int64_t> kernel(w->shape.begin() + 2, w->shape.end());
      if (auto k = attr_ints("kernel_shape"); k && *k != kernel)
        fail_attr("kernel_shape", ints_string(*k), "the weights' kernel is " + ints_string(kernel));
      const int64_t group = attr_int("group", 1);
      if (group <= 0 || x->shape[1] % group != 0 || w->shape[0] != x->shape[1])
        fail_attr("group", std::to_string(group),
                  "input channels " + std::to_string(x->shape[1]) + ", weights " + shape_string(w->shape));
      const std::vector<int64_t> ones(spatial, 1), zeros(spatial, 0);
      const std::vector<int64_t> strides = attr_ints("strides").value_or(ones);
      const std::vector<int64_t> dilations = attr_ints("dilations").value_or(ones);
      const std::vector<int64_t> output_padding = attr_ints("output_padding").value_or(zeros);
      std::vector<int64_t> pads = attr_ints("pads").value_or(std::vector<int64_t>(2 * spatial, 0));
      const auto check_len = [&](const char* name, const std::vector<int64_t>& v, size_t n) {
        if (v.size() != n) fail_attr(name, ints_string(v), "expected " + std::to_string(n) + " values");
      };
      check_len("strides", strides, spatial);
      check_len("dilations", dilations, spatial);
      check_len("output_padding", output_padding, spatial);
      check_len("pads", pads, 2 * spatial);
      for (size_t i = 0; i < spatial; ++i) {
        if (strides[i] <= 0) fail_attr("strides", ints_string(strides), "must be positive");
        if (dilations[i] <= 0) fail_attr("dilations", ints_string(dilations), "must be positive");
        if (output_padding[i] < 0) fail_attr("output_padding", ints_string(output_padding), "negative");
      }
      for (int64_t p : pads)
        if (p < 0) fail_attr("pads", ints_string(pads), "negative");
      const std::string auto_pad = OnnxImporter::attr_string(node_, "auto_pad", "NOTSET");
      if (auto_pad != "NOTSET" && auto_pad != "VALID" && auto_pad != "SAME_UPPER" && auto_pad != "SAME_LOWER")
        fail_attr("auto_pad", "'" + auto_pad + "'");
      std::optional<std::vector<int64_t>> output_shape = attr_ints("output_shape");
      if (output_shape && output_shape->size() == rank)  // N and C given too
        output_shape->erase(output_shape->begin(), output_shape->begin() + 2);
      if (output_shape && output_shape->size() != spatial)
        fail_attr("output_shape", ints_string(*output_shape), "expected " + std::to_string(spatial) + " values");
      const bool same = auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER";
      std::vector<int64_t> expected(spatial);
      for (size_t i = 0; i < spatial; ++i) {
        // The full scatter's extent; the pads crop it, output_padding extends its end.
        const int64_t in = x->shape[2 + i];
        const int64_t full = strides[i] * (in - 1) + output_padding[i] + (kernel[i] - 1) * dilations[i] + 1;
        if (output_shape || same) {
          // SAME alone: the input size times the stride (plus output_padding), never more
          // than the full extent (ONNX's shape inference and onnxruntime clamp the total
          // padding at 0).
          const int64_t total = output_shape ? full - (*output_shape)[i]
                                             : std::max<int64_t>(0, full - output_padding[i] - in * strides[i]);
          const int64_t half = total >= 0 ? total / 2 : -((-total) / 2);  // toward zero, as the spec's total / 2
          pads[i] = auto_pad == "SAME_UPPER" ? half : total - half;
          pads[i + spatial] = total - pads[i];
        } else if (auto_pad == "VALID") {
          pads[i] = pads[i + spatial] = 0;
        }
        expected[i] = full - pads[i] - pads[i + spatial];
        if (expected[i] <= 0) fail_node_shape(expected);
        // output_padding extends the output past the scatter's end: a negative end pad.
        pads[i + spatial] -= output_padding[i];
      }
      attrs()["kernel_shape"] = kernel;
      attrs()["strides"] = strides;
      attrs()["dilations"] = dilations;
      attrs()["pads"] = pads;
      attrs()["group"] = group;
      attrs()["expected_spatial"] = expected;  // checked against inference, then removed
      c_.kept_inputs = {0, 1};
      if (node_.input_size() > 2 && !node_.input(2).empty()) c_.kept_inputs.push_back(2);
    }
    [[noreturn]] void fail_node_shape(const std::vector<int64_t>& expected) const {
      fail("output spatial size " + ints_string(expected) + " is not positive");
    }

    // Resize: input X, scales and sizes (resolved to constants before legalize), then roi
    // (tf_crop_and_resize's, checked constant in legalize); mode, coordinate_transformation_mode,
    // nearest_mode, cubic_coeff_a, exclude_outside, extrapolation_value.
    void resize() {
      const std::string mode = OnnxImporter::attr_string(node_, "mode", "nearest");
      if (mode != "nearest" && mode != "linear" && mode != "cubic") fail_attr("mode", "'" + mode + "'");
      const std::string transform =
          OnnxImporter::attr_string(node_, "coordinate_transformation_mode", "half_pixel");
      if (transform != "half_pixel" && transform != "pytorch_half_pixel" && transform != "align_corners" &&
          transform != "asymmetric" && transform != "tf_half_pixel_for_nn" && transform != "tf_crop_and_resize")
        fail_attr("coordinate_transformation_mode", "'" + transform + "'");
      const std::string nearest_mode = OnnxImporter::attr_string(node_, "nearest_mode", "round_prefer_floor");
      if (nearest_mode != "round_prefer_floor" && nearest_mode != "round_prefer_ceil" && nearest_mode != "floor" &&
          nearest_mode != "ceil")
        fail_attr("nearest_mode", "'" + nearest_mode + "'");
      const int64_t exclude_outside = attr_int("exclude_outside", 0);
      if (exclude_outside != 0 && exclude_outside != 1)
        fail_attr("exclude_outside", std::to_string(exclude_outside), "0 or 1");
      const double a = attr_float("cubic_coeff_a", -0.75);
      const double extrapolation = attr_float("extrapolation_value", 0.0);
      if (!std::isfinite(a)) fail_attr("cubic_coeff_a", std::to_string(a), "a finite value");
      attrs()["mode"] = mode;
      attrs()["coordinate_transformation_mode"] = transform;
      attrs()["nearest_mode"] = nearest_mode;
      attrs()["cubic_coeff_a"] = a;
      attrs()["exclude_outside"] = exclude_outside;
      attrs()["extrapolation_value"] = extrapolation;
      c_.kept_inputs = {0, 2, 3, 1};
    }

    // LSTM, GRU and RNN: the default activations (`defaults`, per direction) or, for RNN,
    // `alternative` (Relu: attribute activation "relu", else "tanh"),
    // layout 0, no clip, input_forget or peephole; sequence_lens absent. Keeps inputs X, W,
    // R, [B], [initial_h], [initial_c] and every output; attributes direction, hidden_size.
    void recurrent(const std::vector<std::string>& defaults, const std::vector<std::string>& alternative = {}) {
      const std::string direction = OnnxImporter::attr_string(node_, "direction", "forward");
      if (direction != "forward" && direction != "reverse" && direction != "bidirectional")
        fail_attr("direction", "'" + direction + "'");
      if (const int64_t layout = attr_int("layout", 0); layout != 0)
        fail_attr("layout", std::to_string(layout), "batch-major X; PyTorch's batch_first exports layout 0");
      if (const auto* clip = OnnxImporter::find_attr(node_, "clip")) {
        std::ostringstream value;
        value << clip->f();
        fail_attr("clip", value.str(), "no clipping");
      }
      if (const int64_t coupled = attr_int("input_forget", 0); coupled != 0)
        fail_attr("input_forget", std::to_string(coupled), "coupled input and forget gates");
      for (const char* name : {"activation_alpha", "activation_beta"})
        if (OnnxImporter::find_attr(node_, name)) fail("attribute '" + std::string(name) + "' not supported");
      if (const auto* a = OnnxImporter::find_attr(node_, "activations")) {
        const size_t per_direction = defaults.size();
        const size_t directions = direction == "bidirectional" ? 2 : 1;
        bool default_list = static_cast<size_t>(a->strings_size()) == per_direction * directions;
        bool alternative_list = default_list && !alternative.empty();
        std::string given;
        for (int k = 0; k < a->strings_size(); ++k) {
          given += (k ? "," : "") + a->strings(k);
          default_list = default_list && a->strings(k) == defaults[k % per_direction];
          alternative_list = alternative_list && a->strings(k) == alternative[k % per_direction];
        }
        if (alternative_list) attrs()["activation"] = std::string("relu");
        if (!default_list && !alternative_list)
          fail_attr("activations", "[" + given + "]", alternative.empty() ? "default activations only"
                                                                          : "Tanh or Relu in every direction");
      }
      if (input(4) != nullptr) fail("input 'sequence_lens' not supported (every sequence has the full length)");
      if (input(7) != nullptr) fail("input 'P' (peephole weights) not supported");
      const ir::Tensor* r = input(2);
      if (r == nullptr || r->shape.size() != 3) fail("input 'R' must be 3-D");
      if (const int64_t hidden = attr_int("hidden_size", r->shape[2]); hidden != r->shape[2])
        fail("attribute 'hidden_size' " + std::to_string(hidden) + " differs from R's " + shape_string(r->shape));
      attrs()["direction"] = direction;
      attrs()["hidden_size"] = r->shape[2];
      c_.kept_inputs = {0, 1, 2, 3, 5, 6};
      c_.kept_outputs = node_.output_size();
    }

    void gemm() {
      keep_all();
      attrs()["alpha"] = attr_float("alpha", 1.0);
      attrs()["beta"] = attr_float("beta", 1.0);
      const bool trans_a = attr_int("transA", 0) != 0;
      const bool trans_b = attr_int("transB", 0) != 0;
      attrs()["transA"] = int64_t{trans_a};
      attrs()["transB"] = int64_t{trans_b};
      // ONNX 1.12's Gemm inference does not compare the inner dimensions; later stages
      // index the weights by A's K, so a mismatch must stop here.
      const ir::Tensor* a = input(0);
      const ir::Tensor* b = input(1);
      if (!a || !b) return;
      if (a->shape.size() != 2 || b->shape.size() != 2)
        fail("inputs must be 2-D, got A " + shape_string(a->shape) + " and B " + shape_string(b->shape));
      const int64_t k_a = a->shape[trans_a ? 0 : 1];
      const int64_t k_b = b->shape[trans_b ? 1 : 0];
      if (k_a != k_b)
        fail("inner dimensions differ: A '" + node_.input(0) + "' " + shape_string(a->shape) +
             (trans_a ? " (transA)" : "") + " has K " + std::to_string(k_a) + ", B '" +
             node_.input(1) + "' " + shape_string(b->shape) + (trans_b ? " (transB)" : "") +
             " has K " + std::to_string(k_b));
    }

    void clip() {
      const ir::Tensor* lo = input(1);
      const ir::Tensor* hi = input(2);
      const bool bounds_constant = (!lo || lo->is_constant) && (!hi || hi->is_constant);
      if (!bounds_constant) return keep_all();
      auto bound = [&](const ir::Tensor* t, const char* what, double fallback) {
        if (!t) return fallback;
        if (t->elements() != 1) fail(std::string("input '") + what + "' must be a scalar");
        return read_doubles(*t)[0];
      };
      c_.kept_inputs = {0};
      attrs()["min"] = bound(lo, "min", -kInf);
      attrs()["max"] = bound(hi, "max", kInf);
    }

    void softmax() {
      c_.kept_inputs = {0};
      const int64_t rank = rank_of(0);
      const int64_t opset = importer_.opset_;
      const int64_t axis = axis_in("axis", attr_int("axis", opset < 13 ? 1 : -1), rank);
      attrs()["axis"] = axis;
      attrs()["coerce_2d"] = int64_t{opset < 13 && axis != rank - 1};
    }

    void flatten() {
      c_.kept_inputs = {0};
      const int64_t rank = rank_of(0);
      const int64_t axis = attr_int("axis", 1);
      if (axis < -rank || axis > rank)
        fail_attr("axis", std::to_string(axis), "out of range for rank " + std::to_string(rank));
      attrs()["axis"] = axis < 0 ? axis + rank : axis;
    }

    void transpose() {
      c_.kept_inputs = {0};
      const int64_t rank = rank_of(0);
      std::vector<int64_t> perm;
      if (auto p = attr_ints("perm")) {
        perm = *p;
        if (!ir::is_permutation(perm, static_cast<size_t>(rank)))
          fail_attr("perm", ints_string(perm), "not a permutation of the input's axes");
      } else {
        for (int64_t i = rank; i-- > 0;) perm.push_back(i);
      }
      attrs()["perm"] = perm;
    }

    void pad() {
      c_.kept_inputs = {0};
      const std::string mode = OnnxImporter::attr_string(node_, "mode", "constant");
      if (mode != "constant" && mode != "reflect" && mode != "edge") fail_attr("mode", "'" + mode + "'");
      attrs()["mode"] = mode;
      const ir::Tensor* pads_t = constant_input(1, "pads");
      if (!pads_t) fail("input 'pads' missing");
      const std::vector<int64_t> pads = read_ints(*pads_t);
      if (static_cast<int64_t>(pads.size()) != 2 * rank_of(0))
        fail("input 'pads' has " + std::to_string(pads.size()) + " values, expected " +
             std::to_string(2 * rank_of(0)));
      for (int64_t p : pads)
        if (p < 0) fail("input 'pads' value " + ints_string(pads) + " not supported (negative pads)");
      attrs()["pads"] = pads;
      double value = 0.0;
      if (const ir::Tensor* v = constant_input(2, "constant_value")) {
        if (v->elements() != 1) fail("input 'constant_value' must be a scalar");
        value = read_doubles(*v)[0];
      }
      attrs()["value"] = value;
    }

    // ReduceMean/Max/Min/Sum: axes from the attribute or (ReduceSum from opset 13) the
    // constant input 1. No axes (absent or empty) reduce every axis, or with
    // noop_with_empty_axes 1 none: normalized to empty axes and noop 1.
    void reduce() {
      c_.kept_inputs = {0};
      const int64_t rank = rank_of(0);
      std::optional<std::vector<int64_t>> given = attr_ints("axes");
      if (!given && input(1)) given = read_ints(*constant_input(1, "axes"));
      std::vector<int64_t> axes;
      const bool empty = !given || given->empty();
      const bool noop = empty && attr_int("noop_with_empty_axes", 0) != 0;
      if (!empty) {
        axes = sorted_axes("axes", *given, rank);
      } else if (!noop) {
        for (int64_t i = 0; i < rank; ++i) axes.push_back(i);
      }
      attrs()["axes"] = axes;
      attrs()["keepdims"] = int64_t{attr_int("keepdims", 1) != 0};
      attrs()["noop"] = int64_t{noop};
    }

    // DepthToSpace (blocksize, mode "DCR" or "CRD") and SpaceToDepth (blocksize) of a
    // rank-4 NCHW input.
    void block_rearrangement() {
      c_.kept_inputs = {0};
      if (rank_of(0) != 4) fail("input rank " + std::to_string(rank_of(0)) + " not supported (expected 4)");
      const int64_t block = attr_int("blocksize", 0);
      if (block < 1) fail_attr("blocksize", std::to_string(block), "must be at least 1");
      attrs()["blocksize"] = block;
      if (node_.op_type() != "DepthToSpace") return;
      const std::string mode = OnnxImporter::attr_string(node_, "mode", "DCR");
      if (mode != "DCR" && mode != "CRD") fail_attr("mode", "'" + mode + "'");
      attrs()["mode"] = mode;
    }

    void squeeze() {
      c_.kept_inputs = {0};
      const int64_t rank = rank_of(0);
      std::vector<int64_t> axes;
      std::optional<std::vector<int64_t>> given = attr_ints("axes");
      if (!given && input(1)) given = read_ints(*constant_input(1, "axes"));
      if (given) {
        axes = sorted_axes("axes", *given, rank);
        for (int64_t a : axes)
          if (input(0)->shape[a] != 1)
            fail_attr("axes", ints_string(*given),
                      "axis " + std::to_string(a) + " has size " + std::to_string(input(0)->shape[a]));
      } else {
        for (int64_t i = 0; i < rank; ++i)
          if (input(0)->shape[i] == 1) axes.push_back(i);
      }
      attrs()["axes"] = axes;
    }

    void unsqueeze() {
      c_.kept_inputs = {0};
      std::optional<std::vector<int64_t>> given = attr_ints("axes");
      if (!given) {
        const ir::Tensor* t = constant_input(1, "axes");
        if (!t) fail("input 'axes' missing");
        given = read_ints(*t);
      }
      attrs()["axes"] = sorted_axes("axes", *given, rank_of(0) + static_cast<int64_t>(given->size()));
    }

    // split: the part sizes along axis, from the attribute (opset 11) or the constant
    // input (opset 13); absent: equal parts, one per output.
    void split() {
      c_.kept_inputs = {0};
      c_.kept_outputs = node_.output_size();
      const int64_t axis = axis_in("axis", attr_int("axis", 0), rank_of(0));
      const int64_t dim = input(0)->shape[axis];
      const int64_t parts = node_.output_size();
      std::optional<std::vector<int64_t>> sizes = attr_ints("split");
      if (!sizes && input(1)) sizes = read_ints(*constant_input(1, "split"));
      if (!sizes) {
        if (parts == 0 || dim % parts != 0)
          fail("dim " + std::to_string(dim) + " of axis " + std::to_string(axis) + " does not split into " +
               std::to_string(parts) + " equal parts");
        sizes = std::vector<int64_t>(parts, dim / parts);
      }
      int64_t total = 0;
      for (int64_t v : *sizes) {
        if (v < 0) fail_attr("split", ints_string(*sizes), "negative size");
        total += v;
      }
      if (static_cast<int64_t>(sizes->size()) != parts || total != dim)
        fail_attr("split", ints_string(*sizes),
                  "expected " + std::to_string(parts) + " sizes adding up to dim " + std::to_string(dim));
      attrs()["axis"] = axis;
      attrs()["split"] = *sizes;
    }

    void shape() {
      c_.kept_inputs = {0};
      const int64_t rank = rank_of(0);
      auto clamp_index = [rank](int64_t v) { return std::clamp<int64_t>(v < 0 ? v + rank : v, 0, rank); };
      attrs()["start"] = clamp_index(attr_int("start", 0));
      attrs()["end"] = clamp_index(attr_int("end", rank));
    }

    void cast() {
      c_.kept_inputs = {0};
      const int64_t to = attr_int("to", 0);
      auto dtype = dtype_from_onnx(static_cast<int32_t>(to));
      if (!dtype) fail_attr("to", "'" + onnx_type_name(static_cast<int32_t>(to)) + "'");
      attrs()["to"] = static_cast<int64_t>(*dtype);
    }

    // Einsum: the equation without spaces, with its output ("->": implicit mode's sorted
    // letters used once, after the ellipsis' axes) and every "..." replaced by digits
    // naming its axes aligned right ("0" the outermost of the widest one).
    void einsum() {
      keep_all();
      std::string eq;
      for (char c : OnnxImporter::attr_string(node_, "equation", "")) if (c != ' ') eq += c;
      const size_t arrow = eq.find("->");
      const std::string lhs = eq.substr(0, arrow);
      std::vector<std::string> terms(1);
      for (char c : lhs) {
        if (c == ',') {
          terms.emplace_back();
        } else {
          terms.back().push_back(c);
        }
      }
      if (terms.size() != static_cast<size_t>(node_.input_size()))
        fail("equation '" + eq + "' has " + std::to_string(terms.size()) + " operands for " +
             std::to_string(node_.input_size()) + " inputs");
      size_t widest = 0;  // the most axes an ellipsis stands for
      std::vector<size_t> ellipsis_axes(terms.size(), 0);
      for (size_t k = 0; k < terms.size(); ++k) {
        const std::string& t = terms[k];
        const size_t dots = t.find("...");
        for (size_t i = 0; i < t.size(); ++i)
          if (!std::isalpha(static_cast<unsigned char>(t[i])) && (dots == std::string::npos || i < dots || i >= dots + 3))
            fail("equation '" + eq + "' not supported (letters and one '...' per operand)");
        const size_t letters = t.size() - (dots == std::string::npos ? 0 : 3);
        const size_t rank = static_cast<size_t>(rank_of(static_cast<int>(k)));
        if (dots == std::string::npos ? letters != rank : letters > rank)
          fail("equation '" + eq + "': operand " + std::to_string(k) + " has rank " + std::to_string(rank));
        if (dots != std::string::npos) ellipsis_axes[k] = rank - letters;
        widest = std::max(widest, ellipsis_axes[k]);
      }
      if (widest > 10) fail("equation '" + eq + "': an ellipsis of more than 10 axes not supported");
      auto digits = [](size_t from, size_t to) {
        std::string d;
        for (size_t i = from; i < to; ++i) d += static_cast<char>('0' + i);
        return d;
      };
      std::string normalized;
      for (size_t k = 0; k < terms.size(); ++k) {
        const size_t dots = terms[k].find("...");
        std::string t = terms[k];
        if (dots != std::string::npos) t.replace(dots, 3, digits(widest - ellipsis_axes[k], widest));
        normalized += (k ? "," : "") + t;
      }
      std::string out;
      if (arrow == std::string::npos) {
        std::string once;
        for (char c = 'A'; c <= 'z'; ++c)
          if (std::isalpha(static_cast<unsigned char>(c)) && std::count(lhs.begin(), lhs.end(), c) == 1) once += c;
        out = digits(0, widest) + once;
      } else {
        out = eq.substr(arrow + 2);
        const size_t dots = out.find("...");
        if (dots != std::string::npos) out.replace(dots, 3, digits(0, widest));
      }
      attrs()["equation"] = normalized + "->" + out;
    }

    // CumSum: the constant axis input becomes the attribute axis (non-negative).
    void cumsum() {
      c_.kept_inputs = {0};
      const ir::Tensor* axis = constant_input(1, "axis");
      if (!axis || axis->elements() != 1) fail("input 'axis' must be a constant scalar");
      attrs()["axis"] = axis_in("axis", read_ints(*axis)[0], rank_of(0));
      attrs()["exclusive"] = int64_t{attr_int("exclusive", 0) != 0};
      attrs()["reverse"] = int64_t{attr_int("reverse", 0) != 0};
    }

    // TopK: axis (non-negative), largest; inputs X, K (torch.sort's K is a Shape/Gather
    // subgraph: legalize reads it once folded); both outputs kept. sorted 0 (any order) is
    // served sorted.
    void top_k() {
      c_.kept_inputs = {0, 1};
      c_.kept_outputs = 2;
      attrs()["axis"] = axis_in("axis", attr_int("axis", -1), rank_of(0));
      attrs()["largest"] = int64_t{attr_int("largest", 1) != 0};
    }

    // Trilu: the constant diagonal offset input becomes the attribute k (0 when absent).
    void trilu() {
      c_.kept_inputs = {0};
      if (rank_of(0) < 2) fail("input rank " + std::to_string(rank_of(0)) + " not supported (at least 2)");
      const ir::Tensor* k = constant_input(1, "k");
      if (k && k->elements() != 1) fail("input 'k' must be a constant scalar");
      attrs()["k"] = k ? read_ints(*k)[0] : int64_t{0};
      attrs()["upper"] = int64_t{attr_int("upper", 1) != 0};
    }

    void constant_of_shape() {
      c_.kept_inputs = {0};
      double value = 0.0;
      DType dtype = DType::kFloat32;
      if (const auto* a = OnnxImporter::find_attr(node_, "value")) {
        ir::Tensor v = importer_.tensor_from_proto(a->t());
        if (v.elements() != 1) fail("attribute 'value' must hold one element");
        value = read_doubles(v)[0];
        dtype = v.dtype;
      }
      attrs()["value"] = value;
      attrs()["dtype"] = static_cast<int64_t>(dtype);
    }

    const OnnxImporter& importer_;
    const onnx::NodeProto& node_;
    const std::vector<const ir::Tensor*>& inputs_;
    Converted c_;
  };

  // Conv, AveragePool, MaxPool: explicit pads, strides, dilations, kernel_shape.
  void convert_spatial(const onnx::NodeProto& node, const std::vector<const ir::Tensor*>& inputs,
                       Converted& c) const {
    const std::string& op = node.op_type();
    auto& attrs = c.node.attrs;
    const ir::Tensor* x = inputs.empty() ? nullptr : inputs[0];
    if (!x) fail_node(node, "input 0 missing");
    const int64_t rank = static_cast<int64_t>(x->shape.size());
    if (rank < 3)
      fail_node(node, "input '" + node.input(0) + "' has rank " + std::to_string(rank) +
                          ", expected at least 3 (batch, channels, spatial axes)");
    const size_t spatial = static_cast<size_t>(rank - 2);

    std::vector<int64_t> kernel;
    if (op == "Conv") {
      const ir::Tensor* w = inputs.size() > 1 ? inputs[1] : nullptr;
      if (!w || w->shape.size() != static_cast<size_t>(rank))
        fail_node(node, "weights must have rank " + std::to_string(rank));
      kernel.assign(w->shape.begin() + 2, w->shape.end());
      if (auto k = attr_ints(node, "kernel_shape"); k && *k != kernel)
        fail_attr(node, "kernel_shape", ints_string(*k),
                  "the weights' kernel is " + ints_string(kernel));
      const int64_t group = attr_int(node, "group", 1);
      const int64_t channels = x->shape[1], out_channels = w->shape[0];
      if (group <= 0 || channels % group != 0 || out_channels % group != 0 ||
          w->shape[1] != channels / group)
        fail_attr(node, "group", std::to_string(group),
                  "input channels " + std::to_string(channels) + ", weights " +
                      shape_string(w->shape));
      attrs["group"] = group;
      c.kept_inputs = {0, 1};
      if (node.input_size() > 2 && !node.input(2).empty()) c.kept_inputs.push_back(2);
    } else {
      kernel = attr_ints(node, "kernel_shape").value_or(std::vector<int64_t>{});
      c.kept_inputs = {0};
      if (op == "MaxPool" && attr_int(node, "storage_order", 0) != 0)
        fail_attr(node, "storage_order", std::to_string(attr_int(node, "storage_order", 0)));
    }
    auto check_len = [&](const std::string& name, const std::vector<int64_t>& v, size_t n) {
      if (v.size() != n)
        fail_attr(node, name, ints_string(v), "expected " + std::to_string(n) + " values");
    };
    check_len("kernel_shape", kernel, spatial);
    const std::vector<int64_t> ones(spatial, 1);
    std::vector<int64_t> strides = attr_ints(node, "strides").value_or(ones);
    std::vector<int64_t> dilations = ones;
    if (op != "AveragePool") dilations = attr_ints(node, "dilations").value_or(ones);
    std::vector<int64_t> pads = attr_ints(node, "pads").value_or(std::vector<int64_t>(2 * spatial, 0));
    check_len("strides", strides, spatial);
    check_len("dilations", dilations, spatial);
    check_len("pads", pads, 2 * spatial);
    for (size_t i = 0; i < spatial; ++i) {
      if (kernel[i] <= 0) fail_attr(node, "kernel_shape", ints_string(kernel));
      if (strides[i] <= 0) fail_attr(node, "strides", ints_string(strides), "must be positive");
      if (dilations[i] <= 0) fail_attr(node, "dilations", ints_string(dilations));
    }
    for (int64_t p : pads)
      if (p < 0) fail_attr(node, "pads", ints_string(pads), "negative");

    const std::string auto_pad = attr_string(node, "auto_pad", "NOTSET");
    if (auto_pad == "VALID") {
      pads.assign(2 * spatial, 0);
    } else if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
      for (size_t i = 0; i < spatial; ++i) {
        const int64_t in = x->shape[2 + i];
        const int64_t out = (in + strides[i] - 1) / strides[i];
        const int64_t span = (kernel[i] - 1) * dilations[i] + 1;
        const int64_t total = std::max<int64_t>(0, (out - 1) * strides[i] + span - in);
        const int64_t small = total / 2, large = total - small;
        pads[i] = auto_pad == "SAME_UPPER" ? small : large;
        pads[i + spatial] = auto_pad == "SAME_UPPER" ? large : small;
      }
    } else if (auto_pad != "NOTSET") {
      fail_attr(node, "auto_pad", "'" + auto_pad + "'");
    }

    const int64_t ceil_mode = op == "Conv" ? 0 : attr_int(node, "ceil_mode", 0) != 0;
    attrs["kernel_shape"] = kernel;
    attrs["strides"] = strides;
    attrs["dilations"] = dilations;
    attrs["pads"] = pads;
    if (op != "Conv") attrs["ceil_mode"] = ceil_mode;
    if (op == "AveragePool")
      attrs["count_include_pad"] = int64_t{attr_int(node, "count_include_pad", 0) != 0};

    // Spatial output sizes as PyTorch and the ONNX spec define them (with ceil_mode a
    // window starting beyond the input and its begin padding is dropped).
    std::vector<int64_t> expected;
    for (size_t i = 0; i < spatial; ++i) {
      const int64_t in = x->shape[2 + i];
      int64_t out = window_output_size(in, kernel[i], strides[i], dilations[i], pads[i], pads[i + spatial],
                                       ceil_mode != 0);
      if (out == 0)
        fail_node(node, "kernel " + ints_string(kernel) + " larger than the padded input " +
                            shape_string(x->shape));
      if (ceil_mode && (out - 1) * strides[i] >= in + pads[i]) --out;
      expected.push_back(out);
    }
    attrs["expected_spatial"] = expected;  // checked against inference, then removed
  }

  // ---- conversion to the IR -----------------------------------------------------------
  SourceGraph convert() {
    SourceGraph graph;
    graph.name = std::filesystem::path(path_).stem().string();
    graph.file = path_;
    const onnx::GraphProto& g = inferred_.graph();
    std::unordered_map<std::string, int> ids;

    std::set<std::string> initializer_names;
    for (const auto& init : g.initializer()) {
      initializer_names.insert(init.name());
      ids[init.name()] = graph.add_tensor(tensor_from_proto(init));
    }
    for (const auto& in : g.input()) {
      if (initializer_names.count(in.name())) continue;
      auto [dtype, shape] = checked_type(in.name(), " (graph input)");
      ir::Tensor t;
      t.name = in.name();
      t.dtype = dtype;
      t.shape = shape;
      const int id = graph.add_tensor(std::move(t));
      ids[in.name()] = id;
      graph.inputs.push_back(id);
    }

    std::set<std::string> read_names;
    for (const auto& node : g.node())
      for (const auto& in : node.input()) read_names.insert(in);
    for (const auto& out : g.output()) read_names.insert(out.name());

    for (const auto& node : g.node()) {
      const std::string& op = node.op_type();
      if (!node.domain().empty() && node.domain() != "ai.onnx")
        fail_node(node, "op not supported (domain '" + node.domain() + "')");
      if (!supported_ops().count(op)) fail_node(node, "op not supported");
      if (op == "Constant") {
        ir::Tensor t = constant_node_value(node);
        ids[node.output(0)] = graph.add_tensor(std::move(t));
        continue;
      }
      std::vector<const ir::Tensor*> inputs(node.input_size(), nullptr);
      std::vector<int> input_ids(node.input_size(), ir::kNoTensor);
      for (int k = 0; k < node.input_size(); ++k) {
        if (node.input(k).empty()) continue;
        auto it = ids.find(node.input(k));
        if (it == ids.end()) fail_node(node, "input '" + node.input(k) + "' is not defined");
        input_ids[k] = it->second;
      }
      for (int k = 0; k < node.input_size(); ++k)
        if (input_ids[k] != ir::kNoTensor) inputs[k] = &graph.tensors[input_ids[k]];
      Converted c = convert_node(node, inputs);
      for (int pos : c.kept_inputs)
        c.node.inputs.push_back(pos < node.input_size() ? input_ids[pos] : ir::kNoTensor);
      // Trailing omitted inputs carry no information.
      while (!c.node.inputs.empty() && c.node.inputs.back() == ir::kNoTensor) c.node.inputs.pop_back();

      for (int k = 0; k < node.output_size(); ++k) {
        const std::string& name = node.output(k);
        if (k >= c.kept_outputs) {
          if (!name.empty() && read_names.count(name))
            fail_node(node, "output " + std::to_string(k) + " ('" + name + "') not supported");
          continue;
        }
        if (name.empty()) {  // an omitted output before a kept one: a placeholder no one reads
          ir::Tensor t;
          t.name = node_name(node) + "/omitted_output_" + std::to_string(k);
          c.node.outputs.push_back(graph.add_tensor(std::move(t)));
          continue;
        }
        auto [dtype, shape] = checked_type(name, " (output of node '" + node_name(node) + "' (" +
                                                     op + "))");
        ir::Tensor t;
        t.name = name;
        t.dtype = dtype;
        t.shape = shape;
        const int id = graph.add_tensor(std::move(t));
        ids[name] = id;
        c.node.outputs.push_back(id);
      }
      if (auto it = c.node.attrs.find("expected_spatial"); it != c.node.attrs.end()) {
        const auto expected = std::get<std::vector<int64_t>>(it->second);
        const ir::Shape& out = graph.tensors[c.node.outputs[0]].shape;
        const ir::Shape actual(out.begin() + std::min<size_t>(2, out.size()), out.end());
        if (actual != expected)
          fail_node(node, "output shape " + shape_string(out) + " from shape inference, expected "
                          "spatial size " + ints_string(expected));
        c.node.attrs.erase(it);
      }
      graph.nodes.push_back(std::move(c.node));
    }
    for (const auto& out : g.output()) {
      auto it = ids.find(out.name());
      if (it == ids.end()) fail("graph output '" + out.name() + "' is not produced by any node");
      graph.outputs.push_back(it->second);
    }
    graph.remove_dead();
    return graph;
  }

  std::string path_;
  std::vector<InputShape> input_shapes_;
  std::vector<std::string> notes_;  // for the report: axes fixed by fix_input_shapes()
  onnx::ModelProto model_;     // as loaded (with constant parts folded if shapes needed it)
  onnx::ModelProto inferred_;  // model_ with inferred shapes
  int64_t opset_ = 0;
  GuardedSchemaRegistry schemas_;
  std::string inference_error_;  // first line of a strict shape-inference failure
  std::unordered_map<std::string, onnx::TypeProto> types_;
};

}  // namespace

SourceGraph read_model(const std::string& path, const std::vector<InputShape>& input_shapes) {
  return OnnxImporter(path, input_shapes).run();
}

}  // namespace onnx_import

std::vector<OnnxOperator> onnx_operators() {
  std::vector<OnnxOperator> ops = onnx_import::legalized_operators();
  std::set<std::string> listed;
  for (const OnnxOperator& op : ops) listed.insert(op.name);
  // Constant nodes become constants; the host-evaluable ops not legalized fold or fail.
  for (const std::string& name : onnx_import::host_evaluable_ops())
    if (!listed.count(name)) ops.push_back({name, {}, true, {}});
  ops.push_back({"Constant", {}, false, {}});  // no Mote op: "resolved while importing"
  std::sort(ops.begin(), ops.end(), [](const OnnxOperator& a, const OnnxOperator& b) { return a.name < b.name; });
  return ops;
}

std::vector<std::string> onnx_supported_ops() {
  std::vector<std::string> names;
  for (const OnnxOperator& op : onnx_operators()) names.push_back(op.name);
  return names;
}

ir::Graph import_onnx(const std::string& path, const std::vector<std::string>& extra_outputs,
                      const std::vector<InputShape>& input_shapes) {
  onnx_import::SourceGraph graph = onnx_import::read_model(path, input_shapes);
  graph.add_named_outputs(extra_outputs, path);
  onnx_import::remove_identities(graph);
  onnx_import::fold_constants_source(graph);
  onnx_import::fuse_normalization(graph);
  onnx_import::fold_batch_norm(graph);
  onnx_import::fold_channel_shuffles(graph);
  onnx_import::narrow_int64(graph);
  return onnx_import::legalize(std::move(graph));
}

}  // namespace mote
