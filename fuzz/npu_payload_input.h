// The input of fuzz_npu_payload: an Ethos-U driver payload and the regions it runs over,
// in one byte string, so that libFuzzer mutates both and a crashing input replays as a
// file (fuzz/crashes/*.npu; tests/npu/npu_payload_replay_test.cc runs the harness
// without libFuzzer).
//
// Layout (little-endian):
//   byte 0        region count: value % (kNpuMaxRegions + 1)
//   byte 1        flags: bit 0 gives the model half the workspace the payload needs
//   bytes 2-25    8 region sizes, 3 bytes each, capped at kNpuFuzzMaxRegionBytes
//                 (0: an absent region, base address 0)
//   bytes 26-29   payload length, capped at what follows
//   then          the payload, then region 0's bytes (the constant data: weights,
//                 biases, scales; the rest of region 0 is zero). The other regions
//                 start filled with byte 0x11 * index.
// A shorter input is padded with zeros.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mote::fuzz {

// Large enough for the kws streams' regions (156 and 127 KB), small enough to run
// thousands of inputs a minute.
inline constexpr uint32_t kNpuFuzzMaxRegionBytes = 256u << 10;
inline constexpr uint64_t kNpuFuzzMaxWorkspaceBytes = 8u << 20;
// The model's work limit per input (EthosUModel::work_limit): a few times the kws and
// yolo streams' own work (under 40 M multiply-accumulates), about a second under ASan; a
// stream that declares more stops with the model's error line instead of running for
// minutes.
inline constexpr uint64_t kNpuFuzzWorkLimit = uint64_t{1} << 27;

struct NpuPayloadResult {
  int32_t status;     // what ethos_u_model_invoke returned
  std::string error;  // the model's error line ("" on success)
};

// Runs one input through ethos_u_model_invoke with every buffer (payload, regions,
// workspace) in a heap block of exactly its size, so the sanitizers see any access
// outside them. Aborts when the model breaks its contract: a status other than 0 or its
// error codes, an error text on success or none on failure, a line break in the text.
NpuPayloadResult run_npu_payload_input(const uint8_t* data, size_t size);

// The input for `payload` over regions of `region_bytes` (at most 8), region 0 holding
// `constants`: the seeds' format.
std::vector<uint8_t> make_npu_payload_input(const std::vector<uint8_t>& payload,
                                            const std::vector<uint32_t>& region_bytes,
                                            const std::vector<uint8_t>& constants, uint8_t flags = 0);

}  // namespace mote::fuzz
