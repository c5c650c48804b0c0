// Fuzz target: any bytes -> parse_npy. A malformed file must give std::runtime_error
// (the CLI's one-line error); anything else escaping, or a sanitizer report, is a bug.
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "npy.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::vector<uint8_t> bytes(data, data + size);
  try {
    const mote::NpyArray array = mote::parse_npy(bytes, "fuzz.npy");
    // What parse_npy accepts must round-trip through the writer.
    if (mote::parse_npy(mote::encode_npy(array), "fuzz.npy").data != array.data) __builtin_trap();
  } catch (const std::runtime_error&) {
  }
  return 0;
}
