// Numpy broadcasting geometry, shared by every binary elementwise kernel (any dtype).
#include "elementwise/elementwise.h"
#include "kernel_util.h"

namespace mote {

// Dims are right-aligned into kMaxRank slots; a slot where an input has size 1 gets
// stride 0, so that input's single element (or row, or plane) is reused along it.
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
  return true;
}

}  // namespace mote
