// The .tflite writer (compiler/emit/tflite_writer.h) on hand-built int8 graphs: what the
// ONNX models of tests/models/emit_tflite_test.cc do not reach (a max pooling in ceil
// mode, a convolution padded only at the bottom and right), each written, imported back
// and run against the graph it came from bit for bit; and the refusals, one line naming
// the node, op and what TFLite cannot state.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <set>

#include "common/error.h"
#include "compiler.h"
#include "compiler/host_run.h"
#include "emit/tflite_writer.h"
#include "flatbuffers/flatbuffers.h"
#include "import/tflite/tflite_importer.h"
#include "import/tflite/tflite_schema_generated.h"

namespace mote {
namespace {

namespace fb = mote::tflite;

ir::QuantParams per_tensor(float scale, int32_t zero_point) {
  ir::QuantParams q;
  q.scales = {scale};
  q.zero_points = {zero_point};
  return q;
}

// An int8 graph built by hand: float input -> quantize -> ... -> dequantize -> output.
struct Int8Graph {
  ir::Graph graph;
  int x = -1;  // the quantized input

  explicit Int8Graph(const ir::Shape& shape) {
    ir::Tensor in;
    in.name = "input";
    in.shape = shape;
    const int input = graph.add_tensor(in);
    graph.inputs.push_back(input);
    x = activation("input/quantized", shape, per_tensor(0.05f, -3));
    add(ir::Op::kQuantize, "quantize", {input}, x);
  }
  int activation(const std::string& name, const ir::Shape& shape, const ir::QuantParams& quant) {
    ir::Tensor t;
    t.name = name;
    t.dtype = DType::kInt8;
    t.shape = shape;
    t.quant = quant;
    return graph.add_tensor(std::move(t));
  }
  ir::Node& add(ir::Op op, const std::string& name, std::vector<int> inputs, int output) {
    ir::Node node;
    node.name = name;
    node.op = op;
    node.inputs = std::move(inputs);
    node.outputs = {output};
    graph.nodes.push_back(std::move(node));
    return graph.nodes.back();
  }
  void finish(int y) {
    ir::Tensor out;
    out.name = "output";
    out.shape = graph.tensors[y].shape;
    const int output = graph.add_tensor(out);
    add(ir::Op::kDequantize, "dequantize", {y}, output);
    graph.outputs.push_back(output);
  }
};

// Per-channel int8 conv2d weights [O,KH,KW,I] and int32 biases at input scale x weight scale.
int conv_weights(Int8Graph& g, int64_t out_channels, int64_t kernel, int64_t in_channels, int* bias) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> value(-127, 127);
  const int64_t count = out_channels * kernel * kernel * in_channels;
  std::vector<uint8_t> w(static_cast<size_t>(count));
  for (uint8_t& b : w) b = static_cast<uint8_t>(static_cast<int8_t>(value(rng)));
  const int filter = g.graph.add_constant("filter", DType::kInt8, {out_channels, kernel, kernel, in_channels}, w);
  ir::QuantParams wq, bq;
  std::vector<int32_t> biases;
  for (int64_t c = 0; c < out_channels; ++c) {
    wq.scales.push_back(0.01f * static_cast<float>(c + 1));
    wq.zero_points.push_back(0);
    bq.scales.push_back(0.05f * wq.scales.back());
    bq.zero_points.push_back(0);
    biases.push_back(static_cast<int32_t>(100 * c - 150));
  }
  wq.axis = 0;
  bq.axis = 0;
  g.graph.tensors[filter].quant = wq;
  std::vector<uint8_t> bias_bytes(biases.size() * sizeof(int32_t));
  std::memcpy(bias_bytes.data(), biases.data(), bias_bytes.size());
  *bias = g.graph.add_constant("bias", DType::kInt32, {out_channels}, bias_bytes);
  g.graph.tensors[*bias].quant = bq;
  return filter;
}

std::set<fb::BuiltinOperator> operators_of(const std::vector<uint8_t>& bytes) {
  flatbuffers::Verifier verifier(bytes.data(), bytes.size());
  EXPECT_TRUE(fb::VerifyModelBuffer(verifier));
  const fb::Model* model = fb::GetModel(bytes.data());
  std::set<fb::BuiltinOperator> ops;
  for (const fb::Operator* op : *model->subgraphs()->Get(0)->operators())
    ops.insert(model->operator_codes()->Get(op->opcode_index())->builtin_code());
  return ops;
}

std::vector<uint8_t> float_bytes_of(const std::vector<float>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(float));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

// The graph written, imported back and both lowered for the host: equal outputs on
// random inputs, mostly negative (a pad holding the zero point instead of the lowest
// value would win max pooling windows), over and past the input's int8 range.
void expect_same_outputs(const ir::Graph& graph, const std::vector<uint8_t>& tflite) {
  const ir::Graph imported = import_tflite_buffer(tflite, "written.tflite");
  const std::vector<uint8_t> want_program = lower_to_program(graph, "host").program;
  const std::vector<uint8_t> got_program = lower_to_program(imported, "host").program;
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> value(-8.0f, 2.0f);  // mostly below the zero point
  const int64_t elements = graph.tensors[graph.inputs[0]].elements();
  for (int sample = 0; sample < 3; ++sample) {
    std::vector<float> input(static_cast<size_t>(elements));
    for (float& v : input) v = value(rng);
    const std::vector<uint8_t> bytes = float_bytes_of(input);
    const auto want = testing::run_on_host(want_program, bytes);
    ASSERT_FALSE(want.empty());
    EXPECT_EQ(testing::run_on_host(got_program, bytes), want) << "sample " << sample;
  }
}

// Max pooling in ceil mode (PyTorch's ceil_mode=True): its last window runs past the
// input, which TFLite's paddings cannot say; a PADV2 with the lowest int8 value, then VALID.
TEST(TfliteWriter, MaxPoolInCeilModeIsPaddedWithTheLowestValue) {
  Int8Graph g({1, 5, 5, 3});
  const int y = g.activation("pooled", {1, 2, 2, 3}, per_tensor(0.05f, -3));
  g.add(ir::Op::kMaxPool2d, "pool", {g.x}, y).attrs = {{"kernel", std::vector<int64_t>{3, 3}},
                                                       {"strides", std::vector<int64_t>{3, 3}},
                                                       {"dilations", std::vector<int64_t>{1, 1}},
                                                       {"pads", std::vector<int64_t>{0, 0, 0, 0}},
                                                       {"ceil_mode", int64_t{1}}};
  g.finish(y);
  const std::vector<uint8_t> tflite = write_tflite(g.graph, "pool.onnx");
  const auto ops = operators_of(tflite);
  EXPECT_TRUE(ops.count(fb::BuiltinOperator::PADV2));
  EXPECT_TRUE(ops.count(fb::BuiltinOperator::MAX_POOL_2D));
  expect_same_outputs(g.graph, tflite);
}

// Pads TFLite's rules do not give (here only at the top and left, where SAME pads both
// sides) are a PAD (with the zero point) before a VALID CONV_2D; RELU6 stays fused.
TEST(TfliteWriter, ConvPadsNeitherSameNorValidBecomeAPad) {
  Int8Graph g({1, 5, 5, 2});
  int bias = -1;
  const int filter = conv_weights(g, 4, 3, 2, &bias);
  const int y = g.activation("conv", {1, 2, 2, 4}, per_tensor(0.1f, -128));
  g.add(ir::Op::kConv2d, "conv", {g.x, filter, bias}, y).attrs = {{"strides", std::vector<int64_t>{2, 2}},
                                                                 {"dilations", std::vector<int64_t>{1, 1}},
                                                                 {"pads", std::vector<int64_t>{0, 0, 0, 0}},
                                                                 {"group", int64_t{1}},
                                                                 {"act_min", 0.0},
                                                                 {"act_max", 6.0}};
  g.finish(y);
  // Valid as written (zero pads, VALID): no PAD.
  EXPECT_FALSE(operators_of(write_tflite(g.graph, "conv.onnx")).count(fb::BuiltinOperator::PAD));
  // [top, left, bottom, right] = [1, 1, 0, 0] on 5 rows, kernel 3, stride 2: output 2 x 2,
  // where SAME gives 3 x 3.
  g.graph.nodes[1].attrs["pads"] = std::vector<int64_t>{1, 1, 0, 0};
  const std::vector<uint8_t> tflite = write_tflite(g.graph, "conv.onnx");
  const auto ops = operators_of(tflite);
  EXPECT_TRUE(ops.count(fb::BuiltinOperator::PAD));
  EXPECT_TRUE(ops.count(fb::BuiltinOperator::CONV_2D));
  expect_same_outputs(g.graph, tflite);
}

// PyTorch's ConvTranspose2d(kernel 4, stride 2, padding 1), the usual 2x decoder step:
// TFLite's SAME padding of the conv it inverts gives the same pads.
TEST(TfliteWriter, TransposeConvWithSamePadding) {
  Int8Graph g({1, 3, 3, 2});
  int bias = -1;
  const int filter = conv_weights(g, 4, 4, 2, &bias);
  const int y = g.activation("up", {1, 6, 6, 4}, per_tensor(0.1f, 5));
  g.add(ir::Op::kTransposeConv, "up", {g.x, filter, bias}, y).attrs = {{"strides", std::vector<int64_t>{2, 2}},
                                                                      {"pads", std::vector<int64_t>{1, 1, 1, 1}}};
  g.finish(y);
  const std::vector<uint8_t> tflite = write_tflite(g.graph, "up.onnx");
  EXPECT_TRUE(operators_of(tflite).count(fb::BuiltinOperator::TRANSPOSE_CONV));
  expect_same_outputs(g.graph, tflite);
  // padding 2 at stride 2: no TFLite padding gives it.
  g.graph.nodes[1].attrs["pads"] = std::vector<int64_t>{2, 2, 2, 2};
  g.graph.tensors[y].shape = {1, 4, 4, 4};
  g.graph.tensors[g.graph.outputs[0]].shape = {1, 4, 4, 4};
  EXPECT_THROW(write_tflite(g.graph, "up.onnx"), CompileError);
}

std::string refusal(const ir::Graph& graph) {
  try {
    write_tflite(graph, "m.onnx");
  } catch (const CompileError& e) {
    return e.what();
  }
  return "(written)";
}

TEST(TfliteWriter, RefusesWhatTfliteCannotStateNamingTheNode) {
  Int8Graph g({1, 4, 4, 2});
  const int y = g.activation("clamped", {1, 4, 4, 2}, per_tensor(0.05f, -3));
  ir::Node& clamp = g.add(ir::Op::kClamp, "clip", {g.x}, y);
  clamp.attrs = {{"min", 0.0}, {"max", 3.0}};
  g.finish(y);
  EXPECT_EQ(refusal(g.graph), "m.onnx: --emit-tflite: node 'clip' (clamp): clamp [0, 3] is none of TFLite's RELUs");

  g.graph.nodes[1].attrs = {{"min", 0.0}, {"max", 6.0}, {"fancy", int64_t{1}}};
  EXPECT_EQ(refusal(g.graph), "m.onnx: --emit-tflite: node 'clip' (clamp): attribute 'fancy' has no TFLite option");

  g.graph.nodes[1].op = ir::Op::kAvgPool2d;
  g.graph.nodes[1].name = "pool";
  g.graph.nodes[1].attrs = {{"kernel", std::vector<int64_t>{3, 3}},  {"strides", std::vector<int64_t>{1, 1}},
                            {"pads", std::vector<int64_t>{1, 1, 1, 1}}, {"count_include_pad", int64_t{1}}};
  EXPECT_EQ(refusal(g.graph), "m.onnx: --emit-tflite: node 'pool' (avg_pool2d): count_include_pad with pads "
                              "[1,1,1,1]: TFLite averages the cells inside only");

  g.graph.nodes[1].op = ir::Op::kGelu;
  g.graph.nodes[1].name = "gelu";
  g.graph.nodes[1].attrs = {};
  EXPECT_EQ(refusal(g.graph),
            "m.onnx: --emit-tflite: node 'gelu' (gelu): no TFLite operator --emit-tflite writes for it (output int8)");
}

}  // namespace
}  // namespace mote
