// Patch-based execution (compiler/patching/): a stage run tile by tile gives exactly the
// layer-by-layer outputs, for random stages of convolutions, depthwise convolutions,
// pools and residual adds over random geometries and tile grids, on the host and with the
// kernels each Cortex-M target picks; the search applies it only when it pays; and a
// stage that cannot run on tiles is refused with a message naming the node.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "common/error.h"
#include "compiler.h"
#include "ir/graph.h"
#include "compiler/host_run.h"
#include "patching/patching.h"
#include "search/search.h"

namespace mote {
namespace patching_test {

using testing::run_on_host;

// A random chain of spatial ops over one NHWC input, int8 (TFLite scheme) or float32.
struct RandomNet {
  ir::Graph graph;
  std::vector<uint8_t> input;
  std::string description;
};

// With channels_first the model input is NCHW and a transpose (after a clamp, for float)
// makes it NHWC, as legalization does for ONNX models.
RandomNet random_net(std::mt19937& rng, bool int8, bool channels_first) {
  auto pick = [&](int lo, int hi) { return lo + static_cast<int>(rng() % static_cast<uint32_t>(hi - lo + 1)); };
  RandomNet net;
  ir::Graph& g = net.graph;
  const DType dtype = int8 ? DType::kInt8 : DType::kFloat32;
  auto activation = [&](const std::string& name, ir::Shape shape) {
    ir::Tensor t;
    t.name = name;
    t.dtype = dtype;
    t.shape = std::move(shape);
    if (int8) {
      t.quant.scales = {0.02f + 0.01f * static_cast<float>(pick(0, 6))};
      t.quant.zero_points = {pick(-20, 20)};
    }
    return g.add_tensor(std::move(t));
  };
  auto random_bytes = [&](size_t count) {
    std::vector<uint8_t> v(count);
    for (uint8_t& b : v) b = static_cast<uint8_t>(rng());
    return v;
  };
  auto constant = [&](const std::string& name, ir::Shape shape, DType type, std::vector<float> scales, int32_t axis) {
    ir::Tensor t;
    t.name = name;
    t.dtype = type;
    t.shape = std::move(shape);
    t.is_constant = true;
    if (type == DType::kFloat32) {
      std::vector<float> values(static_cast<size_t>(t.elements()));
      std::uniform_real_distribution<float> dist(-0.5f, 0.5f);
      for (float& v : values) v = dist(rng);
      t.data.resize(values.size() * 4);
      std::memcpy(t.data.data(), values.data(), t.data.size());
    } else if (type == DType::kInt32) {
      t.data.resize(static_cast<size_t>(t.elements()) * 4);
      for (size_t i = 0; i < t.data.size(); i += 4) {
        const int32_t b = pick(-3000, 3000);
        std::memcpy(&t.data[i], &b, 4);
      }
    } else {
      t.data = random_bytes(static_cast<size_t>(t.elements()));
    }
    if (!scales.empty()) {
      t.quant.scales = std::move(scales);
      t.quant.zero_points.assign(t.quant.scales.size(), 0);
      t.quant.axis = axis;
    }
    return g.add_tensor(std::move(t));
  };

  const int n = pick(1, 2), h = pick(6, 20), w = pick(6, 20), c = pick(1, 6);
  const int x = channels_first ? activation("x", {n, c, h, w}) : activation("x", {n, h, w, c});
  g.inputs = {x};
  net.input = int8 ? random_bytes(static_cast<size_t>(n * h * w * c)) : std::vector<uint8_t>{};
  if (!int8) {
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<float> values(static_cast<size_t>(n * h * w * c));
    for (float& v : values) v = dist(rng);
    net.input.resize(values.size() * 4);
    std::memcpy(net.input.data(), values.data(), net.input.size());
  }
  int cur = x;
  if (channels_first) {
    if (!int8 && rng() % 2 == 0) {
      ir::Node clamp;
      clamp.name = "clamp_nchw";
      clamp.op = ir::Op::kClamp;
      clamp.inputs = {cur};
      clamp.outputs = {activation("clamp_nchw:0", {n, c, h, w})};
      clamp.attrs["min"] = -0.5;
      clamp.attrs["max"] = 0.75;
      cur = clamp.outputs[0];
      g.nodes.push_back(std::move(clamp));
      net.description += " clamp";
    }
    ir::Node transpose;
    transpose.name = "to_nhwc";
    transpose.op = ir::Op::kTranspose;
    transpose.inputs = {cur};
    transpose.outputs = {activation("to_nhwc:0", {n, h, w, c})};
    transpose.attrs["perm"] = std::vector<int64_t>{0, 2, 3, 1};
    if (int8) g.tensors[static_cast<size_t>(transpose.outputs[0])].quant = g.tensors[static_cast<size_t>(cur)].quant;
    cur = transpose.outputs[0];
    g.nodes.push_back(std::move(transpose));
    net.description += " transpose";
  }
  const int length = pick(2, 6);
  for (int i = 0; i < length; ++i) {
    const ir::Shape in_shape = g.tensors[cur].shape;
    const int ih = static_cast<int>(in_shape[1]), iw = static_cast<int>(in_shape[2]), ic = static_cast<int>(in_shape[3]);
    const std::string name = "op" + std::to_string(i);
    ir::Node node;
    node.name = name;
    // A residual add of the current tensor with the one two ops back, when shapes allow.
    if (g.nodes.size() >= 2 && rng() % 4 == 0) {
      const int other = g.nodes[g.nodes.size() - 2].outputs[0];
      if (g.tensors[other].shape == in_shape) {
        node.op = ir::Op::kAdd;
        node.inputs = {cur, other};
        node.outputs = {activation(name + ":0", in_shape)};
        net.description += " add";
        cur = node.outputs[0];
        g.nodes.push_back(std::move(node));
        continue;
      }
    }
    const int kind = pick(0, 4);
    const bool pool = kind >= 3;
    const int kh = pick(1, 3), kw = pick(1, 3), sh = pick(1, 2), sw = pick(1, 2);
    const int dh = pool ? 1 : pick(1, 2), dw = pool ? 1 : pick(1, 2);
    const int pt = pick(0, kh - 1), pb = pick(0, kh - 1), pl = pick(0, kw - 1), pr = pick(0, kw - 1);
    const int eh = dh * (kh - 1) + 1, ew = dw * (kw - 1) + 1;
    if (ih + pt + pb < eh || iw + pl + pr < ew) continue;
    const int oh = (ih + pt + pb - eh) / sh + 1, ow = (iw + pl + pr - ew) / sw + 1;
    node.attrs["strides"] = std::vector<int64_t>{sh, sw};
    node.attrs["pads"] = std::vector<int64_t>{pt, pl, pb, pr};
    node.attrs["dilations"] = std::vector<int64_t>{dh, dw};
    int oc = ic;
    if (kind <= 1) {
      node.op = ir::Op::kConv2d;
      oc = pick(1, 10);
    } else if (kind == 2) {
      node.op = ir::Op::kDepthwiseConv2d;
      const int multiplier = rng() % 3 == 0 ? 2 : 1;
      oc = ic * multiplier;
      node.attrs["depth_multiplier"] = int64_t{multiplier};
    } else {
      node.op = kind == 3 ? ir::Op::kAvgPool2d : ir::Op::kMaxPool2d;
      node.attrs["kernel"] = std::vector<int64_t>{kh, kw};
      if (kind == 3 && !int8) node.attrs["count_include_pad"] = int64_t{static_cast<int64_t>(rng() % 2)};
    }
    node.inputs = {cur};
    if (!pool) {
      std::vector<float> scales;
      if (int8)
        for (int o = 0; o < oc; ++o) scales.push_back(0.002f * static_cast<float>(1 + o % 4));
      const bool conv = node.op == ir::Op::kConv2d;
      const ir::Shape filter_shape = conv ? ir::Shape{oc, kh, kw, ic} : ir::Shape{1, kh, kw, oc};
      node.inputs.push_back(constant(name + "/filter", filter_shape, dtype, scales, conv ? 0 : 3));
      std::vector<float> bias_scales;
      for (float s : scales) bias_scales.push_back(s * g.tensors[cur].quant.scales[0]);
      node.inputs.push_back(constant(name + "/bias", {oc}, int8 ? DType::kInt32 : DType::kFloat32, bias_scales, 0));
    }
    node.outputs = {activation(name + ":0", {n, oh, ow, oc})};
    if (int8 && node.op == ir::Op::kMaxPool2d) g.tensors[node.outputs[0]].quant = g.tensors[cur].quant;
    if (int8 && node.op == ir::Op::kAvgPool2d) g.tensors[node.outputs[0]].quant = g.tensors[cur].quant;
    net.description += std::string(" ") + ir::op_name(node.op) + " k" + std::to_string(kh) + "x" + std::to_string(kw) + " s" +
                       std::to_string(sh) + "," + std::to_string(sw) + " d" + std::to_string(dh) + "," +
                       std::to_string(dw) + " p" + std::to_string(pt) + std::to_string(pl) + std::to_string(pb) +
                       std::to_string(pr) + " ->[" + std::to_string(oh) + "," + std::to_string(ow) + "," +
                       std::to_string(oc) + "]";
    cur = node.outputs[0];
    g.nodes.push_back(std::move(node));
  }
  g.outputs = {cur};
  return net;
}

void expect_random_stages_identical(bool int8, uint32_t seed, const std::vector<std::string>& targets) {
  std::mt19937 rng(seed);
  int cases = 0;
  for (int round = 0; round < 2000 && cases < 150; ++round) {
    RandomNet net = random_net(rng, int8, rng() % 3 == 0);
    const size_t ops = net.graph.nodes.size();
    if (ops == 0) continue;
    const size_t first = rng() % ops;
    const size_t end = first + 1 + rng() % (ops - first);
    if (!patching::stage_problem(net.graph, first, end).empty()) continue;
    const ir::Tensor& out = net.graph.tensors[net.graph.nodes[end - 1].outputs[0]];
    patching::Stage stage{first, end, 1 + static_cast<int>(rng() % std::min<int64_t>(4, out.shape[1])),
                          1 + static_cast<int>(rng() % std::min<int64_t>(4, out.shape[2]))};
    if (stage.rows * stage.cols == 1) continue;
    ir::Graph patched;
    try {
      patched = patching::patch_stage(net.graph, stage);
    } catch (const CompileError& e) {
      // Only a tile made of padding alone may be refused.
      EXPECT_NE(std::string(e.what()).find("reads only padding"), std::string::npos) << e.what();
      continue;
    }
    ++cases;
    SCOPED_TRACE("case " + std::to_string(cases) + ":" + net.description + "; stage " + std::to_string(first) + ".." +
                 std::to_string(end) + " in " + std::to_string(stage.rows) + "x" + std::to_string(stage.cols));
    for (const std::string& target : targets) {
      SCOPED_TRACE(target);
      const CompileResult whole = lower_to_program(net.graph, target);
      const CompileResult tiled = lower_to_program(patched, target);
      const auto want = run_on_host(whole.program, net.input);
      const auto got = run_on_host(tiled.program, net.input);
      ASSERT_EQ(want.size(), 1u);
      ASSERT_EQ(got.size(), 1u);
      ASSERT_EQ(got[0], want[0]);
    }
  }
  EXPECT_GE(cases, 100);
}

// tile_conv_macs (the search's recompute cap, without building the graph) counts what
// patch_stage's graph runs in place of the stage, and refuses what patch_stage refuses.
TEST(Patching, TileConvMacsCountThePatchedStagesConvolutions) {
  std::mt19937 rng(77);
  int cases = 0;
  for (int round = 0; round < 2000 && cases < 150; ++round) {
    RandomNet net = random_net(rng, rng() % 2 == 0, rng() % 3 == 0);
    const ir::Graph& g = net.graph;
    const size_t ops = g.nodes.size();
    if (ops == 0) continue;
    const size_t first = rng() % ops;
    const size_t end = first + 1 + rng() % (ops - first);
    if (!patching::stage_problem(g, first, end).empty()) continue;
    const ir::Tensor& out = g.tensors[g.nodes[end - 1].outputs[0]];
    const patching::Stage stage{first, end, 1 + static_cast<int>(rng() % std::min<int64_t>(5, out.shape[1])),
                                1 + static_cast<int>(rng() % std::min<int64_t>(5, out.shape[2]))};
    if (stage.rows * stage.cols == 1) continue;
    ir::Graph patched;
    try {
      patched = patching::patch_stage(g, stage);
    } catch (const CompileError& e) {
      EXPECT_THROW((void)patching::tile_conv_macs(g, stage), CompileError) << e.what();
      continue;
    }
    ++cases;
    auto macs_of = [](const ir::Graph& graph, size_t from, size_t to) {
      uint64_t macs = 0;
      for (size_t k = from; k < to; ++k)
        macs += patching::conv_macs(graph, graph.nodes[k], graph.tensors[graph.nodes[k].outputs[0]].elements());
      return macs;
    };
    const uint64_t outside = macs_of(g, 0, first) + macs_of(g, end, ops);
    EXPECT_EQ(outside + patching::tile_conv_macs(g, stage), macs_of(patched, 0, patched.nodes.size()))
        << net.description << "; stage " << first << ".." << end << " in " << stage.rows << "x" << stage.cols;
  }
  EXPECT_GE(cases, 100);
}

TEST(Patching, RandomInt8StagesGiveIdenticalOutputsOnEveryTarget) {
  expect_random_stages_identical(true, 2026, {"host", "cortex-m0plus", "cortex-m4", "cortex-m55"});
}

TEST(Patching, RandomFloatStagesGiveIdenticalOutputs) { expect_random_stages_identical(false, 1130, {"host"}); }

// x [1,32,32,4] -> conv 3x3 -> conv 3x3 stride 2 -> fully_connected: the first two run on
// tiles, the fully connected op cannot.
ir::Graph conv_net() {
  ir::Graph g;
  auto tensor = [&](const std::string& name, ir::Shape shape) {
    ir::Tensor t;
    t.name = name;
    t.shape = std::move(shape);
    return g.add_tensor(std::move(t));
  };
  auto constant = [&](const std::string& name, ir::Shape shape) {
    std::vector<float> values(static_cast<size_t>(ir::element_count(shape)));
    for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(static_cast<int>(i * 37 % 19) - 9) / 64.0f;
    std::vector<uint8_t> data(values.size() * 4);
    std::memcpy(data.data(), values.data(), data.size());
    return g.add_constant(name, DType::kFloat32, std::move(shape), std::move(data));
  };
  const int x = tensor("x", {1, 32, 32, 4});
  g.inputs = {x};
  const int a = tensor("a", {1, 32, 32, 32});
  const int b = tensor("b", {1, 16, 16, 8});
  const int flat = tensor("flat", {1, 2048});
  const int y = tensor("y", {1, 10});
  auto conv = [&](const std::string& name, int in, int out, int stride, int64_t oc, int64_t ic) {
    ir::Node n;
    n.name = name;
    n.op = ir::Op::kConv2d;
    n.inputs = {in, constant(name + "/w", {oc, 3, 3, ic}), constant(name + "/b", {oc})};
    n.outputs = {out};
    n.attrs["strides"] = std::vector<int64_t>{stride, stride};
    n.attrs["pads"] = std::vector<int64_t>{1, 1, 1, 1};
    g.nodes.push_back(std::move(n));
  };
  conv("conv_a", x, a, 1, 32, 4);
  conv("conv_b", a, b, 2, 8, 32);
  ir::Node reshape;
  reshape.name = "flatten";
  reshape.op = ir::Op::kReshape;
  reshape.inputs = {b};
  reshape.outputs = {flat};
  g.nodes.push_back(std::move(reshape));
  ir::Node fc;
  fc.name = "classifier";
  fc.op = ir::Op::kFullyConnected;
  fc.inputs = {flat, constant("fc/w", {10, 2048}), constant("fc/b", {10})};
  fc.outputs = {y};
  g.nodes.push_back(std::move(fc));
  g.outputs = {y};
  return g;
}

TEST(Patching, RefusesStagesThatCannotRunOnTiles) {
  const ir::Graph g = conv_net();
  EXPECT_EQ(patching::stage_problem(g, 0, 2), "");
  EXPECT_EQ(patching::stage_problem(g, 0, 3), "node 'flatten' (reshape): output 'flat' is not 4-D (NHWC)");
  EXPECT_EQ(patching::stage_problem(g, 3, 4), "node 'classifier' (fully_connected): output 'y' is not 4-D (NHWC)");
  EXPECT_EQ(patching::stage_problem(g, 1, 1), "the stage holds no nodes");
  try {
    patching::patch_stage(g, {0, 2, 17, 1});
    FAIL() << "a 17-row grid over 16 rows was accepted";
  } catch (const CompileError& e) {
    EXPECT_STREQ(e.what(),
                 "patching nodes 'conv_a' to 'conv_b': a 17x1 grid does not split the 16x16 output 'b' into tiles");
  }
  // Two activations leave a stage whose first op's output is also read after it.
  ir::Graph two_exits = g;
  two_exits.outputs.push_back(1);  // 'a' becomes a graph output too
  EXPECT_EQ(patching::stage_problem(two_exits, 0, 2), "the stage leaves 2 activations behind (1 allowed)");
  // A ceil-mode pool's output size cannot be tiled.
  ir::Graph pooled = g;
  ir::Node& second = pooled.nodes[1];
  second.op = ir::Op::kMaxPool2d;
  second.inputs = {second.inputs[0]};
  second.attrs["kernel"] = std::vector<int64_t>{2, 2};
  second.attrs["pads"] = std::vector<int64_t>{0, 0, 0, 0};
  pooled.tensors[static_cast<size_t>(second.outputs[0])].shape = {1, 16, 16, 32};
  EXPECT_EQ(patching::stage_problem(pooled, 0, 2), "");
  second.attrs["kernel"] = std::vector<int64_t>{3, 3};  // floor gives 15, the tensor says 16 (ceil)
  EXPECT_EQ(patching::stage_problem(pooled, 0, 2),
            "node 'conv_b' (max_pool2d): output size is not floor((in + pads - extent) / stride) + 1");
}

TEST(Patching, SearchAppliesItOnlyWhereItLowersTheArena) {
  const ir::Graph g = conv_net();
  SearchReport searches;
  CompileOptions options;
  options.patching = Patching::kOff;
  const CompileResult off = search::lower_for_memory(g, options, searches);
  EXPECT_FALSE(off.report.patching.has_value());

  EXPECT_EQ(searches.patching.candidates, 0u);

  options.patching = Patching::kAuto;
  options.max_recompute = 0.25;
  searches = {};
  const CompileResult on = search::lower_for_memory(g, options, searches);
  ASSERT_TRUE(on.report.patching.has_value());
  const PatchReport& p = *on.report.patching;
  ASSERT_TRUE(p.applied);
  // What the searches tried: one op order (a chain has no other), the stage x grid
  // candidates ranked (at least those linked), one plan or more per link.
  EXPECT_EQ(searches.op_order.candidates, 1u);
  EXPECT_GE(searches.patching.candidates, p.candidates);
  EXPECT_GE(searches.planner.candidates, 1 + p.candidates);
  EXPECT_EQ(searches.variant_fallback.candidates, 0u);  // --optimize speed
  EXPECT_GT(searches.patching.seconds, 0.0);
  EXPECT_EQ(p.unpatched_arena_bytes, off.report.arena_bytes);
  EXPECT_LT(on.report.arena_bytes, off.report.arena_bytes);
  EXPECT_EQ(p.first_op, "conv_a");
  EXPECT_EQ(p.last_op, "conv_b");
  EXPECT_EQ(on.report.macs, off.report.macs + p.extra_macs);
  EXPECT_LE(p.extra_macs, off.report.macs / 4);
  // The same outputs, to the bit.
  std::vector<float> values(32 * 32 * 4);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(static_cast<int>(i * 7 % 23) - 11) / 8.0f;
  std::vector<uint8_t> input(values.size() * 4);
  std::memcpy(input.data(), values.data(), input.size());
  EXPECT_EQ(run_on_host(on.program, input), run_on_host(off.program, input));

  options.max_recompute = -0.5;
  try {
    search::lower_for_memory(g, options, searches);
    FAIL() << "a negative --max-recompute was accepted";
  } catch (const CompileError& e) {
    EXPECT_STREQ(e.what(), "--max-recompute must be a non-negative fraction of the model's MACs");
  }

  // Without room for recomputation, a 3x3 convolution chain's tiles cannot overlap.
  options.max_recompute = 0.0;
  const CompileResult capped = search::lower_for_memory(g, options, searches);
  ASSERT_TRUE(capped.report.patching.has_value());
  EXPECT_FALSE(capped.report.patching->applied);
  EXPECT_EQ(capped.report.arena_bytes, off.report.arena_bytes);
  EXPECT_EQ(capped.program, off.program);
}

}  // namespace patching_test
}  // namespace mote
