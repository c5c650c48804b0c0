// Every kernel Mote has, in one table indexed by KernelId value. For the host tools and
// the generic QEMU runner; firmware for one model links the compiler-generated table
// with only that model's kernels instead, so unused kernels are not linked.
#pragma once

#include "kernel_ids.h"
#include "mote/kernel.h"

namespace mote {

// Entry i is the kernel with KernelId value i (entry 0, kInvalid, is null);
// count == kKernelCount. Statically initialized; valid for the whole program.
const KernelTable& all_kernels();

}  // namespace mote
