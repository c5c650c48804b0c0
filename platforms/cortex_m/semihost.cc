#include "semihost.h"

namespace mote::semihost {
namespace {

// Operation numbers from the Arm semihosting specification (v2).
enum Operation : uint32_t {
  kSysOpen = 0x01,
  kSysClose = 0x02,
  kSysWrite0 = 0x04,
  kSysWrite = 0x05,
  kSysRead = 0x06,
  kSysFlen = 0x0C,
  kSysGetCmdline = 0x15,
  kSysExitExtended = 0x20,
};

// ADP_Stopped_ApplicationExit: with SYS_EXIT_EXTENDED the second word is the exit code.
// (Plain SYS_EXIT on AArch32 can only report success or failure.)
constexpr uint32_t kApplicationExit = 0x20026;

int32_t call(Operation operation, const void* argument) {
  register uint32_t r0 asm("r0") = operation;
  register const void* r1 asm("r1") = argument;
  // "memory": the host reads and writes guest memory through the argument block.
  asm volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
  return static_cast<int32_t>(r0);
}

size_t string_length(const char* text) {
  size_t n = 0;
  while (text[n] != '\0') ++n;
  return n;
}

}  // namespace

int32_t open(const char* path, OpenMode mode) {
  const uint32_t block[3] = {reinterpret_cast<uint32_t>(path), static_cast<uint32_t>(mode),
                             static_cast<uint32_t>(string_length(path))};
  return call(kSysOpen, block);
}

bool close(int32_t handle) {
  const uint32_t block[1] = {static_cast<uint32_t>(handle)};
  return call(kSysClose, block) == 0;
}

// SYS_READ/SYS_WRITE return the number of bytes NOT transferred.
bool read(int32_t handle, void* data, size_t bytes) {
  const uint32_t block[3] = {static_cast<uint32_t>(handle), reinterpret_cast<uint32_t>(data),
                             static_cast<uint32_t>(bytes)};
  return call(kSysRead, block) == 0;
}

bool write(int32_t handle, const void* data, size_t bytes) {
  const uint32_t block[3] = {static_cast<uint32_t>(handle), reinterpret_cast<uint32_t>(data),
                             static_cast<uint32_t>(bytes)};
  return call(kSysWrite, block) == 0;
}

int32_t file_length(int32_t handle) {
  const uint32_t block[1] = {static_cast<uint32_t>(handle)};
  return call(kSysFlen, block);
}

void write0(const char* text) { call(kSysWrite0, text); }

int32_t get_cmdline(char* buffer, uint32_t capacity) {
  // In: buffer and its capacity. Out: the length of the string written.
  uint32_t block[2] = {reinterpret_cast<uint32_t>(buffer), capacity};
  if (call(kSysGetCmdline, block) != 0) return -1;
  return static_cast<int32_t>(block[1]);
}

void exit(uint32_t code) {
  const uint32_t block[2] = {kApplicationExit, code};
  call(kSysExitExtended, block);
  // Unreachable under QEMU; a debugger that ignores the request parks the core here.
  for (;;) asm volatile("wfi");
}

}  // namespace mote::semihost
