// The NPU driver hook: how a program's NPU ops (Ethos-U, kernels/ethos_u/ethos_u.h) reach
// the accelerator. The caller gives one to load() (LoadOptions::npu, or mote_set_npu()
// in the C API, mote.h); a program with NPU ops refuses to load without it
// (Status::kNoNpuDriver). The runtime calls it from run(), once per NPU op, and keeps no
// state between calls, so one driver may serve several interpreters run one at a time.
//
// What an NPU op hands over (the same as TensorFlow Lite Micro's ethos-u kernel gives
// Arm's core driver, ethosu_invoke_v3):
//   payload          the op's driver payload ("COP1": config words and command stream),
//                    read in place from the program, 16-byte aligned, a multiple of 4
//                    bytes
//   base_addresses   region i's base address for the command stream (at most 8):
//                    0 the op's constant data (weights, biases, scales; in the program),
//                    1 its scratch area in the arena (where its feature maps lie),
//                    2 fast scratch (NpuDriver::fast_scratch when the op needs its own,
//                    else the op's fast-scratch tensor), 3.. its other inputs then its
//                    outputs; every one 16-byte aligned
//   base_bytes       the byte size of each region
// All of them are exact: the compiler planned them, and the op's check() proved each
// region lies inside the program, the arena or the fast scratch at load.
#pragma once

#include <stdint.h>

namespace mote {

inline constexpr uint32_t kNpuMaxRegions = 8;

struct NpuDriver {
  // Runs the command stream to completion. Returns 0 on success; any other value stops
  // the run (run() returns Status::kNpuFailed and Interpreter::npu_error() gives it).
  int32_t (*invoke)(void* user, const uint8_t* payload, uint32_t payload_bytes, const uint64_t* base_addresses,
                    const uint32_t* base_bytes, uint32_t region_count);
  // Optional (null: not called). Before invoke: write the CPU's data cache back over
  // every region, so the NPU reads what the CPU wrote (Cortex-M7/M55 with a data cache).
  void (*clean_cache)(void* user, const uint64_t* base_addresses, const uint32_t* base_bytes, uint32_t region_count);
  // Optional. After a successful invoke: discard the CPU's cached lines of every region,
  // so the CPU reads what the NPU wrote.
  void (*invalidate_cache)(void* user, const uint64_t* base_addresses, const uint32_t* base_bytes,
                           uint32_t region_count);
  void* user;  // passed to every call
  // The NPU's fast memory (region 2) for ops compiled with a dedicated fast scratch
  // (Vela's Dedicated_Sram memory mode; the compiler states the bytes needed:
  // <NAME>_NPU_FAST_SCRATCH_BYTES): 16-byte aligned, at least that long, not part of the
  // arena. Null and 0 when the program needs none.
  uint8_t* fast_scratch;
  uint32_t fast_scratch_bytes;
};

// What an NPU op reads and writes besides its tensors: the interpreter's copy of the
// driver pointer and the error of the last failed invoke.
struct NpuLink {
  const NpuDriver* driver;
  int32_t error;  // 0 or the value the driver's invoke returned
};

}  // namespace mote
