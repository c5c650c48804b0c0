/* What the example application needs from the board, as plain C functions. This
 * version talks to QEMU (console and exit through Arm semihosting, cycle counting with
 * DWT CYCCNT when present, else SysTick); on a real board, replace the console in
 * board.cc with your UART. */
#ifndef MOTE_EXAMPLE_BOARD_H_
#define MOTE_EXAMPLE_BOARD_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Writes a NUL-terminated string to the console. */
void board_write(const char* text);

/* Starts the cycle counter; board_cycles() counts from here. It is the DWT cycle
 * counter (CYCCNT) when the core has one that runs (real M3/M4/M7/M33/M55), otherwise
 * SysTick (M0+, and QEMU, which models no DWT). */
void board_start_cycle_counter(void);

/* Since board_start_cycle_counter(): processor cycles from CYCCNT; with SysTick under
 * QEMU with -icount shift=0, executed instructions (resolution 40 on mps2; see
 * platforms/cortex_m/instruction_counter.h), on hardware SysTick-resolution cycles. */
uint64_t board_cycles(void);

/* Which counter board_cycles() reads, for the report. */
const char* board_cycle_counter_name(void);

#ifdef __cplusplus
}
#endif

#endif
