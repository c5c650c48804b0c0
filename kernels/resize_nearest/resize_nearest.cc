// Nearest-neighbour resize: for each output row the source input row, then for each
// output column one memcpy of the source pixel's C elements.
#include "resize_nearest/resize_nearest.h"

#include <string.h>

#include "kernel_util.h"

namespace mote {
namespace {

// The params: source_row[OH] then source_col[OW] (int32, 4-aligned as every params blob).
const int32_t* source_rows(const OpContext& ctx) { return &ctx.params<int32_t>(); }

bool all_below(const int32_t* values, uint32_t count, uint32_t limit) {
  for (uint32_t i = 0; i < count; ++i)
    if (values[i] < 0 || static_cast<uint32_t>(values[i]) >= limit) return false;
  return true;
}

}  // namespace

// dims: N, H, W, C of the input.
void resize_nearest(const int32_t dims[4], int32_t out_height, int32_t out_width,
                    uint32_t element_bytes, const int32_t* source_row, const int32_t* source_col,
                    const uint8_t* input, uint8_t* output) {
  const uint32_t pixel_bytes = static_cast<uint32_t>(dims[3]) * element_bytes;
  const uint32_t row_bytes = static_cast<uint32_t>(dims[2]) * pixel_bytes;
  const uint32_t image_bytes = static_cast<uint32_t>(dims[1]) * row_bytes;
  for (int32_t n = 0; n < dims[0]; ++n) {
    const uint8_t* image = input + static_cast<uint32_t>(n) * image_bytes;
    for (int32_t y = 0; y < out_height; ++y) {
      const uint8_t* row = image + static_cast<uint32_t>(source_row[y]) * row_bytes;
      for (int32_t x = 0; x < out_width; ++x) {
        memcpy(output, row + static_cast<uint32_t>(source_col[x]) * pixel_bytes, pixel_bytes);
        output += pixel_bytes;
      }
    }
  }
}

Status resize_nearest_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 1, 1, 1));
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  if (in.rank != 4 || out.rank != 4 || in.dtype != out.dtype) return Status::kBadParams;
  if (dtype_size(static_cast<DType>(in.dtype)) == 0) return Status::kBadParams;
  if (!index_math_fits(in) || !index_math_fits(out)) return Status::kBadParams;
  if (out.dims[0] != in.dims[0] || out.dims[3] != in.dims[3]) return Status::kBadParams;
  const uint64_t entries = uint64_t{out.dims[1]} + out.dims[2];
  if (ctx.params_bytes() != entries * sizeof(int32_t)) return Status::kBadParams;
  const int32_t* rows = source_rows(ctx);
  if (!all_below(rows, out.dims[1], in.dims[1]) || !all_below(rows + out.dims[1], out.dims[2], in.dims[2]))
    return Status::kBadParams;
  return Status::kOk;
}

void resize_nearest_run(const OpContext& ctx) {
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  const int32_t dims[4] = {static_cast<int32_t>(in.dims[0]), static_cast<int32_t>(in.dims[1]),
                           static_cast<int32_t>(in.dims[2]), static_cast<int32_t>(in.dims[3])};
  const int32_t* rows = source_rows(ctx);
  resize_nearest(dims, static_cast<int32_t>(out.dims[1]), static_cast<int32_t>(out.dims[2]),
                 dtype_size(static_cast<DType>(in.dtype)), rows, rows + out.dims[1],
                 static_cast<const uint8_t*>(ctx.input_data(0)), static_cast<uint8_t*>(ctx.output_data(0)));
}

const KernelEntry kResizeNearestEntry = {resize_nearest_check, resize_nearest_run};

}  // namespace mote
