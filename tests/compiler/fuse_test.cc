// The Mote-level graph passes: fuse_activations (clamp into its producer),
// fold_constants (nodes on constants evaluated with the host kernels) and
// single_channel_depthwise_to_conv.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "compiler/graph_builder.h"
#include "ir/graph.h"
#include "passes/passes.h"

namespace mote {
namespace fuse_test {

constexpr double kInf = std::numeric_limits<double>::infinity();

std::vector<float> floats_of(const ir::Tensor& t) {
  std::vector<float> v(t.data.size() / sizeof(float));
  if (!v.empty()) std::memcpy(v.data(), t.data.data(), t.data.size());
  return v;
}

const ir::Node* find_node(const ir::Graph& g, const std::string& name) {
  for (const ir::Node& n : g.nodes)
    if (n.name == name) return &n;
  return nullptr;
}

// ---- fuse_activations ------------------------------------------------------------------

TEST(FuseActivations, ConvFollowedByRelu6BecomesOneNode) {
  GraphBuilder b;
  const int x = b.input("x", {1, 4, 4, 2});
  const int w = b.constant("w", {3, 1, 1, 2}, std::vector<float>(6, 0.5f));
  const int conv = b.node(ir::Op::kConv2d, "conv", {x, w}, {1, 4, 4, 3});
  const int relu = b.clamp("relu6", conv, {1, 4, 4, 3}, 0.0, 6.0);
  const int out = b.node(ir::Op::kSigmoid, "sig", {relu}, {1, 4, 4, 3});
  b.graph.outputs = {out};

  passes::fuse_activations(b.graph);
  ASSERT_EQ(b.graph.nodes.size(), 2u);
  const ir::Node& fused = b.graph.nodes[0];
  EXPECT_EQ(fused.name, "conv");
  EXPECT_EQ(fused.get_float("act_min", -1), 0.0);
  EXPECT_EQ(fused.get_float("act_max", -1), 6.0);
  // conv now writes what the clamp wrote, and the sigmoid reads it.
  EXPECT_EQ(b.graph.tensors[fused.outputs[0]].name, "relu6:0");
  EXPECT_EQ(b.graph.nodes[1].inputs[0], fused.outputs[0]);
  EXPECT_EQ(b.graph.tensors.size(), 4u);  // x, w, relu6:0, sig:0 (conv:0 is gone)
}

TEST(FuseActivations, EveryOpWithAnActivationAbsorbsAClamp) {
  for (ir::Op op : {ir::Op::kAdd, ir::Op::kSub, ir::Op::kMul, ir::Op::kDiv}) {
    GraphBuilder b;
    const int x = b.input("x", {4});
    const int y = b.input("y", {4});
    const int r = b.node(op, "op", {x, y}, {4});
    b.graph.outputs = {b.clamp("clip", r, {4}, -1.0, 1.0)};
    passes::fuse_activations(b.graph);
    ASSERT_EQ(b.graph.nodes.size(), 1u) << op;
    EXPECT_EQ(b.graph.nodes[0].get_float("act_min", 0), -1.0);
    EXPECT_EQ(b.graph.outputs[0], b.graph.nodes[0].outputs[0]);
  }
  for (ir::Op op : {ir::Op::kAvgPool2d, ir::Op::kMaxPool2d}) {
    GraphBuilder b;
    const int x = b.input("x", {1, 4, 4, 1});
    const int r = b.node(op, "pool", {x}, {1, 2, 2, 1},
                         {{"kernel", std::vector<int64_t>{2, 2}}, {"strides", std::vector<int64_t>{2, 2}}});
    b.graph.outputs = {b.clamp("relu", r, {1, 2, 2, 1}, 0.0, kInf)};
    passes::fuse_activations(b.graph);
    ASSERT_EQ(b.graph.nodes.size(), 1u) << op;
    EXPECT_EQ(b.graph.nodes[0].get_float("act_max", 0), kInf);
  }
  for (ir::Op op : {ir::Op::kFullyConnected, ir::Op::kBatchMatMul, ir::Op::kDepthwiseConv2d}) {
    GraphBuilder b;
    const int x = b.input("x", {2, 2});
    const int y = b.input("y", {2, 2});
    const int r = b.node(op, "op", {x, y}, {2, 2});  // shapes are not checked by the pass
    b.graph.outputs = {b.clamp("relu", r, {2, 2}, 0.0, kInf)};
    passes::fuse_activations(b.graph);
    EXPECT_EQ(b.graph.nodes.size(), 1u) << op;
  }
}

TEST(FuseActivations, RangesIntersectWithAnExistingActivation) {
  GraphBuilder b;
  const int x = b.input("x", {4});
  const int y = b.input("y", {4});
  const int sum = b.node(ir::Op::kAdd, "add", {x, y}, {4}, {{"act_min", -1.0}, {"act_max", 3.0}});
  const int c1 = b.clamp("relu6", sum, {4}, 0.0, 6.0);
  const int c2 = b.clamp("clip", c1, {4}, -kInf, 2.0);  // a chain of clamps fuses too
  b.graph.outputs = {c2};
  passes::fuse_activations(b.graph);
  ASSERT_EQ(b.graph.nodes.size(), 1u);
  EXPECT_EQ(b.graph.nodes[0].get_float("act_min", -9), 0.0);
  EXPECT_EQ(b.graph.nodes[0].get_float("act_max", -9), 2.0);
}

TEST(FuseActivations, LeavesClampsThatCannotBeFused) {
  {  // the producer's result is a graph output
    GraphBuilder b;
    const int x = b.input("x", {4});
    const int s = b.node(ir::Op::kAdd, "add", {x, x}, {4});
    b.graph.outputs = {s, b.clamp("relu", s, {4}, 0.0, kInf)};
    passes::fuse_activations(b.graph);
    EXPECT_EQ(b.graph.nodes.size(), 2u);
  }
  {  // a second reader needs the unclamped value
    GraphBuilder b;
    const int x = b.input("x", {4});
    const int s = b.node(ir::Op::kAdd, "add", {x, x}, {4});
    const int r = b.clamp("relu", s, {4}, 0.0, kInf);
    b.graph.outputs = {b.node(ir::Op::kMul, "mul", {r, s}, {4})};
    passes::fuse_activations(b.graph);
    EXPECT_EQ(b.graph.nodes.size(), 3u);
    EXPECT_FALSE(b.graph.nodes[0].has("act_min"));
  }
  {  // softmax has no fused activation
    GraphBuilder b;
    const int x = b.input("x", {4});
    const int s = b.node(ir::Op::kSoftmax, "softmax", {x}, {4});
    b.graph.outputs = {b.clamp("clip", s, {4}, 0.0, 0.5)};
    passes::fuse_activations(b.graph);
    EXPECT_EQ(b.graph.nodes.size(), 2u);
  }
  {  // disjoint ranges are not one clamp
    GraphBuilder b;
    const int x = b.input("x", {4});
    const int s = b.node(ir::Op::kAdd, "add", {x, x}, {4}, {{"act_min", 0.0}, {"act_max", 6.0}});
    b.graph.outputs = {b.clamp("clip", s, {4}, 7.0, 8.0)};
    passes::fuse_activations(b.graph);
    EXPECT_EQ(b.graph.nodes.size(), 2u);
    EXPECT_EQ(b.graph.nodes[0].get_float("act_max", 0), 6.0);
  }
}

// ---- fold_constants --------------------------------------------------------------------

TEST(FoldConstants, NodesOnConstantsBecomeConstants) {
  GraphBuilder b;
  const int x = b.input("x", {2, 2});
  const int a = b.constant("a", {2, 2}, {1, 2, 3, 4});
  const int c = b.constant("c", {2}, {10, 20});
  const int scaled = b.node(ir::Op::kMul, "scale", {a, c}, {2, 2}, {{"act_max", 50.0}});  // a * c, clamped
  const int shifted = b.node(ir::Op::kSub, "shift", {scaled, c}, {2, 2});                    // - c
  const int out = b.node(ir::Op::kAdd, "use", {x, shifted}, {2, 2});
  b.graph.outputs = {out};

  passes::fold_constants(b.graph);
  ASSERT_EQ(b.graph.nodes.size(), 1u);
  const ir::Node& use = b.graph.nodes[0];
  EXPECT_EQ(use.name, "use");
  const ir::Tensor& folded = b.graph.tensors[use.inputs[1]];
  EXPECT_TRUE(folded.is_constant);
  EXPECT_EQ(folded.name, "shift:0");
  EXPECT_EQ(floats_of(folded), (std::vector<float>{0, 20, 20, 30}));
  // The inputs only the folded nodes read are gone.
  for (const ir::Tensor& t : b.graph.tensors) {
    EXPECT_NE(t.name, "a");
    EXPECT_NE(t.name, "scale:0");
  }
}

TEST(FoldConstants, FoldsWithOptionalInputsAndMatMul) {
  GraphBuilder b;
  const int x = b.input("x", {1, 2});
  const int v = b.constant("v", {1, 3}, {1, 2, 3});
  const int w = b.constant("w", {2, 3}, {1, 0, 0, 0, 1, 1});
  const int fc = b.node(ir::Op::kFullyConnected, "fc", {v, w, ir::kNoTensor}, {1, 2});
  const int sig = b.node(ir::Op::kSigmoid, "sig", {fc}, {1, 2});
  b.graph.outputs = {b.node(ir::Op::kAdd, "add", {x, sig}, {1, 2})};
  passes::fold_constants(b.graph);
  ASSERT_EQ(b.graph.nodes.size(), 1u);
  const std::vector<float> folded = floats_of(b.graph.tensors[b.graph.nodes[0].inputs[1]]);
  ASSERT_EQ(folded.size(), 2u);
  EXPECT_FLOAT_EQ(folded[0], 1.0f / (1.0f + std::exp(-1.0f)));
  EXPECT_FLOAT_EQ(folded[1], 1.0f / (1.0f + std::exp(-5.0f)));
}

TEST(FoldConstants, LeavesNodesThatReadAGraphInput) {
  GraphBuilder b;
  const int x = b.input("x", {3});
  const int c = b.constant("c", {3}, {1, 2, 3});
  b.graph.outputs = {b.node(ir::Op::kAdd, "add", {x, c}, {3})};
  passes::fold_constants(b.graph);
  EXPECT_EQ(b.graph.nodes.size(), 1u);
}

TEST(FoldConstants, AGraphOutputMayBecomeAConstant) {
  GraphBuilder b;
  const int x = b.input("x", {2});
  const int c = b.constant("c", {2}, {-3, 3});
  const int relu = b.clamp("relu", c, {2}, 0.0, kInf);
  b.graph.outputs = {b.node(ir::Op::kSigmoid, "sig", {x}, {2}), relu};
  passes::fold_constants(b.graph);
  ASSERT_EQ(b.graph.nodes.size(), 1u);
  const ir::Tensor& out = b.graph.tensors[b.graph.outputs[1]];
  EXPECT_TRUE(out.is_constant);
  EXPECT_EQ(floats_of(out), (std::vector<float>{0, 3}));
  EXPECT_EQ(find_node(b.graph, "relu"), nullptr);
}

// ---- single_channel_depthwise_to_conv ---------------------------------------------------

// A depthwise convolution over x [1,5,4,channels] with a 3x2 filter and M outputs per channel.
struct Depthwise {
  GraphBuilder b;
  int filter = -1;
  explicit Depthwise(int64_t channels, int64_t m) {
    const int x = b.input("x", {1, 5, 4, channels});
    std::vector<float> w(static_cast<size_t>(3 * 2 * channels * m));
    for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(i);  // value = [1,KH,KW,C*M] index
    filter = b.constant("w", {1, 3, 2, channels * m}, w);
    b.graph.outputs = {b.node(ir::Op::kDepthwiseConv2d, "dw", {x, filter}, {1, 3, 3, channels * m},
                              {{"strides", std::vector<int64_t>{1, 1}},
                               {"dilations", std::vector<int64_t>{1, 1}},
                               {"pads", std::vector<int64_t>{0, 0, 0, 0}},
                               {"depth_multiplier", int64_t{m}}})};
  }
};

TEST(SingleChannelDepthwise, BecomesAConvolutionWithTheFilterTransposed) {
  Depthwise d(1, 4);
  passes::single_channel_depthwise_to_conv(d.b.graph);
  ASSERT_EQ(d.b.graph.nodes.size(), 1u);
  const ir::Node& conv = d.b.graph.nodes[0];
  EXPECT_EQ(conv.op, ir::Op::kConv2d);
  EXPECT_EQ(conv.get_int("group", 0), 1);
  EXPECT_FALSE(conv.has("depth_multiplier"));
  EXPECT_EQ(conv.get_ints("strides"), (std::vector<int64_t>{1, 1}));
  const ir::Tensor& w = d.b.graph.tensors[conv.inputs[1]];
  EXPECT_EQ(w.shape, (ir::Shape{4, 3, 2, 1}));
  EXPECT_TRUE(w.is_constant);
  // [M,KH,KW,1] element (m, tap) holds the depthwise filter's element (tap, m).
  const std::vector<float> values = floats_of(w);
  ASSERT_EQ(values.size(), 24u);
  for (int m = 0; m < 4; ++m)
    for (int tap = 0; tap < 6; ++tap) EXPECT_EQ(values[m * 6 + tap], static_cast<float>(tap * 4 + m)) << m << tap;
  EXPECT_EQ(d.b.graph.tensors.size(), 3u);  // x, the new filter, the output (the old filter is gone)
}

TEST(SingleChannelDepthwise, MovesTheFiltersPerChannelQuantizationAxis) {
  Depthwise d(1, 2);
  for (int t : {0, 2}) d.b.graph.tensors[t].dtype = DType::kInt8;  // x and the output
  ir::Tensor& w = d.b.graph.tensors[d.filter];
  w.dtype = DType::kInt8;
  w.data.assign(12, 0);
  for (size_t i = 0; i < w.data.size(); ++i) w.data[i] = static_cast<uint8_t>(i);
  w.quant = {{0.5f, 0.25f}, {0, 0}, 3};
  d.b.graph.tensors[0].quant = {{0.1f}, {-3}, -1};
  passes::single_channel_depthwise_to_conv(d.b.graph);
  const ir::Node& conv = d.b.graph.nodes[0];
  ASSERT_EQ(conv.op, ir::Op::kConv2d);
  const ir::Tensor& t = d.b.graph.tensors[conv.inputs[1]];
  EXPECT_EQ(t.quant.axis, 0);
  EXPECT_EQ(t.quant.scales, (std::vector<float>{0.5f, 0.25f}));
  EXPECT_EQ(t.data, (std::vector<uint8_t>{0, 2, 4, 6, 8, 10, 1, 3, 5, 7, 9, 11}));
}

TEST(SingleChannelDepthwise, LeavesOtherDepthwiseConvolutionsAlone) {
  Depthwise two_channels(2, 1);
  passes::single_channel_depthwise_to_conv(two_channels.b.graph);
  EXPECT_EQ(two_channels.b.graph.nodes[0].op, ir::Op::kDepthwiseConv2d);
  // 16x8 (int16 activations, int8 filter): its accumulator differs from a convolution's.
  Depthwise int16(1, 2);
  for (int t : {0, 2}) int16.b.graph.tensors[t].dtype = DType::kInt16;
  ir::Tensor& w = int16.b.graph.tensors[int16.filter];
  w.dtype = DType::kInt8;
  w.data.assign(12, 1);
  passes::single_channel_depthwise_to_conv(int16.b.graph);
  EXPECT_EQ(int16.b.graph.nodes[0].op, ir::Op::kDepthwiseConv2d);
}

}  // namespace fuse_test
}  // namespace mote
