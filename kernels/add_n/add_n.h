// TFLite's ADD_N as TensorFlow Lite Micro's add_n.cc runs it (reference_ops::AddN).
//   inputs 0..n-1  n >= 2, one shape and dtype (int8: one scale and zero point)
//   output 0       that shape and dtype
// add_n_f32 (no params): out[i] = ((0 + in0[i]) + in1[i]) + ... in input order.
// add_n_s8 (IntegerSumParams, quant/integer_sum.h): TFLite's int8 running sum over the
// inputs in order, the accumulator starting from the scaled input offset:
//   out[i] = output(scaled(0) + scaled(in0[i]) + ... + scaled(in(n-1)[i]))
// check(): the shapes and dtypes above, valid_integer_sum.
#pragma once

#include <stdint.h>

#include "mote/kernel.h"
#include "quant/integer_sum.h"

namespace mote {

Status add_n_f32_check(const OpContext& ctx);
void add_n_f32_run(const OpContext& ctx);
Status add_n_s8_check(const OpContext& ctx);
void add_n_s8_run(const OpContext& ctx);

extern const KernelEntry kAddNF32Entry;
extern const KernelEntry kAddNS8Entry;

}  // namespace mote
