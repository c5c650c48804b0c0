// GatherNd of any dtype: each index row names one slice of input 0 (its leading n
// coordinates), copied as one run of bytes.
#include "gather_nd/gather_nd.h"

#include <string.h>

#include "kernel_util.h"

namespace mote {

Status gather_nd_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 2, 2, 1));
  if (ctx.params_bytes() != 0) return Status::kBadParams;
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& indices = ctx.input_desc(1);
  const TensorDesc& out = ctx.output_desc(0);
  if (in.dtype != out.dtype || dtype_size(static_cast<DType>(in.dtype)) == 0) return Status::kBadParams;
  if (!has_dtype(indices, DType::kInt32) || indices.rank == 0) return Status::kBadParams;
  if (!index_math_fits(in) || !index_math_fits(indices) || !index_math_fits(out)) return Status::kBadParams;
  const uint32_t depth = indices.dims[indices.rank - 1];
  if (depth > in.rank || out.rank != indices.rank - 1 + in.rank - depth) return Status::kBadParams;
  uint32_t k = 0;
  for (uint32_t i = 0; i + 1 < indices.rank; ++i)
    if (out.dims[k++] != indices.dims[i]) return Status::kBadParams;
  for (uint32_t i = depth; i < in.rank; ++i)
    if (out.dims[k++] != in.dims[i]) return Status::kBadParams;
  return Status::kOk;
}

void gather_nd_run(const OpContext& ctx) {
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& index_desc = ctx.input_desc(1);
  const uint32_t depth = index_desc.dims[index_desc.rank - 1];
  uint32_t rows = 1;
  for (uint32_t i = 0; i + 1 < index_desc.rank; ++i) rows *= index_desc.dims[i];
  uint32_t slice = 1;  // elements per slice: the dims after the addressed ones
  for (uint32_t i = depth; i < in.rank; ++i) slice *= in.dims[i];
  const size_t slice_bytes = static_cast<size_t>(slice) * dtype_size(static_cast<DType>(in.dtype));
  const uint8_t* input = static_cast<const uint8_t*>(ctx.input_data(0));
  const int32_t* indices = static_cast<const int32_t*>(ctx.input_data(1));
  uint8_t* output = static_cast<uint8_t*>(ctx.output_data(0));
  for (uint32_t r = 0; r < rows; ++r, output += slice_bytes) {
    // Row-major slice number of the coordinates, or a miss.
    uint32_t position = 0;
    bool inside = true;
    for (uint32_t j = 0; j < depth; ++j) {
      const int32_t c = indices[r * depth + j];
      inside = inside && c >= 0 && static_cast<uint32_t>(c) < in.dims[j];
      position = position * in.dims[j] + (inside ? static_cast<uint32_t>(c) : 0u);
    }
    if (inside) {
      memcpy(output, input + static_cast<size_t>(position) * slice_bytes, slice_bytes);
    } else {
      memset(output, 0, slice_bytes);
    }
  }
}

const KernelEntry kGatherNdEntry = {gather_nd_check, gather_nd_run};

}  // namespace mote
