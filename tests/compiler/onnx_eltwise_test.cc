// ONNX elementwise math, activations, reductions, arg max/min, log-softmax and
// depth/space rearrangements (issue 18): each test model of make_onnx_testdata.py is
// imported, compiled and run on the host with the real kernels, and every output compared
// with the numpy golden; plus the legalized op choices and the refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "compiler.h"
#include "host_run.h"
#include "onnx_test_util.h"

namespace mote {
namespace {

using onnx_test::count_ops;
using onnx_test::error_of;
using onnx_test::import_and_legalize;
using onnx_test::load_npy;
using onnx_test::testdata;

std::vector<uint8_t> float_bytes_of(const std::vector<float>& v) {
  std::vector<uint8_t> bytes(v.size() * 4);
  std::memcpy(bytes.data(), v.data(), bytes.size());
  return bytes;
}

// Compiles `model`, runs in0 through it on the host and checks every output against
// out<j>.npy: float32 outputs within tolerance * max(1, |golden|), int64 ones exactly.
void check_model(const std::string& model, size_t outputs, double tolerance = 2e-6) {
  SCOPED_TRACE(model);
  CompileOptions options;
  options.model_path = testdata(model + ".onnx");
  const CompileResult compiled = compile(options);
  const ir::Graph g = import_and_legalize(options.model_path);
  const std::vector<std::vector<uint8_t>> got =
      testing::run_on_host(compiled.program, float_bytes_of(load_npy(testdata(model + ".in0.npy")).data));
  ASSERT_EQ(got.size(), outputs);
  ASSERT_EQ(g.outputs.size(), outputs);
  for (size_t j = 0; j < outputs; ++j) {
    const std::vector<float> golden = load_npy(testdata(model + ".out" + std::to_string(j) + ".npy")).data;
    const DType dtype = g.tensors[g.outputs[j]].dtype;
    const size_t width = dtype == DType::kInt64 ? 8 : 4;
    ASSERT_EQ(got[j].size(), golden.size() * width) << "output " << j;
    for (size_t i = 0; i < golden.size(); ++i) {
      if (dtype == DType::kInt64) {
        int64_t v;
        std::memcpy(&v, &got[j][i * 8], 8);
        EXPECT_EQ(v, static_cast<int64_t>(golden[i])) << "output " << j << " element " << i;
        continue;
      }
      float v;
      std::memcpy(&v, &got[j][i * 4], 4);
      const double bound = tolerance * std::max(1.0, std::fabs(static_cast<double>(golden[i])));
      EXPECT_LE(std::fabs(static_cast<double>(v) - golden[i]), bound)  // fails on NaN
          << "output " << j << " element " << i << ": " << v << " vs " << golden[i];
    }
  }
}

TEST(OnnxEltwise, MathAndPow) {
  check_model("eltwise_math", 9);
  const ir::Graph g = import_and_legalize(testdata("eltwise_math.onnx"));
  // Pow by 2 and 3 are multiplies, by 0.5 / -0.5 sqrt / rsqrt, by -1 (and Reciprocal) a
  // division; the int64 exponent 4, the tensor and the per-channel exponents run pow.
  EXPECT_EQ(count_ops(g, "pow"), 3);
  EXPECT_EQ(count_ops(g, "div"), 2);
  int sqrt = 0, rsqrt = 0, erf = 0, softplus = 0;
  for (const ir::Node& n : g.nodes) {
    if (n.op != ir::Op::kUnary) continue;
    const std::string fn = n.get_string("fn");
    sqrt += fn == "sqrt";
    rsqrt += fn == "rsqrt";
    erf += fn == "erf";
    softplus += fn == "softplus";
  }
  EXPECT_EQ(sqrt, 2);
  EXPECT_EQ(rsqrt, 1);
  EXPECT_EQ(erf, 1);
  EXPECT_EQ(softplus, 1);
}

TEST(OnnxEltwise, EluSeluMaxMin) {
  check_model("eltwise_activations", 7);
  const ir::Graph g = import_and_legalize(testdata("eltwise_activations.onnx"));
  EXPECT_EQ(count_ops(g, "elu"), 4);
  EXPECT_EQ(count_ops(g, "maximum"), 2);
  EXPECT_EQ(count_ops(g, "minimum"), 1);
}

// Celu(alpha) = alpha * elu(x / alpha): one elu for alpha 1, else mul, elu, mul.
TEST(OnnxEltwise, Celu) {
  check_model("celu", 3);
  const ir::Graph g = import_and_legalize(testdata("celu.onnx"));
  EXPECT_EQ(count_ops(g, "elu"), 3);
  EXPECT_EQ(count_ops(g, "mul"), 4);
  EXPECT_DOUBLE_EQ(onnx_test::find_node(onnx_import::read_model(testdata("celu.onnx")), "celu1")->get_float("alpha", 0),
                   1.0);
}

// Equal, Where and Tile on computed tensors: compare, select, and a gather at a constant
// index table; channels-last (after the Conv) and channels-first (the input) data.
TEST(OnnxEltwise, WhereEqualTileOnComputedTensors) {
  check_model("where_tile_computed", 3);
  const ir::Graph g = import_and_legalize(testdata("where_tile_computed.onnx"));
  EXPECT_EQ(count_ops(g, "compare"), 2);
  EXPECT_EQ(count_ops(g, "select"), 2);
  EXPECT_EQ(count_ops(g, "gather"), 1);
}

// Comparisons and logic on computed tensors: compare (Not as == false, Xor as not_equal)
// and logical.
TEST(OnnxEltwise, ComparisonsAndLogicOnComputedTensors) {
  check_model("comparisons_computed", 3);
  const ir::Graph g = import_and_legalize(testdata("comparisons_computed.onnx"));
  EXPECT_EQ(count_ops(g, "compare"), 7);
  EXPECT_EQ(count_ops(g, "logical"), 2);
}

// Cast of computed int64 (ArgMax), int32 and bool data: the cast op. The ArgMax index
// fits int32 (narrow_int64), so its cast to int32 is no op; cast back to int64 for an int64
// graph output.
TEST(OnnxEltwise, CastOfComputedData) {
  check_model("cast_computed", 3, 0.0);
  EXPECT_EQ(count_ops(import_and_legalize(testdata("cast_computed.onnx")), "cast"), 3);
  check_model("cast_to_int64_computed", 1, 0.0);
  const ir::Graph g = import_and_legalize(testdata("cast_to_int64_computed.onnx"));
  EXPECT_EQ(count_ops(g, "cast"), 1);
  EXPECT_EQ(g.tensors[g.outputs[0]].dtype, DType::kInt64);
}

TEST(OnnxEltwise, Reductions) {
  check_model("reductions_opset11", 5, 1e-5);
  check_model("reductions_opset13", 6, 1e-5);
  const ir::Graph g = import_and_legalize(testdata("reductions_opset13.onnx"));
  EXPECT_EQ(count_ops(g, "reduce_max"), 2);
  EXPECT_EQ(count_ops(g, "reduce_min"), 1);
  EXPECT_EQ(count_ops(g, "sum"), 2);  // the noop ReduceSum is a copy
}

TEST(OnnxEltwise, ArgMinMaxInt64) { check_model("arg_min_max", 3); }

TEST(OnnxEltwise, LogSoftmax) {
  check_model("log_softmax_opset11", 1);
  check_model("log_softmax_opset13", 1);
  EXPECT_EQ(count_ops(import_and_legalize(testdata("log_softmax_opset13.onnx")), "log_softmax"), 1);
}

TEST(OnnxEltwise, DepthToSpaceAndSpaceToDepth) {
  check_model("depth_space", 3, 0.0);
  const ir::Graph g = import_and_legalize(testdata("depth_space.onnx"));
  EXPECT_EQ(count_ops(g, "depth_to_space"), 2);
  EXPECT_EQ(count_ops(g, "gather"), 1);  // CRD -> DCR channel order
  EXPECT_EQ(count_ops(g, "space_to_depth"), 1);
}

TEST(OnnxEltwise, GeluPatternsFuse) {
  check_model("gelu_patterns", 4);
  const ir::Graph g = import_and_legalize(testdata("gelu_patterns.onnx"));
  EXPECT_EQ(count_ops(g, "gelu"), 3);
  int approximate = 0;
  for (const ir::Node& n : g.nodes)
    if (n.op == ir::Op::kGelu) approximate += static_cast<int>(n.get_int("approximate", -1));
  EXPECT_EQ(approximate, 1);  // the tanh one
  // The near miss keeps its five ops: div, erf, add and two muls.
  EXPECT_EQ(count_ops(g, "div"), 1);
  EXPECT_EQ(count_ops(g, "unary"), 1);
  EXPECT_EQ(count_ops(g, "mul"), 2);
}

TEST(OnnxEltwise, NormalizedAttributes) {
  const onnx_import::SourceGraph g = onnx_import::read_model(testdata("reductions_opset13.onnx"));
  const onnx_import::SourceNode* sum = onnx_test::find_node(g, "rsum");
  ASSERT_NE(sum, nullptr);
  EXPECT_EQ(sum->inputs.size(), 1u);  // the axes input became the attribute
  EXPECT_EQ(sum->get_ints("axes"), std::vector<int64_t>({1}));
  EXPECT_EQ(sum->get_int("keepdims", -1), 1);
  EXPECT_EQ(sum->get_int("noop", -1), 0);
  const onnx_import::SourceNode* noop = onnx_test::find_node(g, "rsum_noop");
  ASSERT_NE(noop, nullptr);
  EXPECT_TRUE(noop->get_ints("axes").empty());
  EXPECT_EQ(noop->get_int("noop", -1), 1);
  EXPECT_EQ(onnx_test::find_node(g, "rmin")->get_ints("axes"), std::vector<int64_t>({3}));  // -1
  EXPECT_EQ(onnx_test::find_node(g, "rsum_all")->get_ints("axes"), std::vector<int64_t>({0, 1, 2, 3}));

  const onnx_import::SourceGraph a = onnx_import::read_model(testdata("arg_min_max.onnx"));
  const onnx_import::SourceNode* argmin = onnx_test::find_node(a, "argmin_last");
  EXPECT_EQ(argmin->get_int("axis", -1), 2);
  EXPECT_EQ(argmin->get_int("keepdims", -1), 1);
  EXPECT_EQ(argmin->get_int("select_last_index", -1), 1);

  const onnx_import::SourceGraph e = onnx_import::read_model(testdata("eltwise_activations.onnx"));
  EXPECT_DOUBLE_EQ(onnx_test::find_node(e, "elu1")->get_float("alpha", 0), 1.0);
  EXPECT_DOUBLE_EQ(onnx_test::find_node(e, "selu")->get_float("alpha", 0), 1.67326319217681884765625);
  EXPECT_DOUBLE_EQ(onnx_test::find_node(e, "selu")->get_float("gamma", 0), 1.05070102214813232421875);
  EXPECT_DOUBLE_EQ(onnx_test::find_node(e, "selu_custom")->get_float("gamma", 0), 0.5);

  const onnx_import::SourceGraph d = onnx_import::read_model(testdata("depth_space.onnx"));
  EXPECT_EQ(onnx_test::find_node(d, "d2s_dcr")->get_string("mode", ""), "DCR");
  EXPECT_EQ(onnx_test::find_node(d, "d2s_crd")->get_string("mode", ""), "CRD");
  EXPECT_EQ(onnx_test::find_node(d, "s2d")->get_int("blocksize", 0), 2);
}

TEST(OnnxEltwise, Refusals) {
  const std::string bad_mode = testdata("d2s_bad_mode.onnx");
  EXPECT_EQ(error_of([&] { import_onnx(bad_mode); }),
            bad_mode + ": node 'd2s' (DepthToSpace): attribute 'mode' value 'XYZ' not supported");
  const std::string block0 = testdata("d2s_block0.onnx");
  EXPECT_EQ(error_of([&] { import_onnx(block0); }),
            block0 + ": node 'd2s' (DepthToSpace): attribute 'blocksize' value 0 not supported (must be at least 1)");
  const std::string axes = testdata("reduce_sum_axes_input.onnx");
  EXPECT_EQ(error_of([&] { import_onnx(axes); }), axes + ": node 'rsum' (ReduceSum): input 'axes' must be constant");
  EXPECT_EQ(error_of([&] { import_onnx(testdata("s2d_indivisible.onnx")); }),
            testdata("s2d_indivisible.onnx") +
                ": node 's2d' (SpaceToDepth): spatial size 2x2 not a multiple of blocksize 3");
  EXPECT_EQ(error_of([&] { import_onnx(testdata("abs_int32.onnx")); }),
            testdata("abs_int32.onnx") + ": node 'abs' (Abs): input dtype int32 not supported (float32 only)");
  EXPECT_EQ(error_of([&] { import_onnx(testdata("pow_int_exponent.onnx")); }),
            testdata("pow_int_exponent.onnx") +
                ": node 'pow' (Pow): non-constant exponent of dtype int64 not supported (float32 only)");
  EXPECT_EQ(error_of([&] { import_onnx(testdata("celu_alpha0.onnx")); }),
            testdata("celu_alpha0.onnx") +
                ": node 'celu' (Celu): attribute 'alpha' value 0 not supported (must be finite and non-zero)");
  EXPECT_EQ(error_of([&] { import_onnx(testdata("tile_computed_repeats.onnx")); }),
            testdata("tile_computed_repeats.onnx") + ": node 'tile' (Tile): non-constant repeats not supported");
}

// PyTorch idioms (issue 18). F.normalize / norm / logsumexp / std / prod: ReduceL1,
// ReduceL2, ReduceSumSquare and the max-shifted ReduceLogSumExp as steps around sum in the
// channels-last layout, ReduceProd as reduce_prod; ReduceProd of a Shape folds to the
// element count.
TEST(OnnxIdioms, CompositeReductions) {
  check_model("idiom_reductions", 7, 1e-5);
  const ir::Graph g = import_and_legalize(testdata("idiom_reductions.onnx"));
  EXPECT_EQ(count_ops(g, "sum"), 6);  // l1, l2, sum_square, two log-sum-exps, total
  EXPECT_EQ(count_ops(g, "reduce_max"), 2);
  EXPECT_EQ(count_ops(g, "reduce_prod"), 1);  // torch.prod; the element count folded
}

// torch.floor/ceil/round/sign, torch.remainder (Floor) and torch.fmod (Mod fmod 1).
TEST(OnnxIdioms, RoundingSignAndMod) {
  check_model("idiom_rounding", 7, 0.0);
  const ir::Graph g = import_and_legalize(testdata("idiom_rounding.onnx"));
  EXPECT_EQ(count_ops(g, "floor_mod"), 3);
}

// torch.cumsum (over channels of NHWC data, and exclusive/reverse on the last axis),
// torch.triu / torch.tril (Trilu with and without k).
TEST(OnnxIdioms, CumSumAndTrilu) {
  check_model("idiom_cumsum_trilu", 5, 1e-5);
  const ir::Graph g = import_and_legalize(testdata("idiom_cumsum_trilu.onnx"));
  EXPECT_EQ(count_ops(g, "cumsum"), 2);
  EXPECT_EQ(count_ops(g, "select"), 3);
}

// torch.einsum: batch_matmul (and sum for letters of one operand only); outputs declared
// with symbolic dims get their shapes from the equation.
TEST(OnnxIdioms, Einsum) {
  check_model("idiom_einsum", 6, 1e-5);
  const ir::Graph g = import_and_legalize(testdata("idiom_einsum.onnx"));
  EXPECT_EQ(count_ops(g, "batch_matmul"), 5);
  EXPECT_EQ(count_ops(g, "sum"), 1);
}

// torch.topk (values and int64 indices, largest and smallest) and torch.sort (TopK with
// K from Shape/Gather/Unsqueeze, folded): top_k.
TEST(OnnxIdioms, TopK) {
  check_model("idiom_top_k", 6, 0.0);
  EXPECT_EQ(count_ops(import_and_legalize(testdata("idiom_top_k.onnx")), "top_k"), 3);
}

TEST(OnnxIdioms, Refusals) {
  auto expect_error = [](const std::string& model, const std::string& what) {
    const std::string path = testdata(model + ".onnx");
    EXPECT_EQ(error_of([&] { import_onnx(path); }), path + ": " + what);
  };
  expect_error("einsum_diagonal", "node 'diag' (Einsum): repeated index 'i' in one operand (a diagonal) not supported");
  expect_error("einsum_three", "node 'chain' (Einsum): equation 'ij,jk,kl->il' with 3 inputs not supported (1 or 2)");
  expect_error("cumsum_axis_input", "node 'cumsum' (CumSum): input 'axis' must be constant");
  expect_error("trilu_k_input", "node 'triu' (Trilu): input 'k' must be constant");
  expect_error("top_k_input_k", "node 'topk' (TopK): input 'K' must be a constant of one element");
  expect_error("top_k_too_many", "node 'topk' (TopK): K 4 not supported (1 to the axis' size 3)");
  expect_error("fmod_int32", "node 'fmod' (Mod): fmod 1 on dtype int32 not supported (float32 only)");
}

}  // namespace
}  // namespace mote
