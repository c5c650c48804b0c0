// Space to depth (TFLite SPACE_TO_DEPTH), any dtype: each block_size x block_size patch
// of input pixels becomes one output pixel, the patch's pixels one after another along
// the channels.
//   input 0 [N,H,W,C], output 0 [N,H/b,W/b,C*b*b] of the same dtype (b = block_size >= 1
//   dividing H and W):
//   out(n, y, x, (dy * b + dx) * C + c) = in(n, y * b + dy, x * b + dx, c)
// The output must not alias the input.
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

struct SpaceToDepthParams {
  int32_t block_size;
};

Status space_to_depth_check(const OpContext& ctx);
void space_to_depth_run(const OpContext& ctx);
extern const KernelEntry kSpaceToDepthEntry;

}  // namespace mote
