// Space to depth: output written in order; for each output pixel, b rows of b input
// pixels, one memcpy of b * C elements per row (a patch row is contiguous in the input).
#include "space_to_depth/space_to_depth.h"

#include <string.h>

#include "kernel_util.h"

namespace mote {

Status space_to_depth_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 1, 1, 1));
  if (ctx.params_bytes() != sizeof(SpaceToDepthParams)) return Status::kBadParams;
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  if (in.rank != 4 || out.rank != 4 || in.dtype != out.dtype || dtype_size(static_cast<DType>(in.dtype)) == 0)
    return Status::kBadParams;
  if (!index_math_fits(in) || !index_math_fits(out)) return Status::kBadParams;
  const int64_t b = ctx.params<SpaceToDepthParams>().block_size;
  if (b < 1 || out.dims[0] != in.dims[0] || in.dims[1] != out.dims[1] * b || in.dims[2] != out.dims[2] * b ||
      out.dims[3] != in.dims[3] * b * b) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void space_to_depth_run(const OpContext& ctx) {
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  const uint32_t b = static_cast<uint32_t>(ctx.params<SpaceToDepthParams>().block_size);
  const uint32_t pixel_bytes = in.dims[3] * dtype_size(static_cast<DType>(in.dtype));
  const uint32_t in_row_bytes = in.dims[2] * pixel_bytes;
  const uint8_t* input = static_cast<const uint8_t*>(ctx.input_data(0));
  uint8_t* output = static_cast<uint8_t*>(ctx.output_data(0));
  for (uint32_t n = 0; n < out.dims[0]; ++n) {
    for (uint32_t y = 0; y < out.dims[1]; ++y) {
      for (uint32_t x = 0; x < out.dims[2]; ++x) {
        const uint8_t* patch = input + (n * in.dims[1] + y * b) * in_row_bytes + x * b * pixel_bytes;
        for (uint32_t dy = 0; dy < b; ++dy) {
          memcpy(output, patch + dy * in_row_bytes, b * pixel_bytes);
          output += b * pixel_bytes;
        }
      }
    }
  }
}

const KernelEntry kSpaceToDepthEntry = {space_to_depth_check, space_to_depth_run};

}  // namespace mote
