// .tflite importer: every shared .tflite model imports to a valid Mote-op graph with the
// expected ops, shapes and quantization; small models built here with the generated
// flatbuffers builder pin the option handling (padding, masks, activations) and the
// one-line errors; truncated, garbage and bit-flipped files are refused, never crash.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <random>
#include <span>
#include <set>
#include <string>
#include <vector>

#include "common/error.h"
#include "compiler.h"
#include "compiler/host_run.h"
#include "import/tflite/tflite_importer.h"
#include "import/tflite/tflite_schema_generated.h"
#include "ir/graph.h"
#include "ops/tflite_builder.h"
#include "refused_models.h"

namespace mote {
namespace {

namespace fb = mote::tflite;
using Ints = std::vector<int64_t>;

std::string shared_model(const std::string& relative) {
  return std::string(MOTE_SHARED_DIR) + "/models/tflite/" + relative;
}

template <typename Fn>
std::string error_of(Fn&& fn) {
  try {
    fn();
  } catch (const CompileError& e) {
    return e.what();
  }
  return "";
}

std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string write_temp(const std::string& name, const std::vector<uint8_t>& bytes) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return path;
}

std::vector<std::string> op_sequence(const ir::Graph& g) {
  std::vector<std::string> ops;
  for (const ir::Node& n : g.nodes) ops.push_back(ir::op_name(n.op));
  return ops;
}

int per_channel_tensors(const ir::Graph& g) {
  return static_cast<int>(std::count_if(g.tensors.begin(), g.tensors.end(),
                                        [](const ir::Tensor& t) { return t.quant.axis >= 0; }));
}

// The invariants every imported graph keeps: topological order (state readable from the
// start), static shapes,
// constants with exactly their bytes, quantization on int8/int16 tensors, per-channel
// scales matching their axis, only Mote ops. Every tensor a node reads is a graph input, a
// constant, state, an NPU op's scratch or an earlier node's output.
void expect_valid_graph(const ir::Graph& g) {
  std::vector<bool> available(g.tensors.size(), false);
  for (int id : g.inputs) available.at(id) = true;
  for (size_t i = 0; i < g.tensors.size(); ++i) {
    const ir::Tensor& t = g.tensors[i];
    if (t.is_constant) EXPECT_EQ(static_cast<int64_t>(t.data.size()), t.bytes()) << t.name;
    if (t.is_constant || t.is_persistent) available[i] = true;  // state: what the run before left
    if (t.offline_offset >= 0 && t.dtype == DType::kUInt8 && t.shape.size() == 1)
      available[i] = true;  // an NPU op's scratch (Vela's working area): nothing writes it
    for (int64_t d : t.shape) EXPECT_GE(d, 0) << t.name;
    if (t.dtype == DType::kInt8 || t.dtype == DType::kInt16) {
      EXPECT_FALSE(t.quant.empty()) << t.name;
    }
    if (!t.quant.empty()) {
      EXPECT_EQ(t.quant.scales.size(), t.quant.zero_points.size()) << t.name;
      if (t.quant.axis >= 0) {
        ASSERT_LT(static_cast<size_t>(t.quant.axis), t.shape.size()) << t.name;
        EXPECT_EQ(static_cast<int64_t>(t.quant.scales.size()), t.shape[t.quant.axis]) << t.name;
      } else {
        EXPECT_EQ(t.quant.scales.size(), 1u) << t.name;
      }
    }
  }
  for (const ir::Node& n : g.nodes) {
    EXPECT_LT(static_cast<size_t>(n.op), ir::kOpCount);
    for (int in : n.inputs) {
      if (in == ir::kNoTensor) continue;
      EXPECT_TRUE(available.at(in)) << n.name << " reads '" << g.tensors[in].name << "' before it is written";
    }
    for (int out : n.outputs) available.at(out) = true;
  }
  for (int out : g.outputs) EXPECT_TRUE(available.at(out));
}

// ---- the shared models ----------------------------------------------------------------

// Every .tflite under ../shared/models imports, except the files refused_models.h lists
// as refused at import, each with exactly its message (what follows "<path>: "); a refusal
// not on the list fails, and so does a file listed as refused at import that imports.
TEST(TfliteImport, EveryModelImportsOrIsRefusedForItsCustomOps) {
  const std::string models = std::string(MOTE_SHARED_DIR) + "/models";
  std::set<std::string> refused;
  int imported = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(models)) {
    if (entry.path().extension() != ".tflite") continue;
    const std::string path = entry.path().string();
    const std::string relative = std::filesystem::relative(entry.path(), models).string();
    SCOPED_TRACE(path);
    const mote::testing::Refusal* refusal = mote::testing::refusal_of(relative);
    if (refusal != nullptr && refusal->stage == mote::testing::Refusal::kImport) {
      EXPECT_EQ(error_of([&] { import_tflite(path); }), path + ": " + refusal->message);
      refused.insert(relative);
      continue;
    }
    ir::Graph g;
    ASSERT_NO_THROW(g = import_tflite(path)) << error_of([&] { import_tflite(path); });
    EXPECT_EQ(g.name, entry.path().stem().string());
    EXPECT_FALSE(g.nodes.empty());
    EXPECT_FALSE(g.inputs.empty());
    EXPECT_FALSE(g.outputs.empty());
    expect_valid_graph(g);
    ++imported;
  }
  // 26 in tflite/; in ethos-u/ kws_micronet_m, squeezenet_v1_1_quant, espcn_x3_quant,
  // zero_dce_quant and yolo-fastest_192_face_v4 and their 10 Vela-compiled twins; in
  // realworld/ dncnn_color_blind_quant, zero_dce_pp_quant and Mobilenet_v3_small_quant.
  EXPECT_EQ(imported, 44);
  for (const auto& [file, refusal] : mote::testing::refused_models()) {
    if (!file.ends_with(".tflite") || refusal.stage != mote::testing::Refusal::kImport) continue;
    EXPECT_TRUE(refused.count(file)) << file << " is missing";
  }
}

TEST(TfliteImport, OpSequencesOfTheModels) {
  using Ops = std::vector<std::string>;
  const Ops dw_block = {"depthwise_conv2d", "conv2d"};
  Ops kws = {"conv2d"};
  for (int i = 0; i < 4; ++i) kws.insert(kws.end(), dw_block.begin(), dw_block.end());
  kws.insert(kws.end(), {"avg_pool2d", "reshape", "fully_connected", "softmax"});
  Ops vww = {"conv2d"};
  for (int i = 0; i < 13; ++i) vww.insert(vww.end(), dw_block.begin(), dw_block.end());
  vww.insert(vww.end(), {"avg_pool2d", "reshape", "fully_connected", "softmax"});
  const Ops resnet = {"conv2d", "conv2d", "conv2d", "add", "conv2d", "conv2d", "conv2d", "add",
                      "conv2d", "conv2d", "conv2d", "add", "avg_pool2d", "reshape",
                      "fully_connected", "softmax"};
  const std::vector<std::pair<std::string, Ops>> expected = {
      {"mlperf_tiny/ad01_int8.tflite", Ops(10, "fully_connected")},
      {"mlperf_tiny/kws_ref_model.tflite", kws},
      {"mlperf_tiny/kws_ref_model_float32.tflite", kws},
      {"mlperf_tiny/pretrainedResnet_quant.tflite", resnet},
      {"mlperf_tiny/vww_96_int8.tflite", vww},
      {"tflm/hello_world_float.tflite", Ops(3, "fully_connected")},
      {"tflm/hello_world_int8.tflite", Ops(3, "fully_connected")},
      // The FC reads the depthwise output [1,25,20,8] directly: a reshape is inserted.
      {"tflm/micro_speech_quantized.tflite",
       {"reshape", "depthwise_conv2d", "reshape", "fully_connected", "softmax"}},
      {"tflm/simple_add_model.tflite", {"add"}},
      {"tflm/trained_lstm_int8.tflite", {"lstm", "copy", "copy", "reshape", "fully_connected", "softmax"}},
      {"seanet/add/add0.tflite", {"add"}},
      {"seanet/add/add1.tflite", {"add"}},
      {"seanet/conv/conv0.tflite", {"conv2d"}},
      {"seanet/conv/conv1.tflite", {"conv2d"}},
      {"seanet/leaky_relu/leaky_relu0.tflite", {"leaky_relu"}},
      {"seanet/leaky_relu/leaky_relu1.tflite", {"leaky_relu"}},
      {"seanet/pad/pad0.tflite", {"pad"}},
      {"seanet/pad/pad1.tflite", {"pad"}},
      {"seanet/quantize/quantize0.tflite", {"quantize"}},
      {"seanet/quantize/quantize1.tflite", {"quantize"}},
      {"seanet/strided_slice/strided_slice0.tflite", {"strided_slice"}},
      {"seanet/strided_slice/strided_slice1.tflite", {"strided_slice"}},
      {"seanet/sub/sub0.tflite", {"sub"}},
      {"seanet/sub/sub1.tflite", {"sub"}},
      {"seanet/transpose_conv/transpose_conv0.tflite", {"transpose_conv"}},
      {"seanet/transpose_conv/transpose_conv1.tflite", {"transpose_conv"}},
  };
  for (const auto& [model, ops] : expected) {
    SCOPED_TRACE(model);
    EXPECT_EQ(op_sequence(import_tflite(shared_model(model))), ops);
  }
}

