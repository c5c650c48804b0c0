// The MobileNetV2 0.05 model and the seed models give the same outputs on emulated
// Cortex-M0+ (soft float), M4 (single-precision FPU), M7 (double-precision FPU) and M55
// cores as on the host (float tolerance rtol 1e-4, atol 1e-5), and the per-op instruction
// counts come back.
#include <nlohmann/json.hpp>

#include "model_test_util.h"

namespace mote::testing {
namespace {

struct Case {
  const char* model;
  const char* device;
};

class QemuMatchesHost : public ::testing::TestWithParam<Case> {};

TEST_P(QemuMatchesHost, SameOutputsAsHost) {
  const Case c = GetParam();
  TempDir dir;
  const std::string program = compile_shared_onnx(dir, c.model);
  const std::string inputs = input_args(c.model, 0);
  const CommandResult host = run_mote("run '" + program + "'" + inputs + " --output-dir '" + dir.file("host") + "'");
  ASSERT_EQ(host.exit_code, 0) << host.err;
  const CommandResult device = run_mote("run '" + program + "'" + inputs + " --output-dir '" +
                                        dir.file("device") + "' --device " + c.device + " --json");
  ASSERT_EQ(device.exit_code, 0) << device.err;
  const auto report = nlohmann::json::parse(device.out);
  ASSERT_TRUE(report.contains("instructions"));
  EXPECT_GT(report["instructions"].get<uint64_t>(), 0u);
  uint64_t sum = 0;
  ASSERT_FALSE(report.at("ops").empty());
  for (const auto& op : report.at("ops")) sum += op.at("instructions").get<uint64_t>();
  EXPECT_GT(sum, 0u);
  EXPECT_LE(sum, report["instructions"].get<uint64_t>());
  const int outputs = golden_output_count(c.model, 0);
  ASSERT_GE(outputs, 1) << c.model << ": no golden output for sample 0";
  ASSERT_EQ(report.at("outputs").size(), static_cast<size_t>(outputs)) << c.model;
  ASSERT_EQ(written_output_count(dir.file("device")), outputs) << c.model << " on " << c.device;
  for (int j = 0; j < outputs; ++j) {
    const std::string name = "/out" + std::to_string(j) + ".npy";
    expect_allclose(read_npy(dir.file("device") + name), read_npy(dir.file("host") + name), 1e-4, 1e-5,
                    std::string(c.model) + " on " + c.device);
    // And against the PyTorch golden output directly.
    expect_allclose(read_npy(dir.file("device") + name), read_npy(sample_path(c.model, 0, "out", j)),
                    1e-4, 1e-5, std::string(c.model) + " on " + c.device + " vs golden");
  }
}

std::vector<Case> cases() {
  std::vector<Case> all;
  for (const char* device : {"qemu-cortex-m0plus", "qemu-cortex-m4", "qemu-cortex-m7", "qemu-cortex-m55"})
    for (const char* model : {"softmax_1x4", "add_1x5", "linear_4x3", "linear_3x3", "lenet5_28",
                              "mobilenet_v2_w005_96"})
      all.push_back({model, device});
  return all;
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  std::string name = std::string(info.param.model) + "_" + info.param.device;
  for (char& ch : name)
    if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(SeedModels, QemuMatchesHost, ::testing::ValuesIn(cases()), case_name);

}  // namespace
}  // namespace mote::testing
