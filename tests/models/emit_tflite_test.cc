// `mote compile MODEL.onnx --quantize int8 --calibration ... --emit-tflite q.tflite`
// (compiler/emit/tflite_writer.h) on ONNX models Mote quantizes in its other tests (the
// shared ones of ../shared/models/onnx and PyTorch exports of tests/models/pytorch):
//   - the .tflite passes the flatbuffers verifier of our schema and is standard int8
//     TFLite: per-channel int8 filters (quantized_dimension, one scale per output
//     channel), int32 biases of zero point 0, int8 activations between a float QUANTIZE
//     at the input and a DEQUANTIZE at the output;
//   - `mote compile q.tflite` gives a program whose outputs equal the ONNX-quantized
//     program's bit for bit on random inputs over (and beyond) the calibration range;
//   - error paths: no --quantize, an op the writer cannot express (one line naming the
//     node and its op, exit code 1, neither the .tflite nor the program written), a
//     destination that cannot be written.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <random>
#include <set>

#include "flatbuffers/flatbuffers.h"
#include "compiler/host_run.h"
#include "import/tflite/tflite_schema_generated.h"
#include "npy.h"
#include "test_util.h"

namespace mote::testing {
namespace {

namespace fb = mote::tflite;

const std::string kPytorchDir = std::string(MOTE_SOURCE_DIR) + "/tests/models/pytorch/";

struct Model {
  const char* stem;
  bool shared;  // ../shared/models/onnx, else tests/models/pytorch
  // --int16: "off" (all int8, what Vela runs best) or "auto" (the default: TFLite 16x8
  // int16 activations with int64 biases where int8 misses --min-sqnr).
  const char* int16;
  // Some nodes stay float32 (no integer kernel) or compute indices, masks (int32, bool):
  // only int8 and int16 outputs are checked.
  bool mixed;
  std::set<fb::BuiltinOperator> expected_ops;  // operators the file must contain (among others)
};

std::string model_path(const Model& m, const std::string& suffix) {
  return (m.shared ? shared_models() + "/onnx/" : kPytorchDir) + m.stem + suffix;
}

std::vector<std::string> calibration_files(const Model& m) {
  std::vector<std::string> files;
  if (std::filesystem::exists(model_path(m, ".calib.npy"))) files.push_back(model_path(m, ".calib.npy"));
  for (int i = 0; std::filesystem::exists(model_path(m, ".calib.in" + std::to_string(i) + ".npy")); ++i)
    files.push_back(model_path(m, ".calib.in" + std::to_string(i) + ".npy"));
  return files;
}

// Random float32 inputs of one sample's shape (the calibration file's shape without its
// sample dim), uniform over the calibration range widened by a quarter each side (so the
// int8 input saturates too).
std::vector<uint8_t> random_input(const NpyArray& calibration, std::mt19937& rng) {
  const auto* values = reinterpret_cast<const float*>(calibration.data.data());
  const size_t count = calibration.data.size() / sizeof(float);
  float lo = values[0], hi = values[0];
  for (size_t k = 0; k < count; ++k) {
    lo = std::min(lo, values[k]);
    hi = std::max(hi, values[k]);
  }
  const float margin = (hi - lo) / 4 + 1e-3f;
  std::uniform_real_distribution<float> dist(lo - margin, hi + margin);
  const size_t per_sample = count / static_cast<size_t>(calibration.shape.at(0));
  std::vector<float> sample(per_sample);
  for (float& v : sample) v = dist(rng);
  std::vector<uint8_t> bytes(per_sample * sizeof(float));
  std::memcpy(bytes.data(), sample.data(), bytes.size());
  return bytes;
}

// The file is standard int8 TFLite: verifies, one subgraph, float I/O through
// QUANTIZE/DEQUANTIZE, int8 activations (int16 too with --int16 auto), weighted ops with
// per-channel int8 filters and int32 biases (int64 on int16 activations: TFLite 16x8).
void expect_standard_int8(const std::vector<uint8_t>& bytes, const Model& m) {
  flatbuffers::Verifier verifier(bytes.data(), bytes.size());
  ASSERT_TRUE(fb::VerifyModelBuffer(verifier)) << m.stem;
  const fb::Model* model = fb::GetModel(bytes.data());
  EXPECT_EQ(model->version(), 3u);
  ASSERT_EQ(model->subgraphs()->size(), 1u);
  const fb::SubGraph* graph = model->subgraphs()->Get(0);
  const auto* tensors = graph->tensors();
  std::set<fb::BuiltinOperator> ops;
  for (const fb::Operator* op : *graph->operators()) {
    const fb::BuiltinOperator code = model->operator_codes()->Get(op->opcode_index())->builtin_code();
    ops.insert(code);
    const std::string what = std::string(m.stem) + " " + fb::EnumNameBuiltinOperator(code);
    const fb::Tensor* out = tensors->Get(op->outputs()->Get(0));
    if (code == fb::BuiltinOperator::QUANTIZE) continue;
    if (code == fb::BuiltinOperator::DEQUANTIZE) {
      EXPECT_EQ(out->type(), fb::TensorType::FLOAT32) << what;
      continue;
    }
    const bool int16_allowed = std::string(m.int16) == "auto";
    const bool wide = out->type() == fb::TensorType::INT16 && int16_allowed;
    const bool quantized = out->type() == fb::TensorType::INT8 || out->type() == fb::TensorType::INT16;
    if (m.mixed && !quantized) continue;
    if (!wide)
      EXPECT_EQ(out->type(), fb::TensorType::INT8) << what << ": activation '" << out->name()->str() << "'";
    ASSERT_NE(out->quantization(), nullptr) << what;
    EXPECT_EQ(out->quantization()->scale()->size(), 1u) << what;
    const bool weighted = code == fb::BuiltinOperator::CONV_2D || code == fb::BuiltinOperator::DEPTHWISE_CONV_2D ||
                          code == fb::BuiltinOperator::FULLY_CONNECTED;
    if (!weighted) continue;
    const fb::Tensor* filter = tensors->Get(op->inputs()->Get(1));
    const int32_t axis = code == fb::BuiltinOperator::DEPTHWISE_CONV_2D ? 3 : 0;
    const int32_t channels = filter->shape()->Get(static_cast<uint32_t>(axis));
    EXPECT_EQ(filter->type(), fb::TensorType::INT8) << what;
    EXPECT_NE(filter->buffer(), 0u) << what << ": filter without data";
    const auto* fq = filter->quantization();
    ASSERT_NE(fq, nullptr) << what;
    if (code != fb::BuiltinOperator::FULLY_CONNECTED || fq->scale()->size() > 1) {
      EXPECT_EQ(fq->scale()->size(), static_cast<uint32_t>(channels)) << what << ": per-channel scales";
      EXPECT_EQ(fq->quantized_dimension(), axis) << what;
    }
    for (int64_t zp : *fq->zero_point()) EXPECT_EQ(zp, 0) << what << ": symmetric weights";
    if (op->inputs()->size() > 2 && op->inputs()->Get(2) >= 0) {
      const fb::Tensor* bias = tensors->Get(op->inputs()->Get(2));
      const bool wide_input = tensors->Get(op->inputs()->Get(0))->type() == fb::TensorType::INT16;
      EXPECT_EQ(bias->type(), wide_input ? fb::TensorType::INT64 : fb::TensorType::INT32) << what;
      EXPECT_EQ(bias->shape()->Get(0), channels) << what;
      EXPECT_EQ(bias->quantization()->scale()->size(), fq->scale()->size()) << what;
      EXPECT_EQ(bias->quantization()->quantized_dimension(), 0) << what << ": a bias has one axis";
      // TFLite's bias scale: input scale x weight scale, per channel.
      const float in_scale = tensors->Get(op->inputs()->Get(0))->quantization()->scale()->Get(0);
      for (uint32_t c = 0; c < fq->scale()->size() && c < bias->quantization()->scale()->size(); ++c)
        EXPECT_NEAR(bias->quantization()->scale()->Get(c), in_scale * fq->scale()->Get(c),
                    1e-6 * in_scale * fq->scale()->Get(c))
            << what << " channel " << c;
      for (int64_t zp : *bias->quantization()->zero_point()) EXPECT_EQ(zp, 0) << what;
    }
  }
  std::string names;
  for (fb::BuiltinOperator code : ops) names += std::string(" ") + fb::EnumNameBuiltinOperator(code);
  for (fb::BuiltinOperator code : m.expected_ops)
    EXPECT_TRUE(ops.count(code)) << m.stem << ": no " << fb::EnumNameBuiltinOperator(code) << " among" << names;
  for (int32_t in : *graph->inputs()) EXPECT_EQ(tensors->Get(in)->type(), fb::TensorType::FLOAT32) << m.stem;
  for (int32_t out : *graph->outputs()) EXPECT_EQ(tensors->Get(out)->type(), fb::TensorType::FLOAT32) << m.stem;
}

using B = fb::BuiltinOperator;
const Model kModels[] = {
    {"add_1x5", true, "off", false, {B::ADD, B::QUANTIZE, B::DEQUANTIZE}},
    {"linear_4x3", true, "off", false, {B::FULLY_CONNECTED}},
    {"softmax_1x4", true, "off", false, {B::SOFTMAX}},
    {"lenet5_28", true, "off", false, {B::CONV_2D, B::MAX_POOL_2D, B::FULLY_CONNECTED}},
    // PyTorch's symmetric padding at stride 2 is a PAD before a VALID convolution.
    {"mobilenet_v2_w005_96", true, "off", false, {B::CONV_2D, B::DEPTHWISE_CONV_2D, B::PAD, B::ADD, B::MEAN}},
    {"ds_cnn", false, "off", false, {B::CONV_2D, B::DEPTHWISE_CONV_2D, B::FULLY_CONNECTED}},
    // HardSwish: ONNX import spells it x * clamp(x / 6 + 1/2, 0, 1) (mul, add, clamp fused).
    {"mobilenetv3_tiny", false, "auto", false, {B::MUL, B::ADD, B::MEAN}},
    {"efficientnet_tiny", false, "auto", false, {B::LOGISTIC, B::MUL}},
    {"anomaly_autoencoder", false, "off", false, {B::FULLY_CONNECTED}},
    {"shufflenet_v2_tiny", false, "off", true, {B::CONV_2D, B::STRIDED_SLICE, B::CONCATENATION, B::GATHER}},
    {"tiny_encoder", false, "off", true, {B::BATCH_MATMUL, B::SOFTMAX}},
    {"pixel_shuffle", false, "off", true, {B::DEPTH_TO_SPACE}},
    {"grouped_dilated", false, "off", true, {B::LOG_SOFTMAX, B::ELU}},
    {"mha_with_weights", false, "off", true, {B::SUM, B::BATCH_MATMUL}},
    {"causal_einsum_attention", false, "off", true, {B::SELECT_V2}},
    // ONNX Resize (PyTorch's 2x upsampling) where TFLite's flags land on the same taps.
    {"upsample_nearest", false, "off", false, {B::RESIZE_NEAREST_NEIGHBOR}},
    {"upsample_bilinear", false, "off", false, {B::RESIZE_BILINEAR}},
};

// The error line after the calibration progress lines.
std::string last_line(const std::string& text) {
  std::string trimmed = text;
  while (!trimmed.empty() && trimmed.back() == '\n') trimmed.pop_back();
  return trimmed.substr(trimmed.rfind('\n') == std::string::npos ? 0 : trimmed.rfind('\n') + 1);
}

// `model` compiled with --quantize int8 --int16 `int16` and the calibration files into a
// program and a .tflite, the .tflite compiled back: both programs' outputs equal on 4
// random inputs. Returns the .tflite's bytes (empty after a failure).
std::vector<uint8_t> expect_round_trip(const std::string& model, const std::vector<std::string>& calibration_paths,
                                       const std::string& int16) {
  TempDir dir;
  const std::string quantized = dir.file("q.mote"), file = dir.file("q.tflite"), imported = dir.file("i.mote");
  std::string calibration;
  EXPECT_FALSE(calibration_paths.empty()) << model;
  for (const std::string& path : calibration_paths) calibration += " --calibration '" + path + "'";
  CommandResult r = run_mote("compile '" + model + "' -o '" + quantized + "' --quantize int8 --int16 " + int16 +
                             calibration + " --emit-tflite '" + file + "'");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  if (r.exit_code != 0) return {};
  EXPECT_NE(r.out.find("wrote " + file), std::string::npos) << r.out;
  r = run_mote("compile '" + file + "' -o '" + imported + "'");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  if (r.exit_code != 0) return {};
  const std::vector<uint8_t> a = read_file(quantized), b = read_file(imported);
  std::vector<NpyArray> calibration_sets;
  for (const std::string& path : calibration_paths) calibration_sets.push_back(read_npy(path));
  std::mt19937 rng(1234);
  for (int sample = 0; sample < 4; ++sample) {
    std::vector<std::vector<uint8_t>> inputs;
    for (const NpyArray& set : calibration_sets) inputs.push_back(random_input(set, rng));
    const auto want = run_inputs_on_host(a, inputs);  // the quantized program
    const auto got = run_inputs_on_host(b, inputs);   // the emitted .tflite's
    EXPECT_FALSE(want.empty()) << model;
    EXPECT_EQ(got.size(), want.size()) << model;
    for (size_t k = 0; k < want.size() && k < got.size(); ++k)
      EXPECT_EQ(got[k], want[k]) << model << " sample " << sample << " output " << k;
  }
  return read_file(file);
}

class EmitTflite : public ::testing::TestWithParam<Model> {};

TEST_P(EmitTflite, ImportsToTheSameProgramBitForBit) {
  const Model& m = GetParam();
  const std::vector<uint8_t> tflite = expect_round_trip(model_path(m, ".onnx"), calibration_files(m), m.int16);
  ASSERT_FALSE(tflite.empty()) << m.stem;
  expect_standard_int8(tflite, m);
}

INSTANTIATE_TEST_SUITE_P(OnnxModels, EmitTflite, ::testing::ValuesIn(kModels),
                         [](const ::testing::TestParamInfo<Model>& info) { return std::string(info.param.stem); });

// A float .tflite quantized by Mote (the MLPerf Tiny keyword spotter's float32 export,
// calibrated on its one golden input) is written and imported back alike.
TEST(EmitTfliteFromTflite, FloatKeywordSpotter) {
  TempDir dir;
  const std::string stem = shared_models() + "/tflite/mlperf_tiny/kws_ref_model_float32";
  NpyArray sample = read_npy(stem + ".s0.in0.npy");  // [1,49,10,1]: one input
  sample.shape.insert(sample.shape.begin(), 1);       // [N = 1, 1,49,10,1]
  const std::string calibration = dir.file("calibration.npy");
  write_npy(calibration, sample);
  const Model m{"kws_ref_model_float32", false, "off", false,
                {B::CONV_2D, B::DEPTHWISE_CONV_2D, B::AVERAGE_POOL_2D, B::FULLY_CONNECTED, B::SOFTMAX}};
  const std::vector<uint8_t> tflite = expect_round_trip(stem + ".tflite", {calibration}, "off");
  ASSERT_FALSE(tflite.empty());
  expect_standard_int8(tflite, m);
}

// `mote compile` of m with -o program, --quantize int8 and --emit-tflite file.
CommandResult compile_emitting(const Model& m, const std::string& program, const std::string& file) {
  return run_mote("compile '" + model_path(m, ".onnx") + "' -o '" + program + "' --quantize int8 --calibration '" +
                  calibration_files(m).at(0) + "' --emit-tflite '" + file + "'");
}

TEST(EmitTfliteErrors, NeedsQuantize) {
  TempDir dir;
  const std::string file = dir.file("q.tflite");
  const CommandResult r = run_mote("compile '" + onnx_model("lenet5_28") + "' --emit-tflite '" + file + "'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("--emit-tflite needs --quantize int8"), std::string::npos) << r.err;
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  EXPECT_FALSE(std::filesystem::exists(file));
  // An int8 .tflite (what Vela takes already): said so.
  const CommandResult t = run_mote("compile '" + shared_models() + "/tflite/mlperf_tiny/vww_96_int8.tflite' --emit-tflite '" +
                                   file + "'");
  EXPECT_EQ(t.exit_code, 1);
  EXPECT_NE(t.err.find("vww_96_int8.tflite: --emit-tflite writes the graph --quantize int8 gives; this model is a "
                       ".tflite already"),
            std::string::npos)
      << t.err;
  EXPECT_FALSE(std::filesystem::exists(file));
}

// m compiled with -o and --emit-tflite fails with one error line (after the calibration
// progress) holding `message`, and neither file is written.
void expect_refused(const Model& m, const std::string& message) {
  TempDir dir;
  const std::string file = dir.file("q.tflite"), program = dir.file("q.mote");
  const CommandResult r = compile_emitting(m, program, file);
  EXPECT_EQ(r.exit_code, 1);
  const std::string error = last_line(r.err);
  EXPECT_EQ(error.rfind("error: ", 0), 0u) << r.err;
  EXPECT_NE(error.find(message), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(file));
  EXPECT_FALSE(std::filesystem::exists(program));
}

// LayerNormalization stays float under --quantize and TFLite has no operator for it.
TEST(EmitTfliteErrors, AnOpTheWriterCannotExpressNamesTheNode) {
  expect_refused({"layernorm_mlp_op17", false, "off", false, {}},
                 "layernorm_mlp_op17.onnx: --emit-tflite: node '/norm1/LayerNormalization' (layer_norm): no TFLite "
                 "operator --emit-tflite writes for it (output float32)");
}

// align_corners: TFLite's integer scale (in - 1) / (out - 1) in 1/1024 rounds, ONNX's
// does not, so no TFLite flag gives the same taps.
TEST(EmitTfliteErrors, ResizeWithoutTheSameTapsIsRefused) {
  expect_refused({"upsample_bilinear_align_corners", false, "off", false, {}},
                 "--emit-tflite: node '/resize/Resize' (resize_bilinear): no align_corners/half_pixel_centers "
                 "setting of TFLite's gives its sampling positions");
}

// A .tflite destination that cannot be written: an error naming it, and no program either.
TEST(EmitTfliteErrors, UnwritableDestinationWritesNothing) {
  TempDir dir;
  const Model m{"linear_4x3", true, "off", false, {}};
  const std::string file = dir.file("missing/q.tflite"), program = dir.file("q.mote");
  const CommandResult r = compile_emitting(m, program, file);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("missing/q.tflite"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(program));
  EXPECT_FALSE(std::filesystem::exists(file));
}

}  // namespace
}  // namespace mote::testing