TEST(TfliteImport, KeywordSpottingQuantizationAndConvAttributes) {
  const ir::Graph g = import_tflite(shared_model("mlperf_tiny/kws_ref_model.tflite"));
  ASSERT_EQ(g.inputs.size(), 1u);
  const ir::Tensor& in = g.tensors[g.inputs[0]];
  EXPECT_EQ(in.name, "input_1");
  EXPECT_EQ(in.dtype, DType::kInt8);
  EXPECT_EQ(in.shape, (ir::Shape{1, 49, 10, 1}));  // shape_signature [-1,49,10,1]
  EXPECT_FLOAT_EQ(in.quant.scales.at(0), 0.5847029f);
  EXPECT_EQ(in.quant.zero_points.at(0), 83);
  EXPECT_EQ(in.quant.axis, -1);
  const ir::Tensor& out = g.tensors[g.outputs.at(0)];
  EXPECT_EQ(out.name, "Identity");
  EXPECT_EQ(out.shape, (ir::Shape{1, 12}));
  EXPECT_FLOAT_EQ(out.quant.scales.at(0), 0.00390625f);
  EXPECT_EQ(out.quant.zero_points.at(0), -128);
  EXPECT_EQ(per_channel_tensors(g), 18);  // 9 filters + 9 biases

  // First conv: 10x4 filter, stride 2, SAME on 49x10 -> 25x5: pads 4/5 and 1/1.
  const ir::Node& conv = g.nodes.at(0);
  EXPECT_EQ(conv.op, ir::Op::kConv2d);
  EXPECT_EQ(conv.get_ints("strides"), (Ints{2, 2}));
  EXPECT_EQ(conv.get_ints("dilations"), (Ints{1, 1}));
  EXPECT_EQ(conv.get_ints("pads"), (Ints{4, 1, 5, 1}));
  EXPECT_EQ(conv.get_int("group", 0), 1);
  EXPECT_EQ(conv.get_float("act_min", -1), 0.0);
  EXPECT_FALSE(conv.has("act_max"));
  const ir::Tensor& filter = g.tensors[conv.inputs.at(1)];
  EXPECT_TRUE(filter.is_constant);
  EXPECT_EQ(filter.shape, (ir::Shape{64, 10, 4, 1}));
  EXPECT_EQ(filter.quant.axis, 0);
  EXPECT_EQ(filter.quant.scales.size(), 64u);
  const ir::Tensor& bias = g.tensors[conv.inputs.at(2)];
  EXPECT_EQ(bias.dtype, DType::kInt32);
  EXPECT_EQ(bias.quant.scales.size(), 64u);
  // The bias scale is the input scale times the filter scale, per channel.
  for (size_t c = 0; c < 64; ++c)
    EXPECT_NEAR(bias.quant.scales[c], in.quant.scales[0] * filter.quant.scales[c], 1e-6 * bias.quant.scales[c]);

  const ir::Node& dw = g.nodes.at(1);
  EXPECT_EQ(dw.op, ir::Op::kDepthwiseConv2d);
  EXPECT_EQ(dw.get_int("depth_multiplier", 0), 1);
  EXPECT_EQ(dw.get_ints("pads"), (Ints{1, 1, 1, 1}));
  EXPECT_EQ(g.tensors[dw.inputs.at(1)].quant.axis, 3);

  const ir::Node& pool = g.nodes.at(9);
  EXPECT_EQ(pool.op, ir::Op::kAvgPool2d);
  EXPECT_EQ(pool.get_ints("kernel"), (Ints{25, 5}));
  EXPECT_EQ(pool.get_ints("strides"), (Ints{25, 5}));
  EXPECT_EQ(pool.get_ints("pads"), (Ints{0, 0, 0, 0}));
  EXPECT_EQ(pool.get_int("count_include_pad", 1), 0);
  EXPECT_EQ(g.nodes.back().get_float("beta", 0), 1.0);
}

TEST(TfliteImport, PerChannelCountsOfTheOtherModels) {
  EXPECT_EQ(per_channel_tensors(import_tflite(shared_model("mlperf_tiny/vww_96_int8.tflite"))), 54);
  EXPECT_EQ(per_channel_tensors(import_tflite(shared_model("mlperf_tiny/pretrainedResnet_quant.tflite"))), 18);
  EXPECT_EQ(per_channel_tensors(import_tflite(shared_model("tflm/micro_speech_quantized.tflite"))), 2);
  EXPECT_EQ(per_channel_tensors(import_tflite(shared_model("mlperf_tiny/ad01_int8.tflite"))), 0);
}

TEST(TfliteImport, HybridFloatModelKeepsItsInt8Filters) {
  const ir::Graph g = import_tflite(shared_model("mlperf_tiny/kws_ref_model_float32.tflite"));
  EXPECT_EQ(g.tensors[g.inputs[0]].dtype, DType::kFloat32);
  int int8_filters = 0;
  for (const ir::Node& n : g.nodes) {
    const ir::Tensor& w = g.tensors[n.inputs.size() > 1 ? n.inputs[1] : n.inputs[0]];
    if (n.op == ir::Op::kConv2d) {
      EXPECT_EQ(w.dtype, DType::kInt8);
      EXPECT_EQ(w.quant.scales.size(), 1u);
      ++int8_filters;
    }
    if (n.op == ir::Op::kDepthwiseConv2d || n.op == ir::Op::kFullyConnected) {
      EXPECT_EQ(w.dtype, DType::kFloat32);
    }
  }
  EXPECT_EQ(int8_filters, 5);
}

TEST(TfliteImport, ResnetStride2SamePadsAndAdds) {
  const ir::Graph g = import_tflite(shared_model("mlperf_tiny/pretrainedResnet_quant.tflite"));
  const ir::Tensor& in = g.tensors[g.inputs[0]];
  EXPECT_FLOAT_EQ(in.quant.scales[0], 1.0f);
  EXPECT_EQ(in.quant.zero_points[0], -128);
  // 3x3 stride 2 SAME on 32x32 -> 16x16: total padding 1, all of it after.
  const ir::Node& down = g.nodes.at(4);
  EXPECT_EQ(down.get_ints("strides"), (Ints{2, 2}));
  EXPECT_EQ(down.get_ints("pads"), (Ints{0, 0, 1, 1}));
  const ir::Node& add = g.nodes.at(3);
  EXPECT_EQ(add.op, ir::Op::kAdd);
  EXPECT_EQ(add.get_float("act_min", -1), 0.0);
  // The two add inputs have their own quantization; the add rescales.
  EXPECT_NE(g.tensors[add.inputs[0]].quant.scales[0], g.tensors[add.inputs[1]].quant.scales[0]);
}

