/* mote_npu_driver over Arm's Ethos-U core driver (mote_ethosu.h). */
#include "mote_ethosu.h"

#include <stddef.h>

#include "ethosu_driver.h"

#ifndef MOTE_ETHOSU_SEMAPHORES
#define MOTE_ETHOSU_SEMAPHORES 4
#endif

/* The driver takes at most 8 base addresses. */
#define MOTE_ETHOSU_MAX_REGIONS 8

static int32_t mote_ethosu_invoke(void* user, const uint8_t* payload, uint32_t payload_bytes,
                                  const uint64_t* base_addresses, const uint32_t* base_bytes,
                                  uint32_t region_count) {
  uint64_t base[MOTE_ETHOSU_MAX_REGIONS];
  size_t sizes[MOTE_ETHOSU_MAX_REGIONS];
  uint32_t i;
  if (region_count > MOTE_ETHOSU_MAX_REGIONS) return -1;
  /* The driver may write base[2] (its fast memory): hand it a copy. */
  for (i = 0; i < region_count; ++i) {
    base[i] = base_addresses[i];
    sizes[i] = base_bytes[i];
  }
  return ethosu_invoke_v3((struct ethosu_driver*)user, payload, (int)payload_bytes, base, sizes, (int)region_count,
                          NULL);
}

void mote_ethosu_driver(mote_npu_driver* hook, struct ethosu_driver* drv, uint8_t* fast_scratch,
                        uint32_t fast_scratch_bytes) {
  hook->invoke = mote_ethosu_invoke;
  hook->clean_cache = NULL;
  hook->invalidate_cache = NULL;
  hook->user = drv;
  hook->fast_scratch = fast_scratch;
  hook->fast_scratch_bytes = fast_scratch_bytes;
}

static volatile mote_ethosu_memory_mode mote_ethosu_mode = MOTE_ETHOSU_SHARED_SRAM;

void mote_set_ethosu_memory_mode(mote_ethosu_memory_mode mode) { mote_ethosu_mode = mode; }

#ifndef MOTE_ETHOSU_NO_CONFIG_SELECT
/* Memory-type index (0, 1: AXI0; 2, 3: AXI1) of the command stream (index -1) and of
 * each region. */
unsigned int ethosu_config_select(uint64_t address, int index) {
  (void)address;
  if (mote_ethosu_mode == MOTE_ETHOSU_SRAM_ONLY) return index < 0 ? 0u : 1u;
  switch (index) {
    case -1: return 2u; /* command stream: with the constants, AXI1 */
    case 0: return 3u;  /* constants (flash or DRAM): AXI1 */
    case 1: return mote_ethosu_mode == MOTE_ETHOSU_DEDICATED_SRAM ? 2u : 0u; /* the arena */
    default: return 1u; /* fast scratch and the rest: SRAM, AXI0 */
  }
}
#endif

#ifndef MOTE_ETHOSU_NO_SYNC
/* A static pool: no heap. Bare-metal waits sleep with WFE where the core has it; give
 * wakes them with SEV (the driver gives from its interrupt handler). */
struct mote_ethosu_semaphore {
  volatile uint32_t count;
  uint8_t used;
};

static struct mote_ethosu_semaphore mote_ethosu_semaphores[MOTE_ETHOSU_SEMAPHORES];

#if defined(__ARM_ARCH_PROFILE) && __ARM_ARCH_PROFILE == 'M'
#define MOTE_ETHOSU_WAIT() __asm volatile("wfe")
#define MOTE_ETHOSU_WAKE() __asm volatile("sev")
/* count-- with interrupts masked: the driver's interrupt handler gives (count++). */
static void mote_ethosu_decrement(volatile uint32_t* count) {
  uint32_t primask;
  __asm volatile("mrs %0, primask\n\tcpsid i" : "=r"(primask)::"memory");
  *count = *count - 1;
  __asm volatile("msr primask, %0" ::"r"(primask) : "memory");
}
#else
#define MOTE_ETHOSU_WAIT() ((void)0)
#define MOTE_ETHOSU_WAKE() ((void)0)
static void mote_ethosu_decrement(volatile uint32_t* count) { *count = *count - 1; }
#endif

void* ethosu_semaphore_create(void) {
  uint32_t i;
  for (i = 0; i < MOTE_ETHOSU_SEMAPHORES; ++i) {
    if (!mote_ethosu_semaphores[i].used) {
      mote_ethosu_semaphores[i].used = 1;
      mote_ethosu_semaphores[i].count = 0;
      return &mote_ethosu_semaphores[i];
    }
  }
  return NULL; /* the driver's init fails: raise MOTE_ETHOSU_SEMAPHORES */
}

void ethosu_semaphore_destroy(void* sem) {
  if (sem != NULL) ((struct mote_ethosu_semaphore*)sem)->used = 0;
}

/* 0 once taken; -1 when `timeout` polls passed first (UINT64_MAX: wait for ever). */
int ethosu_semaphore_take(void* sem, uint64_t timeout) {
  struct mote_ethosu_semaphore* s = (struct mote_ethosu_semaphore*)sem;
  if (s == NULL) return -1;
  while (s->count == 0) {
    if (timeout != UINT64_MAX) {
      if (timeout == 0) return -1;
      --timeout;
    }
    MOTE_ETHOSU_WAIT();
  }
  mote_ethosu_decrement(&s->count);
  return 0;
}

int ethosu_semaphore_give(void* sem) {
  struct mote_ethosu_semaphore* s = (struct mote_ethosu_semaphore*)sem;
  if (s == NULL) return -1;
  s->count++;
  MOTE_ETHOSU_WAKE();
  return 0;
}

/* One core, no threads: the mutex only has to exist. */
static uint8_t mote_ethosu_mutex;
void* ethosu_mutex_create(void) { return &mote_ethosu_mutex; }
void ethosu_mutex_destroy(void* mutex) { (void)mutex; }
int ethosu_mutex_lock(void* mutex) {
  (void)mutex;
  return 0;
}
int ethosu_mutex_unlock(void* mutex) {
  (void)mutex;
  return 0;
}
#endif
