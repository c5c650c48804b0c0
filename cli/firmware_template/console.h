/* The console of @PROJECT@ (written by `mote init-firmware`; yours to edit): Arm
 * semihosting, which QEMU (-semihosting-config enable=on) and a debugger (OpenOCD,
 * pyOCD with semihosting enabled) serve. On a board running without a debugger a
 * semihosting call is a HardFault: replace these two functions with your UART. */
#ifndef CONSOLE_H_
#define CONSOLE_H_

#include <stdint.h>

/* Writes a NUL-terminated string to the host's console. */
void console_write(const char* text);

/* Ends the program; under QEMU the exit status is `code` (0..255). */
__attribute__((noreturn)) void console_exit(uint32_t code);

#endif /* CONSOLE_H_ */
