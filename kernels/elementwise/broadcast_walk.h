// The broadcast walk of the binary math, comparison and logical kernels (internal to
// kernels/): the output row by row over the innermost broadcast dim, each input
// advancing by its stride there (1, or 0 when it broadcasts along that dim). Output
// element i is written after input elements i are read and before any later one is, so
// a kernel using it may write over an input of the output's shape (and elements at least
// as wide). The float add, sub, mul and div (binary_f32.cc) use it too; the integer ones
// (binary_quant.h) keep their own copy of this loop: routed through here, int8 ADD on the
// Cortex-M0+ ran 1.6% more instructions (tests/models/instruction_counts.txt,
// simple_add_model).
#pragma once

#include <stdint.h>

#include "elementwise/elementwise.h"
#include "kernel_util.h"

namespace mote {

// out[i] = f(a[ia], b[ib]) over `shape` (make_broadcast_shape).
template <typename In, typename Out, typename F>
void broadcast_binary(const BroadcastShape& shape, const In* a, const In* b, Out* out, F f) {
  constexpr int32_t kOuter = kMaxRank - 1;
  const int32_t row = shape.out_dims[kOuter];
  const int32_t a_step = shape.a_strides[kOuter];
  const int32_t b_step = shape.b_strides[kOuter];
  int32_t rows = 1;
  for (int32_t i = 0; i < kOuter; ++i) rows *= shape.out_dims[i];

  int32_t idx[kOuter] = {};
  for (int32_t r = 0; r < rows; ++r) {
    int32_t a_offset = 0;
    int32_t b_offset = 0;
    for (int32_t i = 0; i < kOuter; ++i) {
      a_offset += idx[i] * shape.a_strides[i];
      b_offset += idx[i] * shape.b_strides[i];
    }
    const In* pa = a + a_offset;
    const In* pb = b + b_offset;
    if (a_step == 1 && b_step == 1) {
      // Both inputs walk the row (a same-shape operation is one such row): no strides to add.
      for (int32_t x = 0; x < row; ++x) *out++ = f(*pa++, *pb++);
    } else {
      for (int32_t x = 0; x < row; ++x) {
        *out++ = f(*pa, *pb);
        pa += a_step;
        pb += b_step;
      }
    }
    advance_index(idx, shape.out_dims, kOuter);
  }
}

// Unpacks a two-input op's context and walks it; check() must have accepted the
// descriptors (make_broadcast_shape cannot fail then).
template <typename In, typename Out, typename F>
void run_broadcast_binary(const OpContext& ctx, F f) {
  BroadcastShape shape;
  (void)make_broadcast_shape(ctx.input_desc(0), ctx.input_desc(1), ctx.output_desc(0), &shape);
  broadcast_binary(shape, static_cast<const In*>(ctx.input_data(0)), static_cast<const In*>(ctx.input_data(1)),
                   static_cast<Out*>(ctx.output_data(0)), f);
}

// The check every broadcasting binary kernel starts with: two inputs of dtype `in` that
// broadcast to one output of dtype `out`, params of exactly params_bytes.
inline Status check_broadcast_binary(const OpContext& ctx, DType in, DType out, uint32_t params_bytes) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 2, 2, 1));
  if (ctx.params_bytes() != params_bytes) return Status::kBadParams;
  const TensorDesc& a = ctx.input_desc(0);
  const TensorDesc& b = ctx.input_desc(1);
  const TensorDesc& y = ctx.output_desc(0);
  if (!has_dtype(a, in) || !has_dtype(b, in) || !has_dtype(y, out)) return Status::kBadParams;
  BroadcastShape shape;
  if (!make_broadcast_shape(a, b, y, &shape)) return Status::kBadParams;
  return Status::kOk;
}

}  // namespace mote
