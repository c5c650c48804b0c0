// Space to batch (TFLite SPACE_TO_BATCH_ND), any dtype: the input image, padded, is split
// into block_h x block_w interleaved sub-images that become batches.
//   input 0 [B,H,W,C] (or [B,H,C]: W = 1, block_w = 1, pad_left = 0), output 0
//   [B*bh*bw, (pad_top + H + pad_bottom)/bh, (pad_left + W + pad_right)/bw, C] of the same
//   dtype and rank (bh = block_h, bw = block_w >= 1; pads >= 0; the padded sizes multiples
//   of the block):
//   out(b, y, x, c) = in(b % B, y*bh + sh - pad_top, x*bw + sw - pad_left, c) with
//   sh = (b / B) / bw, sw = (b / B) % bw, or `pad_value` where that lies in the padding.
//   pad_value: one element's bytes (the output's zero point for quantized tensors, as
//   TFLite pads; 0.0 for float).
// check(): the output shape equals the input shape under those rules (pad_bottom and
// pad_right follow from it). The output must not alias the input.
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

struct SpaceToBatchParams {
  int32_t block_h;
  int32_t block_w;
  int32_t pad_top;
  int32_t pad_left;
  uint8_t pad_value[8];  // one element's bytes, little-endian
};

Status space_to_batch_check(const OpContext& ctx);
void space_to_batch_run(const OpContext& ctx);
extern const KernelEntry kSpaceToBatchEntry;

}  // namespace mote
