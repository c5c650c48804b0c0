/* Semihosting calls (see console.h): `bkpt 0xAB` with the operation in r0 and its
 * argument in r1. */
#include "console.h"

enum {
  kSysWrite0 = 0x04,
  kSysExitExtended = 0x20,
  kApplicationExit = 0x20026, /* ADP_Stopped_ApplicationExit */
};

static uint32_t semihost_call(uint32_t operation, const void* argument) {
  register uint32_t r0 __asm__("r0") = operation;
  register const void* r1 __asm__("r1") = argument;
  __asm__ volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

void console_write(const char* text) { semihost_call(kSysWrite0, text); }

void console_exit(uint32_t code) {
  /* SYS_EXIT_EXTENDED passes the whole status; plain SYS_EXIT gives only 0 or 1. */
  const uint32_t block[2] = {kApplicationExit, code};
  semihost_call(kSysExitExtended, block);
  for (;;) {
  }
}
