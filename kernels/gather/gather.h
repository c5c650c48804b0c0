// Gather of any dtype (TFLite GATHER): slices of input 0 along `axis` picked by the int32
// indices of input 1, batch by batch.
//   input 0   [d0 .. d(r-1)], batch_dims <= axis < r
//   input 1   int32 or int64 [d0 .. d(batch_dims-1), c0 .. c(q-1)]: its first
//             batch_dims dims are input 0's (int64: ONNX's indices, read as they are)
//   output 0  input 0's dtype, [d0 .. d(axis-1), c0 .. c(q-1), d(axis+1) .. d(r-1)]
// With b over the batch dims, o over dims batch_dims..axis-1, c over the indices' own
// dims and i over the dims after axis:
//   output[b, o, c, i] = input[b, o, indices[b, c], i]
// With negative_from_end (ONNX Gather) an index in [-d(axis), 0) counts from the end: it
// reads index + d(axis). An index outside [0, d(axis)) after that (TFLite Micro fails the
// invocation then) gives a slice of zero bytes: the kernel never reads outside its input.
// check(): the shapes above, negative_from_end 0 or 1, the output's rank at most
// kMaxRank, index math in int32.
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

struct GatherParams {
  uint32_t axis;
  uint32_t batch_dims;
  uint32_t negative_from_end;  // 0 or 1
};

Status gather_check(const OpContext& ctx);
void gather_run(const OpContext& ctx);
extern const KernelEntry kGatherEntry;

}  // namespace mote
