// `mote run --device qemu-... --json` carries the memory report next to the per-op
// instruction counts: program bytes, the arena planned (and its lower bound), given and
// used (the runner's high-water mark), and each op's scratch bytes; checked against
// `mote inspect --json` of the same program and the program file itself.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "test_util.h"

namespace mote::testing {
namespace {

using nlohmann::json;

std::string quote(const std::string& s) { return "'" + s + "'"; }

json run_json(const std::string& args) {
  const CommandResult r = run_mote(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return json::parse(r.out, nullptr, false);
}

TEST(RunJson, QemuRunCarriesTheMemoryReport) {
  TempDir dir;
  const std::string program = dir.file("lenet.mote");
  const CommandResult compiled = run_mote("compile " + quote(onnx_model("lenet5_28")) + " -o " +
                                          quote(program) + " --target cortex-m4");
  ASSERT_EQ(compiled.exit_code, 0) << compiled.err;
  const json inspect = run_json("inspect " + quote(program) + " --json");
  const std::string input = shared_models() + "/onnx/lenet5_28.s0.in0.npy";
  const json run = run_json("run " + quote(program) + " --input " + quote(input) + " --output-dir " +
                            quote(dir.file("out")) + " --device qemu-cortex-m4 --json");
  ASSERT_FALSE(run.is_discarded());
  ASSERT_TRUE(run.contains("memory")) << run.dump();
  const json& memory = run.at("memory");

  EXPECT_EQ(memory.at("program_bytes").get<uint64_t>(), std::filesystem::file_size(program));
  EXPECT_EQ(memory.at("program_bytes"), inspect.at("program_bytes"));
  EXPECT_EQ(memory.at("weights_bytes"), inspect.at("weights_bytes"));
  EXPECT_EQ(memory.at("arena_planned_bytes"), inspect.at("arena_bytes"));
  EXPECT_EQ(memory.at("arena_lower_bound_bytes"), inspect.at("arena_lower_bound_bytes"));
  // The runner gives exactly the planned arena. At the schedule's peak the live tensors
  // fill at least lower-bound bytes of distinct arena addresses, all written, so the
  // high-water mark lies between the lower bound and the plan.
  EXPECT_EQ(memory.at("arena_given_bytes"), memory.at("arena_planned_bytes"));
  const uint64_t used = memory.at("arena_used_bytes").get<uint64_t>();
  EXPECT_GE(used, memory.at("arena_lower_bound_bytes").get<uint64_t>());
  EXPECT_LE(used, memory.at("arena_planned_bytes").get<uint64_t>());

  ASSERT_FALSE(run.at("ops").empty());
  ASSERT_EQ(run.at("ops").size(), inspect.at("ops").size());
  uint64_t max_scratch = 0;
  for (size_t k = 0; k < run.at("ops").size(); ++k) {
    EXPECT_EQ(run.at("ops")[k].at("scratch_bytes"), inspect.at("ops")[k].at("scratch_bytes")) << "op " << k;
    EXPECT_GT(run.at("ops")[k].at("instructions").get<uint64_t>(), 0u) << "op " << k;
    max_scratch = std::max(max_scratch, run.at("ops")[k].at("scratch_bytes").get<uint64_t>());
  }
  EXPECT_EQ(memory.at("max_op_scratch_bytes").get<uint64_t>(), max_scratch);
  RecordProperty("arena_planned_bytes", memory.at("arena_planned_bytes").dump());
  RecordProperty("arena_used_bytes", memory.at("arena_used_bytes").dump());

  // On the host the same report, without the device's given/used figures.
  const json host = run_json("run " + quote(program) + " --input " + quote(input) + " --output-dir " +
                             quote(dir.file("host")) + " --json");
  ASSERT_TRUE(host.contains("memory")) << host.dump();
  EXPECT_EQ(host.at("memory").at("program_bytes"), memory.at("program_bytes"));
  EXPECT_EQ(host.at("memory").at("arena_planned_bytes"), memory.at("arena_planned_bytes"));
  EXPECT_FALSE(host.at("memory").contains("arena_used_bytes"));
}

}  // namespace
}  // namespace mote::testing
