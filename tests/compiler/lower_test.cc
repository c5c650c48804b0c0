// Lowering of single Mote nodes: kernel choice, parameter structs filled from attributes,
// MAC counts, and one-line errors that name the node.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "activation/activation.h"
#include "common/error.h"
#include "concat/concat.h"
#include "conv2d/conv2d.h"
#include "depthwise_conv2d/depthwise_conv2d.h"
#include "elementwise/elementwise.h"
#include "fully_connected/fully_connected.h"
#include "group_norm/group_norm.h"
#include "ir/graph.h"
#include "layer_norm/layer_norm.h"
#include "lower/lower.h"
#include "mean/mean.h"
#include "pad/pad.h"
#include "pool2d/pool2d.h"
#include "softmax/softmax.h"
#include "transpose/transpose.h"

namespace mote::lower {
namespace lower_test {

constexpr float kInf = std::numeric_limits<float>::infinity();

// A graph holding one node: inputs (constant when `constant` is set) and one output.
struct OneNode {
  ir::Graph graph;

  int add(const std::string& name, ir::Shape shape, bool constant = false, DType dtype = DType::kFloat32) {
    ir::Tensor t;
    t.name = name;
    t.dtype = dtype;
    t.shape = std::move(shape);
    t.is_constant = constant;
    if (constant) t.data.assign(static_cast<size_t>(t.bytes()), 0);
    return graph.add_tensor(std::move(t));
  }
  const ir::Node& node(ir::Op op, std::vector<int> inputs, int output,
                       std::map<std::string, ir::AttrValue> attrs = {}) {
    ir::Node n;
    n.name = "n1";
    n.op = op;
    n.inputs = std::move(inputs);
    n.outputs = {output};
    n.attrs = std::move(attrs);
    graph.nodes.push_back(std::move(n));
    return graph.nodes.back();
  }
  LoweredOp lower(Target target = Target::kHost) { return lower_node(graph, graph.nodes.back(), target); }
};

template <typename P>
P params_of(const LoweredOp& op) {
  EXPECT_EQ(op.params.size(), sizeof(P));
  P p{};
  if (op.params.size() == sizeof(P)) std::memcpy(&p, op.params.data(), sizeof(P));
  return p;
}

// The message of the CompileError `fn` throws ("" if none).
template <typename Fn>
std::string error_of(Fn fn) {
  try {
    fn();
  } catch (const CompileError& e) {
    return e.what();
  }
  return "";
}

TEST(Lower, Conv2dParamsAndMacs) {
  OneNode g;
  const int x = g.add("x", {1, 8, 8, 4});
  const int w = g.add("w", {6, 3, 3, 2}, true);
  const int b = g.add("b", {6}, true);
  const int y = g.add("y", {1, 4, 4, 6});
  g.node(ir::Op::kConv2d, {x, w, b}, y,
         {{"strides", std::vector<int64_t>{2, 2}},
          {"dilations", std::vector<int64_t>{1, 1}},
          {"pads", std::vector<int64_t>{1, 2, 1, 0}},
          {"group", int64_t{2}},
          {"act_min", 0.0},
          {"act_max", 6.0}});
  const LoweredOp op = g.lower();
  EXPECT_EQ(op.kernel, KernelId::kConv2dF32);
  const auto p = params_of<Conv2dParams>(op);
  EXPECT_EQ(p.window.stride_h, 2);
  EXPECT_EQ(p.window.stride_w, 2);
  EXPECT_EQ(p.window.dilation_h, 1);
  EXPECT_EQ(p.window.pad_top, 1);
  EXPECT_EQ(p.window.pad_left, 2);
  EXPECT_EQ(p.window.pad_bottom, 1);
  EXPECT_EQ(p.window.pad_right, 0);
  EXPECT_EQ(p.groups, 2);
  EXPECT_EQ(p.act_min, 0.0f);
  EXPECT_EQ(p.act_max, 6.0f);
  // out elements 4*4*6 = 96, each 3*3*(4/2) taps.
  EXPECT_EQ(op.macs, 96u * 18u);
  EXPECT_EQ(op.scratch_bytes, 0u);
}

TEST(Lower, Conv2dDefaultsAreStride1NoPadNoActivation) {
  OneNode g;
  const int x = g.add("x", {1, 5, 5, 3});
  const int w = g.add("w", {2, 3, 3, 3}, true);
  const int y = g.add("y", {1, 3, 3, 2});
  g.node(ir::Op::kConv2d, {x, w}, y);
  const auto p = params_of<Conv2dParams>(g.lower());
  EXPECT_EQ(p.window.stride_h, 1);
  EXPECT_EQ(p.window.dilation_w, 1);
  EXPECT_EQ(p.window.pad_top, 0);
  EXPECT_EQ(p.groups, 1);
  EXPECT_EQ(p.act_min, -kInf);
  EXPECT_EQ(p.act_max, kInf);
}

TEST(Lower, Conv2dRefusesAWrongOutputShapeNamingTheNode) {
  OneNode g;
  const int x = g.add("x", {1, 8, 8, 3});
  const int w = g.add("w", {4, 3, 3, 3}, true);
  const int y = g.add("y", {1, 8, 8, 4});
  g.node(ir::Op::kConv2d, {x, w}, y);
  EXPECT_EQ(error_of([&] { g.lower(); }),
            "node 'n1' (conv2d): output 'y' has shape [1,8,8,4], expected [1,6,6,4]");
}

TEST(Lower, Conv2dRefusesFilterChannelsThatDoNotMatchTheGroup) {
  OneNode g;
  const int x = g.add("x", {1, 8, 8, 4});
  const int w = g.add("w", {4, 3, 3, 4}, true);
  const int y = g.add("y", {1, 6, 6, 4});
  g.node(ir::Op::kConv2d, {x, w}, y, {{"group", int64_t{2}}});
  EXPECT_EQ(error_of([&] { g.lower(); }),
            "node 'n1' (conv2d): filter 'w' has shape [4,3,3,4], expected dim 3 = input channels / "
            "group = 2");
}

TEST(Lower, DepthwiseParamsAndMacs) {
  OneNode g;
  const int x = g.add("x", {1, 5, 5, 3});
  const int w = g.add("w", {1, 3, 3, 6}, true);
  const int y = g.add("y", {1, 3, 3, 6});
  g.node(ir::Op::kDepthwiseConv2d, {x, w}, y, {{"depth_multiplier", int64_t{2}}});
  const LoweredOp op = g.lower();
  EXPECT_EQ(op.kernel, KernelId::kDepthwiseConv2dF32);
  const auto p = params_of<DepthwiseConv2dParams>(op);
  EXPECT_EQ(p.depth_multiplier, 2);
  EXPECT_EQ(op.macs, 54u * 9u);
}

TEST(Lower, DepthwiseRefusesAMultiplierThatDoesNotMatchTheFilter) {
  OneNode g;
  const int x = g.add("x", {1, 5, 5, 3});
  const int w = g.add("w", {1, 3, 3, 6}, true);
  const int y = g.add("y", {1, 3, 3, 6});
  g.node(ir::Op::kDepthwiseConv2d, {x, w}, y, {{"depth_multiplier", int64_t{3}}});
  EXPECT_EQ(error_of([&] { g.lower(); }),
            "node 'n1' (depthwise_conv2d): filter 'w' has 6 channels, expected input channels 3 * "
            "depth_multiplier 3");
}

TEST(Lower, FullyConnectedMacsUseTheBatch) {
  OneNode g;
  const int x = g.add("x", {2, 3, 10});
  const int w = g.add("w", {4, 10}, true);
  const int y = g.add("y", {6, 4});
  g.node(ir::Op::kFullyConnected, {x, w, ir::kNoTensor}, y, {{"act_max", 1.5}});
  const LoweredOp op = g.lower();
  EXPECT_EQ(op.kernel, KernelId::kFullyConnectedF32);
  EXPECT_EQ(op.macs, 6u * 4u * 10u);
  const auto p = params_of<FullyConnectedParams>(op);
  EXPECT_EQ(p.act_min, -kInf);
  EXPECT_EQ(p.act_max, 1.5f);
}

TEST(Lower, FullyConnectedRefusesMismatchedWeights) {
  OneNode g;
  const int x = g.add("x", {1, 10});
  const int w = g.add("w", {4, 12}, true);
  const int y = g.add("y", {1, 4});
  g.node(ir::Op::kFullyConnected, {x, w}, y);
  EXPECT_EQ(error_of([&] { g.lower(); }),
            "node 'n1' (fully_connected): weights 'w' has shape [4,12], expected [N,10] to match "
            "input [1,10]");
}

TEST(Lower, BatchMatMulBroadcastsBatchDims) {
  OneNode g;
  const int a = g.add("a", {2, 1, 3, 5});
  const int b = g.add("b", {4, 5, 6});
  const int y = g.add("y", {2, 4, 3, 6});
  g.node(ir::Op::kBatchMatMul, {a, b}, y);
  const LoweredOp op = g.lower();
  EXPECT_EQ(op.kernel, KernelId::kBatchMatMulF32);
  EXPECT_EQ(op.macs, 8u * 3u * 6u * 5u);
}

TEST(Lower, ElementwiseOpsHaveNoMacsAndTheirOwnKernels) {
  const std::pair<ir::Op, KernelId> ops[] = {{ir::Op::kAdd, KernelId::kAddF32},
                                              {ir::Op::kSub, KernelId::kSubF32},
                                              {ir::Op::kMul, KernelId::kMulF32},
                                              {ir::Op::kDiv, KernelId::kDivF32}};
  for (const auto& [name, kernel] : ops) {
    OneNode g;
    const int a = g.add("a", {2, 1, 4});
    const int b = g.add("b", {3, 1});
    const int y = g.add("y", {2, 3, 4});
    g.node(name, {a, b}, y, {{"act_min", -2.0}});
    const LoweredOp op = g.lower();
    EXPECT_EQ(op.kernel, kernel) << name;
    EXPECT_EQ(op.macs, 0u);
    EXPECT_EQ(params_of<BinaryParams>(op).act_min, -2.0f);
  }
}

TEST(Lower, ElementwiseRefusesShapesThatDoNotBroadcast) {
  OneNode g;
  const int a = g.add("a", {2, 3});
  const int b = g.add("b", {4});
  const int y = g.add("y", {2, 4});
  g.node(ir::Op::kAdd, {a, b}, y);
  EXPECT_EQ(error_of([&] { g.lower(); }),
            "node 'n1' (add): inputs 'a' [2,3] and 'b' [4] do not broadcast");
}

TEST(Lower, ClampSoftmaxSigmoid) {
  {
    OneNode g;
    const int x = g.add("x", {4});
    g.node(ir::Op::kClamp, {x}, g.add("y", {4}), {{"min", 0.0}, {"max", 6.0}});
    const auto p = params_of<ClampParams>(g.lower());
    EXPECT_EQ(p.min, 0.0f);
    EXPECT_EQ(p.max, 6.0f);
  }
  {
    OneNode g;
    const int x = g.add("x", {2, 5});
    g.node(ir::Op::kSoftmax, {x}, g.add("y", {2, 5}), {{"beta", 0.5}});
    EXPECT_EQ(params_of<SoftmaxParams>(g.lower()).beta, 0.5f);
  }
  {
    OneNode g;
    const int x = g.add("x", {2, 5});
    g.node(ir::Op::kSigmoid, {x}, g.add("y", {2, 5}));
    const LoweredOp op = g.lower();
    EXPECT_EQ(op.kernel, KernelId::kSigmoidF32);
    EXPECT_TRUE(op.params.empty());
  }
}

TEST(Lower, PoolParamsAcceptFloorAndCeilOutputs) {
  for (int64_t out : {3, 4}) {  // (7 - 3) / 2 + 1 = 3 (floor), ceil mode gives 4 with pad 1
    OneNode g;
    const int x = g.add("x", {1, 7, 7, 2});
    const int y = g.add("y", {1, out, out, 2});
    g.node(ir::Op::kAvgPool2d, {x}, y,
           {{"kernel", std::vector<int64_t>{3, 3}},
            {"strides", std::vector<int64_t>{2, 2}},
            {"pads", std::vector<int64_t>{0, 0, out == 4 ? 1 : 0, out == 4 ? 1 : 0}},
            {"count_include_pad", int64_t{1}}});
    const LoweredOp op = g.lower();
    EXPECT_EQ(op.kernel, KernelId::kAvgPool2dF32);
    const auto p = params_of<Pool2dParams>(op);
    EXPECT_EQ(p.kernel_h, 3);
    EXPECT_EQ(p.window.stride_w, 2);
    EXPECT_EQ(p.count_include_pad, 1);
  }
  OneNode g;
  const int x = g.add("x", {1, 7, 7, 2});
  g.node(ir::Op::kMaxPool2d, {x}, g.add("y", {1, 5, 5, 2}), {{"kernel", std::vector<int64_t>{3, 3}}});
  EXPECT_EQ(params_of<Pool2dParams>(g.lower()).count_include_pad, 0);

  OneNode missing;
  const int mx = missing.add("x", {1, 7, 7, 2});
  missing.node(ir::Op::kMaxPool2d, {mx}, missing.add("y", {1, 5, 5, 2}));
  EXPECT_EQ(error_of([&] { missing.lower(); }), "node 'n1' (max_pool2d): attribute 'kernel' is required");
}

TEST(Lower, MeanTransposeConcatPad) {
  {
    OneNode g;
    const int x = g.add("x", {1, 4, 4, 8});
    g.node(ir::Op::kMean, {x}, g.add("y", {1, 1, 1, 8}), {{"axes", std::vector<int64_t>{1, 2}}});
    const LoweredOp op = g.lower();
    EXPECT_EQ(op.kernel, KernelId::kMeanF32);
    EXPECT_EQ(params_of<MeanParams>(op).axes_mask, 0b0110u);
  }
  {
    OneNode g;
    const int x = g.add("x", {2, 3, 4});
    g.node(ir::Op::kTranspose, {x}, g.add("y", {4, 2, 3}), {{"perm", std::vector<int64_t>{2, 0, 1}}});
    const auto p = params_of<TransposeParams>(g.lower());
    EXPECT_EQ(p.perm[0], 2u);
    EXPECT_EQ(p.perm[1], 0u);
    EXPECT_EQ(p.perm[2], 1u);
  }
  {
    OneNode g;
    const int a = g.add("a", {2, 3});
    const int b = g.add("b", {2, 5}, true);
    g.node(ir::Op::kConcat, {a, b}, g.add("y", {2, 8}), {{"axis", int64_t{1}}});
    const LoweredOp op = g.lower();
    EXPECT_EQ(op.kernel, KernelId::kConcat);
    EXPECT_EQ(params_of<ConcatParams>(op).axis, 1u);
  }
  {
    OneNode g;
    const int x = g.add("x", {1, 3, 3, 2});
    g.node(ir::Op::kPad, {x}, g.add("y", {1, 5, 4, 2}),
           {{"pads", std::vector<int64_t>{0, 1, 0, 0, 0, 1, 1, 0}}, {"mode", std::string("constant")},
            {"value", 2.5}});
    const auto p = params_of<PadParams>(g.lower());
    EXPECT_EQ(p.mode, static_cast<uint32_t>(PadMode::kConstant));
    EXPECT_EQ(p.before[1], 1);
    EXPECT_EQ(p.after[1], 1);
    EXPECT_EQ(p.after[2], 1);
    float value;
    std::memcpy(&value, p.value, 4);
    EXPECT_EQ(value, 2.5f);
  }
}

TEST(Lower, DataMovementOpsWorkOnAnyDtype) {
  OneNode g;
  const int x = g.add("x", {2, 3}, false, DType::kInt8);
  g.node(ir::Op::kTranspose, {x}, g.add("y", {3, 2}, false, DType::kInt8), {{"perm", std::vector<int64_t>{1, 0}}});
  EXPECT_EQ(g.lower().kernel, KernelId::kTranspose);

  OneNode r;
  const int rx = r.add("x", {2, 3}, false, DType::kInt8);
  r.node(ir::Op::kReshape, {rx}, r.add("y", {6}, false, DType::kInt8));
  EXPECT_EQ(r.lower().kernel, KernelId::kCopy);
}

TEST(Lower, NormalizationParamsAndRefusals) {
  {
    OneNode g;
    const int x = g.add("x", {2, 3, 4});
    g.node(ir::Op::kLayerNorm, {x, g.add("s", {12}, true), g.add("b", {3, 4}, true)}, g.add("y", {2, 3, 4}),
           {{"axis", int64_t{1}}, {"epsilon", 1e-3}});
    const LoweredOp op = g.lower();
    EXPECT_EQ(op.kernel, KernelId::kLayerNormF32);
    const auto p = params_of<LayerNormParams>(op);
    EXPECT_EQ(p.axis, 1u);
    EXPECT_EQ(p.epsilon, 1e-3f);
  }
  {
    OneNode g;
    const int x = g.add("x", {2, 3, 4});
    g.node(ir::Op::kLayerNorm, {x, g.add("s", {4}, true)}, g.add("y", {2, 3, 4}), {{"axis", int64_t{1}}});
    EXPECT_EQ(error_of([&] { g.lower(); }), "node 'n1' (layer_norm): scale 's' has shape [4], expected 12 elements");
  }
  {
    OneNode g;
    const int x = g.add("x", {2, 3});
    g.node(ir::Op::kLayerNorm, {x, g.add("s", {3}, true)}, g.add("y", {2, 3}), {{"axis", int64_t{2}}});
    EXPECT_EQ(error_of([&] { g.lower(); }), "node 'n1' (layer_norm): axis 2 out of range for rank 2");
  }
  {
    OneNode g;
    const int x = g.add("x", {1, 5, 5, 8});
    g.node(ir::Op::kGroupNorm, {x, g.add("s", {8}, true), g.add("b", {8}, true)}, g.add("y", {1, 5, 5, 8}),
           {{"groups", int64_t{4}}, {"epsilon", 1e-5}});
    const LoweredOp op = g.lower();
    EXPECT_EQ(op.kernel, KernelId::kGroupNormF32);
    EXPECT_EQ(params_of<GroupNormParams>(op).groups, 4u);
  }
  {
    OneNode g;
    const int x = g.add("x", {1, 5, 5, 8});
    g.node(ir::Op::kGroupNorm, {x, g.add("s", {8}, true)}, g.add("y", {1, 5, 5, 8}), {{"groups", int64_t{3}}});
    EXPECT_EQ(error_of([&] { g.lower(); }), "node 'n1' (group_norm): groups 3 does not divide the 8 channels");
  }
  {
    OneNode g;
    const int x = g.add("x", {1, 8}, false, DType::kInt8);
    g.node(ir::Op::kGroupNorm, {x, g.add("s", {8}, true)}, g.add("y", {1, 8}, false, DType::kInt8),
           {{"groups", int64_t{2}}});
    EXPECT_EQ(error_of([&] { g.lower(); }), "node 'n1' (group_norm): quantized group_norm has no integer kernel");
  }
}

TEST(Lower, ErrorsNameTheNodeAndTheProblem) {
  {
    OneNode g;
    const int x = g.add("x", {2, 3}, false, DType::kInt8);
    g.node(ir::Op::kSigmoid, {x}, g.add("y", {2, 3}, false, DType::kInt8));
    // int8 goes to the integer kernels, which need the tensor's quantization.
    EXPECT_EQ(error_of([&] { g.lower(); }),
              "node 'n1' (sigmoid): input 'x' (int8) has no quantization parameters");
  }
  {
    OneNode g;
    const int x = g.add("x", {2, 3});
    g.node(ir::Op::kTranspose, {x}, g.add("y", {3, 2}), {{"perm", std::vector<int64_t>{0, 0}}});
    EXPECT_EQ(error_of([&] { g.lower(); }),
              "node 'n1' (transpose): perm [0,0] is not a permutation of 0..1");
  }
  {
    OneNode g;
    const int x = g.add("x", {1, 2});
    g.node(ir::Op::kPad, {x}, g.add("y", {1, 8}),
           {{"pads", std::vector<int64_t>{0, 3, 0, 3}}, {"mode", std::string("reflect")}});
    EXPECT_EQ(error_of([&] { g.lower(); }),
              "node 'n1' (pad): reflect padding 3/3 on axis 1 must be smaller than the dim 2");
  }
  {
    OneNode g;
    const int x = g.add("x", {2, 3});
    g.node(ir::Op::kReshape, {x}, g.add("y", {7}));
    EXPECT_EQ(error_of([&] { g.lower(); }),
              "node 'n1' (reshape): output 'y' has shape [7] (7 elements), expected 6 elements like "
              "input [2,3]");
  }
  {
    OneNode g;
    const int x = g.add("x", {4});
    g.node(ir::Op::kClamp, {x}, g.add("y", {4}), {{"min", 3.0}, {"max", 1.0}});
    EXPECT_NE(error_of([&] { g.lower(); }).find("node 'n1' (clamp): range [3.000000, 1.000000] is empty"),
              std::string::npos);
  }
  {
    OneNode g;
    const int x = g.add("x", {1, 1, 1, 1, 1, 1, 2});
    g.node(ir::Op::kSigmoid, {x}, g.add("y", {1, 1, 1, 1, 1, 1, 2}));
    EXPECT_EQ(error_of([&] { g.lower(); }),
              "node 'n1' (sigmoid): tensor 'x' has rank 7, at most 6 is supported");
  }
}

TEST(Lower, EveryTargetChoosesAKernel) {
  for (const TargetInfo& target : targets()) {
    const std::string name = target.name;
    OneNode g;
    const int x = g.add("x", {1, 5, 5, 3});
    const int w = g.add("w", {2, 3, 3, 3}, true);
    g.node(ir::Op::kConv2d, {x, w}, g.add("y", {1, 3, 3, 2}));
    // The float variants where the core has Helium float or an FPU, else the reference.
    const KernelId expected = target.isa.mve ? KernelId::kConv2dF32Mve
                              : target.isa.fpu ? KernelId::kConv2dF32Fpu
                                               : KernelId::kConv2dF32;
    EXPECT_EQ(g.lower(parse_target(name)).kernel, expected) << name;
  }
  EXPECT_EQ(error_of([] { parse_target("cortex-m85"); }),
            "unknown target 'cortex-m85' (expected one of: host, cortex-m0plus, cortex-m3, cortex-m4, "
            "cortex-m7, cortex-m33, cortex-m55)");
}

TEST(Targets, OneTableInTargetOrder) {
  ASSERT_EQ(targets().size(), 7u);
  for (size_t i = 0; i < targets().size(); ++i) {
    const TargetInfo& t = targets()[i];
    EXPECT_EQ(static_cast<size_t>(t.target), i);
    EXPECT_EQ(&target_info(t.target), &t);
    EXPECT_EQ(parse_target(t.name), t.target);
    EXPECT_EQ(t.qemu_machine == nullptr, t.target == Target::kHost) << t.name;
  }
  EXPECT_EQ(target_list(true, "qemu-"),
            "qemu-cortex-m0plus, qemu-cortex-m3, qemu-cortex-m4, qemu-cortex-m7, qemu-cortex-m33, qemu-cortex-m55");
  // Only the DSP cores take the __dsp variants, only the M55 the Helium ones, only the
  // M0+ the Armv6-M ones.
  EXPECT_TRUE(target_info(Target::kCortexM55).isa.mve && target_info(Target::kCortexM55).isa.dsp);
  for (Target t : {Target::kCortexM4, Target::kCortexM7, Target::kCortexM33})
    EXPECT_TRUE(target_info(t).isa.dsp && !target_info(t).isa.mve && !target_info(t).isa.v6m);
  for (Target t : {Target::kHost, Target::kCortexM3})
    EXPECT_FALSE(target_info(t).isa.dsp || target_info(t).isa.mve || target_info(t).isa.v6m);
  EXPECT_TRUE(target_info(Target::kCortexM0Plus).isa.v6m);
  // The hard-float cores take the __fpu variants; the soft-float ones and the host do not.
  for (Target t : {Target::kCortexM4, Target::kCortexM7, Target::kCortexM33, Target::kCortexM55})
    EXPECT_TRUE(target_info(t).isa.fpu);
  for (Target t : {Target::kHost, Target::kCortexM0Plus, Target::kCortexM3}) EXPECT_FALSE(target_info(t).isa.fpu);
}

}  // namespace lower_test
}  // namespace mote::lower
