// Helium variant choice for int8 DEPTHWISE_CONV_2D, ADD and pooling
// (compiler/lower/variants.cc: select_depthwise_conv2d_s8_mve, select_add_s8_mve,
// select_pool2d_s8_mve). cortex-m55 takes depthwise_conv2d_s8__mve for depth multiplier 1
// (scratch = depthwise_conv2d_s8__mve_scratch_bytes), add_s8__mve for non-broadcast adds,
// max_pool2d_s8__mve for every max pool and avg_pool2d_s8__mve for windows of at most
// kAvgPool2dS8MveMaxTaps cells (no scratch). Other cores never take an __mve kernel;
// parameters never change.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "depthwise_conv2d/depthwise_conv2d.h"
#include "elementwise/elementwise.h"
#include "ir/graph.h"
#include "lower/lower.h"
#include "pool2d/pool2d.h"

namespace mote::lower {
namespace lower_variants_mve_eltwise_test {

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

ir::Graph depthwise_graph(int64_t h, int64_t w, int64_t c, int64_t m, int64_t k, int64_t stride,
                          int64_t pad) {
  ir::Graph g;
  const int64_t oc = c * m;
  const int64_t oh = (h + 2 * pad - k) / stride + 1;
  const int64_t ow = (w + 2 * pad - k) / stride + 1;
  const int x = add_tensor(g, "x", {1, h, w, c}, {0.05f}, -3);
  const int f = add_tensor(g, "f", {1, k, k, oc}, std::vector<float>(oc, 0.01f), 0, true, 3);
  const int y = add_tensor(g, "y", {1, oh, ow, oc}, {0.03f}, 7);
  ir::Node node;
  node.name = "dw";
  node.op = ir::Op::kDepthwiseConv2d;
  node.inputs = {x, f};
  node.outputs = {y};
  node.attrs = {{"strides", std::vector<int64_t>{stride, stride}},
                {"dilations", std::vector<int64_t>{1, 1}},
                {"pads", std::vector<int64_t>{pad, pad, pad, pad}},
                {"depth_multiplier", m}};
  g.nodes.push_back(std::move(node));
  return g;
}

ir::Graph add_graph(const ir::Shape& a, const ir::Shape& b, const ir::Shape& out) {
  ir::Graph g;
  const int x = add_tensor(g, "a", a, {0.05f}, -3);
  const int y = add_tensor(g, "b", b, {0.07f}, 5);
  const int z = add_tensor(g, "y", out, {0.1f}, -1);
  ir::Node node;
  node.name = "add";
  node.op = ir::Op::kAdd;
  node.inputs = {x, y};
  node.outputs = {z};
  g.nodes.push_back(std::move(node));
  return g;
}

ir::Graph pool_graph(bool average, const ir::Shape& in, const ir::Shape& out,
                     std::vector<int64_t> kernel) {
  ir::Graph g;
  const int x = add_tensor(g, "x", in, {0.05f}, 2);
  const int y = add_tensor(g, "y", out, {0.05f}, 2);
  ir::Node node;
  node.name = "pool";
  node.op = average ? ir::Op::kAvgPool2d : ir::Op::kMaxPool2d;
  node.inputs = {x};
  node.outputs = {y};
  node.attrs = {{"kernel", kernel}, {"strides", kernel}, {"pads", std::vector<int64_t>{0, 0, 0, 0}}};
  g.nodes.push_back(std::move(node));
  return g;
}

LoweredOp lower(const ir::Graph& g, Target target) { return lower_node(g, g.nodes.back(), target); }

constexpr Target kOtherTargets[] = {Target::kHost, Target::kCortexM0Plus, Target::kCortexM3,
                                    Target::kCortexM4, Target::kCortexM7, Target::kCortexM33};

bool is_mve(KernelId id) {
  return id == KernelId::kDepthwiseConv2dS8Mve || id == KernelId::kAddS8Mve ||
         id == KernelId::kAvgPool2dS8Mve || id == KernelId::kMaxPool2dS8Mve;
}

TEST(LowerVariantsMveEltwise, DepthMultiplierOneDepthwiseTakesTheMveVariant) {
  const ir::Graph graphs[] = {depthwise_graph(48, 48, 8, 1, 3, 1, 1),
                              depthwise_graph(13, 11, 19, 1, 3, 2, 1),
                              depthwise_graph(10, 10, 33, 1, 5, 1, 0)};
  for (const ir::Graph& g : graphs) {
    const LoweredOp ref = lower(g, Target::kHost);
    ASSERT_EQ(ref.kernel, KernelId::kDepthwiseConv2dS8);
    const LoweredOp op = lower(g, Target::kCortexM55);
    EXPECT_EQ(op.kernel, KernelId::kDepthwiseConv2dS8Mve);
    EXPECT_EQ(op.params, ref.params);
    EXPECT_EQ(op.macs, ref.macs);
    DepthwiseConv2dS8Params p;
    memcpy(&p, ref.params.data(), sizeof p);
    const ir::Shape& in = g.tensors[g.nodes[0].inputs[0]].shape;
    const ir::Shape& f = g.tensors[g.nodes[0].inputs[1]].shape;
    const ir::Shape& out = g.tensors[g.nodes[0].outputs[0]].shape;
    const DepthwiseConv2dShape shape{1,
                                     static_cast<int32_t>(in[1]),
                                     static_cast<int32_t>(in[2]),
                                     static_cast<int32_t>(in[3]),
                                     static_cast<int32_t>(out[1]),
                                     static_cast<int32_t>(out[2]),
                                     static_cast<int32_t>(out[3]),
                                     static_cast<int32_t>(f[1]),
                                     static_cast<int32_t>(f[2])};
    EXPECT_EQ(op.scratch_bytes,
              ref.scratch_bytes + depthwise_conv2d_s8__mve_scratch_bytes(p, shape));
    for (Target t : kOtherTargets) EXPECT_FALSE(is_mve(lower(g, t).kernel)) << static_cast<int>(t);
  }
}

TEST(LowerVariantsMveEltwise, DepthMultiplierTwoDoesNotTakeTheMveVariant) {
  const ir::Graph g = depthwise_graph(8, 8, 4, 2, 3, 1, 1);
  EXPECT_NE(lower(g, Target::kCortexM55).kernel, KernelId::kDepthwiseConv2dS8Mve);
}

TEST(LowerVariantsMveEltwise, SameShapeAddTakesTheMveVariant) {
  const ir::Graph g = add_graph({1, 8, 8, 16}, {1, 8, 8, 16}, {1, 8, 8, 16});
  const LoweredOp ref = lower(g, Target::kHost);
  ASSERT_EQ(ref.kernel, KernelId::kAddS8);
  const LoweredOp op = lower(g, Target::kCortexM55);
  EXPECT_EQ(op.kernel, KernelId::kAddS8Mve);
  EXPECT_EQ(op.params, ref.params);
  EXPECT_EQ(op.scratch_bytes, ref.scratch_bytes);
  EXPECT_EQ(op.in_place_input, ref.in_place_input);
  for (Target t : kOtherTargets) EXPECT_FALSE(is_mve(lower(g, t).kernel)) << static_cast<int>(t);
}

TEST(LowerVariantsMveEltwise, BroadcastAddDoesNotTakeTheMveVariant) {
  for (const ir::Graph& g : {add_graph({1, 8, 8, 16}, {1, 1, 1, 16}, {1, 8, 8, 16}),
                             add_graph({1, 8, 8, 16}, {16}, {1, 8, 8, 16})}) {
    EXPECT_NE(lower(g, Target::kCortexM55).kernel, KernelId::kAddS8Mve);
  }
}

TEST(LowerVariantsMveEltwise, PoolsTakeTheMveVariants) {
  const ir::Graph avg = pool_graph(true, {1, 8, 8, 64}, {1, 1, 1, 64}, {8, 8});
  const ir::Graph max = pool_graph(false, {1, 8, 8, 10}, {1, 4, 4, 10}, {2, 2});
  const LoweredOp avg_op = lower(avg, Target::kCortexM55);
  EXPECT_EQ(avg_op.kernel, KernelId::kAvgPool2dS8Mve);
  EXPECT_EQ(avg_op.params, lower(avg, Target::kHost).params);
  EXPECT_EQ(avg_op.scratch_bytes, lower(avg, Target::kHost).scratch_bytes);
  EXPECT_EQ(lower(max, Target::kCortexM55).kernel, KernelId::kMaxPool2dS8Mve);
  for (Target t : kOtherTargets) {
    EXPECT_FALSE(is_mve(lower(avg, t).kernel)) << static_cast<int>(t);
    EXPECT_FALSE(is_mve(lower(max, t).kernel)) << static_cast<int>(t);
  }
  // A 64 x 64 window (4096 cells) is past the variant's exact division range.
  const ir::Graph big = pool_graph(true, {1, 64, 64, 4}, {1, 1, 1, 4}, {64, 64});
  EXPECT_NE(lower(big, Target::kCortexM55).kernel, KernelId::kAvgPool2dS8Mve);
  const ir::Graph big_max = pool_graph(false, {1, 64, 64, 4}, {1, 1, 1, 4}, {64, 64});
  EXPECT_EQ(lower(big_max, Target::kCortexM55).kernel, KernelId::kMaxPool2dS8Mve);
}

}  // namespace lower_variants_mve_eltwise_test
}  // namespace mote::lower
