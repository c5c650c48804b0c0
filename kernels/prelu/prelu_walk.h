// The broadcast walk of the PReLU kernels (internal to kernels/prelu/): output element
// by element in order, x and alpha at their broadcast positions.
#pragma once

#include <stdint.h>

#include "elementwise/elementwise.h"
#include "kernel_util.h"

namespace mote {
namespace prelu_walk {

// PReLU has at most 4 dimensions (TFLite's 4-D kernel).
inline bool valid_shapes(const OpContext& ctx, BroadcastShape* shape) {
  const TensorDesc& x = ctx.input_desc(0);
  const TensorDesc& alpha = ctx.input_desc(1);
  const TensorDesc& out = ctx.output_desc(0);
  return x.rank <= 4 && alpha.rank <= 4 && make_broadcast_shape(x, alpha, out, shape);
}

// out[i] = f(x at i, alpha at i) over the broadcast shape.
template <typename TX, typename TA, typename F>
void walk(const BroadcastShape& shape, const TX* x, const TA* alpha, TX* out, F f) {
  constexpr int32_t kOuter = kMaxRank - 1;
  const int32_t row = shape.out_dims[kOuter];
  int32_t rows = 1;
  for (int32_t i = 0; i < kOuter; ++i) rows *= shape.out_dims[i];
  int32_t idx[kOuter] = {};
  for (int32_t r = 0; r < rows; ++r) {
    int32_t x_offset = 0;
    int32_t a_offset = 0;
    for (int32_t i = 0; i < kOuter; ++i) {
      x_offset += idx[i] * shape.a_strides[i];
      a_offset += idx[i] * shape.b_strides[i];
    }
    for (int32_t c = 0; c < row; ++c) {
      *out++ = f(x[x_offset + c * shape.a_strides[kOuter]], alpha[a_offset + c * shape.b_strides[kOuter]]);
    }
    advance_index(idx, shape.out_dims, kOuter);
  }
}

}  // namespace prelu_walk
}  // namespace mote
