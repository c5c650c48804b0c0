// Numpy broadcasting geometry, shared by every binary elementwise kernel (any dtype).
#include "elementwise/elementwise.h"
#include "kernel_util.h"

namespace mote {

namespace {

// Merges neighbouring dims that both inputs walk as one (each input's stride on the outer
// dim is its stride on the inner one times the inner dim: both contiguous, or both
// broadcast) and drops output dims of 1, keeping the result right-aligned. The walk
// then runs the longest possible innermost rows: a same-shape operation is one row.
void coalesce(BroadcastShape* shape) {
  BroadcastShape merged{};
  int32_t j = kMaxRank;  // merged slots j .. kMaxRank - 1 are filled
  for (int32_t i = kMaxRank - 1; i >= 0; --i) {
    const int32_t dim = shape->out_dims[i];
    if (dim == 1) continue;  // its index is always 0: its strides never count
    if (j < kMaxRank && shape->a_strides[i] == merged.a_strides[j] * merged.out_dims[j] &&
        shape->b_strides[i] == merged.b_strides[j] * merged.out_dims[j]) {
      merged.out_dims[j] *= dim;
      continue;
    }
    --j;
    merged.out_dims[j] = dim;
    merged.a_strides[j] = shape->a_strides[i];
    merged.b_strides[j] = shape->b_strides[i];
  }
  for (int32_t i = 0; i < j; ++i) merged.out_dims[i] = 1;  // strides stay 0
  if (j == kMaxRank) merged.out_dims[kMaxRank - 1] = 1;   // one element
  *shape = merged;
}

}  // namespace

// Dims are right-aligned into kMaxRank slots; a slot where an input has size 1 gets
// stride 0, so that input's single element (or row, or plane) is reused along it. Then
// neighbouring dims walked alike are merged (coalesce).
bool make_broadcast_shape(const TensorDesc& a, const TensorDesc& b, const TensorDesc& out,
                          BroadcastShape* shape) {
  if (out.rank != (a.rank > b.rank ? a.rank : b.rank)) return false;
  if (!index_math_fits(a) || !index_math_fits(b) || !index_math_fits(out)) return false;
  int32_t a_dims[kMaxRank];
  int32_t b_dims[kMaxRank];
  right_aligned_dims(a, a_dims);
  right_aligned_dims(b, b_dims);
  right_aligned_dims(out, shape->out_dims);
  int32_t a_stride = 1;
  int32_t b_stride = 1;
  for (int32_t i = kMaxRank - 1; i >= 0; --i) {
    const int32_t a_dim = a_dims[i];
    const int32_t b_dim = b_dims[i];
    const int32_t out_dim = shape->out_dims[i];
    const bool ok = (a_dim == b_dim && out_dim == a_dim) || (a_dim == 1 && out_dim == b_dim) ||
                    (b_dim == 1 && out_dim == a_dim);
    if (!ok) return false;
    shape->a_strides[i] = a_dim == 1 ? 0 : a_stride;
    shape->b_strides[i] = b_dim == 1 ? 0 : b_stride;
    a_stride *= a_dim;
    b_stride *= b_dim;
  }
  coalesce(shape);
  return true;
}

}  // namespace mote
