// Transpose (permute axes) of any dtype: out.dims[i] = in.dims[perm[i]].
//   input 0, output 0 of equal dtype and rank; perm[0..rank) is a permutation.
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

struct TransposeParams {
  uint32_t perm[kMaxRank];  // entries past rank are ignored
};

Status transpose_check(const OpContext& ctx);
void transpose_run(const OpContext& ctx);
extern const KernelEntry kTransposeEntry;

}  // namespace mote
