// Batch to space: the output written in order, one memcpy of C elements per pixel from
// the input pixel the contract names.
#include "batch_to_space/batch_to_space.h"

#include <string.h>

#include "kernel_util.h"

namespace mote {
Status batch_to_space_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 1, 1, 1));
  if (ctx.params_bytes() != sizeof(BatchToSpaceParams)) return Status::kBadParams;
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  if ((in.rank != 3 && in.rank != 4) || out.rank != in.rank || in.dtype != out.dtype ||
      dtype_size(static_cast<DType>(in.dtype)) == 0 || !index_math_fits(in) || !index_math_fits(out)) {
    return Status::kBadParams;
  }
  const BatchToSpaceParams& p = ctx.params<BatchToSpaceParams>();
  if (p.block_h < 1 || p.block_w < 1 || p.crop_top < 0 || p.crop_left < 0) return Status::kBadParams;
  if (in.rank == 3 && (p.block_w != 1 || p.crop_left != 0)) return Status::kBadParams;
  uint32_t i[4], o[4];
  nhc_as_nhwc(in, i);
  nhc_as_nhwc(out, o);
  const int64_t bh = p.block_h, bw = p.block_w;
  // The crops at the bottom and right are what the output leaves of the full image.
  const int64_t crop_bottom = i[1] * bh - p.crop_top - o[1], crop_right = i[2] * bw - p.crop_left - o[2];
  if (uint64_t{o[0]} * bh * bw != i[0] || crop_bottom < 0 || crop_right < 0 || o[3] != i[3])
    return Status::kBadParams;
  if (i[1] * bh > INT32_MAX || i[2] * bw > INT32_MAX) return Status::kBadParams;  // full-image coordinates
  return Status::kOk;
}

void batch_to_space_run(const OpContext& ctx) {
  const BatchToSpaceParams& p = ctx.params<BatchToSpaceParams>();
  uint32_t i[4], o[4];
  nhc_as_nhwc(ctx.input_desc(0), i);
  nhc_as_nhwc(ctx.output_desc(0), o);
  const uint32_t bh = static_cast<uint32_t>(p.block_h), bw = static_cast<uint32_t>(p.block_w);
  const uint32_t pixel_bytes = i[3] * dtype_size(static_cast<DType>(ctx.input_desc(0).dtype));
  const uint8_t* input = static_cast<const uint8_t*>(ctx.input_data(0));
  uint8_t* output = static_cast<uint8_t*>(ctx.output_data(0));
  for (uint32_t b = 0; b < o[0]; ++b) {
    for (uint32_t y = 0; y < o[1]; ++y) {
      const uint32_t fy = y + static_cast<uint32_t>(p.crop_top);
      for (uint32_t x = 0; x < o[2]; ++x) {
        const uint32_t fx = x + static_cast<uint32_t>(p.crop_left);
        const uint32_t in_b = b + o[0] * ((fy % bh) * bw + fx % bw);
        memcpy(output, input + ((in_b * i[1] + fy / bh) * i[2] + fx / bw) * pixel_bytes, pixel_bytes);
        output += pixel_bytes;
      }
    }
  }
}

const KernelEntry kBatchToSpaceEntry = {batch_to_space_check, batch_to_space_run};

}  // namespace mote
