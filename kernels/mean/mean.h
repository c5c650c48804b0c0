// Mean over a set of axes (ONNX ReduceMean, GlobalAveragePool in NHWC = mean over H, W).
//   input 0 [d0..d(r-1)], output 0 with element count = product of the kept dims
//   (keepdims or not is only a matter of the output's shape; the data is the same).
// axes_mask bit i set = reduce input axis i.
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

struct MeanParams {
  uint32_t axes_mask;
};

Status mean_f32_check(const OpContext& ctx);
void mean_f32_run(const OpContext& ctx);
extern const KernelEntry kMeanF32Entry;

// ---------------------------------------------------------------------------------------
// int8 mean (TFLite MEAN, reference_ops::QuantizedMeanOrSum as TFLM calls it), for any
// axes. With n = the number of reduced elements per output:
//   sum = sum of the raw int8 inputs (int32, wrapping)
//   out = clamp(multiply_by_quantized_multiplier(int32(sum - input_zero_point * n),
//               multiplier, shift) + output_zero_point, -128, 127)
// where multiplier, shift already include TFLite's run-time division by n:
//   mean_multiplier(input_scale, output_scale, n, ..)   (quant/quant_math.h)
// An empty reduction (n == 0) writes zeros, as TFLite does.
// check(): axes inside the rank, output element count == kept elements, zero points in
// int8, shift in [-31, 30].
struct MeanS8Params {
  uint32_t axes_mask;  // bit i set = reduce input axis i
  int32_t input_zero_point;
  int32_t output_zero_point;
  int32_t multiplier;
  int32_t shift;
};

Status mean_s8_check(const OpContext& ctx);
void mean_s8_run(const OpContext& ctx);
extern const KernelEntry kMeanS8Entry;

// ---------------------------------------------------------------------------------------
// int16 mean (TFLite MEAN on int16, the same QuantizedMeanOrSum with int32 sums): exactly
// the int8 arithmetic above with int16 data, zero points in int16 and the result clamped
// to [-32768, 32767]. TFLite Micro neither requires equal scales nor zero point 0 here;
// the compiler computes multiplier, shift with mean_multiplier() as for int8. The int32
// sum wraps like TFLite's (only past 65536 reduced elements).
// check(): as int8, with int16 zero points.
struct MeanS16Params {
  uint32_t axes_mask;  // bit i set = reduce input axis i
  int32_t input_zero_point;
  int32_t output_zero_point;
  int32_t multiplier;
  int32_t shift;
};

Status mean_s16_check(const OpContext& ctx);
void mean_s16_run(const OpContext& ctx);
extern const KernelEntry kMeanS16Entry;

// Whether the int16 MEAN variants take an input of this shape reduced over axes_mask:
// the kept elements one evenly strided run and each output's reduced elements another,
// either consecutive outputs side by side (the mean over H, W of NHWC) or each output's
// elements side by side (the innermost axes); at least one element and one output
// (mean_s16_runs.h). Host and device.
bool mean_s16_single_runs(const TensorDesc& input, uint32_t axes_mask);

// mean_s16__dsp, mean_s16__mve, mean_s16__v6m: the DSP-extension, Helium and ARMv6-M
// variants of mean_s16 for the shapes above (same params and output bits, no scratch).
// check(): mean_s16's, plus mean_s16_single_runs.
Status mean_s16__dsp_check(const OpContext& ctx);
void mean_s16__dsp_run(const OpContext& ctx);
extern const KernelEntry kMeanS16DspEntry;
Status mean_s16__mve_check(const OpContext& ctx);
void mean_s16__mve_run(const OpContext& ctx);
extern const KernelEntry kMeanS16MveEntry;
Status mean_s16__v6m_check(const OpContext& ctx);
void mean_s16__v6m_run(const OpContext& ctx);
extern const KernelEntry kMeanS16V6mEntry;

}  // namespace mote
