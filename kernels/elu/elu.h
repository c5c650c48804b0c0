// ELU, elementwise (TFLite ELU, alpha 1): out = x < 0 ? exp(x) - 1 : x. Input 0 and
// output 0 have one shape and dtype; each element is read before it is written (may run
// in place).
//
// float32 (reference_ops::Elu): out = x < 0 ? expm1f(x) : x.
//
// int8 (TensorFlow Lite Micro's ELU): a 256-entry table the compiler fills at compile
// time exactly as TFLM's Prepare does (elu_s8_table, quant/quant_math.h):
//   out = table[in + 128]
// check(): params are the 256 table bytes.
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

struct EluS8Params {
  int8_t table[256];  // table[v + 128]: the output for input value v
};

void elu_f32(uint32_t count, const float* input, float* output);
void elu_s8(const EluS8Params& params, uint32_t count, const int8_t* input, int8_t* output);

Status elu_s8_check(const OpContext& ctx);
void elu_f32_run(const OpContext& ctx);
void elu_s8_run(const OpContext& ctx);
extern const KernelEntry kEluF32Entry;
extern const KernelEntry kEluS8Entry;

}  // namespace mote
