// Fully connected (dense) layer: output = input * weights^T + bias, then clamp.
//   inputs:  0 input   [..., K]  treated as [B, K] with B = elements / K
//            1 weights [N, K]
//            2 bias    [N]       (optional)
//   output:  0         [B, N]    (any shape with B * N elements whose last dim is N)
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

struct FullyConnectedParams {
  float act_min, act_max;
};

void fully_connected_f32(const FullyConnectedParams& params, int32_t batches, int32_t in_features,
                         int32_t out_features, const float* input, const float* weights,
                         const float* bias, float* output);

Status fully_connected_f32_check(const OpContext& ctx);
void fully_connected_f32_run(const OpContext& ctx);
extern const KernelEntry kFullyConnectedF32Entry;

// Multiply-accumulates of one fully connected op of any dtype (the registry's macs column;
// host tools): output elements x K.
inline uint64_t fully_connected_macs(const OpContext& ctx) {
  return uint64_t{element_count(ctx.output_desc(0))} * ctx.input_desc(1).dims[1];  // weights [N, K]
}

// ---------------------------------------------------------------------------------------
// int8 (TFLite FULLY_CONNECTED: reference_integer_ops::FullyConnected when per-tensor,
// FullyConnectedPerChannel when per-channel).
//   inputs:  0 input   int8  any shape with B * K elements (B rows of K, row-major)
//            1 weights int8  [N, K]
//            2 bias    int32 [N]     (optional)
//   output:  0         int8  any shape with B * N elements whose last dim is N
//   acc = sum_k (weights[n, k] - filter_zero_point) * (input[b, k] - input_zero_point)
//         (int32, wrapping) + bias[n]
//   out = clamp(multiply_by_quantized_multiplier(acc, multiplier[c], shift[c])
//               + output_zero_point, act_min, act_max)
//   with c = n when channel_count == N, c = 0 when channel_count == 1.
// Params: FullyConnectedS8Params, then int32 multiplier[channel_count], then int32
// shift[channel_count]. The compiler computes:
//   per-tensor weights: channel_count = 1,
//     fully_connected_multiplier(input_scale, filter_scale, output_scale)  (float product!)
//     filter_zero_point = the weights' zero point (TFLite expects 0)
//   per-channel weights: channel_count = N, filter_zero_point = 0,
//     conv_channel_multiplier(input_scale, filter_scale[n], output_scale)  (double product)
//   act_min, act_max = activation_range_quantized(.., -128, 127)
// check(): zero points and range in int8, shifts in [-31, 30].
struct FullyConnectedS8Params {
  int32_t input_zero_point;
  int32_t filter_zero_point;
  int32_t output_zero_point;
  int32_t act_min, act_max;
  uint32_t channel_count;  // 1 (per-tensor) or N (per-channel)
};

void fully_connected_s8(const FullyConnectedS8Params& params, const int32_t* multipliers,
                        const int32_t* shifts, int32_t batches, int32_t in_features,
                        int32_t out_features, const int8_t* input, const int8_t* weights,
                        const int32_t* bias, int8_t* output);

Status fully_connected_s8_check(const OpContext& ctx);
void fully_connected_s8_run(const OpContext& ctx);
extern const KernelEntry kFullyConnectedS8Entry;

// Armv7E-M DSP variant (fully_connected_s8__dsp.cc): same inputs, params and results as
// fully_connected_s8 for every shape. Scratch: fully_connected_s8__dsp_scratch_bytes(K)
// bytes, 4-byte aligned: the input row expanded to int16 (2 * K bytes rounded down to a
// multiple of 8) when K <= 1024, none for longer rows (widened on the fly).
uint32_t fully_connected_s8__dsp_scratch_bytes(int32_t in_features);
void fully_connected_s8__dsp(const FullyConnectedS8Params& params, const int32_t* multipliers,
                             const int32_t* shifts, int32_t batches, int32_t in_features,
                             int32_t out_features, const int8_t* input, const int8_t* weights,
                             const int32_t* bias, int8_t* output, uint32_t* scratch);