TEST(TfliteImport, MicroSpeechDepthMultiplierAndInsertedReshape) {
  const ir::Graph g = import_tflite(shared_model("tflm/micro_speech_quantized.tflite"));
  const ir::Node& dw = g.nodes.at(1);
  EXPECT_EQ(dw.get_int("depth_multiplier", 0), 8);
  EXPECT_EQ(dw.get_ints("strides"), (Ints{2, 2}));
  EXPECT_EQ(dw.get_ints("pads"), (Ints{4, 3, 5, 3}));  // 10x8 on 49x40, stride 2, SAME
  EXPECT_EQ(g.tensors[dw.inputs[1]].shape, (ir::Shape{1, 10, 8, 8}));
  const ir::Node& flat = g.nodes.at(2);
  EXPECT_EQ(flat.op, ir::Op::kReshape);
  EXPECT_EQ(g.tensors[flat.inputs[0]].shape, (ir::Shape{1, 25, 20, 8}));
  EXPECT_EQ(g.tensors[flat.outputs[0]].shape, (ir::Shape{1, 4000}));
  // The inserted tensor keeps the quantization of the one it reshapes.
  EXPECT_EQ(g.tensors[flat.outputs[0]].quant.scales, g.tensors[flat.inputs[0]].quant.scales);
  EXPECT_EQ(g.tensors[g.nodes.at(3).outputs[0]].shape, (ir::Shape{1, 4}));
}

TEST(TfliteImport, LstmKeepsItsInputsOptionsStateAndIntermediates) {
  const ir::Graph g = import_tflite(shared_model("tflm/trained_lstm_int8.tflite"));
  const ir::Node& lstm = g.nodes.at(0);
  ASSERT_EQ(lstm.op, ir::Op::kLstm);
  ASSERT_EQ(lstm.inputs.size(), 24u);
  for (int k : {9, 10, 11, 16, 17, 20, 21, 22, 23}) EXPECT_EQ(lstm.inputs[k], ir::kNoTensor) << k;
  for (int k : {1, 2, 3, 4}) EXPECT_EQ(g.tensors[lstm.inputs[k]].shape, (ir::Shape{20, 28})) << k;
  for (int k : {5, 6, 7, 8}) EXPECT_EQ(g.tensors[lstm.inputs[k]].shape, (ir::Shape{20, 20})) << k;
  for (int k : {12, 13, 14, 15}) EXPECT_EQ(g.tensors[lstm.inputs[k]].dtype, DType::kInt32) << k;
  const ir::Tensor& hidden = g.tensors[lstm.inputs[18]];
  const ir::Tensor& cell = g.tensors[lstm.inputs[19]];
  // The state persists between runs (filled with the zero point, 0 here, at load); the
  // op's outputs 1 and 2 are its new value, which two copies write back after the op.
  EXPECT_TRUE(hidden.is_persistent && !hidden.is_constant);
  EXPECT_TRUE(cell.is_persistent && !cell.is_constant);
  EXPECT_EQ(hidden.dtype, DType::kInt8);
  EXPECT_EQ(hidden.shape, (ir::Shape{1, 20}));
  EXPECT_EQ(cell.dtype, DType::kInt16);
  EXPECT_FLOAT_EQ(cell.quant.scales[0], 1.0f / 4096);
  ASSERT_EQ(lstm.outputs.size(), 3u);
  for (int k : {1, 2}) {
    const ir::Tensor& next = g.tensors[lstm.outputs[k]];
    const ir::Tensor& state = g.tensors[lstm.inputs[17 + k]];
    EXPECT_EQ(next.dtype, state.dtype);
    EXPECT_EQ(next.shape, state.shape);
    EXPECT_EQ(next.quant.scales, state.quant.scales);
    const ir::Node& copy = g.nodes.at(static_cast<size_t>(k));
    EXPECT_EQ(copy.op, ir::Op::kCopy);
    EXPECT_EQ(copy.inputs, (std::vector<int>{lstm.outputs[k]}));
    EXPECT_EQ(copy.outputs, (std::vector<int>{lstm.inputs[17 + k]}));
  }
  EXPECT_EQ(lstm.get_string("activation"), "tanh");
  EXPECT_EQ(lstm.get_float("cell_clip", 0), 10.0);
  EXPECT_EQ(lstm.get_float("proj_clip", -1), 0.0);
  EXPECT_EQ(lstm.get_int("time_major", -1), 0);
  const auto scales = std::get<std::vector<double>>(lstm.attrs.at("intermediate_scales"));
  ASSERT_EQ(scales.size(), 5u);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(scales[i], 0.0);  // the float gate intermediates
  EXPECT_FLOAT_EQ(static_cast<float>(scales[4]), hidden.quant.scales[0]);
  EXPECT_EQ(lstm.get_ints("intermediate_zero_points"), (Ints{0, 0, 0, 0, 0}));
  EXPECT_EQ(g.tensors[lstm.outputs[0]].shape, (ir::Shape{1, 28, 20}));
}

TEST(TfliteImport, SeanetInt16Layers) {
  {
    const ir::Graph g = import_tflite(shared_model("seanet/conv/conv0.tflite"));
    const ir::Node& conv = g.nodes.at(0);
    EXPECT_EQ(g.tensors[conv.inputs[0]].dtype, DType::kInt16);
    EXPECT_EQ(g.tensors[conv.inputs[1]].dtype, DType::kInt8);
    EXPECT_EQ(g.tensors[conv.inputs[2]].dtype, DType::kInt64);
    EXPECT_EQ(g.tensors[conv.inputs[1]].quant.scales.size(), 8u);
    EXPECT_EQ(conv.get_ints("pads"), (Ints{0, 0, 0, 0}));
  }
  {
    const ir::Graph g = import_tflite(shared_model("seanet/add/add0.tflite"));
    EXPECT_EQ(g.nodes.at(0).get_int("pot_scale_int16", 1), 0);
    EXPECT_EQ(g.inputs.size(), 2u);
  }
  {
    const ir::Graph g = import_tflite(shared_model("seanet/sub/sub0.tflite"));
    EXPECT_EQ(g.nodes.at(0).get_int("pot_scale_int16", 1), 0);
    EXPECT_EQ(g.tensors[g.nodes.at(0).inputs[1]].shape, (ir::Shape{64}));  // broadcast
  }
  {
    const ir::Graph g = import_tflite(shared_model("seanet/pad/pad0.tflite"));
    const ir::Node& pad = g.nodes.at(0);
    EXPECT_EQ(pad.get_ints("pads"), (Ints{0, 0, 3, 0, 0, 0, 3, 0}));
    EXPECT_EQ(pad.get_string("mode"), "constant");
    EXPECT_EQ(pad.get_float("value", 1), 0.0);
  }
  {
    const ir::Graph g = import_tflite(shared_model("seanet/strided_slice/strided_slice0.tflite"));
    const ir::Node& ss = g.nodes.at(0);  // begin_mask 13, end_mask 15 on [1,8,166,2]
    EXPECT_EQ(ss.get_ints("begin"), (Ints{0, 2, 0, 0}));
    EXPECT_EQ(ss.get_ints("strides"), (Ints{1, 1, 1, 1}));
    EXPECT_EQ(ss.get_ints("sizes"), (Ints{1, 6, 166, 2}));
    EXPECT_EQ(g.tensors[ss.outputs[0]].shape, (ir::Shape{1, 6, 166, 2}));
  }
  {
    const ir::Graph g = import_tflite(shared_model("seanet/quantize/quantize0.tflite"));
    const ir::Node& q = g.nodes.at(0);
    EXPECT_EQ(g.tensors[q.inputs[0]].dtype, DType::kInt32);
    EXPECT_EQ(g.tensors[q.outputs[0]].dtype, DType::kInt16);
    EXPECT_FALSE(g.tensors[q.inputs[0]].quant.empty());
  }
  {
    const ir::Graph g = import_tflite(shared_model("seanet/leaky_relu/leaky_relu0.tflite"));
    EXPECT_FLOAT_EQ(static_cast<float>(g.nodes.at(0).get_float("alpha", 0)), 0.3f);
  }
  {
    // The output_shape input stays a graph input (input 0, int32 [4]) that no op reads.
    const ir::Graph g = import_tflite(shared_model("seanet/transpose_conv/transpose_conv0.tflite"));
    ASSERT_EQ(g.inputs.size(), 2u);
    const ir::Tensor& shape = g.tensors[g.inputs[0]];
    EXPECT_EQ(shape.dtype, DType::kInt32);
    EXPECT_EQ(shape.shape, (ir::Shape{4}));
    EXPECT_TRUE(g.consumers(g.inputs[0]).empty());
    const ir::Node& tc = g.nodes.at(0);
    ASSERT_EQ(tc.inputs.size(), 3u);
    EXPECT_EQ(tc.inputs[0], g.inputs[1]);
    EXPECT_EQ(g.tensors[tc.inputs[1]].shape, (ir::Shape{64, 3, 4, 64}));
    EXPECT_EQ(g.tensors[tc.inputs[2]].dtype, DType::kInt64);
    EXPECT_EQ(tc.get_ints("strides"), (Ints{1, 2}));
    EXPECT_EQ(tc.get_ints("pads"), (Ints{0, 0, 0, 0}));
    EXPECT_EQ(g.tensors[tc.outputs[0]].shape, (ir::Shape{1, 3, 12, 64}));
  }
}

