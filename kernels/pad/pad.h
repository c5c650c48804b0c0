// Pad, any dtype. out.dims[i] = before[i] + in.dims[i] + after[i] (before/after >= 0;
// the compiler turns negative ONNX pads into a slice).
//   mode kConstant: new elements hold `value` (raw element bytes, little-endian, the
//                   dtype's zero point for quantized tensors)
//   mode kReflect:  mirror without repeating the edge (needs before/after < dim)
//   mode kEdge:     repeat the edge element
//   mode kSymmetric: mirror repeating the edge (needs before/after <= dim, dim >= 1)
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

enum class PadMode : uint32_t { kConstant = 0, kReflect = 1, kEdge = 2, kSymmetric = 3 };

struct PadParams {
  uint32_t mode;  // PadMode
  int32_t before[kMaxRank];
  int32_t after[kMaxRank];
  uint8_t value[8];  // one element's bytes
};

Status pad_check(const OpContext& ctx);
void pad_run(const OpContext& ctx);
extern const KernelEntry kPadEntry;

}  // namespace mote
