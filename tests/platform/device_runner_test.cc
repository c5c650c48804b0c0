// The Cortex-M platform end to end: for every emulated core, the runner firmware boots
// under QEMU, loads a hand-built program, runs it and returns the right outputs and
// repeatable per-op instruction counts; and every failure comes back as one line that
// says what is wrong.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "device_runner.h"
#include "elementwise/elementwise.h"
#include "mote/status.h"
#include "softmax/softmax.h"
#include "test_program.h"

namespace mote::testing {
namespace {

namespace fs = std::filesystem;

template <typename T>
std::vector<uint8_t> to_bytes(const std::vector<T>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

std::vector<float> to_floats(const std::vector<uint8_t>& bytes) {
  std::vector<float> values(bytes.size() / sizeof(float));
  std::memcpy(values.data(), bytes.data(), values.size() * sizeof(float));
  return values;
}

// A scratch directory for program files, removed at the end of the test.
class ScratchDir {
 public:
  ScratchDir() {
    std::string pattern = (fs::temp_directory_path() / "mote-platform-test-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~ScratchDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  std::string write(const std::string& name, const std::vector<uint8_t>& bytes) const {
    const fs::path path = path_ / name;
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    return path.string();
  }

 private:
  fs::path path_;
};

// The test program:
//   sum0  = x + bias                 add_f32, bias [5] constant, broadcast over rows
//   sum1  = clamp(sum0 + y, -3, 3)   add_f32 with a fused clamp
//   probs = softmax(sum1)            softmax_f32 over the last axis, beta 1
// inputs x, y [2,5]; outputs probs, sum1 (in that order).
constexpr uint32_t kRows = 2;
constexpr uint32_t kCols = 5;
const std::vector<float> kBias = {0.5f, -1.25f, 2.0f, 0.0f, -0.75f};
const std::vector<float> kX = {0.1f, 0.2f, -0.3f, 1.5f, -2.5f, 3.0f, -1.0f, 0.25f, 0.75f, 2.0f};
const std::vector<float> kY = {1.0f, -0.5f, 0.125f, 2.5f, 0.0f, 0.4f, -4.0f, 1.5f, -0.6f, 1.25f};

std::vector<uint8_t> build_test_program() {
  ProgramBuilder b;
  const uint32_t x = b.tensor(DType::kFloat32, {kRows, kCols}, "x");
  const uint32_t bias = b.tensor(DType::kFloat32, {kCols}, "bias", to_bytes(kBias));
  const uint32_t y = b.tensor(DType::kFloat32, {kRows, kCols}, "y");
  const uint32_t sum0 = b.tensor(DType::kFloat32, {kRows, kCols}, "sum0");
  const uint32_t sum1 = b.tensor(DType::kFloat32, {kRows, kCols}, "sum1");
  const uint32_t probs = b.tensor(DType::kFloat32, {kRows, kCols}, "probs");
  const float inf = std::numeric_limits<float>::infinity();
  b.op(KernelId::kAddF32, {x, bias}, {sum0}, BinaryParams{-inf, inf}, "add_bias");
  b.op(KernelId::kAddF32, {sum0, y}, {sum1}, BinaryParams{-3.0f, 3.0f}, "add_clamp");
  b.op(KernelId::kSoftmaxF32, {sum1}, {probs}, SoftmaxParams{1.0f}, "softmax");
  b.graph_io({x, y}, {probs, sum1});
  return b.build();
}

struct Expected {
  std::vector<float> sum1;
  std::vector<double> probs;
};

Expected expected_outputs() {
  Expected e;
  for (uint32_t r = 0; r < kRows; ++r) {
    for (uint32_t c = 0; c < kCols; ++c) {
      const float sum0 = kX[r * kCols + c] + kBias[c];  // float adds: bit-exact everywhere
      e.sum1.push_back(std::fmin(std::fmax(sum0 + kY[r * kCols + c], -3.0f), 3.0f));
    }
  }
  for (uint32_t r = 0; r < kRows; ++r) {
    double max = -1e300, total = 0;
    for (uint32_t c = 0; c < kCols; ++c) max = std::fmax(max, e.sum1[r * kCols + c]);
    for (uint32_t c = 0; c < kCols; ++c) total += std::exp(e.sum1[r * kCols + c] - max);
    for (uint32_t c = 0; c < kCols; ++c) e.probs.push_back(std::exp(e.sum1[r * kCols + c] - max) / total);
  }
  return e;
}

std::string run_error(const std::string& device, const std::string& program,
                      const std::vector<std::vector<uint8_t>>& inputs, uint32_t outputs = 1) {
  try {
    run_on_device(device, program, inputs, outputs);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "(no error)";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

class EveryCore : public ::testing::TestWithParam<const char*> {};

TEST_P(EveryCore, RunsHandBuiltProgramWithRepeatableCounts) {
  const std::string device = GetParam();
  ScratchDir dir;
  const std::string program = dir.write("test.mote", build_test_program());
  const DeviceRunResult run = run_on_device(device, program, {to_bytes(kX), to_bytes(kY)}, 2);

  const Expected expected = expected_outputs();
  ASSERT_EQ(run.outputs.size(), 2u);
  ASSERT_EQ(run.outputs[0].size(), kRows * kCols * sizeof(float));
  ASSERT_EQ(run.outputs[1].size(), kRows * kCols * sizeof(float));
  const std::vector<float> probs = to_floats(run.outputs[0]);
  const std::vector<float> sum1 = to_floats(run.outputs[1]);
  for (size_t i = 0; i < sum1.size(); ++i) {
    EXPECT_EQ(sum1[i], expected.sum1[i]) << "sum1[" << i << "] on " << device;
    EXPECT_NEAR(probs[i], expected.probs[i], 1e-6) << "probs[" << i << "] on " << device;
  }

  // Per-op counts: one per op, plausible for 10-element ops (the softmax calls expf 10
  // times, all in software on the cores without an FPU), and within the total.
  ASSERT_EQ(run.op_instructions.size(), 3u);
  uint64_t sum = 0;
  for (size_t op = 0; op < run.op_instructions.size(); ++op) {
    EXPECT_GT(run.op_instructions[op], 30u) << "op " << op << " on " << device;
    EXPECT_LT(run.op_instructions[op], 100000u) << "op " << op << " on " << device;
    sum += run.op_instructions[op];
  }
  EXPECT_GE(run.total_instructions, sum);
  EXPECT_LT(run.total_instructions, sum + 5000) << "dispatch overhead on " << device;

  // Memory: the runner gives exactly the planned arena (five 40-byte tensors in 48-byte
  // slots: 240 bytes) and its high-water mark is the end of the last tensor, probs at
  // offset 192: the padding after it is never written.
  EXPECT_EQ(run.arena_given_bytes, 240u) << device;
  EXPECT_EQ(run.arena_used_bytes, 192u + kRows * kCols * sizeof(float)) << device;

  // -icount makes the counts independent of the host: a second run gives the same.
  const DeviceRunResult again = run_on_device(device, program, {to_bytes(kX), to_bytes(kY)}, 2);
  EXPECT_EQ(again.op_instructions, run.op_instructions) << device;
  EXPECT_EQ(again.total_instructions, run.total_instructions) << device;
  EXPECT_EQ(again.outputs, run.outputs) << device;

  std::string counts;
  for (uint64_t n : run.op_instructions) counts += " " + std::to_string(n);
  RecordProperty("op_instructions", counts);
  RecordProperty("total_instructions", std::to_string(run.total_instructions));
}

// A program whose constant, input and output are 4 MiB each: the program and its
// arena must land in the machine's big workspace memory.
TEST_P(EveryCore, RunsProgramLargerThanOnChipMemory) {
  const std::string device = GetParam();
  constexpr uint32_t kCount = 1u << 20;
  std::vector<float> weights(kCount), input(kCount);
  for (uint32_t i = 0; i < kCount; ++i) {
    weights[i] = static_cast<float>(i % 1000) * 0.5f;
    input[i] = static_cast<float>(i / 1000);
  }
  ProgramBuilder b;
  const uint32_t x = b.tensor(DType::kFloat32, {kCount}, "x");
  const uint32_t w = b.tensor(DType::kFloat32, {kCount}, "w", to_bytes(weights));
  const uint32_t out = b.tensor(DType::kFloat32, {kCount}, "out");
  const float inf = std::numeric_limits<float>::infinity();
  b.op(KernelId::kAddF32, {x, w}, {out}, BinaryParams{-inf, inf}, "add");
  b.graph_io({x}, {out});
  ScratchDir dir;
  const std::string program = dir.write("big.mote", b.build());

  const DeviceRunResult run = run_on_device(device, program, {to_bytes(input)}, 1);
  ASSERT_EQ(run.outputs.size(), 1u);
  const std::vector<float> result = to_floats(run.outputs[0]);
  ASSERT_EQ(result.size(), kCount);
  for (uint32_t i = 0; i < kCount; ++i) {
    ASSERT_EQ(result[i], input[i] + weights[i]) << "element " << i << " on " << device;
  }
  // Counted, and no fewer than the elements: on an FPU core the add takes four elements
  // per step (a VLDM per operand, four VADDs, a VSTM: 7 instructions), elsewhere at least
  // a load, a load, an add and a store each.
  ASSERT_EQ(run.op_instructions.size(), 1u);
  EXPECT_GT(run.op_instructions[0], device == "qemu-cortex-m0plus" || device == "qemu-cortex-m3" ? 4u * kCount
                                                                                                : 7u * kCount / 4u);
  RecordProperty("op_instructions", std::to_string(run.op_instructions[0]));
}

const char* const kDevices[] = {"qemu-cortex-m0plus", "qemu-cortex-m3",  "qemu-cortex-m4",
                                "qemu-cortex-m7",     "qemu-cortex-m33", "qemu-cortex-m55"};

std::string device_test_name(const ::testing::TestParamInfo<const char*>& info) {
  std::string name = info.param;
  for (char& c : name) {
    if (c == '-') c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Qemu, EveryCore, ::testing::ValuesIn(kDevices), device_test_name);

// Batch mode (run_jobs_on_device): in one QEMU session every job gets what it would get
// alone, a failing job its own error, and the jobs after it run from a fresh load.
TEST_P(EveryCore, BatchGivesEachJobWhatItGetsAlone) {
  const std::string device = GetParam();
  ScratchDir dir;
  const std::string good = dir.write("test.mote", build_test_program());
  const std::string garbage = dir.write("garbage.mote", std::vector<uint8_t>(200, 0x55));
  const std::vector<std::vector<uint8_t>> inputs = {to_bytes(kX), to_bytes(kY)};
  const std::vector<std::vector<uint8_t>> short_inputs = {to_bytes(kX), std::vector<uint8_t>(12, 0)};
  std::vector<float> other_x = kX;
  for (float& x : other_x) x = -x;
  const std::vector<std::vector<uint8_t>> other_inputs = {to_bytes(other_x), to_bytes(kY)};
  const std::vector<DeviceJob> jobs = {
      {good, {inputs}, 2},
      {garbage, {inputs}, 1},
      {good, {short_inputs}, 2},
      {good, {other_inputs, inputs}, 2},
      {"/nonexistent/model.mote", {inputs}, 1},
      {good, {inputs}, 2},
  };
  const std::vector<DeviceJobResult> results = run_jobs_on_device(device, jobs);
  ASSERT_EQ(results.size(), jobs.size());
  const DeviceRunResult alone = run_on_device(device, good, inputs, 2);
  for (size_t i : {size_t{0}, size_t{5}}) {
    EXPECT_EQ(results[i].error, "") << "job " << i << " on " << device;
    EXPECT_EQ(results[i].result.outputs, alone.outputs) << "job " << i << " on " << device;
    EXPECT_EQ(results[i].result.op_instructions, alone.op_instructions) << "job " << i << " on " << device;
    EXPECT_EQ(results[i].result.total_instructions, alone.total_instructions) << "job " << i << " on " << device;
    EXPECT_EQ(results[i].result.arena_used_bytes, alone.arena_used_bytes) << "job " << i << " on " << device;
  }
  EXPECT_EQ(results[1].error, run_error(device, garbage, inputs)) << device;
  EXPECT_EQ(results[2].error, run_error(device, good, short_inputs, 2)) << device;
  EXPECT_TRUE(contains(results[2].error, "input 1 is 12 bytes, expected 40")) << results[2].error;
  EXPECT_EQ(results[4].error, run_error(device, "/nonexistent/model.mote", inputs)) << device;
  // A sequence job: its second run's outputs are the single run's.
  ASSERT_EQ(results[3].error, "") << device;
  const DeviceRunResult other_alone = run_on_device(device, good, other_inputs, 2);
  EXPECT_EQ(results[3].result.outputs, other_alone.outputs) << device;
  ASSERT_EQ(results[3].result.later_outputs.size(), 1u) << device;
  EXPECT_EQ(results[3].result.later_outputs[0], alone.outputs) << device;
}

TEST(DeviceRunnerErrors, GarbageProgramIsRefusedWithTheStatus) {
  ScratchDir dir;
  const std::string program = dir.write("garbage.mote", std::vector<uint8_t>(200, 0x55));
  const std::string error = run_error("qemu-cortex-m0plus", program, {to_bytes(kX), to_bytes(kY)});
  EXPECT_TRUE(contains(error, status_string(Status::kBadMagic))) << error;
  EXPECT_TRUE(contains(error, "qemu-cortex-m0plus")) << error;
  EXPECT_TRUE(contains(error, program)) << error;
  EXPECT_FALSE(contains(error, "\n")) << error;
}

TEST(DeviceRunnerErrors, CorruptedProgramFailsTheChecksum) {
  std::vector<uint8_t> bytes = build_test_program();
  bytes[bytes.size() - 20] ^= 0x01;  // inside the constant data
  ScratchDir dir;
  const std::string program = dir.write("corrupt.mote", bytes);
  const std::string error = run_error("qemu-cortex-m4", program, {to_bytes(kX), to_bytes(kY)});
  EXPECT_TRUE(contains(error, status_string(Status::kChecksumMismatch))) << error;
}

TEST(DeviceRunnerErrors, BadOpIsReportedWithItsIndex) {
  // Softmax with an infinite beta: the kernel's check rejects op 2.
  ProgramBuilder b;
  const uint32_t x = b.tensor(DType::kFloat32, {kRows, kCols}, "x");
  const uint32_t y = b.tensor(DType::kFloat32, {kRows, kCols}, "y");
  const uint32_t s0 = b.tensor(DType::kFloat32, {kRows, kCols}, "s0");
  const uint32_t s1 = b.tensor(DType::kFloat32, {kRows, kCols}, "s1");
  const uint32_t p = b.tensor(DType::kFloat32, {kRows, kCols}, "p");
  b.op(KernelId::kAddF32, {x, y}, {s0}, BinaryParams{-1.0f, 1.0f}, "add0");
  b.op(KernelId::kAddF32, {s0, y}, {s1}, BinaryParams{-1.0f, 1.0f}, "add1");
  b.op(KernelId::kSoftmaxF32, {s1}, {p}, SoftmaxParams{std::numeric_limits<float>::infinity()}, "sm");
  b.graph_io({x, y}, {p});
  ScratchDir dir;
  const std::string program = dir.write("badop.mote", b.build());
  const std::string error = run_error("qemu-cortex-m33", program, {to_bytes(kX), to_bytes(kY)});
  EXPECT_TRUE(contains(error, status_string(Status::kBadParams))) << error;
  EXPECT_TRUE(contains(error, "op 2")) << error;
}

// A core's firmware holds only the kernels it can run: a Helium variant is not in the
// Cortex-M4 runner (its table entry is null, kernels/all_kernels.cc), so a program using
// one fails to load there with kMissingKernel naming the op, while the Cortex-M55 runner
// has the kernel and gets as far as its check (which refuses these float tensors).
TEST(DeviceRunnerErrors, KernelForAnotherCoresIsaIsMissingNotRun) {
  ProgramBuilder b;
  const uint32_t x = b.tensor(DType::kFloat32, {kRows, kCols}, "x");
  const uint32_t y = b.tensor(DType::kFloat32, {kRows, kCols}, "y");
  const uint32_t s = b.tensor(DType::kFloat32, {kRows, kCols}, "s");
  b.op(KernelId::kAddS8Mve, {x, y}, {s}, BinaryParams{-1.0f, 1.0f}, "add_mve");
  b.graph_io({x, y}, {s});
  ScratchDir dir;
  const std::string program = dir.write("mve.mote", b.build());
  const std::string m4 = run_error("qemu-cortex-m4", program, {to_bytes(kX), to_bytes(kY)});
  EXPECT_TRUE(contains(m4, status_string(Status::kMissingKernel))) << m4;
  EXPECT_TRUE(contains(m4, "op 0")) << m4;
  EXPECT_FALSE(contains(m4, "\n")) << m4;
  const std::string m55 = run_error("qemu-cortex-m55", program, {to_bytes(kX), to_bytes(kY)});
  EXPECT_FALSE(contains(m55, status_string(Status::kMissingKernel))) << m55;
  EXPECT_TRUE(contains(m55, status_string(Status::kBadParams))) << m55;
}

TEST(DeviceRunnerErrors, WrongInputSizeNamesTheInput) {
  ScratchDir dir;
  const std::string program = dir.write("test.mote", build_test_program());
  const std::vector<uint8_t> short_input(12, 0);
  const std::string error = run_error("qemu-cortex-m55", program, {to_bytes(kX), short_input}, 2);
  EXPECT_TRUE(contains(error, "input 1 is 12 bytes, expected 40")) << error;
}

TEST(DeviceRunnerErrors, WrongInputCountIsReported) {
  ScratchDir dir;
  const std::string program = dir.write("test.mote", build_test_program());
  const std::string error = run_error("qemu-cortex-m7", program, {to_bytes(kX)}, 2);
  EXPECT_TRUE(contains(error, "2 inputs but 1 input files")) << error;
}

TEST(DeviceRunnerErrors, ArenaLargerThanTheWorkspaceIsRefused) {
  std::vector<uint8_t> bytes = build_test_program();
  const uint32_t huge_arena = 64u << 20;
  std::memcpy(bytes.data() + offsetof(ProgramHeader, arena_bytes), &huge_arena, sizeof(huge_arena));
  ProgramBuilder::seal(bytes);
  ScratchDir dir;
  const std::string program = dir.write("huge.mote", bytes);
  const std::string error = run_error("qemu-cortex-m3", program, {to_bytes(kX), to_bytes(kY)});
  EXPECT_TRUE(contains(error, status_string(Status::kArenaTooSmall))) << error;
  EXPECT_TRUE(contains(error, std::to_string(huge_arena) + "-byte arena")) << error;
}

TEST(DeviceRunnerErrors, UnknownDeviceListsTheValidOnes) {
  const std::string error = run_error("qemu-cortex-a53", "unused.mote", {});
  EXPECT_TRUE(contains(error, "unknown device 'qemu-cortex-a53'")) << error;
  for (const std::string& name : device_names()) EXPECT_TRUE(contains(error, name)) << error;
}

TEST(DeviceRunnerErrors, MissingProgramFileIsNamed) {
  const std::string error = run_error("qemu-cortex-m4", "/nonexistent/model.mote", {});
  EXPECT_TRUE(contains(error, "/nonexistent/model.mote")) << error;
}

TEST(DeviceRunnerErrors, MissingFirmwareSaysHowToBuildIt) {
  ScratchDir dir;
  const std::string program = dir.write("test.mote", build_test_program());
  const std::string empty_dir = (fs::path(program).parent_path() / "no-firmware").string();
  fs::create_directory(empty_dir);
  setenv("MOTE_FIRMWARE_DIR", empty_dir.c_str(), 1);
  const std::string error = run_error("qemu-cortex-m4", program, {to_bytes(kX), to_bytes(kY)});
  unsetenv("MOTE_FIRMWARE_DIR");
  EXPECT_TRUE(contains(error, empty_dir + "/runner-cortex-m4.elf")) << error;
  EXPECT_TRUE(contains(error, "cmake --build")) << error;
}

}  // namespace
}  // namespace mote::testing
