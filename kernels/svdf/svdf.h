// SVDF: TFLite's singular value decomposition filter (builtin SVDF), bit-exact with TFLite
// Micro's reference kernels (micro/kernels/svdf_common.cc: EvalFloatSvdfReference and
// EvalIntegerSvdfReference).
//
//   inputs: 0 x               [B, I]     float32 | int8
//           1 weights_feature [F, I]     float32 | int8            (F = U * rank filters)
//           2 weights_time    [F, M]     float32 | int16 or int8   (M: memory size)
//           3 bias            [U]        float32 | int32, optional (absent: zeros)
//           4 state           [B, M * F] float32 | weights_time's dtype (the variable)
//   outputs: 0 y              [B, U]     float32 | int8
//            1 new state      [B, M * F] as input 4
//
// The state. TFLite's input 4 is a variable tensor that TFLite Micro keeps across Invoke()
// calls and its reference kernels (and CMSIS-NN's) update in place. Mote's importer makes
// it a persistent arena tensor (filled with TFLite Micro's reset value, zeros or the int8
// zero point, by the first run after load() or reset_state()); the kernel reads it and writes the state after
// this run to output 1, which the next op (a copy) writes back into the variable. So run
// n equals TFLite Micro's n-th Invoke() after AllocateTensors or ResetVariableTensors, and
// calling reset_state() before every run makes each run the first.
//
// Per batch b, with S the new state [B, F, M] (row-major, as TFLite's [B, M * F] holds
// it): S[b] shifts left by one element (S[b, f, m] = S[b, f, m + 1], the whole [B*F*M]
// buffer moving as one, as TFLite does), then for each filter f
//   float: S[b, f, M-1] = sum_i wf[f, i] * x[b, i]                   (float, i ascending)
//   int8:  S[b, f, M-1] = state_zp + clamp_T(mbqm(sum_i wf[f, i] * (x[b, i] - input_zp),
//                                                 feature_multiplier, feature_shift))
//   t[f] = sum_m wt[f, m] * (S[b, f, m] - state_zp)                  (m ascending; float:
//                                                                      state_zp = 0)
//   acc[u] = bias[u] (0 without bias) + t[u * rank + 0] + ... + t[u * rank + rank - 1]
//   float: y[b, u] = min(max(acc[u], act_min), act_max)  (the fused activation RELU,
//                    RELU_N1_TO_1 or RELU6; none: -inf, +inf)
//   int8:  y[b, u] = clamp8(mbqm(acc[u], output_multiplier, output_shift) + output_zp)
// where clamp_T clamps to weights_time's type (int16 or int8), mbqm is
// multiply_by_quantized_multiplier and int32 sums wrap. TFLite Micro's integer SVDF applies
// no fused activation (it reads none), and neither does svdf_s8.
//
// Params: SvdfF32Params / SvdfS8Params. The compiler computes, as TFLite Micro's Prepare:
//   feature = quantize_multiplier(double(float(x_scale * wf_scale / state_scale)))
//   output  = quantize_multiplier(double(float(state_scale * wt_scale / y_scale)))
// Scratch: none.
// check(): shapes and dtypes as above, rank >= 1 dividing F, zero points in their types'
// ranges, shifts in [-31, 30], act_min <= act_max.
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

struct SvdfF32Params {
  int32_t rank;
  float act_min, act_max;
};

struct SvdfS8Params {
  int32_t rank;
  int32_t feature_multiplier, feature_shift;  // x . wf -> state
  int32_t output_multiplier, output_shift;    // state . wt + bias -> y
  int32_t input_zero_point;
  int32_t state_zero_point;                   // in weights_time's type
  int32_t output_zero_point;
};

Status svdf_f32_check(const OpContext& ctx);
void svdf_f32_run(const OpContext& ctx);
Status svdf_s8_check(const OpContext& ctx);
void svdf_s8_run(const OpContext& ctx);
extern const KernelEntry kSvdfF32Entry;
extern const KernelEntry kSvdfS8Entry;

// Variants of svdf_s8 (svdf_s8_variant.h): the DSP extension (svdf_s8__dsp.cc) and Helium
// (svdf_s8__mve.cc). Same inputs, params, check and results as svdf_s8; no scratch.
Status svdf_s8__dsp_check(const OpContext& ctx);
void svdf_s8__dsp_run(const OpContext& ctx);
extern const KernelEntry kSvdfS8DspEntry;
Status svdf_s8__mve_check(const OpContext& ctx);
void svdf_s8__mve_run(const OpContext& ctx);
extern const KernelEntry kSvdfS8MveEntry;

// Multiply-accumulates of one op (the registry's macs column; host tools): per batch
// F * I (features) + F * M (time).
inline uint64_t svdf_macs(const OpContext& ctx) {
  const TensorDesc& x = ctx.input_desc(0);
  const TensorDesc& wf = ctx.input_desc(1);
  const TensorDesc& wt = ctx.input_desc(2);
  return uint64_t{x.dims[0]} * wf.dims[0] * (uint64_t{wf.dims[1]} + wt.dims[1]);
}

}  // namespace mote
