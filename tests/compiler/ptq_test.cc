// Post-training quantization (compiler/ptq/): parameter choice, range methods, GPTQ
// rounding, the weight grid step search, sequential compensation, the calibration-data
// checks (each message exactly), mixed precision and the float fallback of nodes without
// an integer kernel.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

#include "common/error.h"
#include "compiler.h"
#include "compiler/graph_builder.h"
#include "npy.h"
#include "ptq/gptq.h"
#include "ptq/lstm_cell.h"
#include "ptq/ptq.h"
#include "ptq/weight_scale.h"
#include "search/search.h"
#include "test_util.h"

namespace mote::ptq {
namespace {

using mote::testing::onnx_model;
using mote::testing::shared_models;

// The quantized graph compile() ships for `g` on the host (the int16 policy's search
// compiles its candidates for the host).
ir::Graph quantize_for_host(const ir::Graph& g, const Calibration& cal, const std::vector<CalibrationInput>& in,
                            const Options& options, Report* report) {
  CompileOptions compile_options;
  compile_options.calibration = in;
  compile_options.quantize_options = options;
  SearchReport searches;
  return search::quantize(g, cal, compile_options, report, searches);
}

// ---------------------------------------------------------------- parameters

struct ParamsCase {
  float min, max;
  float scale;
  int32_t zero_point;
};

TEST(ChooseInt8Params, WidensToZeroAndRoundsTheZeroPointAwayFromZero) {
  const ParamsCase cases[] = {
      {0.0f, 6.0f, 6.0f / 255.0f, -128},   // ReLU6
      {-1.0f, 1.0f, 2.0f / 255.0f, -1},    // -128 + 127.5 = -0.5 rounds to -1
      {2.0f, 5.0f, 5.0f / 255.0f, -128},   // widened to [0, 5]
      {-3.0f, -1.0f, 3.0f / 255.0f, 127},  // widened to [-3, 0]
      {-2.55f, 0.0f, 0.01f, 127},
  };
  for (const ParamsCase& c : cases) {
    float scale = 0;
    int32_t zp = 0;
    choose_int8_params(Range{c.min, c.max}, &scale, &zp);
    EXPECT_FLOAT_EQ(scale, c.scale) << c.min << ".." << c.max;
    EXPECT_EQ(zp, c.zero_point) << c.min << ".." << c.max;
    // 0 is exactly representable and both ends are inside the int8 grid.
    EXPECT_GE(c.min, scale * static_cast<float>(-128 - zp) - scale);
    EXPECT_LE(std::max(c.max, 0.0f), scale * static_cast<float>(127 - zp) + scale);
  }
  float scale = 0;
  int32_t zp = 0;
  choose_int8_params(Range{0.0f, 0.0f}, &scale, &zp);
  EXPECT_EQ(scale, 1.0f);
}

TEST(ParseOptions, RefusesUnknownNames) {
  EXPECT_EQ(parse_range_method("mse"), RangeMethod::kMse);
  EXPECT_EQ(parse_int16_policy("all"), Int16Policy::kAll);
  try {
    parse_range_method("kl");
    FAIL();
  } catch (const CompileError& e) {
    EXPECT_STREQ(e.what(), "--calibration-method 'kl': expected minmax, percentile or mse");
  }
  try {
    parse_int16_policy("sometimes");
    FAIL();
  } catch (const CompileError& e) {
    EXPECT_STREQ(e.what(), "--int16 'sometimes': expected auto, off or all");
  }
}

// ---------------------------------------------------------------- small graphs

CalibrationInput samples(const std::vector<float>& values, ir::Shape shape) {
  CalibrationInput in;
  in.path = "samples.npy";
  in.shape = std::move(shape);
  in.data.resize(values.size() * sizeof(float));
  if (!values.empty()) std::memcpy(in.data.data(), values.data(), in.data.size());
  return in;
}

int add_constant(ir::Graph& g, const std::string& name, const std::vector<float>& values, ir::Shape shape) {
  std::vector<uint8_t> bytes(values.size() * sizeof(float));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return g.add_constant(name, DType::kFloat32, std::move(shape), std::move(bytes));
}

int add_activation(ir::Graph& g, const std::string& name, ir::Shape shape) {
  ir::Tensor t;
  t.name = name;
  t.shape = std::move(shape);
  return g.add_tensor(std::move(t));
}

// x [1,n] -> add(x, c) -> y; optionally -> div(y, d) -> z (div has no integer kernel).
ir::Graph chain(int64_t n, bool with_div) {
  ir::Graph g;
  g.name = "chain";
  const int x = add_activation(g, "x", {1, n});
  const int c = add_constant(g, "c", std::vector<float>(static_cast<size_t>(n), 0.25f), {n});
  const int y = add_activation(g, "y", {1, n});
  g.inputs = {x};
  ir::Node add;
  add.name = "add0";
  add.op = ir::Op::kAdd;
  add.inputs = {x, c};
  add.outputs = {y};
  g.nodes.push_back(add);
  g.outputs = {y};
  if (with_div) {
    const int d = add_constant(g, "d", std::vector<float>(static_cast<size_t>(n), 2.0f), {n});
    const int z = add_activation(g, "z", {1, n});
    ir::Node div;
    div.name = "div0";
    div.op = ir::Op::kDiv;
    div.inputs = {y, d};
    div.outputs = {z};
    g.nodes.push_back(div);
    g.outputs = {z};
  }
  return g;
}

std::vector<float> gaussian(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> nd;
  std::vector<float> v(n);
  for (float& x : v) x = nd(rng);
  return v;
}

TEST(Calibrate, RangeMethodsClipAnOutlier) {
  const ir::Graph g = chain(1000, false);
  std::vector<float> values = gaussian(4000, 7);
  values[123] = 100.0f;  // one outlier in 4 samples of 1000
  const std::vector<CalibrationInput> in = {samples(values, {4, 1, 1000})};
  Options minmax;
  const Calibration a = calibrate(g, in, minmax);
  ASSERT_TRUE(a.chosen[g.inputs[0]]);
  EXPECT_FLOAT_EQ(a.chosen[g.inputs[0]]->max, 100.0f);
  EXPECT_EQ(a.samples, 4u);
  Options percentile;
  percentile.method = RangeMethod::kPercentile;
  percentile.percentile = 99.9;
  const Calibration b = calibrate(g, in, percentile);
  EXPECT_LT(b.chosen[g.inputs[0]]->max, 6.0f);
  EXPECT_GT(b.chosen[g.inputs[0]]->max, 2.0f);
  EXPECT_FLOAT_EQ(b.observed[g.inputs[0]]->max, 100.0f);
  Options mse;
  mse.method = RangeMethod::kMse;
  const Calibration c = calibrate(g, in, mse);
  EXPECT_LT(c.chosen[g.inputs[0]]->max, 100.0f);
  // The add's output (x + 0.25) is observed too.
  EXPECT_FLOAT_EQ(a.observed[g.outputs[0]]->max, 100.25f);
}

TEST(Calibrate, TakesSamplesStackedAlongABatchAxisOfOne) {
  // [N, 1000] for the input [1, 1000] (a PyTorch batch) holds the bytes of [N, 1, 1000].
  const ir::Graph g = chain(1000, false);
  const std::vector<float> values = gaussian(3000, 11);
  const Calibration nested = calibrate(g, {samples(values, {3, 1, 1000})}, Options{});
  const Calibration stacked = calibrate(g, {samples(values, {3, 1000})}, Options{});
  EXPECT_EQ(stacked.samples, 3u);
  ASSERT_TRUE(nested.chosen[g.outputs[0]] && stacked.chosen[g.outputs[0]]);
  EXPECT_EQ(stacked.chosen[g.outputs[0]]->min, nested.chosen[g.outputs[0]]->min);
  EXPECT_EQ(stacked.chosen[g.outputs[0]]->max, nested.chosen[g.outputs[0]]->max);
}

std::string calibrate_error(const ir::Graph& g, const std::vector<CalibrationInput>& in) {
  try {
    calibrate(g, in, Options{});
  } catch (const CompileError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Calibrate, RefusesBadSamplesNamingTheFile) {
  const ir::Graph g = chain(4, false);
  EXPECT_EQ(calibrate_error(g, {}),
            "--calibration: the model has 1 input(s), got 0 calibration file(s) (one per input, in input order)");
  EXPECT_EQ(calibrate_error(g, {samples(std::vector<float>(8, 0.0f), {2, 1, 4}),
                                samples(std::vector<float>(8, 0.0f), {2, 1, 4})}),
            "--calibration: the model has 1 input(s), got 2 calibration file(s) (one per input, in input order)");
  EXPECT_EQ(calibrate_error(g, {samples(std::vector<float>(10, 0.0f), {2, 1, 5})}),
            "samples.npy: calibration data has shape [2,1,5], expected [N,1,4] or [N,4] (N samples of input 0 'x' "
            "[1,4])");
  EXPECT_EQ(calibrate_error(g, {samples(std::vector<float>(10, 0.0f), {2, 5})}),
            "samples.npy: calibration data has shape [2,5], expected [N,1,4] or [N,4] (N samples of input 0 'x' "
            "[1,4])");
  EXPECT_EQ(calibrate_error(g, {samples(std::vector<float>(8, 0.0f), {8})}),
            "samples.npy: calibration data has shape [8], expected [N,1,4] or [N,4] (N samples of input 0 'x' [1,4])");
  EXPECT_EQ(calibrate_error(g, {samples({}, {0, 1, 4})}),
            "samples.npy: calibration data is empty (0 samples of input 0 'x' [1,4])");
  CalibrationInput ints = samples(std::vector<float>(2, 0.0f), {2, 1, 4});
  ints.dtype = DType::kInt8;
  EXPECT_EQ(calibrate_error(g, {ints}),
            "samples.npy: calibration data has dtype int8, expected float32 (samples of input 0 'x' [1,4])");
  std::vector<float> nan(8, 1.0f);
  nan[6] = std::nanf("");
  EXPECT_EQ(calibrate_error(g, {samples(nan, {2, 1, 4})}), "samples.npy: calibration data has NaN at sample 1, element 2");
  std::vector<float> inf(8, 1.0f);
  inf[0] = INFINITY;
  EXPECT_EQ(calibrate_error(g, {samples(inf, {2, 1, 4})}),
            "samples.npy: calibration data has infinity at sample 0, element 0");
}

TEST(QuantizeModel, KeepsANodeWithoutIntegerKernelInFloat) {
  const ir::Graph g = chain(16, true);
  const std::vector<CalibrationInput> in = {samples(gaussian(16 * 32, 3), {32, 1, 16})};
  Options options;
  const Calibration cal = calibrate(g, in, options);
  Report report;
  const ir::Graph q = quantize_for_host(g, cal, in, options, &report);
  ASSERT_EQ(report.float_nodes.size(), 1u);
  EXPECT_EQ(report.float_nodes[0], "div0 (div): no integer kernel for div");
  // x (float) -> quantize -> add_s8 -> dequantize -> div_f32 -> z.
  std::vector<std::string> ops;
  for (const ir::Node& n : q.nodes) ops.push_back(ir::op_name(n.op));
  EXPECT_EQ(ops, (std::vector<std::string>{"quantize", "add", "dequantize", "div"}));
  EXPECT_EQ(q.tensors[q.outputs[0]].name, "z");
  EXPECT_EQ(q.tensors[q.outputs[0]].dtype, DType::kFloat32);
  ASSERT_EQ(report.outputs.size(), 1u);
  EXPECT_GT(report.outputs[0].sqnr_db, 35.0);  // int8 of N(0,1) + 0.25
  const CompileResult program = lower_to_program(q, "cortex-m0plus");
  EXPECT_GT(program.program.size(), 0u);
}

// Attention scores plus a causal additive mask (0 on and below the diagonal, -inf above):
// the sum holds -inf, which no int8 range covers. The add and the softmax reading it stay
// float, named with the reason; the projection after the softmax is int8 again. A NaN
// activation is still refused.
TEST(QuantizeModel, KeepsAnInfiniteMaskedSumAndItsSoftmaxInFloat) {
  GraphBuilder b;
  b.graph.name = "masked";
  const int x = b.input("x", {1, 4, 4});
  std::vector<float> mask(16, 0.0f);
  for (int r = 0; r < 4; ++r)
    for (int c = r + 1; c < 4; ++c) mask[static_cast<size_t>(r * 4 + c)] = -INFINITY;
  const int scores = b.node(ir::Op::kAdd, "masked", {x, b.constant("mask", {4, 4}, mask)}, {1, 4, 4});
  const int p = b.node(ir::Op::kSoftmax, "softmax", {scores}, {1, 4, 4});
  b.output(b.node(ir::Op::kMul, "scale", {p, b.constant("s", {4}, {1.0f, 2.0f, 3.0f, 4.0f})}, {1, 4, 4}));
  const std::vector<CalibrationInput> in = {samples(gaussian(16 * 32, 11), {32, 1, 4, 4})};
  Options options;
  options.int16 = Int16Policy::kOff;
  const Calibration cal = calibrate(b.graph, in, options);
  EXPECT_TRUE(cal.infinite[static_cast<size_t>(scores)]);
  EXPECT_FALSE(cal.observed[static_cast<size_t>(scores)].has_value());
  EXPECT_FALSE(cal.infinite[static_cast<size_t>(p)]);
  Report report;
  const ir::Graph q = quantize_for_host(b.graph, cal, in, options, &report);
  EXPECT_EQ(report.float_nodes,
            (std::vector<std::string>{
                "masked (add): output 'masked:0' holds infinities (an additive -inf mask): no int8 range",
                "softmax (softmax): input 'masked:0' holds infinities (an additive -inf mask): no int8 range"}));
  std::vector<std::string> ops;
  for (const ir::Node& n : q.nodes) ops.push_back(ir::op_name(n.op));
  EXPECT_EQ(ops, (std::vector<std::string>{"add", "softmax", "quantize", "mul", "dequantize"}));
  ASSERT_EQ(report.outputs.size(), 1u);
  EXPECT_GT(report.outputs[0].sqnr_db, 35.0);
  // The int8 product the float output is dequantized from gives up the output's name and
  // keeps its report line under the new one.
  ASSERT_FALSE(report.tensors.empty());
  EXPECT_EQ(report.tensors.back().name, q.tensors[static_cast<size_t>(q.nodes[3].outputs[0])].name);
  EXPECT_EQ(report.tensors.back().name, q.tensors[static_cast<size_t>(q.outputs[0])].name + "/int8");

  GraphBuilder nan;
  nan.graph.name = "nan";
  const int v = nan.input("x", {1, 4});
  const int inf = nan.node(ir::Op::kAdd, "inf", {v, nan.constant("c", {4}, {INFINITY, 0, 0, 0})}, {1, 4});
  nan.output(nan.node(ir::Op::kSub, "nan", {inf, inf}, {1, 4}));
  EXPECT_EQ(calibrate_error(nan.graph, {samples(std::vector<float>(8, 1.0f), {2, 1, 4})}),
            "calibration: tensor 'nan:0' is not finite (NaN) on sample 0; the float model overflows on this data");
}

// Top-1 agreement is counted only for class scores ([rows, K >= 2] from a classifier's
// last op): not for chain's [1,16] sum, which only has a class-score shape.
TEST(QuantizeModel, CountsTopOneAgreementOnlyForClassScores) {
  const ir::Graph g = chain(16, false);
  const std::vector<CalibrationInput> in = {samples(gaussian(16 * 32, 7), {32, 1, 16})};
  Options options;
  const Calibration cal = calibrate(g, in, options);
  Report report;
  (void)quantize_for_host(g, cal, in, options, &report);
  ASSERT_EQ(report.outputs.size(), 1u);
  EXPECT_EQ(report.outputs[0].top1_rows, 0);
}

// The structural rule on hand-built graphs: a classifier's [samples, K] scores count; a
// segmentation map (rank 4, or flattened to a row per pixel), a pooled feature vector and
// an l2-normalized embedding do not.
TEST(QuantizeModel, ClassScoresAreAClassifiersLastOutputOnly) {
  GraphBuilder b;
  const int image = b.input("image", {1, 8, 8, 3});
  const int features = b.node(ir::Op::kConv2d, "backbone", {image}, {1, 8, 8, 16});
  // Segmentation: per-pixel scores, as they are and flattened to [pixels, K].
  const int pixels = b.node(ir::Op::kSoftmax, "segment", {b.node(ir::Op::kConv2d, "head", {features}, {1, 8, 8, 5})},
                            {1, 8, 8, 5});
  const int flat_pixels = b.node(ir::Op::kSoftmax, "segment_rows",
                                 {b.node(ir::Op::kReshape, "rows", {pixels}, {64, 5})}, {64, 5});
  // A feature vector: the backbone averaged and flattened.
  const int pooled = b.node(ir::Op::kReshape, "flatten",
                            {b.node(ir::Op::kMean, "pool", {features}, {1, 1, 1, 16})}, {1, 16});
  // Classifier heads: logits, their softmax, and an int8 softmax dequantized.
  const int logits = b.node(ir::Op::kFullyConnected, "fc", {pooled}, {1, 10});
  const int probabilities = b.node(ir::Op::kSoftmax, "softmax", {logits}, {1, 10});
  const int dequantized = b.node(ir::Op::kDequantize, "dequantize",
                                 {b.node(ir::Op::kQuantize, "quantize", {probabilities}, {1, 10})}, {1, 10});
  // An embedding: a fully connected projection, l2-normalized.
  const int embedding = b.node(ir::Op::kL2Normalization, "normalize",
                               {b.node(ir::Op::kFullyConnected, "project", {pooled}, {1, 32})}, {1, 32});
  const int one_class = b.node(ir::Op::kFullyConnected, "score", {pooled}, {1, 1});
  for (int t : {pixels, flat_pixels, pooled, logits, probabilities, dequantized, embedding, one_class}) b.output(t);
  EXPECT_FALSE(class_scores(b.graph, pixels));
  EXPECT_FALSE(class_scores(b.graph, flat_pixels));
  EXPECT_FALSE(class_scores(b.graph, pooled));
  EXPECT_TRUE(class_scores(b.graph, logits));
  EXPECT_TRUE(class_scores(b.graph, probabilities));
  EXPECT_TRUE(class_scores(b.graph, dequantized));
  EXPECT_FALSE(class_scores(b.graph, embedding));
  EXPECT_FALSE(class_scores(b.graph, one_class));

  // A batch of 4 samples: one row of scores each.
  GraphBuilder batch;
  const int x = batch.input("x", {4, 8});
  const int scores = batch.node(ir::Op::kFullyConnected, "fc", {x}, {4, 3});
  batch.output(scores);
  EXPECT_TRUE(class_scores(batch.graph, scores));
}

TEST(QuantizeModel, Int8IoKeepsTheModelInputAndOutputQuantized) {
  const ir::Graph g = chain(16, false);
  const std::vector<CalibrationInput> in = {samples(gaussian(16 * 32, 5), {32, 1, 16})};
  Options options;
  options.int8_io = true;
  const Calibration cal = calibrate(g, in, options);
  Report report;
  const ir::Graph q = quantize_for_host(g, cal, in, options, &report);
  ASSERT_EQ(q.nodes.size(), 1u);
  EXPECT_EQ(q.nodes[0].op, ir::Op::kAdd);
  EXPECT_EQ(q.tensors[q.inputs[0]].dtype, DType::kInt8);
  EXPECT_EQ(q.tensors[q.outputs[0]].dtype, DType::kInt8);
  EXPECT_EQ(q.tensors[q.outputs[0]].name, "y");
  EXPECT_GT(report.outputs[0].sqnr_db, 35.0);
}

// a [1,4,8] x b [1,6,8] (adj_b: b read as [1,8,6], attention's q k^T) -> batch_matmul
// -> y [1,4,6]: both operands are activations.
ir::Graph attention_scores() {
  GraphBuilder b;
  b.graph.name = "scores";
  const int a = b.input("a", {1, 4, 8});
  const int bt = b.input("b", {1, 6, 8});
  b.output(b.node(ir::Op::kBatchMatMul, "scores", {a, bt}, {1, 4, 6}, {{"adj_b", int64_t{1}}}));
  return std::move(b.graph);
}

// attention_scores() quantized over 32 samples of N(0,1) a and N(0, b_scale^2) b; no
// node may stay float.
ir::Graph quantized_scores(const ir::Graph& g, float b_scale, Int16Policy int16, Calibration* cal, Report* report) {
  std::vector<float> b = gaussian(48 * 32, 9);
  for (float& v : b) v *= b_scale;
  const std::vector<CalibrationInput> in = {samples(gaussian(32 * 32, 8), {32, 1, 4, 8}), samples(b, {32, 1, 6, 8})};
  Options options;
  options.int16 = int16;
  *cal = calibrate(g, in, options);
  ir::Graph q = quantize_for_host(g, *cal, in, options, report);
  EXPECT_TRUE(report->float_nodes.empty()) << report->float_nodes[0];
  return q;
}

// TFLite's int8 BATCH_MATMUL: each operand quantized per tensor over its own calibrated
// range, the output over its own, requantized by the kernel.
TEST(QuantizeModel, BatchMatMulOfTwoActivationsIsInt8WithEachOperandsOwnRange) {
  const ir::Graph g = attention_scores();
  Calibration cal;
  Report report;
  const ir::Graph q = quantized_scores(g, 3.0f, Int16Policy::kOff, &cal, &report);  // b's range differs from a's
  std::vector<std::string> ops;
  for (const ir::Node& n : q.nodes) ops.push_back(ir::op_name(n.op));
  EXPECT_EQ(ops, (std::vector<std::string>{"quantize", "quantize", "batch_matmul", "dequantize"}));
  const ir::Node& mm = q.nodes[2];
  EXPECT_EQ(mm.get_int("adj_b", 0), 1);
  for (size_t i = 0; i < 2; ++i) {
    const ir::Tensor& t = q.tensors[mm.inputs[i]];
    ASSERT_EQ(t.dtype, DType::kInt8) << t.name;
    float scale;
    int32_t zero_point;
    choose_int8_params(*cal.chosen[g.inputs[i]], &scale, &zero_point);
    EXPECT_FLOAT_EQ(t.quant.scales[0], scale) << t.name;
    EXPECT_EQ(t.quant.zero_points[0], zero_point) << t.name;
  }
  EXPECT_GT(q.tensors[mm.inputs[1]].quant.scales[0], 2.0f * q.tensors[mm.inputs[0]].quant.scales[0]);
  const ir::Tensor& out = q.tensors[mm.outputs[0]];
  ASSERT_EQ(out.dtype, DType::kInt8);
  float scale;
  int32_t zero_point;
  choose_int8_params(*cal.chosen[g.outputs[0]], &scale, &zero_point);
  EXPECT_FLOAT_EQ(out.quant.scales[0], scale);
  EXPECT_EQ(out.quant.zero_points[0], zero_point);
  ASSERT_EQ(report.outputs.size(), 1u);
  EXPECT_GT(report.outputs[0].sqnr_db, 30.0);  // a dot product of 8 int8 pairs
  const CompileResult program = lower_to_program(q, "cortex-m4");
  EXPECT_GT(program.program.size(), 0u);
}

// With int16 activations everywhere: TFLite's 16x8 batch_matmul, zero points 0.
TEST(QuantizeModel, BatchMatMulTakesInt16ActivationsSymmetrically) {
  const ir::Graph g = attention_scores();
  Calibration cal;
  Report report;
  const ir::Graph q = quantized_scores(g, 1.0f, Int16Policy::kAll, &cal, &report);
  const ir::Node* mm = nullptr;
  for (const ir::Node& n : q.nodes)
    if (n.op == ir::Op::kBatchMatMul) mm = &n;
  ASSERT_NE(mm, nullptr);
  for (int id : {mm->inputs[0], mm->inputs[1], mm->outputs[0]}) {
    EXPECT_EQ(q.tensors[id].dtype, DType::kInt16) << q.tensors[id].name;
    EXPECT_EQ(q.tensors[id].quant.zero_points[0], 0) << q.tensors[id].name;
  }
  EXPECT_GT(report.outputs[0].sqnr_db, 60.0);
}

// An embedding lookup: int64 token ids (a model input) -> gather from a constant table.
// The ids are calibrated as they are (int64 samples) and stay unquantized; the table is
// quantized over its own range and the gather moves int8 rows.
TEST(QuantizeModel, EmbeddingLookupReadsInt64IdsAndGathersInt8Rows) {
  GraphBuilder b;
  b.graph.name = "lookup";
  const int ids = b.input("ids", {1, 3});
  b.graph.tensors[ids].dtype = DType::kInt64;
  const int table = b.constant("table", {5, 4}, gaussian(20, 2));
  b.output(b.node(ir::Op::kGather, "gather", {table, ids}, {1, 3, 4},
                  {{"axis", int64_t{0}}, {"negative_from_end", int64_t{1}}}));
  const ir::Graph& g = b.graph;
  std::vector<int64_t> id_values(3 * 8);
  for (size_t k = 0; k < id_values.size(); ++k) id_values[k] = static_cast<int64_t>(k % 5);
  CalibrationInput in;
  in.path = "ids.npy";
  in.dtype = DType::kInt64;
  in.shape = {8, 1, 3};
  in.data.resize(id_values.size() * sizeof(int64_t));
  std::memcpy(in.data.data(), id_values.data(), in.data.size());
  Options options;
  options.int16 = Int16Policy::kOff;
  const Calibration cal = calibrate(g, {in}, options);
  Report report;
  const ir::Graph q = quantize_for_host(g, cal, {in}, options, &report);
  EXPECT_TRUE(report.float_nodes.empty()) << report.float_nodes[0];
  std::vector<std::string> ops;
  for (const ir::Node& n : q.nodes) ops.push_back(ir::op_name(n.op));
  EXPECT_EQ(ops, (std::vector<std::string>{"gather", "dequantize"}));
  EXPECT_EQ(q.tensors[q.nodes[0].inputs[0]].dtype, DType::kInt8);
  EXPECT_EQ(q.tensors[q.nodes[0].inputs[1]].dtype, DType::kInt64);
  EXPECT_GT(report.outputs[0].sqnr_db, 35.0);
  CalibrationInput floats = samples(std::vector<float>(24, 0.0f), {8, 1, 3});
  EXPECT_EQ(calibrate_error(g, {floats}),
            "samples.npy: calibration data has dtype float32, expected int64 (samples of input 0 'ids' [1,3])");
}

// ---------------------------------------------------------------- gru

// A GRU of H = 2 units over x [T=6, B=2, I=1] (time_major), h0 a model input, gate weights
// of different sizes per gate (z: 0.5, r: 1.0, h: 2.0 at most), nonzero biases.
ir::Graph small_gru(int64_t linear_before_reset) {
  GraphBuilder b;
  b.graph.name = "small_gru";
  const int x = b.input("x", {6, 2, 1});
  const int h0 = b.input("h0", {2, 2});
  const int w = b.constant("w", {6, 1}, {0.5f, -0.25f, 1.0f, 0.5f, -2.0f, 1.5f});
  const int r = b.constant("r", {6, 2}, {0.5f, 0.1f, -0.2f, 0.3f, 1.0f, -0.5f, 0.25f, 0.5f, 2.0f, -1.0f, 0.5f, 1.0f});
  const int bias = b.constant("b", {12}, {0.1f, -0.1f, 0.2f, 0.3f, -0.4f, 0.5f, 0.05f, 0.15f, -0.25f, 0.35f, 0.45f, -0.55f});
  const int y = b.tensor("y", {6, 2, 2});
  const int h = b.tensor("h", {2, 2});
  ir::Node n;
  n.name = "gru";
  n.op = ir::Op::kGru;
  n.inputs = {x, w, r, bias, h0};
  n.outputs = {y, h};
  n.attrs = {{"linear_before_reset", linear_before_reset}, {"time_major", int64_t{1}}};
  b.graph.nodes.push_back(std::move(n));
  b.output(y);
  return std::move(b.graph);
}

// The GRU runs as gru_s8 (on cortex-m4 its DSP variant gru_s8__dsp): one scale per gate (max |w| / 127 over its rows), h0, y and h
// one quantization, each gate's recurrent bias folded into its input bias except the
// candidate's with linear_before_reset 1 (kept at h's scale times the recurrent weights').
TEST(QuantizeModel, GruQuantizesPerGateWithFoldedBiases) {
  for (int64_t lbr : {0, 1}) {
    SCOPED_TRACE(lbr);
    const ir::Graph g = small_gru(lbr);
    std::vector<float> x;
    for (int k = 0; k < 24; ++k) x.push_back(std::sin(0.7f * static_cast<float>(k)));
    const std::vector<CalibrationInput> in = {samples(x, {2, 6, 2, 1}), samples({0.2f, -0.4f, 0.6f, 0.0f, -0.1f, 0.3f, 0.5f, -0.6f}, {2, 2, 2})};
    Options options;
    options.int16 = Int16Policy::kOff;
    const Calibration cal = calibrate(g, in, options);
    Report report;
    const ir::Graph q = quantize_for_host(g, cal, in, options, &report);
    ASSERT_TRUE(report.float_nodes.empty()) << report.float_nodes[0];
    const ir::Node* gru = nullptr;
    for (const ir::Node& n : q.nodes)
      if (n.op == ir::Op::kGru) gru = &n;
    ASSERT_NE(gru, nullptr);
    const ir::Tensor& w = q.tensors[gru->inputs[1]];
    const ir::Tensor& r = q.tensors[gru->inputs[2]];
    EXPECT_EQ(w.quant.scales, (std::vector<float>{0.5f / 127, 0.5f / 127, 1.0f / 127, 1.0f / 127, 2.0f / 127, 2.0f / 127}));
    EXPECT_EQ(r.quant.scales, (std::vector<float>{0.5f / 127, 0.5f / 127, 1.0f / 127, 1.0f / 127, 2.0f / 127, 2.0f / 127}));
    EXPECT_EQ(w.quant.axis, 0);
    const ir::Tensor& y = q.tensors[gru->outputs[0]];
    EXPECT_EQ(y.dtype, DType::kInt8);
    for (int id : {gru->inputs[4], gru->outputs[1]}) {
      EXPECT_EQ(q.tensors[id].quant.scales, y.quant.scales) << q.tensors[id].name;
      EXPECT_EQ(q.tensors[id].quant.zero_points, y.quant.zero_points) << q.tensors[id].name;
    }
    const ir::Tensor& bias = q.tensors[gru->inputs[3]];
    ASSERT_EQ(bias.dtype, DType::kInt32);
    const double x_scale = q.tensors[gru->inputs[0]].quant.scales[0];
    const float real[12] = {0.1f, -0.1f, 0.2f, 0.3f, -0.4f, 0.5f, 0.05f, 0.15f, -0.25f, 0.35f, 0.45f, -0.55f};
    const float gate_max[3] = {0.5f, 1.0f, 2.0f};
    for (int gate = 0; gate < 3; ++gate) {
      const bool kept = lbr == 1 && gate == 2;
      for (int n = 0; n < 2; ++n) {
        const int wb = gate * 2 + n, rb = (3 + gate) * 2 + n;
        const double wb_scale = x_scale * (gate_max[gate] / 127);
        const double wb_real = kept ? real[wb] : double(real[wb]) + real[rb];
        EXPECT_EQ(bias.as<int32_t>()[wb], static_cast<int32_t>(std::round(wb_real / wb_scale))) << wb;
        const double rb_scale = double(y.quant.scales[0]) * (gate_max[gate] / 127);
        EXPECT_EQ(bias.as<int32_t>()[rb], kept ? static_cast<int32_t>(std::round(real[rb] / rb_scale)) : 0) << rb;
      }
    }
    const CompileResult program = lower_to_program(q, "cortex-m4");
    EXPECT_NE(std::find(program.report.kernels.begin(), program.report.kernels.end(), "gru_s8__dsp"),
              program.report.kernels.end());
    ASSERT_EQ(report.outputs.size(), 1u);
    EXPECT_GT(report.outputs[0].sqnr_db, 30.0);
  }
}

// ---------------------------------------------------------------- lstm

// One lstm of 1 unit over x [T=8, B=2, 1] (time_major): input and forget gates open (bias
// 10), the cell gate tanh(3x), output gate open. The cell adds ~tanh(3x) per step: batch row
// 0 gets x = +1 for 4 steps then -1 for 4, row 1 the opposite, so the cell peaks at about
// +-4 mid-sequence and ends near 0 (from c0 = 0). Outputs y, h, c (the model's: y); c0 a
// constant, h0 a model input.
ir::Graph peaking_lstm(float c0 = 0.0f) {
  GraphBuilder b;
  b.graph.name = "peaking_lstm";
  const int x = b.input("x", {8, 2, 1});
  const int h0 = b.input("h0", {2, 1});
  std::vector<int> in(24, ir::kNoTensor);
  in[0] = x;
  const char* const gates[4] = {"input", "forget", "cell", "output"};
  for (int g = 0; g < 4; ++g) {
    const std::string gate = gates[g];
    in[1 + g] = b.constant(gate + "_wx", {1, 1}, {g == 2 ? 3.0f : 0.0f});
    in[5 + g] = b.constant(gate + "_wh", {1, 1}, {0.0f});
    in[12 + g] = b.constant(gate + "_bias", {1}, {g == 2 ? 0.0f : 10.0f});
  }
  in[18] = h0;
  in[19] = b.constant("c0", {2, 1}, {c0, c0});
  const int y = b.tensor("y", {8, 2, 1});
  const int h = b.tensor("h", {2, 1});
  const int c = b.tensor("c", {2, 1});
  ir::Node n;
  n.name = "lstm";
  n.op = ir::Op::kLstm;
  n.inputs = in;
  n.outputs = {y, h, c};
  n.attrs = {{"activation", std::string("tanh")}, {"cell_clip", 0.0}, {"proj_clip", 0.0}, {"time_major", int64_t{1}}};
  b.graph.nodes.push_back(std::move(n));
  b.output(y);
  return std::move(b.graph);
}

// peaking_lstm() quantized over the two samples of x [2, 8, 2, 1] (and h0 fixed); no node
// may stay float.
ir::Graph quantized_peaking_lstm(const ir::Graph& g, const std::vector<float>& x, Int16Policy int16, Calibration* cal,
                                 Report* report) {
  const std::vector<CalibrationInput> in = {samples(x, {2, 8, 2, 1}), samples({0.1f, -0.2f, 0.0f, 0.3f}, {2, 2, 1})};
  Options options;
  options.int16 = int16;
  *cal = calibrate(g, in, options);
  ir::Graph q = quantize_for_host(g, *cal, in, options, report);
  EXPECT_TRUE(report->float_nodes.empty()) << report->float_nodes[0];
  return q;
}

const ir::Node* lstm_node(const ir::Graph& q) {
  for (const ir::Node& n : q.nodes)
    if (n.op == ir::Op::kLstm) return &n;
  return nullptr;
}

TEST(LstmCellScale, IsThePowerOfTwoTfliteQuantizerPicks) {
  EXPECT_EQ(lstm_cell_scale(Range{0.0f, 0.0f}), std::ldexp(1.0f, -15));
  EXPECT_EQ(lstm_cell_scale(Range{-0.5f, 1.0f}), std::ldexp(1.0f, -15));  // [-1, 1]
  EXPECT_EQ(lstm_cell_scale(Range{-1.01f, 0.5f}), std::ldexp(1.0f, -14));
  EXPECT_EQ(lstm_cell_scale(Range{-3.98f, 2.0f}), std::ldexp(1.0f, -13));
  EXPECT_EQ(lstm_cell_scale(Range{0.0f, 1024.0f}), std::ldexp(1.0f, -5));
  EXPECT_EQ(lstm_cell_scale(Range{0.0f, 5000.0f}), std::ldexp(1.0f, -5));  // at most 2^10
}

// The cell state's range is observed at every step of every batch row, not just after the
// last step (the graph's c output); its scale is the power of two over that range, and the
// node runs as lstm_s8 with y, h0 and h sharing one quantization.
TEST(QuantizeModel, LstmCellScaleCoversTheCellAtEveryStep) {
  const ir::Graph g = peaking_lstm();
  std::vector<float> x;
  for (int t = 0; t < 8; ++t) {
    x.push_back(t < 4 ? 1.0f : -1.0f);
    x.push_back(t < 4 ? -1.0f : 1.0f);
  }
  std::vector<float> x2 = x;  // a second sample, half as strong
  for (float& v : x2) v *= 0.5f;
  x.insert(x.end(), x2.begin(), x2.end());
  Calibration cal;
  Report report;
  const ir::Graph q = quantized_peaking_lstm(g, x, Int16Policy::kOff, &cal, &report);
  ASSERT_EQ(cal.lstm_cell.size(), 1u);
  ASSERT_TRUE(cal.lstm_cell[0]);
  // The peak: 4 steps of i * tanh(3) kept by f = sigmoid(10) each step.
  const double f = 1.0 / (1.0 + std::exp(-10.0));
  double peak = 0;
  for (int t = 0; t < 4; ++t) peak = f * peak + f * std::tanh(3.0);
  EXPECT_NEAR(cal.lstm_cell[0]->max, peak, 1e-5);
  EXPECT_NEAR(cal.lstm_cell[0]->min, -peak, 1e-5);
  EXPECT_GT(peak, 3.9);
  const int c_out = g.nodes[0].outputs[2];
  ASSERT_TRUE(cal.observed[c_out]);
  EXPECT_LT(std::max(std::fabs(cal.observed[c_out]->min), std::fabs(cal.observed[c_out]->max)), 0.1f);

  const ir::Node* lstm = lstm_node(q);
  ASSERT_NE(lstm, nullptr);
  for (int id : {lstm->inputs[19], lstm->outputs[2]}) {
    const ir::Tensor& t = q.tensors[id];
    EXPECT_EQ(t.dtype, DType::kInt16) << t.name;
    EXPECT_EQ(t.quant.scales, std::vector<float>{std::ldexp(1.0f, -13)}) << t.name;  // 2^2 / 32768
    EXPECT_EQ(t.quant.zero_points, std::vector<int32_t>{0}) << t.name;
  }
  // The report's line of the cell output states the range the scale covers.
  const auto c_line = std::find_if(report.tensors.begin(), report.tensors.end(),
                                   [](const TensorReport& r) { return r.name == "c"; });
  ASSERT_NE(c_line, report.tensors.end());
  EXPECT_EQ(c_line->observed.max, cal.lstm_cell[0]->max);
  EXPECT_EQ(c_line->observed.min, cal.lstm_cell[0]->min);
  const ir::Tensor& y = q.tensors[lstm->outputs[0]];
  EXPECT_EQ(y.dtype, DType::kInt8);
  for (int id : {lstm->inputs[18], lstm->outputs[1]}) {
    EXPECT_EQ(q.tensors[id].dtype, DType::kInt8) << q.tensors[id].name;
    EXPECT_EQ(q.tensors[id].quant.scales, y.quant.scales) << q.tensors[id].name;
    EXPECT_EQ(q.tensors[id].quant.zero_points, y.quant.zero_points) << q.tensors[id].name;
  }
  // The gate weights: int8 symmetric per tensor, max |w| / 127; biases int32 at x's scale
  // times the input weights'.
  const ir::Tensor& wx = q.tensors[lstm->inputs[3]];
  EXPECT_EQ(wx.dtype, DType::kInt8);
  EXPECT_FLOAT_EQ(wx.quant.scales.at(0), 3.0f / 127);
  EXPECT_EQ(wx.as<int8_t>()[0], 127);
  const ir::Tensor& bias = q.tensors[lstm->inputs[14]];
  EXPECT_EQ(bias.dtype, DType::kInt32);
  EXPECT_FLOAT_EQ(bias.quant.scales.at(0), q.tensors[lstm->inputs[0]].quant.scales[0] * (3.0f / 127));
  const CompileResult program = lower_to_program(q, "cortex-m3");
  EXPECT_NE(std::find(program.report.kernels.begin(), program.report.kernels.end(), "lstm_s8"),
            program.report.kernels.end());
  const CompileResult dsp_program = lower_to_program(q, "cortex-m4");  // its DSP variant there
  EXPECT_NE(std::find(dsp_program.report.kernels.begin(), dsp_program.report.kernels.end(), "lstm_s8__dsp"),
            dsp_program.report.kernels.end());
  ASSERT_EQ(report.outputs.size(), 1u);
  EXPECT_GT(report.outputs[0].sqnr_db, 30.0);  // y
}

// A cell state beyond TFLite's widest int16 cell scale (+-1024) would saturate: the lstm
// stays float with the reason instead.
TEST(QuantizeModel, LstmWhoseCellExceedsTheInt16CellStaysFloat) {
  const ir::Graph g = peaking_lstm(2000.0f);
  const std::vector<CalibrationInput> in = {samples(std::vector<float>(32, 0.5f), {2, 8, 2, 1}),
                                            samples({0.1f, -0.2f, 0.0f, 0.3f}, {2, 2, 1})};
  const Calibration cal = calibrate(g, in, Options{});
  ASSERT_TRUE(cal.lstm_cell[0]);
  EXPECT_GT(cal.lstm_cell[0]->max, 2000.0f);  // c0, plus about 0.8 a step
  EXPECT_LT(cal.lstm_cell[0]->max, 2010.0f);
  Report report;
  const ir::Graph q = quantize_for_host(g, cal, in, Options{}, &report);
  char peak[32];
  std::snprintf(peak, sizeof peak, "%g", static_cast<double>(cal.lstm_cell[0]->max));
  ASSERT_EQ(report.float_nodes.size(), 1u);
  EXPECT_EQ(report.float_nodes[0], std::string("lstm (lstm): the cell state reaches ") + peak +
                                       " in calibration, beyond the +-1024 of TFLite's widest int16 cell scale (2^-5)");
  EXPECT_EQ(q.tensors[lstm_node(q)->outputs[0]].dtype, DType::kFloat32);
}

// With int16 activations: TFLite's 16x8 LSTM (lstm_s16), int16 y/h symmetric, int64 biases.
TEST(QuantizeModel, LstmTakesInt16ActivationsAs16x8) {
  const ir::Graph g = peaking_lstm();
  std::vector<float> x(32);
  for (size_t k = 0; k < x.size(); ++k) x[k] = std::sin(0.7f * static_cast<float>(k));
  Calibration cal;
  Report report;
  const ir::Graph q = quantized_peaking_lstm(g, x, Int16Policy::kAll, &cal, &report);
  const ir::Node* lstm = lstm_node(q);
  ASSERT_NE(lstm, nullptr);
  EXPECT_EQ(q.tensors[lstm->inputs[0]].dtype, DType::kInt16);
  EXPECT_EQ(q.tensors[lstm->outputs[0]].dtype, DType::kInt16);
  EXPECT_EQ(q.tensors[lstm->outputs[0]].quant.zero_points, std::vector<int32_t>{0});
  EXPECT_EQ(q.tensors[lstm->inputs[12]].dtype, DType::kInt64);
  const CompileResult program = lower_to_program(q, "cortex-m4");
  EXPECT_NE(std::find(program.report.kernels.begin(), program.report.kernels.end(), "lstm_s16"),
            program.report.kernels.end());
  EXPECT_GT(report.outputs.at(0).sqnr_db, 40.0);
}

// ---------------------------------------------------------------- GPTQ

TEST(Gptq, LowersTheOutputErrorOnCorrelatedInputs) {
  std::mt19937 rng(11);
  std::normal_distribution<double> nd;
  const int64_t k = 27;
  InputHessians h;
  h.k = k;
  h.sums.assign(1, std::vector<double>(static_cast<size_t>(k * k), 0.0));
  std::vector<std::vector<double>> xs(1500, std::vector<double>(static_cast<size_t>(k)));
  for (auto& x : xs) {
    const double common = nd(rng);
    for (double& v : x) v = std::max(0.0, 0.8 * common + 0.4 * nd(rng) + 0.2);  // correlated, non-negative
    for (int64_t i = 0; i < k; ++i)
      for (int64_t j = i; j < k; ++j) h.sums[0][static_cast<size_t>(i * k + j)] += x[i] * x[j];
    ++h.count;
  }
  std::vector<std::vector<double>> rows(6, std::vector<double>(static_cast<size_t>(k)));
  std::vector<double> scales(rows.size());
  for (size_t r = 0; r < rows.size(); ++r) {
    double m = 0;
    for (double& w : rows[r]) {
      w = nd(rng);
      m = std::max(m, std::fabs(w));
    }
    scales[r] = m / 127.0;
  }
  const std::vector<int8_t> q = gptq_round(h, rows, scales, std::vector<size_t>(rows.size(), 0));
  double nearest = 0, gptq = 0;
  for (const auto& x : xs) {
    for (size_t r = 0; r < rows.size(); ++r) {
      double a = 0, b = 0;
      for (int64_t i = 0; i < k; ++i) {
        const double w = rows[r][static_cast<size_t>(i)];
        a += (w - std::round(w / scales[r]) * scales[r]) * x[static_cast<size_t>(i)];
        b += (w - q[r * static_cast<size_t>(k) + static_cast<size_t>(i)] * scales[r]) * x[static_cast<size_t>(i)];
      }
      nearest += a * a;
      gptq += b * b;
    }
  }
  EXPECT_LT(gptq * 2.0, nearest);  // measured ~5x on this data
  for (int8_t v : q) EXPECT_GE(v, -127);
}

// ---------------------------------------------------------------- weight grid step

TEST(BestWeightScale, NeverWorseThanMaxAbsOrTheOldTwoPercentGrid) {
  std::mt19937 rng(7);
  std::normal_distribution<double> nd(0.0, 1.0);
  std::student_t_distribution<double> heavy(3.0);
  double best_total = 0, max_abs_total = 0;
  for (int64_t length : {1, 2, 9, 27, 48, 1280}) {
    for (int trial = 0; trial < 40; ++trial) {
      std::vector<double> row(static_cast<size_t>(length));
      double m = 0;
      for (double& w : row) {
        w = (trial % 2 ? heavy(rng) : nd(rng)) * 0.1;
        m = std::max(m, std::fabs(w));
      }
      const double s = best_weight_scale(row);
      ASSERT_GT(s, 0.0);
      const double e = weight_grid_error(row, s);
      for (int f = 50; f <= 100; f += 2) EXPECT_LE(e, weight_grid_error(row, m * f / 100.0 / 127.0) + 1e-18) << length;
      EXPECT_LE(e, weight_grid_error(row, clipped_weight_scale(row)) * (1 + 1e-6)) << length;
      if (length == 9) {
        best_total += e;
        max_abs_total += weight_grid_error(row, m / 127.0);
      }
    }
  }
  // A 9-weight (3x3 depthwise) row: the searched step leaves well under the error of max|w|/127.
  EXPECT_LT(best_total, 0.7 * max_abs_total) << best_total / max_abs_total;
}

// The search as written once, one candidate at a time with libm's round: the fast
// search (four candidates per pass, its own rounding) must give the same step bit for
// bit, so compiled programs keep their bytes.
double reference_grid_error(const std::vector<double>& row, double s) {
  double e = 0;
  for (double w : row) {
    const double d = w - s * std::clamp(std::round(w / s), -127.0, 127.0);
    e += d * d;
  }
  return e;
}
double reference_weight_scale(const std::vector<double>& row) {
  double max_abs = 0;
  for (double w : row) max_abs = std::max(max_abs, std::fabs(w));
  if (!(max_abs > 0) || !std::isfinite(max_abs)) return 0;
  double best = max_abs / 127.0;
  double best_error = reference_grid_error(row, best);
  auto consider = [&](double s) {
    if (!(s > 0)) return;
    const double e = reference_grid_error(row, s);
    if (e < best_error) {
      best_error = e;
      best = s;
    }
  };
  for (int step = 300; step <= 1500; step += 5) {
    const double s = max_abs * step / 1000.0 / 127.0;
    consider(s);
    double wq = 0, qq = 0;
    for (double w : row) {
      const double q = std::clamp(std::round(w / s), -127.0, 127.0);
      wq += w * q;
      qq += q * q;
    }
    if (qq > 0) consider(wq / qq);
  }
  return best;
}

TEST(BestWeightScale, SameBitsAsOneCandidateAtATime) {
  std::mt19937 rng(11);
  std::normal_distribution<double> nd(0.0, 1.0);
  std::student_t_distribution<double> heavy(2.0);
  for (int64_t length : {1, 3, 9, 27, 64, 576, 4608}) {
    for (int trial = 0; trial < 12; ++trial) {
      std::vector<double> row(static_cast<size_t>(length));
      for (double& w : row) w = (trial % 3 == 0 ? heavy(rng) : nd(rng)) * 0.05;
      if (trial == 5) row[0] = 0.0;
      if (trial == 7) for (size_t i = 0; i < row.size(); i += 2) row[i] = std::round(row[i] * 100.0) / 200.0;  // halves
      EXPECT_EQ(best_weight_scale(row), reference_weight_scale(row)) << length << " trial " << trial;
      const double s = reference_weight_scale(row) * 0.77;
      if (s > 0) {
        EXPECT_EQ(weight_grid_error(row, s), reference_grid_error(row, s)) << length;
      }
    }
  }
}

TEST(BestWeightScale, FindsAnExactGridAndGivesZeroForAZeroRow) {
  const std::vector<double> row = {1.27, -0.64, 0.03, 0.0, 1.0, -1.27};
  const double s = best_weight_scale(row);
  EXPECT_NEAR(s, 0.01, 1e-12);
  EXPECT_NEAR(weight_grid_error(row, s), 0.0, 1e-20);
  EXPECT_EQ(best_weight_scale({0.0, 0.0, 0.0}), 0.0);
  EXPECT_EQ(best_weight_scale({}), 0.0);
}

// ---------------------------------------------------------------- sequential compensation

// Moments of one matrix from explicit float / quantized-network input vectors.
LayerMoments moments_of(const std::vector<std::vector<double>>& xf, const std::vector<std::vector<double>>& xq) {
  LayerMoments m;
  m.k = static_cast<int64_t>(xf[0].size());
  const size_t k1 = xf[0].size() + 1;
  m.qq.assign(1, std::vector<double>(k1 * k1, 0.0));
  m.fq.assign(1, std::vector<double>(k1 * k1, 0.0));
  for (size_t n = 0; n < xf.size(); ++n) {
    std::vector<double> f = xf[n], q = xq[n];
    f.push_back(1.0);
    q.push_back(1.0);
    for (size_t i = 0; i < k1; ++i)
      for (size_t j = 0; j < k1; ++j) {
        m.qq[0][i * k1 + j] += q[i] * q[j];
        m.fq[0][i * k1 + j] += f[i] * q[j];
      }
    ++m.count;
  }
  return m;
}

TEST(SequentialCompensation, KeepsTheWeightsWhenNothingArrivesFromUpstreamAndMovesAMeanErrorIntoTheBias) {
  std::mt19937 rng(11);
  std::normal_distribution<double> nd(0.0, 1.0);
  const size_t k = 4;
  std::vector<std::vector<double>> xf(400, std::vector<double>(k)), shifted = xf;
  for (size_t n = 0; n < xf.size(); ++n) {
    for (size_t i = 0; i < k; ++i) xf[n][i] = nd(rng);
    shifted[n] = xf[n];
    shifted[n][1] = xf[n][1] + 0.5;  // upstream error: input 1 arrives 0.5 too high
  }
  const std::vector<double> w = {0.3, -0.8, 0.5, 0.1, 0.2};  // 4 weights, bias 0.2
  const std::vector<size_t> matrix = {0};

  std::vector<std::vector<double>> rows = {w};
  fit_to_quantized_inputs(moments_of(xf, xf), matrix, &rows);
  for (size_t i = 0; i <= k; ++i) EXPECT_NEAR(rows[0][i], w[i], 1e-12);

  rows = {w};
  const LayerMoments m = moments_of(xf, shifted);
  fit_to_quantized_inputs(m, matrix, &rows);
  for (size_t i = 0; i < k; ++i) EXPECT_NEAR(rows[0][i], w[i], 0.01) << i;
  EXPECT_NEAR(rows[0][k], 0.2 + 0.8 * 0.5, 0.01);  // w1 * 0.5 taken back

  // Rounding on a coarse grid: the output error over the samples has mean ~0 (the bias
  // absorbs it, up to GPTQ's 1% damping; uncompensated it is -0.4) and is smaller than
  // nearest rounding with the float bias.
  const std::vector<double> scales = {0.25};
  const std::vector<int8_t> q = round_on_quantized_inputs(m, matrix, scales, &rows);
  double mean = 0, compensated = 0, nearest = 0;
  for (size_t n = 0; n < xf.size(); ++n) {
    double want = w[k], got = rows[0][k], plain = w[k];
    for (size_t i = 0; i < k; ++i) {
      want += w[i] * xf[n][i];
      got += q[i] * scales[0] * shifted[n][i];
      plain += std::round(w[i] / scales[0]) * scales[0] * shifted[n][i];
    }
    mean += got - want;
    compensated += (got - want) * (got - want);
    nearest += (plain - want) * (plain - want);
  }
  EXPECT_NEAR(mean / static_cast<double>(xf.size()), 0.0, 0.01);
  EXPECT_LT(compensated, 0.5 * nearest);
}

// ---------------------------------------------------------------- shared models

CompileOptions quantize_options(const std::string& stem, const std::string& target = "host") {
  CompileOptions options;
  options.model_path = onnx_model(stem);
  options.target = target;
  options.quantize = "int8";
  const NpyArray a = read_npy(shared_models() + "/onnx/" + stem + ".calib.npy");
  CalibrationInput in;
  in.path = stem + ".calib.npy";
  in.dtype = a.dtype;
  in.shape = a.shape;
  in.data = a.data;
  options.calibration.push_back(std::move(in));
  return options;
}

// The weight methods end to end: on LeNet (iid calibration inputs) each keeps the int8
// program's accuracy on the calibration samples within 1 dB of plain nearest rounding on
// the max|w| grid or above it, and sequential compensation (which only runs when asked)
// changes the weights. The defaults are the step search with GPTQ rounding.
TEST(CompileQuantized, WeightStepSearchAndSequentialCompensationRunEndToEnd) {
  const Options defaults;
  EXPECT_TRUE(defaults.weight_step_search);
  EXPECT_TRUE(defaults.gptq);
  EXPECT_FALSE(defaults.sequential);
  CompileOptions base = quantize_options("lenet5_28");
  base.quantize_options.int16 = Int16Policy::kOff;
  base.quantize_options.weight_step_search = false;
  base.quantize_options.gptq = false;
  const CompileResult plain = compile(base);
  const double plain_db = plain.report.quantization->outputs.at(0).sqnr_db;

  CompileOptions search = base;
  search.quantize_options.weight_step_search = true;
  const CompileResult searched = compile(search);
  EXPECT_GT(searched.report.quantization->outputs.at(0).sqnr_db, plain_db - 1.0);

  CompileOptions sequential = base;
  sequential.quantize_options.sequential = true;
  const CompileResult compensated = compile(sequential);
  EXPECT_GT(compensated.report.quantization->outputs.at(0).sqnr_db, plain_db - 1.0);
  EXPECT_NE(compensated.program, plain.program);
  EXPECT_EQ(compensated.report.arena_bytes, plain.report.arena_bytes);
}

TEST(CompileQuantized, LeNetIsInt8EndToEndWithFloatIo) {
  const CompileResult r = compile(quantize_options("lenet5_28"));
  ASSERT_TRUE(r.report.quantization);
  const Report& q = *r.report.quantization;
  EXPECT_TRUE(q.float_nodes.empty());
  EXPECT_EQ(q.int16_tensors, 0u);  // int8 is accurate enough: no int16
  EXPECT_GT(q.outputs.at(0).sqnr_db, 35.0);
  EXPECT_EQ(q.samples, 64u);
  EXPECT_EQ(q.outputs.at(0).top1_rows, 64);  // [1,10] class scores, one row per sample
  for (const std::string& k : r.report.kernels) {
    // concat and strided_slice move bytes of any dtype: patch-based execution's tiles.
    const bool integer_or_io = k.find("_s8") != std::string::npos || k == "copy" || k == "transpose" ||
                               k == "concat" || k == "strided_slice" || k == "quantize_f32_s8" ||
                               k == "dequantize_s8_f32";
    EXPECT_TRUE(integer_or_io) << k;
  }
  // int8 activations: a quarter of the float plan, give or take the float input.
  const CompileResult f = compile(CompileOptions{onnx_model("lenet5_28"), "host", {}, "", {}, {}});
  EXPECT_LT(r.report.arena_bytes, f.report.arena_bytes / 2);
  EXPECT_LT(r.report.weights_bytes, f.report.weights_bytes / 3);
}

std::string compile_error(const CompileOptions& options) {
  try {
    compile(options);
  } catch (const CompileError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(CompileQuantized, RefusesBadOptions) {
  CompileOptions options = quantize_options("lenet5_28");
  options.quantize = "int4";
  EXPECT_EQ(compile_error(options), "--quantize int4: unsupported (expected int8)");
  options.quantize = "";
  EXPECT_EQ(compile_error(options), "--calibration needs --quantize int8");
  options.quantize = "int8";
  options.calibration.clear();
  EXPECT_EQ(compile_error(options), "--quantize int8 needs calibration samples: --calibration IN.npy per model input");
}

TEST(CompileQuantized, RefusesAnAlreadyQuantizedModel) {
  CompileOptions options;
  options.model_path = shared_models() + "/tflite/tflm/hello_world_int8.tflite";
  options.quantize = "int8";
  options.calibration.push_back(CalibrationInput{"x.npy", DType::kFloat32, {1, 1, 1}, std::vector<uint8_t>(4, 0)});
  const std::string error = compile_error(options);
  EXPECT_NE(error.find("is int8; --quantize needs float32 model inputs"), std::string::npos) << error;
}

}  // namespace
}  // namespace mote::ptq
