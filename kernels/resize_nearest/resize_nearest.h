// Nearest-neighbour resize of NHWC images, any dtype (TFLite RESIZE_NEAREST_NEIGHBOR;
// TFLite Micro takes float32, int8 and int16); values are copied unchanged.
//   input 0 [N,H,W,C], output 0 [N,OH,OW,C] of the same dtype.
//   params: no struct, two int32 arrays: source_row[OH], then source_col[OW], each entry
//           in [0, H) resp. [0, W). Output pixel (n, y, x) is input pixel
//           (n, source_row[y], source_col[x]), all C channels.
// The compiler computes the tables as TFLite's GetNearestNeighbor does (align_corners,
// half_pixel_centers; compiler/ir/mote_ops.md), so the kernel does no float arithmetic.
// check(): the params hold exactly OH + OW entries, all in range. The output must not
// alias the input.
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

void resize_nearest(const int32_t dims[4], int32_t out_height, int32_t out_width,
                    uint32_t element_bytes, const int32_t* source_row, const int32_t* source_col,
                    const uint8_t* input, uint8_t* output);

Status resize_nearest_check(const OpContext& ctx);
void resize_nearest_run(const OpContext& ctx);
extern const KernelEntry kResizeNearestEntry;

}  // namespace mote