TEST(TfliteImport, ImportModelDispatchesOnTheExtension) {
  const ir::Graph g = import_model(shared_model("tflm/hello_world_int8.tflite"));
  EXPECT_EQ(op_sequence(g), (std::vector<std::string>(3, "fully_connected")));
}

TEST(TfliteImport, BufferImportMatchesFileImport) {
  const std::string path = shared_model("mlperf_tiny/kws_ref_model.tflite");
  const ir::Graph from_file = import_tflite(path);
  const ir::Graph from_memory = import_tflite_buffer(read_file(path), "somewhere/kws_ref_model.tflite");
  EXPECT_EQ(from_memory.name, "kws_ref_model");
  EXPECT_EQ(op_sequence(from_memory), op_sequence(from_file));
  ASSERT_EQ(from_memory.tensors.size(), from_file.tensors.size());
  for (size_t i = 0; i < from_file.tensors.size(); ++i) {
    EXPECT_EQ(from_memory.tensors[i].shape, from_file.tensors[i].shape);
    EXPECT_EQ(from_memory.tensors[i].data, from_file.tensors[i].data);
  }
  EXPECT_EQ(error_of([] { import_tflite_buffer({}, "empty.tflite"); }),
            "empty.tflite: not a .tflite model (no 'TFL3' file identifier)");
}

// ---- small models built here ------------------------------------------------------------

using testing::build_model;
using testing::bytes_of;
using testing::ModelSpec;
using testing::OpSpec;
using testing::TensorSpec;

std::vector<uint8_t> floats(size_t n) { return bytes_of(std::vector<float>(n, 0.5f)); }

constexpr int32_t kAdd = static_cast<int32_t>(fb::BuiltinOperator::ADD);
constexpr int32_t kConv = static_cast<int32_t>(fb::BuiltinOperator::CONV_2D);

// x [1,H,W,2] -> CONV_2D with a [4,3,3,2] filter and [4] bias -> y [1,OH,OW,4].
ModelSpec conv_model(int32_t h, int32_t w, int32_t oh, int32_t ow, fb::Padding padding, int32_t stride,
                     int32_t dilation, fb::ActivationFunctionType act = fb::ActivationFunctionType::NONE) {
  ModelSpec m;
  m.tensors = {{"x", {1, h, w, 2}},
               {"filter", {4, 3, 3, 2}, fb::TensorType::FLOAT32, floats(72)},
               {"bias", {4}, fb::TensorType::FLOAT32, floats(4)},
               {"y", {1, oh, ow, 4}}};
  OpSpec op;
  op.code = kConv;
  op.inputs = {0, 1, 2};
  op.outputs = {3};
  op.options_type = fb::BuiltinOptions::Conv2DOptions;
  op.options = [=](flatbuffers::FlatBufferBuilder& b) {
    return fb::CreateConv2DOptions(b, padding, stride, stride, act, dilation, dilation).Union();
  };
  m.ops = {op};
  m.inputs = {0};
  m.outputs = {3};
  return m;
}

// a [1,4] + b [1,4] -> y, with `code` as the op (default ADD) and optional options.
ModelSpec add_model(int32_t code = kAdd, fb::ActivationFunctionType act = fb::ActivationFunctionType::NONE) {
  ModelSpec m;
  m.tensors = {{"a", {1, 4}}, {"b", {1, 4}}, {"y", {1, 4}}};
  OpSpec op;
  op.code = code;
  op.inputs = {0, 1};
  op.outputs = {2};
  if (act != fb::ActivationFunctionType::NONE) {
    op.options_type = fb::BuiltinOptions::AddOptions;
    op.options = [=](flatbuffers::FlatBufferBuilder& b) { return fb::CreateAddOptions(b, act).Union(); };
  }
  m.ops = {op};
  m.inputs = {0, 1};
  m.outputs = {2};
  return m;
}

ir::Graph import_spec(const std::string& name, const ModelSpec& spec) {
  return import_tflite(write_temp(name, build_model(spec)));
}

// The error importing `spec` written as `name`, with the temp folder cut from the path:
// "name.tflite: operator 0 ...".
std::string import_error(const std::string& name, const ModelSpec& spec) {
  const std::string path = write_temp(name, build_model(spec));
  std::string message = error_of([&] { import_tflite(path); });
  if (message.rfind(path, 0) == 0) message = name + message.substr(path.size());
  return message;
}

// A 16x8 conv without a bias keeps the file's quantized_bias_type INT32 (TFLite's int32
// accumulator); with a bias, or unset, no attribute: the bias dtype (or int64) rules.
TEST(TfliteBuilt, BiaslessConvKeepsQuantizedBiasTypeInt32) {
  for (const auto type : {fb::TensorType::INT32, fb::TensorType::FLOAT32}) {
    ModelSpec m = conv_model(5, 5, 5, 5, fb::Padding::SAME, 1, 1);
    m.ops[0].inputs = {0, 1, -1};
    m.ops[0].options = [=](flatbuffers::FlatBufferBuilder& b) {
      return fb::CreateConv2DOptions(b, fb::Padding::SAME, 1, 1, fb::ActivationFunctionType::NONE, 1, 1, type)
          .Union();
    };
    const ir::Graph g = import_spec("conv_no_bias.tflite", m);
    ASSERT_EQ(g.nodes.size(), 1u);
    EXPECT_EQ(g.nodes[0].get_string("quantized_bias_type", "(unset)"),
              type == fb::TensorType::INT32 ? "int32" : "(unset)");
  }
}

TEST(TfliteBuilt, SameAndValidPaddingMatchTflite) {
  struct Case {
    int32_t h, w, oh, ow;
    fb::Padding padding;
    int32_t stride, dilation;
    Ints pads;
  };
  const Case cases[] = {
      // SAME, stride 2: total = (out - 1) * 2 + 3 - in; before = total / 2, rest after.
      {8, 7, 4, 4, fb::Padding::SAME, 2, 1, {0, 1, 1, 1}},
      {5, 6, 3, 3, fb::Padding::SAME, 2, 1, {1, 0, 1, 1}},
      // SAME, dilation 2 (span 5), stride 1: total 4.
      {8, 7, 8, 7, fb::Padding::SAME, 1, 2, {2, 2, 2, 2}},
      // SAME where the window already fits: total clamps at 0.
      {6, 6, 3, 3, fb::Padding::SAME, 2, 1, {0, 0, 1, 1}},
      {8, 8, 2, 2, fb::Padding::SAME, 4, 1, {0, 0, 0, 0}},
      // VALID: no padding.
      {8, 7, 3, 3, fb::Padding::VALID, 2, 1, {0, 0, 0, 0}},
      {9, 9, 5, 5, fb::Padding::VALID, 1, 2, {0, 0, 0, 0}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::to_string(c.h) + "x" + std::to_string(c.w) + " stride " + std::to_string(c.stride));
    const ir::Graph g = import_spec("conv.tflite", conv_model(c.h, c.w, c.oh, c.ow, c.padding, c.stride, c.dilation));
    ASSERT_EQ(g.nodes.size(), 1u);
    EXPECT_EQ(g.nodes[0].get_ints("pads"), c.pads);
    EXPECT_EQ(g.nodes[0].get_ints("strides"), (Ints{c.stride, c.stride}));
    EXPECT_EQ(g.nodes[0].get_ints("dilations"), (Ints{c.dilation, c.dilation}));
  }
}

