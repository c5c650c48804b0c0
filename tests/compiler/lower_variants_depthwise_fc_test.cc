// Variant choice for int8 DEPTHWISE_CONV_2D and FULLY_CONNECTED (compiler/lower/variants.cc,
// select_depthwise_conv2d_s8_dsp and select_fully_connected_s8_dsp): cortex-m4 / m7 / m33
// take depthwise_conv2d_s8_3x3__dsp for 3x3 dilation-1 filters with depth multiplier 1,
// depthwise_conv2d_s8__dsp for other depth-multiplier-1 filters, and
// depthwise_conv2d_s8_mult__dsp for other multipliers (unless its scratch passes 4 KB;
// cortex-m55 too); every int8 fully connected layer takes fully_connected_s8__dsp.
// The scratch is the variant's *_scratch_bytes(); the parameters stay the reference's,
// except the 3x3 variant's (its table follows: only for a constant filter and bias) and
// the multiplier variant's (the arranged filter follows).
// cortex-m55 takes a Helium variant where one applies, else the DSP one; host,
// cortex-m0plus and cortex-m3 keep the references.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "depthwise_conv2d/depthwise_conv2d.h"
#include "fully_connected/fully_connected.h"
#include "kernel_registry.h"
#include "ir/graph.h"
#include "lower/lower.h"

