// Status codes returned by every runtime call that can fail.
//
// Grouped in ranges so a caller can classify a failure without a table:
//   0x00       success
//   0x10-0x1F  the caller passed something wrong (arena, index, buffer size)
//   0x20-0x3F  the program bytes are malformed, corrupted or unsupported
//   0x40-0x4F  the program needs something this build does not have
//   0x50-0x5F  the hardware beside the core failed during run() (an NPU driver's error)
// The runtime never asserts on data; every such problem comes back as one of these.
#pragma once

#include <stdint.h>

namespace mote {

enum class [[nodiscard]] Status : uint8_t {
  kOk = 0x00,

  // Caller errors.
  kNotLoaded = 0x10,         // run/set_input on an interpreter whose load() failed or never ran
  kArenaTooSmall = 0x11,     // arena span shorter than the program's planned arena_bytes
  kArenaMisaligned = 0x12,   // arena pointer not aligned to kArenaAlignment
  kProgramMisaligned = 0x13, // program pointer not aligned to kProgramAlignment
  kIndexOutOfRange = 0x14,   // input/output index >= count
  kSizeMismatch = 0x15,      // buffer handed to set_input/get_output has the wrong byte count
  kInvalidArgument = 0x16,   // null pointer or otherwise unusable argument
  kLoopLimit = 0x17,         // run() stopped: its loops took more iterations than the limit set
  kFastScratchTooSmall = 0x18,  // NpuDriver::fast_scratch null, misaligned or shorter than an NPU op needs

  // Program errors (found by the verifier at load).
  kTruncated = 0x20,          // program shorter than its header or its declared size
  kBadMagic = 0x21,           // not a Mote program
  kUnsupportedVersion = 0x22, // format major version this runtime cannot read
  kChecksumMismatch = 0x23,   // CRC-32 of the program bytes does not match the header
  kBadSection = 0x24,         // a section offset/size points outside the program
  kBadTensor = 0x25,          // tensor descriptor invalid (dtype, rank, size, offset)
  kBadOp = 0x26,              // op descriptor invalid (tensor index, io count, output in constant storage)
  kBadParams = 0x27,          // op parameters invalid or inconsistent with its tensors
  kBadIo = 0x28,              // graph input/output list invalid

  // Capability errors.
  kMissingKernel = 0x40, // the op's kernel is not linked into this build's kernel table
  kNoNpuDriver = 0x41,   // the program has NPU ops and load() was given no NPU driver

  // Hardware errors.
  kNpuFailed = 0x50,     // an NPU op's driver invoke returned an error (Interpreter::npu_error())
};

// Human-readable description, e.g. "arena too small". Returns "" when the runtime is
// built with MOTE_NO_STATUS_STRINGS (saves ~1 KiB of flash on the smallest parts).
const char* status_string(Status status);

}  // namespace mote

// Early return on failure: MOTE_RETURN_IF_ERROR(verify_header(bytes));
#define MOTE_RETURN_IF_ERROR(expr)                      \
  do {                                                  \
    const ::mote::Status mote_status_ = (expr);         \
    if (mote_status_ != ::mote::Status::kOk) return mote_status_; \
  } while (0)
