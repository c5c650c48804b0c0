// Strided slice of any dtype. The output is written in order; the innermost axis is a
// single memcpy when its stride is 1, else an element loop.
#include "strided_slice/strided_slice.h"

#include <stddef.h>
#include <string.h>

#include "kernel_util.h"

namespace mote {
namespace {

int32_t clamp_index(int32_t v, int32_t lo, int32_t hi) { return v < lo ? lo : (v > hi ? hi : v); }

}  // namespace

bool strided_slice_resolve(uint32_t rank, const int32_t* dims, const int32_t* begin,
                           const int32_t* end, const int32_t* strides, uint32_t begin_mask,
                           uint32_t end_mask, uint32_t shrink_axis_mask, bool offset,
                           StridedSliceParams* params) {
  if (rank > kMaxRank) return false;
  for (uint32_t i = 0; i < kMaxRank; ++i) {
    params->begin[i] = 0;
    params->stride[i] = 1;
    params->count[i] = 1;
  }
  for (uint32_t axis = 0; axis < rank; ++axis) {
    const int32_t size = dims[axis];
    const int32_t stride = strides[axis];
    if (stride == 0) return false;
    // StridedSliceStartForAxis.
    int32_t start = begin[axis];
    if (start < 0) start += size;
    start = stride > 0 ? clamp_index(start, 0, size) : clamp_index(start, -1, size - 1);
    if ((begin_mask >> axis & 1u) != 0) start = stride > 0 ? 0 : size - 1;
    // StridedSliceEndForAxis.
    int32_t stop;
    if ((shrink_axis_mask >> axis & 1u) != 0) {
      stop = start >= size ? start : start + 1;
    } else {
      stop = end[axis];
      if (offset) stop += start;
      if (stop < 0) stop += size;
      stop = stride > 0 ? clamp_index(stop, 0, size) : clamp_index(stop, -1, size - 1);
      if ((end_mask >> axis & 1u) != 0) stop = stride > 0 ? size : -1;
    }
    // Indices start, start + stride, .. while (stride > 0 ? < stop : > stop).
    int64_t count = 0;
    if (stride > 0 && stop > start) count = (int64_t{stop} - start + stride - 1) / stride;
    if (stride < 0 && stop < start) count = (int64_t{start} - stop - stride - 1) / -int64_t{stride};
    params->begin[axis] = start;
    params->stride[axis] = stride;
    params->count[axis] = static_cast<int32_t>(count);
  }
  return true;
}

Status strided_slice_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 1, 1, 1));
  if (ctx.params_bytes() != sizeof(StridedSliceParams)) return Status::kBadParams;
  const StridedSliceParams& p = ctx.params<StridedSliceParams>();
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  if (in.dtype != out.dtype || dtype_size(static_cast<DType>(in.dtype)) == 0) {
    return Status::kBadParams;
  }
  if (!index_math_fits(in) || !index_math_fits(out)) return Status::kBadParams;
  int64_t elements = 1;
  for (uint32_t i = 0; i < in.rank; ++i) {
    const int64_t count = p.count[i];
    const int64_t stride = p.stride[i];
    if (count < 0 || stride == 0) return Status::kBadParams;
    if (count > 0) {
      const int64_t first = p.begin[i];
      const int64_t last = first + (count - 1) * stride;
      if (first < 0 || first >= in.dims[i] || last < 0 || last >= in.dims[i]) {
        return Status::kBadParams;
      }
    }
    elements *= count;
  }
  if (elements != static_cast<int64_t>(element_count(out))) return Status::kBadParams;
  return Status::kOk;
}

void strided_slice_run(const OpContext& ctx) {
  const StridedSliceParams& p = ctx.params<StridedSliceParams>();
  const TensorDesc& in = ctx.input_desc(0);
  const ptrdiff_t element_bytes = dtype_size(static_cast<DType>(in.dtype));
  const uint8_t* input = static_cast<const uint8_t*>(ctx.input_data(0));
  uint8_t* output = static_cast<uint8_t*>(ctx.output_data(0));

  // Axes right-aligned to kMaxRank; the leading padding axes visit one index, 0.
  constexpr int32_t kOuter = kMaxRank - 1;
  const int32_t lead = kMaxRank - in.rank;
  int32_t count[kMaxRank];
  int32_t step[kMaxRank];  // input element offset between visited indices
  int32_t base = 0;        // input element offset of the first visited element
  int32_t dim_stride = 1;
  for (int32_t i = kMaxRank - 1; i >= 0; --i) {
    if (i < lead) {
      count[i] = 1;
      step[i] = 0;
      continue;
    }
    const int32_t axis = i - lead;
    count[i] = p.count[axis];
    // check() bounds begin and stride only for the indices actually visited.
    step[i] = count[i] > 1 ? p.stride[axis] * dim_stride : 0;
    if (count[i] > 0) base += p.begin[axis] * dim_stride;
    dim_stride *= static_cast<int32_t>(in.dims[axis]);
  }
  // Shorten the walk, keeping its order: axes that visit one index dropped, an axis
  // merged into the one inside it when the input continues it in the same step (a crop
  // of whole image rows is one run per row). Empty slices are walked as they are.
  int32_t elements = 1;
  for (uint32_t i = 0; i < kMaxRank; ++i) elements *= count[i];
  if (elements != 0) collapse_dims_right(count, step, static_cast<int32_t>(kMaxRank));
  int32_t rows = count[kOuter] == 0 ? 0 : 1;
  for (int32_t i = 0; i < kOuter; ++i) rows *= count[i];
  const int32_t row_count = count[kOuter];

  int32_t idx[kOuter] = {};
  for (int32_t r = 0; r < rows; ++r) {
    int32_t offset = base;
    for (int32_t i = 0; i < kOuter; ++i) offset += idx[i] * step[i];
    const uint8_t* src = input + static_cast<ptrdiff_t>(offset) * element_bytes;
    if (step[kOuter] == 1) {
      memcpy(output, src, static_cast<size_t>(row_count) * element_bytes);
      output += static_cast<ptrdiff_t>(row_count) * element_bytes;
    } else {
      for (int32_t x = 0; x < row_count; ++x, output += element_bytes) {
        memcpy(output, src + static_cast<ptrdiff_t>(x) * step[kOuter] * element_bytes,
               static_cast<size_t>(element_bytes));
      }
    }
    advance_index(idx, count, kOuter);
  }
}

const KernelEntry kStridedSliceEntry = {strided_slice_check, strided_slice_run};

}  // namespace mote
