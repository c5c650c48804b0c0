#include "all_kernels.h"

namespace mote {

// Each kernel's entry, defined in its source (kernel_registry.inc).
#define MOTE_KERNEL(enumerator, id, name, source, reference, isa, macs, placement) \
  extern const KernelEntry k##enumerator##Entry;
#include "kernel_registry.inc"
#undef MOTE_KERNEL

namespace {

// In KernelId order (the registry's ids are 1, 2, 3, ... in line order).
const KernelEntry* const kEntries[] = {
    nullptr,  // KernelId::kInvalid
#define MOTE_KERNEL(enumerator, id, name, source, reference, isa, macs, placement) &k##enumerator##Entry,
#include "kernel_registry.inc"
#undef MOTE_KERNEL
};
static_assert(sizeof(kEntries) / sizeof(kEntries[0]) == kKernelCount,
              "one entry per KernelId");

const KernelTable kAllKernels = {kEntries, kKernelCount};

}  // namespace

const KernelTable& all_kernels() { return kAllKernels; }

}  // namespace mote
