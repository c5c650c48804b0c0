// Lowering of quantized Mote nodes: the integer kernel chosen by dtype, parameters equal to
// what the quant_math.h helpers give for the tensors' scales (as each kernel header
// specifies), per-channel arrays after the struct, and one-line errors naming the node.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "common/error.h"
#include "concat/concat.h"
#include "conv2d/conv2d.h"
#include "fully_connected/fully_connected.h"
#include "gru/gru.h"
#include "lstm/lstm.h"
#include "rnn/rnn.h"
#include "mean/mean.h"
#include "ir/graph.h"
#include "lower/lower.h"
#include "pad/pad.h"
#include "pool2d/pool2d.h"
#include "passes/passes.h"
#include "quant/quant_math.h"

namespace mote::lower {
namespace lower_quantized_test {

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
  ir::Node& node(ir::Op op, std::vector<int> inputs, int output,
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
  g.node(ir::Op::kConv2d, {x, w, b}, y, {{"act_min", 0.0}, {"act_max", 6.0}});
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
  g.node(ir::Op::kFullyConnected, {x, w}, y, {{"act_min", 0.0}});
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

TEST(LowerQuantized, FullyConnectedS16PerChannelInt64Bias) {
  QuantGraph g;
  const int x = g.add("x", {2, 3, 4}, DType::kInt16, {0.0005f}, {0});
  const int w = g.add("w", {3, 4}, DType::kInt8, {0.01f, 0.002f, 0.03f}, {0, 0, 0}, true, 0);
  const int b = g.add_bias("b", 3, DType::kInt64);
  const int y = g.add("y", {2, 3, 3}, DType::kInt16, {0.0009f}, {0});
  g.node(ir::Op::kFullyConnected, {x, w, b}, y, {{"act_min", 0.0}, {"act_max", 6.0}});
  const LoweredOp op = g.lower();
  EXPECT_EQ(op.kernel, KernelId::kFullyConnectedS16);
  ASSERT_EQ(op.params.size(), sizeof(FullyConnectedS16Params) + 8 * 3);
  const auto p = header_of<FullyConnectedS16Params>(op);
  EXPECT_EQ(p.channel_count, 3u);
  EXPECT_EQ(p.accumulator, 64);
  EXPECT_EQ(p.filter_zero_point, 0);
  int32_t lo = 0, hi = 0;
  ASSERT_TRUE(activation_range_quantized(FusedActivation::kRelu6, 0.0009f, 0, -32768, 32767, &lo, &hi));
  EXPECT_EQ(p.act_min, lo);
  EXPECT_EQ(p.act_max, hi);
  const float filter_scales[] = {0.01f, 0.002f, 0.03f};
  for (size_t c = 0; c < 3; ++c) {
    int32_t m = 0, s = 0;
    conv_channel_multiplier(0.0005f, filter_scales[c], 0.0009f, &m, &s);
    EXPECT_EQ(array_at(op, sizeof(FullyConnectedS16Params), c), m) << c;
    EXPECT_EQ(array_at(op, sizeof(FullyConnectedS16Params), 3 + c), s) << c;
  }
  EXPECT_EQ(op.macs, 6u * 3 * 4);
}

TEST(LowerQuantized, FullyConnectedS16AccumulatorFollowsTheBiasDtype) {
  for (int bias : {0, 32, 64}) {
    QuantGraph g;
    const int x = g.add("x", {1, 4}, DType::kInt16, {0.0005f}, {0});
    const int w = g.add("w", {2, 4}, DType::kInt8, {0.003f}, {0}, true);
    const int y = g.add("y", {1, 2}, DType::kInt16, {0.0007f}, {0});
    std::vector<int> inputs = {x, w};
    if (bias != 0) inputs.push_back(g.add_bias("b", 2, bias == 32 ? DType::kInt32 : DType::kInt64));
    g.node(ir::Op::kFullyConnected, inputs, y);
    const LoweredOp op = g.lower();
    EXPECT_EQ(op.kernel, KernelId::kFullyConnectedS16);
    ASSERT_EQ(op.params.size(), sizeof(FullyConnectedS16Params) + 8);
    const auto p = header_of<FullyConnectedS16Params>(op);
    EXPECT_EQ(p.accumulator, bias == 32 ? 32 : 64) << bias;  // none: TFLite's int64 default
    EXPECT_EQ(p.channel_count, 1u);
    EXPECT_EQ(p.act_min, -32768);
    EXPECT_EQ(p.act_max, 32767);
    int32_t m = 0, s = 0;
    fully_connected_multiplier(0.0005f, 0.003f, 0.0007f, &m, &s);  // per-tensor: float product
    EXPECT_EQ(array_at(op, sizeof(FullyConnectedS16Params), 0), m);
    EXPECT_EQ(array_at(op, sizeof(FullyConnectedS16Params), 1), s);
  }
}

TEST(LowerQuantized, FullyConnectedS16Refusals) {
  {
    QuantGraph g;
    const int x = g.add("x", {1, 4}, DType::kInt16, {0.0005f}, {3});
    const int w = g.add("w", {2, 4}, DType::kInt8, {0.003f}, {0}, true);
    const int y = g.add("y", {1, 2}, DType::kInt16, {0.0007f}, {0});
    g.node(ir::Op::kFullyConnected, {x, w}, y);
    EXPECT_NE(error_of([&] { g.lower(); }).find("input 'x' has zero point 3, expected 0"), std::string::npos);
  }
  {
    QuantGraph g;
    const int x = g.add("x", {1, 4}, DType::kInt16, {0.0005f}, {0});
    const int w = g.add("w", {2, 4}, DType::kInt8, {0.003f}, {0}, true);
    const int b = g.add_bias("b", 2, DType::kInt16);
    const int y = g.add("y", {1, 2}, DType::kInt16, {0.0007f}, {0});
    g.node(ir::Op::kFullyConnected, {x, w, b}, y);
    EXPECT_NE(error_of([&] { g.lower(); }).find("bias 'b' has dtype int16, expected int64 or int32"),
              std::string::npos);
  }
  {
    // A multiplier of 2^15 needs shift 16: beyond the int64 path's 14, fine for int32.
    for (DType bias_dtype : {DType::kInt64, DType::kInt32}) {
      QuantGraph g;
      const int x = g.add("x", {1, 4}, DType::kInt16, {1.0f}, {0});
      const int w = g.add("w", {2, 4}, DType::kInt8, {1.0f}, {0}, true);
      const int b = g.add_bias("b", 2, bias_dtype);
      const int y = g.add("y", {1, 2}, DType::kInt16, {1.0f / 32768}, {0});
      g.node(ir::Op::kFullyConnected, {x, w, b}, y);
      const std::string error = error_of([&] { g.lower(); });
      if (bias_dtype == DType::kInt64) {
        EXPECT_NE(error.find("requantization shift 16 is outside the kernel's range [-31, 14]"),
                  std::string::npos) << error;
      } else {
        EXPECT_EQ(error, "");
      }
    }
  }
}

TEST(LowerQuantized, MeanS16KeepsZeroPointsAndFoldsTheCount) {
  QuantGraph g;
  const int x = g.add("x", {1, 5, 7, 3}, DType::kInt16, {0.0004f}, {-12});
  const int y = g.add("y", {1, 1, 1, 3}, DType::kInt16, {0.0003f}, {40});
  g.node(ir::Op::kMean, {x}, y, {{"axes", std::vector<int64_t>{1, 2}}});
  const LoweredOp op = g.lower();
  EXPECT_EQ(op.kernel, KernelId::kMeanS16);
  ASSERT_EQ(op.params.size(), sizeof(MeanS16Params));
  const auto p = header_of<MeanS16Params>(op);
  EXPECT_EQ(p.axes_mask, 0b0110u);
  EXPECT_EQ(p.input_zero_point, -12);
  EXPECT_EQ(p.output_zero_point, 40);
  int32_t m = 0, s = 0;
  mean_multiplier(0.0004f, 0.0003f, 35, &m, &s);
  EXPECT_EQ(p.multiplier, m);
  EXPECT_EQ(p.shift, s);
}

TEST(LowerQuantized, MeanS16NeedsInt16Output) {
  QuantGraph g;
  const int x = g.add("x", {2, 4}, DType::kInt16, {0.0004f}, {0});
  const int y = g.add("y", {2}, DType::kInt8, {0.0003f}, {0});
  g.node(ir::Op::kMean, {x}, y, {{"axes", std::vector<int64_t>{1}}});
  EXPECT_NE(error_of([&] { g.lower(); }).find("output 'y' has dtype int8, expected int16"), std::string::npos);
}

TEST(LowerQuantized, Pool2dS16) {
  for (bool average : {true, false}) {
    QuantGraph g;
    const int x = g.add("x", {1, 6, 7, 3}, DType::kInt16, {0.0004f}, {0});
    const int y = g.add("y", {1, 3, 4, 3}, DType::kInt16, {0.0004f}, {0});
    g.node(average ? ir::Op::kAvgPool2d : ir::Op::kMaxPool2d, {x}, y,
           {{"kernel", std::vector<int64_t>{2, 3}}, {"strides", std::vector<int64_t>{2, 2}},
            {"pads", std::vector<int64_t>{0, 1, 0, 1}}, {"act_min", 0.0}});
    const LoweredOp op = g.lower();
    EXPECT_EQ(op.kernel, average ? KernelId::kAvgPool2dS16 : KernelId::kMaxPool2dS16);
    ASSERT_EQ(op.params.size(), sizeof(Pool2dS16Params));
    const auto p = header_of<Pool2dS16Params>(op);
    EXPECT_EQ(p.kernel_h, 2);
    EXPECT_EQ(p.kernel_w, 3);
    EXPECT_EQ(p.window.stride_h, 2);
    EXPECT_EQ(p.window.stride_w, 2);
    EXPECT_EQ(p.window.pad_left, 1);
    EXPECT_EQ(p.window.pad_right, 1);
    EXPECT_EQ(p.act_min, 0);  // ReLU at zero point 0
    EXPECT_EQ(p.act_max, 32767);
  }
}

TEST(LowerQuantized, Pool2dS16Refusals) {
  {
    QuantGraph g;
    const int x = g.add("x", {1, 4, 4, 1}, DType::kInt16, {0.0004f}, {0});
    const int y = g.add("y", {1, 2, 2, 1}, DType::kInt16, {0.0005f}, {0});
    g.node(ir::Op::kAvgPool2d, {x}, y, {{"kernel", std::vector<int64_t>{2, 2}}, {"strides", std::vector<int64_t>{2, 2}}});
    EXPECT_NE(error_of([&] { g.lower(); }).find("input and output quantization differ"), std::string::npos);
  }
  {
    QuantGraph g;
    const int x = g.add("x", {1, 4, 4, 1}, DType::kInt16, {0.0004f}, {0});
    const int y = g.add("y", {1, 3, 3, 1}, DType::kInt16, {0.0004f}, {0});
    g.node(ir::Op::kAvgPool2d, {x}, y, {{"kernel", std::vector<int64_t>{2, 2}}, {"count_include_pad", int64_t{1}}});
    EXPECT_NE(error_of([&] { g.lower(); }).find("count_include_pad is not supported on int16"), std::string::npos);
  }
  {
    QuantGraph g;
    const int x = g.add("x", {1, 256, 256, 1}, DType::kInt16, {0.0004f}, {0});
    const int y = g.add("y", {1, 1, 1, 1}, DType::kInt16, {0.0004f}, {0});
    g.node(ir::Op::kAvgPool2d, {x}, y, {{"kernel", std::vector<int64_t>{256, 256}}});
    EXPECT_NE(error_of([&] { g.lower(); }).find("has more than 65535 cells"), std::string::npos);
    g.graph.nodes.back().op = ir::Op::kMaxPool2d;  // no sum, no bound
    EXPECT_EQ(g.lower().kernel, KernelId::kMaxPool2dS16);
  }
}

// TFLite Micro's 16x8 CONV_2D / FULLY_CONNECTED Eval: int32 accumulation when the bias
// is int32, or when there is none and quantized_bias_type is INT32; int64 otherwise.
TEST(LowerQuantized, S16AccumulatorWithoutBiasFollowsQuantizedBiasType) {
  struct Variant {
    const char* quantized_bias_type;  // nullptr: attribute absent
    int32_t accumulator;
  };
  const Variant variants[] = {{nullptr, 64}, {"int64", 64}, {"int32", 32}};
  for (const Variant& v : variants) {
    for (bool conv : {true, false}) {
      QuantGraph g;
      int x, w, y;
      if (conv) {
        x = g.add("x", {1, 3, 3, 2}, DType::kInt16, {1.0f}, {0});
        w = g.add("w", {2, 1, 1, 2}, DType::kInt8, {1.0f}, {0}, true);
        y = g.add("y", {1, 3, 3, 2}, DType::kInt16, {1.0f / 32768}, {0});
      } else {
        x = g.add("x", {1, 2}, DType::kInt16, {1.0f}, {0});
        w = g.add("w", {2, 2}, DType::kInt8, {1.0f}, {0}, true);
        y = g.add("y", {1, 2}, DType::kInt16, {1.0f / 32768}, {0});
      }
      std::map<std::string, ir::AttrValue> attrs;
      if (v.quantized_bias_type != nullptr) attrs["quantized_bias_type"] = std::string(v.quantized_bias_type);
      g.node(conv ? ir::Op::kConv2d : ir::Op::kFullyConnected, {x, w}, y, attrs);
      SCOPED_TRACE(std::string(conv ? "conv2d " : "fully_connected ") +
                   (v.quantized_bias_type ? v.quantized_bias_type : "(none)"));
      if (v.accumulator == 64) {
        // Multiplier 2^15 needs shift 16, outside the int64 path's [-31, 14].
        EXPECT_NE(error_of([&] { g.lower(); }).find("shift 16 is outside the kernel's range [-31, 14]"),
                  std::string::npos);
        g.graph.tensors[y].quant.scales = {1.0f / 1024};  // shift 11
      }
      const LoweredOp op = g.lower();
      if (conv) {
        EXPECT_EQ(op.kernel, KernelId::kConv2dS16);
        EXPECT_EQ(header_of<Conv2dS16Params>(op).accumulator, v.accumulator);
      } else {
        EXPECT_EQ(op.kernel, KernelId::kFullyConnectedS16);
        EXPECT_EQ(header_of<FullyConnectedS16Params>(op).accumulator, v.accumulator);
      }
    }
  }
}

TEST(LowerQuantized, S16AccumulatorBiasDtypeWinsAndBadTypeIsRefused) {
  {
    // A bias decides: an int32 bias accumulates in int32 whatever the attribute says.
    QuantGraph g;
    const int x = g.add("x", {1, 3, 3, 2}, DType::kInt16, {0.001f}, {0});
    const int w = g.add("w", {2, 1, 1, 2}, DType::kInt8, {0.01f}, {0}, true);
    const int b = g.add_bias("b", 2, DType::kInt32);
    const int y = g.add("y", {1, 3, 3, 2}, DType::kInt16, {0.002f}, {0});
    g.node(ir::Op::kConv2d, {x, w, b}, y, {{"quantized_bias_type", std::string("int64")}});
    EXPECT_EQ(header_of<Conv2dS16Params>(g.lower()).accumulator, 32);
  }
  {
    QuantGraph g;
    const int x = g.add("x", {1, 2}, DType::kInt16, {0.001f}, {0});
    const int w = g.add("w", {2, 2}, DType::kInt8, {0.01f}, {0}, true);
    const int y = g.add("y", {1, 2}, DType::kInt16, {0.002f}, {0});
    g.node(ir::Op::kFullyConnected, {x, w}, y, {{"quantized_bias_type", std::string("int8")}});
    EXPECT_NE(error_of([&] { g.lower(); }).find("attribute 'quantized_bias_type' is 'int8', expected int32 or int64"),
              std::string::npos);
  }
}

TEST(LowerQuantized, RefusesARangeTfliteCannotFuse) {
  QuantGraph g;
  const int a = g.add("a", {4}, DType::kInt8, {0.1f}, {0});
  const int b = g.add("b", {4}, DType::kInt8, {0.1f}, {0});
  const int y = g.add("y", {4}, DType::kInt8, {0.2f}, {0});
  g.node(ir::Op::kAdd, {a, b}, y, {{"act_min", 0.0}, {"act_max", 3.0}});
  EXPECT_NE(error_of([&] { g.lower(); }).find("node 'q1' (add): fused activation range [0, 3]"), std::string::npos);
}

TEST(LowerQuantized, ConcatOfDifferentlyQuantizedInputsIsRefused) {
  QuantGraph g;
  const int a = g.add("a", {1, 2}, DType::kInt8, {0.1f}, {0});
  const int b = g.add("b", {1, 2}, DType::kInt8, {0.2f}, {0});
  const int y = g.add("y", {1, 4}, DType::kInt8, {0.1f}, {0});
  g.node(ir::Op::kConcat, {a, b}, y, {{"axis", int64_t{1}}});
  EXPECT_NE(error_of([&] { g.lower(); }).find("input 'b' is quantized differently from the output"),
            std::string::npos);
}

// Float32 and quantized nodes of an op run one check (compiler/lower/<family>.cc), so the
// same broken node reads the same on both; only rules the integer kernels add differ.
TEST(LowerQuantized, ChecksAreSharedWithTheFloatPath) {
  using Attrs = std::map<std::string, ir::AttrValue>;
  struct Case {
    ir::Op op;
    std::vector<std::pair<std::string, ir::Shape>> inputs;
    ir::Shape output;
    Attrs attrs;
    std::string float_error, int8_error;  // int8_error empty: the same as float_error
  };
  const std::vector<int64_t> k3 = {3, 3}, s2 = {2, 2};
  const Case cases[] = {
      {ir::Op::kConv2d, {{"x", {1, 8, 8, 4}}, {"w", {4, 3, 3, 4}}}, {1, 6, 6, 4}, {{"group", int64_t{2}}},
       "node 'q1' (conv2d): filter 'w' has shape [4,3,3,4], expected dim 3 = input channels / group = 2", ""},
      {ir::Op::kConv2d, {{"x", {1, 8, 8, 3}}, {"w", {4, 3, 3, 3}}}, {1, 8, 8, 4}, {},
       "node 'q1' (conv2d): output 'y' has shape [1,8,8,4], expected [1,6,6,4]", ""},
      {ir::Op::kDepthwiseConv2d, {{"x", {1, 5, 5, 3}}, {"w", {1, 3, 3, 6}}}, {1, 3, 3, 6},
       {{"depth_multiplier", int64_t{3}}},
       "node 'q1' (depthwise_conv2d): filter 'w' has 6 channels, expected input channels 3 * depth_multiplier 3",
       ""},
      {ir::Op::kFullyConnected, {{"x", {1, 10}}, {"w", {4, 12}}}, {1, 4}, {},
       "node 'q1' (fully_connected): weights 'w' has shape [4,12], expected [N,10] to match input [1,10]", ""},
      {ir::Op::kAdd, {{"a", {2, 3}}, {"b", {4}}}, {2, 4}, {},
       "node 'q1' (add): inputs 'a' [2,3] and 'b' [4] do not broadcast", ""},
      {ir::Op::kMean, {{"x", {2, 4}}}, {3}, {{"axes", std::vector<int64_t>{1}}},
       "node 'q1' (mean): output 'y' has shape [3] (3 elements), expected 2 kept elements", ""},
      {ir::Op::kReshape, {{"x", {2, 3}}}, {7}, {},
       "node 'q1' (reshape): output 'y' has shape [7] (7 elements), expected 6 elements like input [2,3]", ""},
      {ir::Op::kMaxPool2d, {{"x", {1, 7, 7, 2}}}, {1, 5, 5, 2}, {{"kernel", k3}, {"strides", s2}},
       "node 'q1' (max_pool2d): output 'y' has shape [1,5,5,2], expected [1,3,3,2] (or its ceil_mode form)", ""},
      // The ceil_mode form (4 = ceil((7 + 1 - 3) / 2) + 1): int8 runs it as the floor rule
      // over pads grown to [0,0,2,2], still smaller than the kernel.
      {ir::Op::kMaxPool2d, {{"x", {1, 7, 7, 2}}}, {1, 4, 4, 2},
       {{"kernel", k3}, {"strides", s2}, {"pads", std::vector<int64_t>{0, 0, 1, 1}}}, "", ""},
      // A ceil_mode last window starting below the image (4 = ceil((6 + 2 - 3) / 2) + 1,
      // its first row 6): the grown pads [0,0,3,3] reach the kernel, which int8 refuses.
      {ir::Op::kMaxPool2d, {{"x", {1, 6, 6, 2}}}, {1, 4, 4, 2},
       {{"kernel", k3}, {"strides", s2}, {"pads", std::vector<int64_t>{0, 0, 2, 2}}}, "",
       "node 'q1' (max_pool2d): pads [0,0,3,3] must be smaller than the kernel"},
  };
  for (const Case& c : cases) {
    for (const bool quantized : {false, true}) {
      QuantGraph g;
      const DType dtype = quantized ? DType::kInt8 : DType::kFloat32;
      const std::vector<float> scales = quantized ? std::vector<float>{0.1f} : std::vector<float>{};
      const std::vector<int32_t> zero_points = quantized ? std::vector<int32_t>{0} : std::vector<int32_t>{};
      std::vector<int> inputs;
      for (const auto& [name, shape] : c.inputs) {
        const bool weights = name == "w";
        inputs.push_back(g.add(name, shape, dtype, scales, zero_points, weights));
      }
      g.node(c.op, inputs, g.add("y", c.output, dtype, scales, zero_points), c.attrs);
      const std::string expected = quantized && !c.int8_error.empty() ? c.int8_error : c.float_error;
      EXPECT_EQ(error_of([&] { g.lower(); }), expected) << ir::op_name(c.op) << (quantized ? " int8" : " float32");
    }
  }
}

TEST(LowerQuantized, PadFillsWithTheQuantizedValue) {
  QuantGraph g;
  const int x = g.add("x", {1, 2}, DType::kInt8, {0.5f}, {-7});
  const int y = g.add("y", {1, 4}, DType::kInt8, {0.5f}, {-7});
  g.node(ir::Op::kPad, {x}, y, {{"pads", std::vector<int64_t>{0, 1, 0, 1}}, {"value", 0.0}});
  const LoweredOp op = g.lower();
  EXPECT_EQ(op.kernel, KernelId::kPad);
  const auto p = header_of<PadParams>(op);
  EXPECT_EQ(static_cast<int8_t>(p.value[0]), -7);
}

// An MNIST-like integer LSTM: B = 1, T = 3, I = 4, H = 5 (input x, hidden h, cell c).
struct LstmGraph : QuantGraph {
  std::vector<int> inputs = std::vector<int>(24, ir::kNoTensor);
  int y = -1;
  LstmGraph() {
    inputs[0] = add("x", {1, 3, 4}, DType::kInt8, {1.0f / 255}, {-128});
    const float wx_scales[] = {0.011f, 0.012f, 0.013f, 0.014f};
    const float wh_scales[] = {0.021f, 0.022f, 0.023f, 0.024f};
    for (int g = 0; g < 4; ++g) {
      inputs[1 + g] = add("wx" + std::to_string(g), {5, 4}, DType::kInt8, {wx_scales[g]}, {0}, true);
      inputs[5 + g] = add("wh" + std::to_string(g), {5, 5}, DType::kInt8, {wh_scales[g]}, {0}, true);
      inputs[12 + g] = add_bias("b" + std::to_string(g), 5);
    }
    inputs[18] = add("h", {1, 5}, DType::kInt8, {0.0078f}, {3}, true);
    inputs[19] = add("c", {1, 5}, DType::kInt16, {1.0f / 2048}, {0}, true);
    y = add("y", {1, 3, 5}, DType::kInt8, {0.0078f}, {3});
  }
  // Inputs 18 and 19 become state (persistent, as the importer makes TFLite's variable
  // tensors); outputs 1 and 2, the new hidden and cell state, are made like them as they
  // are when lstm() is called (a test's change to a state reaches both).
  ir::Node& lstm(std::map<std::string, ir::AttrValue> attrs = {{"activation", std::string("tanh")},
                                                              {"cell_clip", 1.5}}) {
    ir::Node& n = node(ir::Op::kLstm, inputs, y, std::move(attrs));
    for (int state : {18, 19}) {
      ir::Tensor& held = graph.tensors[static_cast<size_t>(inputs[state])];
      held.is_constant = false;
      held.is_persistent = true;
      held.data.clear();
      ir::Tensor next = held;
      next.name += "/new";
      next.is_persistent = false;
      n.outputs.push_back(graph.add_tensor(std::move(next)));
    }
    return graph.nodes.back();
  }
};

TEST(LowerQuantized, LstmParamsAsTfliteMicroDerivesThem) {
  LstmGraph g;
  g.lstm();
  const LoweredOp op = g.lower();
  EXPECT_EQ(op.kernel, KernelId::kLstmS8);
  ASSERT_EQ(op.params.size(), sizeof(LstmIntegerParams));
  const auto p = header_of<LstmIntegerParams>(op);
  const float wx_scales[] = {0.011f, 0.012f, 0.013f, 0.014f};
  const float wh_scales[] = {0.021f, 0.022f, 0.023f, 0.024f};
  for (int g2 = 0; g2 < 4; ++g2) {
    int32_t m = 0, s = 0;
    fully_connected_multiplier(1.0f / 255, wx_scales[g2], 1.0f / 4096, &m, &s);
    EXPECT_EQ(p.gate[g2].input_multiplier, m) << g2;
    EXPECT_EQ(p.gate[g2].input_shift, s) << g2;
    fully_connected_multiplier(0.0078f, wh_scales[g2], 1.0f / 4096, &m, &s);
    EXPECT_EQ(p.gate[g2].recurrent_multiplier, m) << g2;
    EXPECT_EQ(p.gate[g2].recurrent_shift, s) << g2;
  }
  int32_t m = 0, s = 0;
  mul_multiplier(1.0f / 32768, 1.0f / 2048, 1.0f / 2048, &m, &s);
  EXPECT_EQ(p.forget_cell.multiplier, m);
  EXPECT_EQ(p.forget_cell.shift, s);
  mul_multiplier(1.0f / 32768, 1.0f / 32768, 1.0f / 2048, &m, &s);
  EXPECT_EQ(p.input_cell.multiplier, m);
  EXPECT_EQ(p.input_cell.shift, s);
  mul_multiplier(1.0f / 32768, 1.0f / 32768, 0.0078f, &m, &s);
  EXPECT_EQ(p.hidden.multiplier, m);
  EXPECT_EQ(p.hidden.shift, s);
  EXPECT_EQ(p.input_zero_point, -128);
  EXPECT_EQ(p.hidden_zero_point, 3);
  // Cell scale 2^-11: tanh input shift (15 - 11) - 3 = 1 >= 0 -> multiplier 3 << 1.
  EXPECT_EQ(p.cell_tanh_multiplier, 6);
  EXPECT_EQ(p.cell_tanh_shift, 0);
  EXPECT_EQ(p.cell_clip_enabled, 1u);
  EXPECT_EQ(p.cell_clip, 3072);  // 1.5 / 2^-11
  EXPECT_EQ(p.time_major, 0u);
  EXPECT_EQ(op.scratch_bytes, (5u + 4) * 2);  // x [I], h [H] as int16 (the cell row lives in output 2)
  EXPECT_EQ(op.macs, 3u * 4 * 5 * (4 + 5));
}

// The int8 LSTM's variants: Helium on the Cortex-M55, the DSP extension on the M4, M7 and
// M33, the reference elsewhere; each with its own scratch (the reference's or more), the
// parameters unchanged.
TEST(LowerQuantized, LstmPicksItsVariantPerCore) {
  struct Expect {
    Target target;
    KernelId kernel;
    uint64_t scratch;
  };
  const Expect expects[] = {
      {Target::kHost, KernelId::kLstmS8, lstm_s8_scratch_bytes(4, 5)},
      {Target::kCortexM0Plus, KernelId::kLstmS8, lstm_s8_scratch_bytes(4, 5)},
      {Target::kCortexM3, KernelId::kLstmS8, lstm_s8_scratch_bytes(4, 5)},
      {Target::kCortexM4, KernelId::kLstmS8Dsp, lstm_s8__dsp_scratch_bytes(4, 5)},
      {Target::kCortexM7, KernelId::kLstmS8Dsp, lstm_s8__dsp_scratch_bytes(4, 5)},
      {Target::kCortexM33, KernelId::kLstmS8Dsp, lstm_s8__dsp_scratch_bytes(4, 5)},
      {Target::kCortexM55, KernelId::kLstmS8Mve, lstm_s8__mve_scratch_bytes(4, 5)},
  };
  LstmGraph g;
  g.lstm();
  const LoweredOp reference = g.lower();
  for (const Expect& e : expects) {
    const LoweredOp op = lower_node(g.graph, g.graph.nodes.back(), e.target);
    EXPECT_EQ(op.kernel, e.kernel) << static_cast<int>(e.target);
    EXPECT_EQ(op.scratch_bytes, e.scratch) << static_cast<int>(e.target);
    EXPECT_GE(op.scratch_bytes, reference.scratch_bytes) << static_cast<int>(e.target);
    EXPECT_EQ(op.params, reference.params) << static_cast<int>(e.target);
  }
  // (4 / 4) * 16 + (5 / 4) * 8 + 16 * 5 bytes: two steps' input rows widened, the hidden row
  // widened, the input half of the gates of two steps.
  EXPECT_EQ(lstm_s8__dsp_scratch_bytes(4, 5), 104u);
  EXPECT_EQ(lstm_s8__mve_scratch_bytes(4, 5), 160u);  // 8 int32 per unit
}

TEST(LowerQuantized, LstmCellTanhShiftsRightForFineCellScales) {
  LstmGraph g;
  g.graph.tensors[g.inputs[19]].quant.scales = {1.0f / 65536};  // 2^-16: shift 4
  g.lstm({{"activation", std::string("tanh")}});
  const auto p = header_of<LstmIntegerParams>(g.lower());
  EXPECT_EQ(p.cell_tanh_multiplier, 3);
  EXPECT_EQ(p.cell_tanh_shift, 4);
  EXPECT_EQ(p.cell_clip_enabled, 0u);
}

TEST(LowerQuantized, LstmVariantsAreRefusedNamingTheFeature) {
  struct Refusal {
    std::function<void(LstmGraph&)> change;
    std::string message;
  };
  const std::vector<Refusal> refusals = {
      {[](LstmGraph& g) { g.inputs[10] = g.add("peep", {5}, DType::kInt16, {0.001f}, {0}, true); },
       "uses peephole connections"},
      {[](LstmGraph& g) { g.inputs[16] = g.add("proj", {5, 5}, DType::kInt8, {0.01f}, {0}, true); },
       "uses a projection layer"},
      {[](LstmGraph& g) { g.inputs[21] = g.add("ln", {5}, DType::kInt16, {0.001f}, {0}, true); },
       "uses layer normalization"},
      {[](LstmGraph& g) { g.inputs[1] = g.inputs[5] = g.inputs[12] = ir::kNoTensor; },
       "coupled input and forget gates (CIFG) are not supported"},
      {[](LstmGraph& g) {
         g.graph.tensors[g.inputs[7]].quant.scales = {0.01f, 0.02f, 0.03f, 0.04f, 0.05f};
         g.graph.tensors[g.inputs[7]].quant.zero_points = {0, 0, 0, 0, 0};
         g.graph.tensors[g.inputs[7]].quant.axis = 0;
       },
       "weights 'wh2' is quantized per channel"},
      {[](LstmGraph& g) {
         g.graph.tensors[g.inputs[0]].dtype = DType::kInt32;
         g.graph.tensors[g.inputs[0]].quant.zero_points = {0};
       },
       "expected float32, int8 or int16"},
      {[](LstmGraph& g) { g.graph.tensors[g.inputs[19]].dtype = DType::kInt8; },
       "cell state 'c' has dtype int8, expected int16"},
      {[](LstmGraph& g) { g.graph.tensors[g.inputs[6]].shape = {5, 4}; },
       "forget gate recurrent weights 'wh1' has shape [5,4], expected [5,5]"},
      {[](LstmGraph& g) { g.graph.tensors[g.inputs[19]].quant.scales = {2.0f}; },
       "outside what the integer LSTM's tanh supports"},
  };
  for (const Refusal& r : refusals) {
    LstmGraph g;
    r.change(g);
    g.lstm();
    const std::string error = error_of([&] { g.lower(); });
    EXPECT_NE(error.find("node 'q1' (lstm): "), std::string::npos) << error;
    EXPECT_NE(error.find(r.message), std::string::npos) << error;
  }
  LstmGraph g;
  g.lstm({{"activation", std::string("relu")}});
  EXPECT_NE(error_of([&] { g.lower(); }).find("cell gate activation 'relu' is not supported"), std::string::npos);
}

// An integer GRU (gates = 3) or RNN (gates = 1): T = 3, B = 1, I = 4, H = 5, time major;
// w and r quantized per row with each gate's rows sharing a scale, as --quantize writes
// them; h0, y and the final hidden state one quantization.
struct RecurrentGraph : QuantGraph {
  int x, w, r, bias, h0, y, h;
  explicit RecurrentGraph(int gates, DType act = DType::kInt8) {
    const bool int16 = act == DType::kInt16;
    x = add("x", {3, 1, 4}, act, {1.0f / 255}, {int16 ? 0 : -128});
    std::vector<float> wx, wh;
    for (int g = 0; g < gates; ++g) {
      wx.insert(wx.end(), 5, 0.011f + 0.001f * static_cast<float>(g));
      wh.insert(wh.end(), 5, 0.021f + 0.001f * static_cast<float>(g));
    }
    w = add("w", {gates * 5, 4}, DType::kInt8, wx, std::vector<int32_t>(wx.size(), 0), true, 0);
    r = add("r", {gates * 5, 5}, DType::kInt8, wh, std::vector<int32_t>(wh.size(), 0), true, 0);
    bias = add_bias("b", 2 * gates * 5, int16 ? DType::kInt64 : DType::kInt32);
    h0 = add("h0", {1, 5}, act, {0.0078f}, {int16 ? 0 : 3});
    y = add("y", {3, 1, 5}, act, {0.0078f}, {int16 ? 0 : 3});
    h = add("h", {1, 5}, act, {0.0078f}, {int16 ? 0 : 3});
  }
  ir::Node& recurrent(ir::Op op, std::map<std::string, ir::AttrValue> attrs = {}) {
    ir::Node& n = node(op, {x, w, r, bias, h0}, y, std::move(attrs));
    n.outputs.push_back(h);
    return n;
  }
};

TEST(LowerQuantized, GruParamsPerGate) {
  for (DType act : {DType::kInt8, DType::kInt16}) {
    RecurrentGraph g(3, act);
    g.recurrent(ir::Op::kGru, {{"linear_before_reset", int64_t{1}}});
    const LoweredOp op = g.lower();
    const bool int16 = act == DType::kInt16;
    EXPECT_EQ(op.kernel, int16 ? KernelId::kGruS16 : KernelId::kGruS8);
    ASSERT_EQ(op.params.size(), sizeof(GruIntegerParams));
    const auto p = header_of<GruIntegerParams>(op);
    for (int gate = 0; gate < 3; ++gate) {
      int32_t m = 0, s = 0;
      fully_connected_multiplier(1.0f / 255, 0.011f + 0.001f * static_cast<float>(gate), 1.0f / 4096, &m, &s);
      EXPECT_EQ(p.gate[gate].input_multiplier, m) << gate;
      EXPECT_EQ(p.gate[gate].input_shift, s) << gate;
      fully_connected_multiplier(0.0078f, 0.021f + 0.001f * static_cast<float>(gate), 1.0f / 4096, &m, &s);
      EXPECT_EQ(p.gate[gate].recurrent_multiplier, m) << gate;
      EXPECT_EQ(p.gate[gate].recurrent_shift, s) << gate;
    }
    int32_t m = 0, s = 0;
    mul_multiplier(1.0f / 32768, 1.0f / 32768, 0.0078f, &m, &s);
    EXPECT_EQ(p.hidden_multiplier, m);
    EXPECT_EQ(p.hidden_shift, s);
    EXPECT_EQ(p.input_zero_point, int16 ? 0 : -128);
    EXPECT_EQ(p.hidden_zero_point, int16 ? 0 : 3);
    EXPECT_EQ(p.linear_before_reset, 1u);
    EXPECT_EQ(p.time_major, 1u);
    EXPECT_EQ(op.scratch_bytes, int16 ? 3u * 5 * 2 : (4u + 5 + 3 * 5) * 2);
    EXPECT_EQ(op.macs, 3u * 3 * 5 * (4 + 5));
  }
}

TEST(LowerQuantized, RnnReluRequantizesStraightToTheHiddenScale) {
  RecurrentGraph g(1);
  g.recurrent(ir::Op::kRnn, {{"activation", std::string("relu")}});
  const LoweredOp op = g.lower();
  EXPECT_EQ(op.kernel, KernelId::kRnnS8);
  const auto p = header_of<RnnIntegerParams>(op);
  int32_t m = 0, s = 0;
  fully_connected_multiplier(1.0f / 255, 0.011f, 0.0078f, &m, &s);
  EXPECT_EQ(p.input_multiplier, m);
  EXPECT_EQ(p.input_shift, s);
  fully_connected_multiplier(0.0078f, 0.021f, 0.0078f, &m, &s);
  EXPECT_EQ(p.recurrent_multiplier, m);
  EXPECT_EQ(p.recurrent_shift, s);
  EXPECT_EQ(p.activation, uint32_t{kRnnRelu});
  EXPECT_EQ(op.scratch_bytes, (4u + 5) * 2);
  RecurrentGraph t(1);
  t.recurrent(ir::Op::kRnn);
  const auto pt = header_of<RnnIntegerParams>(t.lower());
  requantize_multiplier(1.0f / 32768, 0.0078f, &m, &s);
  EXPECT_EQ(pt.output_multiplier, m);
  EXPECT_EQ(pt.output_shift, s);
  fully_connected_multiplier(1.0f / 255, 0.011f, 1.0f / 4096, &m, &s);
  EXPECT_EQ(pt.input_multiplier, m);
}

TEST(LowerQuantized, IntegerGruRefusalsNameTheTensor) {
  struct Refusal {
    std::function<void(RecurrentGraph&)> change;
    std::string message;
  };
  const std::vector<Refusal> refusals = {
      {[](RecurrentGraph& g) { g.graph.tensors[g.r].quant.scales[7] = 0.5f; },
       "recurrent weights 'r' has several scales within gate 1"},
      {[](RecurrentGraph& g) { g.graph.tensors[g.w].quant.zero_points[0] = 2; },
       "input weights 'w' has zero point 2, expected symmetric int8"},
      {[](RecurrentGraph& g) { g.graph.tensors[g.h0].quant.scales = {0.01f}; },
       "initial hidden state 'h0' is quantized"},
      {[](RecurrentGraph& g) { g.graph.tensors[g.h].quant.zero_points = {4}; },
       "final hidden state 'h' is quantized"},
      {[](RecurrentGraph& g) { g.graph.tensors[g.bias].dtype = DType::kInt64; },
       "bias 'b' has dtype int64, expected int32"},
  };
  for (const Refusal& r : refusals) {
    RecurrentGraph g(3);
    r.change(g);
    g.recurrent(ir::Op::kGru);
    const std::string error = error_of([&] { g.lower(); });
    EXPECT_NE(error.find("node 'q1' (gru): "), std::string::npos) << error;
    EXPECT_NE(error.find(r.message), std::string::npos) << error;
  }
  RecurrentGraph g(3, DType::kInt16);
  g.graph.tensors[g.x].quant.zero_points = {5};
  g.recurrent(ir::Op::kGru);
  EXPECT_NE(error_of([&] { g.lower(); }).find("input 'x' has zero point 5, expected 0"), std::string::npos);
}

TEST(LowerQuantized, Int16ConvNeedsZeroPointZero) {
  QuantGraph g;
  const int x = g.add("x", {1, 3, 3, 1}, DType::kInt16, {0.001f}, {4});
  const int w = g.add("w", {1, 1, 1, 1}, DType::kInt8, {0.01f}, {0}, true);
  const int y = g.add("y", {1, 3, 3, 1}, DType::kInt16, {0.001f}, {0});
  g.node(ir::Op::kConv2d, {x, w}, y);
  EXPECT_NE(error_of([&] { g.lower(); }).find("input 'x' has zero point 4, expected 0"), std::string::npos);
}

TEST(LowerQuantized, ClampsOnQuantizedResultsAreNotFused) {
  QuantGraph g;
  const int a = g.add("a", {4}, DType::kInt8, {0.1f}, {0});
  const int b = g.add("b", {4}, DType::kInt8, {0.1f}, {0});
  const int s = g.add("s", {4}, DType::kInt8, {0.2f}, {0});
  const int y = g.add("y", {4}, DType::kInt8, {0.2f}, {0});
  g.node(ir::Op::kAdd, {a, b}, s);
  g.node(ir::Op::kClamp, {s}, y, {{"min", 0.0}});
  g.graph.inputs = {a, b};
  g.graph.outputs = {y};
  passes::fuse_activations(g.graph);
  EXPECT_EQ(g.graph.nodes.size(), 2u);
}

}  // namespace lower_quantized_test
}  // namespace mote::lower
