// Arm semihosting: the guest asks the debugger (here QEMU with
// `-semihosting-config enable=on,target=native`) to do I/O on the host.
//
// Each call is one `bkpt 0xAB` with the operation number in r0 and a pointer to its
// argument block in r1; the result comes back in r0. Under QEMU a call costs one guest
// instruction (plus the few that set it up), so it barely disturbs instruction counts.
// On real hardware without a debugger attached a semihosting call is a HardFault:
// these functions are for emulation and test firmware only.
//
// Host paths are opened relative to the directory QEMU was started in.
#pragma once

#include <stddef.h>
#include <stdint.h>

namespace mote::semihost {

enum class OpenMode : uint32_t {
  kReadBinary = 1,   // "rb"
  kWriteBinary = 5,  // "wb": create or truncate
};

// Returns a host file handle (>= 0), or -1 on failure.
int32_t open(const char* path, OpenMode mode);
// Returns true on success.
bool close(int32_t handle);
// Reads exactly `bytes` bytes; false on a short read or error.
bool read(int32_t handle, void* data, size_t bytes);
// Writes exactly `bytes` bytes; false on a short write or error.
bool write(int32_t handle, const void* data, size_t bytes);
// Length of the open file in bytes, or -1 on error.
int32_t file_length(int32_t handle);

// Writes a NUL-terminated string to the host's debug console (QEMU: its stderr).
void write0(const char* text);

// Copies the command line QEMU was given (`-semihosting-config arg=A,arg=B` gives
// "A B", joined by single spaces, no quoting) into `buffer` with a terminating NUL.
// Returns its length, or -1 when it does not fit or the host refused.
int32_t get_cmdline(char* buffer, uint32_t capacity);

// Ends the emulation; QEMU exits with `code` (0..255 survive as its exit status).
[[noreturn]] void exit(uint32_t code);

}  // namespace mote::semihost
