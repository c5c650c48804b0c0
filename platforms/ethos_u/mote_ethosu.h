/* Mote's NPU driver hook (mote_npu_driver, mote/mote.h) over Arm's Ethos-U core driver
 * (ethos-u-core-driver: ethosu_driver.h, ethosu_invoke_v3), for firmware that has that
 * driver. C99; compile mote_ethosu.c with the driver's include directory.
 *
 *   static struct ethosu_driver npu;
 *   static uint8_t fast[MODEL_NPU_FAST_SCRATCH_BYTES] __attribute__((aligned(16)));
 *   ethosu_init(&npu, NPU_BASE, fast, sizeof fast, 1, 1);   // fast memory: region 2
 *   mote_npu_driver hook;
 *   mote_ethosu_driver(&hook, &npu, fast, sizeof fast);
 *   mote_set_ethosu_memory_mode(MOTE_ETHOSU_DEDICATED_SRAM); // as Vela compiled it
 *   mote_load_npu(&ctx, model_program, MODEL_PROGRAM_BYTES, arena, sizeof arena,
 *                 model_kernels(), &hook);
 *   // the NPU interrupt handler calls ethosu_irq_handler(&npu)
 *
 * What this file gives the driver besides invoke:
 *   - no heap: the driver's default semaphores malloc() (ethosu_semaphore_create); this
 *     file defines ethosu_semaphore_create/destroy/take/give and ethosu_mutex_create/
 *     destroy/lock/unlock over a static pool of MOTE_ETHOSU_SEMAPHORES (default 4: the
 *     driver takes two for its first ethosu_init() and one per further driver), so with
 *     -ffunction-sections and --gc-sections no malloc or free is linked. An RTOS port that
 *     has its own defines MOTE_ETHOSU_NO_SYNC and keeps them.
 *   - the AXI port of each region per memory mode (ethosu_config_select): Vela's
 *     Shared_Sram (default; U55: arena and fast scratch in SRAM behind AXI0, constants and
 *     command stream behind AXI1), Dedicated_Sram (U65: arena in DRAM behind AXI1, fast
 *     scratch in SRAM behind AXI0) and Sram_Only (everything behind AXI0). Memory-type
 *     indices as Arm's driver defines them: 0 and 1 use AXI0, 2 and 3 AXI1. Define
 *     MOTE_ETHOSU_NO_CONFIG_SELECT to keep the driver's (or your own) ethosu_config_select.
 * Cache maintenance stays with the driver (its weak ethosu_flush_dcache and
 * ethosu_invalidate_dcache), so the hook's cache callbacks are left null. */
#ifndef MOTE_ETHOSU_H_
#define MOTE_ETHOSU_H_

#include <stdint.h>

#include "mote/mote.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ethosu_driver;

typedef enum mote_ethosu_memory_mode {
  MOTE_ETHOSU_SHARED_SRAM = 0,
  MOTE_ETHOSU_DEDICATED_SRAM = 1,
  MOTE_ETHOSU_SRAM_ONLY = 2
} mote_ethosu_memory_mode;

/* Fills *hook so that NPU ops run on `drv` (set up by the caller with ethosu_init()).
 * fast_scratch: the memory given to ethosu_init() as fast memory (the driver puts it in
 * region 2), or NULL and 0 for models without a dedicated fast scratch. */
void mote_ethosu_driver(mote_npu_driver* hook, struct ethosu_driver* drv, uint8_t* fast_scratch,
                        uint32_t fast_scratch_bytes);

/* The memory mode ethosu_config_select() answers for (default MOTE_ETHOSU_SHARED_SRAM). */
void mote_set_ethosu_memory_mode(mote_ethosu_memory_mode mode);

#ifdef __cplusplus
}
#endif

#endif /* MOTE_ETHOSU_H_ */
