// Slice, Gather, Split and Expand on computed tensors whose indices fold to constants,
// and symbolic batch axes (issue 18): the generated models of make_onnx_testdata.py
// (make_dynamic_slicing) compiled for the host, run by the runtime's kernels and compared
// with numpy's results; the ops they become; the one-line refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "compiler.h"
#include "onnx_host_check.h"
#include "passes/passes.h"
#include "onnx_test_util.h"

namespace mote {
namespace {

using onnx_test::error_of;
using onnx_test::load_npy;
using onnx_test::testdata;

using onnx_test::check_model;
using onnx_test::count_ops;

TEST(OnnxDynamicSlicing, SliceFormsOpset11) {
  const ir::Graph g = check_model("slice_forms_opset11");
  EXPECT_EQ(count_ops(g, ir::Op::kStridedSlice), 8);
}

TEST(OnnxDynamicSlicing, SliceFormsOpset13RunChannelsLast) {
  const ir::Graph g = check_model("slice_forms_opset13");
  EXPECT_EQ(count_ops(g, ir::Op::kStridedSlice), 8);
  // Every slice reads the conv's NHWC output: the channel slice is on physical axis 3.
  const ir::Node* s0 = onnx_test::find_node(g, "slice0");
  ASSERT_NE(s0, nullptr);
  EXPECT_EQ(s0->get_ints("begin"), std::vector<int64_t>({0, 0, 0, 2}));
  EXPECT_EQ(s0->get_ints("sizes"), std::vector<int64_t>({1, 6, 6, 6}));
  // starts -1, ends INT64_MIN, step -1 on W: the whole axis reversed.
  const ir::Node* s2 = onnx_test::find_node(g, "slice2");
  ASSERT_NE(s2, nullptr);
  EXPECT_EQ(s2->get_ints("begin"), std::vector<int64_t>({0, 0, 5, 0}));
  EXPECT_EQ(s2->get_ints("strides"), std::vector<int64_t>({1, 1, -1, 1}));
  // Steps INT64_MAX and INT64_MIN select one element: stride 1 (the kernel's int32).
  const ir::Node* s7 = onnx_test::find_node(g, "slice7");
  ASSERT_NE(s7, nullptr);
  EXPECT_EQ(s7->get_ints("begin"), std::vector<int64_t>({0, 0, 5, 0}));  // NHWC: W is physical axis 2
  EXPECT_EQ(s7->get_ints("strides"), std::vector<int64_t>({1, 1, 1, 1}));
  EXPECT_EQ(s7->get_ints("sizes"), std::vector<int64_t>({1, 6, 1, 8}));
}

TEST(OnnxDynamicSlicing, GatherForms) {
  const ir::Graph g = check_model("gather_forms");
  // Scalar and evenly spaced indices slice; [[5,0],[1,1]] and [3,-1,0] gather.
  EXPECT_EQ(count_ops(g, ir::Op::kGather), 2);
  EXPECT_EQ(count_ops(g, ir::Op::kStridedSlice), 5);
  const ir::Node* reversed = onnx_test::find_node(g, "gather5");
  ASSERT_NE(reversed, nullptr);
  EXPECT_EQ(reversed->op, ir::Op::kStridedSlice);
  EXPECT_EQ(reversed->get_ints("strides"), std::vector<int64_t>({1, -1, 1, 1}));
}

TEST(OnnxDynamicSlicing, SplitFormsOpset11) { check_model("split_forms_opset11"); }

TEST(OnnxDynamicSlicing, SplitFormsOpset13) {
  const ir::Graph g = check_model("split_forms_opset13");
  EXPECT_EQ(count_ops(g, ir::Op::kStridedSlice), 4);
}

TEST(OnnxDynamicSlicing, ExpandForms) {
  const ir::Graph g = check_model("expand_forms");
  // e0, e1 and e3 (e1 * ones, the ones folded): gathers; e2 is r itself.
  EXPECT_GE(count_ops(g, ir::Op::kGather), 2);
}

// ShuffleNetV2's channel shuffles (Reshape/Transpose/Reshape) become gathers along the
// channels, run channels-last: the only transposes left are at the model's input.
TEST(OnnxDynamicSlicing, ChannelShuffleIsAGatherInTheChannelsLastLayout) {
  const ir::Graph g = import_model(std::string(MOTE_SOURCE_DIR) + "/tests/models/pytorch/shufflenet_v2_tiny.onnx");
  EXPECT_EQ(count_ops(g, ir::Op::kGather), 5);
  EXPECT_EQ(count_ops(g, ir::Op::kTranspose), 1);
  for (const ir::Node& n : g.nodes) {
    if (n.op == ir::Op::kGather) {
      EXPECT_EQ(n.get_int("axis", -1), 3) << n.name;
    }
  }
}

TEST(OnnxDynamicSlicing, ExpandRunsChannelsLast) {
  const ir::Graph g = check_model("expand_channels_last");
  const ir::Node* expand = onnx_test::find_node(g, "expand");
  ASSERT_NE(expand, nullptr);
  EXPECT_EQ(g.tensors[expand->outputs[0]].shape, std::vector<int64_t>({1, 4, 4, 5}));
  EXPECT_EQ(count_ops(g, ir::Op::kTranspose), 2);  // the model's input and output only
}

TEST(OnnxDynamicShapes, SymbolicBatchFixedToOneWithANote) {
  const ir::Graph g = check_model("dynamic_batch");
  ASSERT_EQ(g.notes.size(), 1u);
  EXPECT_EQ(g.notes[0], "input 'x': symbolic batch axis 'batch' fixed to 1 (set it with --input-shape x=...)");
  EXPECT_EQ(g.tensors[g.inputs[0]].shape, std::vector<int64_t>({1, 3, 10}));
}

// torch 1.13 writes nn.LayerNorm(elementwise_affine=False) at opset 17 with an empty scale
// input (its own checker then raises): read as scale 1, with a note.
TEST(OnnxExporterQuirks, LayerNormWithAnEmptyScaleIsScaleOne) {
  const ir::Graph g =
      import_model(std::string(MOTE_SOURCE_DIR) + "/tests/models/pytorch/layernorm_no_affine_op17.onnx");
  ASSERT_EQ(g.notes.size(), 2u);
  EXPECT_EQ(g.notes[0], "node '/norm1/LayerNormalization' (LayerNormalization): empty scale input (torch 1.13's "
                        "export of elementwise_affine=False) read as 1");
  EXPECT_EQ(count_ops(g, ir::Op::kLayerNorm), 2);
  for (const ir::Node& n : g.nodes) {
    if (n.op != ir::Op::kLayerNorm) continue;
    const ir::Tensor& scale = g.tensors[static_cast<size_t>(n.inputs[1])];
    ASSERT_TRUE(scale.is_constant);
    ASSERT_EQ(scale.shape, std::vector<int64_t>({16}));
    for (int i = 0; i < 16; ++i) EXPECT_EQ(scale.as<float>()[i], 1.0f) << n.name;
  }
}

TEST(OnnxDynamicShapes, InputShapeSetsTheBatch) {
  const ir::Graph g = import_model(testdata("dynamic_batch.onnx"), {}, {{"x", {2, 3, 10}}});
  EXPECT_TRUE(g.notes.empty());
  EXPECT_EQ(g.tensors[g.inputs[0]].shape, std::vector<int64_t>({2, 3, 10}));
  EXPECT_EQ(g.tensors[g.outputs[0]].shape, std::vector<int64_t>({2, 3, 8}));
  const ir::Graph inner = import_model(testdata("dynamic_inner_dim.onnx"), {}, {{"x", {1, 6}}});
  EXPECT_EQ(inner.tensors[inner.outputs[0]].shape, std::vector<int64_t>({1, 6}));
}

TEST(OnnxDynamicShapes, InputShapeErrors) {
  const std::string batch = testdata("dynamic_batch.onnx");
  struct Case {
    std::vector<InputShape> shapes;
    std::string message;  // after "<path>: "
  };
  const Case cases[] = {
      {{{"y", {1, 3, 10}}}, "--input-shape y=1x3x10: no graph input named 'y' (inputs: x)"},
      {{{"x", {1, 3}}}, "--input-shape x=1x3: rank 2, input 'x' has rank 3"},
      {{{"x", {1, 4, 10}}}, "--input-shape x=1x4x10: input 'x' has dim 3 at axis 1"},
      {{{"x", {0, 3, 10}}}, "--input-shape x=0x3x10: dim 0 is 0, expected >= 1"},
      {{{"x", {1, 3, -2}}}, "--input-shape x=1x3x-2: dim 2 is -2, expected >= 1"},
      {{{"x", {1, 3, 10}}, {"x", {1, 3, 10}}}, "--input-shape x=1x3x10: input 'x' given twice"},
  };
  for (const Case& c : cases)
    EXPECT_EQ(error_of([&] { import_model(batch, {}, c.shapes); }), batch + ": " + c.message);
}

TEST(OnnxDynamicErrors, ExactMessagesNameTheFile) {
  struct Case {
    const char* file;
    std::string message;  // after "<path>: "
  };
  const Case cases[] = {
      {"slice_variable_starts.onnx", "node 'slice' (Slice): non-constant starts not supported"},
      {"slice_empty.onnx", "node 'slice' (Slice): empty result (axis 1) not supported"},
      {"gather_out_of_range.onnx", "node 'gather' (Gather): index 9 out of range for dim 4 of axis 1"},
      {"split_bad_sizes.onnx",
       "node 'split' (Split): attribute 'split' value [2,3] not supported (expected 2 sizes adding up to dim 4)"},
      {"dynamic_inner_dim.onnx",
       "tensor 'x' (graph input) has a symbolic dimension 'n' at axis 1; only static shapes are supported "
       "(set it with --input-shape)"},
  };
  for (const Case& c : cases) {
    const std::string path = testdata(c.file);
    EXPECT_EQ(error_of([&] { import_model(path); }), path + ": " + c.message) << c.file;
  }
}

// --quantize: a division by a constant becomes a multiplication by its reciprocal, so it
// runs in int8; a division by a computed tensor stays.
TEST(DivisionsByConstants, BecomeMultiplicationsByTheReciprocal) {
  ir::Graph g;
  g.name = "m";
  ir::Tensor x;
  x.name = "x";
  x.shape = {1, 4};
  const int in = g.add_tensor(x);
  const int c = g.add_constant("c", DType::kFloat32, {1}, std::vector<uint8_t>(4));
  *reinterpret_cast<float*>(g.tensors[c].data.data()) = 2.5f;
  x.name = "q";
  const int q = g.add_tensor(x);
  x.name = "r";
  const int r = g.add_tensor(x);
  ir::Node div;
  div.name = "scale";
  div.op = ir::Op::kDiv;
  div.inputs = {in, c};
  div.outputs = {q};
  g.nodes.push_back(div);
  div.name = "ratio";
  div.inputs = {q, in};
  div.outputs = {r};
  g.nodes.push_back(div);
  g.inputs = {in};
  g.outputs = {r};
  passes::divisions_to_multiplications(g);
  ASSERT_EQ(g.nodes.size(), 2u);
  EXPECT_EQ(g.nodes[0].op, ir::Op::kMul);
  const ir::Tensor& reciprocal = g.tensors[g.nodes[0].inputs[1]];
  EXPECT_TRUE(reciprocal.is_constant);
  EXPECT_EQ(reciprocal.as<float>()[0], 0.4f);
  EXPECT_EQ(g.nodes[1].op, ir::Op::kDiv);
}

// An embedding lookup: Gather at int64 ids (the model's input) from constant tables on
// axes 0 and 1, negative ids from the end; one gather each, reading the ids as they are.
TEST(OnnxDynamicSlicing, GatherAtComputedInt64Indices) {
  const std::string path = testdata("gather_computed.onnx");
  CompileOptions options;
  options.model_path = path;
  const CompileResult result = compile(options);
  const onnx_test::NpyArray ids = load_npy(testdata("gather_computed.in0.npy"));  // float32 copies
  std::vector<int64_t> wide(ids.data.begin(), ids.data.end());
  std::vector<uint8_t> bytes(wide.size() * sizeof(int64_t));
  std::memcpy(bytes.data(), wide.data(), bytes.size());
  const std::vector<std::vector<uint8_t>> outputs = testing::run_on_host(result.program, bytes);
  ASSERT_EQ(outputs.size(), 2u);
  for (size_t j = 0; j < 2; ++j)
    expect_output(outputs[j], load_npy(testdata("gather_computed.out" + std::to_string(j) + ".npy")), j);
  const ir::Graph g = import_model(path, {}, {});
  EXPECT_EQ(count_ops(g, ir::Op::kGather), 2);
  EXPECT_EQ(g.nodes.size(), 2u);
  for (const ir::Node& n : g.nodes) {
    EXPECT_EQ(g.tensors[n.inputs[1]].dtype, DType::kInt64) << n.name;
    EXPECT_EQ(n.get_int("negative_from_end", 0), 1) << n.name;
  }
}

}  // namespace
}  // namespace mote
