/* The part of Arm's Ethos-U core driver API (include/ethosu_driver.h of
 * ethos-u-core-driver, v1.x) that platforms/ethos_u/mote_ethosu.c uses, declared by us
 * from the driver's public documentation, so the adapter compiles and is tested without
 * the driver. Signatures only; struct ethosu_driver stays opaque. */
#ifndef ETHOSU_DRIVER_H
#define ETHOSU_DRIVER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ETHOSU_SEMAPHORE_WAIT_FOREVER (UINT64_MAX)

struct ethosu_driver;

int ethosu_invoke_v3(struct ethosu_driver *drv, const void *custom_data_ptr, const int custom_data_size,
                     uint64_t *const base_addr, const size_t *base_addr_size, const int num_base_addr,
                     void *user_arg);

/* Weak in the driver; an application may define them. */
void *ethosu_mutex_create(void);
void ethosu_mutex_destroy(void *mutex);
int ethosu_mutex_lock(void *mutex);
int ethosu_mutex_unlock(void *mutex);
void *ethosu_semaphore_create(void);
void ethosu_semaphore_destroy(void *sem);
int ethosu_semaphore_take(void *sem, uint64_t timeout);
int ethosu_semaphore_give(void *sem);
unsigned int ethosu_config_select(uint64_t address, int index);

#ifdef __cplusplus
}
#endif

#endif /* ETHOSU_DRIVER_H */
