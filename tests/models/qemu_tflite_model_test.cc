// The .tflite models on emulated Cortex-M0+ and Cortex-M4 cores (and the MLPerf Tiny
// ones also on Cortex-M33 and Cortex-M55, where other kernel variants run), bit for bit against
// TensorFlow Lite Micro: each int8 model with tflm-golden/ data is compiled for the core
// (with the softmax input as an extra output where a .presoftmax.npy exists) and run under
// QEMU; every output element must equal the golden one. Small models run every sample;
// the three large ones (kws, vww, resnet) sample 0 only, to keep the run short. The SeaNet
// single-layer models run too, against their golden CSVs.
#include "tflite_test_util.h"

namespace mote::testing {
namespace {

const char* const kDevices[] = {"qemu-cortex-m0plus", "qemu-cortex-m4"};
// The cores with their own kernel variants beyond the M4's (cortex-m33: the DSP variants
// on Armv8-M; cortex-m55: Helium) run the MLPerf Tiny models only, sample 0 of the large ones.
const char* const kVariantDevices[] = {"qemu-cortex-m33", "qemu-cortex-m55"};

bool is_mlperf_tiny(const std::string& name) {
  return name == "kws_ref_model" || name == "vww_96_int8" || name == "pretrainedResnet_quant" ||
         name == "ad01_int8";
}

bool is_large(const std::string& name) {
  return name == "kws_ref_model" || name == "vww_96_int8" || name == "pretrainedResnet_quant";
}

std::string target_of(const std::string& device) { return device.substr(std::string("qemu-").size()); }

std::string case_name(std::string name) {
  for (char& ch : name)
    if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
}

struct GoldenCase {
  TfliteModel model;
  const char* device;
};

class TflmGoldenQemu : public ::testing::TestWithParam<GoldenCase> {};

TEST_P(TflmGoldenQemu, IdenticalToTflm) {
  const TfliteModel m = GetParam().model;
  const std::string device = GetParam().device;
  if (m.disabled) GTEST_SKIP() << m.name << ": " << m.disabled;
#ifdef MOTE_FIRMWARE_DIR
  const std::string firmware = std::string(MOTE_FIRMWARE_DIR) + "/runner-" + target_of(device) + ".elf";
  if (!std::filesystem::exists(firmware)) GTEST_SKIP() << firmware << " not built (MOTE_FIRMWARE_CORES)";
#endif
  TempDir dir;
  const std::string presoftmax = softmax_input_name(model_path(m));
  const bool check_presoftmax = std::filesystem::exists(golden_path(m.name, 0, "presoftmax"));
  const std::string program =
      compile_tflite(dir, model_path(m), m.name, target_of(device), check_presoftmax ? presoftmax : "");
  const int samples = is_large(m.name) ? 1 : 3;
  for (int s = 0; s < samples; ++s) {
    const std::string out_dir = dir.file("s" + std::to_string(s));
    const CommandResult r = run_mote("run " + shell_quote(program) + golden_input_args(m.name, s) +
                                     " --output-dir " + shell_quote(out_dir) + " --device " + device);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string what = std::string(m.name) + " on " + device + " sample " + std::to_string(s);
    expect_identical(read_npy(out_dir + "/out0.npy"), read_npy(golden_path(m.name, s, "out0")), what);
    if (check_presoftmax)
      expect_identical(read_npy(out_dir + "/out1.npy"), read_npy(golden_path(m.name, s, "presoftmax")),
                       what + " softmax input");
  }
}

std::vector<GoldenCase> golden_cases() {
  std::vector<GoldenCase> all;
  for (const char* device : kDevices)
    for (const TfliteModel& m : tflm_golden_models()) all.push_back({m, device});
  for (const char* device : kVariantDevices)
    for (const TfliteModel& m : tflm_golden_models())
      if (is_mlperf_tiny(m.name)) all.push_back({m, device});
  return all;
}

INSTANTIATE_TEST_SUITE_P(TflmGolden, TflmGoldenQemu, ::testing::ValuesIn(golden_cases()),
                         [](const ::testing::TestParamInfo<GoldenCase>& info) {
                           return case_name(std::string(info.param.model.name) + "_" + info.param.device);
                         });

// ---------------------------------------------------------------------------------------

struct SeanetCaseParam {
  SeanetModel model;
  const char* device;
};

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
  for (const char* device : kDevices)
    for (const SeanetModel& m : seanet_models()) all.push_back({m, device});
  return all;
}

INSTANTIATE_TEST_SUITE_P(Seanet, SeanetQemu, ::testing::ValuesIn(seanet_cases()),
                         [](const ::testing::TestParamInfo<SeanetCaseParam>& info) {
                           return case_name(std::string(info.param.model.name) + "_" + info.param.device);
                         });

}  // namespace
}  // namespace mote::testing
