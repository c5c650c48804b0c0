// TFLite's ARG_MAX and ARG_MIN as TensorFlow Lite Micro runs them
// (reference_ops::ArgMinMax with its GreaterFn / LessFn), and ONNX ArgMax / ArgMin.
//   input 0   [d0 .. d(r-1)], r >= 1, float32 or int8 (raw values: the quantization
//             keeps their order)
//   output 0  int32 or int64 (ONNX) [d0 .. d(axis-1), d(axis+1) .. d(r-1)] (or with the
//             axis kept as 1: the element count is what is checked)
// For every position of the other dims, the index along `axis` of the first value that
// no later value beats: starting from index 0, index i replaces the current one only when
// x[i] > current (arg_max) or x[i] < current (arg_min). So ties give the first index, a
// NaN never replaces, and a NaN at index 0 is never replaced (TFLite Micro's comparison
// without NaN handling). With select_last 1 (ONNX select_last_index), x[i] >= current
// (<= for arg_min) replaces: ties give the last index. check(): dtypes, axis < rank,
// select_last 0 or 1, the output's element count the input's without the axis, index
// math in int32.
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

struct ArgMinMaxParams {
  uint32_t axis;
  uint32_t select_last;  // 1: ties give the last index (ONNX select_last_index)
};

Status arg_max_f32_check(const OpContext& ctx);
void arg_max_f32_run(const OpContext& ctx);
Status arg_max_s8_check(const OpContext& ctx);
void arg_max_s8_run(const OpContext& ctx);
Status arg_min_f32_check(const OpContext& ctx);
void arg_min_f32_run(const OpContext& ctx);
Status arg_min_s8_check(const OpContext& ctx);
void arg_min_s8_run(const OpContext& ctx);

extern const KernelEntry kArgMaxF32Entry;
extern const KernelEntry kArgMaxS8Entry;
extern const KernelEntry kArgMinF32Entry;
extern const KernelEntry kArgMinS8Entry;

}  // namespace mote
