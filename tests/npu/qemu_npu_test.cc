// Vela programs on the emulated cores (issue 19, "Done means", the QEMU part): the runner
// firmware runs NPU ops on the functional Ethos-U model (platforms/ethos_u) behind the
// same driver hook as the host, so every Vela file the host model runs gives, under
// QEMU, the host run's outputs bit for bit: U55 and U85 files on qemu-cortex-m55, U65
// files on qemu-cortex-m33 (the Cortex-M33 "ML island"), each on random full-range
// inputs, the runner handing the model each payload and region exact and aligned. And
// what goes wrong there comes back as one line: the NPU model's own error
// when a command stream fails, a workspace or arena that does not fit the runner.
#include <gtest/gtest.h>

#include <cctype>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/error.h"
#include "compiler.h"
#include "device_runner.h"
#include "ethos_u/ethos_u.h"
#include "ethos_u/ethos_u_payload.h"
#include "ethos_u_model.h"
#include "host/loaded_program.h"
#include "mote/interpreter.h"
#include "test_util.h"

namespace mote::testing {
namespace qemu_npu_test {

std::string ethos_u_file(const std::string& name) { return shared_models() + "/ethos-u/" + name + ".tflite"; }

std::string core_of(const std::string& device) { return device.substr(std::string("qemu-").size()); }

std::vector<uint8_t> compile_for(const std::string& vela, const std::string& npu, const std::string& device) {
  CompileOptions options;
  options.model_path = ethos_u_file(vela);
  options.target = core_of(device);
  options.npu = npu;
  return compile(options).program;
}

// One Vela file on its core. `runs`: random inputs, all in one QEMU session.
struct QemuCase {
  const char* vela;
  const char* npu;
  const char* device;
  int runs;
};

// Every Vela file the host model runs (ethos_u_model_test.cc), one line each. Measured
// on the 2-core machine, each whole test (compile, host runs, one QEMU session) idle /
// under load: kws 1 / 4 s, yolo 4.5 / 15 s for 3 inputs (0.2 and 1 G instructions per
// input: the model runs the NPU's work in software); espcn and squeezenet (U65 ATU
// graphs: CPU ops on 104x160 and 224x224 images around the NPU ops, 3.7 and 3.3 G
// instructions per input) 5.5-6.5 / 20 s with one input, so one input each. zero_dce
// needs a 94 MB arena, more than the runner's 16 MiB workspace (see
// ZeroDceIsRefusedForItsArena).
const QemuCase kCases[] = {
    {"kws_micronet_m_vela_H128", "ethos-u55-128", "qemu-cortex-m55", 3},
    {"kws_micronet_m_vela_H256", "ethos-u55-256", "qemu-cortex-m55", 3},
    {"kws_micronet_m_vela_Y256", "ethos-u65-256", "qemu-cortex-m33", 3},
    {"yolo-fastest_192_face_v4_vela_H256", "ethos-u55-256", "qemu-cortex-m55", 3},
    {"yolo-fastest_192_face_v4_vela_Y256", "ethos-u65-256", "qemu-cortex-m33", 3},
    {"kws_micronet_m_vela_Z256", "ethos-u85-256", "qemu-cortex-m55", 3},
    {"yolo-fastest_192_face_v4_vela_Z256", "ethos-u85-256", "qemu-cortex-m55", 3},
    {"espcn_x3_quant_vela", "ethos-u65-256", "qemu-cortex-m33", 1},
    {"squeezenet_v1_1_quant_vela", "ethos-u65-256", "qemu-cortex-m33", 1},
    // The model as ARMv6-M code (no 32x32->64 multiply: 1.1 G instructions, 5 s).
    {"kws_micronet_m_vela_H128", "ethos-u55-128", "qemu-cortex-m0plus", 1},
};

// The runner fills its arena with this byte before loading (runner_main.cc: its
// high-water mark). The host run starts from the same bytes: espcn's and squeezenet's
// streams leave rows of their pad buffers unwritten (Vela drops the padding along
// TFLite's W axis, ethos_u_model_test.cc) and later ops read them, so their outputs
// depend on what the arena held (with the host's default zero fill, 5,750 of espcn's
// 149,760 output bytes differ).
constexpr uint8_t kRunnerArenaFill = 0xA5;

void PrintTo(const QemuCase& c, std::ostream* os) { *os << c.vela << " on " << c.device; }

class VelaOnQemu : public ::testing::TestWithParam<QemuCase> {};

// What the runner's driver recorded in the first run (the runner as a recording fake
// driver, DeviceRunResult::npu_regions) against the host's view of the same program:
// one invoke per NPU op in order, the payload in place in the program, each region at its
// tensor's offset in the program, the arena or the fast scratch, its size exact, every
// address 16-byte aligned.
void expect_npu_regions(const LoadedProgram& host, const DeviceRunResult& device, const std::string& what) {
  const Interpreter& interp = host.interpreter();
  const auto* host_program = reinterpret_cast<const uint8_t*>(&host.header());
  std::vector<DeviceNpuRegion> expected;
  for (uint32_t k = 0; k < interp.op_count(); ++k) {
    if (!is_ethos_u_op(*interp.op_desc(k))) continue;
    const OpContext ctx = interp.op_context(k);
    const EthosUParams& params = ctx.params<EthosUParams>();
    const auto in_program = [&](const void* data) {
      return device.program_address + static_cast<uint64_t>(static_cast<const uint8_t*>(data) - host_program);
    };
    expected.push_back({k, -1, in_program(ctx.input_data(0)), ctx.input_desc(0).bytes});
    for (uint32_t r = 0; r < params.region_count; ++r) {
      const uint32_t input = r + 1;
      DeviceNpuRegion region{k, static_cast<int32_t>(r), 0, 0};
      if (r == 2 && params.fast_scratch_bytes != 0) {
        region.address = device.fast_scratch_address;
        region.bytes = params.fast_scratch_bytes;
      } else if (input >= ctx.input_count() || ctx.has_input(input)) {
        const bool is_input = input < ctx.input_count();
        const TensorDesc& t = is_input ? ctx.input_desc(input) : ctx.output_desc(input - ctx.input_count());
        const void* data = is_input ? ctx.input_data(input) : ctx.output_data(input - ctx.input_count());
        region.address = t.storage == static_cast<uint8_t>(Storage::kConstant) ? in_program(data)
                                                                                : device.arena_address + t.offset;
        region.bytes = t.bytes;
      }
      expected.push_back(region);
    }
  }
  ASSERT_FALSE(expected.empty()) << what;
  ASSERT_EQ(device.npu_regions.size(), expected.size()) << what;
  for (size_t i = 0; i < expected.size(); ++i) {
    const DeviceNpuRegion& got = device.npu_regions[i];
    const DeviceNpuRegion& want = expected[i];
    const std::string where = what + " op " + std::to_string(want.op) + " region " + std::to_string(want.region);
    EXPECT_EQ(got.op, want.op) << where;
    EXPECT_EQ(got.region, want.region) << where;
    EXPECT_EQ(got.address, want.address) << where;
    EXPECT_EQ(got.bytes, want.bytes) << where;
    EXPECT_EQ(got.address % 16, 0u) << where;
  }
}

TEST_P(VelaOnQemu, EqualsTheHostRunBitForBitWithExactAlignedRegions) {
  const QemuCase& c = GetParam();
  const std::vector<uint8_t> program = compile_for(c.vela, c.npu, c.device);
  TempDir dir;
  const std::string path = dir.file("program.mote");
  write_bytes(path, program);

  LoadedProgram host(program, c.vela, std::nullopt, kRunnerArenaFill);
  const Interpreter& interp = host.interpreter();
  std::mt19937 rng(19);
  std::vector<std::vector<std::vector<uint8_t>>> runs;
  std::vector<std::vector<std::vector<uint8_t>>> expected;
  for (int r = 0; r < c.runs; ++r) {
    std::vector<std::vector<uint8_t>>& inputs = runs.emplace_back();
    for (uint32_t i = 0; i < interp.input_count(); ++i) {
      std::vector<uint8_t>& input = inputs.emplace_back(interp.input_desc(i)->bytes);
      for (uint8_t& b : input) b = static_cast<uint8_t>(rng());
      host.set_input(i, input);
    }
    host.run();
    std::vector<std::vector<uint8_t>>& outputs = expected.emplace_back();
    for (uint32_t j = 0; j < interp.output_count(); ++j) {
      const std::span<const uint8_t> out = host.output(j);
      outputs.emplace_back(out.begin(), out.end());
    }
  }

  const DeviceRunResult device = run_sequence_on_device(c.device, path, runs, interp.output_count());
  ASSERT_EQ(device.later_outputs.size(), runs.size() - 1);
  for (int r = 0; r < c.runs; ++r) {
    const auto& outputs = r == 0 ? device.outputs : device.later_outputs[r - 1];
    ASSERT_EQ(outputs.size(), expected[r].size());
    for (size_t j = 0; j < outputs.size(); ++j)
      EXPECT_EQ(outputs[j], expected[r][j]) << c.vela << " on " << c.device << " input " << r << " output " << j;
  }
  EXPECT_GT(device.total_instructions, 0u);
  expect_npu_regions(host, device, std::string(c.vela) + " on " + c.device);
}

INSTANTIATE_TEST_SUITE_P(EthosU, VelaOnQemu, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<QemuCase>& info) {
                           std::string name = std::string(info.param.vela) + "_" + core_of(info.param.device);
                           for (char& ch : name)
                             if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return name;
                         });

// ------------------------------------------------------------------ what goes wrong

std::string device_error(const std::string& device, const std::string& path, const std::vector<uint8_t>& input,
                         uint32_t outputs) {
  try {
    run_on_device(device, path, {input}, outputs);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "(no error)";
}

std::string host_error(const std::vector<uint8_t>& program, const std::vector<uint8_t>& input) {
  try {
    LoadedProgram loaded(program, "program");
    loaded.set_input(0, input);
    loaded.run();
  } catch (const CompileError& e) {
    return e.what();
  }
  return "(no error)";
}

void refresh_checksum(std::vector<uint8_t>& program) {
  const uint32_t checksum = program_checksum(program.data(), static_cast<uint32_t>(program.size()));
  std::memcpy(program.data() + offsetof(ProgramHeader, checksum), &checksum, sizeof checksum);
}

ProgramHeader header_of(const std::vector<uint8_t>& program) {
  ProgramHeader h;
  std::memcpy(&h, program.data(), sizeof h);
  return h;
}

// Writes `program` with its planned arena set to `arena_bytes` (header only, checksum
// refreshed) into `dir`; returns the path.
std::string write_with_arena(std::vector<uint8_t> program, uint32_t arena_bytes, const TempDir& dir) {
  ProgramHeader h = header_of(program);
  h.arena_bytes = arena_bytes;
  std::memcpy(program.data(), &h, sizeof h);
  refresh_checksum(program);
  const std::string path = dir.file("big_arena.mote");
  write_bytes(path, program);
  return path;
}

// The kws H128 program (one NPU op) with its first command replaced by an opcode the
// U55 does not have: loading accepts it (the payload parses; the stream was checked at
// compile time), the run stops at the NPU op with the model's line, the same on QEMU as
// on the host.
TEST(QemuNpuErrors, AFailingCommandStreamStopsTheRunWithTheModelsLine) {
  std::vector<uint8_t> program = compile_for("kws_micronet_m_vela_H128", "ethos-u55-128", "qemu-cortex-m55");
  LoadedProgram probe(program, "kws");
  const OpContext ctx = probe.interpreter().op_context(0);
  ASSERT_TRUE(is_ethos_u_op(*probe.interpreter().op_desc(0)));
  const auto* payload = static_cast<const uint8_t*>(ctx.input_data(0));
  EthosUPayload parsed;
  ASSERT_EQ(parse_ethos_u_payload(payload, ctx.input_desc(0).bytes, &parsed), EthosUPayloadError::kOk);
  const size_t at = static_cast<size_t>(payload - reinterpret_cast<const uint8_t*>(&probe.header())) + parsed.stream_offset;
  const uint32_t unknown = 0x0000010Eu;  // cmd0 0x10E: no such register
  std::memcpy(program.data() + at, &unknown, sizeof unknown);
  refresh_checksum(program);

  TempDir dir;
  const std::string path = dir.file("bad_stream.mote");
  write_bytes(path, program);
  const std::vector<uint8_t> input(490, 0);
  const std::string line = "run stopped at op 0 'Identity': the NPU model says: command 0 (cmd0 0x10E): "
                           "unknown opcode for Ethos-U55";
  EXPECT_EQ(host_error(program, input), "program: " + line);
  EXPECT_EQ(device_error("qemu-cortex-m55", path, input, 1), "qemu-cortex-m55: " + line);
}

// The kws H128 program with its planned arena grown (header only) until the NPU model's
// workspace no longer fits the runner's 16 MiB: one line saying what the model needs and
// what is left.
TEST(QemuNpuErrors, AModelWorkspaceThatDoesNotFitIsOneLine) {
  std::vector<uint8_t> program = compile_for("kws_micronet_m_vela_H128", "ethos-u55-128", "qemu-cortex-m55");
  LoadedProgram probe(program, "kws");
  const OpContext ctx = probe.interpreter().op_context(0);
  const uint64_t need =
      ethos_u_model_workspace_bytes(static_cast<const uint8_t*>(ctx.input_data(0)), ctx.input_desc(0).bytes);
  ASSERT_GT(need, 64u);
  // The runner's workspace: 16 MiB from a 16-byte aligned start (no .noinit buffers);
  // the program, then the arena (kArenaAlignment), then the model workspace (8).
  const uint64_t workspace = 16u << 20;
  const uint64_t program_end = (program.size() + kArenaAlignment - 1) / kArenaAlignment * kArenaAlignment;
  const uint32_t arena = static_cast<uint32_t>((workspace - program_end - need / 2) / 16 * 16);
  TempDir dir;
  const std::string path = write_with_arena(program, arena, dir);
  const std::string error = device_error("qemu-cortex-m55", path, std::vector<uint8_t>(490, 0), 1);
  const std::string left = std::to_string(workspace - program_end - arena);
  EXPECT_EQ(error, "qemu-cortex-m55: the NPU model needs a " + std::to_string(need) +
                       "-byte workspace for op 0 'Identity'; the runner's workspace has " + left +
                       " bytes left after the program, its arena and the NPU's fast scratch");
}

// The same with a U65 program on the M33: its dedicated fast scratch no longer fits.
TEST(QemuNpuErrors, AFastScratchThatDoesNotFitIsOneLine) {
  std::vector<uint8_t> program = compile_for("kws_micronet_m_vela_Y256", "ethos-u65-256", "qemu-cortex-m33");
  const uint64_t workspace = 16u << 20;
  const uint64_t program_end = (program.size() + kArenaAlignment - 1) / kArenaAlignment * kArenaAlignment;
  const uint32_t arena = static_cast<uint32_t>((workspace - program_end - 1024) / 16 * 16);
  TempDir dir;
  const std::string path = write_with_arena(program, arena, dir);
  const std::string error = device_error("qemu-cortex-m33", path, std::vector<uint8_t>(490, 0), 1);
  EXPECT_EQ(error, "qemu-cortex-m33: cannot load program '" + path + "': " +
                       status_string(Status::kFastScratchTooSmall) + " (the runner's workspace has " +
                       std::to_string(workspace - program_end - arena) + " bytes left after the program and its arena)");
}

// zero_dce's 94 MB arena does not fit the runner's 16 MiB workspace: refused at load in
// one line naming both sizes.
TEST(QemuNpuErrors, ZeroDceIsRefusedForItsArena) {
  const std::vector<uint8_t> program = compile_for("zero_dce_quant_vela", "ethos-u65-256", "qemu-cortex-m33");
  const ProgramHeader h = header_of(program);
  TempDir dir;
  const std::string path = dir.file("zero_dce.mote");
  write_bytes(path, program);
  const std::string error = device_error("qemu-cortex-m33", path, std::vector<uint8_t>(3 * 400 * 600, 0), 1);
  EXPECT_NE(error.find("qemu-cortex-m33: cannot load program '" + path + "'"), std::string::npos) << error;
  EXPECT_NE(error.find("the program needs a " + std::to_string(h.arena_bytes) + "-byte arena"), std::string::npos)
      << error;
}

// The CLI end to end: `mote run --device qemu-cortex-m33` on a U65 program writes the
// .npy files `mote run --device host` writes.
TEST(QemuNpuCli, RunOnQemuWritesTheHostsOutputs) {
  TempDir dir;
  const std::string program = dir.file("kws.mote");
  const CommandResult compiled = run_mote("compile '" + ethos_u_file("kws_micronet_m_vela_Y256") + "' -o '" + program +
                                          "' --target cortex-m33 --npu ethos-u65-256");
  ASSERT_EQ(compiled.exit_code, 0) << compiled.err;
  const std::string input = shared_models() + "/tflm-golden/kws_micronet_m.s0.in0.npy";
  for (const char* device : {"host", "qemu-cortex-m33"}) {
    const CommandResult r = run_mote("run '" + program + "' --input '" + input + "' --output-dir '" +
                                     dir.file(device) + "' --device " + device);
    ASSERT_EQ(r.exit_code, 0) << device << ": " << r.err;
  }
  const std::string host = read_text(dir.file("host") + "/out0.npy");
  EXPECT_FALSE(host.empty());
  EXPECT_EQ(read_text(dir.file("qemu-cortex-m33") + "/out0.npy"), host);
}

}  // namespace qemu_npu_test
}  // namespace mote::testing
