// The per-op tests: each TFLite builtin operator Mote accepts, in every dtype it takes,
// built into a one-operator .tflite (tflite_builder.h), compiled, run, and checked against
// outputs the test derives from TFLite's reference semantics (written in the test, never
// taken from Mote's kernels): bit for bit for integer outputs, within a stated tolerance
// for float32 (a NaN never passes).
//
// Where it runs: always on the host (the program loaded in-process with every kernel,
// the arena filled with garbage first); and, when the environment variable
// MOTE_OP_DEVICES lists emulated cores ("qemu-cortex-m4,qemu-cortex-m0plus"), compiled
// for each core and run under QEMU (cli/device_runner.h) too. ctest runs op_tests twice:
// `ops/...` on the host (label unit, also under ASan/UBSan) and `ops_qemu/...` with
// MOTE_OP_DEVICES set (label qemu). A missing firmware or QEMU fails the test.
//
// With MOTE_OP_MODEL_DIR set, every model built is also written there as op_<name>.tflite
// (tools/fuzz.sh seeds the .tflite importer's fuzz target with them).
//
// Adding an op's tests: tests/ops/<op>_test.cc (the TFLite op's name in snake case), in
// namespace mote::testing::<op>_test, its tests declared with OP_TEST, with its oracle,
// its cases (every attribute and dtype) and its refusals (expect_op_error: one line
// naming the operator), listed in tests/ops/CMakeLists.txt.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "ops/tflite_builder.h"
#include "test_util.h"

namespace mote::testing {

// The fixture of every op test (OP_TEST): the runs on emulated cores that the test's
// expect_op_outputs/expect_op_sequence calls ask for are made when the test body ends, all
// of them for one core in one QEMU session (starting QEMU costs more than running a
// one-operator program), and their failures are the test's.
class OpTest : public ::testing::Test {
 protected:
  void TearDown() override;
};

// OP_TEST(Suite, Name): a gtest TEST(Suite, Name) with OpTest as its fixture.
#define OP_TEST(suite, name) \
  GTEST_TEST_(suite, name, ::mote::testing::OpTest, ::testing::internal::GetTypeId<::mote::testing::OpTest>())

// One run of an op model: raw little-endian bytes of each graph input, in the model's
// input order, and of each output TFLite's semantics give for them.
struct OpSample {
  std::vector<std::vector<uint8_t>> inputs;
  std::vector<std::vector<uint8_t>> expected;
};

// How float32 outputs compare: |actual - expected| <= absolute + relative * |expected|;
// an infinity must be the same infinity, and an expected NaN (where TFLite's result is
// NaN: log(-1), sqrt(-1), ...) needs a NaN; a NaN anywhere else fails. Integer outputs
// always compare bit for bit.
struct FloatTolerance {
  double absolute = 0;
  double relative = 0;
};

// `spec` built as <dir>/<name>.tflite (and copied into $MOTE_OP_MODEL_DIR when set:
// tools/fuzz.sh seeds the .tflite importer with them); its path.
std::string write_model(const TempDir& dir, const std::string& name, const ModelSpec& spec);
// The program `mote compile --target <target>` makes of a model file (throws CompileError).
std::vector<uint8_t> compile_for(const std::string& model, const std::string& target);

// The devices besides the host (MOTE_OP_DEVICES, comma-separated; empty when unset).
const std::vector<std::string>& op_test_devices();

// Builds `spec` as <name>.tflite, checks that its import gives only Mote ops its operators
// declare (tflite_operators(), what `mote compile --list-ops` reports), compiles it for
// the host and for each op_test_devices() core, runs every sample there and checks every
// output element. Failures name the case,
// device, sample, output and element. `spec`'s output dtypes decide the comparison.
void expect_op_outputs(const std::string& name, const ModelSpec& spec, const std::vector<OpSample>& samples,
                       FloatTolerance tolerance = {});

// The same for a stateful model (TFLite resource variables, SVDF and LSTM state): the
// samples run in order in one loaded program, on the host and on each device (one QEMU
// boot), so each sample's expected outputs follow from the state the samples before it
// left. On the host the sequence then runs again after reset_state() and must give the
// same outputs.
void expect_op_sequence(const std::string& name, const ModelSpec& spec, const std::vector<OpSample>& samples,
                        FloatTolerance tolerance = {});

// The one-line error compiling `spec` as <name>.tflite gives (import or compile stage),
// with the temporary folder cut: "<name>.tflite: operator 0 (...): ..." for an importer
// refusal, the compiler's message otherwise; "" when it compiles.
std::string op_error(const std::string& name, const ModelSpec& spec);

// The same for `mote compile --quantize int8` with one calibration sample of
// `input_shape`, all zeros ("" when it compiles).
std::string quantize_error(const std::string& name, const ModelSpec& spec, const ir::Shape& input_shape);

// The kernels a host run of `spec` on `sample`'s inputs executes, in the order it runs
// them (an op in a loop once per iteration): what the program chooses at run time.
std::vector<std::string> op_kernels_run(const std::string& name, const ModelSpec& spec, const OpSample& sample);

// TFLite's QuantizeMultiplier: real = multiplier * 2^(shift - 31), multiplier in
// [2^30, 2^31) rounded half away from zero (0 and shift 0 for real 0 or tiny values).
void ref_quantize_multiplier(double real, int32_t* multiplier, int32_t* shift);

// Quantization as TFLite does it: round half away from zero, then clamp to [lo, hi].
int32_t quantize_value(double real, double scale, int32_t zero_point, int32_t lo, int32_t hi);

}  // namespace mote::testing
