#include "instruction_counter.h"

namespace mote::cortex_m {
namespace {

// SysTick registers (ARMv6-M/v7-M/v8-M system control space).
struct SysTickRegisters {
  volatile uint32_t csr;  // control and status
  volatile uint32_t rvr;  // reload value
  volatile uint32_t cvr;  // current value (write clears)
  volatile uint32_t calib;
};
SysTickRegisters& systick() { return *reinterpret_cast<SysTickRegisters*>(0xE000E010u); }

constexpr uint32_t kEnable = 1u << 0;
constexpr uint32_t kTickInterrupt = 1u << 1;
constexpr uint32_t kProcessorClock = 1u << 2;
constexpr uint32_t kReload = 0xFFFFFFu;
constexpr uint64_t kPeriod = uint64_t{kReload} + 1;  // the counter reloads one tick after 0

// Number of times the counter reached 0 (each raises the SysTick exception).
volatile uint32_t g_zero_count = 0;

}  // namespace

void start_tick_counter() {
  systick().csr = 0;
  systick().rvr = kReload;
  systick().cvr = 0;
  g_zero_count = 0;
  systick().csr = kEnable | kTickInterrupt | kProcessorClock;
}

uint64_t read_ticks() {
  uint32_t zeros;
  uint32_t current;
  // Retry if the interrupt ran between the two reads.
  do {
    zeros = g_zero_count;
    current = systick().cvr;
  } while (zeros != g_zero_count);
  // The counter counts kReload..0 and reloads on the tick after reaching 0; the
  // interrupt (counted in zeros) fires on reaching 0, so a reading of 0 still belongs
  // to the period that the last interrupt ended. Ticks are offset by one period so
  // that no reading is negative.
  // (Before the first reload the counter reads 0 with no interrupt counted yet.)
  const uint64_t periods = uint64_t{zeros} + (current == 0 ? 1 : 2);
  return periods * kPeriod - 1 - current;
}

uint64_t ticks_to_instructions(uint64_t ticks, uint32_t clock_hz) {
  return (ticks * 1000000000ull + clock_hz / 2) / clock_hz;
}

}  // namespace mote::cortex_m

extern "C" void SysTick_Handler() {
  mote::cortex_m::g_zero_count = mote::cortex_m::g_zero_count + 1;
}
