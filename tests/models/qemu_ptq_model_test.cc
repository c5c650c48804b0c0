// Quantized ONNX programs (--quantize int8, with the int16 layers the compiler chose) give
// the same bits on the emulated ARMv6-M and ARMv7E-M cores as on the host.
#include <nlohmann/json.hpp>

#include "model_test_util.h"

namespace mote::testing {
namespace {

struct Case {
  const char* model;
  const char* target;
  const char* device;
  const char* flags = "";  // more compile options
};

class QuantizedOnQemu : public ::testing::TestWithParam<Case> {};

TEST_P(QuantizedOnQemu, BitExactWithTheHost) {
  const Case c = GetParam();
  TempDir dir;
  const std::string program = dir.file("q.mote");
  const std::string calib = shared_models() + "/onnx/" + c.model + ".calib.npy";
  const CommandResult compiled = run_mote("compile '" + onnx_model(c.model) + "' -o '" + program + "' --target " +
                                          c.target + " --quantize int8 --calibration '" + calib + "'" + c.flags);
  ASSERT_EQ(compiled.exit_code, 0) << compiled.err;
  const std::string inputs = input_args(c.model, 0);
  const CommandResult host = run_mote("run '" + program + "'" + inputs + " --output-dir '" + dir.file("host") + "'");
  ASSERT_EQ(host.exit_code, 0) << host.err;
  const CommandResult device = run_mote("run '" + program + "'" + inputs + " --output-dir '" + dir.file("device") +
                                        "' --device " + c.device + " --json");
  ASSERT_EQ(device.exit_code, 0) << device.err;
  const auto report = nlohmann::json::parse(device.out);
  EXPECT_GT(report["instructions"].get<uint64_t>(), 0u);
  RecordProperty("instructions", std::to_string(report["instructions"].get<uint64_t>()));
  const NpyArray a = read_npy(dir.file("host") + "/out0.npy");
  const NpyArray b = read_npy(dir.file("device") + "/out0.npy");
  EXPECT_EQ(a.shape, b.shape);
  EXPECT_EQ(a.data, b.data) << c.model << " on " << c.device;
}

INSTANTIATE_TEST_SUITE_P(
    Models, QuantizedOnQemu,
    ::testing::Values(Case{"mobilenet_v2_w005_96", "cortex-m0plus", "qemu-cortex-m0plus"},
                      Case{"mobilenet_v2_w005_96", "cortex-m4", "qemu-cortex-m4"},
                      Case{"lenet5_28", "cortex-m0plus", "qemu-cortex-m0plus"}),
    [](const ::testing::TestParamInfo<Case>& info) {
      std::string name = std::string(info.param.model) + "_" + info.param.device +
                         (info.param.flags[0] != '\0' ? "_budget" : "");
      for (char& ch : name)
        if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
      return name;
    });

}  // namespace
}  // namespace mote::testing
