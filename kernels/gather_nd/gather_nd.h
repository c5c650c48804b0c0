// GatherNd of any dtype (TFLite GATHER_ND): slices of input 0 addressed by the leading
// coordinates the int32 rows of input 1 hold.
//   input 0   [d0 .. d(r-1)]
//   input 1   int32 [c0 .. c(q-2), n], 0 <= n <= r: n coordinates per row
//   output 0  input 0's dtype, [c0 .. c(q-2), d(n) .. d(r-1)]
//   output[c, i] = input[indices[c, 0], .., indices[c, n-1], i]
// A row with a coordinate outside its dim (TFLite Micro fails the invocation then) gives
// a slice of zero bytes: the kernel never reads outside its input. No params. check():
// the shapes above, index math in int32.
#pragma once

#include "mote/kernel.h"

namespace mote {

Status gather_nd_check(const OpContext& ctx);
void gather_nd_run(const OpContext& ctx);
extern const KernelEntry kGatherNdEntry;

}  // namespace mote
