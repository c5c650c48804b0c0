// The Ethos-U driver payload: the bytes Arm's Vela compiler stores as the first input of
// each `ethos-u` custom operator, which Arm's core driver (ethosu_invoke_v3) takes as
// its "custom data". Read here without the driver, by the NPU op's check (kernels/
// ethos_u/ethos_u.h), the compiler (import, validation, `mote inspect`) and the
// functional model of the NPU.
//
// Layout (little-endian 32-bit words; facts in docs/design/ethos_u_facts.md, section 1):
//   word 0          FourCC "COP1" (0x31504F43)
//   then actions    a tag word each: bits 0-7 action, bits 8-15 a byte, bits 16-31 a
//                   16-bit parameter
//     1 OPTIMIZER_CONFIG   two more words: CONFIG (the accelerator the stream was
//                          compiled for) and ID (architecture version)
//     2 COMMAND_STREAM     (byte << 16 | parameter) command words follow the tag
//     5 NOP                padding (Vela aligns the command stream to 16 bytes)
//   Any other action (0 reserved; 3 READ_APB and 4 DUMP_SHRAM, debug actions the current
//   driver refuses) is an error, as in the driver.
// The parser accepts what the driver accepts and Vela writes, and is stricter where a
// payload would make no sense to run: exactly one OPTIMIZER_CONFIG before exactly one
// COMMAND_STREAM, which lies wholly inside the payload and starts 16-byte aligned
// relative to the payload (the driver requires the stream 16-byte aligned in memory;
// the payload is stored 16-byte aligned). It reads no byte outside [bytes, bytes + size).
//
// The CONFIG word (U55/U65): bits 0-3 log2(MACs per cycle), 4-7 command stream version,
// 8-15 SHRAM KiB, 28-31 product (0 U55, 1 U65). U85: bits 0-3 and 4-7 the same, 8-9
// log2 of the SRAM AXI ports, 10 log2 of the external AXI ports, 12-13 log2 of the weight
// decoders, 28-31 product 2. ID: bits 28-31 architecture major, 20-27 minor, 16-19 patch.
#pragma once

#include <stdint.h>

namespace mote {

inline constexpr uint32_t kEthosUFourCC = 0x31504F43u;  // "COP1"

enum class EthosUProduct : uint8_t { kU55 = 0, kU65 = 1, kU85 = 2 };

// What a payload's CONFIG and ID words say.
struct EthosUConfig {
  uint32_t product;         // EthosUProduct value (any 4-bit value as read)
  uint32_t macs;            // MACs per cycle: 2^(bits 0-3)
  uint32_t stream_version;  // command stream version: 0 for U55/U65, 1 for U85
  uint32_t shram_kib;       // U55/U65: SHRAM KiB; U85: 0
  uint32_t arch_major, arch_minor, arch_patch;
};

EthosUConfig decode_ethos_u_config(uint32_t config_word, uint32_t id_word);

enum class EthosUPayloadError : uint8_t {
  kOk = 0,
  kSize,              // shorter than the FourCC, or not a whole number of words
  kFourCC,            // word 0 is not "COP1"
  kUnknownAction,     // an action id the driver does not take
  kTruncatedConfig,   // OPTIMIZER_CONFIG without its two words
  kTwoConfigs,        // a second OPTIMIZER_CONFIG
  kStreamBeforeConfig,  // COMMAND_STREAM before any OPTIMIZER_CONFIG
  kTwoStreams,        // a second COMMAND_STREAM
  kTruncatedStream,   // the command words run past the payload's end
  kEmptyStream,       // a COMMAND_STREAM of zero words
  kStreamMisaligned,  // the command words do not start on a 16-byte boundary
  kNoStream,          // no COMMAND_STREAM at all
};

struct EthosUPayload {
  uint32_t config_word = 0;
  uint32_t id_word = 0;
  uint32_t stream_offset = 0;  // byte offset of the first command word in the payload
  uint32_t stream_words = 0;
};

// Parses `size` bytes at `bytes`. On an error, *error_word (when not null) is the index
// of the word where it was found.
EthosUPayloadError parse_ethos_u_payload(const uint8_t* bytes, uint32_t size, EthosUPayload* out,
                                         uint32_t* error_word = nullptr);

// "the command stream runs past the payload's end", ... (for messages; not in the
// runtime's status strings).
const char* ethos_u_payload_error_string(EthosUPayloadError error);

// Little-endian word `index` of `bytes` (no alignment needed).
inline uint32_t ethos_u_word(const uint8_t* bytes, uint32_t index) {
  const uint8_t* p = bytes + uint64_t{index} * 4;
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

}  // namespace mote