TEST(TfliteBuilt, FusedActivationsBecomeRealBounds) {
  using A = fb::ActivationFunctionType;
  auto bounds = [](A act) {
    const ir::Graph g = import_spec("act.tflite", conv_model(4, 4, 4, 4, fb::Padding::SAME, 1, 1, act));
    const ir::Node& n = g.nodes.at(0);
    return std::pair<double, double>{n.get_float("act_min", -INFINITY), n.get_float("act_max", INFINITY)};
  };
  EXPECT_EQ(bounds(A::NONE), (std::pair<double, double>{-INFINITY, INFINITY}));
  EXPECT_EQ(bounds(A::RELU), (std::pair<double, double>{0.0, INFINITY}));
  EXPECT_EQ(bounds(A::RELU6), (std::pair<double, double>{0.0, 6.0}));
  EXPECT_EQ(bounds(A::RELU_N1_TO_1), (std::pair<double, double>{-1.0, 1.0}));
}

TEST(TfliteBuilt, UnsupportedFusedActivationNamesOperatorAndValue) {
  const ModelSpec tanh = conv_model(4, 4, 4, 4, fb::Padding::SAME, 1, 1, fb::ActivationFunctionType::TANH);
  EXPECT_EQ(import_error("model.tflite", tanh), "model.tflite: operator 0 (CONV_2D): fused activation TANH not supported");
  EXPECT_EQ(import_error("sign_bit.tflite", add_model(kAdd, fb::ActivationFunctionType::SIGN_BIT)),
            "sign_bit.tflite: operator 0 (ADD): fused activation SIGN_BIT not supported");
}

TEST(TfliteBuilt, UnknownAndUnsupportedOpCodes) {
  EXPECT_EQ(import_error("unknown.tflite", add_model(250)),
            "unknown.tflite: operator 0: op code 250 (unknown) not supported");
  // GELU (150) needs the int32 builtin_code field; the byte field holds the placeholder.
  EXPECT_EQ(import_error("gelu.tflite", add_model(150)), "gelu.tflite: operator 0: op code 150 (GELU) not supported");
  EXPECT_EQ(import_error("lookup.tflite", add_model(10)),
            "lookup.tflite: operator 0: op code 10 (HASHTABLE_LOOKUP) not supported");
}

TEST(TfliteBuilt, CustomOpIsRefusedBeforeAnyOtherProblem) {
  ModelSpec m = add_model(150);  // operator 0: an unsupported builtin
  m.tensors.push_back({"z", {1, 4}});
  OpSpec custom;
  custom.code = static_cast<int32_t>(fb::BuiltinOperator::CUSTOM);
  custom.custom = "MyFancyOp";
  custom.inputs = {2};
  custom.outputs = {3};
  m.ops.push_back(custom);
  m.outputs = {3};
  EXPECT_EQ(import_error("custom.tflite", m), "custom.tflite: operator 1: custom op 'MyFancyOp' not supported");
}

TEST(TfliteBuilt, DynamicDimensionsOnlyInTheBatch) {
  ModelSpec batch = add_model();
  batch.tensors[0].signature = {-1, 4};
  const ir::Graph g = import_spec("batch.tflite", batch);
  EXPECT_EQ(g.tensors[g.inputs[0]].shape, (ir::Shape{1, 4}));

  ModelSpec dynamic = add_model();
  dynamic.tensors[1].signature = {1, -1};
  EXPECT_EQ(import_error("dynamic.tflite", dynamic),
            "dynamic.tflite: tensor 'b' has a dynamic dimension 1 (shape_signature [1,-1]), not supported");
}

TEST(TfliteBuilt, TensorTypeAndQuantizationChecks) {
  ModelSpec uint32 = add_model();
  uint32.tensors[0].type = fb::TensorType::UINT32;
  EXPECT_EQ(import_error("uint32.tflite", uint32), "uint32.tflite: tensor 'a' has type UINT32, not supported");

  ModelSpec unquantized = add_model();
  for (auto& t : unquantized.tensors) t.type = fb::TensorType::INT8;
  EXPECT_EQ(import_error("int8.tflite", unquantized),
            "int8.tflite: tensor 'a' (int8) has no quantization parameters");

  ModelSpec quantized = add_model();
  for (auto& t : quantized.tensors) {
    t.type = fb::TensorType::INT8;
    t.scales = {0.25f};
    t.zero_points = {-3};
  }
  const ir::Graph g = import_spec("int8_ok.tflite", quantized);
  EXPECT_EQ(g.tensors[g.inputs[0]].quant.scales, std::vector<float>{0.25f});
  EXPECT_EQ(g.tensors[g.inputs[0]].quant.zero_points, std::vector<int32_t>{-3});
  EXPECT_EQ(g.tensors[g.inputs[0]].quant.axis, -1);

  ModelSpec per_channel = conv_model(4, 4, 4, 4, fb::Padding::SAME, 1, 1);
  per_channel.tensors[1].scales = {0.1f, 0.2f, 0.3f};  // 3 scales for 4 output channels
  per_channel.tensors[1].zero_points = {0, 0, 0};
  EXPECT_EQ(import_error("per_channel.tflite", per_channel),
            "per_channel.tflite: tensor 'filter' of shape [4,3,3,2] has 3 quantization scales, expected 4 (dim 0)");
  per_channel.tensors[1].scales.push_back(0.4f);
  EXPECT_EQ(import_error("zero_points.tflite", per_channel),
            "zero_points.tflite: tensor 'filter' has 4 quantization scales but 3 zero points");
  per_channel.tensors[1].zero_points.push_back(0);
  const ir::Graph pc = import_spec("per_channel_ok.tflite", per_channel);
  EXPECT_EQ(pc.tensors[pc.nodes[0].inputs[1]].quant.axis, 0);
}

TEST(TfliteBuilt, StructuralErrors) {
  ModelSpec read_early = add_model();
  read_early.tensors.push_back({"later", {1, 4}});
  read_early.ops[0].inputs = {0, 3};  // 'later' is written by nobody, before or after
  EXPECT_EQ(import_error("read_early.tflite", read_early),
            "read_early.tflite: operator 0 (ADD): input 1 'later' is read before any operator writes it");

  ModelSpec bad_index = add_model();
  bad_index.ops[0].inputs = {0, 7};
  EXPECT_EQ(import_error("bad_index.tflite", bad_index),
            "bad_index.tflite: operator 0 (ADD): input 1 tensor index 7 out of range (3 tensors)");

  ModelSpec version = add_model();
  version.version = 2;
  EXPECT_EQ(import_error("version.tflite", version), "version.tflite: schema version 2 not supported (expected 3)");

  ModelSpec wrong_options = add_model();
  wrong_options.ops[0].options_type = fb::BuiltinOptions::SoftmaxOptions;
  wrong_options.ops[0].options = [](flatbuffers::FlatBufferBuilder& b) {
    return fb::CreateSoftmaxOptions(b, 1.0f).Union();
  };
  EXPECT_EQ(import_error("wrong_options.tflite", wrong_options),
            "wrong_options.tflite: operator 0 (ADD): builtin options of type 9 (SoftmaxOptions), expected AddOptions");

  ModelSpec wrong_shape = add_model();
  wrong_shape.tensors[2].shape = {1, 5};
  EXPECT_EQ(import_error("wrong_shape.tflite", wrong_shape),
            "wrong_shape.tflite: operator 0 (ADD): output 'y' has shape [1,5], expected [1,4]");

  ModelSpec missing_options = conv_model(4, 4, 4, 4, fb::Padding::SAME, 1, 1);
  missing_options.ops[0].options_type = fb::BuiltinOptions::NONE;
  missing_options.ops[0].options = nullptr;
  EXPECT_EQ(import_error("no_options.tflite", missing_options),
            "no_options.tflite: operator 0 (CONV_2D): builtin options missing");

  ModelSpec stride0 = conv_model(4, 4, 4, 4, fb::Padding::SAME, 0, 1);
  EXPECT_EQ(import_error("stride0.tflite", stride0),
            "stride0.tflite: operator 0 (CONV_2D): stride_h 0 not supported (must be >= 1)");

  // VALID padding: the window rule (window_output_size) leaves no output pixel when the
  // dilated kernel (extent 5) is larger than the input.
  ModelSpec no_fit = conv_model(4, 4, 1, 1, fb::Padding::VALID, 1, 2);
  EXPECT_EQ(import_error("no_fit.tflite", no_fit),
            "no_fit.tflite: operator 0 (CONV_2D): kernel of size 3 (dilation 2) does not fit an input of size 4");
}

