// The NPU payload fuzzer's harness (fuzz/npu_payload_input.h) without libFuzzer: hostile
// payloads of the kinds the fuzzer mutates towards (a Vela stream truncated, with a wrong
// FourCC, over regions too small or none, with half its workspace) each fail with the
// model's line naming what is wrong, while the untouched stream over its real regions
// runs. And the fuzzer's reproducers (fuzz/crashes/*.npu, which tools/fuzz.sh also
// replays first) give their error line, without a sanitizer report.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "compiler.h"
#include "ethos_u/ethos_u.h"
#include "ethos_u_model.h"
#include "host/loaded_program.h"
#include "npu_payload_input.h"
#include "test_util.h"

namespace mote::testing {
namespace npu_payload_replay_test {

using fuzz::make_npu_payload_input;
using fuzz::NpuPayloadResult;

NpuPayloadResult run(const std::vector<uint8_t>& input) {
  return fuzz::run_npu_payload_input(input.data(), input.size());
}

// kws H128's one NPU op as the seed tool writes it: payload, region sizes, constants.
struct Seed {
  std::vector<uint8_t> payload;
  std::vector<uint32_t> regions;
  std::vector<uint8_t> constants;
};

Seed kws_seed() {
  CompileOptions options;
  options.model_path = shared_models() + "/ethos-u/kws_micronet_m_vela_H128.tflite";
  options.target = "cortex-m55";
  options.npu = "ethos-u55-128";
  LoadedProgram loaded(compile(options).program, "kws");
  const Interpreter& interp = loaded.interpreter();
  EXPECT_TRUE(is_ethos_u_op(*interp.op_desc(0)));
  const OpContext ctx = interp.op_context(0);
  Seed seed;
  const auto* payload = static_cast<const uint8_t*>(ctx.input_data(0));
  seed.payload.assign(payload, payload + ctx.input_desc(0).bytes);
  const auto* constants = static_cast<const uint8_t*>(ctx.input_data(1));
  seed.constants.assign(constants, constants + ctx.input_desc(1).bytes);
  // Regions: constants, scratch, no fast scratch, the input, the output.
  seed.regions = {ctx.input_desc(1).bytes, ctx.input_desc(2).bytes, 0, ctx.input_desc(4).bytes,
                  ctx.output_desc(0).bytes};
  return seed;
}

TEST(NpuPayloadFuzzHarness, TheVelaStreamRunsOverItsRealRegions) {
  const Seed seed = kws_seed();
  const NpuPayloadResult r = run(make_npu_payload_input(seed.payload, seed.regions, seed.constants));
  EXPECT_EQ(r.status, 0) << r.error;
  EXPECT_EQ(r.error, "");
}

TEST(NpuPayloadFuzzHarness, HostilePayloadsFailInOneLineNamingTheProblem) {
  const Seed seed = kws_seed();
  std::vector<uint8_t> fourcc = seed.payload;
  fourcc[0] ^= 0xFF;
  NpuPayloadResult r = run(make_npu_payload_input(fourcc, seed.regions, seed.constants));
  EXPECT_EQ(r.status, kEthosUModelBadPayload);
  EXPECT_EQ(r.error, "payload: does not start with the FourCC 'COP1'");

  std::vector<uint8_t> truncated(seed.payload.begin(), seed.payload.begin() + seed.payload.size() / 2);
  r = run(make_npu_payload_input(truncated, seed.regions, seed.constants));
  EXPECT_EQ(r.status, kEthosUModelBadPayload);
  EXPECT_EQ(r.error, "payload: the command stream runs past the payload's end");

  std::vector<uint32_t> small = seed.regions;
  small[1] = 64;  // the scratch area, where the feature maps lie
  r = run(make_npu_payload_input(seed.payload, small, seed.constants));
  EXPECT_EQ(r.status, kEthosUModelOutOfRegion);
  EXPECT_EQ(r.error, "command 5 (NPU_OP_DMA_START): DMA destination [71056, 72160) runs past region 1 (64 bytes)");

  r = run(make_npu_payload_input(seed.payload, {}, {}));
  EXPECT_EQ(r.status, kEthosUModelBadCommand);
  EXPECT_EQ(r.error, "command 5 (NPU_OP_DMA_START): DMA source uses region 0, which the op does not give (0 regions)");

  r = run(make_npu_payload_input(seed.payload, seed.regions, seed.constants, /*flags=*/1));  // half the workspace
  EXPECT_EQ(r.status, kEthosUModelWorkspace);
  EXPECT_EQ(r.error.find("command "), 0u) << r.error;
  EXPECT_NE(r.error.find("the model's workspace holds "), std::string::npos) << r.error;

  r = run({});
  EXPECT_EQ(r.status, kEthosUModelBadPayload);
  EXPECT_EQ(r.error, "payload: not a whole number of 32-bit words");
}

// The fuzzer's reproducers (fuzz/crashes/*.npu), each once a sanitizer report in the
// model, now its error line.
std::string reproducer(const std::string& name) {
  return read_text(std::string(MOTE_SOURCE_DIR) + "/fuzz/crashes/" + name + ".npu");
}

// An ELEMENTWISE over 32-bit IFM elements: the element minus its zero point overflowed
// int32 (UBSan: -2147483648 - 2048) before the stream's missing STOP was found.
TEST(NpuPayloadFuzzHarness, ReproducerInt32ZeroPointOverflow) {
  const std::string bytes = reproducer("npu_elementwise_int32_zero_point_overflow");
  ASSERT_EQ(bytes.size(), 234u);
  const NpuPayloadResult r = run(std::vector<uint8_t>(bytes.begin(), bytes.end()));
  EXPECT_EQ(r.status, kEthosUModelBadCommand);
  EXPECT_EQ(r.error, "command 33 (NPU_SET_IFM_BASE0): the stream ends without NPU_OP_STOP");
}

}  // namespace npu_payload_replay_test
}  // namespace mote::testing
