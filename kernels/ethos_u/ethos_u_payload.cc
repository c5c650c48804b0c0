// The Ethos-U driver payload parser (ethos_u_payload.h).
#include "ethos_u/ethos_u_payload.h"

namespace mote {
namespace {

enum : uint32_t { kOptimizerConfig = 1, kCommandStream = 2, kNop = 5 };

}  // namespace

EthosUConfig decode_ethos_u_config(uint32_t config_word, uint32_t id_word) {
  EthosUConfig c;
  c.product = config_word >> 28;
  c.macs = 1u << (config_word & 0xF);
  c.stream_version = (config_word >> 4) & 0xF;
  c.shram_kib = c.product == static_cast<uint32_t>(EthosUProduct::kU85) ? 0 : (config_word >> 8) & 0xFF;
  c.arch_major = id_word >> 28;
  c.arch_minor = (id_word >> 20) & 0xFF;
  c.arch_patch = (id_word >> 16) & 0xF;
  return c;
}

EthosUPayloadError parse_ethos_u_payload(const uint8_t* bytes, uint32_t size, EthosUPayload* out,
                                         uint32_t* error_word) {
  uint32_t unused;
  uint32_t& at = error_word != nullptr ? *error_word : unused;
  at = 0;
  if (bytes == nullptr || size < 4 || size % 4 != 0) return EthosUPayloadError::kSize;
  if (ethos_u_word(bytes, 0) != kEthosUFourCC) return EthosUPayloadError::kFourCC;
  const uint32_t words = size / 4;
  bool have_config = false, have_stream = false;
  for (uint32_t w = 1; w < words;) {
    at = w;
    const uint32_t tag = ethos_u_word(bytes, w);
    switch (tag & 0xFF) {
      case kOptimizerConfig:
        if (have_config) return EthosUPayloadError::kTwoConfigs;
        if (words - w < 3) return EthosUPayloadError::kTruncatedConfig;
        out->config_word = ethos_u_word(bytes, w + 1);
        out->id_word = ethos_u_word(bytes, w + 2);
        have_config = true;
        w += 3;
        break;
      case kCommandStream: {
        if (!have_config) return EthosUPayloadError::kStreamBeforeConfig;
        if (have_stream) return EthosUPayloadError::kTwoStreams;
        const uint32_t length = ((tag >> 8) & 0xFF) << 16 | tag >> 16;
        if (length == 0) return EthosUPayloadError::kEmptyStream;
        if (length > words - w - 1) return EthosUPayloadError::kTruncatedStream;
        if ((w + 1) % 4 != 0) return EthosUPayloadError::kStreamMisaligned;
        out->stream_offset = (w + 1) * 4;
        out->stream_words = length;
        have_stream = true;
        w += 1 + length;
        break;
      }
      case kNop:
        ++w;
        break;
      default:
        return EthosUPayloadError::kUnknownAction;
    }
  }
  if (!have_stream) {
    at = words;
    return EthosUPayloadError::kNoStream;
  }
  return EthosUPayloadError::kOk;
}

const char* ethos_u_payload_error_string(EthosUPayloadError error) {
  switch (error) {
    case EthosUPayloadError::kOk: return "ok";
    case EthosUPayloadError::kSize: return "not a whole number of 32-bit words";
    case EthosUPayloadError::kFourCC: return "does not start with the FourCC 'COP1'";
    case EthosUPayloadError::kUnknownAction: return "driver action the Ethos-U driver does not take";
    case EthosUPayloadError::kTruncatedConfig: return "OPTIMIZER_CONFIG without its CONFIG and ID words";
    case EthosUPayloadError::kTwoConfigs: return "a second OPTIMIZER_CONFIG";
    case EthosUPayloadError::kStreamBeforeConfig: return "COMMAND_STREAM before OPTIMIZER_CONFIG";
    case EthosUPayloadError::kTwoStreams: return "a second COMMAND_STREAM";
    case EthosUPayloadError::kTruncatedStream: return "the command stream runs past the payload's end";
    case EthosUPayloadError::kEmptyStream: return "an empty command stream";
    case EthosUPayloadError::kStreamMisaligned: return "the command stream does not start 16-byte aligned";
    case EthosUPayloadError::kNoStream: return "no COMMAND_STREAM";
  }
  return "unknown payload error";
}

}  // namespace mote
