// Patch-based execution on the shared models (host; the QEMU golden tests run the same
// programs on the cores):
//  - visual wake words and ResNet-8, patched (--optimize memory patches on any saving),
//    identical to the TensorFlow Lite Micro golden outputs, vww at most half TFLM's arena;
//  - the quantized MobileNetV2 (int8 I/O) patched by default: at most half its own
//    unpatched arena, and outputs identical to the unpatched program's.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>

#include "models/tflite_test_util.h"

namespace mote::testing {
namespace {

nlohmann::json compile_json(const std::string& args) {
  const CommandResult c = run_mote("compile " + args + " --json");
  EXPECT_EQ(c.exit_code, 0) << c.err;
  return c.exit_code == 0 ? nlohmann::json::parse(c.out) : nlohmann::json::object();
}

struct PatchedCase {
  const char* name;
  uint64_t tflm_arena;  // BASELINES.md, CMSIS-NN build
};
void PrintTo(const PatchedCase& c, std::ostream* os) { *os << c.name; }

// One test per model, so ctest runs them side by side (vww's --optimize memory compile
// is the slowest of the models label).
class PatchedTflmModels : public ::testing::TestWithParam<PatchedCase> {};

TEST_P(PatchedTflmModels, StayBitExact) {
  const PatchedCase& c = GetParam();
  const TfliteModel* model = nullptr;
  for (const TfliteModel& m : tflm_golden_models())
    if (std::string(m.name) == c.name) model = &m;
  ASSERT_NE(model, nullptr);
  TempDir dir;
  const std::string program = dir.file("p.mote");
  const auto report = compile_json(shell_quote(model_path(*model)) + " -o " + shell_quote(program) +
                                   " --target cortex-m4 --optimize memory");
  ASSERT_TRUE(report["patching"]["applied"].get<bool>()) << report["patching"].dump();
  const uint64_t arena = report["arena_bytes"].get<uint64_t>();
  EXPECT_LT(arena, report["patching"]["unpatched_arena_bytes"].get<uint64_t>());
  // The planner's placement of a patched program (hundreds of tile buffers and
  // scratch areas) reaches its lower bound or comes within 1% of it.
  const uint64_t bound = report["arena_lower_bound_bytes"].get<uint64_t>();
  EXPECT_GE(arena, bound);
  EXPECT_LE(arena * 100, bound * 101);
  if (std::string(c.name) == "vww_96_int8") EXPECT_LE(arena * 2, c.tflm_arena);
  for (int s = 0; s < 3; ++s) {
    const std::string out = dir.file("out" + std::to_string(s));
    const CommandResult r = run_mote("run " + shell_quote(program) + golden_input_args(c.name, s) + " --output-dir " +
                                     shell_quote(out));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    expect_identical(read_npy(out + "/out0.npy"), read_npy(golden_path(c.name, s, "out0")), c.name);
  }
}

INSTANTIATE_TEST_SUITE_P(PatchingModels, PatchedTflmModels,
                         ::testing::Values(PatchedCase{"vww_96_int8", 100'712},
                                           PatchedCase{"pretrainedResnet_quant", 55'000}),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(PatchingModels, QuantizedMobileNetHalvesItsArenaWithIdenticalOutputs) {
  TempDir dir;
  const std::string stem = shared_models() + "/onnx/mobilenet_v2_w005_96";
  const std::string common = shell_quote(stem + ".onnx") + " --quantize int8 --calibration " +
                             shell_quote(stem + ".calib.npy") + " --int8-io --int16 off --target cortex-m0plus";
  const auto patched = compile_json(common + " -o " + shell_quote(dir.file("patched.mote")));
  const auto whole = compile_json(common + " --patching off -o " + shell_quote(dir.file("whole.mote")));
  ASSERT_TRUE(patched["patching"]["applied"].get<bool>());
  EXPECT_FALSE(whole.contains("patching"));
  EXPECT_LE(patched["arena_bytes"].get<uint64_t>() * 2, whole["arena_lower_bound_bytes"].get<uint64_t>());
  EXPECT_LE(patched["patching"]["extra_macs"].get<uint64_t>() * 10, whole["macs"].get<uint64_t>());
  // Random int8 images: the patched program's outputs equal the unpatched one's.
  std::mt19937 rng(96);
  for (int s = 0; s < 3; ++s) {
    NpyArray image;
    image.dtype = DType::kInt8;
    image.shape = {1, 3, 96, 96};
    image.data.resize(3 * 96 * 96);
    for (uint8_t& v : image.data) v = static_cast<uint8_t>(rng());
    const std::string input = dir.file("in" + std::to_string(s) + ".npy");
    write_npy(input, image);
    for (const char* which : {"patched", "whole"}) {
      const CommandResult r = run_mote("run " + shell_quote(dir.file(std::string(which) + ".mote")) + " --input " +
                                       shell_quote(input) + " --output-dir " + shell_quote(dir.file(which)));
      ASSERT_EQ(r.exit_code, 0) << r.err;
    }
    expect_identical(read_npy(dir.file("patched") + "/out0.npy"), read_npy(dir.file("whole") + "/out0.npy"),
                     "mobilenet sample " + std::to_string(s));
  }
}

// --arena-budget between the memory plan and the fast plan: the fast plan is dropped for
// the memory one (patched), and the outputs stay the golden ones.
TEST(PatchingModels, ArenaBudgetChoosesTheMemoryPlanWhenTheFastOneExceedsIt) {
  const TfliteModel* model = nullptr;
  for (const TfliteModel& m : tflm_golden_models())
    if (std::string(m.name) == "pretrainedResnet_quant") model = &m;
  ASSERT_NE(model, nullptr);
  TempDir dir;
  const std::string program = dir.file("p.mote");
  const std::string base = shell_quote(model_path(*model)) + " -o " + shell_quote(program) + " --target cortex-m4";
  const uint64_t fast = compile_json(base)["arena_bytes"].get<uint64_t>();
  const uint64_t small = compile_json(base + " --optimize memory")["arena_bytes"].get<uint64_t>();
  ASSERT_LT(small, fast);
  const auto report = compile_json(base + " --arena-budget " + std::to_string(small));
  EXPECT_EQ(report["arena_bytes"].get<uint64_t>(), small);
  const std::string out = dir.file("out");
  const CommandResult r =
      run_mote("run " + shell_quote(program) + golden_input_args("pretrainedResnet_quant", 0) + " --output-dir " + shell_quote(out));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_identical(read_npy(out + "/out0.npy"), read_npy(golden_path("pretrainedResnet_quant", 0, "out0")), "pretrainedResnet_quant");
  // One byte less fits no plan: one line, nothing written.
  std::filesystem::remove(program);
  const CommandResult refused = run_mote("compile " + base + " --arena-budget " + std::to_string(small - 1));
  EXPECT_NE(refused.exit_code, 0);
  EXPECT_EQ(line_count(refused.err), 1) << refused.err;
  EXPECT_NE(refused.err.find("needs an arena of " + std::to_string(small) + " bytes, over the budget of " +
                             std::to_string(small - 1) + " bytes"),
            std::string::npos)
      << refused.err;
  EXPECT_FALSE(std::filesystem::exists(program));
}

TEST(PatchingModels, BadMaxRecomputeIsOneLineNamingTheValue) {
  TempDir dir;
  const std::string program = dir.file("p.mote");
  for (const char* bad : {"abc", "-5%", "10%%", ""}) {
    const CommandResult r = run_mote("compile " + shell_quote(onnx_model("linear_3x3")) + " -o " + shell_quote(program) +
                                     " --max-recompute " + shell_quote(bad));
    EXPECT_NE(r.exit_code, 0) << bad;
    EXPECT_NE(r.err.find("--max-recompute '" + std::string(bad) +
                         "': expected a percentage such as 10% or a fraction such as 0.1"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(line_count(r.err), 1) << r.err;
    EXPECT_FALSE(std::filesystem::exists(program));
  }
}

}  // namespace
}  // namespace mote::testing
