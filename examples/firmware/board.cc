// The example's board layer for QEMU's MPS2 machines: semihosting console, and cycles
// from the DWT cycle counter when the core has a running one, else from the SysTick
// counter (platforms/cortex_m).
#include "board.h"

#include "cycle_counter.h"
#include "instruction_counter.h"
#include "semihost.h"

namespace {

bool g_use_dwt = false;
// CYCCNT is 32 bits; board_cycles() extends it, assuming it is read at least once per
// 2^32 cycles (every op boundary is a read).
uint32_t g_dwt_last = 0;
uint32_t g_dwt_wraps = 0;

}  // namespace

extern "C" {

void board_write(const char* text) { mote::semihost::write0(text); }

void board_start_cycle_counter(void) {
  g_use_dwt = mote_dwt_start_cycle_counter() != 0;
  g_dwt_last = 0;
  g_dwt_wraps = 0;
  if (!g_use_dwt) mote_tick_counter_start();
}

uint64_t board_cycles(void) {
  if (g_use_dwt) {
    const uint32_t now = mote_dwt_read_cycles();
    if (now < g_dwt_last) ++g_dwt_wraps;
    g_dwt_last = now;
    return (uint64_t{g_dwt_wraps} << 32) | now;
  }
  return mote_ticks_to_instructions(mote_tick_counter_read(), MOTE_CPU_CLOCK_HZ);
}

const char* board_cycle_counter_name(void) {
  return g_use_dwt ? "DWT CYCCNT (processor cycles)"
                   : "SysTick (no DWT cycle counter; under QEMU -icount: executed instructions)";
}

}  // extern "C"
