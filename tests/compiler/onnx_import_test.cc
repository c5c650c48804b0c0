// ONNX import: reading (read_model) and the source-level stages (remove_identities,
// fold_constants_source, fold_batch_norm): structure of imported models, normalized
// attributes, every import error's exact one-line message, and folded constants against
// numpy.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "compiler.h"
#include "host_run.h"
#include "onnx_test_util.h"
#include "import/onnx/source_eval.h"

namespace mote {
namespace {

using onnx_test::count_ops;
using onnx_test::error_of;
using onnx_test::find_node;
using onnx_test::floats_of;
using onnx_test::import_and_fold;
using onnx_test::load_npy;
using onnx_test::op_sequence;
using onnx_test::shared_model;
using onnx_test::testdata;
using onnx_import::read_model;
using onnx_import::SourceGraph;
using onnx_import::SourceNode;

using Ops = std::vector<std::string>;
using Ints = std::vector<int64_t>;

void expect_all_close(const std::vector<float>& actual, const std::vector<float>& expected,
                      double tolerance, const std::string& what) {
  ASSERT_EQ(actual.size(), expected.size()) << what;
  for (size_t i = 0; i < actual.size(); ++i)
    EXPECT_NEAR(actual[i], expected[i], tolerance * (1.0 + std::fabs(expected[i])))
        << what << " element " << i;
}

// ---- shared models ---------------------------------------------------------------------

TEST(OnnxImport, Add1x5) {
  SourceGraph g = read_model(shared_model("add_1x5.onnx"));
  EXPECT_EQ(g.name, "add_1x5");
  EXPECT_EQ(op_sequence(g), Ops({"Add"}));
  ASSERT_EQ(g.inputs.size(), 2u);
  ASSERT_EQ(g.outputs.size(), 1u);
  EXPECT_EQ(g.tensors[g.inputs[0]].name, "input0");
  EXPECT_EQ(g.tensors[g.inputs[1]].shape, Ints({1, 5}));
  EXPECT_EQ(g.tensors[g.outputs[0]].name, "output");
  EXPECT_EQ(g.tensors[g.outputs[0]].dtype, DType::kFloat32);
}

TEST(OnnxImport, Lenet5NormalizedAttributes) {
  SourceGraph g = read_model(shared_model("lenet5_28.onnx"));
  EXPECT_EQ(op_sequence(g), Ops({"Conv", "Relu", "MaxPool", "Conv", "Relu", "MaxPool", "Flatten",
                                 "Gemm", "Relu", "Gemm", "Relu", "Gemm"}));
  const SourceNode& conv = g.nodes[0];
  EXPECT_EQ(conv.name, "/features/features.0/Conv");
  EXPECT_EQ(conv.get_ints("kernel_shape"), Ints({5, 5}));
  EXPECT_EQ(conv.get_ints("pads"), Ints({2, 2, 2, 2}));
  EXPECT_EQ(conv.get_ints("strides"), Ints({1, 1}));
  EXPECT_EQ(conv.get_ints("dilations"), Ints({1, 1}));
  EXPECT_EQ(conv.get_int("group", -1), 1);
  EXPECT_FALSE(conv.has("auto_pad"));
  ASSERT_EQ(conv.inputs.size(), 3u);
  EXPECT_TRUE(g.tensors[conv.inputs[1]].is_constant);
  EXPECT_EQ(g.tensors[conv.inputs[1]].shape, Ints({6, 1, 5, 5}));
  EXPECT_EQ(g.tensors[conv.outputs[0]].shape, Ints({1, 6, 28, 28}));
  const SourceNode& pool = g.nodes[2];
  EXPECT_EQ(pool.get_int("ceil_mode", -1), 0);
  EXPECT_EQ(pool.get_ints("dilations"), Ints({1, 1}));
  EXPECT_EQ(g.tensors[pool.outputs[0]].shape, Ints({1, 6, 14, 14}));
  EXPECT_EQ(g.nodes[6].get_int("axis", -1), 1);
  const SourceNode& gemm = g.nodes[7];
  EXPECT_EQ(gemm.get_float("alpha", 0), 1.0);
  EXPECT_EQ(gemm.get_float("beta", 0), 1.0);
  EXPECT_EQ(gemm.get_int("transA", -1), 0);
  EXPECT_EQ(gemm.get_int("transB", -1), 1);
  EXPECT_EQ(g.tensors[g.outputs[0]].shape, Ints({1, 10}));
}

TEST(OnnxImport, MobilenetConstantsAndClipBounds) {
  SourceGraph g = read_model(shared_model("mobilenet_v2_w005_96.onnx"));
  EXPECT_EQ(count_ops(g, "Conv"), 52);
  EXPECT_EQ(count_ops(g, "Clip"), 35);
  EXPECT_EQ(count_ops(g, "Add"), 12);
  EXPECT_EQ(count_ops(g, "Constant"), 0);  // Constant nodes became constant tensors
  EXPECT_EQ(count_ops(g, "GlobalAveragePool"), 1);
  EXPECT_EQ(g.nodes.back().op, "Gemm");
  for (const SourceNode& n : g.nodes) {
    if (n.op != "Clip") continue;
    EXPECT_EQ(n.inputs.size(), 1u) << n.name;  // constant bounds moved to attributes
    EXPECT_EQ(n.get_float("min", -1), 0.0) << n.name;
    EXPECT_EQ(n.get_float("max", -1), 6.0) << n.name;
  }
  for (const ir::Tensor& t : g.tensors)
    for (int64_t d : t.shape) EXPECT_GT(d, 0) << t.name;
  EXPECT_EQ(g.tensors[g.inputs[0]].shape, Ints({1, 3, 96, 96}));
  EXPECT_EQ(g.tensors[g.outputs[0]].shape, Ints({1, 1000}));
}

TEST(OnnxImport, SoftmaxAxisNormalized) {
  SourceGraph g = read_model(shared_model("softmax_1x4.onnx"));
  ASSERT_EQ(op_sequence(g), Ops({"Softmax"}));
  EXPECT_EQ(g.nodes[0].get_int("axis", -1), 1);  // -1 on rank 2
  EXPECT_EQ(g.nodes[0].get_int("coerce_2d", -1), 0);
}

TEST(OnnxImport, SoftmaxOpset11CoercesTo2d) {
  SourceGraph g11 = read_model(testdata("softmax_axis1_opset11.onnx"));
  EXPECT_EQ(g11.nodes[0].get_int("axis", -1), 1);
  EXPECT_EQ(g11.nodes[0].get_int("coerce_2d", -1), 1);
  SourceGraph g13 = read_model(testdata("softmax_axis1_opset13.onnx"));
  EXPECT_EQ(g13.nodes[0].get_int("axis", -1), 1);
  EXPECT_EQ(g13.nodes[0].get_int("coerce_2d", -1), 0);
}

TEST(OnnxImport, LinearModels) {
  for (const char* name : {"linear_3x3.onnx", "linear_4x3.onnx"}) {
    SourceGraph g = read_model(shared_model(name));
    ASSERT_EQ(op_sequence(g), Ops({"Gemm"})) << name;
    EXPECT_EQ(g.nodes[0].inputs.size(), 3u);
    EXPECT_TRUE(g.tensors[g.nodes[0].inputs[1]].is_constant);
    EXPECT_TRUE(g.tensors[g.nodes[0].inputs[2]].is_constant);
  }
}

// ---- attribute normalization -------------------------------------------------------

TEST(OnnxImport, AutoPadResolvedToExplicitPads) {
  SourceGraph g = read_model(testdata("auto_pad_same.onnx"));
  // 6 -> 3 with kernel 3, stride 2: one row/column of padding in all.
  EXPECT_EQ(find_node(g, "same_upper")->get_ints("pads"), Ints({0, 0, 1, 1}));
  EXPECT_EQ(find_node(g, "same_lower")->get_ints("pads"), Ints({1, 1, 0, 0}));
  EXPECT_EQ(find_node(g, "pool_valid")->get_ints("pads"), Ints({0, 0, 0, 0}));
  for (const SourceNode& n : g.nodes) EXPECT_FALSE(n.has("auto_pad")) << n.name;
  SourceGraph m = read_model(testdata("mini_mobilenet.onnx"));
  EXPECT_EQ(find_node(m, "stem")->get_ints("pads"), Ints({1, 1, 1, 1}));
  EXPECT_EQ(find_node(m, "dw")->get_int("group", -1), 4);
}

TEST(OnnxImport, Opset11AttributeForms) {
  SourceGraph g = read_model(testdata("opset11_ops.onnx"));
  EXPECT_EQ(op_sequence(g), Ops({"Dropout", "Identity", "Pad", "ReduceMean", "Squeeze",
                                 "Unsqueeze", "Clip", "Identity"}));
  const SourceNode* pad = find_node(g, "pad");
  EXPECT_EQ(pad->inputs.size(), 1u);
  EXPECT_EQ(pad->get_ints("pads"), Ints({0, 0, 1, 0, 0, 0, 1, 0}));
  EXPECT_EQ(pad->get_float("value", 0), 0.5);
  EXPECT_EQ(pad->get_string("mode"), "constant");
  EXPECT_EQ(find_node(g, "mean")->get_ints("axes"), Ints({1}));
  EXPECT_EQ(find_node(g, "mean")->get_int("keepdims", -1), 1);
  EXPECT_EQ(find_node(g, "squeeze")->get_ints("axes"), Ints({1}));
  EXPECT_EQ(find_node(g, "unsqueeze")->get_ints("axes"), Ints({0}));
  const SourceNode* clip = find_node(g, "clip");
  EXPECT_EQ(clip->inputs.size(), 1u);
  EXPECT_FLOAT_EQ(static_cast<float>(clip->get_float("min", 0)), -0.1f);
  EXPECT_FLOAT_EQ(static_cast<float>(clip->get_float("max", 0)), 0.2f);
  EXPECT_EQ(find_node(g, "dropout")->inputs.size(), 1u);
}

TEST(OnnxImport, Opset13InputForms) {
  SourceGraph g = read_model(testdata("misc_ops.onnx"));
  EXPECT_EQ(find_node(g, "unsqueeze")->get_ints("axes"), Ints({1}));
  EXPECT_EQ(find_node(g, "squeeze")->get_ints("axes"), Ints({1}));
  EXPECT_EQ(find_node(g, "squeeze")->inputs.size(), 1u);
  EXPECT_EQ(find_node(g, "mean")->get_ints("axes"), Ints({2, 3}));  // [2, -1]
  EXPECT_EQ(find_node(g, "mean")->get_int("keepdims", -1), 0);
  EXPECT_EQ(find_node(g, "pad")->get_string("mode"), "reflect");
  EXPECT_EQ(find_node(g, "pad")->get_ints("pads"), Ints({0, 0, 1, 2, 0, 0, 2, 1}));
  const SourceNode* clip = find_node(g, "clip_min_only");
  EXPECT_FLOAT_EQ(static_cast<float>(clip->get_float("min", 0)), -0.25f);
  EXPECT_EQ(clip->get_float("max", 0), std::numeric_limits<double>::infinity());
  EXPECT_EQ(g.tensors[g.outputs[0]].shape, Ints({1, 4}));
}

TEST(OnnxImport, ActivationDefaultsFilled) {
  SourceGraph g = read_model(testdata("activations.onnx"));
  EXPECT_DOUBLE_EQ(find_node(g, "leaky")->get_float("alpha", 0), static_cast<double>(0.1f));
  EXPECT_DOUBLE_EQ(find_node(g, "hardsigmoid")->get_float("alpha", 0), static_cast<double>(0.3f));
  EXPECT_DOUBLE_EQ(find_node(g, "hardsigmoid")->get_float("beta", 0), static_cast<double>(0.4f));
  EXPECT_EQ(find_node(g, "prelu")->inputs.size(), 2u);
  EXPECT_EQ(find_node(g, "pad")->get_float("value", -1), 0.0);
}

// ---- shapes that need host evaluation ------------------------------------------------

TEST(OnnxImport, ShapeSubgraphResolvedAtImport) {
  // ONNX 1.12 cannot infer Reshape(x, Concat(Unsqueeze(Gather(Shape(x))), [-1])):
  // import evaluates the shape computation so every tensor has a static shape.
  SourceGraph g = read_model(testdata("shape_subgraph.onnx"));
  EXPECT_EQ(op_sequence(g), Ops({"Reshape", "MatMul"}));
  const SourceNode& reshape = g.nodes[0];
  EXPECT_EQ(g.tensors[reshape.outputs[0]].shape, Ints({2, 12}));
  const ir::Tensor& target = g.tensors[reshape.inputs[1]];
  ASSERT_TRUE(target.is_constant);
  EXPECT_EQ(onnx_import::read_ints(target), Ints({2, -1}));
  EXPECT_EQ(g.tensors[g.outputs[0]].shape, Ints({2, 5}));
}

TEST(FoldConstantsSource, FoldsShapeArithmeticOfImportedModel) {
  SourceGraph g = read_model(testdata("fold_static.onnx"));
  EXPECT_EQ(op_sequence(g), Ops({"Shape", "Cast", "Mul", "Add", "Unsqueeze", "Identity", "Sub"}));
  onnx_import::remove_identities(g);
  onnx_import::fold_constants_source(g);
  ASSERT_EQ(op_sequence(g), Ops({"Add", "Sub"}));
  const ir::Tensor& half_shape = g.tensors[g.nodes[0].inputs[1]];
  ASSERT_TRUE(half_shape.is_constant);
  EXPECT_EQ(half_shape.shape, Ints({2}));
  EXPECT_EQ(floats_of(half_shape), std::vector<float>({1.0f, 1.0f}));
  const ir::Tensor& unsqueezed = g.tensors[g.nodes[1].inputs[1]];
  EXPECT_EQ(unsqueezed.shape, Ints({1, 2}));
  EXPECT_EQ(floats_of(unsqueezed), std::vector<float>({1.0f, 2.0f}));
  // Tensors no node reads any more are gone.
  for (const ir::Tensor& t : g.tensors) EXPECT_NE(t.name, "s");
}

// ---- the whole front end ------------------------------------------------------------

TEST(OnnxImport, ImportOnnxRunsEveryStage) {
  const std::string path = shared_model("lenet5_28.onnx");
  const ir::Graph g = import_onnx(path);
  EXPECT_EQ(op_sequence(g), op_sequence(onnx_test::import_and_legalize(path)));
  EXPECT_EQ(g.nodes[1].op, ir::Op::kConv2d);
  // Extra outputs are named in the model (NCHW) and keep its layout.
  const SourceGraph source = read_model(path);
  const std::string relu = source.tensors[source.nodes[1].outputs[0]].name;
  const ir::Graph with_extra = import_onnx(path, {relu});
  ASSERT_EQ(with_extra.outputs.size(), 2u);
  EXPECT_EQ(with_extra.tensors[with_extra.outputs[1]].name, relu);
  EXPECT_EQ(with_extra.tensors[with_extra.outputs[1]].shape, source.tensors[source.nodes[1].outputs[0]].shape);
  EXPECT_EQ(error_of([&] { import_onnx(path, {"nowhere"}); }),
            path + ": extra output 'nowhere': no tensor has that name");
}

// ---- errors: one line naming the file, and the node, op and attribute ----------------

TEST(OnnxImportErrors, ExactMessages) {
  struct Case {
    const char* file;
    std::string message;  // after "<path>: "
  };
  const Case cases[] = {
      {"opset10.onnx", "opset 10 not supported (supported: 11 to 17)"},
      {"opset18.onnx", "opset 18 not supported (supported: 11 to 17)"},
      {"dynamic_inner_dim.onnx",
       "tensor 'x' (graph input) has a symbolic dimension 'n' at axis 1; only static shapes "
       "are supported (set it with --input-shape)"},
      {"unsupported_op.onnx", "node 'hardmax_0' (Hardmax): op not supported"},
      {"bad_auto_pad.onnx", "node 'Conv_3' (Conv): attribute 'auto_pad' value 'FOO' not supported"},
      {"bad_storage_order.onnx",
       "node 'pool' (MaxPool): attribute 'storage_order' value 1 not supported"},
      {"bad_pad_mode.onnx", "node 'pad' (Pad): attribute 'mode' value 'wrap' not supported"},
      {"cast_to_double.onnx", "node 'cast' (Cast): attribute 'to' value 'DOUBLE' not supported"},
      {"bad_dropout_training.onnx",
       "node 'dropout' (Dropout): input 'training_mode' value 1 not supported (inference only, or a ratio of "
       "0)"},
      {"ceil_mode_mismatch.onnx",
       "node 'pool' (MaxPool): output shape [1,1,4,4] from shape inference, expected spatial "
       "size [3,3]"},
      {"external_data.onnx", "tensor 'w' uses external data, not supported"},
      {"dynamic_reshape.onnx",
       "tensor 'y' (output of node 'reshape' (Reshape)) has an unknown dimension at axis 0; only "
       "static shapes are supported"},
      {"maxpool_indices.onnx", "node 'pool' (MaxPool): output 1 ('idx') not supported"},
      {"custom_domain.onnx", "node 'fused' (FusedGemm): op not supported (domain 'com.microsoft')"},
      // libonnx's own shape inference crashes on these three (SEGV, SEGV, SIGFPE); the
      // importer's guard keeps it from running on them (issue 8).
      {"conv_rank_mismatch.onnx",
       "node 'Conv_3' (Conv): input 'x' has rank 2, expected at least 3 (batch, channels, "
       "spatial axes)"},
      {"conv_rank_after_reshape.onnx",
       "node 'conv' (Conv): input 'r' has rank 2, expected at least 3 (batch, channels, "
       "spatial axes)"},
      {"pool_zero_stride.onnx",
       "node 'pool' (MaxPool): attribute 'strides' value [0,1] not supported (must be positive)"},
      {"layernorm_stash_type.onnx",
       "node 'ln' (LayerNormalization): attribute 'stash_type' value 11 not supported (statistics are "
       "computed in float (1))"},
      {"layernorm_mean_output.onnx", "node 'ln' (LayerNormalization): output 1 ('mean') not supported"},
      {"layernorm_bad_axis.onnx",
       "node 'ln' (LayerNormalization): attribute 'axis' value 2 not supported (out of range for rank 2)"},
      {"malformed.onnx", "not a valid ONNX model: cannot parse the protobuf"},
      {"does_not_exist.onnx", "cannot open: No such file or directory"},
  };
  for (const Case& c : cases) {
    const std::string path = testdata(c.file);
    const std::string message = error_of([&] { read_model(path); });
    EXPECT_EQ(message, path + ": " + c.message) << c.file;
    EXPECT_EQ(message.find('\n'), std::string::npos) << c.file;
  }
}

const ir::Tensor* find_tensor(const SourceGraph& g, const std::string& name) {
  for (const ir::Tensor& t : g.tensors)
    if (t.name == name) return &t;
  ADD_FAILURE() << "no tensor '" << name << "'";
  static const ir::Tensor kNone;
  return &kNone;
}

TEST(FuseNormalization, LayerNormPatternBecomesOneNode) {
  const SourceGraph g = import_and_fold(testdata("layernorm_pattern13.onnx"));
  ASSERT_EQ(op_sequence(g), Ops({"LayerNormalization"}));
  const SourceNode& ln = g.nodes[0];
  EXPECT_EQ(ln.get_int("axis", -1), 2);
  EXPECT_NEAR(ln.get_float("epsilon", 0), 1e-5, 1e-12);
  ASSERT_EQ(ln.inputs.size(), 3u);
  EXPECT_EQ(g.tensors[ln.inputs[0]].name, "x");
  const SourceGraph model = read_model(testdata("layernorm_pattern13.onnx"));
  EXPECT_EQ(floats_of(g.tensors[ln.inputs[1]]), floats_of(*find_tensor(model, "gamma")));
  EXPECT_EQ(g.tensors[ln.outputs[0]].name, "y");
}

TEST(FuseNormalization, NonMatchingPatternsStayUnfused) {
  // Exponent 3, and a mean over axis 1 of [1,5,16] (not the last axes): nothing fuses,
  // every piece stays.
  for (const char* model : {"layernorm_pattern_cubed.onnx", "layernorm_pattern_middle_axis.onnx"}) {
    const SourceGraph g = import_and_fold(testdata(model));
    EXPECT_EQ(count_ops(g, "LayerNormalization"), 0) << model;
    EXPECT_EQ(op_sequence(g), Ops({"ReduceMean", "Sub", "Pow", "ReduceMean", "Add", "Sqrt", "Div"})) << model;
  }
}

TEST(FuseNormalization, GroupNormPatternBecomesOneNode) {
  const SourceGraph g = import_and_fold(testdata("groupnorm_pattern.onnx"));
  ASSERT_EQ(op_sequence(g), Ops({"Conv", "GroupNormalization"}));
  const SourceNode& gn = g.nodes[1];
  EXPECT_EQ(gn.get_int("num_groups", 0), 4);
  EXPECT_EQ(g.tensors[gn.inputs[0]].name, "c");
  EXPECT_EQ(g.tensors[gn.inputs[1]].shape, Ints({8}));
  const SourceGraph model = read_model(testdata("groupnorm_pattern.onnx"));
  EXPECT_EQ(floats_of(g.tensors[gn.inputs[1]]), floats_of(*find_tensor(model, "gamma")));
  EXPECT_EQ(floats_of(g.tensors[gn.inputs[2]]), floats_of(*find_tensor(model, "beta")));
  EXPECT_EQ(g.tensors[gn.outputs[0]].name, "y");
}

TEST(OnnxImportErrors, DirectoryIsNotAModel) {
  const std::string dir = testdata("");
  EXPECT_EQ(error_of([&] { read_model(dir); }), dir + ": cannot open: is a directory");
}

TEST(OnnxImportErrors, CheckerMessageFirstLine) {
  // An empty file is a valid (empty) protobuf; ONNX's checker refuses it.
  const std::string path = ::testing::TempDir() + "/empty.onnx";
  { std::ofstream(path, std::ios::binary); }
  EXPECT_EQ(error_of([&] { read_model(path); }),
            path + ": not a valid ONNX model: The model does not have an ir_version set properly.");
}

// ---- fold_batch_norm -----------------------------------------------------------------

TEST(FoldBatchNorm, ConvFoldMatchesNumpy) {
  SourceGraph g = import_and_fold(testdata("conv_bn_relu.onnx"));
  ASSERT_EQ(op_sequence(g), Ops({"Conv", "Relu"}));
  const SourceNode& conv = g.nodes[0];
  ASSERT_EQ(conv.inputs.size(), 3u);
  EXPECT_EQ(g.tensors[conv.outputs[0]].name, "bn");  // the Conv writes the BN's output
  const ir::Tensor& w = g.tensors[conv.inputs[1]];
  const ir::Tensor& b = g.tensors[conv.inputs[2]];
  EXPECT_EQ(w.shape, Ints({4, 3, 3, 3}));
  EXPECT_EQ(b.shape, Ints({4}));
  expect_all_close(floats_of(w), load_npy(testdata("conv_bn_relu.folded_w.npy")).data, 1e-6, "weights");
  expect_all_close(floats_of(b), load_npy(testdata("conv_bn_relu.folded_b.npy")).data, 1e-6, "bias");
}

TEST(FoldBatchNorm, StandaloneBecomesMulAdd) {
  SourceGraph g = import_and_fold(testdata("batchnorm_alone.onnx"));
  ASSERT_EQ(op_sequence(g), Ops({"Mul", "Add"}));
  const ir::Tensor& scale = g.tensors[g.nodes[0].inputs[1]];
  const ir::Tensor& shift = g.tensors[g.nodes[1].inputs[1]];
  EXPECT_EQ(scale.shape, Ints({3, 1, 1}));  // broadcasts over [N,3,H,W]
  EXPECT_EQ(shift.shape, Ints({3, 1, 1}));
  expect_all_close(floats_of(scale), load_npy(testdata("batchnorm_alone.scale.npy")).data, 1e-6, "scale");
  expect_all_close(floats_of(shift), load_npy(testdata("batchnorm_alone.shift.npy")).data, 1e-6, "shift");
  EXPECT_EQ(g.nodes[0].inputs[0], g.inputs[0]);
  EXPECT_EQ(g.nodes[1].outputs[0], g.outputs[0]);
}

// ---- remove_identities ----------------------------------------------------------------

TEST(RemoveIdentities, IdentityIntoGraphOutputRetargetsProducer) {
  SourceGraph g = read_model(testdata("opset11_ops.onnx"));
  onnx_import::remove_identities(g);
  EXPECT_EQ(op_sequence(g), Ops({"Pad", "ReduceMean", "Squeeze", "Unsqueeze", "Clip"}));
  EXPECT_EQ(g.nodes[0].inputs[0], g.inputs[0]);                    // Dropout, Identity gone
  EXPECT_EQ(g.nodes.back().outputs[0], g.outputs[0]);               // Clip writes 'y'
  EXPECT_EQ(g.tensors[g.outputs[0]].name, "y");
}

// A graph of one node over hand-made tensors.
struct SmallGraph {
  SourceGraph g;
  int input(const std::string& name, Ints shape, DType dtype = DType::kFloat32) {
    ir::Tensor t;
    t.name = name;
    t.shape = std::move(shape);
    t.dtype = dtype;
    const int id = g.add_tensor(std::move(t));
    g.inputs.push_back(id);
    return id;
  }
  int ints(const std::string& name, Ints shape, const Ints& values) {
    return g.add_constant(name, DType::kInt64, std::move(shape), onnx_import::encode_ints(DType::kInt64, values));
  }
  int floats(const std::string& name, Ints shape, const std::vector<float>& values) {
    return g.add_constant(name, DType::kFloat32, std::move(shape), onnx_import::float_bytes(values));
  }
  int value(const std::string& name, Ints shape, DType dtype = DType::kFloat32) {
    ir::Tensor t;
    t.name = name;
    t.shape = std::move(shape);
    t.dtype = dtype;
    return g.add_tensor(std::move(t));
  }
  SourceNode& node(const std::string& op, std::vector<int> inputs, std::vector<int> outputs) {
    SourceNode n;
    n.name = op + "_" + std::to_string(g.nodes.size());
    n.op = op;
    n.inputs = std::move(inputs);
    n.outputs = std::move(outputs);
    g.nodes.push_back(std::move(n));
    return g.nodes.back();
  }
};

// A Dropout in training mode with ratio 0 drops nothing: an identity like any other.
TEST(RemoveIdentities, TrainingModeDropoutOfRatioZero) {
  SourceGraph g = read_model(testdata("dropout_training_ratio0.onnx"));
  onnx_import::remove_identities(g);
  EXPECT_EQ(op_sequence(g), Ops({"Relu"}));
}

TEST(RemoveIdentities, KeepsIdentityFromGraphInputToOutput) {
  SmallGraph s;
  const int x = s.input("x", {2});
  const int y = s.value("y", {2});
  s.node("Identity", {x}, {y});
  s.g.outputs = {y};
  onnx_import::remove_identities(s.g);
  ASSERT_EQ(op_sequence(s.g), Ops({"Identity"}));  // legalize turns it into a copy
  EXPECT_EQ(op_sequence(onnx_import::legalize(s.g)), Ops({"reshape"}));
}

TEST(RemoveIdentities, CastToSameDtypeIsAnAlias) {
  SmallGraph s;
  const int x = s.input("x", {2});
  const int c = s.value("c", {2});
  const int y = s.value("y", {2});
  s.node("Cast", {x}, {c}).attrs["to"] = int64_t{static_cast<int64_t>(DType::kFloat32)};
  s.node("Relu", {c}, {y});
  s.g.outputs = {y};
  onnx_import::remove_identities(s.g);
  ASSERT_EQ(op_sequence(s.g), Ops({"Relu"}));
  EXPECT_EQ(s.g.nodes[0].inputs[0], s.g.inputs[0]);
}

// ---- the host evaluator behind fold_constants_source -----------------------------------

// Folds a graph whose last node writes `out` (a non-output tensor read by a Relu) and
// returns the folded tensor.
ir::Tensor fold_single(SmallGraph& s, int out) {
  const int sink = s.value("sink", s.g.tensors[out].shape, s.g.tensors[out].dtype);
  s.node("Relu", {out}, {sink});
  s.g.outputs = {sink};
  onnx_import::fold_constants_source(s.g);
  EXPECT_EQ(s.g.nodes.size(), 1u);
  const ir::Tensor& folded = s.g.tensors[s.g.nodes[0].inputs[0]];
  EXPECT_TRUE(folded.is_constant);
  return folded;
}

TEST(FoldConstantsSource, GatherNegativeIndexAndConcat) {
  SmallGraph s;
  const int x = s.input("x", {1, 3, 8, 6});
  const int shape = s.value("shape", {4}, DType::kInt64);
  s.node("Shape", {x}, {shape});
  const int last = s.value("last", {1}, DType::kInt64);
  s.node("Gather", {shape, s.ints("idx", {1}, {-1})}, {last}).attrs["axis"] = int64_t{0};
  const int joined = s.value("joined", {3}, DType::kInt64);
  s.node("Concat", {s.ints("lead", {2}, {7, 9}), last}, {joined}).attrs["axis"] = int64_t{0};
  EXPECT_EQ(onnx_import::read_ints(fold_single(s, joined)), Ints({7, 9, 6}));
}

TEST(FoldConstantsSource, SliceWithLargeEndAndNegativeStep) {
  SmallGraph s;
  const int data = s.ints("data", {5}, {10, 11, 12, 13, 14});
  const int out = s.value("out", {2}, DType::kInt64);
  // data[3::-2] -> [13, 11]
  s.node("Slice", {data, s.ints("starts", {1}, {3}),
                   s.ints("ends", {1}, {std::numeric_limits<int64_t>::min()}),
                   s.ints("axes", {1}, {0}), s.ints("steps", {1}, {-2})},
         {out});
  EXPECT_EQ(onnx_import::read_ints(fold_single(s, out)), Ints({13, 11}));

  SmallGraph t;
  const int d2 = t.ints("data", {2, 3}, {1, 2, 3, 4, 5, 6});
  const int o2 = t.value("out", {2, 2}, DType::kInt64);
  // data[:, 1:INT64_MAX]
  t.node("Slice", {d2, t.ints("starts", {1}, {1}),
                   t.ints("ends", {1}, {std::numeric_limits<int64_t>::max()}), t.ints("axes", {1}, {-1})},
         {o2});
  EXPECT_EQ(onnx_import::read_ints(fold_single(t, o2)), Ints({2, 3, 5, 6}));
}

TEST(FoldConstantsSource, ReshapeZeroMinusOneAndAllowZero) {
  SmallGraph s;
  const int data = s.floats("data", {2, 3, 2}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  const int out = s.value("out", {2, 6});
  s.node("Reshape", {data, s.ints("shape", {2}, {0, -1})}, {out}).attrs["allowzero"] = int64_t{0};
  ir::Tensor r = fold_single(s, out);
  EXPECT_EQ(r.shape, Ints({2, 6}));

  // With allowzero a 0 is a real zero-sized dimension: [0, 3] of an empty tensor.
  SmallGraph t;
  const int empty = t.floats("empty", {0, 4}, {});
  const int o2 = t.value("out", {0, 3});
  t.node("Reshape", {empty, t.ints("shape", {2}, {0, 3})}, {o2}).attrs["allowzero"] = int64_t{1};
  EXPECT_EQ(fold_single(t, o2).shape, Ints({0, 3}));

  // A shape that does not fit is refused with the node named.
  SmallGraph u;
  u.g.name = "m";
  const int d3 = u.floats("data", {2, 3}, {0, 1, 2, 3, 4, 5});
  const int o3 = u.value("out", {4, 2});
  u.node("Reshape", {d3, u.ints("shape", {2}, {4, -1})}, {o3});
  u.g.outputs = {o3};
  const int sink = u.value("sink", {4, 2});
  u.node("Relu", {o3}, {sink});
  u.g.outputs = {sink};
  EXPECT_EQ(error_of([&] { onnx_import::fold_constants_source(u.g); }),
            "m: node 'Reshape_0' (Reshape): cannot reshape [2,3] to [4,-1]");
}

TEST(FoldConstantsSource, RangeConstantOfShapeCastDivTranspose) {
  SmallGraph s;
  const int range = s.value("range", {4}, DType::kInt64);
  s.node("Range", {s.ints("start", {}, {10}), s.ints("limit", {}, {2}), s.ints("delta", {}, {-2})},
         {range});
  EXPECT_EQ(onnx_import::read_ints(fold_single(s, range)), Ints({10, 8, 6, 4}));

  SmallGraph t;
  const int filled = t.value("filled", {2, 3});
  SourceNode& cos = t.node("ConstantOfShape", {t.ints("shape", {2}, {2, 3})}, {filled});
  cos.attrs["value"] = 1.5;
  EXPECT_EQ(floats_of(fold_single(t, filled)), std::vector<float>(6, 1.5f));

  SmallGraph u;
  const int cast = u.value("cast", {3}, DType::kInt64);
  u.node("Cast", {u.floats("f", {3}, {2.9f, -2.9f, 7.0f})}, {cast}).attrs["to"] =
      int64_t{static_cast<int64_t>(DType::kInt64)};
  const int q = u.value("q", {3}, DType::kInt64);
  u.node("Div", {cast, u.ints("two", {}, {2})}, {q});
  EXPECT_EQ(onnx_import::read_ints(fold_single(u, q)), Ints({1, -1, 3}));  // truncation

  SmallGraph v;
  const int tr = v.value("tr", {3, 2});
  v.node("Transpose", {v.floats("m", {2, 3}, {1, 2, 3, 4, 5, 6})}, {tr}).attrs["perm"] = Ints{1, 0};
  EXPECT_EQ(floats_of(fold_single(v, tr)), std::vector<float>({1, 4, 2, 5, 3, 6}));
}

// Mod of constants (swin_t's shifted-window mask): integers with the floor (fmod 0) and
// C (fmod 1) remainders, float32 as C's fmod, and a zero divisor refused.
TEST(FoldConstantsSource, ModBothConventions) {
  for (const int64_t fmod : {0, 1}) {
    SmallGraph s;
    const int m = s.value("m", {4}, DType::kInt64);
    s.node("Mod", {s.ints("a", {4}, {7, -7, 7, -7}), s.ints("b", {4}, {3, 3, -3, -3})}, {m}).attrs["fmod"] = fmod;
    EXPECT_EQ(onnx_import::read_ints(fold_single(s, m)), fmod ? Ints({1, -1, 1, -1}) : Ints({1, 2, -2, -1}));
  }
  SmallGraph f;
  const int m = f.value("m", {2, 2});
  f.node("Mod", {f.floats("a", {2, 1}, {5.5f, -5.5f}), f.floats("b", {2}, {2.0f, 4.0f})}, {m}).attrs["fmod"] =
      int64_t{1};
  EXPECT_EQ(floats_of(fold_single(f, m)), std::vector<float>({1.5f, 1.5f, -1.5f, -1.5f}));

  SmallGraph z;
  z.g.name = "m";
  const int q = z.value("q", {1}, DType::kInt64);
  z.node("Mod", {z.ints("a", {1}, {5}), z.ints("b", {1}, {0})}, {q});
  const int sink = z.value("sink", {1}, DType::kInt64);
  z.node("Relu", {q}, {sink});
  z.g.outputs = {sink};
  EXPECT_EQ(error_of([&] { onnx_import::fold_constants_source(z.g); }),
            "m: node 'Mod_0' (Mod): integer division by zero");
}

// ScatterND of constants: rows (index tuples of 1 entry) replaced in index order or
// combined (add, mul, max, min); single elements addressed by 2 entries, one negative; an
// index outside the data refused.
TEST(FoldConstantsSource, ScatterNdReductions) {
  const std::vector<std::pair<std::string, Ints>> cases = {
      {"none", {0, 1, 30, 31, 4, 5, 20, 21}},      // row 1 written twice: the last wins
      {"add", {0, 1, 42, 45, 4, 5, 26, 28}},
      {"mul", {0, 1, 600, 1023, 4, 5, 120, 147}},
      {"max", {0, 1, 30, 31, 4, 5, 20, 21}},
      {"min", {0, 1, 2, 3, 4, 5, 6, 7}},
  };
  for (const auto& [reduction, expected] : cases) {
    SmallGraph s;
    const int out = s.value("out", {4, 2}, DType::kInt64);
    s.node("ScatterND", {s.ints("data", {4, 2}, {0, 1, 2, 3, 4, 5, 6, 7}), s.ints("indices", {3, 1}, {1, 3, 1}),
                         s.ints("updates", {3, 2}, {10, 11, 20, 21, 30, 31})},
           {out})
        .attrs["reduction"] = reduction;
    EXPECT_EQ(onnx_import::read_ints(fold_single(s, out)), expected) << reduction;
  }
  SmallGraph e;
  const int out = e.value("out", {2, 3});
  e.node("ScatterND", {e.floats("data", {2, 3}, {0, 0, 0, 0, 0, 0}), e.ints("indices", {2, 2}, {0, 2, -1, 0}),
                       e.floats("updates", {2}, {1.5f, -2.0f})},
         {out});
  EXPECT_EQ(floats_of(fold_single(e, out)), std::vector<float>({0, 0, 1.5f, -2.0f, 0, 0}));

  SmallGraph bad;
  bad.g.name = "m";
  const int b = bad.value("b", {2}, DType::kInt64);
  bad.node("ScatterND", {bad.ints("data", {2}, {0, 0}), bad.ints("indices", {1, 1}, {2}), bad.ints("u", {1}, {1})},
           {b});
  const int sink = bad.value("sink", {2}, DType::kInt64);
  bad.node("Relu", {b}, {sink});
  bad.g.outputs = {sink};
  EXPECT_EQ(error_of([&] { onnx_import::fold_constants_source(bad.g); }),
            "m: node 'ScatterND_0' (ScatterND): index 2 out of range for dimension 2");
}

// ---- narrow_int64 ------------------------------------------------------------------------

int64_t to_dtype(DType d) { return static_cast<int64_t>(d); }

// (x > 0).sum(1) as PyTorch exports it, cast to float: the bool cast and the sum become
// int32 (the count is at most 6), the float cast reads the int32 sum; nothing casts back.
TEST(NarrowInt64, CountOfComparisonIsInt32) {
  SmallGraph s;
  const int x = s.input("x", {2, 6});
  const int positive = s.value("positive", {2, 6}, DType::kBool);
  s.node("Greater", {x, s.floats("zero", {}, {0.0f})}, {positive});
  const int as_int = s.value("as_int", {2, 6}, DType::kInt64);
  s.node("Cast", {positive}, {as_int}).attrs["to"] = to_dtype(DType::kInt64);
  const int count = s.value("count", {2}, DType::kInt64);
  SourceNode& sum = s.node("ReduceSum", {as_int}, {count});
  sum.attrs["axes"] = Ints{1};
  sum.attrs["keepdims"] = int64_t{0};
  const int y = s.value("y", {2});
  s.node("Cast", {count}, {y}).attrs["to"] = to_dtype(DType::kFloat32);
  s.g.outputs = {y};
  onnx_import::narrow_int64(s.g);
  ASSERT_EQ(op_sequence(s.g), Ops({"Greater", "Cast", "ReduceSum", "Cast"}));
  EXPECT_EQ(s.g.nodes[1].get_int("to", 0), to_dtype(DType::kInt32));
  EXPECT_EQ(s.g.tensors[s.g.nodes[1].outputs[0]].dtype, DType::kInt32);
  EXPECT_EQ(s.g.tensors[s.g.nodes[2].outputs[0]].dtype, DType::kInt32);
  EXPECT_EQ(s.g.tensors[s.g.nodes[3].outputs[0]].dtype, DType::kFloat32);

  // Run on the host: [0.5, -1, 2, 0, 3, -4] has 3 positives, [1, 1, 1, 1, 1, -1] 5.
  const std::vector<float> in = {0.5f, -1, 2, 0, 3, -4, 1, 1, 1, 1, 1, -1};
  const std::vector<std::vector<uint8_t>> out =
      testing::run_on_host(lower_to_program(onnx_import::legalize(s.g), "host").program, onnx_import::float_bytes(in));
  ASSERT_EQ(out.size(), 1u);
  ASSERT_EQ(out[0].size(), 2 * sizeof(float));
  float counts[2];
  std::memcpy(counts, out[0].data(), sizeof(counts));
  EXPECT_EQ(counts[0], 3.0f);
  EXPECT_EQ(counts[1], 5.0f);
}

// ArgMax + 1 as an int64 graph output: computed in int32 (the int64 constant read as an
// int32 copy) and cast back to int64 into the output, which keeps its name. An ArgMax that
// is itself the output stays int64 (its kernel writes int64).
TEST(NarrowInt64, GraphOutputCastBackAndNativeArgMax) {
  SmallGraph s;
  const int x = s.input("x", {1, 5, 3});
  const int index = s.value("index", {1, 3}, DType::kInt64);
  SourceNode& arg = s.node("ArgMax", {x}, {index});
  arg.attrs["axis"] = int64_t{1};
  arg.attrs["keepdims"] = int64_t{0};
  const int y = s.value("y", {1, 3}, DType::kInt64);
  s.node("Add", {index, s.ints("one", {}, {1})}, {y});
  const int raw = s.value("raw", {1, 3}, DType::kInt64);
  SourceNode& arg2 = s.node("ArgMax", {x}, {raw});
  arg2.attrs["axis"] = int64_t{1};
  arg2.attrs["keepdims"] = int64_t{0};
  s.g.outputs = {y, raw};
  onnx_import::narrow_int64(s.g);
  ASSERT_EQ(op_sequence(s.g), Ops({"ArgMax", "Add", "Cast", "ArgMax"}));
  EXPECT_EQ(s.g.tensors[s.g.nodes[0].outputs[0]].dtype, DType::kInt32);
  EXPECT_EQ(s.g.tensors[s.g.nodes[1].inputs[1]].dtype, DType::kInt32);
  EXPECT_EQ(s.g.nodes[2].outputs[0], s.g.outputs[0]);
  EXPECT_EQ(s.g.tensors[s.g.outputs[0]].name, "y");
  EXPECT_EQ(s.g.tensors[s.g.outputs[0]].dtype, DType::kInt64);
  EXPECT_EQ(s.g.tensors[s.g.outputs[1]].dtype, DType::kInt64);
  EXPECT_EQ(s.g.nodes[3].outputs[0], s.g.outputs[1]);
}

// What cannot be proven to fit stays int64 and lowering refuses it as before: an int32
// value widened and doubled (the widening Cast writes int64 itself), and arithmetic with
// an int64 graph input.
TEST(NarrowInt64, UnprovableRangesStayInt64) {
  SmallGraph s;
  s.g.name = "m";
  const int x = s.input("x", {3}, DType::kInt32);
  const int wide = s.value("wide", {3}, DType::kInt64);
  s.node("Cast", {x}, {wide}).attrs["to"] = to_dtype(DType::kInt64);
  const int doubled = s.value("doubled", {3}, DType::kInt64);
  s.node("Mul", {wide, s.ints("two", {}, {2})}, {doubled});
  const int y = s.value("y", {3});
  s.node("Cast", {doubled}, {y}).attrs["to"] = to_dtype(DType::kFloat32);
  s.g.outputs = {y};
  onnx_import::narrow_int64(s.g);
  ASSERT_EQ(op_sequence(s.g), Ops({"Cast", "Mul", "Cast"}));
  EXPECT_EQ(s.g.nodes[0].get_int("to", 0), to_dtype(DType::kInt64));
  EXPECT_EQ(s.g.tensors[s.g.nodes[1].inputs[0]].dtype, DType::kInt64);
  EXPECT_EQ(s.g.tensors[s.g.nodes[1].outputs[0]].dtype, DType::kInt64);
  EXPECT_EQ(error_of([&] { lower_to_program(onnx_import::legalize(s.g), "host"); }),
            "node 'Mul_1' (mul): dtype int64 is not supported (expected float32)");

  SmallGraph t;
  const int ids = t.input("ids", {1, 4}, DType::kInt64);
  const int f = t.input("f", {1, 4});
  const int index = t.value("index", {1}, DType::kInt64);
  SourceNode& arg = t.node("ArgMax", {f}, {index});
  arg.attrs["axis"] = int64_t{1};
  arg.attrs["keepdims"] = int64_t{0};
  const int sum = t.value("sum", {1, 4}, DType::kInt64);
  t.node("Add", {ids, index}, {sum});
  t.g.outputs = {sum};
  onnx_import::narrow_int64(t.g);
  ASSERT_EQ(op_sequence(t.g), Ops({"ArgMax", "Add"}));
  EXPECT_EQ(t.g.tensors[t.g.nodes[0].outputs[0]].dtype, DType::kInt64);
}

TEST(FoldConstantsSource, DoesNotFoldGraphOutputs) {
  SmallGraph s;
  const int x = s.input("x", {1, 2});
  const int shape = s.value("shape", {2}, DType::kInt64);
  s.node("Shape", {x}, {shape});
  s.g.outputs = {shape};
  onnx_import::fold_constants_source(s.g);
  EXPECT_EQ(op_sequence(s.g), Ops({"Shape"}));
}

}  // namespace
}  // namespace mote
