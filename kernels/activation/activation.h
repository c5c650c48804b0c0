// Unary activations, elementwise, output shape == input shape (may run in place).
//   clamp:   out = min(max(x, min), max)   (ReLU: [0, inf], ReLU6: [0, 6], Clip)
//   sigmoid: out = 1 / (1 + exp(-x))
//   tanh:    out = tanh(x)
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

struct ClampParams {
  float min, max;
};

void clamp_f32(const ClampParams& params, uint32_t count, const float* input, float* output);
void sigmoid_f32(uint32_t count, const float* input, float* output);
void tanh_f32(uint32_t count, const float* input, float* output);

Status clamp_f32_check(const OpContext& ctx);
Status unary_f32_check(const OpContext& ctx);  // sigmoid, tanh: no params
void clamp_f32_run(const OpContext& ctx);
void sigmoid_f32_run(const OpContext& ctx);
void tanh_f32_run(const OpContext& ctx);
extern const KernelEntry kClampF32Entry;
extern const KernelEntry kSigmoidF32Entry;
extern const KernelEntry kTanhF32Entry;

// ---------------------------------------------------------------------------------------
// int8 sigmoid and tanh (TFLite LOGISTIC / TANH, reference_integer_ops::Logistic / Tanh).
// Output quantization is fixed by TFLite: sigmoid scale 1/256, zero point -128; tanh scale
// 1/128, zero point 0. For each element, x = input - input_zero_point:
//   x <= -input_range_radius: out = -128;  x >= input_range_radius: out = 127
//   else q = multiply_by_quantized_multiplier(x, input_multiplier, input_left_shift) (Q4.27)
//        sigmoid: out = clamp(rounding_divide_by_pot(logistic_q4(q), 23) - 128, -128, 127)
//        tanh:    out = clamp(rounding_divide_by_pot(tanh_q4(q), 24), -128, 127)
// (gemmlowp logistic / tanh, quant/fixed_point.h). The compiler fills the params with
// sigmoid_tanh_s8_params(input_scale, ..) (quant/quant_math.h).
// check(): zero point in int8, input_left_shift in [-31, 30], input_range_radius >= 0.
struct SigmoidTanhS8Params {
  int32_t input_zero_point;
  int32_t input_range_radius;
  int32_t input_multiplier;
  int32_t input_left_shift;
};

void sigmoid_s8(const SigmoidTanhS8Params& params, uint32_t count, const int8_t* input,
                int8_t* output);
void tanh_s8(const SigmoidTanhS8Params& params, uint32_t count, const int8_t* input,
             int8_t* output);

Status sigmoid_tanh_s8_check(const OpContext& ctx);
void sigmoid_s8_run(const OpContext& ctx);
void tanh_s8_run(const OpContext& ctx);
extern const KernelEntry kSigmoidS8Entry;
extern const KernelEntry kTanhS8Entry;

// ---------------------------------------------------------------------------------------
// int16 sigmoid and tanh (TFLite LOGISTIC / TANH on int16, reference_integer_ops::Logistic
// and Tanh as TensorFlow Lite Micro runs them): input and output zero point 0, output
// scale 2^-15 (Q0.15). out = lut_sigmoid_s16 / lut_tanh_s16(x, input_multiplier,
// input_left_shift) (quant/sigmoid_lut_s16.h). The compiler derives the pair as TFLite
// Micro's Prepare does, in TFLite's effective form: a power-of-two input scale TFLite
// takes as it is (2^-12 for sigmoid; 2^-12 or 2^-11 for tanh) gives (3 << k, 0) for
// scale 2^(k-12); any other scale s gives the largest shift (<= 31) keeping
// m = s * 3 * 4096 * 2^shift above 16383.5 (or the first one above it), multiplier
// trunc(m).
// check(): shapes and dtypes, input_multiplier in [1, 32767], input_left_shift in [0, 31].
struct SigmoidTanhS16Params {
  int32_t input_multiplier;
  int32_t input_left_shift;
};

void sigmoid_s16(const SigmoidTanhS16Params& params, uint32_t count, const int16_t* input,
                 int16_t* output);
void tanh_s16(const SigmoidTanhS16Params& params, uint32_t count, const int16_t* input,
              int16_t* output);

Status sigmoid_tanh_s16_check(const OpContext& ctx);
void sigmoid_s16_run(const OpContext& ctx);
void tanh_s16_run(const OpContext& ctx);
extern const KernelEntry kSigmoidS16Entry;
extern const KernelEntry kTanhS16Entry;

// ---------------------------------------------------------------------------------------
// int8 and int16 clamp: TFLite's quantized RELU, RELU6, RELU_N1_TO_1 and RELU_0_TO_1
// (reference_ops::ReluX, TFLite Micro's ReluQuantized): the input requantized to the
// output's scale, then clamped. For each element, x = input - input_zero_point:
//   out = clamp(output_zero_point + multiply_by_quantized_multiplier(x, multiplier, shift),
//               act_min, act_max)
// act_min/act_max are the real bounds quantized in the output's scale and clamped to the
// type (the compiler derives them as TFLite does). A clamp that keeps the input's
// quantized values (TFLite Micro's RELU6) has multiplier 2^30, shift 1 (exactly x) and
// output_zero_point = input_zero_point. check(): zero points in the type, shift in
// [-31, 30], multiplier >= 0, type min <= act_min <= act_max <= type max.
struct ClampQuantParams {
  int32_t input_zero_point;
  int32_t output_zero_point;
  int32_t multiplier, shift;
  int32_t act_min, act_max;
};

void clamp_s8(const ClampQuantParams& params, uint32_t count, const int8_t* input,
              int8_t* output);
void clamp_s16(const ClampQuantParams& params, uint32_t count, const int16_t* input,
               int16_t* output);

Status clamp_s8_check(const OpContext& ctx);
Status clamp_s16_check(const OpContext& ctx);
void clamp_s8_run(const OpContext& ctx);
void clamp_s16_run(const OpContext& ctx);
extern const KernelEntry kClampS8Entry;
extern const KernelEntry kClampS16Entry;

}  // namespace mote
