// Variant choice for int16 (16x8) MUL and MEAN (compiler/lower/variants.cc): every MUL
// the reference takes, broadcasting or not, runs mul_s16__mve on cortex-m55,
// mul_s16__dsp on cortex-m4 / m7 / m33 and mul_s16__v6m on cortex-m0plus; a MEAN whose
// kept and reduced elements each form one strided run (the global average pool over H, W
// of NHWC, the innermost axes) runs mean_s16__mve / __dsp / __v6m, any other axis set
// keeps mean_s16. The host and cortex-m3 keep the references. Params, scratch and the
// in-place input are the reference's.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ir/graph.h"
#include "lower/lower.h"

namespace mote::lower {
namespace lower_variants_mul_mean16_test {

int add_tensor(ir::Graph& g, const std::string& name, ir::Shape shape, float scale) {
  ir::Tensor t;
  t.name = name;
  t.dtype = DType::kInt16;
  t.shape = std::move(shape);
  t.quant.scales = {scale};
  t.quant.zero_points = {0};
  t.quant.axis = -1;
  return g.add_tensor(std::move(t));
}

ir::Graph mul_graph(const ir::Shape& a, const ir::Shape& b, const ir::Shape& out) {
  ir::Graph g;
  const int x = add_tensor(g, "a", a, 0.000134f);
  const int y = add_tensor(g, "b", b, 0.000128f);
  const int z = add_tensor(g, "y", out, 0.000283f);
  ir::Node node;
  node.name = "mul";
  node.op = ir::Op::kMul;
  node.inputs = {x, y};
  node.outputs = {z};
  g.nodes.push_back(std::move(node));
  return g;
}

ir::Graph mean_graph(const ir::Shape& in, const ir::Shape& out, std::vector<int64_t> axes) {
  ir::Graph g;
  const int x = add_tensor(g, "x", in, 0.0003f);
  const int y = add_tensor(g, "y", out, 0.0001f);
  ir::Node node;
  node.name = "mean";
  node.op = ir::Op::kMean;
  node.inputs = {x};
  node.outputs = {y};
  node.attrs = {{"axes", axes}};
  g.nodes.push_back(std::move(node));
  return g;
}

LoweredOp lower(const ir::Graph& g, Target target) { return lower_node(g, g.nodes.back(), target); }

// g's op: `reference` on the host and cortex-m3, the variants on the other cores.
void expect_choices(const ir::Graph& g, KernelId reference, KernelId dsp, KernelId mve, KernelId v6m) {
  const LoweredOp ref = lower(g, Target::kHost);
  ASSERT_EQ(ref.kernel, reference);
  const struct {
    Target target;
    KernelId kernel;
  } cores[] = {{Target::kCortexM3, reference}, {Target::kCortexM4, dsp},   {Target::kCortexM7, dsp},
               {Target::kCortexM33, dsp},      {Target::kCortexM55, mve}, {Target::kCortexM0Plus, v6m}};
  for (const auto& core : cores) {
    const LoweredOp op = lower(g, core.target);
    EXPECT_EQ(op.kernel, core.kernel) << static_cast<int>(core.target);
    EXPECT_EQ(op.params, ref.params);
    EXPECT_EQ(op.scratch_bytes, ref.scratch_bytes);
    EXPECT_EQ(op.in_place_input, ref.in_place_input);
  }
}

TEST(LowerVariantsMul16, EveryInt16MulTakesItsVariants) {
  for (const ir::Graph& g : {mul_graph({1, 12, 12, 64}, {1, 12, 12, 64}, {1, 12, 12, 64}),
                             mul_graph({1, 12, 12, 64}, {1, 1, 1, 64}, {1, 12, 12, 64}),
                             mul_graph({1, 8, 8, 16}, {16}, {1, 8, 8, 16}), mul_graph({5}, {1}, {5})}) {
    expect_choices(g, KernelId::kMulS16, KernelId::kMulS16Dsp, KernelId::kMulS16Mve, KernelId::kMulS16V6m);
  }
}

TEST(LowerVariantsMean16, SingleRunMeansTakeTheirVariants) {
  for (const ir::Graph& g : {mean_graph({1, 3, 3, 1280}, {1, 1, 1, 1280}, {1, 2}),
                             mean_graph({1, 7, 7, 64}, {1, 64}, {1, 2}),
                             mean_graph({1, 4, 49}, {1, 4}, {2}), mean_graph({2, 3, 5}, {1}, {0, 1, 2})}) {
    expect_choices(g, KernelId::kMeanS16, KernelId::kMeanS16Dsp, KernelId::kMeanS16Mve, KernelId::kMeanS16V6m);
  }
  // Interleaved kept or reduced elements (a batch of two pools, N and W) keep the reference.
  for (const ir::Graph& g : {mean_graph({2, 3, 3, 8}, {2, 8}, {1, 2}), mean_graph({2, 3, 4, 5}, {3, 5}, {0, 2})}) {
    expect_choices(g, KernelId::kMeanS16, KernelId::kMeanS16, KernelId::kMeanS16, KernelId::kMeanS16);
  }
}

}  // namespace lower_variants_mul_mean16_test
}  // namespace mote::lower
