// CAST (TensorFlow Lite Micro's cast.cc): each element converted as C++'s static_cast
// does on an Arm core, quantization ignored (raw values, as TFLM).
//   input 0:  float32, int8, int16, int32, int64 or bool     output 0: float32, int8,
//   int16, int32 or int64, the input's shape (TFLM's pairs, less its uint32; TFLM writes
//   no bool; int64 for ONNX's indices and shapes: an ArgMax result cast to int32, an int64
//   graph output of integer data the ONNX importer computed in int32).
// Conversions:
//   integer -> integer  the low bits (two's complement wrap: int32 300 -> int8 44, int64
//                       2^32 + 5 -> int32 5); to int64 sign-extended
//   integer -> float32  rounded to nearest (exact but for magnitudes beyond 2^24)
//   float32 -> integer  truncated toward zero and saturated to the int32 range, NaN 0
//                       (Arm's VCVT and __aeabi_f2iz), then the low bits for int8/int16;
//                       to int64 saturated to the int64 range (__aeabi_f2lz)
//   bool -> any         0 or 1 (any non-zero byte is true)
// No params. Element i is written after element i is read, so the output may be written
// over an input with elements at least as wide.
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

Status cast_check(const OpContext& ctx);
void cast_run(const OpContext& ctx);
extern const KernelEntry kCastEntry;

}  // namespace mote
