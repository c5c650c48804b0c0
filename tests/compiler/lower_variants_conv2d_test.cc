// Variant choice for int8 CONV_2D (compiler/lower/variants.cc, select_conv2d_s8_dsp):
// cortex-m4 / m7 / m33 take conv2d_s8_1x1_relu__dsp for 1x1 kernels without padding of
// ReLU-like layers whose records apply, conv2d_s8_1x1__dsp for other such 1x1 kernels,
// conv2d_s8_small_window__dsp for windows of at most 24 SMLAD steps (few input channels)
// and conv2d_s8__dsp for every other groups == 1 conv, with the variant's scratch; cortex-m55
// takes those unless a Helium variant is chosen; grouped convs and cores without the DSP
// extension (host, cortex-m0plus, cortex-m3) keep the reference conv2d_s8.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "conv2d/conv2d.h"
#include "ir/graph.h"
#include "lower/lower.h"

namespace mote::lower {
namespace lower_variants_conv2d_test {

struct ConvSpec {
  int64_t n, h, w, c, o, kh, kw;
  std::vector<int64_t> strides, dilations, pads;  // pads: top, left, bottom, right
  int64_t group;
};

int64_t out_extent(int64_t in, int64_t k, int64_t stride, int64_t dilation, int64_t pad_a,
                   int64_t pad_b) {
  return (in + pad_a + pad_b - dilation * (k - 1) - 1) / stride + 1;
}

// A one-node graph: int8 conv2d with per-channel filter scales and a bias.
ir::Graph conv_graph(const ConvSpec& s) {
  ir::Graph g;
  auto add = [&](const std::string& name, ir::Shape shape, DType dtype, std::vector<float> scales,
                 std::vector<int32_t> zps, bool constant, int32_t axis) {
    ir::Tensor t;
    t.name = name;
    t.dtype = dtype;
    t.shape = std::move(shape);
    t.is_constant = constant;
    t.quant.scales = std::move(scales);
    t.quant.zero_points = std::move(zps);
    t.quant.axis = axis;
    if (constant) t.data.assign(static_cast<size_t>(t.bytes()), 0);
    return g.add_tensor(std::move(t));
  };
  const int64_t oh = out_extent(s.h, s.kh, s.strides[0], s.dilations[0], s.pads[0], s.pads[2]);
  const int64_t ow = out_extent(s.w, s.kw, s.strides[1], s.dilations[1], s.pads[1], s.pads[3]);
  const int x = add("x", {s.n, s.h, s.w, s.c}, DType::kInt8, {0.05f}, {-3}, false, -1);
  const int w = add("w", {s.o, s.kh, s.kw, s.c / s.group}, DType::kInt8,
                    std::vector<float>(s.o, 0.01f), std::vector<int32_t>(s.o, 0), true, 0);
  ir::Tensor bias;
  bias.name = "b";
  bias.dtype = DType::kInt32;
  bias.shape = {s.o};
  bias.is_constant = true;
  bias.data.assign(static_cast<size_t>(bias.bytes()), 0);
  const int b = g.add_tensor(std::move(bias));
  const int y = add("y", {s.n, oh, ow, s.o}, DType::kInt8, {0.03f}, {7}, false, -1);
  ir::Node node;
  node.name = "conv";
  node.op = ir::Op::kConv2d;
  node.inputs = {x, w, b};
  node.outputs = {y};
  node.attrs = {{"strides", s.strides}, {"dilations", s.dilations}, {"pads", s.pads},
                {"group", s.group}};
  g.nodes.push_back(std::move(node));
  return g;
}

LoweredOp lower_for(const ConvSpec& s, Target target) {
  const ir::Graph g = conv_graph(s);
  return lower_node(g, g.nodes.back(), target);
}

constexpr Target kDspTargets[] = {Target::kCortexM4, Target::kCortexM7, Target::kCortexM33};
// cortex-m0plus has its own (__v6m) variants: lower_variants_v6m_test.cc.
constexpr Target kPlainTargets[] = {Target::kHost, Target::kCortexM3};

const ConvSpec kPointwise{1, 12, 12, 24, 16, 1, 1, {1, 1}, {1, 1}, {0, 0, 0, 0}, 1};
const ConvSpec kPointwiseStride2{2, 9, 9, 10, 6, 1, 1, {2, 2}, {1, 1}, {0, 0, 0, 0}, 1};
const ConvSpec kPointwisePadded{1, 6, 6, 8, 8, 1, 1, {1, 1}, {1, 1}, {1, 0, 1, 0}, 1};
const ConvSpec k3x3{1, 16, 16, 16, 32, 3, 3, {1, 1}, {1, 1}, {1, 1, 1, 1}, 1};
const ConvSpec kFirstLayer{1, 96, 96, 3, 8, 3, 3, {2, 2}, {1, 1}, {0, 0, 1, 1}, 1};
const ConvSpec kDilated{1, 10, 10, 5, 4, 2, 3, {1, 1}, {2, 1}, {0, 2, 1, 0}, 1};
const ConvSpec kGrouped{1, 8, 8, 8, 8, 3, 3, {1, 1}, {1, 1}, {1, 1, 1, 1}, 2};

// The DSP variants' params end with wide_channels (int32).
int32_t wide_channels_of(const LoweredOp& op) {
  int32_t wide = -1;
  std::memcpy(&wide, op.params.data() + op.params.size() - 4, 4);
  return wide;
}

TEST(LowerVariantsConv2d, PointwiseTakesThe1x1DspVariant) {
  for (const ConvSpec& s : {kPointwise, kPointwiseStride2}) {
    for (Target t : kDspTargets) {
      const LoweredOp op = lower_for(s, t);
      EXPECT_EQ(op.kernel, KernelId::kConv2dS81x1Dsp) << static_cast<int>(t);
      EXPECT_EQ(op.scratch_bytes, conv2d_s8_1x1__dsp_scratch_bytes(static_cast<int32_t>(s.c)));
      EXPECT_EQ(op.params.size(), sizeof(Conv2dS8Params) + 8 * s.o);  // the reference's
      EXPECT_EQ(op.scratch_growth.max_units, 0u);
    }
  }
  EXPECT_EQ(conv2d_s8_1x1__dsp_scratch_bytes(24), 6u * 32u);  // 4 int16 columns of 24
  // in_c 64 without an activation (act_min below the zero point: no records): the
  // general kernel.
  ConvSpec wide = kPointwise;
  wide.c = 64;
  const LoweredOp op = lower_for(wide, Target::kCortexM4);
  EXPECT_EQ(op.kernel, KernelId::kConv2dS81x1Dsp);
  EXPECT_EQ(op.scratch_bytes, conv2d_s8_1x1__dsp_scratch_bytes(64));
  // With a ReLU (act_min >= the output zero point) the records serve it: the records
  // kernel, up to 6912 bytes of them planned with the op (48 channels of in_c 64), the
  // rest left to the plan's free bytes (scratch_growth, one channel's record a unit).
  for (const int64_t out_c : {16, 64}) {
    ConvSpec relu = wide;
    relu.o = out_c;
    ir::Graph g = conv_graph(relu);
    g.nodes.back().attrs["act_min"] = 0.0;
    for (Target t : kDspTargets) {
      const LoweredOp r = lower_node(g, g.nodes.back(), t);
      EXPECT_EQ(r.kernel, KernelId::kConv2dS81x1ReluDsp) << out_c;
      const int32_t planned = out_c == 16 ? 16 : 48;
      EXPECT_EQ(r.params.size(), sizeof(Conv2dS8Params) + 8 * out_c + 4);
      EXPECT_EQ(wide_channels_of(r), planned) << out_c;
      EXPECT_EQ(r.scratch_bytes, conv2d_s8_1x1_relu__dsp_scratch_bytes(64, planned)) << out_c;
      EXPECT_EQ(r.scratch_growth.unit_bytes, out_c == planned ? 0u : 16u * 8u + 16u);
      EXPECT_EQ(r.scratch_growth.max_units, static_cast<uint32_t>(out_c - planned)) << out_c;
    }
  }
  // Not for ReLU layers the records do not serve: in_c 24 (6 groups), 16 (the small
  // path), fewer than 16 output pixels in whole blocks (3x5 = 15), no bias.
  for (const int64_t c : {24, 16, 64}) {
    ConvSpec relu = wide;
    relu.c = c;
    if (c == 64) {
      relu.h = 3;
      relu.w = 5;
    }
    ir::Graph g = conv_graph(relu);
    g.nodes.back().attrs["act_min"] = 0.0;
    EXPECT_EQ(lower_node(g, g.nodes.back(), Target::kCortexM4).kernel, KernelId::kConv2dS81x1Dsp) << c;
  }
  ConvSpec sixteen = wide;
  sixteen.h = 4;  // 16 pixels: the records kernel
  sixteen.w = 4;
  ir::Graph g16 = conv_graph(sixteen);
  g16.nodes.back().attrs["act_min"] = 0.0;
  EXPECT_EQ(lower_node(g16, g16.nodes.back(), Target::kCortexM4).kernel, KernelId::kConv2dS81x1ReluDsp);
  g16.nodes.back().inputs.pop_back();  // no bias
  EXPECT_EQ(lower_node(g16, g16.nodes.back(), Target::kCortexM4).kernel, KernelId::kConv2dS81x1Dsp);
}

TEST(LowerVariantsConv2d, SmallWindowsTakeTheSmallWindowDspVariant) {
  // Padded 1x1x8 (4 SMLAD steps), 3x3x3 (14), dilated 2x3x5 (16): at most 24 steps.
  for (const ConvSpec& s : {kPointwisePadded, kFirstLayer, kDilated}) {
    for (Target t : kDspTargets) {
      const LoweredOp op = lower_for(s, t);
      EXPECT_EQ(op.kernel, KernelId::kConv2dS8SmallWindowDsp) << static_cast<int>(t);
      EXPECT_EQ(op.scratch_bytes, conv2d_s8_small_window__dsp_scratch_bytes(
                                      static_cast<int32_t>(s.kh), static_cast<int32_t>(s.kw), static_cast<int32_t>(s.c)));
      EXPECT_NE(op.scratch_bytes, 0u);
      // The reference's, then pair_records: 0, none to grow (at most 16 channels here).
      EXPECT_EQ(op.params.size(), sizeof(Conv2dS8Params) + 8 * s.o + 4);
      EXPECT_EQ(wide_channels_of(op), 0);
      EXPECT_EQ(op.scratch_growth.max_units, 0u);
    }
  }
}

TEST(LowerVariantsConv2d, SmallWindowRecordsAreLeftToTheMemoryPlan) {
  // kws' first layer, 10x4x1 -> 64 (32 pairs, 20 steps): the records layout (6,336
  // bytes) exceeds the chunked one's (5,480): its difference is one unit of
  // scratch_growth, granted only where the plan has room (pair_records 0 -> 1).
  const ConvSpec kws{1, 49, 10, 1, 64, 10, 4, {2, 2}, {1, 1}, {4, 1, 5, 1}, 1};
  const uint32_t base = conv2d_s8_small_window__dsp_scratch_bytes(10, 4, 1);
  const uint32_t records = conv2d_s8_small_window__dsp_records_bytes(10, 4, 1, 64);
  EXPECT_EQ(base, 5480u);
  EXPECT_EQ(records, 6336u);
  for (Target t : kDspTargets) {
    const LoweredOp op = lower_for(kws, t);
    EXPECT_EQ(op.kernel, KernelId::kConv2dS8SmallWindowDsp) << static_cast<int>(t);
    EXPECT_EQ(op.scratch_bytes, base);
    EXPECT_EQ(wide_channels_of(op), 0);
    EXPECT_EQ(op.scratch_growth.unit_bytes, records - base);
    EXPECT_EQ(op.scratch_growth.max_units, 1u);
    EXPECT_EQ(op.scratch_growth.param_offset, sizeof(Conv2dS8Params) + 8 * 64);
    LoweredOp granted = op;
    grant_scratch(granted, 5);  // at most the one unit
    EXPECT_EQ(wide_channels_of(granted), 1);
    EXPECT_EQ(granted.scratch_bytes, records);
  }
  // 2x2x2 -> 18 (one-word rows; 9 pairs, 4 steps): the records (604 bytes) fit in the
  // chunked layout's scratch: planned with the op, nothing to grow. 3x3x3 -> 18 (rows of
  // 9 bytes) and 3x3x3 -> 17 (odd): none.
  ConvSpec words18 = kFirstLayer;
  words18.o = 18;
  words18.c = 2;
  words18.kh = words18.kw = 2;
  const LoweredOp op18 = lower_for(words18, Target::kCortexM4);
  EXPECT_EQ(op18.kernel, KernelId::kConv2dS8SmallWindowDsp);
  EXPECT_EQ(op18.scratch_bytes, conv2d_s8_small_window__dsp_scratch_bytes(2, 2, 2));
  EXPECT_EQ(wide_channels_of(op18), 1);
  EXPECT_EQ(op18.scratch_growth.max_units, 0u);
  ConvSpec first18 = kFirstLayer;
  first18.o = 18;
  const LoweredOp op18_rows9 = lower_for(first18, Target::kCortexM4);
  EXPECT_EQ(op18_rows9.scratch_bytes, conv2d_s8_small_window__dsp_scratch_bytes(3, 3, 3));
  EXPECT_EQ(wide_channels_of(op18_rows9), 0);
  EXPECT_EQ(op18_rows9.scratch_growth.max_units, 0u);
  ConvSpec first17 = kFirstLayer;
  first17.o = 17;
  const LoweredOp op17 = lower_for(first17, Target::kCortexM4);
  EXPECT_EQ(wide_channels_of(op17), 0);
  EXPECT_EQ(op17.scratch_growth.max_units, 0u);
}

TEST(LowerVariantsConv2d, OtherGroupsOneConvsTakeTheGeneralDspVariant) {
  // 3x3x16 -> 32 (K = 144, 36 groups): the widened weights of 13 channels planned (3.75
  // KiB), the other 19 left to the memory plan's free bytes (scratch_growth).
  for (Target t : kDspTargets) {
    const LoweredOp op = lower_for(k3x3, t);
    EXPECT_EQ(op.kernel, KernelId::kConv2dS8Dsp) << static_cast<int>(t);
    EXPECT_EQ(op.scratch_bytes, conv2d_s8__dsp_scratch_bytes(3, 3, 16, 13));
    EXPECT_EQ(op.scratch_bytes, 36u * 32u + 13u * 36u * 8u);
    EXPECT_EQ(wide_channels_of(op), 13);
    EXPECT_EQ(op.scratch_growth.unit_bytes, 36u * 8u);
    EXPECT_EQ(op.scratch_growth.max_units, 19u);
    EXPECT_EQ(op.scratch_growth.param_offset, sizeof(Conv2dS8Params) + 8 * 32);
    // A grant adds to both.
    LoweredOp granted = op;
    grant_scratch(granted, 5);
    EXPECT_EQ(wide_channels_of(granted), 18);
    EXPECT_EQ(granted.scratch_bytes, op.scratch_bytes + 5u * 288u);
    EXPECT_EQ(granted.scratch_growth.max_units, 14u);
    grant_scratch(granted, 100);  // at most max_units
    EXPECT_EQ(wide_channels_of(granted), 32);
    EXPECT_EQ(granted.scratch_growth.max_units, 0u);
  }
  // vww's first 3x3x3 layer takes the small-window variant (14 SMLAD steps per window):
  // columns of a 72-pixel chunk, 8 channel pairs of widened weights, one gathered window
  // of 27 bytes (rounded to 28) and one tail word; under 5 KiB.
  EXPECT_EQ(conv2d_s8_small_window__dsp_scratch_bytes(3, 3, 3), 72u * 14u * 4u + 8u * 14u * 8u + 28u + 4u);
}

TEST(LowerVariantsConv2d, CortexM55TakesADspOrHeliumVariant) {
  for (const ConvSpec& s : {kPointwise, k3x3, kFirstLayer, kDilated}) {
    const LoweredOp op = lower_for(s, Target::kCortexM55);
    const bool mve = op.kernel == KernelId::kConv2dS8Mve || op.kernel == KernelId::kConv2dS81x1Mve;
    if (mve) continue;
    const bool pointwise = s.kh == 1 && s.kw == 1;  // and unpadded
    const bool small = s.c <= 5;                     // kFirstLayer, kDilated: 14, 16 steps
    EXPECT_EQ(op.kernel, pointwise ? KernelId::kConv2dS81x1Dsp
                                   : (small ? KernelId::kConv2dS8SmallWindowDsp : KernelId::kConv2dS8Dsp));
  }
}

TEST(LowerVariantsConv2d, GroupedConvsAndPlainCoresKeepTheReference) {
  for (Target t : kDspTargets) {
    const LoweredOp op = lower_for(kGrouped, t);
    EXPECT_EQ(op.kernel, KernelId::kConv2dS8);
    EXPECT_EQ(op.scratch_bytes, 0u);
  }
  for (const ConvSpec& s : {kPointwise, k3x3, kFirstLayer, kGrouped}) {
    for (Target t : kPlainTargets) {
      const LoweredOp op = lower_for(s, t);
      EXPECT_EQ(op.kernel, KernelId::kConv2dS8) << static_cast<int>(t);
      EXPECT_EQ(op.scratch_bytes, 0u);
    }
  }
}

}  // namespace lower_variants_conv2d_test
}  // namespace mote::lower
