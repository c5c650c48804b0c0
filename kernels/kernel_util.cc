#include "kernel_util.h"

namespace mote {

Status check_io(const OpContext& ctx, uint32_t min_inputs, uint32_t max_inputs,
                uint32_t outputs) {
  const uint32_t inputs = ctx.input_count();
  if (inputs < min_inputs || inputs > max_inputs || ctx.output_count() != outputs) {
    return Status::kBadOp;
  }
  for (uint32_t i = 0; i < min_inputs; ++i) {
    if (!ctx.has_input(i)) return Status::kBadOp;
  }
  // Outputs follow the inputs in the io list, so has_input() sees them past input_count.
  for (uint32_t i = 0; i < outputs; ++i) {
    if (!ctx.has_input(inputs + i)) return Status::kBadOp;
  }
  return Status::kOk;
}

bool same_shape(const TensorDesc& a, const TensorDesc& b) {
  if (a.rank != b.rank) return false;
  for (uint32_t i = 0; i < a.rank; ++i) {
    if (a.dims[i] != b.dims[i]) return false;
  }
  return true;
}

Status check_resize_images(const OpContext& ctx, DType dtype) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 1, 1, 1));
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  if (in.rank != 4 || out.rank != 4 || !has_dtype(in, dtype) || !has_dtype(out, dtype)) return Status::kBadParams;
  if (!index_math_fits(in) || !index_math_fits(out)) return Status::kBadParams;
  if (out.dims[0] != in.dims[0] || out.dims[3] != in.dims[3]) return Status::kBadParams;
  return Status::kOk;
}

bool index_math_fits(const TensorDesc& t) {
  if (t.rank > kMaxRank) return false;
  int64_t product = 1;
  for (uint32_t i = 0; i < t.rank; ++i) {
    if (t.dims[i] != 0) product *= t.dims[i];
    if (product > INT32_MAX) return false;
  }
  return true;
}

bool valid_window(int64_t in, int64_t out, int64_t kernel, int64_t stride, int64_t dilation,
                  int64_t pad_begin, int64_t pad_end, bool allow_ceil) {
  if (kernel < 1 || stride < 1 || dilation < 1 || pad_begin < 0 || pad_end < 0) return false;
  // Bounds every coordinate and tap computation in the kernels (see taps_inside()).
  if (in + pad_begin + pad_end + stride + dilation > INT32_MAX) return false;
  if (dilation * (kernel - 1) + 1 > in + pad_begin + pad_end) return false;
  return out == window_output_size(in, kernel, stride, dilation, pad_begin, pad_end, false) ||
         (allow_ceil && out == window_output_size(in, kernel, stride, dilation, pad_begin, pad_end, true));
}

void right_aligned_dims(const TensorDesc& t, int32_t dims6[kMaxRank]) {
  const uint32_t lead = kMaxRank - t.rank;
  for (uint32_t i = 0; i < kMaxRank; ++i) {
    dims6[i] = i < lead ? 1 : static_cast<int32_t>(t.dims[i - lead]);
  }
}

}  // namespace mote
