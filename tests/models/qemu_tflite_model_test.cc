// The .tflite models on every emulated Cortex-M core (M0+, M3, M4, M7, M33, M55: the
// reference kernels, the DSP variants on ARMv7E-M and Armv8-M, Helium), bit for bit against
// TensorFlow Lite Micro: each int8 model with tflm-golden/ data is compiled for the core
// (with the softmax input as an extra output where a .presoftmax.npy exists) and run under
// QEMU; every output element must equal the golden one, and sample 0's executed
// instructions must match its row of instruction_counts.txt within 1%. Small models run
// every sample; the large ones (kws, vww, resnet, squeezenet, mobilenet v3) sample 0 only, to keep the run
// short. The SeaNet single-layer models run too (on the M0+ and M4), against their golden
// CSVs.
#include "instruction_counts.h"
#include "refused_models.h"
#include "tflite_test_util.h"

namespace mote::testing {
namespace {

// The cores the SeaNet models run on: the reference kernels on ARMv6-M and the DSP ones.
const char* const kSeanetDevices[] = {"qemu-cortex-m0plus", "qemu-cortex-m4"};

bool is_large(const std::string& name) {
  return name == "kws_ref_model" || name == "vww_96_int8" || name == "pretrainedResnet_quant" ||
         name == "squeezenet_v1_1_quant" || name == "Mobilenet_v3_small_quant";
}

std::string target_of(const std::string& device) { return device.substr(std::string("qemu-").size()); }

struct GoldenCase {
  TfliteModel model;
  const char* device;
};

void PrintTo(const GoldenCase& c, std::ostream* os) { *os << c.model.name << " on " << c.device; }

class TflmGoldenQemu : public ::testing::TestWithParam<GoldenCase> {};

TEST_P(TflmGoldenQemu, IdenticalToTflmAndAsFastAsTheTable) {
  const TfliteModel m = GetParam().model;
  const std::string device = GetParam().device;
  const std::string firmware = std::string(MOTE_FIRMWARE_DIR) + "/runner-" + target_of(device) + ".elf";
  ASSERT_TRUE(std::filesystem::exists(firmware)) << firmware << " not built (MOTE_FIRMWARE_CORES)";
  TempDir dir;
  const std::string presoftmax = softmax_input_name(model_path(m));
  const bool check_presoftmax = std::filesystem::exists(golden_path(m.name, 0, "presoftmax"));
  const std::string program =
      compile_tflite(dir, model_path(m), m.name, target_of(device), check_presoftmax ? presoftmax : "");
  const int samples = is_large(m.name) ? 1 : kTflmGoldenSamples;
  ASSERT_EQ(tflm_golden_sample_count(m.name), kTflmGoldenSamples) << m.name;
  for (int s = 0; s < samples; ++s) {
    const std::string out_dir = dir.file("s" + std::to_string(s));
    const CommandResult r = run_mote("run " + shell_quote(program) + golden_input_args(m.name, s) +
                                     " --output-dir " + shell_quote(out_dir) + " --device " + device + " --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    if (s == 0) expect_instruction_count(m.name, target_of(device), nlohmann::json::parse(r.out)["instructions"]);
    const std::string what = std::string(m.name) + " on " + device + " sample " + std::to_string(s);
    int outputs = 0;
    while (std::filesystem::exists(golden_path(m.name, s, "out" + std::to_string(outputs)))) ++outputs;
    // The model's outputs, then the softmax input where it is checked.
    ASSERT_EQ(written_output_count(out_dir), outputs + (check_presoftmax ? 1 : 0)) << what;
    for (int j = 0; j < outputs; ++j)
      expect_identical(read_npy(out_dir + "/out" + std::to_string(j) + ".npy"),
                       read_npy(golden_path(m.name, s, "out" + std::to_string(j))), what);
    if (check_presoftmax)
      expect_identical(read_npy(out_dir + "/out" + std::to_string(outputs) + ".npy"),
                       read_npy(golden_path(m.name, s, "presoftmax")), what + " softmax input");
  }
}

// Held in static storage: gtest keeps the device pointer.
const std::vector<std::string>& counted_devices() {
  static const std::vector<std::string> devices = [] {
    std::vector<std::string> all;
    for (const char* core : kCountedCores) all.push_back(std::string("qemu-") + core);
    return all;
  }();
  return devices;
}

std::vector<GoldenCase> golden_cases() {
  std::vector<GoldenCase> all;
  for (const std::string& device : counted_devices())
    for (const TfliteModel& m : tflm_golden_models())
      if (m.runs_on(target_of(device))) all.push_back({m, device.c_str()});
  return all;
}

INSTANTIATE_TEST_SUITE_P(TflmGolden, TflmGoldenQemu, ::testing::ValuesIn(golden_cases()),
                         [](const ::testing::TestParamInfo<GoldenCase>& info) {
                           return gtest_name(std::string(info.param.model.name) + "_" + info.param.device);
                         });

// instruction_counts.txt holds exactly the runs the QEMU tests count: every golden model
// on every counted core (above) and the quantized ONNX runs of qemu_ptq_model_test.cc, so
// no row goes stale unchecked and no counted run lacks a row.
TEST(InstructionCountTable, HasARowForEveryCountedRunAndNoOther) {
  std::set<std::pair<std::string, std::string>> runs;
  for (const char* core : kCountedCores)
    for (const TfliteModel& m : tflm_golden_models())
      if (m.runs_on(core)) runs.insert({m.name, core});
  for (const QuantizedRun& q : quantized_counted_runs()) runs.insert({q.table_name(), q.target});
  std::set<std::pair<std::string, std::string>> rows;
  for (const auto& [key, instructions] : instruction_count_table()) rows.insert(key);
  for (const auto& run : runs) EXPECT_TRUE(rows.count(run)) << run.first << " on " << run.second << ": no row";
  for (const auto& row : rows) EXPECT_TRUE(runs.count(row)) << row.first << " on " << row.second << ": no such run";
}

// Every model with TFLite Micro golden data runs above, except the ones the compiler
// refuses (refused_models.h, with their exact reason: checked by the import test).
TEST(TflmGoldenCoverage, EveryGoldenModelRunsOrIsRefused) {
  std::set<std::string> stems;
  for (const auto& entry : std::filesystem::directory_iterator(shared_models() + "/tflm-golden")) {
    const std::string file = entry.path().filename().string();
    if (entry.path().extension() == ".npy") stems.insert(file.substr(0, file.find(".s")));
  }
  std::set<std::string> refused_stems;
  for (const auto& [file, refusal] : refused_models())
    refused_stems.insert(std::filesystem::path(file).stem().string());
  std::set<std::string> run;
  for (const TfliteModel& m : tflm_golden_models()) {
    run.insert(m.name);
    EXPECT_TRUE(std::filesystem::exists(model_path(m))) << m.path;
    EXPECT_EQ(std::filesystem::path(m.path).stem().string(), m.name) << m.path;
  }
  for (const std::string& stem : stems)
    EXPECT_TRUE(run.count(stem) || refused_stems.count(stem))
        << stem << " has tflm-golden data but is neither in tflm_golden_models() nor refused";
  for (const std::string& name : run) EXPECT_TRUE(stems.count(name)) << name << ": no tflm-golden data";
  EXPECT_GE(run.size(), 9u);
}

// ---------------------------------------------------------------------------------------

struct SeanetCaseParam {
  SeanetModel model;
  const char* device;
};

void PrintTo(const SeanetCaseParam& c, std::ostream* os) { *os << c.model.name << " on " << c.device; }

class SeanetQemu : public ::testing::TestWithParam<SeanetCaseParam> {};

TEST_P(SeanetQemu, IdenticalToGoldenCsv) {
  const SeanetModel m = GetParam().model;
  const std::string device = GetParam().device;
  TempDir dir;
  const std::string program =
      compile_tflite(dir, seanet_dir(m) + "/" + m.name + ".tflite", m.name, target_of(device));
  const SeanetCase c = prepare_seanet(dir, m, program);
  const CommandResult r = run_mote("run " + shell_quote(program) + c.input_args + " --output-dir " +
                                   shell_quote(dir.file("out")) + " --device " + device);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_identical(read_npy(dir.file("out") + "/out0.npy"), c.golden, std::string(m.name) + " on " + device);
}

std::vector<SeanetCaseParam> seanet_cases() {
  std::vector<SeanetCaseParam> all;
  for (const char* device : kSeanetDevices)
    for (const SeanetModel& m : seanet_models()) all.push_back({m, device});
  return all;
}

INSTANTIATE_TEST_SUITE_P(Seanet, SeanetQemu, ::testing::ValuesIn(seanet_cases()),
                         [](const ::testing::TestParamInfo<SeanetCaseParam>& info) {
                           return gtest_name(std::string(info.param.model.name) + "_" + info.param.device);
                         });

}  // namespace
}  // namespace mote::testing
