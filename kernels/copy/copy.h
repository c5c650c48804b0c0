// Byte copy of a tensor into one of the same byte size: Reshape, Flatten, Squeeze,
// Unsqueeze when the planner could not alias input and output. No params.
#pragma once

#include "mote/kernel.h"

namespace mote {

Status copy_check(const OpContext& ctx);
void copy_run(const OpContext& ctx);
extern const KernelEntry kCopyEntry;

}  // namespace mote
