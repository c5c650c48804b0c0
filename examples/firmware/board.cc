// The example's board layer for QEMU's MPS2 machines: semihosting console and the
// SysTick counter from platforms/cortex_m.
#include "board.h"

#include "instruction_counter.h"
#include "semihost.h"

extern "C" {

void board_write(const char* text) { mote::semihost::write0(text); }

void board_start_cycle_counter(void) { mote::cortex_m::start_tick_counter(); }

uint64_t board_cycles(void) {
  return mote::cortex_m::ticks_to_instructions(mote::cortex_m::read_ticks(), MOTE_CPU_CLOCK_HZ);
}

}  // extern "C"
