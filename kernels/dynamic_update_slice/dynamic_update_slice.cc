// DynamicUpdateSlice of any dtype (TFLite Micro's dynamic_update_slice.cc): contract in
// dynamic_update_slice.h.
#include "dynamic_update_slice/dynamic_update_slice.h"

#include <string.h>

#include "kernel_util.h"

namespace mote {

Status dynamic_update_slice_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 3, 3, 1));
  if (ctx.params_bytes() != 0) return Status::kBadParams;
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& update = ctx.input_desc(1);
  const TensorDesc& indices = ctx.input_desc(2);
  const TensorDesc& out = ctx.output_desc(0);
  if (in.dtype != out.dtype || update.dtype != in.dtype || dtype_size(static_cast<DType>(in.dtype)) == 0) {
    return Status::kBadParams;
  }
  if (!has_dtype(indices, DType::kInt32) && !has_dtype(indices, DType::kInt64)) return Status::kBadParams;
  if (indices.rank != 1 || indices.dims[0] != in.rank || in.rank == 0 || update.rank != in.rank ||
      out.rank != in.rank) {
    return Status::kBadParams;
  }
  if (!index_math_fits(in) || !index_math_fits(update) || !index_math_fits(out)) return Status::kBadParams;
  for (uint32_t k = 0; k < in.rank; ++k)
    if (out.dims[k] != in.dims[k] || update.dims[k] > in.dims[k]) return Status::kBadParams;
  return Status::kOk;
}

void dynamic_update_slice_run(const OpContext& ctx) {
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& update = ctx.input_desc(1);
  const TensorDesc& index_desc = ctx.input_desc(2);
  const uint32_t rank = in.rank;
  const size_t element = dtype_size(static_cast<DType>(in.dtype));
  const uint8_t* operand = static_cast<const uint8_t*>(ctx.input_data(0));
  const uint8_t* source = static_cast<const uint8_t*>(ctx.input_data(1));
  uint8_t* output = static_cast<uint8_t*>(ctx.output_data(0));
  if (output != operand) memmove(output, operand, element_count(in) * element);
  const uint32_t count = element_count(update);
  if (count == 0) return;
  // Clamped starts and row-major strides (elements) of the output and the update.
  int64_t start[kMaxRank];
  uint32_t out_stride[kMaxRank], update_stride[kMaxRank];
  for (uint32_t k = 0; k < rank; ++k) {
    int64_t v;
    if (has_dtype(index_desc, DType::kInt64)) {
      memcpy(&v, static_cast<const uint8_t*>(ctx.input_data(2)) + 8 * k, 8);
    } else {
      int32_t w;
      memcpy(&w, static_cast<const uint8_t*>(ctx.input_data(2)) + 4 * k, 4);
      v = w;
    }
    const int64_t hi = static_cast<int64_t>(in.dims[k]) - update.dims[k];
    start[k] = v < 0 ? 0 : (v > hi ? hi : v);
  }
  out_stride[rank - 1] = update_stride[rank - 1] = 1;
  for (uint32_t k = rank - 1; k-- > 0;) {
    out_stride[k] = out_stride[k + 1] * in.dims[k + 1];
    update_stride[k] = update_stride[k + 1] * update.dims[k + 1];
  }
  // One row (the innermost dim) of the update at a time.
  const uint32_t row = update.dims[rank - 1];
  for (uint32_t first = 0; first < count; first += row) {
    uint32_t rest = first, at = 0;
    for (uint32_t k = 0; k < rank; ++k) {
      const uint32_t coord = rest / update_stride[k];
      rest %= update_stride[k];
      at += (static_cast<uint32_t>(start[k]) + coord) * out_stride[k];
    }
    memcpy(output + static_cast<size_t>(at) * element, source + static_cast<size_t>(first) * element, row * element);
  }
}

const KernelEntry kDynamicUpdateSliceEntry = {dynamic_update_slice_check, dynamic_update_slice_run};

}  // namespace mote
