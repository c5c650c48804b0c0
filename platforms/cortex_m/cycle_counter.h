// Processor cycle counting with the DWT cycle counter (CYCCNT), for real Cortex-M3, M4,
// M7, M33 and M55 cores.
//
// start_cycle_counter() sets DEMCR.TRCENA (enables the DWT), unlocks the DWT on cores
// with a lock access register (M7), zeroes CYCCNT and sets DWT_CTRL.CYCCNTENA; it returns
// whether the counter is really running, so a firmware can fall back to another clock:
//   - false at compile time on ARMv6-M (M0/M0+) and ARMv8-M Baseline (M23), which have
//     no CYCCNT;
//   - false when DWT_CTRL.NOCYCCNT says the DWT was built without one;
//   - false under QEMU (7.2): it models no DWT, its registers read as zero (writes,
//     the lock key included, are ignored without a fault), so CYCCNTENA never reads back
//     as set and CYCCNT stays 0. Verified on mps2-an385/an386/an500/an505 and
//     mps3-an547; the example firmware test (tests/firmware) checks it on an385 and
//     an386. Under QEMU count executed instructions with SysTick instead
//     (instruction_counter.h).
// read_cycles() is the 32-bit counter: it wraps every 2^32 cycles (about 21 s at
// 200 MHz), so measure intervals as unsigned differences shorter than that.
//
// Typical use as the per-op profile hook of the C API (mote.h):
//   static uint32_t begin;
//   static void on_begin(void* u, uint32_t op) { begin = mote_dwt_read_cycles(); }
//   static void on_end(void* u, uint32_t op) { cycles[op] = mote_dwt_read_cycles() - begin; }
//   if (mote_dwt_start_cycle_counter()) mote_set_profiler(&ctx, on_begin, on_end, 0);
// Not reentrant with a debugger that also drives the DWT.
#pragma once

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when CYCCNT now counts processor cycles from 0, else 0 (see above). */
int mote_dwt_start_cycle_counter(void);

/* CYCCNT: cycles since mote_dwt_start_cycle_counter(), modulo 2^32. */
uint32_t mote_dwt_read_cycles(void);

#ifdef __cplusplus
}  /* extern "C" */
#endif
