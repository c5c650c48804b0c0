// What real converters write that TensorFlow Lite Micro accepts, accepted here too, each
// in a file built with the quirk: a 1-D bias whose quantized_dimension was copied from
// its 4-D filter, per-channel quantization with one channel, constant data stored after
// the flatbuffer (Buffer.offset / size), an optional input given as an empty tensor, and
// (TfliteBuilt.UnusedExtraSubgraphsAreIgnored) subgraphs besides the one that runs. Each
// runs and gives the outputs of the same model written the plain way.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "common/error.h"
#include "compiler.h"
#include "compiler/host_run.h"
#include "import/tflite/tflite_importer.h"
#include "ops/tflite_builder.h"
#include "test_util.h"

namespace mote {
namespace tflite_quirks_test {

using testing::build_model;
using testing::bytes_of;
using testing::ModelSpec;
using testing::OpSpec;
using testing::quantized;
using testing::TensorSpec;
namespace fb = mote::tflite;

std::string write_temp(const std::string& name, const std::vector<uint8_t>& bytes) {
  const std::string path = ::testing::TempDir() + "/" + name;
  testing::write_bytes(path, bytes);
  return path;
}

std::vector<uint8_t> program_of(const std::string& name, const ModelSpec& spec) {
  CompileOptions options;
  options.model_path = write_temp(name, build_model(spec));
  return compile(options).program;
}

std::vector<uint8_t> random_bytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> v(n);
  for (uint8_t& b : v) b = static_cast<uint8_t>(rng());
  return v;
}

// x [1,5,5,3] int8 -> DEPTHWISE_CONV_2D (per-channel filter [1,3,3,3], quantized_dimension
// 3; int32 bias [3] whose quantized_dimension is `bias_dimension`) -> y [1,3,3,3].
ModelSpec depthwise_model(int32_t bias_dimension) {
  const std::vector<float> filter_scales = {0.011f, 0.023f, 0.007f};
  TensorSpec filter("filter", {1, 3, 3, 3}, fb::TensorType::INT8, random_bytes(27, 5));
  filter.scales = filter_scales;
  filter.zero_points = {0, 0, 0};
  filter.quantized_dimension = 3;
  TensorSpec bias("bias", {3}, fb::TensorType::INT32, bytes_of(std::vector<int32_t>{120, -75, 3001}));
  for (float s : filter_scales) bias.scales.push_back(0.05f * s);
  bias.zero_points = {0, 0, 0};
  bias.quantized_dimension = bias_dimension;
  ModelSpec m;
  m.tensors = {quantized("x", {1, 5, 5, 3}, fb::TensorType::INT8, 0.05f, 2), filter, bias,
               quantized("y", {1, 3, 3, 3}, fb::TensorType::INT8, 0.1f, -1)};
  OpSpec op;
  op.code = static_cast<int32_t>(fb::BuiltinOperator::DEPTHWISE_CONV_2D);
  op.inputs = {0, 1, 2};
  op.outputs = {3};
  op.options_type = fb::BuiltinOptions::DepthwiseConv2DOptions;
  op.options = [](flatbuffers::FlatBufferBuilder& b) {
    return fb::CreateDepthwiseConv2DOptions(b, fb::Padding::VALID, 1, 1, 1).Union();
  };
  m.ops = {op};
  m.inputs = {0};
  m.outputs = {3};
  return m;
}

TEST(TfliteQuirks, BiasQuantizedDimensionOfItsFilterIsReadAsItsOneAxis) {
  // TensorFlow Lite Micro's person_detect.tflite: "quantized_dimension 3" on a [8] bias.
  const ir::Graph g = import_tflite(write_temp("bias_dim3.tflite", build_model(depthwise_model(3))));
  ASSERT_EQ(g.nodes.size(), 1u);
  const ir::Tensor& bias = g.tensors[g.nodes[0].inputs[2]];
  EXPECT_EQ(bias.quant.axis, 0);
  EXPECT_EQ(bias.quant.scales.size(), 3u);
  const std::vector<uint8_t> input = random_bytes(75, 9);
  EXPECT_EQ(testing::run_on_host(program_of("bias_dim3.tflite", depthwise_model(3)), input),
            testing::run_on_host(program_of("bias_dim0.tflite", depthwise_model(0)), input));
  // Only a 1-D tensor whose one axis holds the scales: anything else stays refused.
  ModelSpec wrong = depthwise_model(3);
  wrong.tensors[2].shape = {1, 3};
  const std::string path = write_temp("bias_2d.tflite", build_model(wrong));
  try {
    import_tflite(path);
    ADD_FAILURE() << "a 2-D tensor with quantized_dimension 3 imported";
  } catch (const CompileError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": tensor 'bias' has quantized_dimension 3 out of range for shape [1,3]");
  }
}

