// Variant choice for int8 ADD and pooling (compiler/lower/variants.cc, select_add_s8_dsp
// and select_pool2d_s8_dsp): cortex-m4 / m7 / m33 take add_s8_lut__dsp when both inputs
// have the output's shape and at least kAddS8TableMinCount elements (no scratch; its
// tables computed into its parameters after the reference's), and keep add_s8 for
// shorter and broadcasting adds (add_s8__dsp is no longer picked); they take
// avg_pool2d_s8__dsp / max_pool2d_s8__dsp for every int8 pool (no scratch). cortex-m55
// takes a Helium variant where one applies, else the DSP one. Cores without the DSP
// extension (host, cortex-m0plus, cortex-m3) keep the references. The parameters never
// change but for add_s8_lut__dsp's appended tables. int16 ADD: add_s16__dsp /
// add_s16__mve for adds without broadcasting.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "elementwise/elementwise.h"
#include "ir/graph.h"
#include "lower/lower.h"
#include "pool2d/pool2d.h"

namespace mote::lower {
namespace lower_variants_add_pool2d_test {

int add_tensor(ir::Graph& g, const std::string& name, ir::Shape shape, float scale, int32_t zp,
               DType dtype = DType::kInt8) {
  ir::Tensor t;
  t.name = name;
  t.dtype = dtype;
  t.shape = std::move(shape);
  t.quant.scales = {scale};
  t.quant.zero_points = {zp};
  t.quant.axis = -1;
  return g.add_tensor(std::move(t));
}

// int16 (16x8): the zero points 0 that TFLite requires there.
ir::Graph add_graph(const ir::Shape& a, const ir::Shape& b, const ir::Shape& out,
                    DType dtype = DType::kInt8) {
  ir::Graph g;
  const bool s16 = dtype == DType::kInt16;
  const int x = add_tensor(g, "a", a, 0.05f, s16 ? 0 : -3, dtype);
  const int y = add_tensor(g, "b", b, 0.07f, s16 ? 0 : 5, dtype);
  const int z = add_tensor(g, "y", out, 0.1f, s16 ? 0 : -1, dtype);
  ir::Node node;
  node.name = "add";
  node.op = ir::Op::kAdd;
  node.inputs = {x, y};
  node.outputs = {z};
  g.nodes.push_back(std::move(node));
  return g;
}

ir::Graph pool_graph(bool average, const ir::Shape& in, const ir::Shape& out,
                     std::vector<int64_t> kernel, std::vector<int64_t> strides,
                     std::vector<int64_t> pads, DType dtype = DType::kInt8) {
  ir::Graph g;
  const int32_t zp = dtype == DType::kInt16 ? 0 : 2;
  const int x = add_tensor(g, "x", in, 0.05f, zp, dtype);
  const int y = add_tensor(g, "y", out, 0.05f, zp, dtype);
  ir::Node node;
  node.name = "pool";
  node.op = average ? ir::Op::kAvgPool2d : ir::Op::kMaxPool2d;
  node.inputs = {x};
  node.outputs = {y};
  node.attrs = {{"kernel", kernel}, {"strides", strides}, {"pads", pads}};
  g.nodes.push_back(std::move(node));
  return g;
}

LoweredOp lower(const ir::Graph& g, Target target) { return lower_node(g, g.nodes.back(), target); }

constexpr Target kDspTargets[] = {Target::kCortexM4, Target::kCortexM7, Target::kCortexM33};
constexpr Target kPlainTargets[] = {Target::kHost, Target::kCortexM0Plus, Target::kCortexM3};

// g's op lowered for every core: `reference` on the host and the cores without the DSP
// extension, `dsp` on cortex-m4 / m7 / m33, `m55` on cortex-m55, each with the reference's
// params, scratch and in-place input.
void expect_choices(const ir::Graph& g, KernelId reference, KernelId dsp, KernelId m55,
                    KernelId m0plus = KernelId::kInvalid) {
  const LoweredOp ref = lower(g, Target::kHost);
  ASSERT_EQ(ref.kernel, reference);
  for (Target t : kDspTargets) {
    const LoweredOp op = lower(g, t);
    EXPECT_EQ(op.kernel, dsp) << static_cast<int>(t);
    EXPECT_EQ(op.scratch_bytes, ref.scratch_bytes);
    EXPECT_EQ(op.params, ref.params);
    EXPECT_EQ(op.in_place_input, ref.in_place_input);
  }
  const LoweredOp helium = lower(g, Target::kCortexM55);
  EXPECT_EQ(helium.kernel, m55);
  EXPECT_EQ(helium.params, ref.params);
  for (Target t : kPlainTargets) {
    const LoweredOp op = lower(g, t);
    const bool v6m = t == Target::kCortexM0Plus && m0plus != KernelId::kInvalid;
    EXPECT_EQ(op.kernel, v6m ? m0plus : reference) << static_cast<int>(t);
    EXPECT_EQ(op.params, ref.params);
  }
}

// Below kAddS8TableMinCount elements the reference: add_s8__dsp would run the same
// arithmetic there with 2 KiB of scratch it does not use.
TEST(LowerVariantsAdd, ShortSameShapeAddKeepsTheReference) {
  for (const ir::Shape& shape : {ir::Shape{1, 4, 4, 31}, ir::Shape{kAddS8TableMinCount - 1}, ir::Shape{1}}) {
    expect_choices(add_graph(shape, shape, shape), KernelId::kAddS8, KernelId::kAddS8, KernelId::kAddS8Mve);
  }
}

// From kAddS8TableMinCount elements: add_s8_lut__dsp, no scratch, the reference params
// followed by the two tables add_s8_lut__dsp_make_params() computes from them.
TEST(LowerVariantsAdd, LongSameShapeAddTakesTheLutVariant) {
  for (const ir::Shape& shape : {ir::Shape{1, 8, 8, 8}, ir::Shape{1, 8, 8, 16}, ir::Shape{1, 32, 32, 16},
                                 ir::Shape{kAddS8TableMinCount}}) {
    const ir::Graph g = add_graph(shape, shape, shape);
    const LoweredOp ref = lower(g, Target::kHost);
    ASSERT_EQ(ref.kernel, KernelId::kAddS8);
    ASSERT_EQ(ref.params.size(), sizeof(QuantAddSubParams));
    QuantAddSubParams quant;
    std::memcpy(&quant, ref.params.data(), sizeof(quant));
    AddS8LutParams lut;
    add_s8_lut__dsp_make_params(quant, &lut);
    std::vector<uint8_t> expected(sizeof(lut));
    std::memcpy(expected.data(), &lut, sizeof(lut));
    ASSERT_TRUE(std::equal(ref.params.begin(), ref.params.end(), expected.begin()));
    for (Target t : kDspTargets) {
      const LoweredOp op = lower(g, t);
      EXPECT_EQ(op.kernel, KernelId::kAddS8LutDsp) << static_cast<int>(t);
      EXPECT_EQ(op.scratch_bytes, ref.scratch_bytes);
      EXPECT_EQ(op.scratch_bytes, 0u);
      EXPECT_EQ(op.params, expected);
      EXPECT_EQ(op.macs, ref.macs);
      EXPECT_EQ(op.in_place_input, ref.in_place_input);
    }
    EXPECT_EQ(lower(g, Target::kCortexM55).kernel, KernelId::kAddS8Mve);  // Helium first
    for (Target t : kPlainTargets) {
      const LoweredOp op = lower(g, t);
      EXPECT_EQ(op.kernel, KernelId::kAddS8);
      EXPECT_EQ(op.params, ref.params);
    }
  }
}

TEST(LowerVariantsAdd, BroadcastAddKeepsTheReference) {
  for (const ir::Graph& g : {add_graph({1, 8, 8, 16}, {1, 1, 1, 16}, {1, 8, 8, 16}),
                             add_graph({1, 1, 1, 16}, {1, 8, 8, 16}, {1, 8, 8, 16}),
                             add_graph({1, 8, 8, 16}, {16}, {1, 8, 8, 16})}) {
    for (Target t : kDspTargets) {
      const LoweredOp op = lower(g, t);
      EXPECT_EQ(op.kernel, KernelId::kAddS8) << static_cast<int>(t);
      EXPECT_EQ(op.scratch_bytes, lower(g, Target::kHost).scratch_bytes);
    }
  }
}

// int16 ADD: add_s16__dsp where both inputs have the output's shape (any length, no
// scratch, the reference's params), add_s16__mve on cortex-m55 where the element counts
// match, add_s16__v6m on cortex-m0plus for the same shapes as add_s16__dsp; broadcasting
// adds and cortex-m3 keep add_s16.
TEST(LowerVariantsAdd, Int16AddTakesItsVariantsWithoutBroadcast) {
  for (const ir::Shape& shape : {ir::Shape{1}, ir::Shape{1, 4, 4, 31}, ir::Shape{1, 48, 48, 8}}) {
    expect_choices(add_graph(shape, shape, shape, DType::kInt16), KernelId::kAddS16, KernelId::kAddS16Dsp,
                   KernelId::kAddS16Mve, KernelId::kAddS16V6m);  // Helium first on cortex-m55
  }
  for (const ir::Graph& g : {add_graph({1, 8, 8, 16}, {1, 1, 1, 16}, {1, 8, 8, 16}, DType::kInt16),
                             add_graph({1, 8, 8, 16}, {16}, {1, 8, 8, 16}, DType::kInt16)}) {
    for (Target t : kDspTargets) EXPECT_EQ(lower(g, t).kernel, KernelId::kAddS16) << static_cast<int>(t);
    EXPECT_EQ(lower(g, Target::kCortexM55).kernel, KernelId::kAddS16);
    EXPECT_EQ(lower(g, Target::kCortexM0Plus).kernel, KernelId::kAddS16);
  }
}

TEST(LowerVariantsPool2d, EveryInt8PoolTakesTheDspVariant) {
  struct Case {
    bool average;
    ir::Graph g;
  };
  const Case cases[] = {
      {true, pool_graph(true, {1, 8, 8, 64}, {1, 1, 1, 64}, {8, 8}, {8, 8}, {0, 0, 0, 0})},
      {true, pool_graph(true, {1, 25, 5, 64}, {1, 1, 1, 64}, {25, 5}, {1, 1}, {0, 0, 0, 0})},
      {true, pool_graph(true, {2, 7, 7, 6}, {2, 4, 4, 6}, {3, 3}, {2, 2}, {1, 1, 1, 1})},
      {false, pool_graph(false, {1, 8, 8, 10}, {1, 4, 4, 10}, {2, 2}, {2, 2}, {0, 0, 0, 0})},
      {false, pool_graph(false, {1, 9, 9, 3}, {1, 5, 5, 3}, {3, 3}, {2, 2}, {1, 1, 1, 1})},
  };
  for (const Case& c : cases) {
    const KernelId reference = c.average ? KernelId::kAvgPool2dS8 : KernelId::kMaxPool2dS8;
    const KernelId dsp = c.average ? KernelId::kAvgPool2dS8Dsp : KernelId::kMaxPool2dS8Dsp;
    const KernelId mve = c.average ? KernelId::kAvgPool2dS8Mve : KernelId::kMaxPool2dS8Mve;
    const LoweredOp ref = lower(c.g, Target::kHost);
    ASSERT_EQ(ref.kernel, reference);
    for (Target t : kDspTargets) {
      const LoweredOp op = lower(c.g, t);
      EXPECT_EQ(op.kernel, dsp) << static_cast<int>(t);
      EXPECT_EQ(op.scratch_bytes, ref.scratch_bytes);
      EXPECT_EQ(op.params, ref.params);
    }
    const LoweredOp m55 = lower(c.g, Target::kCortexM55);
    EXPECT_TRUE(m55.kernel == dsp || m55.kernel == mve);
    EXPECT_EQ(m55.params, ref.params);
    for (Target t : kPlainTargets) EXPECT_EQ(lower(c.g, t).kernel, reference);
  }
}

// int16 pools: avg_pool2d_s16__dsp / max_pool2d_s16__dsp on cortex-m4 / m7 / m33, the
// Helium variants on cortex-m55 (the average for windows of at most
// kAvgPool2dS16MveMaxTaps cells, larger ones the DSP variant) and the __v6m variants on
// cortex-m0plus, each with the reference's params and no scratch; cortex-m3 and the host
// keep the references.
TEST(LowerVariantsPool2d, EveryInt16PoolTakesItsVariants) {
  const ir::Graph avg_global = pool_graph(true, {1, 7, 7, 64}, {1, 1, 1, 64}, {7, 7}, {7, 7}, {0, 0, 0, 0},
                                          DType::kInt16);
  const ir::Graph avg_same = pool_graph(true, {2, 7, 7, 6}, {2, 4, 4, 6}, {3, 3}, {2, 2}, {1, 1, 1, 1},
                                        DType::kInt16);
  const ir::Graph max_valid = pool_graph(false, {1, 8, 8, 10}, {1, 4, 4, 10}, {2, 2}, {2, 2}, {0, 0, 0, 0},
                                         DType::kInt16);
  const ir::Graph max_same = pool_graph(false, {1, 9, 9, 3}, {1, 5, 5, 3}, {3, 3}, {2, 2}, {1, 1, 1, 1},
                                        DType::kInt16);
  for (const ir::Graph* g : {&avg_global, &avg_same}) {
    expect_choices(*g, KernelId::kAvgPool2dS16, KernelId::kAvgPool2dS16Dsp, KernelId::kAvgPool2dS16Mve,
                   KernelId::kAvgPool2dS16V6m);
  }
  for (const ir::Graph* g : {&max_valid, &max_same}) {
    expect_choices(*g, KernelId::kMaxPool2dS16, KernelId::kMaxPool2dS16Dsp, KernelId::kMaxPool2dS16Mve,
                   KernelId::kMaxPool2dS16V6m);
  }
  // A global average over more cells than the Helium division is exact for.
  const ir::Graph wide = pool_graph(true, {1, 1, 40000, 2}, {1, 1, 1, 2}, {1, 40000}, {1, 1}, {0, 0, 0, 0},
                                    DType::kInt16);
  ASSERT_GT(40000, kAvgPool2dS16MveMaxTaps);
  EXPECT_EQ(lower(wide, Target::kCortexM55).kernel, KernelId::kAvgPool2dS16Dsp);
  EXPECT_EQ(lower(wide, Target::kCortexM4).kernel, KernelId::kAvgPool2dS16Dsp);
}

}  // namespace lower_variants_add_pool2d_test
}  // namespace mote::lower
