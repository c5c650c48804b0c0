// What the int16 MUL variants (mul_s16__dsp, mul_s16__mve, mul_s16__v6m) share: their
// check (mul_s16's, plus an int32 element count) and the broadcast walk that hands each
// output row to the variant's row loops (internal to kernels/elementwise).
//
// The walk is binary_quant::binary's: the output row by row over the innermost broadcast
// dim (make_broadcast_shape coalesces a same-shape MUL into one row), each input stepping
// by 1 or 0 along it. A row is passed to
//   Rows::pairs(k, a, b, out, n)     both inputs step 1
//   Rows::scalar(k, a, s, out, n)    one input steps 1, the other (value s) 0; MUL
//                                    commutes, so either input may be the stepping one
// and a row along which neither steps is one value, Rows::one(k, a, b), written n times;
// k is the variant's per-run constants (Rows::Constants, from Rows::make(params)). The row loops read
// element i of each input before they write output element i, and any later one after,
// so out may be an input of the output's shape (in place), as for the reference.
#pragma once

#include <stdint.h>

#include "elementwise/elementwise.h"
#include "kernel_util.h"

namespace mote {
namespace mul_s16_rows {

// mul_s16's check, plus an output element count that fits int32.
inline Status check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(mul_s16_check(ctx));
  if (element_count(ctx.output_desc(0)) > static_cast<uint32_t>(INT32_MAX)) return Status::kBadParams;
  return Status::kOk;
}

template <typename Rows>
void walk(const typename Rows::Constants& k, const BroadcastShape& shape, const int16_t* a,
          const int16_t* b, int16_t* out) {
  constexpr int32_t kOuter = kMaxRank - 1;
  const int32_t row = shape.out_dims[kOuter];
  const int32_t a_step = shape.a_strides[kOuter];
  const int32_t b_step = shape.b_strides[kOuter];
  int32_t rows = 1;
  for (int32_t i = 0; i < kOuter; ++i) rows *= shape.out_dims[i];
  int32_t idx[kOuter] = {};
  for (int32_t r = 0; r < rows; ++r, out += row) {
    int32_t a_offset = 0;
    int32_t b_offset = 0;
    for (int32_t i = 0; i < kOuter; ++i) {
      a_offset += idx[i] * shape.a_strides[i];
      b_offset += idx[i] * shape.b_strides[i];
    }
    const int16_t* pa = a + a_offset;
    const int16_t* pb = b + b_offset;
    if (a_step != 0 && b_step != 0) {
      Rows::pairs(k, pa, pb, out, row);
    } else if (a_step != 0) {
      Rows::scalar(k, pa, *pb, out, row);
    } else if (b_step != 0) {
      Rows::scalar(k, pb, *pa, out, row);
    } else {
      const int16_t v = Rows::one(k, *pa, *pb);
      for (int32_t x = 0; x < row; ++x) out[x] = v;
    }
    advance_index(idx, shape.out_dims, kOuter);
  }
}

// The op's tensors through walk<Rows>, with Rows::make(params) as the constants.
template <typename Rows>
void run(const OpContext& ctx) {
  BroadcastShape shape;
  // Cannot fail: check() accepted the same descriptors.
  (void)make_broadcast_shape(ctx.input_desc(0), ctx.input_desc(1), ctx.output_desc(0), &shape);
  const typename Rows::Constants k = Rows::make(ctx.params<QuantMulParams>());
  walk<Rows>(k, shape, static_cast<const int16_t*>(ctx.input_data(0)),
             static_cast<const int16_t*>(ctx.input_data(1)), static_cast<int16_t*>(ctx.output_data(0)));
}

}  // namespace mul_s16_rows
}  // namespace mote
