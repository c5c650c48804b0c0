// An Ethos-U NPU op (ethos_u): one `ethos-u` custom operator of a Vela-compiled .tflite,
// run by the NPU driver given at load (mote/npu.h). Any dtype: the NPU reads and writes
// the bytes; what they mean is the command stream's business.
//
//   inputs: 0 payload       uint8 constant: the driver payload (ethos_u_payload.h)
//           1 constant data uint8 constant (region 0: weights, biases, scales), or absent
//           2 scratch       uint8 arena tensor (region 1), or absent: the op's working
//                           area, where the compiler placed inputs 4.. and the outputs at
//                           the offsets Vela chose (OfflineMemoryAllocation)
//           3 fast scratch  uint8 arena tensor (region 2), or absent: absent when the op
//                           needs a fast scratch of its own (fast_scratch_bytes > 0, the
//                           driver's NpuDriver::fast_scratch is region 2) or none
//           4.. feature maps, any dtype, in the arena
//   outputs: feature maps, any dtype, in the arena; none for an op that writes into the
//            scratch area only (Vela's in-place padding: into a tensor an earlier op wrote).
// Region i's base address is input i + 1's data (0 for an absent one), then the outputs',
// after the inputs (TensorFlow Lite Micro's order), at most kNpuMaxRegions of them; its
// size is that tensor's bytes. With fast_scratch_bytes > 0, region 2 is the driver's fast
// scratch and its size fast_scratch_bytes.
//
// run(): clean_cache (if given), invoke, invalidate_cache (if given) over every region.
// A driver error stops the run: the interpreter returns kNpuFailed with the error.
// check(): the payload parses (ethos_u_payload.h) and its CONFIG and ID words equal the
// params' (what the compiler checked against --npu), the tensors' kinds and dtypes as
// above, every region 16-byte aligned, region_count = min(kNpuMaxRegions, inputs - 1 +
// outputs), a driver given (else kNoNpuDriver), and for fast_scratch_bytes > 0 the
// driver's fast scratch 16-byte aligned and at least that long (else
// kFastScratchTooSmall).
#pragma once

#include <stdint.h>

#include "kernel_ids.h"
#include "mote/kernel.h"

namespace mote {

struct EthosUParams {
  uint32_t config_word;         // the payload's CONFIG word (the accelerator)
  uint32_t id_word;             // the payload's ID word (the architecture version)
  uint32_t fast_scratch_bytes;  // region 2 is the driver's fast scratch of this size; 0: input 3
  uint32_t region_count;        // base addresses passed to the driver
};

inline constexpr uint32_t kEthosUFeatureMapInput = 4;  // the first feature-map input

// Whether an op of a program is an NPU op, for hosts and runners that size the driver's
// fast scratch (below) and the functional NPU model's workspace from the program.
inline bool is_ethos_u_op(const OpDesc& op) { return op.kernel == static_cast<uint16_t>(KernelId::kEthosU); }

// The fast scratch the op needs (0: none), for hosts that size NpuDriver::fast_scratch
// from a loaded program. Only after check() accepted the op.
inline uint32_t ethos_u_fast_scratch_bytes(const OpContext& ctx) { return ctx.params<EthosUParams>().fast_scratch_bytes; }

Status ethos_u_check(const OpContext& ctx);
void ethos_u_run(const OpContext& ctx);
extern const KernelEntry kEthosUEntry;

}  // namespace mote
