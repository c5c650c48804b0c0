// Depth to space: for each output pixel, one memcpy of its C / b^2 channels from the
// channel block of its input pixel.
#include "depth_to_space/depth_to_space.h"

#include <string.h>

#include "kernel_util.h"

namespace mote {

Status depth_to_space_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 1, 1, 1));
  if (ctx.params_bytes() != sizeof(DepthToSpaceParams)) return Status::kBadParams;
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  if (in.rank != 4 || out.rank != 4 || in.dtype != out.dtype || dtype_size(static_cast<DType>(in.dtype)) == 0)
    return Status::kBadParams;
  if (!index_math_fits(in) || !index_math_fits(out)) return Status::kBadParams;
  const int64_t b = ctx.params<DepthToSpaceParams>().block_size;
  if (b < 1 || out.dims[0] != in.dims[0] || out.dims[1] != in.dims[1] * b || out.dims[2] != in.dims[2] * b ||
      in.dims[3] != out.dims[3] * b * b) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void depth_to_space_run(const OpContext& ctx) {
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  const uint32_t b = static_cast<uint32_t>(ctx.params<DepthToSpaceParams>().block_size);
  const uint32_t pixel_bytes = out.dims[3] * dtype_size(static_cast<DType>(out.dtype));
  const uint32_t in_pixel_bytes = pixel_bytes * b * b;
  const uint8_t* input = static_cast<const uint8_t*>(ctx.input_data(0));
  uint8_t* output = static_cast<uint8_t*>(ctx.output_data(0));
  for (uint32_t n = 0; n < out.dims[0]; ++n) {
    for (uint32_t y = 0; y < out.dims[1]; ++y) {
      const uint8_t* in_row = input + ((n * in.dims[1] + y / b) * in.dims[2]) * in_pixel_bytes;
      const uint8_t* block_row = in_row + (y % b) * b * pixel_bytes;
      for (uint32_t x = 0; x < out.dims[2]; ++x) {
        memcpy(output, block_row + (x / b) * in_pixel_bytes + (x % b) * pixel_bytes, pixel_bytes);
        output += pixel_bytes;
      }
    }
  }
}

const KernelEntry kDepthToSpaceEntry = {depth_to_space_check, depth_to_space_run};

}  // namespace mote
