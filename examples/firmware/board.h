/* What the example application needs from the board, as plain C functions. This
 * version talks to QEMU (console and exit through Arm semihosting, cycle counting with
 * SysTick); on a real board, replace board.cc with your UART and timer. */
#ifndef MOTE_EXAMPLE_BOARD_H_
#define MOTE_EXAMPLE_BOARD_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Writes a NUL-terminated string to the console. */
void board_write(const char* text);

/* Starts the cycle counter; board_cycles() counts from here. */
void board_start_cycle_counter(void);

/* Cycles since board_start_cycle_counter(). Under QEMU with -icount shift=0 these are
 * executed instructions (resolution 40 on mps2; see platforms/cortex_m/instruction_counter.h);
 * on hardware, processor cycles. */
uint64_t board_cycles(void);

#ifdef __cplusplus
}
#endif

#endif
