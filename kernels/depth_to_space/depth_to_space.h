// Depth to space (TFLite DEPTH_TO_SPACE), any dtype: each input pixel's channels, taken
// as a block_size x block_size grid of C / block_size^2 channels each, spread over that
// many output pixels.
//   input 0 [N,H,W,C], output 0 [N,H*b,W*b,C/(b*b)] of the same dtype (b = block_size >= 1,
//   C a multiple of b*b):
//   out(n, y, x, c) = in(n, y / b, x / b, ((y % b) * b + x % b) * (C / (b*b)) + c)
// The output must not alias the input.
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

struct DepthToSpaceParams {
  int32_t block_size;
};

Status depth_to_space_check(const OpContext& ctx);
void depth_to_space_run(const OpContext& ctx);
extern const KernelEntry kDepthToSpaceEntry;

}  // namespace mote
