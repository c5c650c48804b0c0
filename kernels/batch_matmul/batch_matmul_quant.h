// The integer batch_matmul kernels' shared walk and check (internal to
// kernels/batch_matmul/): one dot product per output element over k ascending, in the
// accumulator type Acc, requantized by Requant (batch_matmul.h has the arithmetic).
#pragma once

#include <stdint.h>

#include "batch_matmul/batch_matmul.h"
#include "batch_matmul/batch_matmul_shape.h"
#include "quant/quant_check.h"
#include "quant/quant_math.h"

namespace mote {
namespace batch_matmul {

template <typename T, typename Acc, typename Requant>
void run_quant(const OpContext& ctx, Requant requant) {
  const BatchMatMulQuantParams& p = ctx.params<BatchMatMulQuantParams>();
  const Shape s = make_shape(ctx.input_desc(0), ctx.input_desc(1), ctx.output_desc(0), p.adj_a, p.adj_b);
  for_each_batch(s, static_cast<const T*>(ctx.input_data(0)), static_cast<const T*>(ctx.input_data(1)),
                 static_cast<T*>(ctx.output_data(0)), [&](const T* a, const T* b, T* out) {
                   for (int32_t m = 0; m < s.m; ++m) {
                     const T* a_row = a + m * s.a_m_step;
                     for (int32_t n = 0; n < s.n; ++n) {
                       const T* b_col = b + n * s.b_n_step;
                       Acc acc = 0;
                       for (int32_t k = 0; k < s.k; ++k) {
                         const Acc a_v = static_cast<Acc>(a_row[k * s.a_k_step]) - p.a_zero_point;
                         const Acc b_v = static_cast<Acc>(b_col[k * s.b_k_step]) - p.b_zero_point;
                         acc = Requant::accumulate(acc, a_v, b_v);
                       }
                       *out++ = static_cast<T>(
                           clamp_i32(wrapping_add(requant(acc), p.output_zero_point), p.act_min, p.act_max));
                     }
                   }
                 });
}

// The checks both integer kernels share; `zero_points_zero` for int16.
template <typename T>
Status check_quant(const OpContext& ctx, bool zero_points_zero, int32_t max_shift) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 2, 2, 1));
  if (ctx.params_bytes() != sizeof(BatchMatMulQuantParams)) return Status::kBadParams;
  const BatchMatMulQuantParams& p = ctx.params<BatchMatMulQuantParams>();
  const TensorDesc& a = ctx.input_desc(0);
  const TensorDesc& b = ctx.input_desc(1);
  const TensorDesc& out = ctx.output_desc(0);
  const DType dtype = IntRange<T>::kDType;
  if (!has_dtype(a, dtype) || !has_dtype(b, dtype) || !has_dtype(out, dtype)) return Status::kBadParams;
  if (!valid_shapes(a, b, out, p.adj_a, p.adj_b)) return Status::kBadParams;
  if (!valid_zero_point<T>(p.a_zero_point) || !valid_zero_point<T>(p.b_zero_point) ||
      !valid_zero_point<T>(p.output_zero_point) || !valid_quant_range<T>(p.act_min, p.act_max)) {
    return Status::kBadParams;
  }
  if (zero_points_zero && (p.a_zero_point != 0 || p.b_zero_point != 0 || p.output_zero_point != 0)) {
    return Status::kBadParams;
  }
  if (p.output_multiplier < 0 || p.output_shift < kMinShift || p.output_shift > max_shift) return Status::kBadParams;
  return Status::kOk;
}

}  // namespace batch_matmul
}  // namespace mote
