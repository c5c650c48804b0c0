// PyTorch exports (tests/models/pytorch/, models.txt; tools/export_pytorch_models.py):
// each listed model compiles, and its outputs on every golden sample match PyTorch's
// within 1e-4 x max(1, max |golden|) on the host and, in the qemu build of this file
// (MOTE_PYTORCH_QEMU), on qemu-cortex-m4 compiled --target cortex-m4, where the
// --quantize int8 program must also give the host's bytes. On the host it also
// quantizes (--quantize int8 with its calibration samples): the report states the SQNR
// of each output against the float model, and the int8 program keeps the model's
// min_int8_sqnr_db against the PyTorch goldens on every golden sample; an LSTM, GRU or
// RNN runs on its integer kernels there (the report keeps no lstm, gru or rnn float). An
// int64 output (an argmax) must equal PyTorch's on the host, on qemu and after
// quantization. Inputs are fed as the export wrote them: float32, or int64 token ids
// (their .npy dtype).
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "model_test_util.h"

namespace mote::testing {
namespace {

const std::string kDir = std::string(MOTE_SOURCE_DIR) + "/tests/models/pytorch/";
constexpr int kGoldenSamples = 2;

struct PytorchModel {
  std::string name;
  double min_int8_sqnr_db = 0;
};

std::vector<PytorchModel> listed_models() {
  std::vector<PytorchModel> models;
  std::ifstream list(kDir + "models.txt");
  EXPECT_TRUE(list.good()) << kDir << "models.txt";
  std::string line;
  while (std::getline(list, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    PytorchModel m;
    std::string extra;
    const bool ok = static_cast<bool>(fields >> m.name >> m.min_int8_sqnr_db) && !(fields >> extra);
    EXPECT_TRUE(ok) << "models.txt: expected 'name min_int8_sqnr_db', got '" << line << "'";
    if (ok) models.push_back(m);
  }
  return models;
}

std::string file(const std::string& name, const std::string& suffix) { return kDir + name + suffix; }

int count_files(const std::string& name, const std::string& middle) {
  int n = 0;
  while (std::filesystem::exists(file(name, middle + std::to_string(n) + ".npy"))) ++n;
  return n;
}

std::string input_args(const std::string& name, int sample) {
  std::string args;
  const int inputs = count_files(name, ".s" + std::to_string(sample) + ".in");
  for (int i = 0; i < inputs; ++i) args += " --input '" + file(name, ".s" + std::to_string(sample) + ".in" + std::to_string(i) + ".npy") + "'";
  return args;
}

// An int64 output (an index: argmax) equals PyTorch's, stored as float32 by the export.
void expect_same_indices(const NpyArray& got, const NpyArray& want, const std::string& what) {
  ASSERT_EQ(got.shape, want.shape) << what;
  const auto* g = reinterpret_cast<const int64_t*>(got.data.data());
  const auto* w = reinterpret_cast<const float*>(want.data.data());
  for (size_t i = 0; i < want.data.size() / 4; ++i) EXPECT_EQ(double(g[i]), double(w[i])) << what << " element " << i;
}

// Every element within 1e-4 x max(1, max |golden|); a NaN fails. int64 outputs: equal.
void expect_matches_pytorch(const NpyArray& got, const NpyArray& want, const std::string& what) {
  if (got.dtype == DType::kInt64) return expect_same_indices(got, want, what);
  ASSERT_EQ(got.dtype, DType::kFloat32) << what;
  ASSERT_EQ(got.shape, want.shape) << what;
  const auto* g = reinterpret_cast<const float*>(got.data.data());
  const auto* w = reinterpret_cast<const float*>(want.data.data());
  const size_t n = want.data.size() / 4;
  double largest = 1;
  for (size_t i = 0; i < n; ++i) largest = std::max(largest, std::fabs(double(w[i])));
  double worst = 0;
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i) {
    const double err = std::fabs(double(g[i]) - double(w[i]));
    if (!(err <= 1e-4 * largest)) ++bad;
    if (!(err <= worst)) worst = err;
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", worst);
  ::testing::Test::RecordProperty("max_abs_error", text);
  EXPECT_EQ(bad, 0u) << what << ": " << bad << " of " << n << " elements off by more than " << 1e-4 * largest
                     << ", max abs error " << worst;
}

// Runs `program` on each golden sample (on `device` when not empty) and calls
// check(got, want, what) per output.
template <typename Check>
void run_samples(const TempDir& dir, const std::string& name, const std::string& program, const std::string& device,
                 Check check) {
  ASSERT_EQ(count_files(name, ".s" + std::to_string(kGoldenSamples - 1) + ".out") > 0, true)
      << name << ": golden sample " << kGoldenSamples - 1 << " missing";
  for (int s = 0; s < kGoldenSamples; ++s) {
    const std::string out = dir.file("s" + std::to_string(s) + device);
    const CommandResult r = run_mote("run '" + program + "'" + input_args(name, s) + " --output-dir '" + out + "'" +
                                     (device.empty() ? "" : " --device " + device));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const int outputs = count_files(name, ".s" + std::to_string(s) + ".out");
    ASSERT_GT(outputs, 0) << name;
    for (int j = 0; j < outputs; ++j) {
      const std::string what = name + " sample " + std::to_string(s) + " output " + std::to_string(j) +
                               (device.empty() ? " on the host" : " on " + device);
      check(read_npy(out + "/out" + std::to_string(j) + ".npy"),
            read_npy(file(name, ".s" + std::to_string(s) + ".out" + std::to_string(j) + ".npy")), what);
    }
  }
}

// `m` compiled --quantize int8 with its calibration samples for `target` into `program`;
// the --json report.
nlohmann::json compile_quantized(const PytorchModel& m, const std::string& program, const std::string& target) {
  std::string calibration;
  const int inputs = count_files(m.name, ".calib.in");
  EXPECT_GT(inputs, 0) << m.name << ": no calibration samples";
  for (int i = 0; i < inputs; ++i) calibration += " --calibration '" + file(m.name, ".calib.in" + std::to_string(i) + ".npy") + "'";
  const CommandResult r = run_mote("compile '" + file(m.name, ".onnx") + "' -o '" + program + "' --quantize int8" +
                                   calibration + " --target " + target + " --json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.exit_code == 0 ? nlohmann::json::parse(r.out) : nlohmann::json::object();
}

class Pytorch : public ::testing::TestWithParam<PytorchModel> {};

#ifndef MOTE_PYTORCH_QEMU
TEST_P(Pytorch, MatchesPytorchOnTheHost) {
  const std::string& name = GetParam().name;
  TempDir dir;
  const std::string program = dir.file(name + ".mote");
  const CommandResult r = run_mote("compile '" + file(name, ".onnx") + "' -o '" + program + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  run_samples(dir, name, program, "", expect_matches_pytorch);
}

TEST_P(Pytorch, QuantizesWithTheSqnrItStates) {
  const PytorchModel& m = GetParam();
  TempDir dir;
  const std::string program = dir.file(m.name + ".int8.mote");
  const nlohmann::json report = compile_quantized(m, program, "host");
  ASSERT_TRUE(report.contains("quantization"));
  ASSERT_FALSE(report["quantization"]["outputs"].empty());
  // A recurrent layer quantizes: an LSTM as TFLite's integer LSTM (lstm_s8, or lstm_s16
  // with int16 activations), a GRU or RNN on the integer kernels designed after it
  // (gru_s8/gru_s16, rnn_s8/rnn_s16); the report keeps none of them float.
  for (const auto& node : report["quantization"]["float_nodes"]) {
    const std::string line = node.get<std::string>();
    for (const char* op : {" (lstm): ", " (gru): ", " (rnn): "})
      EXPECT_EQ(line.find(op), std::string::npos) << m.name << ": " << node.dump();
  }
  for (const auto& op : report["ops"]) {
    const std::string kernel = op["kernel"].get<std::string>();
    for (const std::string family : {"lstm_", "gru_", "rnn_"}) {
      if (kernel.rfind(family, 0) == 0)
        EXPECT_TRUE(kernel == family + "s8" || kernel == family + "s16") << m.name << ": " << op.dump();
    }
  }
  for (const auto& o : report["quantization"]["outputs"]) {
    ASSERT_TRUE(o.contains("sqnr_db")) << o.dump();
    RecordProperty("reported_sqnr_db_" + o["name"].get<std::string>(), o["sqnr_db"].dump());
  }
  run_samples(dir, m.name, program, "", [&](const NpyArray& got, const NpyArray& want, const std::string& what) {
    if (got.dtype == DType::kInt64) return expect_same_indices(got, want, what + " (int8)");
    ASSERT_EQ(got.shape, want.shape) << what;
    const double db = sqnr_db(got, want);
    RecordProperty("sqnr_db", std::to_string(db));
    EXPECT_GE(db, m.min_int8_sqnr_db) << what << " (int8)";
  });
}
#else
TEST_P(Pytorch, MatchesPytorchOnQemuCortexM4) {
  const std::string& name = GetParam().name;
  TempDir dir;
  const std::string program = dir.file(name + ".m4.mote");
  const CommandResult r = run_mote("compile '" + file(name, ".onnx") + "' -o '" + program + "' --target cortex-m4");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  run_samples(dir, name, program, "qemu-cortex-m4", expect_matches_pytorch);
}

// The --quantize int8 program for the M4 gives the same bytes on qemu-cortex-m4 as on
// the host when every node is integer (integer kernels, the LSTM's included, are bit-exact
// across the two); with nodes kept float (their libm and rounding differ), the float
// tolerance of the other tests.
TEST_P(Pytorch, QuantizedIsBitIdenticalOnQemuCortexM4) {
  const PytorchModel& m = GetParam();
  TempDir dir;
  const std::string program = dir.file(m.name + ".int8.m4.mote");
  const nlohmann::json report = compile_quantized(m, program, "cortex-m4");
  ASSERT_TRUE(report.contains("quantization"));
  const bool integer = report["quantization"]["float_nodes"].empty();
  std::vector<NpyArray> host;
  run_samples(dir, m.name, program, "", [&](const NpyArray& got, const NpyArray&, const std::string&) {
    host.push_back(got);
  });
  size_t k = 0;
  run_samples(dir, m.name, program, "qemu-cortex-m4", [&](const NpyArray& got, const NpyArray&, const std::string& what) {
    ASSERT_LT(k, host.size()) << what;
    const NpyArray& want = host[k++];
    if (!integer) return expect_matches_pytorch(got, want, what + " (int8 program with float nodes) against the host's");
    ASSERT_EQ(got.dtype, want.dtype) << what;
    ASSERT_EQ(got.shape, want.shape) << what;
    EXPECT_TRUE(got.data == want.data) << what << " (int8 program): differs from the host's";
  });
  EXPECT_EQ(k, host.size());
}
#endif

std::string model_name(const ::testing::TestParamInfo<PytorchModel>& info) { return info.param.name; }

INSTANTIATE_TEST_SUITE_P(Exports, Pytorch, ::testing::ValuesIn(listed_models()), model_name);

#ifndef MOTE_PYTORCH_QEMU
TEST(PytorchList, ListsModelsWithTheirFiles) {
  const std::vector<PytorchModel> models = listed_models();
  ASSERT_FALSE(models.empty());
  for (const PytorchModel& m : models) {
    EXPECT_TRUE(std::filesystem::exists(file(m.name, ".onnx"))) << m.name;
    EXPECT_GT(count_files(m.name, ".calib.in"), 0) << m.name;
    for (int s = 0; s < kGoldenSamples; ++s) {
      EXPECT_GT(count_files(m.name, ".s" + std::to_string(s) + ".in"), 0) << m.name << " sample " << s;
      EXPECT_GT(count_files(m.name, ".s" + std::to_string(s) + ".out"), 0) << m.name << " sample " << s;
    }
  }
}

// torchvision's SqueezeNet pools with ceil_mode (tools/pytorch_models/tv.py): the int8
// program runs them on the integer pooling kernels (they were kept float32), every node
// integer.
TEST(PytorchTorchvision, CeilModePoolsQuantize) {
  const PytorchModel m{"tv_squeezenet_ceil", 0};
  TempDir dir;
  const nlohmann::json report = compile_quantized(m, dir.file("q.mote"), "host");
  ASSERT_TRUE(report.contains("quantization"));
  EXPECT_TRUE(report["quantization"]["float_nodes"].empty()) << report["quantization"]["float_nodes"].dump();
  int max_pools = 0, avg_pools = 0;
  for (const auto& op : report["ops"]) {
    const std::string kernel = op["kernel"].get<std::string>();
    max_pools += kernel.rfind("max_pool2d_s", 0) == 0;
    avg_pools += kernel.rfind("avg_pool2d_s", 0) == 0;
  }
  EXPECT_EQ(max_pools, 2);
  EXPECT_GE(avg_pools, 1);
}
#endif

}  // namespace
}  // namespace mote::testing
