// Every kernel Mote has, by number: KernelId::k<enumerator> = id for each line of
// kernel_registry.inc (one line per kernel; its header explains the columns and the
// naming). The number is what a program stores in OpDesc::kernel; it is stable across
// releases (append only, never renumber).
#pragma once

#include <stdint.h>

namespace mote {

enum class KernelId : uint16_t {
  kInvalid = 0,
#define MOTE_KERNEL(enumerator, id, name, source, reference, isa, macs, placement) k##enumerator = id,
#include "kernel_registry.inc"
#undef MOTE_KERNEL
  kCount  // one past the last id (kernel_registry.cc checks the ids are 1, 2, 3, ...)
};

inline constexpr uint32_t kKernelCount = static_cast<uint32_t>(KernelId::kCount);

// The registry's name of a kernel; "" for an unknown id. Host side (compiler, CLI,
// reports): kernel_registry.cc, with the other facts of kernel_registry.h.
const char* kernel_name(KernelId id);

// The inverse of kernel_name(); KernelId::kInvalid for an unknown (or null) name.
KernelId kernel_id_from_name(const char* name);

}  // namespace mote
