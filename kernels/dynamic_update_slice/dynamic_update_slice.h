// DynamicUpdateSlice of any dtype (TFLite DYNAMIC_UPDATE_SLICE), as TFLite Micro's
// kernel: the operand with the update written over it at run-time start indices.
//   input 0   operand [d0 .. d(r-1)]
//   input 1   update  [u0 .. u(r-1)], input 0's dtype, u_k <= d_k
//   input 2   start indices, int32 or int64 [r] (computed or constant)
//   output 0  input 0's dtype and shape
//   start_k = clamp(indices[k], 0, d_k - u_k); output = operand, then
//   output[start + i] = update[i] for every update index i.
// No params. check(): the shapes above, index math in int32.
#pragma once

#include "mote/kernel.h"

namespace mote {

Status dynamic_update_slice_check(const OpContext& ctx);
void dynamic_update_slice_run(const OpContext& ctx);
extern const KernelEntry kDynamicUpdateSliceEntry;

}  // namespace mote
