// SELECT_V2: out = condition ? x : y elementwise, the three inputs broadcast (numpy
// rules, right-aligned) to the output, as TFLM's BroadcastSelect5DSlow.
//   inputs:  0 condition (bool, one byte; non-zero is true), 1 x, 2 y (one dtype)
//   output:  0 the broadcast shape, x's dtype
// Any dtype of 1, 2 or 4 bytes (float32, int8, int16, int32, uint8, bool): elements are
// copied, never converted (a quantized x and y share the output's quantization in
// TFLite). No params. Output element i is written after the inputs' elements i are read,
// so it may write over an input of the output's shape.
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

Status select_check(const OpContext& ctx);
void select_run(const OpContext& ctx);
extern const KernelEntry kSelectEntry;

}  // namespace mote
