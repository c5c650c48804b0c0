// Gather of any dtype. Input 0 is viewed as [batch, outer, axis, inner] and the indices
// as [batch, coords]; each (batch, outer, coord) copies one run of inner elements.
#include "gather/gather.h"

#include <string.h>

#include "kernel_util.h"

namespace mote {
namespace {

// The view's sizes (elements), from the tensors check() accepted.
struct GatherSizes {
  uint32_t batch = 1, outer = 1, axis = 1, inner = 1, coords = 1;
};

GatherSizes gather_sizes(const TensorDesc& in, const TensorDesc& indices, const GatherParams& p) {
  GatherSizes s;
  for (uint32_t i = 0; i < p.batch_dims; ++i) s.batch *= in.dims[i];
  for (uint32_t i = p.batch_dims; i < p.axis; ++i) s.outer *= in.dims[i];
  s.axis = in.dims[p.axis];
  for (uint32_t i = p.axis + 1; i < in.rank; ++i) s.inner *= in.dims[i];
  for (uint32_t i = p.batch_dims; i < indices.rank; ++i) s.coords *= indices.dims[i];
  return s;
}

}  // namespace

Status gather_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 2, 2, 1));
  if (ctx.params_bytes() != sizeof(GatherParams)) return Status::kBadParams;
  const GatherParams& p = ctx.params<GatherParams>();
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& indices = ctx.input_desc(1);
  const TensorDesc& out = ctx.output_desc(0);
  if (in.dtype != out.dtype || dtype_size(static_cast<DType>(in.dtype)) == 0) return Status::kBadParams;
  if (!has_dtype(indices, DType::kInt32) && !has_dtype(indices, DType::kInt64)) return Status::kBadParams;
  if (p.negative_from_end > 1) return Status::kBadParams;
  if (p.axis >= in.rank || p.batch_dims > p.axis || p.batch_dims > indices.rank) return Status::kBadParams;
  if (!index_math_fits(in) || !index_math_fits(indices) || !index_math_fits(out)) return Status::kBadParams;
  // The output's dims: input dims before axis, the indices' own dims, input dims after.
  const uint32_t rank = p.axis + (indices.rank - p.batch_dims) + (in.rank - p.axis - 1);
  if (out.rank != rank) return Status::kBadParams;
  uint32_t k = 0;
  for (uint32_t i = 0; i < p.batch_dims; ++i)
    if (indices.dims[i] != in.dims[i]) return Status::kBadParams;
  for (uint32_t i = 0; i < p.axis; ++i)
    if (out.dims[k++] != in.dims[i]) return Status::kBadParams;
  for (uint32_t i = p.batch_dims; i < indices.rank; ++i)
    if (out.dims[k++] != indices.dims[i]) return Status::kBadParams;
  for (uint32_t i = p.axis + 1; i < in.rank; ++i)
    if (out.dims[k++] != in.dims[i]) return Status::kBadParams;
  return Status::kOk;
}

void gather_run(const OpContext& ctx) {
  const GatherParams& p = ctx.params<GatherParams>();
  const TensorDesc& in = ctx.input_desc(0);
  const GatherSizes s = gather_sizes(in, ctx.input_desc(1), p);
  const size_t run_bytes = static_cast<size_t>(s.inner) * dtype_size(static_cast<DType>(in.dtype));
  const uint8_t* input = static_cast<const uint8_t*>(ctx.input_data(0));
  const TensorDesc& index_desc = ctx.input_desc(1);
  const bool wide = has_dtype(index_desc, DType::kInt64);
  const int32_t* indices32 = static_cast<const int32_t*>(ctx.input_data(1));
  const int64_t* indices64 = static_cast<const int64_t*>(ctx.input_data(1));
  uint8_t* output = static_cast<uint8_t*>(ctx.output_data(0));
  for (uint32_t b = 0; b < s.batch; ++b) {
    for (uint32_t o = 0; o < s.outer; ++o) {
      const uint8_t* slab = input + static_cast<size_t>(b * s.outer + o) * s.axis * run_bytes;
      for (uint32_t c = 0; c < s.coords; ++c, output += run_bytes) {
        const uint32_t k = b * s.coords + c;
        int64_t index = wide ? indices64[k] : indices32[k];
        if (index < 0 && p.negative_from_end != 0) index += s.axis;
        if (index < 0 || index >= s.axis) {
          memset(output, 0, run_bytes);
        } else {
          memcpy(output, slab + static_cast<size_t>(index) * run_bytes, run_bytes);
        }
      }
    }
  }
}

const KernelEntry kGatherEntry = {gather_check, gather_run};

}  // namespace mote
