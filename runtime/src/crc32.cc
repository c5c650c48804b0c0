// CRC-32 (IEEE 802.3 polynomial 0xEDB88320, reflected, init and final xor 0xFFFFFFFF):
// the same value zlib's crc32() gives. Nibble-table form: 64 bytes of table in flash
// instead of 1 KiB, about twice the work per byte of the byte-table form.
#include <stddef.h>

#include "mote/interpreter.h"

namespace mote {
namespace {

constexpr uint32_t kNibbleTable[16] = {
    0x00000000u, 0x1DB71064u, 0x3B6E20C8u, 0x26D930ACu, 0x76DC4190u, 0x6B6B51F4u,
    0x4DB26158u, 0x5005713Cu, 0xEDB88320u, 0xF00F9344u, 0xD6D6A3E8u, 0xCB61B38Cu,
    0x9B64C2B0u, 0x86D3D2D4u, 0xA00AE278u, 0xBDBDF21Cu,
};

}  // namespace

uint32_t crc32(const uint8_t* data, uint32_t size, uint32_t crc) {
  crc ^= 0xFFFFFFFFu;
  for (uint32_t i = 0; i < size; ++i) {
    crc ^= data[i];
    crc = (crc >> 4) ^ kNibbleTable[crc & 0x0Fu];
    crc = (crc >> 4) ^ kNibbleTable[crc & 0x0Fu];
  }
  return crc ^ 0xFFFFFFFFu;
}

uint32_t program_checksum(const uint8_t* program, uint32_t total_bytes) {
  constexpr uint32_t kChecksumField = 12;  // offsetof(ProgramHeader, checksum)
  constexpr uint32_t kAfterChecksum = kChecksumField + 4;
  static_assert(offsetof(ProgramHeader, checksum) == kChecksumField, "checksum field moved");
  return crc32(program + kAfterChecksum, total_bytes - kAfterChecksum,
               crc32(program, kChecksumField));
}

}  // namespace mote
