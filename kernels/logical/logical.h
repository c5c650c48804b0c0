// Logical ops on bool tensors (TFLite LOGICAL_NOT, LOGICAL_AND, LOGICAL_OR; TensorFlow
// Lite Micro's elementwise.cc and logical.cc). A bool element is one byte; any non-zero
// byte reads as true, and results are written as 0 or 1.
//
// logical_not: input 0, output 0 of one shape (may run in place); out = !x. No params.
// logical_binary (LogicalBinaryParams): a, b broadcast as add/mul do
//   (elementwise/elementwise.h) to the output; out = a && b (and) or a || b (or). May
//   write over an input of the output's shape.
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

struct LogicalBinaryParams {
  int32_t is_or;  // 1: or, 0: and
};

void logical_not(uint32_t count, const uint8_t* input, uint8_t* output);

Status logical_not_check(const OpContext& ctx);
void logical_not_run(const OpContext& ctx);
extern const KernelEntry kLogicalNotEntry;
Status logical_binary_check(const OpContext& ctx);
void logical_binary_run(const OpContext& ctx);
extern const KernelEntry kLogicalBinaryEntry;

}  // namespace mote
