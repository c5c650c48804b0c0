#include "cycle_counter.h"

/* Debug Exception and Monitor Control Register and the DWT (ARMv7-M / ARMv8-M Mainline
 * system control space). */
#define MOTE_DEMCR (*(volatile uint32_t*)0xE000EDFCu)
#define MOTE_DWT_CTRL (*(volatile uint32_t*)0xE0001000u)
#define MOTE_DWT_CYCCNT (*(volatile uint32_t*)0xE0001004u)
#define MOTE_DWT_LAR (*(volatile uint32_t*)0xE0001FB0u)

enum {
  kTraceEnable = 1u << 24,     /* DEMCR.TRCENA */
  kCycleCountEnable = 1u << 0, /* DWT_CTRL.CYCCNTENA */
  kNoCycleCount = 1u << 25,    /* DWT_CTRL.NOCYCCNT */
};
static const uint32_t kUnlockKey = 0xC5ACCE55u; /* CoreSight lock access key */

/* ARMv6-M and ARMv8-M Baseline have no cycle counter. */
#if defined(__ARM_ARCH_6M__) || defined(__ARM_ARCH_8M_BASE__)
#define MOTE_HAS_CYCLE_COUNTER 0
#else
#define MOTE_HAS_CYCLE_COUNTER 1
#endif

int mote_dwt_start_cycle_counter(void) {
  if (!MOTE_HAS_CYCLE_COUNTER) return 0;
  MOTE_DEMCR = MOTE_DEMCR | kTraceEnable;
  if (MOTE_DWT_CTRL & kNoCycleCount) return 0;
  MOTE_DWT_LAR = kUnlockKey; /* M7 locks the DWT after reset; elsewhere the write is ignored */
  MOTE_DWT_CYCCNT = 0;
  MOTE_DWT_CTRL = MOTE_DWT_CTRL | kCycleCountEnable;
  return (MOTE_DWT_CTRL & kCycleCountEnable) != 0 ? 1 : 0;
}

uint32_t mote_dwt_read_cycles(void) { return MOTE_HAS_CYCLE_COUNTER ? MOTE_DWT_CYCCNT : 0; }
