// platforms/ethos_u/mote_ethosu.c, Mote's hook over Arm's Ethos-U core driver, built
// against our declarations of the driver's API (ethosu_api/ethosu_driver.h) with this
// file's ethosu_invoke_v3 standing in for the driver: what the adapter hands the driver,
// the static semaphores and mutex, and the AXI port of each region per memory mode.
// (ctest ethosu_adapter_no_heap checks the adapter's Cortex-M object references no malloc.)
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "ethosu_driver.h"
#include "mote_ethosu.h"

namespace {

struct Call {
  ethosu_driver* drv = nullptr;
  const void* data = nullptr;
  int size = 0;
  std::vector<uint64_t> base;
  std::vector<size_t> sizes;
  void* user_arg = reinterpret_cast<void*>(1);
};
std::vector<Call> calls;
int driver_result = 0;

}  // namespace

extern "C" int ethosu_invoke_v3(ethosu_driver* drv, const void* custom_data_ptr, const int custom_data_size,
                                uint64_t* const base_addr, const size_t* base_addr_size, const int num_base_addr,
                                void* user_arg) {
  Call c;
  c.drv = drv;
  c.data = custom_data_ptr;
  c.size = custom_data_size;
  c.base.assign(base_addr, base_addr + num_base_addr);
  c.sizes.assign(base_addr_size, base_addr_size + num_base_addr);
  c.user_arg = user_arg;
  calls.push_back(c);
  if (num_base_addr > 2) base_addr[2] = 0xDEAD0000u;  // the driver writes its fast memory there
  return driver_result;
}

namespace ethosu_adapter_test {

TEST(EthosUAdapter, InvokeHandsTheDriverEveryRegionAndItsError) {
  alignas(16) static uint8_t fast[64];
  auto* drv = reinterpret_cast<ethosu_driver*>(0x1234);
  mote_npu_driver hook;
  mote_ethosu_driver(&hook, drv, fast, sizeof fast);
  EXPECT_EQ(hook.user, drv);
  EXPECT_EQ(hook.fast_scratch, fast);
  EXPECT_EQ(hook.fast_scratch_bytes, sizeof fast);
  EXPECT_EQ(hook.clean_cache, nullptr);  // the driver cleans and invalidates itself
  EXPECT_EQ(hook.invalidate_cache, nullptr);

  alignas(16) const uint8_t payload[48] = {'C', 'O', 'P', '1'};
  const uint64_t base[4] = {0x1000, 0x2000, 0x3000, 0x4000};
  const uint32_t bytes[4] = {16, 32, 48, 64};
  calls.clear();
  driver_result = 0;
  EXPECT_EQ(hook.invoke(hook.user, payload, sizeof payload, base, bytes, 4), 0);
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].drv, drv);
  EXPECT_EQ(calls[0].data, payload);
  EXPECT_EQ(calls[0].size, 48);
  EXPECT_EQ(calls[0].base, (std::vector<uint64_t>{0x1000, 0x2000, 0x3000, 0x4000}));
  EXPECT_EQ(calls[0].sizes, (std::vector<size_t>{16, 32, 48, 64}));
  EXPECT_EQ(calls[0].user_arg, nullptr);
  EXPECT_EQ(base[2], 0x3000u);  // the caller's table is not written

  driver_result = -1;
  EXPECT_EQ(hook.invoke(hook.user, payload, sizeof payload, base, bytes, 4), -1);
  uint64_t nine[9] = {};
  uint32_t nine_bytes[9] = {};
  EXPECT_EQ(hook.invoke(hook.user, payload, sizeof payload, nine, nine_bytes, 9), -1);  // over the driver's 8
  EXPECT_EQ(calls.size(), 2u);
}

TEST(EthosUAdapter, SemaphoresComeFromAStaticPool) {
  std::vector<void*> taken;
  for (int i = 0; i < 4; ++i) {
    void* s = ethosu_semaphore_create();
    ASSERT_NE(s, nullptr);
    taken.push_back(s);
  }
  EXPECT_EQ(ethosu_semaphore_create(), nullptr);  // the pool holds 4
  EXPECT_EQ(ethosu_semaphore_take(taken[0], 10), -1);  // nothing given: times out
  EXPECT_EQ(ethosu_semaphore_give(taken[0]), 0);
  EXPECT_EQ(ethosu_semaphore_give(taken[0]), 0);
  EXPECT_EQ(ethosu_semaphore_take(taken[0], ETHOSU_SEMAPHORE_WAIT_FOREVER), 0);
  EXPECT_EQ(ethosu_semaphore_take(taken[0], 0), 0);
  EXPECT_EQ(ethosu_semaphore_take(taken[0], 0), -1);
  ethosu_semaphore_destroy(taken[3]);
  EXPECT_EQ(ethosu_semaphore_create(), taken[3]);  // reused
  for (void* s : taken) ethosu_semaphore_destroy(s);
  void* m = ethosu_mutex_create();
  EXPECT_NE(m, nullptr);
  EXPECT_EQ(ethosu_mutex_lock(m), 0);
  EXPECT_EQ(ethosu_mutex_unlock(m), 0);
}

TEST(EthosUAdapter, RegionsSitBehindThePortTheMemoryModeNeeds) {
  // Memory types 0 and 1 are AXI0 (SRAM), 2 and 3 AXI1 (external).
  auto port = [](int index) { return ethosu_config_select(0, index) < 2 ? 0 : 1; };
  mote_set_ethosu_memory_mode(MOTE_ETHOSU_SHARED_SRAM);
  EXPECT_EQ(port(-1), 1);  // command stream
  EXPECT_EQ(port(0), 1);   // constants
  EXPECT_EQ(port(1), 0);   // arena in SRAM
  EXPECT_EQ(port(2), 0);
  mote_set_ethosu_memory_mode(MOTE_ETHOSU_DEDICATED_SRAM);
  EXPECT_EQ(port(0), 1);
  EXPECT_EQ(port(1), 1);  // arena in DRAM
  EXPECT_EQ(port(2), 0);  // fast scratch in SRAM
  mote_set_ethosu_memory_mode(MOTE_ETHOSU_SRAM_ONLY);
  for (int i = -1; i < 8; ++i) EXPECT_EQ(port(i), 0) << i;
  mote_set_ethosu_memory_mode(MOTE_ETHOSU_SHARED_SRAM);
}

}  // namespace ethosu_adapter_test
