#include "cycle_counter.h"

namespace {

// Debug Exception and Monitor Control Register and the DWT (ARMv7-M / ARMv8-M Mainline
// system control space).
volatile uint32_t& demcr() { return *reinterpret_cast<volatile uint32_t*>(0xE000EDFCu); }
volatile uint32_t& dwt_ctrl() { return *reinterpret_cast<volatile uint32_t*>(0xE0001000u); }
volatile uint32_t& dwt_cyccnt() { return *reinterpret_cast<volatile uint32_t*>(0xE0001004u); }
volatile uint32_t& dwt_lar() { return *reinterpret_cast<volatile uint32_t*>(0xE0001FB0u); }

constexpr uint32_t kTraceEnable = 1u << 24;      // DEMCR.TRCENA
constexpr uint32_t kCycleCountEnable = 1u << 0;  // DWT_CTRL.CYCCNTENA
constexpr uint32_t kNoCycleCount = 1u << 25;     // DWT_CTRL.NOCYCCNT
constexpr uint32_t kUnlockKey = 0xC5ACCE55u;     // CoreSight lock access key

// ARMv6-M and ARMv8-M Baseline have no cycle counter.
#if defined(__ARM_ARCH_6M__) || defined(__ARM_ARCH_8M_BASE__)
constexpr bool kHasCycleCounter = false;
#else
constexpr bool kHasCycleCounter = true;
#endif

}  // namespace

extern "C" int mote_dwt_start_cycle_counter(void) {
  if (!kHasCycleCounter) return 0;
  demcr() = demcr() | kTraceEnable;
  if (dwt_ctrl() & kNoCycleCount) return 0;
  dwt_lar() = kUnlockKey;  // M7 locks the DWT after reset; elsewhere the write is ignored
  dwt_cyccnt() = 0;
  dwt_ctrl() = dwt_ctrl() | kCycleCountEnable;
  return (dwt_ctrl() & kCycleCountEnable) != 0 ? 1 : 0;
}

extern "C" uint32_t mote_dwt_read_cycles(void) { return kHasCycleCounter ? dwt_cyccnt() : 0; }
