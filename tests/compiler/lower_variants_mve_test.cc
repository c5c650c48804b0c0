// Lowering picks the Helium (MVE) int8 convolution and fully connected variants on
// cortex-m55 only: conv2d_s8_1x1__mve for unpadded 1x1 convs, conv2d_s8__mve for other
// groups == 1 convs, fully_connected_s8__mve for every int8 FC; the scratch each needs;
// and never an __mve kernel on cortex-m4 (DSP only), m3, m0plus or the host.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "conv2d/conv2d.h"
#include "fully_connected/fully_connected.h"
#include "ir/graph.h"
#include "lower/lower.h"

namespace mote::lower {
namespace lower_variants_mve_test {

struct QuantGraph {
  ir::Graph graph;

  int add(const std::string& name, ir::Shape shape, bool constant = false,
          DType dtype = DType::kInt8) {
    ir::Tensor t;
    t.name = name;
    t.dtype = dtype;
    t.shape = std::move(shape);
    t.is_constant = constant;
    if (dtype == DType::kInt8) {
      t.quant.scales = {0.05f};
      t.quant.zero_points = {constant ? 0 : -3};
    }
    if (constant) t.data.assign(static_cast<size_t>(t.bytes()), 0);
    return graph.add_tensor(std::move(t));
  }
  void node(ir::Op op, std::vector<int> inputs, int output,
            std::map<std::string, ir::AttrValue> attrs = {}) {
    ir::Node n;
    n.name = "n";
    n.op = op;
    n.inputs = std::move(inputs);
    n.outputs = {output};
    n.attrs = std::move(attrs);
    graph.nodes.push_back(std::move(n));
  }
  LoweredOp lower(Target target) { return lower_node(graph, graph.nodes.back(), target); }
};

// conv2d int8: input [1, h, w, c], filter [o, kh, kw, c], output size from stride/pads.
QuantGraph conv(int64_t h, int64_t w, int64_t c, int64_t o, int64_t kh, int64_t kw,
                int64_t stride, std::vector<int64_t> pads, int64_t group = 1) {
  QuantGraph g;
  const int64_t oh = (h + pads[0] + pads[2] - kh) / stride + 1;
  const int64_t ow = (w + pads[1] + pads[3] - kw) / stride + 1;
  const int x = g.add("x", {1, h, w, c});
  const int f = g.add("w", {o, kh, kw, c / group}, true);
  const int b = g.add("b", {o}, true, DType::kInt32);
  const int y = g.add("y", {1, oh, ow, o});
  g.node(ir::Op::kConv2d, {x, f, b}, y,
         {{"strides", std::vector<int64_t>{stride, stride}},
          {"dilations", std::vector<int64_t>{1, 1}},
          {"pads", pads},
          {"group", group}});
  return g;
}

bool is_mve(KernelId id) {
  return id == KernelId::kConv2dS8Mve || id == KernelId::kConv2dS81x1Mve ||
         id == KernelId::kFullyConnectedS8Mve || id == KernelId::kDepthwiseConv2dS8Mve ||
         id == KernelId::kAddS8Mve || id == KernelId::kAvgPool2dS8Mve ||
         id == KernelId::kMaxPool2dS8Mve;
}

const Target kNonMve[] = {Target::kHost, Target::kCortexM0Plus, Target::kCortexM3,
                          Target::kCortexM4, Target::kCortexM7, Target::kCortexM33};

TEST(LowerVariantsMve, PointwiseConvPicksOneByOne) {
  QuantGraph g = conv(6, 6, 24, 10, 1, 1, 1, {0, 0, 0, 0});
  const LoweredOp op = g.lower(Target::kCortexM55);
  EXPECT_EQ(op.kernel, KernelId::kConv2dS81x1Mve);
  EXPECT_EQ(op.scratch_bytes, conv2d_s8_1x1__mve_scratch_bytes(10));
  for (Target t : kNonMve) EXPECT_FALSE(is_mve(g.lower(t).kernel)) << static_cast<int>(t);
}

TEST(LowerVariantsMve, StridedPointwiseConvPicksOneByOne) {
  QuantGraph g = conv(7, 7, 8, 5, 1, 1, 2, {0, 0, 0, 0});
  EXPECT_EQ(g.lower(Target::kCortexM55).kernel, KernelId::kConv2dS81x1Mve);
}

TEST(LowerVariantsMve, PaddedAndLargerConvsPickGeneral) {
  {
    QuantGraph g = conv(8, 8, 3, 16, 3, 3, 2, {0, 0, 1, 1});
    const LoweredOp op = g.lower(Target::kCortexM55);
    EXPECT_EQ(op.kernel, KernelId::kConv2dS8Mve);
    EXPECT_EQ(op.scratch_bytes, conv2d_s8__mve_scratch_bytes(16, 3, 3, 3));
    for (Target t : kNonMve) EXPECT_FALSE(is_mve(g.lower(t).kernel)) << static_cast<int>(t);
  }
  {
    // 1x1 with padding is not the pointwise variant's shape.
    QuantGraph g = conv(4, 4, 8, 8, 1, 1, 2, {1, 1, 0, 0});
    EXPECT_EQ(g.lower(Target::kCortexM55).kernel, KernelId::kConv2dS8Mve);
  }
}

TEST(LowerVariantsMve, GroupedConvIsNotMve) {
  QuantGraph g = conv(5, 5, 8, 8, 3, 3, 1, {1, 1, 1, 1}, 2);
  const LoweredOp op = g.lower(Target::kCortexM55);
  EXPECT_FALSE(is_mve(op.kernel));
}

TEST(LowerVariantsMve, FullyConnectedPicksMve) {
  QuantGraph g;
  const int x = g.add("x", {2, 37});
  const int w = g.add("w", {11, 37}, true);
  const int b = g.add("b", {11}, true, DType::kInt32);
  const int y = g.add("y", {2, 11});
  g.node(ir::Op::kFullyConnected, {x, w, b}, y);
  const LoweredOp op = g.lower(Target::kCortexM55);
  EXPECT_EQ(op.kernel, KernelId::kFullyConnectedS8Mve);
  EXPECT_EQ(op.scratch_bytes, fully_connected_s8__mve_scratch_bytes());
  EXPECT_EQ(g.lower(Target::kHost).kernel, KernelId::kFullyConnectedS8);
  for (Target t : kNonMve) EXPECT_FALSE(is_mve(g.lower(t).kernel)) << static_cast<int>(t);
}

TEST(LowerVariantsMve, FloatConvTakesTheHeliumFloatVariant) {
  QuantGraph g;
  const int x = g.add("x", {1, 4, 4, 2}, false, DType::kFloat32);
  const int w = g.add("w", {3, 1, 1, 2}, true, DType::kFloat32);
  const int y = g.add("y", {1, 4, 4, 3}, false, DType::kFloat32);
  g.node(ir::Op::kConv2d, {x, w}, y);
  EXPECT_EQ(g.lower(Target::kCortexM55).kernel, KernelId::kConv2dF32Mve);
  EXPECT_EQ(g.lower(Target::kCortexM4).kernel, KernelId::kConv2dF32Fpu);
  EXPECT_EQ(g.lower(Target::kCortexM3).kernel, KernelId::kConv2dF32);
}

}  // namespace lower_variants_mve_test
}  // namespace mote::lower
