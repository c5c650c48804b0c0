// Fill bytes: every byte of output 0 becomes params.value (0..255). No inputs.
// The compiler starts each persistent tensor (state) with one as an init op: TFLite
// Micro's reset value, the low byte of the tensor's zero point (0 for float), so a
// stateful program's state is set by the first run after load() or reset_state(), not
// by the runtime.
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

struct FillBytesParams {
  int32_t value;  // 0..255
};

Status fill_bytes_check(const OpContext& ctx);
void fill_bytes_run(const OpContext& ctx);
extern const KernelEntry kFillBytesEntry;

}  // namespace mote