TEST(TfliteBuilt, UnusedExtraSubgraphsAreIgnored) {
  ModelSpec m = add_model();
  m.extra_subgraphs = 2;
  EXPECT_EQ(op_sequence(import_spec("subgraphs.tflite", m)), std::vector<std::string>{"add"});
}

TEST(TfliteBuilt, FullyConnectedFlattensAndRefusesShuffledWeights) {
  ModelSpec m;
  m.tensors = {{"x", {1, 2, 3, 4}},
               {"w", {5, 12}, fb::TensorType::FLOAT32, floats(60)},
               {"y", {2, 5}}};
  OpSpec op;
  op.code = static_cast<int32_t>(fb::BuiltinOperator::FULLY_CONNECTED);
  op.inputs = {0, 1, -1};  // no bias
  op.outputs = {2};
  m.ops = {op};
  m.inputs = {0};
  m.outputs = {2};
  const ir::Graph g = import_spec("fc.tflite", m);
  ASSERT_EQ(op_sequence(g), (std::vector<std::string>{"reshape", "fully_connected"}));
  EXPECT_EQ(g.tensors[g.nodes[0].outputs[0]].shape, (ir::Shape{2, 12}));
  EXPECT_EQ(g.nodes[1].inputs.size(), 2u);  // the omitted bias is dropped

  m.ops[0].options_type = fb::BuiltinOptions::FullyConnectedOptions;
  m.ops[0].options = [](flatbuffers::FlatBufferBuilder& b) {
    return fb::CreateFullyConnectedOptions(b, fb::ActivationFunctionType::NONE,
                                           fb::FullyConnectedOptionsWeightsFormat::SHUFFLED4x16INT8)
        .Union();
  };
  EXPECT_EQ(import_error("fc_shuffled.tflite", m),
            "fc_shuffled.tflite: operator 0 (FULLY_CONNECTED): weights_format SHUFFLED4x16INT8 not supported");
}

// x [4,6] sliced with constant begin/end/strides and the given options.
ModelSpec slice_model(std::vector<int32_t> begin, std::vector<int32_t> end, std::vector<int32_t> strides,
                      std::vector<int32_t> out_shape, int32_t begin_mask, int32_t end_mask, int32_t shrink_mask,
                      bool offset = false, int32_t ellipsis_mask = 0) {
  ModelSpec m;
  m.tensors = {{"x", {4, 6}},
               {"begin", {2}, fb::TensorType::INT32, bytes_of(begin)},
               {"end", {2}, fb::TensorType::INT32, bytes_of(end)},
               {"strides", {2}, fb::TensorType::INT32, bytes_of(strides)},
               {"y", out_shape}};
  OpSpec op;
  op.code = static_cast<int32_t>(fb::BuiltinOperator::STRIDED_SLICE);
  op.inputs = {0, 1, 2, 3};
  op.outputs = {4};
  op.options_type = fb::BuiltinOptions::StridedSliceOptions;
  op.options = [=](flatbuffers::FlatBufferBuilder& b) {
    return fb::CreateStridedSliceOptions(b, begin_mask, end_mask, ellipsis_mask, 0, shrink_mask, offset).Union();
  };
  m.ops = {op};
  m.inputs = {0};
  m.outputs = {4};
  return m;
}

TEST(TfliteBuilt, StridedSliceResolvesMasksLikeTflite) {
  {
    // Axis 0: begin 1, end masked (-> 4): rows 1,2,3. Axis 1: begin -1 (5), stride -2,
    // end 0: columns 5,3,1.
    const ir::Graph g = import_spec("ss1.tflite", slice_model({1, -1}, {0, 0}, {1, -2}, {3, 3}, 0, 1, 0));
    const ir::Node& n = g.nodes.at(0);
    EXPECT_EQ(n.get_ints("begin"), (Ints{1, 5}));
    EXPECT_EQ(n.get_ints("strides"), (Ints{1, -2}));
    EXPECT_EQ(n.get_ints("sizes"), (Ints{3, 3}));
  }
  {
    // Shrink axis 0 at index -2 (2); axis 1 begin masked, end 100 clamps to 6, stride 4.
    const ir::Graph g = import_spec("ss2.tflite", slice_model({-2, 3}, {0, 100}, {1, 4}, {2}, 2, 0, 1));
    const ir::Node& n = g.nodes.at(0);
    EXPECT_EQ(n.get_ints("begin"), (Ints{2, 0}));
    EXPECT_EQ(n.get_ints("sizes"), (Ints{1, 2}));
  }
  {
    // offset: end holds sizes relative to begin.
    const ir::Graph g = import_spec("ss3.tflite", slice_model({1, 2}, {2, 3}, {1, 1}, {2, 3}, 0, 0, 0, true));
    EXPECT_EQ(g.nodes.at(0).get_ints("begin"), (Ints{1, 2}));
    EXPECT_EQ(g.nodes.at(0).get_ints("sizes"), (Ints{2, 3}));
  }
  EXPECT_EQ(import_error("ss_ellipsis.tflite", slice_model({0, 0}, {4, 6}, {1, 1}, {4, 6}, 0, 0, 0, false, 1)),
            "ss_ellipsis.tflite: operator 0 (STRIDED_SLICE): ellipsis_mask 1 not supported");
  EXPECT_EQ(import_error("ss_shape.tflite", slice_model({0, 0}, {4, 6}, {1, 2}, {4, 6}, 0, 0, 0)),
            "ss_shape.tflite: operator 0 (STRIDED_SLICE): output 'y' has shape [4,6], expected [4,3]");
  EXPECT_EQ(import_error("ss_empty.tflite", slice_model({3, 0}, {1, 6}, {1, 1}, {0, 6}, 0, 0, 0)),
            "ss_empty.tflite: tensor 'y' of shape [0,6] has no elements");
}

// x of `shape` (int8, or float32 when scale is 0) transposed by a constant perm into y.
ModelSpec transpose_model(std::vector<int32_t> shape, std::vector<int32_t> perm, std::vector<int32_t> out_shape,
                          float scale = 0.5f) {
  const fb::TensorType type = scale > 0 ? fb::TensorType::INT8 : fb::TensorType::FLOAT32;
  TensorSpec x("x", shape, type), y("y", out_shape, type);
  if (scale > 0) {
    x.scales = y.scales = {scale};
    x.zero_points = y.zero_points = {-3};
  }
  const auto perm_size = static_cast<int32_t>(perm.size());
  ModelSpec m;
  m.tensors = {x, {"perm", {perm_size}, fb::TensorType::INT32, bytes_of(perm)}, y};
  OpSpec op;
  op.code = static_cast<int32_t>(fb::BuiltinOperator::TRANSPOSE);
  op.inputs = {0, 1};
  op.outputs = {2};
  m.ops = {op};
  m.inputs = {0};
  m.outputs = {2};
  return m;
}

