// Lowering of quantized Mote nodes: the integer kernel chosen by dtype, parameters equal to
// what the quant_math.h helpers give for the tensors' scales (as each kernel header
// specifies), per-channel arrays after the struct, and one-line errors naming the node.
#include <gtest/gtest.h>

#include <cstring>
#include <limits>

#include "common/error.h"
#include "concat/concat.h"
#include "conv2d/conv2d.h"
#include "fully_connected/fully_connected.h"
#include "ir/graph.h"
#include "lower/lower.h"
#include "pad/pad.h"
#include "passes/passes.h"
#include "quant/quant_math.h"

namespace mote::lower {
namespace {

struct QuantGraph {
  ir::Graph graph;

  int add(const std::string& name, ir::Shape shape, DType dtype, std::vector<float> scales,
          std::vector<int32_t> zero_points, bool constant = false, int32_t axis = -1) {
    ir::Tensor t;
    t.name = name;
    t.dtype = dtype;
    t.shape = std::move(shape);
    t.is_constant = constant;
    t.quant.scales = std::move(scales);
    t.quant.zero_points = std::move(zero_points);
    t.quant.axis = axis;
    if (constant) t.data.assign(static_cast<size_t>(t.bytes()), 0);
    return graph.add_tensor(std::move(t));
  }
  int add_bias(const std::string& name, int64_t n, DType dtype = DType::kInt32) {
    ir::Tensor t;
    t.name = name;
    t.dtype = dtype;
    t.shape = {n};
    t.is_constant = true;
    t.data.assign(static_cast<size_t>(t.bytes()), 0);
    return graph.add_tensor(std::move(t));
  }
  ir::Node& node(const std::string& op, std::vector<int> inputs, int output,
                 std::map<std::string, ir::AttrValue> attrs = {}) {
    ir::Node n;
    n.name = "q1";
    n.op = op;
    n.inputs = std::move(inputs);
    n.outputs = {output};
    n.attrs = std::move(attrs);
    graph.nodes.push_back(std::move(n));
    return graph.nodes.back();
  }
  LoweredOp lower() { return lower_node(graph, graph.nodes.back(), Target::kHost); }
};

template <typename P>
P header_of(const LoweredOp& op) {
  P p{};
  EXPECT_GE(op.params.size(), sizeof(P));
  if (op.params.size() >= sizeof(P)) std::memcpy(&p, op.params.data(), sizeof(P));
  return p;
}

int32_t array_at(const LoweredOp& op, size_t header, size_t index) {
  int32_t v = 0;
  std::memcpy(&v, op.params.data() + header + 4 * index, 4);
  return v;
}

template <typename Fn>
std::string error_of(Fn fn) {
  try {
    fn();
  } catch (const CompileError& e) {
    return e.what();
  }
  return "";
}

TEST(LowerQuantized, Conv2dS8PerChannelMultipliersAndRelu6Range) {
  QuantGraph g;
  const int x = g.add("x", {1, 5, 5, 2}, DType::kInt8, {0.05f}, {-3});
  const int w = g.add("w", {3, 3, 3, 2}, DType::kInt8, {0.01f, 0.02f, 0.004f}, {0, 0, 0}, true, 0);
  const int b = g.add_bias("b", 3);
  const int y = g.add("y", {1, 3, 3, 3}, DType::kInt8, {0.03f}, {7});
  g.node("conv2d", {x, w, b}, y, {{"act_min", 0.0}, {"act_max", 6.0}});
  const LoweredOp op = g.lower();
  EXPECT_EQ(op.kernel, KernelId::kConv2dS8);
  ASSERT_EQ(op.params.size(), sizeof(Conv2dS8Params) + 8 * 3);
  const auto p = header_of<Conv2dS8Params>(op);
  EXPECT_EQ(p.input_zero_point, -3);
  EXPECT_EQ(p.output_zero_point, 7);
  int32_t lo = 0, hi = 0;
  ASSERT_TRUE(activation_range_quantized(FusedActivation::kRelu6, 0.03f, 7, -128, 127, &lo, &hi));
  EXPECT_EQ(p.act_min, lo);
  EXPECT_EQ(p.act_max, hi);
  const float filter_scales[] = {0.01f, 0.02f, 0.004f};
  for (size_t c = 0; c < 3; ++c) {
    int32_t m = 0, s = 0;
    conv_channel_multiplier(0.05f, filter_scales[c], 0.03f, &m, &s);
    EXPECT_EQ(array_at(op, sizeof(Conv2dS8Params), c), m) << c;
    EXPECT_EQ(array_at(op, sizeof(Conv2dS8Params), 3 + c), s) << c;
  }
  EXPECT_EQ(op.macs, 27u * 3 * 3 * 2);
}

TEST(LowerQuantized, FullyConnectedPerTensorUsesTheFloatProduct) {
  QuantGraph g;
  const int x = g.add("x", {1, 4}, DType::kInt8, {0.1f}, {5});
  const int w = g.add("w", {2, 4}, DType::kInt8, {0.003f}, {0}, true);
  const int y = g.add("y", {1, 2}, DType::kInt8, {0.07f}, {-1});
  g.node("fully_connected", {x, w}, y, {{"act_min", 0.0}});
  const LoweredOp op = g.lower();
  EXPECT_EQ(op.kernel, KernelId::kFullyConnectedS8);
  ASSERT_EQ(op.params.size(), sizeof(FullyConnectedS8Params) + 8);
  const auto p = header_of<FullyConnectedS8Params>(op);
  EXPECT_EQ(p.channel_count, 1u);
  EXPECT_EQ(p.input_zero_point, 5);
  EXPECT_EQ(p.act_min, -1);  // ReLU: the output zero point
  EXPECT_EQ(p.act_max, 127);
  int32_t m = 0, s = 0;
  fully_connected_multiplier(0.1f, 0.003f, 0.07f, &m, &s);
  EXPECT_EQ(array_at(op, sizeof(FullyConnectedS8Params), 0), m);
  EXPECT_EQ(array_at(op, sizeof(FullyConnectedS8Params), 1), s);
  EXPECT_EQ(op.macs, 8u);
}

TEST(LowerQuantized, RefusesARangeTfliteCannotFuse) {
  QuantGraph g;
  const int a = g.add("a", {4}, DType::kInt8, {0.1f}, {0});
  const int b = g.add("b", {4}, DType::kInt8, {0.1f}, {0});
  const int y = g.add("y", {4}, DType::kInt8, {0.2f}, {0});
  g.node("add", {a, b}, y, {{"act_min", 0.0}, {"act_max", 3.0}});
  EXPECT_NE(error_of([&] { g.lower(); }).find("node 'q1' (add): fused activation range [0, 3]"), std::string::npos);
}

TEST(LowerQuantized, ConcatOfDifferentlyQuantizedInputsIsRefused) {
  QuantGraph g;
  const int a = g.add("a", {1, 2}, DType::kInt8, {0.1f}, {0});
  const int b = g.add("b", {1, 2}, DType::kInt8, {0.2f}, {0});
  const int y = g.add("y", {1, 4}, DType::kInt8, {0.1f}, {0});
  g.node("concat", {a, b}, y, {{"axis", int64_t{1}}});
  EXPECT_NE(error_of([&] { g.lower(); }).find("input 'b' is quantized differently from the output"),
            std::string::npos);
}

TEST(LowerQuantized, PadFillsWithTheQuantizedValue) {
  QuantGraph g;
  const int x = g.add("x", {1, 2}, DType::kInt8, {0.5f}, {-7});
  const int y = g.add("y", {1, 4}, DType::kInt8, {0.5f}, {-7});
  g.node("pad", {x}, y, {{"pads", std::vector<int64_t>{0, 1, 0, 1}}, {"value", 0.0}});
  const LoweredOp op = g.lower();
  EXPECT_EQ(op.kernel, KernelId::kPad);
  const auto p = header_of<PadParams>(op);
  EXPECT_EQ(static_cast<int8_t>(p.value[0]), -7);
}

TEST(LowerQuantized, LstmIsRefusedUntilItHasAKernel) {
  QuantGraph g;
  const int x = g.add("x", {1, 2, 3}, DType::kInt8, {0.1f}, {0});
  const int y = g.add("y", {1, 2, 4}, DType::kInt8, {0.1f}, {0});
  g.node("lstm", {x}, y);
  EXPECT_NE(error_of([&] { g.lower(); }).find("node 'q1' (lstm): the integer LSTM kernel"), std::string::npos);
}

TEST(LowerQuantized, Int16ConvNeedsZeroPointZero) {
  QuantGraph g;
  const int x = g.add("x", {1, 3, 3, 1}, DType::kInt16, {0.001f}, {4});
  const int w = g.add("w", {1, 1, 1, 1}, DType::kInt8, {0.01f}, {0}, true);
  const int y = g.add("y", {1, 3, 3, 1}, DType::kInt16, {0.001f}, {0});
  g.node("conv2d", {x, w}, y);
  EXPECT_NE(error_of([&] { g.lower(); }).find("input 'x' has zero point 4, expected 0"), std::string::npos);
}

TEST(LowerQuantized, ClampsOnQuantizedResultsAreNotFused) {
  QuantGraph g;
  const int a = g.add("a", {4}, DType::kInt8, {0.1f}, {0});
  const int b = g.add("b", {4}, DType::kInt8, {0.1f}, {0});
  const int s = g.add("s", {4}, DType::kInt8, {0.2f}, {0});
  const int y = g.add("y", {4}, DType::kInt8, {0.2f}, {0});
  g.node("add", {a, b}, s);
  g.node("clamp", {s}, y, {{"min", 0.0}});
  g.graph.inputs = {a, b};
  g.graph.outputs = {y};
  passes::fuse_activations(g.graph);
  EXPECT_EQ(g.graph.nodes.size(), 2u);
}

}  // namespace
}  // namespace mote::lower
