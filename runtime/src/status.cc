#include "mote/status.h"

namespace mote {
namespace {

#ifndef MOTE_NO_STATUS_STRINGS
// Each status's code byte, then its text and a NUL; an empty text ends the list. One
// string scanned, not a switch: the codes are sparse (0x00-0x50), and a jump table of
// them would cost more flash than every text together.
constexpr char kTexts[] =
    "\x00" "ok\0"
    "\x10" "interpreter not loaded\0"
    "\x11" "arena too small\0"
    "\x12" "arena not 16-byte aligned\0"
    "\x13" "program not 16-byte aligned\0"
    "\x14" "index out of range\0"
    "\x15" "buffer size mismatch\0"
    "\x16" "invalid argument\0"
    "\x17" "loop iteration limit reached\0"
    "\x18" "NPU fast scratch too small\0"
    "\x20" "program truncated\0"
    "\x21" "not a Mote program (bad magic)\0"
    "\x22" "unsupported program format version\0"
    "\x23" "program checksum mismatch (corrupted)\0"
    "\x24" "program section out of bounds\0"
    "\x25" "invalid tensor descriptor\0"
    "\x26" "invalid op descriptor\0"
    "\x27" "invalid op parameters\0"
    "\x28" "invalid graph input/output list\0"
    "\x40" "kernel not linked into this build\0"
    "\x41" "no NPU driver\0"
    "\x50" "NPU driver error\0"
    "\xff" "unknown status\0";
#endif

}  // namespace

const char* status_string(Status status) {
#ifdef MOTE_NO_STATUS_STRINGS
  (void)status;
  return "";
#else
  const char* p = kTexts;
  // Every entry: code, text, NUL. The last one (0xff) answers any code not listed.
  while (static_cast<uint8_t>(*p) != static_cast<uint8_t>(status) && static_cast<uint8_t>(*p) != 0xff) {
    ++p;
    while (*p != '\0') ++p;
    ++p;
  }
  return p + 1;
#endif
}

}  // namespace mote
