// Concatenation along one axis, any dtype. inputs 0..n-1 (n >= 1) agree on every dim but
// `axis`; output 0's dims[axis] is their sum.
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

struct ConcatParams {
  uint32_t axis;
};

Status concat_check(const OpContext& ctx);
void concat_run(const OpContext& ctx);
extern const KernelEntry kConcatEntry;

}  // namespace mote
