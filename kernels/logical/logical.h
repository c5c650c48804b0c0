// Logical ops on bool tensors (TFLite LOGICAL_NOT, LOGICAL_AND, LOGICAL_OR; TensorFlow
// Lite Micro's elementwise.cc and logical.cc). A bool element is one byte; any non-zero
// byte reads as true, and results are written as 0 or 1.
//
// logical_not: input 0, output 0 of one shape (may run in place); out = !x. No params.
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

void logical_not(uint32_t count, const uint8_t* input, uint8_t* output);

Status logical_not_check(const OpContext& ctx);
void logical_not_run(const OpContext& ctx);
extern const KernelEntry kLogicalNotEntry;

}  // namespace mote
