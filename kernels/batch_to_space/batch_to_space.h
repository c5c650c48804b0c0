// Batch to space (TFLite BATCH_TO_SPACE_ND), any dtype: the input's batches, taken as
// block_h x block_w groups of the output's batch count, interleave into the output image,
// which is then cropped.
//   input 0 [B,H,W,C] (or [B,H,C]: W = 1, block_w = 1, crop_left = 0), output 0
//   [B/(bh*bw), H*bh - crop_top - crop_bottom, W*bw - crop_left - crop_right, C] of the
//   same dtype and rank (bh = block_h, bw = block_w >= 1; crops >= 0):
//   out(b, y, x, c) = in(b + ob * (((y + crop_top) % bh) * bw + (x + crop_left) % bw),
//                        (y + crop_top) / bh, (x + crop_left) / bw, c),  ob = out.dims[0]
// check(): the output shape equals the input shape under those rules (crop_bottom and
// crop_right follow from it). The output must not alias the input.
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

struct BatchToSpaceParams {
  int32_t block_h;
  int32_t block_w;
  int32_t crop_top;
  int32_t crop_left;
};

Status batch_to_space_check(const OpContext& ctx);
void batch_to_space_run(const OpContext& ctx);
extern const KernelEntry kBatchToSpaceEntry;

}  // namespace mote
