#include "all_kernels.h"

namespace mote {

// On a Cortex-M core, the kernels written for an ISA extension the core lacks are not
// built (kernel_sources.cmake leaves their sources out, testing the same macros): their
// entries are weak references, null in the table, so a program that uses one fails to
// load with kMissingKernel. The host builds every kernel.
#if defined(__arm__)
#define MOTE_ISA_LINKAGE_portable
#if defined(__ARM_FEATURE_DSP)
#define MOTE_ISA_LINKAGE_dsp
#else
#define MOTE_ISA_LINKAGE_dsp __attribute__((weak))
#endif
#if defined(__ARM_FEATURE_MVE)
#define MOTE_ISA_LINKAGE_mve
#else
#define MOTE_ISA_LINKAGE_mve __attribute__((weak))
#endif
#if defined(__ARM_ARCH_6M__)
#define MOTE_ISA_LINKAGE_v6m
#else
#define MOTE_ISA_LINKAGE_v6m __attribute__((weak))
#endif
#if defined(__ARM_FP)
#define MOTE_ISA_LINKAGE_fpu
#else
#define MOTE_ISA_LINKAGE_fpu __attribute__((weak))
#endif
#else
#define MOTE_ISA_LINKAGE_portable
#define MOTE_ISA_LINKAGE_dsp
#define MOTE_ISA_LINKAGE_mve
#define MOTE_ISA_LINKAGE_v6m
#define MOTE_ISA_LINKAGE_fpu
#endif

// Each kernel's entry, defined in its source (kernel_registry.inc).
#define MOTE_KERNEL(enumerator, id, name, source, reference, isa, macs, placement) \
  extern const KernelEntry k##enumerator##Entry MOTE_ISA_LINKAGE_##isa;
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
