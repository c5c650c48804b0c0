// Space to batch: the output written in order; each pixel is one memcpy of C elements
// from the input pixel the contract names, or C copies of the pad element.
#include "space_to_batch/space_to_batch.h"

#include <string.h>

#include "kernel_util.h"

namespace mote {
Status space_to_batch_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 1, 1, 1));
  if (ctx.params_bytes() != sizeof(SpaceToBatchParams)) return Status::kBadParams;
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  const uint32_t element_bytes = dtype_size(static_cast<DType>(in.dtype));
  if ((in.rank != 3 && in.rank != 4) || out.rank != in.rank || in.dtype != out.dtype || element_bytes == 0 ||
      element_bytes > sizeof(SpaceToBatchParams::pad_value) || !index_math_fits(in) || !index_math_fits(out)) {
    return Status::kBadParams;
  }
  const SpaceToBatchParams& p = ctx.params<SpaceToBatchParams>();
  if (p.block_h < 1 || p.block_w < 1 || p.pad_top < 0 || p.pad_left < 0) return Status::kBadParams;
  if (in.rank == 3 && (p.block_w != 1 || p.pad_left != 0)) return Status::kBadParams;
  uint32_t i[4], o[4];
  nhc_as_nhwc(in, i);
  nhc_as_nhwc(out, o);
  const int64_t bh = p.block_h, bw = p.block_w;
  // The pads at the bottom and right are what the output's padded image adds beyond them.
  const int64_t pad_bottom = o[1] * bh - p.pad_top - i[1], pad_right = o[2] * bw - p.pad_left - i[2];
  if (uint64_t{i[0]} * bh * bw != o[0] || pad_bottom < 0 || pad_right < 0 || o[3] != i[3])
    return Status::kBadParams;
  if (o[1] * bh > INT32_MAX || o[2] * bw > INT32_MAX) return Status::kBadParams;  // padded-image coordinates
  return Status::kOk;
}

void space_to_batch_run(const OpContext& ctx) {
  const SpaceToBatchParams& p = ctx.params<SpaceToBatchParams>();
  uint32_t i[4], o[4];
  nhc_as_nhwc(ctx.input_desc(0), i);
  nhc_as_nhwc(ctx.output_desc(0), o);
  const uint32_t bh = static_cast<uint32_t>(p.block_h), bw = static_cast<uint32_t>(p.block_w);
  const uint32_t element_bytes = dtype_size(static_cast<DType>(ctx.input_desc(0).dtype));
  const uint32_t pixel_bytes = i[3] * element_bytes;
  const uint8_t* input = static_cast<const uint8_t*>(ctx.input_data(0));
  uint8_t* output = static_cast<uint8_t*>(ctx.output_data(0));
  for (uint32_t b = 0; b < o[0]; ++b) {
    const uint32_t in_b = b % i[0], shift = b / i[0];
    const uint32_t sh = shift / bw, sw = shift % bw;
    for (uint32_t y = 0; y < o[1]; ++y) {
      // Coordinates in the padded image; below the pad, or past it, is padding.
      const uint32_t fy = y * bh + sh;
      const bool row_inside = fy >= static_cast<uint32_t>(p.pad_top) && fy - p.pad_top < i[1];
      for (uint32_t x = 0; x < o[2]; ++x) {
        const uint32_t fx = x * bw + sw;
        if (row_inside && fx >= static_cast<uint32_t>(p.pad_left) && fx - p.pad_left < i[2]) {
          memcpy(output, input + ((in_b * i[1] + fy - p.pad_top) * i[2] + fx - p.pad_left) * pixel_bytes,
                 pixel_bytes);
          output += pixel_bytes;
        } else {
          for (uint32_t c = 0; c < i[3]; ++c, output += element_bytes) memcpy(output, p.pad_value, element_bytes);
        }
      }
    }
  }
}

const KernelEntry kSpaceToBatchEntry = {space_to_batch_check, space_to_batch_run};

}  // namespace mote
