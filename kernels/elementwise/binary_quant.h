// Quantized add / sub / mul over a broadcast shape, templated on the element type
// (internal: included by binary_s8.cc and binary_s16.cc). Walks the output row by row
// like binary_f32.cc.
#pragma once

#include <stdint.h>

#include "elementwise/broadcast_walk.h"
#include "elementwise/elementwise.h"
#include "kernel_util.h"
#include "quant/quant_check.h"
#include "quant/quant_math.h"

namespace mote {
namespace binary_quant {

// One output element of quantized add (kSign = +1) or sub (kSign = -1).
template <int32_t kLeftShift, int32_t kSign>
struct AddSub {
  using Params = QuantAddSubParams;
  static int32_t apply(const Params& p, int32_t a, int32_t b) {
    const int32_t a_shifted = wrapping_sub(a, p.input1_zero_point) * (1 << kLeftShift);
    const int32_t b_shifted = wrapping_sub(b, p.input2_zero_point) * (1 << kLeftShift);
    const int32_t a_scaled =
        multiply_by_quantized_multiplier(a_shifted, p.input1_multiplier, p.input1_shift);
    const int32_t b_scaled =
        multiply_by_quantized_multiplier(b_shifted, p.input2_multiplier, p.input2_shift);
    const int32_t raw = kSign > 0 ? wrapping_add(a_scaled, b_scaled) : wrapping_sub(a_scaled, b_scaled);
    const int32_t out = wrapping_add(
        multiply_by_quantized_multiplier(raw, p.output_multiplier, p.output_shift),
        p.output_zero_point);
    return clamp_i32(out, p.act_min, p.act_max);
  }
};

struct Mul {
  using Params = QuantMulParams;
  static int32_t apply(const Params& p, int32_t a, int32_t b) {
    const int32_t product =
        wrapping_mul(wrapping_sub(a, p.input1_zero_point), wrapping_sub(b, p.input2_zero_point));
    const int32_t out = wrapping_add(
        multiply_by_quantized_multiplier(product, p.output_multiplier, p.output_shift),
        p.output_zero_point);
    return clamp_i32(out, p.act_min, p.act_max);
  }
};

template <typename T, typename Op>
void binary(const typename Op::Params& params, const BroadcastShape& shape, const T* a,
            const T* b, T* out) {
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
    const T* pa = a + a_offset;
    const T* pb = b + b_offset;
    for (int32_t x = 0; x < row; ++x) {
      *out++ = static_cast<T>(Op::apply(params, *pa, *pb));
      pa += a_step;
      pb += b_step;
    }
    advance_index(idx, shape.out_dims, kOuter);
  }
}

// Shapes and dtypes shared by every quantized binary kernel: a, b, out of type T that
// broadcast, params of exactly sizeof(P).
template <typename T, typename P>
Status check_shapes(const OpContext& ctx) {
  return check_broadcast_binary(ctx, IntRange<T>::kDType, IntRange<T>::kDType, sizeof(P));
}

// The parameter fields of quantized add / sub: zero points and range in T, every shift
// in [kMinShift, 0].
template <typename T>
Status check_add_sub_params(const QuantAddSubParams& p) {
  if (!valid_zero_point<T>(p.input1_zero_point) || !valid_zero_point<T>(p.input2_zero_point) ||
      !valid_zero_point<T>(p.output_zero_point) || !valid_quant_range<T>(p.act_min, p.act_max)) {
    return Status::kBadParams;
  }
  const int32_t shifts[3] = {p.input1_shift, p.input2_shift, p.output_shift};
  if (!shifts_in_range(shifts, 3, kMinShift, 0)) return Status::kBadParams;
  return Status::kOk;
}

template <typename T>
Status check_add_sub(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR((check_shapes<T, QuantAddSubParams>(ctx)));
  return check_add_sub_params<T>(ctx.params<QuantAddSubParams>());
}

template <typename T>
Status check_mul(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR((check_shapes<T, QuantMulParams>(ctx)));
  const QuantMulParams& p = ctx.params<QuantMulParams>();
  if (!valid_zero_point<T>(p.input1_zero_point) || !valid_zero_point<T>(p.input2_zero_point) ||
      !valid_zero_point<T>(p.output_zero_point) || !valid_quant_range<T>(p.act_min, p.act_max)) {
    return Status::kBadParams;
  }
  if (!valid_shift(p.output_shift)) return Status::kBadParams;
  return Status::kOk;
}

template <typename T, typename Op>
void run(const OpContext& ctx) {
  BroadcastShape shape;
  // Cannot fail: check() accepted the same descriptors.
  (void)make_broadcast_shape(ctx.input_desc(0), ctx.input_desc(1), ctx.output_desc(0), &shape);
  binary<T, Op>(ctx.params<typename Op::Params>(), shape, static_cast<const T*>(ctx.input_data(0)),
                static_cast<const T*>(ctx.input_data(1)), static_cast<T*>(ctx.output_data(0)));
}

}  // namespace binary_quant
}  // namespace mote
