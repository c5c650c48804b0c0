// Counts executed instructions on QEMU's Cortex-M machines with the SysTick timer.
//
// Under `qemu-system-arm -icount shift=0` every guest instruction advances virtual time
// by exactly 1 ns, and SysTick (clocked from the processor clock) counts that virtual
// time. So instructions = ticks * 1e9 / clock_hz: 40 per tick on mps2 (25 MHz), 50 on
// mps2-an505 (20 MHz), 31.25 on mps3-an547 (32 MHz). Resolution is one tick; the count
// is repeatable run to run. Without -icount the same code measures host time instead.
// On real hardware the same code counts processor cycles (divided by the tick length).
//
// The 24-bit counter runs with reload 0xFFFFFF and its interrupt extends it to 64 bits
// (SysTick_Handler is defined here and overrides the startup code's default); one
// interrupt per 2^24 ticks (~670 M instructions) barely disturbs the count.
//
// Not reentrant; single core. Requires SysTick, which every QEMU Cortex-M machine has.
#pragma once

#include <stdint.h>

namespace mote::cortex_m {

// Starts SysTick from the processor clock with its wrap interrupt enabled.
void start_tick_counter();

// Ticks since start_tick_counter(), monotonic, 64-bit.
uint64_t read_ticks();

// Converts a tick difference to instructions (rounded to nearest) for a core clocked
// at `clock_hz`.
uint64_t ticks_to_instructions(uint64_t ticks, uint32_t clock_hz);

}  // namespace mote::cortex_m
