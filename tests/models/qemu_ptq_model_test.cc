// Quantized ONNX programs (--quantize int8, with the int16 layers the compiler chose) give
// the same bits on every emulated core as on the host, and execute the instructions of
// their row of instruction_counts.txt (within 1%): MobileNetV2 0.05 on every core (the
// reference kernels, the DSP variants, Helium), LeNet-5 on the M0+.
#include <nlohmann/json.hpp>

#include "instruction_counts.h"
#include "model_test_util.h"

namespace mote::testing {
namespace {

class QuantizedOnQemu : public ::testing::TestWithParam<QuantizedRun> {};

TEST_P(QuantizedOnQemu, BitExactWithTheHostAndAsFastAsTheTable) {
  const QuantizedRun c = GetParam();
  const std::string device = std::string("qemu-") + c.target;
  TempDir dir;
  const std::string program = dir.file("q.mote");
  const std::string calib = shared_models() + "/onnx/" + c.model + ".calib.npy";
  const CommandResult compiled = run_mote("compile '" + onnx_model(c.model) + "' -o '" + program + "' --target " +
                                          c.target + " --quantize int8 --calibration '" + calib + "'");
  ASSERT_EQ(compiled.exit_code, 0) << compiled.err;
  const std::string inputs = input_args(c.model, 0);
  const CommandResult host = run_mote("run '" + program + "'" + inputs + " --output-dir '" + dir.file("host") + "'");
  ASSERT_EQ(host.exit_code, 0) << host.err;
  const CommandResult run = run_mote("run '" + program + "'" + inputs + " --output-dir '" + dir.file("device") +
                                     "' --device " + device + " --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  expect_instruction_count(c.table_name(), c.target, nlohmann::json::parse(run.out)["instructions"]);
  const int outputs = written_output_count(dir.file("host"));
  ASSERT_GE(outputs, 1) << c.model;
  ASSERT_EQ(written_output_count(dir.file("device")), outputs) << c.model << " on " << device;
  for (int j = 0; j < outputs; ++j) {
    const std::string name = "/out" + std::to_string(j) + ".npy";
    const NpyArray a = read_npy(dir.file("host") + name);
    const NpyArray b = read_npy(dir.file("device") + name);
    EXPECT_EQ(a.shape, b.shape);
    EXPECT_EQ(a.data, b.data) << c.model << " on " << device << " output " << j;
  }
}

INSTANTIATE_TEST_SUITE_P(Models, QuantizedOnQemu, ::testing::ValuesIn(quantized_counted_runs()),
                         [](const ::testing::TestParamInfo<QuantizedRun>& info) {
                           std::string name = std::string(info.param.model) + "_qemu_" + info.param.target;
                           for (char& ch : name)
                             if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return name;
                         });

}  // namespace
}  // namespace mote::testing
