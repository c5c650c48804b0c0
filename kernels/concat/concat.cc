// Concatenation of any dtype. Viewing every tensor as [outer, dims[axis] * inner] (outer
// = product of the dims before axis, inner = product after), the output row o is the
// row o of each input in turn, so the op is outer * n memcpy calls.
#include <string.h>

#include "concat/concat.h"
#include "kernel_util.h"

namespace mote {

Status concat_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 1, 255, 1));
  if (ctx.params_bytes() != sizeof(ConcatParams)) return Status::kBadParams;
  const uint32_t axis = ctx.params<ConcatParams>().axis;
  const TensorDesc& out = ctx.output_desc(0);
  if (dtype_size(static_cast<DType>(out.dtype)) == 0) return Status::kBadParams;
  if (axis >= out.rank || !index_math_fits(out)) return Status::kBadParams;
  int64_t axis_sum = 0;
  for (uint32_t k = 0; k < ctx.input_count(); ++k) {
    // Every input is required (check_io only guarantees the first).
    if (!ctx.has_input(k)) return Status::kBadOp;
    const TensorDesc& in = ctx.input_desc(k);
    if (in.dtype != out.dtype || in.rank != out.rank) return Status::kBadParams;
    for (uint32_t i = 0; i < out.rank; ++i) {
      if (i != axis && in.dims[i] != out.dims[i]) return Status::kBadParams;
    }
    axis_sum += in.dims[axis];
  }
  if (axis_sum != out.dims[axis]) return Status::kBadParams;
  return Status::kOk;
}

void concat_run(const OpContext& ctx) {
  const TensorDesc& out = ctx.output_desc(0);
  const uint32_t axis = ctx.params<ConcatParams>().axis;
  uint32_t outer = 1;
  for (uint32_t i = 0; i < axis; ++i) outer *= out.dims[i];
  uint32_t inner_bytes = dtype_size(static_cast<DType>(out.dtype));
  for (uint32_t i = axis + 1; i < out.rank; ++i) inner_bytes *= out.dims[i];
  if (outer == 0 || inner_bytes == 0) return;

  uint8_t* dst = static_cast<uint8_t*>(ctx.output_data(0));
  for (uint32_t o = 0; o < outer; ++o) {
    for (uint32_t k = 0; k < ctx.input_count(); ++k) {
      const uint32_t chunk = ctx.input_desc(k).dims[axis] * inner_bytes;
      memcpy(dst, static_cast<const uint8_t*>(ctx.input_data(k)) + o * chunk, chunk);
      dst += chunk;
    }
  }
}

const KernelEntry kConcatEntry = {concat_check, concat_run};

}  // namespace mote
