#include "npu_payload_input.h"

#include <cstdlib>
#include <cstring>
#include <memory>

#include "ethos_u_model.h"
#include "mote/npu.h"

namespace mote::fuzz {
namespace {

constexpr size_t kHeaderBytes = 30;

uint32_t read_le(const uint8_t* p, int bytes) {
  uint32_t value = 0;
  for (int i = 0; i < bytes; ++i) value |= uint32_t{p[i]} << (8 * i);
  return value;
}

// A 16-byte aligned heap block of exactly `bytes` (ASan poisons what follows).
class Block {
 public:
  explicit Block(size_t bytes) : bytes_(bytes) {
    if (bytes == 0) return;
    void* p = nullptr;
    if (posix_memalign(&p, 16, bytes) != 0) std::abort();
    data_ = static_cast<uint8_t*>(p);
  }
  ~Block() { std::free(data_); }
  Block(const Block&) = delete;
  Block& operator=(const Block&) = delete;
  uint8_t* data() const { return data_; }
  size_t bytes() const { return bytes_; }

 private:
  uint8_t* data_ = nullptr;
  size_t bytes_;
};

}  // namespace

NpuPayloadResult run_npu_payload_input(const uint8_t* data, size_t size) {
  uint8_t header[kHeaderBytes] = {};
  if (size != 0) std::memcpy(header, data, size < kHeaderBytes ? size : kHeaderBytes);
  const uint8_t* rest = data + (size < kHeaderBytes ? size : kHeaderBytes);
  size_t rest_bytes = size < kHeaderBytes ? 0 : size - kHeaderBytes;

  const uint32_t region_count = header[0] % (kNpuMaxRegions + 1);
  const bool short_workspace = (header[1] & 1) != 0;
  const uint32_t payload_bytes = static_cast<uint32_t>(
      read_le(header + 26, 4) < rest_bytes ? read_le(header + 26, 4) : rest_bytes);
  Block payload(payload_bytes);
  if (payload_bytes != 0) std::memcpy(payload.data(), rest, payload_bytes);
  rest += payload_bytes;
  rest_bytes -= payload_bytes;

  std::unique_ptr<Block> regions[kNpuMaxRegions];
  uint64_t base[kNpuMaxRegions] = {};
  uint32_t bytes[kNpuMaxRegions] = {};
  for (uint32_t i = 0; i < region_count; ++i) {
    const uint32_t wanted = read_le(header + 2 + 3 * i, 3);
    bytes[i] = wanted < kNpuFuzzMaxRegionBytes ? wanted : kNpuFuzzMaxRegionBytes;
    regions[i] = std::make_unique<Block>(bytes[i]);
    base[i] = reinterpret_cast<uintptr_t>(regions[i]->data());
    if (i == 0) {
      const size_t copied = rest_bytes < bytes[i] ? rest_bytes : bytes[i];
      if (bytes[i] != 0) std::memset(regions[i]->data(), 0, bytes[i]);
      if (copied != 0) std::memcpy(regions[i]->data(), rest, copied);
    } else {
      if (bytes[i] != 0) std::memset(regions[i]->data(), static_cast<int>(0x11 * i), bytes[i]);
    }
  }

  const uint64_t need = ethos_u_model_workspace_bytes(payload.data(), payload_bytes);
  uint64_t given = short_workspace ? need / 2 : need;
  if (given > kNpuFuzzMaxWorkspaceBytes) given = kNpuFuzzMaxWorkspaceBytes;
  Block workspace(static_cast<size_t>(given));
  EthosUModel model;
  model.workspace = workspace.data();
  model.workspace_bytes = given;
  model.work_limit = kNpuFuzzWorkLimit;

  NpuPayloadResult result;
  result.status = ethos_u_model_invoke(&model, payload.data(), payload_bytes, base, bytes, region_count);
  result.error = ethos_u_model_error(model);

  const bool known = result.status == 0 || result.status == kEthosUModelBadPayload ||
                     result.status == kEthosUModelBadCommand || result.status == kEthosUModelOutOfRegion ||
                     result.status == kEthosUModelWorkspace || result.status == kEthosUModelUnsupported;
  if (!known || (result.status == 0) != result.error.empty() || result.error.find('\n') != std::string::npos)
    std::abort();
  return result;
}

std::vector<uint8_t> make_npu_payload_input(const std::vector<uint8_t>& payload,
                                            const std::vector<uint32_t>& region_bytes,
                                            const std::vector<uint8_t>& constants, uint8_t flags) {
  std::vector<uint8_t> input(kHeaderBytes, 0);
  input[0] = static_cast<uint8_t>(region_bytes.size());
  input[1] = flags;
  for (size_t i = 0; i < region_bytes.size() && i < kNpuMaxRegions; ++i) {
    const uint32_t n = region_bytes[i] < kNpuFuzzMaxRegionBytes ? region_bytes[i] : kNpuFuzzMaxRegionBytes;
    for (int b = 0; b < 3; ++b) input[2 + 3 * i + b] = static_cast<uint8_t>(n >> (8 * b));
  }
  const uint32_t n = static_cast<uint32_t>(payload.size());
  for (int b = 0; b < 4; ++b) input[26 + b] = static_cast<uint8_t>(n >> (8 * b));
  input.insert(input.end(), payload.begin(), payload.end());
  input.insert(input.end(), constants.begin(), constants.end());
  return input;
}

}  // namespace mote::fuzz