namespace mote::lower {
namespace lower_variants_depthwise_fc_test {

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

struct Dw {
  int64_t h, w, c, m, kh, kw, stride, dilation, pad;
};

ir::Graph depthwise_graph(const Dw& d) {
  ir::Graph g;
  const int64_t oc = d.c * d.m;
  const int64_t oh = (d.h + 2 * d.pad - d.dilation * (d.kh - 1) - 1) / d.stride + 1;
  const int64_t ow = (d.w + 2 * d.pad - d.dilation * (d.kw - 1) - 1) / d.stride + 1;
  const int x = add_tensor(g, "x", {1, d.h, d.w, d.c}, {0.05f}, -3);
  const int f = add_tensor(g, "f", {1, d.kh, d.kw, oc}, std::vector<float>(oc, 0.01f), 0, true, 3);
  const int b = add_bias(g, oc);
  const int y = add_tensor(g, "y", {1, oh, ow, oc}, {0.03f}, 7);
  ir::Node node;
  node.name = "dw";
  node.op = ir::Op::kDepthwiseConv2d;
  node.inputs = {x, f, b};
  node.outputs = {y};
  node.attrs = {{"strides", std::vector<int64_t>{d.stride, d.stride}},
                {"dilations", std::vector<int64_t>{d.dilation, d.dilation}},
                {"pads", std::vector<int64_t>{d.pad, d.pad, d.pad, d.pad}},
                {"depth_multiplier", d.m},
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

constexpr Target kDspTargets[] = {Target::kCortexM4, Target::kCortexM7, Target::kCortexM33};
// cortex-m0plus has its own (__v6m) variants: lower_variants_v6m_test.cc.
constexpr Target kPlainTargets[] = {Target::kHost, Target::kCortexM3};

DepthwiseConv2dS8Params params_of(const Dw& d) {
  DepthwiseConv2dS8Params p{};
  p.window.stride_h = p.window.stride_w = static_cast<int32_t>(d.stride);
  p.window.dilation_h = p.window.dilation_w = static_cast<int32_t>(d.dilation);
  p.window.pad_top = p.window.pad_left = p.window.pad_bottom = p.window.pad_right = static_cast<int32_t>(d.pad);
  p.depth_multiplier = static_cast<int32_t>(d.m);
  return p;
}

DepthwiseConv2dShape shape_of(const Dw& d) {
  DepthwiseConv2dShape s{};
  s.batch = 1;
  s.in_h = static_cast<int32_t>(d.h);
  s.in_w = static_cast<int32_t>(d.w);
  s.out_h = static_cast<int32_t>((d.h + 2 * d.pad - d.dilation * (d.kh - 1) - 1) / d.stride + 1);
  s.out_w = static_cast<int32_t>((d.w + 2 * d.pad - d.dilation * (d.kw - 1) - 1) / d.stride + 1);
  s.in_c = static_cast<int32_t>(d.c);
  s.out_c = static_cast<int32_t>(d.c * d.m);
  s.kernel_h = static_cast<int32_t>(d.kh);
  s.kernel_w = static_cast<int32_t>(d.kw);
  return s;
}

// The 3x3 variant's params: the reference's, then the table of the graph's filter (every
// byte 1) and bias (zeros) under the reference's multipliers and shifts.
std::vector<uint8_t> with_table(const std::vector<uint8_t>& reference, const Dw& d) {
  const auto channels = static_cast<int32_t>(d.c);
  std::vector<int32_t> arrays(2 * static_cast<size_t>(channels));
  EXPECT_EQ(reference.size(), sizeof(DepthwiseConv2dS8Params) + arrays.size() * 4);
  std::memcpy(arrays.data(), reference.data() + sizeof(DepthwiseConv2dS8Params), arrays.size() * 4);
  const std::vector<int8_t> filter(static_cast<size_t>(9 * channels), 1);
  const std::vector<int32_t> bias(static_cast<size_t>(channels), 0);
  const uint32_t table_bytes = depthwise_conv2d_s8_3x3__dsp_table_bytes(channels);
  std::vector<uint32_t> table((table_bytes + 3) / 4);
  DepthwiseConv2dS8Params p;
  std::memcpy(&p, reference.data(), sizeof(p));
  EXPECT_TRUE(depthwise_conv2d_s8_3x3__dsp_make_table(p, arrays.data(), arrays.data() + channels,
                                                      bias.data(), filter.data(), channels,
                                                      table.data()));
  std::vector<uint8_t> bytes = reference;
  bytes.resize(reference.size() + table_bytes);
  std::memcpy(bytes.data() + reference.size(), table.data(), table_bytes);
  return bytes;
}

TEST(LowerVariantsDepthwise, ThreeByThreeTakesTheSpecializedVariant) {
  for (const Dw& d : {Dw{48, 48, 8, 1, 3, 3, 1, 1, 1}, Dw{24, 24, 16, 1, 3, 3, 2, 1, 1},
                      Dw{3, 3, 256, 1, 3, 3, 1, 1, 1}, Dw{7, 5, 13, 1, 3, 3, 1, 1, 0}}) {
    const ir::Graph g = depthwise_graph(d);
    const LoweredOp ref = lower(g, Target::kHost);
    ASSERT_EQ(ref.kernel, KernelId::kDepthwiseConv2dS8);
    for (Target t : kDspTargets) {
      const LoweredOp op = lower(g, t);
      EXPECT_EQ(op.kernel, KernelId::kDepthwiseConv2dS83x3Dsp) << static_cast<int>(t);
      EXPECT_EQ(op.scratch_bytes,
                ref.scratch_bytes + depthwise_conv2d_s8_3x3__dsp_scratch_bytes(params_of(d), shape_of(d)));
      EXPECT_EQ(op.params, with_table(ref.params, d));
      EXPECT_EQ(op.macs, ref.macs);
    }
    const LoweredOp m55 = lower(g, Target::kCortexM55);
    if (m55.kernel == KernelId::kDepthwiseConv2dS83x3Dsp) {
      EXPECT_EQ(m55.params, with_table(ref.params, d));
    } else {
      EXPECT_EQ(m55.kernel, KernelId::kDepthwiseConv2dS8Mve);
      EXPECT_EQ(m55.params, ref.params);
    }
    for (Target t : kPlainTargets) EXPECT_EQ(lower(g, t).kernel, KernelId::kDepthwiseConv2dS8);
  }
}

// On its fast path (table mode 1 or 2) the 3x3 variant is row-buffered (window_geometry.h,
// R = 3): its output may start where its input does (these shapes read ahead of every row
// they write), where the reference's block rule needs a shift; a table of mode 0 (the
// general path, pixel by pixel) keeps the block rule.
TEST(LowerVariantsDepthwise, ThreeByThreeFastPathWritesInPlaceWithoutAShift) {
  for (const Dw& d : {Dw{48, 48, 8, 1, 3, 3, 1, 1, 1}, Dw{24, 24, 16, 1, 3, 3, 2, 1, 1},
                      Dw{25, 5, 64, 1, 3, 3, 1, 1, 1}, Dw{7, 5, 13, 1, 3, 3, 1, 1, 0}}) {
    const ir::Graph g = depthwise_graph(d);
    const LoweredOp ref = lower(g, Target::kHost);
    const LoweredOp op = lower(g, Target::kCortexM4);
    ASSERT_EQ(op.kernel, KernelId::kDepthwiseConv2dS83x3Dsp);
    const size_t mode_at = ref.params.size();
    uint32_t mode = 0;
    std::memcpy(&mode, op.params.data() + mode_at, 4);
    ASSERT_NE(mode, 0u) << "the fast path";
    const PixelStreamShape shape = {1, d.h, d.w, d.c, shape_of(d).out_h, shape_of(d).out_w, d.c};
    EXPECT_EQ(kernel_pixel_stream_rows(op.kernel, op.params.data(), op.params.size(), shape), 3u);
    EXPECT_EQ(ref.in_place_input, 0);
    EXPECT_EQ(op.in_place_input, 0);
    EXPECT_GT(ref.in_place_shift, 0u);
    EXPECT_EQ(op.in_place_shift, 0u);
    std::vector<uint8_t> general = op.params;
    std::memset(general.data() + mode_at, 0, 4);
    EXPECT_EQ(kernel_pixel_stream_rows(op.kernel, general.data(), general.size(), shape), 0u);
    EXPECT_EQ(kernel_pixel_stream_rows(op.kernel, general.data(), mode_at + 3, shape), 0u) << "too few bytes";
    EXPECT_EQ(kernel_pixel_stream_rows(KernelId::kDepthwiseConv2dS8, op.params.data(), op.params.size(), shape), 0u);
  }
}

TEST(LowerVariantsDepthwise, ThreeByThreeWithAComputedFilterOrBiasTakesTheGeneralVariant) {
  // The 3x3 variant's table is computed at compile time from the filter and bias: a filter
  // or bias computed at run time takes depthwise_conv2d_s8__dsp.
  const Dw d{12, 12, 8, 1, 3, 3, 1, 1, 1};
  for (int input : {1, 2}) {
    ir::Graph g = depthwise_graph(d);
    ir::Tensor& tensor = g.tensors[g.nodes.back().inputs[input]];
    tensor.is_constant = false;
    tensor.data.clear();
    const LoweredOp ref = lower(g, Target::kHost);
    for (Target t : kDspTargets) {
      const LoweredOp op = lower(g, t);
      EXPECT_EQ(op.kernel, KernelId::kDepthwiseConv2dS8Dsp) << static_cast<int>(t);
      EXPECT_EQ(op.params, ref.params);
      EXPECT_EQ(op.scratch_bytes,
                ref.scratch_bytes + depthwise_conv2d_s8__dsp_scratch_bytes(params_of(d), shape_of(d)));
    }
  }
}

TEST(LowerVariantsDepthwise, OtherFiltersTakeTheGeneralVariant) {
  for (const Dw& d : {Dw{10, 10, 8, 1, 5, 5, 1, 1, 2}, Dw{9, 9, 6, 1, 3, 3, 1, 2, 2},
                      Dw{25, 5, 64, 1, 10, 4, 2, 1, 0}, Dw{6, 6, 5, 1, 1, 1, 1, 1, 0}}) {
    const ir::Graph g = depthwise_graph(d);
    const LoweredOp ref = lower(g, Target::kHost);
    ASSERT_EQ(ref.kernel, KernelId::kDepthwiseConv2dS8);
    for (Target t : kDspTargets) {
      const LoweredOp op = lower(g, t);
      EXPECT_EQ(op.kernel, KernelId::kDepthwiseConv2dS8Dsp) << static_cast<int>(t);
      EXPECT_EQ(op.scratch_bytes,
                ref.scratch_bytes + depthwise_conv2d_s8__dsp_scratch_bytes(params_of(d), shape_of(d)));
      EXPECT_EQ(op.params, ref.params);
    }
    for (Target t : kPlainTargets) EXPECT_EQ(lower(g, t).kernel, KernelId::kDepthwiseConv2dS8);
  }
}

TEST(LowerVariantsDepthwise, DepthMultiplierAboveOneTakesTheMultiplierVariant) {
  // micro_speech's 10x8 filter with multiplier 8, a 3x3 one and a strided dilated one.
  for (const Dw& d : {Dw{8, 8, 4, 2, 3, 3, 1, 1, 1}, Dw{49, 40, 1, 8, 10, 8, 2, 1, 4},
                      Dw{11, 9, 3, 3, 3, 2, 2, 2, 1}}) {
    const ir::Graph g = depthwise_graph(d);
    const LoweredOp ref = lower(g, Target::kHost);
    ASSERT_EQ(ref.kernel, KernelId::kDepthwiseConv2dS8);
    for (Target t : kDspTargets) {
      const LoweredOp op = lower(g, t);
      EXPECT_EQ(op.kernel, KernelId::kDepthwiseConv2dS8MultDsp) << static_cast<int>(t);
      EXPECT_EQ(op.scratch_bytes, ref.scratch_bytes + depthwise_conv2d_s8_mult__dsp_scratch_bytes(
                                                          params_of(d), shape_of(d)));
      // The reference's params, then the filter arranged (every filter byte is 1 here).
      const size_t arranged = depthwise_conv2d_s8_mult__dsp_arranged_bytes(shape_of(d));
      ASSERT_EQ(op.params.size(), ref.params.size() + arranged);
      EXPECT_TRUE(std::equal(ref.params.begin(), ref.params.end(), op.params.begin()));
      std::vector<int8_t> want(arranged);
      const std::vector<int8_t> filter(static_cast<size_t>(d.kh * d.kw * d.c * d.m), 1);
      depthwise_conv2d_s8_mult__dsp_arrange(shape_of(d), filter.data(), want.data());
      EXPECT_EQ(0, std::memcmp(want.data(), op.params.data() + ref.params.size(), arranged));
    }
    EXPECT_EQ(lower(g, Target::kCortexM55).kernel, KernelId::kDepthwiseConv2dS8MultDsp);
    for (Target t : kPlainTargets) EXPECT_EQ(lower(g, t).kernel, KernelId::kDepthwiseConv2dS8);
  }
}

TEST(LowerVariantsDepthwise, DepthMultiplierWithHugeScratchKeepsTheReference) {
  // A 37x37 window: 3 * 37 * 40 bytes of scratch > 4096.
  const ir::Graph g = depthwise_graph(Dw{40, 40, 1, 2, 37, 37, 1, 1, 18});
  for (Target t : kDspTargets) {
    const LoweredOp op = lower(g, t);
    EXPECT_EQ(op.kernel, KernelId::kDepthwiseConv2dS8) << static_cast<int>(t);
    EXPECT_EQ(op.scratch_bytes, lower(g, Target::kHost).scratch_bytes);
  }
}

TEST(LowerVariantsDepthwise, DepthMultiplierWithAComputedFilterKeepsTheReference) {
  // The variant's filter is arranged at compile time: a filter computed at run time stays
  // with the reference.
  ir::Graph g = depthwise_graph(Dw{8, 8, 4, 2, 3, 3, 1, 1, 1});
  ir::Tensor& filter = g.tensors[g.nodes.back().inputs[1]];
  filter.is_constant = false;
  filter.data.clear();
  for (Target t : kDspTargets) EXPECT_EQ(lower(g, t).kernel, KernelId::kDepthwiseConv2dS8) << static_cast<int>(t);
}

TEST(LowerVariantsFullyConnected, EveryInt8LayerTakesTheDspVariant) {
  // Rows longer than 1024 features (micro_speech's 4000 -> 4) take it too, without scratch.
  for (const ir::Graph& g : {fc_graph(1, 640, 128, false), fc_graph(1, 128, 8, true),
                             fc_graph(3, 37, 5, false), fc_graph(1, 3, 2, true),
                             fc_graph(1, 4000, 4, false), fc_graph(2, 1025, 3, true)}) {
    const LoweredOp ref = lower(g, Target::kHost);
    ASSERT_EQ(ref.kernel, KernelId::kFullyConnectedS8);
    const int32_t k = static_cast<int32_t>(g.tensors[g.nodes.back().inputs[1]].shape[1]);
    for (Target t : kDspTargets) {
      const LoweredOp op = lower(g, t);
      EXPECT_EQ(op.kernel, KernelId::kFullyConnectedS8Dsp) << static_cast<int>(t);
      EXPECT_EQ(op.scratch_bytes, ref.scratch_bytes + fully_connected_s8__dsp_scratch_bytes(k));
      EXPECT_EQ(op.params, ref.params);
      EXPECT_EQ(op.macs, ref.macs);
    }
    const LoweredOp m55 = lower(g, Target::kCortexM55);
    EXPECT_TRUE(m55.kernel == KernelId::kFullyConnectedS8Dsp ||
                m55.kernel == KernelId::kFullyConnectedS8Mve);
    EXPECT_EQ(m55.params, ref.params);
    for (Target t : kPlainTargets) EXPECT_EQ(lower(g, t).kernel, KernelId::kFullyConnectedS8);
  }
}

}  // namespace lower_variants_depthwise_fc_test
}  // namespace mote::lower