Status fully_connected_s8__dsp_check(const OpContext& ctx);
void fully_connected_s8__dsp_run(const OpContext& ctx);
extern const KernelEntry kFullyConnectedS8DspEntry;

// Helium (MVE, cortex-m55) variant of fully_connected_s8: same inputs, params and output
// bits for every valid input; portable elsewhere (kernels/isa/mve.h). No scratch.
uint32_t fully_connected_s8__mve_scratch_bytes();
void fully_connected_s8__mve(const FullyConnectedS8Params& params, const int32_t* multipliers,
                             const int32_t* shifts, int32_t batches, int32_t in_features,
                             int32_t out_features, const int8_t* input, const int8_t* weights,
                             const int32_t* bias, int8_t* output);
Status fully_connected_s8__mve_check(const OpContext& ctx);
void fully_connected_s8__mve_run(const OpContext& ctx);
extern const KernelEntry kFullyConnectedS8MveEntry;

// ARMv6-M (Cortex-M0/M0+) variant of fully_connected_s8: same inputs, params and output
// bits for every valid input (four output features per inner loop, requantization without
// a 64-bit multiply). Plain C++ with a Thumb-1 inner loop (kernels/isa/v6m.h). No scratch.
uint32_t fully_connected_s8__v6m_scratch_bytes();
void fully_connected_s8__v6m(const FullyConnectedS8Params& params, const int32_t* multipliers,
                             const int32_t* shifts, int32_t batches, int32_t in_features,
                             int32_t out_features, const int8_t* input, const int8_t* weights,
                             const int32_t* bias, int8_t* output);
Status fully_connected_s8__v6m_check(const OpContext& ctx);
void fully_connected_s8__v6m_run(const OpContext& ctx);
extern const KernelEntry kFullyConnectedS8V6mEntry;

// ---------------------------------------------------------------------------------------
// int16 activations with int8 weights (TFLite "16x8" FULLY_CONNECTED: the int16
// instantiations of reference_integer_ops::FullyConnected / FullyConnectedPerChannel).
//   inputs:  0 input   int16 any shape with B * K elements (zero point 0: not used)
//            1 weights int8  [N, K]
//            2 bias    int64 [N] or int32 [N] (optional; see accumulator)
//   output:  0         int16 any shape with B * N elements whose last dim is N
//                            (zero point 0)
//   term = (weights[n, k] - filter_zero_point) * input[b, k]   (exact in int32)
// accumulator == 64 (TFLite's default, int64 bias): acc = sum_k term in int64, + bias[n]
//   (wrapping), out = multiply_by_quantized_multiplier64(acc, multiplier[c], shift[c]).
// accumulator == 32 (TFLite uses it when the bias is int32, or there is no bias and the
//   op's quantized_bias_type is INT32): acc = sum_k term + bias[n] in wrapping int32,
//   out = multiply_by_quantized_multiplier(acc, multiplier[c], shift[c]).
// out is clamped to [act_min, act_max] (no output offset); c = n when channel_count == N,
// c = 0 when channel_count == 1.
// Params: FullyConnectedS16Params, then int32 multiplier[channel_count], then int32
// shift[channel_count]. The compiler computes them as for int8 (per-tensor: the float
// product of fully_connected_multiplier, filter_zero_point = the weights' zero point;
// per-channel: conv_channel_multiplier, filter_zero_point = 0) and
// act_min, act_max = activation_range_quantized(.., -32768, 32767).
// check(): bias dtype matches accumulator; filter zero point in int8; range in int16;
// shifts in [-31, 14] (64) or [-31, 30] (32).
struct FullyConnectedS16Params {
  int32_t filter_zero_point;
  int32_t accumulator;  // 64 or 32 (bits)
  int32_t act_min, act_max;
  uint32_t channel_count;  // 1 (per-tensor) or N (per-channel)
};

void fully_connected_s16(const FullyConnectedS16Params& params, const int32_t* multipliers,
                         const int32_t* shifts, int32_t batches, int32_t in_features,
                         int32_t out_features, const int16_t* input, const int8_t* weights,
                         const void* bias, int16_t* output);

