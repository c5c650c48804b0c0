// `mote compile --quantize int8` on every ONNX model in ../shared/models with its
// calibration samples: the int8 program's outputs on the golden samples (not in the
// calibration set) against the PyTorch float outputs, the quantization report, the arena
// of MobileNetV2 on the RP2040-class core, and bad calibration files through the CLI.
#include <cmath>
#include <nlohmann/json.hpp>

#include "model_test_util.h"

namespace mote::testing {
namespace {

std::string calibration_args(const std::string& stem) {
  const std::string single = shared_models() + "/onnx/" + stem + ".calib.npy";
  if (std::filesystem::exists(single)) return " --calibration '" + single + "'";
  std::string args;
  for (int i = 0;; ++i) {
    const std::string path = shared_models() + "/onnx/" + stem + ".calib.in" + std::to_string(i) + ".npy";
    if (!std::filesystem::exists(path)) break;
    args += " --calibration '" + path + "'";
  }
  return args;
}

struct Quantized {
  std::string program;
  nlohmann::json report;
};

Quantized quantize(const TempDir& dir, const std::string& stem, const std::string& target = "host") {
  Quantized q;
  q.program = dir.file(stem + ".int8.mote");
  const CommandResult r = run_mote("compile '" + onnx_model(stem) + "' -o '" + q.program + "' --target " + target +
                                   " --quantize int8" + calibration_args(stem) + " --json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  if (r.exit_code == 0) q.report = nlohmann::json::parse(r.out);
  return q;
}

const char* const kOnnxModels[] = {"add_1x5", "linear_3x3", "linear_4x3", "softmax_1x4", "lenet5_28",
                                   "mobilenet_v2_w005_96"};

class QuantizedGolden : public ::testing::TestWithParam<const char*> {};

// Issue 4: every ONNX model quantizes and keeps at least 15 dB SQNR against the float
// golden outputs on every golden sample.
TEST_P(QuantizedGolden, AtLeast15DbAgainstTheFloatGoldenOutputs) {
  const std::string stem = GetParam();
  TempDir dir;
  const Quantized q = quantize(dir, stem);
  ASSERT_TRUE(q.report.contains("quantization"));
  const auto& report = q.report["quantization"];
  EXPECT_EQ(report["method"], "minmax");
  EXPECT_GT(report["samples"].get<int>(), 0);
  EXPECT_FALSE(report["tensors"].empty());
  for (const auto& t : report["tensors"]) {
    EXPECT_GT(t["scale"].get<double>(), 0.0) << t["name"];
    EXPECT_LE(t["range_min"].get<double>(), 0.0) << t["name"];
    EXPECT_GE(t["range_max"].get<double>(), 0.0) << t["name"];
  }
  ASSERT_EQ(report["outputs"].size(), 1u);
  EXPECT_TRUE(report["float_nodes"].empty()) << report["float_nodes"].dump();
  ASSERT_EQ(golden_sample_count(stem), kOnnxGoldenSamples) << stem;
  for (int s = 0; s < kOnnxGoldenSamples; ++s) {
    const std::string out = dir.file("s" + std::to_string(s));
    const CommandResult r = run_mote("run '" + q.program + "'" + input_args(stem, s) + " --output-dir '" + out + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const NpyArray got = read_npy(out + "/out0.npy");
    const NpyArray want = read_npy(sample_path(stem, s, "out", 0));
    ASSERT_EQ(got.dtype, DType::kFloat32);  // float model I/O by default
    ASSERT_EQ(got.shape, want.shape);
    const double db = sqnr_db(got, want);
    RecordProperty("sqnr_s" + std::to_string(s), std::to_string(db));
    EXPECT_GE(db, 15.0) << stem << " sample " << s;
  }
}

INSTANTIATE_TEST_SUITE_P(OnnxModels, QuantizedGolden, ::testing::ValuesIn(kOnnxModels));

// The user's MobileNetV2 0.05: within the 140 KiB an RP2040-class part leaves, against
// 1,785,600 bytes planned by the tool that started this, and the float plan of 552,960.
// Issue 4's bar, with the default options: the float input (110,592 bytes) bounds the
// all-int8 arena, and int16 activations throughout fit within it (the input quantized in
// place, the first blocks tile by tile), so every golden sample keeps 20 dB. (One test:
// both checks read the same compile, the slowest of this label.)
TEST(QuantizedMobileNet, FitsAnRp2040ClassArenaWithTwentyDb) {
  TempDir dir;
  const std::string stem = "mobilenet_v2_w005_96";
  const Quantized q = quantize(dir, stem, "cortex-m0plus");
  ASSERT_TRUE(q.report.contains("quantization"));
  const nlohmann::json& report = q.report;
  EXPECT_LE(report["arena_bytes"].get<uint64_t>(), 140u * 1024u);
  // In-place chains can cost the greedy placement a few bytes over the bound.
  EXPECT_LE(report["arena_bytes"].get<uint64_t>(), report["arena_lower_bound_bytes"].get<uint64_t>() * 101 / 100);
  // int8 weights: a quarter of the float ones plus biases.
  EXPECT_LT(report["weights_bytes"].get<uint64_t>(), 1'400'000u);
  // int8 misses 30 dB on this random-weight model, so activations take int16 where that
  // leaves the arena within the all-int8 program's: here, all of them.
  const auto& quantization = report["quantization"];
  size_t int8_tensors = 0;
  for (const auto& t : quantization["tensors"]) int8_tensors += t["dtype"] == "int8";
  EXPECT_EQ(int8_tensors, 0u) << quantization["tensors"].dump();
  EXPECT_GT(quantization["int16_tensors"].get<int>(), 0);
  EXPECT_LE(report["arena_bytes"].get<uint64_t>(), quantization["int8_only_arena_bytes"].get<uint64_t>());
  EXPECT_TRUE(report["patching"]["applied"].get<bool>());
  ASSERT_EQ(golden_sample_count(stem), kOnnxGoldenSamples) << stem;
  for (int s = 0; s < kOnnxGoldenSamples; ++s) {
    const std::string out = dir.file("s" + std::to_string(s));
    const CommandResult run = run_mote("run '" + q.program + "'" + input_args(stem, s) + " --output-dir '" + out + "'");
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const double db = sqnr_db(read_npy(out + "/out0.npy"), read_npy(sample_path(stem, s, "out", 0)));
    RecordProperty("sqnr_s" + std::to_string(s), std::to_string(db));
    EXPECT_GE(db, 20.0) << "sample " << s;
  }
}

// A budget nothing fits is one line naming the arena and the budget, and writes nothing;
// a malformed budget is one line naming the value.
TEST(QuantizeCli, ArenaBudgetTooSmallOrMalformed) {
  TempDir dir;
  const std::string stem = "lenet5_28";
  const std::string program = dir.file("out.mote");
  CommandResult r = run_mote("compile '" + onnx_model(stem) + "' -o '" + program +
                             "' --arena-budget 1KiB --quantize int8" + calibration_args(stem));
  EXPECT_NE(r.exit_code, 0);
  // After the calibration counter's lines, the error is one line.
  const size_t error_at = r.err.find("error: ");
  ASSERT_NE(error_at, std::string::npos) << r.err;
  EXPECT_EQ(line_count(r.err.substr(error_at)), 1) << r.err;
  EXPECT_NE(r.err.find(": the program needs an arena of ", error_at), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" bytes, over the budget of 1024 bytes (lower bound ", error_at), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(program));
  for (const char* bad : {"12X", "0", "-5", "KiB", "5000000000", "4096MiB"}) {
    r = run_mote("compile '" + onnx_model(stem) + "' -o '" + program + "' --arena-budget " + bad);
    EXPECT_NE(r.exit_code, 0) << bad;
    EXPECT_EQ(r.err, std::string("error: --arena-budget '") + bad +
                         "': expected a size in bytes such as 143360, 140KiB or 1MiB (at most 4 GiB - 1)\n")
        << bad;
    EXPECT_FALSE(std::filesystem::exists(program));
  }
}

TEST(QuantizeCli, BadCalibrationIsOneLineNamingTheFileAndWritesNothing) {
  TempDir dir;
  // NaN in sample 1.
  NpyArray bad;
  bad.shape = {2, 1, 4};
  std::vector<float> values(8, 0.5f);
  values[5] = NAN;
  bad.data.resize(32);
  std::memcpy(bad.data.data(), values.data(), 32);
  write_npy(dir.file("nan.npy"), bad);
  const std::string program = dir.file("out.mote");
  CommandResult r = run_mote("compile '" + onnx_model("linear_4x3") + "' -o '" + program +
                             "' --quantize int8 --calibration '" + dir.file("nan.npy") + "'");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(r.err, "error: " + dir.file("nan.npy") + ": calibration data has NaN at sample 1, element 1\n");
  EXPECT_FALSE(std::filesystem::exists(program));
  // Wrong dtype.
  NpyArray ints;
  ints.dtype = DType::kInt8;
  ints.shape = {2, 1, 4};
  ints.data.assign(8, 0);
  write_npy(dir.file("int8.npy"), ints);
  r = run_mote("compile '" + onnx_model("linear_4x3") + "' -o '" + program + "' --quantize int8 --calibration '" +
               dir.file("int8.npy") + "'");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("int8.npy: calibration data has dtype int8, expected float32"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(program));
  // Not a .npy at all.
  write_bytes(dir.file("junk.npy"), {1, 2, 3});
  r = run_mote("compile '" + onnx_model("linear_4x3") + "' -o '" + program + "' --quantize int8 --calibration '" +
               dir.file("junk.npy") + "'");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("junk.npy"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(program));
}

}  // namespace
}  // namespace mote::testing