// The element order TFLite's reference gives: out[i0..] = in[...] with out axis k = in
// axis perm[k], row-major, for element size `bytes`.
std::vector<uint8_t> transposed(const std::vector<uint8_t>& in, const std::vector<int32_t>& shape,
                                const std::vector<int32_t>& perm, size_t bytes) {
  const size_t rank = shape.size();
  std::vector<size_t> in_strides(rank, 1);
  for (size_t k = rank - 1; k-- > 0;) in_strides[k] = in_strides[k + 1] * shape[k + 1];
  std::vector<uint8_t> out;
  std::vector<int32_t> index(rank, 0);  // over the output's axes
  const size_t count = in.size() / bytes;
  for (size_t n = 0; n < count; ++n) {
    size_t offset = 0;
    for (size_t k = 0; k < rank; ++k) offset += index[k] * in_strides[perm[k]];
    out.insert(out.end(), in.begin() + offset * bytes, in.begin() + (offset + 1) * bytes);
    for (size_t k = rank; k-- > 0;) {
      if (++index[k] < shape[perm[k]]) break;
      index[k] = 0;
    }
  }
  return out;
}

// TRANSPOSE becomes a transpose node with its perm; the program moves each element where
// TFLite's reference does (int8 values copied unchanged, 6 axes at most), and a perm
// that is not a permutation, of the wrong length, or an output of the wrong shape is one
// line naming the operator.
TEST(TfliteBuilt, TransposeMovesElementsLikeTflite) {
  struct Case {
    std::vector<int32_t> shape, perm, out;
    float scale;  // 0: float32
  };
  const Case cases[] = {
      {{1, 2, 3, 4}, {0, 3, 1, 2}, {1, 4, 2, 3}, 0.5f},
      {{3, 5}, {1, 0}, {5, 3}, 0.25f},
      {{2, 1, 3, 1, 2, 2}, {5, 2, 0, 4, 1, 3}, {2, 3, 2, 2, 1, 1}, 0.0f},
  };
  std::mt19937 rng(39);
  for (const Case& c : cases) {
    const std::string name = "transpose" + std::to_string(c.shape.size()) + ".tflite";
    SCOPED_TRACE(name);
    const ir::Graph g = import_spec(name, transpose_model(c.shape, c.perm, c.out, c.scale));
    ASSERT_EQ(g.nodes.size(), 1u);
    EXPECT_EQ(g.nodes[0].op, ir::Op::kTranspose);
    EXPECT_EQ(g.nodes[0].get_ints("perm"), Ints(c.perm.begin(), c.perm.end()));

    CompileOptions options;
    options.model_path = write_temp(name, build_model(transpose_model(c.shape, c.perm, c.out, c.scale)));
    const CompileResult compiled = compile(options);
    const size_t bytes = c.scale > 0 ? 1 : 4;
    size_t count = 1;
    for (int32_t d : c.shape) count *= d;
    std::vector<uint8_t> input(count * bytes);
    for (uint8_t& v : input) v = static_cast<uint8_t>(rng());
    if (bytes == 4) {  // finite floats only, so the comparison is of bits that mean numbers
      for (size_t i = 0; i < count; ++i) {
        const float f = std::uniform_real_distribution<float>(-8.0f, 8.0f)(rng);
        std::memcpy(&input[i * 4], &f, 4);
      }
    }
    const std::vector<std::vector<uint8_t>> outputs = testing::run_on_host(compiled.program, input);
    ASSERT_EQ(outputs.size(), 1u);
    EXPECT_EQ(outputs[0], transposed(input, c.shape, c.perm, bytes));
  }
  EXPECT_EQ(import_error("t_dup.tflite", transpose_model({2, 3, 4}, {0, 1, 1}, {2, 3, 3})),
            "t_dup.tflite: operator 0 (TRANSPOSE): perm [0,1,1] is not a permutation of 0..2");
  EXPECT_EQ(import_error("t_neg.tflite", transpose_model({2, 3}, {-1, 0}, {3, 2})),
            "t_neg.tflite: operator 0 (TRANSPOSE): perm [-1,0] is not a permutation of 0..1");
  EXPECT_EQ(import_error("t_len.tflite", transpose_model({2, 3}, {1, 0, 2}, {3, 2})),
            "t_len.tflite: operator 0 (TRANSPOSE): perm [1,0,2] has 3 entries, expected the input rank 2");
  EXPECT_EQ(import_error("t_shape.tflite", transpose_model({2, 3}, {1, 0}, {2, 3})),
            "t_shape.tflite: operator 0 (TRANSPOSE): output 'y' has shape [2,3], expected [3,2]");
  EXPECT_EQ(import_error("t_rank.tflite", transpose_model({1, 1, 1, 1, 1, 1, 2}, {0, 1, 2, 3, 4, 5, 6},
                                                          {1, 1, 1, 1, 1, 1, 2})),
            "t_rank.tflite: operator 0 (TRANSPOSE): input rank 7 not supported (at most 6)");
}

TEST(TfliteBuilt, TransposeConvPadsFollowTheOutput) {
  // input 3x3, 3x3 filter, stride 2, SAME, output 6x6: the conv it inverts (6 -> 3)
  // pads 1 in total, 0 before; 1 trailing row/column is cropped.
  ModelSpec m;
  m.tensors = {{"output_shape", {4}, fb::TensorType::INT32, bytes_of(std::vector<int32_t>{1, 6, 6, 4})},
               {"filter", {4, 3, 3, 2}, fb::TensorType::FLOAT32, floats(72)},
               {"x", {1, 3, 3, 2}},
               {"y", {1, 6, 6, 4}}};
  OpSpec op;
  op.code = static_cast<int32_t>(fb::BuiltinOperator::TRANSPOSE_CONV);
  op.inputs = {0, 1, 2};
  op.outputs = {3};
  op.options_type = fb::BuiltinOptions::TransposeConvOptions;
  op.options = [](flatbuffers::FlatBufferBuilder& b) {
    return fb::CreateTransposeConvOptions(b, fb::Padding::SAME, 2, 2).Union();
  };
  m.ops = {op};
  m.inputs = {2};
  m.outputs = {3};
  const ir::Graph g = import_spec("tconv.tflite", m);
  const ir::Node& n = g.nodes.at(0);
  EXPECT_EQ(n.op, ir::Op::kTransposeConv);
  EXPECT_EQ(n.inputs.size(), 2u);  // input, filter (no bias)
  EXPECT_EQ(n.get_ints("strides"), (Ints{2, 2}));
  EXPECT_EQ(n.get_ints("pads"), (Ints{0, 0, 1, 1}));

  m.tensors[0].data = bytes_of(std::vector<int32_t>{1, 7, 6, 4});
  EXPECT_EQ(import_error("tconv_shape.tflite", m),
            "tconv_shape.tflite: operator 0 (TRANSPOSE_CONV): output_shape [1,7,6,4] differs from output 'y' of shape [1,6,6,4]");
}

TEST(TfliteBuilt, MeanConcatAndPadV2) {
  {
    ModelSpec m;
    m.tensors = {{"x", {1, 3, 4, 5}},
                 {"axis", {2}, fb::TensorType::INT32, bytes_of(std::vector<int32_t>{-2, 1})},
                 {"y", {1, 1, 1, 5}}};
    OpSpec op;
    op.code = static_cast<int32_t>(fb::BuiltinOperator::MEAN);
    op.inputs = {0, 1};
    op.outputs = {2};
    op.options_type = fb::BuiltinOptions::ReducerOptions;
    op.options = [](flatbuffers::FlatBufferBuilder& b) { return fb::CreateReducerOptions(b, true).Union(); };
    m.ops = {op};
    m.inputs = {0};
    m.outputs = {2};
    const ir::Graph g = import_spec("mean.tflite", m);
    EXPECT_EQ(g.nodes.at(0).get_ints("axes"), (Ints{1, 2}));
  }
  {
    ModelSpec m;
    m.tensors = {{"a", {1, 2, 3}}, {"b", {1, 4, 3}}, {"y", {1, 6, 3}}};
    OpSpec op;
    op.code = static_cast<int32_t>(fb::BuiltinOperator::CONCATENATION);
    op.inputs = {0, 1};
    op.outputs = {2};
    op.options_type = fb::BuiltinOptions::ConcatenationOptions;
    op.options = [](flatbuffers::FlatBufferBuilder& b) { return fb::CreateConcatenationOptions(b, -2).Union(); };
    m.ops = {op};
    m.inputs = {0, 1};
    m.outputs = {2};
    const ir::Graph g = import_spec("concat.tflite", m);
    EXPECT_EQ(g.nodes.at(0).get_int("axis", -1), 1);
  }
  {
    // int8 PADV2 whose constant shares the output's quantization: value is its real value.
    auto q = [](TensorSpec t) {
      t.scales = {0.5f};
      t.zero_points = {-10};
      return t;
    };
    ModelSpec m;
    m.tensors = {q({"x", {1, 2}, fb::TensorType::INT8}),
                 {"paddings", {2, 2}, fb::TensorType::INT32, bytes_of(std::vector<int32_t>{0, 0, 1, 2})},
                 q({"value", {1}, fb::TensorType::INT8, {static_cast<uint8_t>(int8_t{-4})}}),
                 q({"y", {1, 5}, fb::TensorType::INT8})};
    OpSpec op;
    op.code = static_cast<int32_t>(fb::BuiltinOperator::PADV2);
    op.inputs = {0, 1, 2};
    op.outputs = {3};
    m.ops = {op};
    m.inputs = {0};
    m.outputs = {3};
    const ir::Graph g = import_spec("padv2.tflite", m);
    const ir::Node& n = g.nodes.at(0);
    EXPECT_EQ(n.get_ints("pads"), (Ints{0, 1, 0, 2}));
    EXPECT_EQ(n.get_float("value", 0), 3.0);  // 0.5 * (-4 - -10)
    EXPECT_EQ(n.inputs.size(), 1u);
  }
}

