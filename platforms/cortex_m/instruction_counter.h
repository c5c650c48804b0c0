/* Counts executed instructions on QEMU's Cortex-M machines with the SysTick timer (C99;
 * usable from C++).
 *
 * Under `qemu-system-arm -icount shift=0` every guest instruction advances virtual time
 * by exactly 1 ns, and SysTick (clocked from the processor clock) counts that virtual
 * time. So instructions = ticks * 1e9 / clock_hz: 40 per tick on mps2 (25 MHz), 50 on
 * mps2-an505 (20 MHz), 31.25 on mps3-an547 (32 MHz). Resolution is one tick; the count
 * is repeatable run to run. Without -icount the same code measures host time instead.
 * On real hardware the same code counts processor cycles (one tick per cycle).
 *
 * The 24-bit counter runs with reload 0xFFFFFF; its wrap interrupt extends it to 64
 * bits. This file defines no interrupt handler (your startup code or board support
 * package owns SysTick_Handler): call mote_tick_counter_on_systick() from yours, or
 * compile systick_handler.c, which defines SysTick_Handler as just that call. Without
 * the call the count is right only for intervals under 2^24 ticks (~670 M instructions
 * under QEMU, ~0.1 s at 168 MHz on hardware). One interrupt per 2^24 ticks barely
 * disturbs the count.
 *
 * Typical use as the per-op profile hook of the C API (mote.h):
 *   static uint64_t begin;
 *   static void on_begin(void* u, uint32_t op) { begin = mote_tick_counter_read(); }
 *   static void on_end(void* u, uint32_t op) { ticks[op] = mote_tick_counter_read() - begin; }
 *   mote_tick_counter_start();
 *   mote_set_profiler(&ctx, on_begin, on_end, 0);
 *
 * Not reentrant; single core. Requires SysTick, which every Cortex-M core and every QEMU
 * Cortex-M machine has. */
#ifndef MOTE_PLATFORMS_CORTEX_M_INSTRUCTION_COUNTER_H_
#define MOTE_PLATFORMS_CORTEX_M_INSTRUCTION_COUNTER_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Starts SysTick from the processor clock with its wrap interrupt enabled; the count
 * starts at 0. */
void mote_tick_counter_start(void);

/* Ticks since mote_tick_counter_start(), monotonic, 64-bit. */
uint64_t mote_tick_counter_read(void);

/* Call from SysTick_Handler: counts one wrap of the 24-bit counter. */
void mote_tick_counter_on_systick(void);

/* A tick difference as instructions (rounded to nearest) for a core clocked at
 * clock_hz under `qemu-system-arm -icount shift=0`. */
uint64_t mote_ticks_to_instructions(uint64_t ticks, uint32_t clock_hz);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* MOTE_PLATFORMS_CORTEX_M_INSTRUCTION_COUNTER_H_ */
