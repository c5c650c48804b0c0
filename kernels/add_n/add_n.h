// TFLite's ADD_N as TensorFlow Lite Micro's add_n.cc runs it (reference_ops::AddN).
//   inputs 0..n-1  n >= 2, one shape and dtype (int8: one scale and zero point)
//   output 0       that shape and dtype
// add_n_f32 (no params): out[i] = ((0 + in0[i]) + in1[i]) + ... in input order.
// add_n_s8 (AddNS8Params): TFLite's integer ADD arithmetic with left shift 20, summed over
// the inputs; its accumulator starts, as TFLite's does, from the scaled input offset (the
// raw value 0 of one more input), not from 0:
//   scaled(v) = mbqm((input_offset + v) * 2^20, input_multiplier, input_shift)
//   acc = scaled(0) + scaled(in0[i]) + ... + scaled(in(n-1)[i])     (int32, wrapping)
//   out[i] = clamp(mbqm(acc, output_multiplier, output_shift) + output_offset, -128, 127)
// with input_offset = -input zero point and the multipliers of TFLite's ADD for equal
// input scales (quant_math.h add_multipliers). check(): the shapes and dtypes above,
// shifts in [kMinShift, 0], offsets within int8's zero points.
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

inline constexpr int32_t kAddNLeftShift = 20;

struct AddNS8Params {
  int32_t input_offset;  // -input zero point
  int32_t output_offset;
  int32_t input_multiplier;
  int32_t input_shift;
  int32_t output_multiplier;
  int32_t output_shift;
};

Status add_n_f32_check(const OpContext& ctx);
void add_n_f32_run(const OpContext& ctx);
Status add_n_s8_check(const OpContext& ctx);
void add_n_s8_run(const OpContext& ctx);

extern const KernelEntry kAddNF32Entry;
extern const KernelEntry kAddNS8Entry;

}  // namespace mote