Status fully_connected_s16_check(const OpContext& ctx);
void fully_connected_s16_run(const OpContext& ctx);
extern const KernelEntry kFullyConnectedS16Entry;

// Armv7E-M / Armv8-M DSP variant of fully_connected_s16 (SMLAD over the input row
// interleaved into int16 pairs once, see fully_connected_s16__dsp.cc): every shape,
// both accumulators, per-tensor or per-channel; same inputs, params and output bits.
// Portable elsewhere (kernels/isa/dsp.h). Scratch: 8 * ceil(in_features / 4) bytes,
// 4-aligned (check() verifies it).
uint32_t fully_connected_s16__dsp_scratch_bytes(int32_t in_features);
void fully_connected_s16__dsp(const FullyConnectedS16Params& params, const int32_t* multipliers,
                              const int32_t* shifts, int32_t batches, int32_t in_features,
                              int32_t out_features, const int16_t* input, const int8_t* weights,
                              const void* bias, int16_t* output, void* scratch);
Status fully_connected_s16__dsp_check(const OpContext& ctx);
void fully_connected_s16__dsp_run(const OpContext& ctx);
extern const KernelEntry kFullyConnectedS16DspEntry;
// Helium (MVE, cortex-m55) variant of fully_connected_s16: same inputs, params and output
// bits (both accumulators, per-tensor and per-channel, any filter zero point). No scratch.
// Portable elsewhere (kernels/isa/mve.h).
void fully_connected_s16__mve(const FullyConnectedS16Params& params, const int32_t* multipliers,
                              const int32_t* shifts, int32_t batches, int32_t in_features,
                              int32_t out_features, const int16_t* input, const int8_t* weights,
                              const void* bias, int16_t* output);
Status fully_connected_s16__mve_check(const OpContext& ctx);
void fully_connected_s16__mve_run(const OpContext& ctx);
extern const KernelEntry kFullyConnectedS16MveEntry;
// ARMv6-M (Cortex-M0/M0+) variant of fully_connected_s16: same inputs, params and output
// bits for every valid input (four output features per Thumb-1 inner loop, int32 runs of
// products, requantization without a 64-bit multiply where the accumulator fits int32).
// Portable elsewhere (kernels/isa/v6m.h). No scratch.
void fully_connected_s16__v6m(const FullyConnectedS16Params& params, const int32_t* multipliers,
                              const int32_t* shifts, int32_t batches, int32_t in_features,
                              int32_t out_features, const int16_t* input, const int8_t* weights,
                              const void* bias, int16_t* output);
Status fully_connected_s16__v6m_check(const OpContext& ctx);
void fully_connected_s16__v6m_run(const OpContext& ctx);
extern const KernelEntry kFullyConnectedS16V6mEntry;

// ---------------------------------------------------------------------------------------
// float32 for cores with a single-precision FPU (hard float), every shape the reference
// takes: its inputs and params, its sums in the same order (four output features of
// accumulators in registers), no scratch.
void fully_connected_f32__fpu(const FullyConnectedParams& params, int32_t batches, int32_t in_features,
                              int32_t out_features, const float* input, const float* weights, const float* bias,
                              float* output);
Status fully_connected_f32__fpu_check(const OpContext& ctx);
void fully_connected_f32__fpu_run(const OpContext& ctx);
extern const KernelEntry kFullyConnectedF32FpuEntry;

// Helium float (MVE-F, cortex-m55) variant of fully_connected_f32, every shape the
// reference takes: its inputs and params and its sums in the same order (vectors across
// output features, gathered weights), no scratch. Portable elsewhere
// (kernels/isa/mve_f32.h).
void fully_connected_f32__mve(const FullyConnectedParams& params, int32_t batches, int32_t in_features,
                              int32_t out_features, const float* input, const float* weights, const float* bias,
                              float* output);
Status fully_connected_f32__mve_check(const OpContext& ctx);
void fully_connected_f32__mve_run(const OpContext& ctx);
extern const KernelEntry kFullyConnectedF32MveEntry;

}  // namespace mote
