// Variant choice on Armv6-M (compiler/lower/variants.cc, select_v6m): cortex-m0plus takes
// conv2d_s8__v6m for every groups == 1 int8 conv, depthwise_conv2d_s8__v6m for depth
// multiplier 1 and fully_connected_s8__v6m for every int8 fully connected layer; the
// convolutions' params are the reference's plus the requant floors (and for the conv with
// a constant filter and bias the folded biases), their scratch the per-channel constants
// (and the window patch of the conv, the 3x3 depthwise windows' patch); grouped convs and
// depth multipliers above 1 keep the references; no other target ever gets a __v6m kernel.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "conv2d/conv2d.h"
#include "depthwise_conv2d/depthwise_conv2d.h"
#include "ir/graph.h"
#include "lower/lower.h"

namespace mote::lower {
namespace lower_variants_v6m_test {

int add_tensor(ir::Graph& g, const std::string& name, ir::Shape shape, std::vector<float> scales,
               int32_t zp, bool constant = false, int32_t axis = -1) {
  ir::Tensor t;
  t.name = name;
  t.dtype = DType::kInt8;
  t.shape = std::move(shape);
  t.is_constant = constant;
  t.quant.zero_points.assign(scales.size(), zp);
  t.quant.scales = std::move(scales);
  t.quant.axis = axis;
  if (constant) t.data.assign(static_cast<size_t>(t.bytes()), 1);
  return g.add_tensor(std::move(t));
}

int add_bias(ir::Graph& g, int64_t n) {
  ir::Tensor t;
  t.name = "b";
  t.dtype = DType::kInt32;
  t.shape = {n};
  t.is_constant = true;
  t.data.assign(static_cast<size_t>(t.bytes()), 0);
  return g.add_tensor(std::move(t));
}

// 8x8 input with c channels, o outputs, a k x k window with padding pad on every side.
ir::Graph conv_graph(int64_t c, int64_t o, int64_t k, int64_t pad, int64_t group) {
  ir::Graph g;
  const int64_t out = 8 + 2 * pad - k + 1;
  const int x = add_tensor(g, "x", {1, 8, 8, c}, {0.05f}, -3);
  const int w = add_tensor(g, "w", {o, k, k, c / group}, std::vector<float>(o, 0.01f), 0, true, 0);
  const int b = add_bias(g, o);
  const int y = add_tensor(g, "y", {1, out, out, o}, {0.03f}, 7);
  ir::Node node;
  node.name = "conv";
  node.op = ir::Op::kConv2d;
  node.inputs = {x, w, b};
  node.outputs = {y};
  node.attrs = {{"strides", std::vector<int64_t>{1, 1}},
                {"dilations", std::vector<int64_t>{1, 1}},
                {"pads", std::vector<int64_t>{pad, pad, pad, pad}},
                {"group", group}};
  g.nodes.push_back(std::move(node));
  return g;
}

ir::Graph depthwise_graph(int64_t c, int64_t m, int64_t k) {
  ir::Graph g;
  const int64_t oc = c * m;
  const int x = add_tensor(g, "x", {1, 8, 8, c}, {0.05f}, -3);
  const int f = add_tensor(g, "f", {1, k, k, oc}, std::vector<float>(oc, 0.01f), 0, true, 3);
  const int b = add_bias(g, oc);
  const int y = add_tensor(g, "y", {1, 8, 8, oc}, {0.03f}, 7);
  ir::Node node;
  node.name = "dw";
  node.op = ir::Op::kDepthwiseConv2d;
  node.inputs = {x, f, b};
  node.outputs = {y};
  const int64_t pad = (k - 1) / 2;
  node.attrs = {{"strides", std::vector<int64_t>{1, 1}},
                {"dilations", std::vector<int64_t>{1, 1}},
                {"pads", std::vector<int64_t>{pad, pad, pad, pad}},
                {"depth_multiplier", m},
                {"act_min", 0.0},
                {"act_max", 6.0}};
  g.nodes.push_back(std::move(node));
  return g;
}

ir::Graph fc_graph(int64_t batches, int64_t k, int64_t n, bool per_channel) {
  ir::Graph g;
  const int x = add_tensor(g, "x", {batches, k}, {0.1f}, 5);
  const int w = per_channel
                    ? add_tensor(g, "w", {n, k}, std::vector<float>(n, 0.003f), 0, true, 0)
                    : add_tensor(g, "w", {n, k}, {0.003f}, 0, true);
  const int b = add_bias(g, n);
  const int y = add_tensor(g, "y", {batches, n}, {0.07f}, -1);
  ir::Node node;
  node.name = "fc";
  node.op = ir::Op::kFullyConnected;
  node.inputs = {x, w, b};
  node.outputs = {y};
  g.nodes.push_back(std::move(node));
  return g;
}

LoweredOp lower(const ir::Graph& g, Target target) { return lower_node(g, g.nodes.back(), target); }

constexpr Target kOtherTargets[] = {Target::kHost, Target::kCortexM3, Target::kCortexM4,
                                    Target::kCortexM7, Target::kCortexM33, Target::kCortexM55};

bool is_v6m(KernelId id) {
  return id == KernelId::kConv2dS8V6m || id == KernelId::kDepthwiseConv2dS8V6m ||
         id == KernelId::kFullyConnectedS8V6m;
}

// The M0+ choice for g is `expected`, with the reference's params followed by
// `extra_arrays` int32 arrays of `channels` (the __v6m convolutions' requant floors, then
// the conv's folded biases), the reference's MACs and its scratch plus `extra_scratch`
// (the per-channel constants and window patch of the folded conv and 3x3 depthwise
// paths; on the conv's 1x1 path with even channel counts two pixels' packed inputs); no other target picks a __v6m kernel. Returns the M0+ op.
LoweredOp expect_choice(const ir::Graph& g, KernelId reference, KernelId expected, uint32_t extra_scratch = 0,
                        uint32_t extra_arrays = 0, uint32_t channels = 0) {
  const LoweredOp ref = lower(g, Target::kHost);
  EXPECT_EQ(ref.kernel, reference);
  const LoweredOp op = lower(g, Target::kCortexM0Plus);
  EXPECT_EQ(op.kernel, expected);
  EXPECT_EQ(op.params.size(), ref.params.size() + 4 * size_t{extra_arrays} * channels);
  EXPECT_TRUE(op.params.size() >= ref.params.size() &&
              std::equal(ref.params.begin(), ref.params.end(), op.params.begin()));
  EXPECT_EQ(op.macs, ref.macs);
  EXPECT_EQ(op.scratch_bytes, ref.scratch_bytes + extra_scratch);
  for (Target t : kOtherTargets) EXPECT_FALSE(is_v6m(lower(g, t).kernel)) << static_cast<int>(t);
  return op;
}

// The floors in a __v6m op's params (the third int32 array) are the kernel's own.
template <typename P, typename FloorsFn>
void expect_floors(const LoweredOp& op, uint32_t channels, FloorsFn floors_fn) {
  ASSERT_GE(op.params.size(), sizeof(P) + 12 * size_t{channels});
  P p;
  std::memcpy(&p, op.params.data(), sizeof(P));
  std::vector<int32_t> arrays(3 * size_t{channels});
  std::memcpy(arrays.data(), op.params.data() + sizeof(P), arrays.size() * 4);
  std::vector<int32_t> floors(channels);
  floors_fn(p, arrays.data(), arrays.data() + channels, static_cast<int32_t>(channels), floors.data());
  EXPECT_EQ(std::vector<int32_t>(arrays.begin() + 2 * channels, arrays.end()), floors);
}

// Floors and folded biases appended (constant filter and bias); scratch: 24 bytes per
// output channel, plus the window patch (KH * KW * C rounded up to 4) but for 1x1.
TEST(LowerVariantsV6m, Conv2dTakesTheV6mVariant) {
  const LoweredOp pointwise =
      expect_choice(conv_graph(16, 32, 1, 0, 1), KernelId::kConv2dS8, KernelId::kConv2dS8V6m, 24 * 32 + 4 * 16, 2, 32);
  expect_floors<Conv2dS8Params>(pointwise, 32, conv2d_s8__v6m_floors);
  expect_choice(conv_graph(3, 8, 3, 1, 1), KernelId::kConv2dS8, KernelId::kConv2dS8V6m, 24 * 8 + 28, 2, 8);
  expect_choice(conv_graph(5, 7, 5, 2, 1), KernelId::kConv2dS8, KernelId::kConv2dS8V6m, 24 * 7 + 128, 2, 7);
}

TEST(LowerVariantsV6m, GroupedConvKeepsTheReference) {
  expect_choice(conv_graph(8, 8, 3, 1, 2), KernelId::kConv2dS8, KernelId::kConv2dS8);
}

TEST(LowerVariantsV6m, DepthwiseWithMultiplierOneTakesTheV6mVariant) {
  const LoweredOp dw = expect_choice(depthwise_graph(8, 1, 3), KernelId::kDepthwiseConv2dS8,
                                     KernelId::kDepthwiseConv2dS8V6m, 24 * 8 + 9 * 8, 1, 8);
  expect_floors<DepthwiseConv2dS8Params>(dw, 8, depthwise_conv2d_s8__v6m_floors);
  expect_choice(depthwise_graph(13, 1, 5), KernelId::kDepthwiseConv2dS8,
                KernelId::kDepthwiseConv2dS8V6m, 0, 1, 13);
  expect_choice(depthwise_graph(4, 2, 3), KernelId::kDepthwiseConv2dS8,
                KernelId::kDepthwiseConv2dS8);
}

TEST(LowerVariantsV6m, EveryFullyConnectedTakesTheV6mVariant) {
  for (const ir::Graph& g : {fc_graph(1, 640, 128, false), fc_graph(1, 128, 8, true),
                             fc_graph(3, 37, 5, false), fc_graph(1, 4000, 4, false)}) {
    expect_choice(g, KernelId::kFullyConnectedS8, KernelId::kFullyConnectedS8V6m);
  }
}

}  // namespace lower_variants_v6m_test
}  // namespace mote::lower
