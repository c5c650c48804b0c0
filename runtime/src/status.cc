#include "mote/status.h"

namespace mote {

const char* status_string(Status status) {
#ifdef MOTE_NO_STATUS_STRINGS
  (void)status;
  return "";
#else
  switch (status) {
    case Status::kOk: return "ok";
    case Status::kNotLoaded: return "interpreter not loaded";
    case Status::kArenaTooSmall: return "arena too small";
    case Status::kArenaMisaligned: return "arena not 16-byte aligned";
    case Status::kProgramMisaligned: return "program not 16-byte aligned";
    case Status::kIndexOutOfRange: return "index out of range";
    case Status::kSizeMismatch: return "buffer size mismatch";
    case Status::kInvalidArgument: return "invalid argument";
    case Status::kTruncated: return "program truncated";
    case Status::kBadMagic: return "not a Mote program (bad magic)";
    case Status::kUnsupportedVersion: return "unsupported program format version";
    case Status::kChecksumMismatch: return "program checksum mismatch (corrupted)";
    case Status::kBadSection: return "program section out of bounds";
    case Status::kBadTensor: return "invalid tensor descriptor";
    case Status::kBadOp: return "invalid op descriptor";
    case Status::kBadParams: return "invalid op parameters";
    case Status::kBadIo: return "invalid graph input/output list";
    case Status::kMissingKernel: return "kernel not linked into this build";
  }
  return "unknown status";
#endif
}

}  // namespace mote