// ---- corrupted files --------------------------------------------------------------------

// Either imports or throws one CompileError line naming the file; anything else (another
// exception, a crash under the sanitizers) fails the test.
bool imports_or_refuses_cleanly(const std::vector<uint8_t>& bytes) {
  const std::string path = "damaged.tflite";
  try {
    import_tflite_buffer(bytes, path);
    return true;
  } catch (const CompileError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind(path + ": ", 0), 0u) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    return false;
  }
}

TEST(TfliteCorrupt, MissingEmptyTruncatedAndGarbageFilesAreRefused) {
  const std::string missing = ::testing::TempDir() + "/no_such_model.tflite";
  EXPECT_EQ(error_of([&] { import_tflite(missing); }), missing + ": cannot open: No such file or directory");

  const std::vector<uint8_t> model = read_file(shared_model("mlperf_tiny/kws_ref_model.tflite"));
  ASSERT_GT(model.size(), 1000u);
  for (size_t size : {size_t{0}, size_t{4}, size_t{7}, size_t{8}, size_t{16}, size_t{100}, model.size() / 2,
                      model.size() - 100, model.size() - 1}) {
    SCOPED_TRACE(size);
    const std::string path = write_temp("truncated.tflite", {model.begin(), model.begin() + size});
    const std::string error = error_of([&] { import_tflite(path); });
    EXPECT_TRUE(error == path + ": not a .tflite model (no 'TFL3' file identifier)" ||
                error == path + ": corrupted .tflite model (flatbuffer verification failed)")
        << error;
  }

  std::mt19937 rng(7);
  std::vector<uint8_t> garbage(4096);
  for (auto& byte : garbage) byte = static_cast<uint8_t>(rng());
  std::string path = write_temp("garbage.tflite", garbage);
  EXPECT_EQ(error_of([&] { import_tflite(path); }), path + ": not a .tflite model (no 'TFL3' file identifier)");
  std::memcpy(garbage.data() + 4, "TFL3", 4);
  path = write_temp("garbage_tfl3.tflite", garbage);
  EXPECT_EQ(error_of([&] { import_tflite(path); }), path + ": corrupted .tflite model (flatbuffer verification failed)");

  // An ONNX file renamed: refused by its identifier.
  path = write_temp("renamed.tflite", read_file(std::string(MOTE_SHARED_DIR) + "/models/onnx/add_1x5.onnx"));
  EXPECT_EQ(error_of([&] { import_tflite(path); }), path + ": not a .tflite model (no 'TFL3' file identifier)");
}

// Flips bits in every byte of small models: offsets, vtables, lengths, indices, shapes
// and data all get hit. Each variant imports or is refused with one line.
TEST(TfliteCorrupt, BitFlipsAnywhereNeverCrash) {
  for (const char* model : {"tflm/simple_add_model.tflite", "tflm/hello_world_int8.tflite",
                            "seanet/strided_slice/strided_slice0.tflite"}) {
    SCOPED_TRACE(model);
    const std::vector<uint8_t> original = read_file(shared_model(model));
    ASSERT_FALSE(original.empty());
    int refused = 0, variants = 0;
    for (size_t i = 0; i < original.size(); ++i) {
      for (uint8_t mask : {uint8_t{0x01}, uint8_t{0x80}, uint8_t{0xFF}}) {
        std::vector<uint8_t> bytes = original;
        bytes[i] ^= mask;
        if (!imports_or_refuses_cleanly(bytes)) ++refused;
        ++variants;
        if (HasFailure()) return;
      }
    }
    // Flips in the data of constants import fine; flips in the structure are refused.
    EXPECT_GT(refused, variants / 20);
  }
}

// Random multi-byte damage to a model with more structure (LSTM: 24 inputs with
// omitted ones, intermediates, variable tensors, per-tensor quantization everywhere).
TEST(TfliteCorrupt, RandomDamageNeverCrashes) {
  for (const char* model : {"tflm/trained_lstm_int8.tflite", "mlperf_tiny/kws_ref_model.tflite"}) {
    SCOPED_TRACE(model);
    const std::vector<uint8_t> original = read_file(shared_model(model));
    ASSERT_FALSE(original.empty());
    std::mt19937 rng(2024);
    int refused = 0;
    for (int variant = 0; variant < 3000; ++variant) {
      std::vector<uint8_t> bytes = original;
      const int writes = 1 + static_cast<int>(rng() % 4);
      for (int k = 0; k < writes; ++k) bytes[rng() % bytes.size()] = static_cast<uint8_t>(rng());
      if (!imports_or_refuses_cleanly(bytes)) ++refused;
      if (HasFailure()) return;
    }
    EXPECT_GT(refused, 0);
  }
}

// The verifier aligns vectors to 4 bytes: an int64 zero-point vector may sit off its
// 8-byte alignment in a hostile file, and a caller's buffer may start anywhere. Both are
// read without misaligned loads (this matters under UBSan).
TEST(TfliteCorrupt, MisalignedDataIsReadSafely) {
  const std::vector<uint8_t> model = read_file(shared_model("mlperf_tiny/kws_ref_model.tflite"));
  std::vector<uint8_t> shifted(model.size() + 3);
  std::copy(model.begin(), model.end(), shifted.begin() + 3);
  const ir::Graph g = import_tflite_buffer(std::span<const uint8_t>(shifted).subspan(3), "kws.tflite");
  EXPECT_EQ(g.tensors[g.inputs[0]].quant.zero_points.at(0), 83);

  // Found by fuzz/fuzz_tflite (tools/fuzz.sh): a zero_point vector at a 4-byte offset.
  const std::string crash = std::string(MOTE_SOURCE_DIR) + "/fuzz/crashes/tflite_misaligned_int64_zero_point.tflite";
  ASSERT_TRUE(std::filesystem::exists(crash)) << crash << " not present";
  const std::vector<uint8_t> bytes = read_file(crash);
  ASSERT_FALSE(bytes.empty()) << crash;
  imports_or_refuses_cleanly(bytes);
}

TEST(TfliteCorrupt, FlippedOffsetsInTheHeaderAreRefused) {
  // The root table offset and the root vtable: every single-byte change there breaks the
  // structure the verifier checks (or the identifier).
  const std::vector<uint8_t> original = read_file(shared_model("tflm/simple_add_model.tflite"));
  for (size_t i = 0; i < 8; ++i) {
    SCOPED_TRACE(i);
    std::vector<uint8_t> bytes = original;
    bytes[i] ^= 0x40;
    EXPECT_FALSE(imports_or_refuses_cleanly(bytes));
  }
}

}  // namespace
}  // namespace mote
