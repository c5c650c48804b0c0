// What the int16 ADD variants for two inputs of the output's shape (add_s16__dsp,
// add_s16__v6m) share: their check, their run entry, the swap of the inputs before
// their per-run exactness test, and that test's common part (internal to those files).
#pragma once

#include <stdint.h>

#include "elementwise/elementwise.h"
#include "kernel_util.h"
#include "quant/quant_math.h"

namespace mote {
namespace add_s16_same_shape {

// add_s16's check, plus both inputs of the output's shape and an int32 element count.
inline Status check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(add_sub_s16_check(ctx));
  const TensorDesc& out = ctx.output_desc(0);
  if (!same_shape(ctx.input_desc(0), out) || !same_shape(ctx.input_desc(1), out) ||
      element_count(out) > static_cast<uint32_t>(INT32_MAX)) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

using AddFunction = void (*)(const QuantAddSubParams& params, const int16_t* a, const int16_t* b,
                             int16_t* out, int32_t count);

template <AddFunction kAdd>
void run(const OpContext& ctx) {
  kAdd(ctx.params<QuantAddSubParams>(), static_cast<const int16_t*>(ctx.input_data(0)),
       static_cast<const int16_t*>(ctx.input_data(1)), static_cast<int16_t*>(ctx.output_data(0)),
       static_cast<int32_t>(element_count(ctx.output_desc(0))));
}

// Swaps the inputs (*a, *b and their parameters; addition commutes) when `swap` is true.
inline QuantAddSubParams ordered(const QuantAddSubParams& params, bool swap, const int16_t** a,
                                 const int16_t** b) {
  QuantAddSubParams p = params;
  if (!swap) return p;
  const int16_t* t = *a;
  *a = *b;
  *b = t;
  p.input1_zero_point = params.input2_zero_point;
  p.input1_multiplier = params.input2_multiplier;
  p.input1_shift = params.input2_shift;
  p.input2_zero_point = params.input1_zero_point;
  p.input2_multiplier = params.input1_multiplier;
  p.input2_shift = params.input1_shift;
  return p;
}

// The reference's rescaled input (a' or b') of int16 value x.
inline int32_t reference_scaled(int32_t x, int32_t multiplier, int32_t shift) {
  return multiply_by_quantized_multiplier(x * (1 << kAddSubLeftShiftS16), multiplier, shift);
}

// The fast loops' common preconditions: input zero points 0, positive multipliers, an
// output shift below 0. When they hold, every rescaling step is monotonic in the input
// value, so the reference's a' + b' ranges over [*raw_min, *raw_max], its values at the
// int16 extremes.
inline bool monotonic_raw_range(const QuantAddSubParams& p, int64_t* raw_min, int64_t* raw_max) {
  if (p.input1_zero_point != 0 || p.input2_zero_point != 0 || p.input1_multiplier <= 0 ||
      p.input2_multiplier <= 0 || p.output_multiplier <= 0 || p.output_shift >= 0) {
    return false;
  }
  *raw_min = int64_t{reference_scaled(-32768, p.input1_multiplier, p.input1_shift)} +
             reference_scaled(-32768, p.input2_multiplier, p.input2_shift);
  *raw_max = int64_t{reference_scaled(32767, p.input1_multiplier, p.input1_shift)} +
             reference_scaled(32767, p.input2_multiplier, p.input2_shift);
  return true;
}

}  // namespace add_s16_same_shape
}  // namespace mote
