// GELU, elementwise (ONNX Gelu, TFLite GELU; PyTorch's nn.GELU, which the ONNX importer
// fuses from its exported Div/Erf/Add/Mul/Mul or Pow-free tanh pattern). Input 0 and
// output 0 have one shape and dtype; each element is read before it is written (may run
// in place).
//
// float32 (GeluF32Params.approximate):
//   0: out = 0.5f * x * (1 + erff(x * (1 / sqrt(2))))
//   1: out = 0.5f * x * (1 + tanhf(sqrt(2 / pi) * (x + 0.044715f * x * x * x)))
// erff and tanhf come from the C library of the build.
//
// int8: a 256-entry table the compiler fills at compile time from the float function
// (gelu_s8_table below, as TFLite's int8 GELU builds its lookup table):
//   out = table[in + 128]
// check(): params are the 256 table bytes (int8), approximate 0 or 1 (float32).
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

struct GeluF32Params {
  int32_t approximate;  // 0: erf (exact), 1: tanh approximation
};

struct GeluS8Params {
  int8_t table[256];  // table[v + 128]: the output for input value v
};

float gelu_f32_value(bool approximate, float x);
void gelu_f32(const GeluF32Params& params, uint32_t count, const float* input, float* output);
void gelu_s8(const GeluS8Params& params, uint32_t count, const int8_t* input, int8_t* output);

// The int8 table, host only: for each v in [-128, 127],
//   x = input_scale * (v - input_zero_point), t = gelu_f32_value(approximate, x),
//   table[v + 128] = clamp(round(t / output_scale) + output_zero_point, -128, 127)
// (round half away from zero, in double).
void gelu_s8_table(bool approximate, float input_scale, int32_t input_zero_point, float output_scale,
                   int32_t output_zero_point, int8_t table[256]);

Status gelu_f32_check(const OpContext& ctx);
Status gelu_s8_check(const OpContext& ctx);
void gelu_f32_run(const OpContext& ctx);
void gelu_s8_run(const OpContext& ctx);
extern const KernelEntry kGeluF32Entry;
extern const KernelEntry kGeluS8Entry;

}  // namespace mote
