#include "instruction_counter.h"

/* SysTick registers (ARMv6-M/v7-M/v8-M system control space). */
#define MOTE_SYST_CSR (*(volatile uint32_t*)0xE000E010u) /* control and status */
#define MOTE_SYST_RVR (*(volatile uint32_t*)0xE000E014u) /* reload value */
#define MOTE_SYST_CVR (*(volatile uint32_t*)0xE000E018u) /* current value (write clears) */

enum {
  kEnable = 1u << 0,
  kTickInterrupt = 1u << 1,
  kProcessorClock = 1u << 2,
};
static const uint32_t kReload = 0xFFFFFFu;
static const uint64_t kPeriod = 0x1000000u; /* the counter reloads one tick after 0 */

/* Number of times the counter reached 0 (each raises the SysTick exception). */
static volatile uint32_t g_zero_count = 0;

void mote_tick_counter_start(void) {
  MOTE_SYST_CSR = 0;
  MOTE_SYST_RVR = kReload;
  MOTE_SYST_CVR = 0;
  g_zero_count = 0;
  MOTE_SYST_CSR = kEnable | kTickInterrupt | kProcessorClock;
}

uint64_t mote_tick_counter_read(void) {
  uint32_t zeros;
  uint32_t current;
  /* Retry if the interrupt ran between the two reads. */
  do {
    zeros = g_zero_count;
    current = MOTE_SYST_CVR;
  } while (zeros != g_zero_count);
  /* The counter counts kReload..0 and reloads on the tick after reaching 0; the
   * interrupt (counted in zeros) fires on reaching 0, so a reading of 0 still belongs to
   * the period that the last interrupt ended. Ticks are offset by one period so that no
   * reading is negative. (Before the first reload the counter reads 0 with no interrupt
   * counted yet.) */
  const uint64_t periods = (uint64_t)zeros + (current == 0 ? 1 : 2);
  return periods * kPeriod - 1 - current;
}

void mote_tick_counter_on_systick(void) { g_zero_count = g_zero_count + 1; }

uint64_t mote_ticks_to_instructions(uint64_t ticks, uint32_t clock_hz) {
  return (ticks * 1000000000ull + clock_hz / 2) / clock_hz;
}