TEST(TfliteQuirks, PerChannelQuantizationWithOneChannelIsPerTensor) {
  // A filter with one output channel written per channel (one scale, quantized_dimension
  // 3 on the depthwise [1,3,3,1]) and the same filter written per tensor.
  auto one_channel = [](bool per_channel) {
    ModelSpec m = depthwise_model(0);
    m.tensors[0] = quantized("x", {1, 5, 5, 1}, fb::TensorType::INT8, 0.05f, 2);
    m.tensors[1] = TensorSpec("filter", {1, 3, 3, 1}, fb::TensorType::INT8, random_bytes(9, 6));
    m.tensors[1].scales = {0.02f};
    m.tensors[1].zero_points = {0};
    m.tensors[1].quantized_dimension = per_channel ? 3 : 0;
    m.tensors[2] = TensorSpec("bias", {1}, fb::TensorType::INT32, bytes_of(std::vector<int32_t>{-40}));
    m.tensors[2].scales = {0.001f};
    m.tensors[2].zero_points = {0};
    m.tensors[3] = quantized("y", {1, 3, 3, 1}, fb::TensorType::INT8, 0.1f, -1);
    return m;
  };
  const std::vector<uint8_t> input = random_bytes(25, 10);
  const auto per_channel = testing::run_on_host(program_of("one_channel_pc.tflite", one_channel(true)), input);
  ASSERT_EQ(per_channel.size(), 1u);
  EXPECT_EQ(per_channel, testing::run_on_host(program_of("one_channel_pt.tflite", one_channel(false)), input));
}

TEST(TfliteQuirks, ConstantsStoredAfterTheFlatbufferAreRead) {
  ModelSpec after = depthwise_model(0);
  after.buffers_after_flatbuffer = true;
  const std::vector<uint8_t> file = build_model(after);
  const std::vector<uint8_t> plain = build_model(depthwise_model(0));
  const std::vector<uint8_t> input = random_bytes(75, 11);
  EXPECT_EQ(testing::run_on_host(program_of("after.tflite", after), input),
            testing::run_on_host(program_of("plain.tflite", depthwise_model(0)), input));
  const ir::Graph g = import_tflite(write_temp("after.tflite", file));
  EXPECT_EQ(g.tensors[g.nodes[0].inputs[1]].data, depthwise_model(0).tensors[1].data);
  // The data cut off: the buffer that lay past the end is named.
  std::vector<uint8_t> cut = file;
  cut.resize(cut.size() - 4);
  const std::string path = write_temp("cut.tflite", cut);
  try {
    import_tflite(path);
    ADD_FAILURE() << "a file missing its buffers' bytes imported";
  } catch (const CompileError& e) {
    // The bias's 12 bytes are the file's last.
    EXPECT_EQ(std::string(e.what()), path + ": tensor 'bias' buffer 2 of 12 bytes at offset " +
                                         std::to_string(file.size() - 12) + " lies outside the file of " +
                                         std::to_string(cut.size()) + " bytes");
  }
}

TEST(TfliteQuirks, AnEmptyTensorForAnOptionalInputIsAbsent) {
  // FULLY_CONNECTED x [2,4] -> y [2,3] with its bias left out: -1, or a float tensor of
  // shape [0] (as some converters write it).
  auto fc = [](bool empty_tensor) {
    ModelSpec m;
    std::vector<float> w(12);
    for (size_t i = 0; i < w.size(); ++i) w[i] = 0.25f * static_cast<float>(i) - 1.0f;
    m.tensors = {TensorSpec("x", {2, 4}), TensorSpec("w", {3, 4}, fb::TensorType::FLOAT32, bytes_of(w)),
                 TensorSpec("y", {2, 3}), TensorSpec("no_bias", {0})};
    OpSpec op;
    op.code = static_cast<int32_t>(fb::BuiltinOperator::FULLY_CONNECTED);
    op.inputs = {0, 1, empty_tensor ? 3 : -1};
    op.outputs = {2};
    m.ops = {op};
    m.inputs = {0};
    m.outputs = {2};
    return m;
  };
  const std::vector<float> x = {1, 2, 3, 4, -1, 0.5f, 0, 2};
  const auto with_empty = testing::run_on_host(program_of("fc_empty_bias.tflite", fc(true)), bytes_of(x));
  ASSERT_EQ(with_empty.size(), 1u);
  EXPECT_EQ(with_empty, testing::run_on_host(program_of("fc_no_bias.tflite", fc(false)), bytes_of(x)));
  // y[0][0] = sum_k x[0][k] * w[0][k] = 1*-1 + 2*-0.75 + 3*-0.5 + 4*-0.25
  float y00;
  std::memcpy(&y00, with_empty[0].data(), 4);
  EXPECT_EQ(y00, -5.0f);
}

}  // namespace tflite_quirks_test
}  // namespace mote
