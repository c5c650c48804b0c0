// Reductions over a set of axes besides MEAN (kernels/mean): TFLite's REDUCE_MAX,
// REDUCE_MIN and SUM, as TensorFlow Lite Micro's reduce kernels run them, and a float
// product.
//   input 0 [d0..d(r-1)], output 0 with element count = product of the kept dims
//   (keepdims is only a matter of the output's shape). axes_mask bit i set = reduce axis i.
// Every output element reduces its input elements in increasing input order (TFLite's
// ReduceGeneric walks the input in order), so float sums round as TFLite's do.
//
// reduce_max_f32, reduce_max_s8, reduce_min_f32, reduce_min_s8 (ReduceParams): start from
// the type's lowest (max) or highest (min) value -- for float32 -FLT_MAX / FLT_MAX, not
// infinities -- and replace it by an input x only when x > current (x < current): a NaN
// input never wins, an empty reduction writes the start value. int8 requires the input's
// quantization on the output (TFLM refuses anything else), so values are compared raw.
// sum_f32 (ReduceParams): float sum from 0 in input order; empty: 0.
// sum_s32 (ReduceParams; ONNX ReduceSum of integers, e.g. a count of true elements):
// int32 sum from 0, wrapping modulo 2^32 (the importer narrows int64 sums to it only
// where the sum provably fits); empty: 0.
// reduce_prod_f32 (ReduceParams; ONNX ReduceProd, TFLite REDUCE_PROD in float): float
// product from 1 in input order; empty: 1.
// sum_s8, sum_s16 (SumQuantParams; TFLite's QuantizedMeanOrSum with compute_sum): the
// integer MEAN's arithmetic (kernels/mean/mean_integer.h) with a multiplier, shift of
// input_scale / output_scale (quantize_multiplier), without the 1/n:
//   out = clamp(mbqm(int32(sum - input_zero_point * n), multiplier, shift)
//               + output_zero_point, type min, type max); empty: 0.
// check(): axes inside the rank, output element count == kept elements, matching dtypes,
// zero points in the type, shift in [-31, 30].
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

struct ReduceParams {
  uint32_t axes_mask;  // bit i set = reduce input axis i
};

struct SumQuantParams {
  uint32_t axes_mask;
  int32_t input_zero_point;
  int32_t output_zero_point;
  int32_t multiplier;
  int32_t shift;
};

Status reduce_max_f32_check(const OpContext& ctx);
void reduce_max_f32_run(const OpContext& ctx);
Status reduce_max_s8_check(const OpContext& ctx);
void reduce_max_s8_run(const OpContext& ctx);
Status reduce_min_f32_check(const OpContext& ctx);
void reduce_min_f32_run(const OpContext& ctx);
Status reduce_min_s8_check(const OpContext& ctx);
void reduce_min_s8_run(const OpContext& ctx);
Status sum_f32_check(const OpContext& ctx);
void sum_f32_run(const OpContext& ctx);
Status sum_s8_check(const OpContext& ctx);
void sum_s8_run(const OpContext& ctx);
Status sum_s16_check(const OpContext& ctx);
void sum_s16_run(const OpContext& ctx);

Status sum_s32_check(const OpContext& ctx);
void sum_s32_run(const OpContext& ctx);

Status reduce_prod_f32_check(const OpContext& ctx);
void reduce_prod_f32_run(const OpContext& ctx);

extern const KernelEntry kReduceMaxF32Entry;
extern const KernelEntry kReduceMaxS8Entry;
extern const KernelEntry kReduceMinF32Entry;
extern const KernelEntry kReduceMinS8Entry;
extern const KernelEntry kSumF32Entry;
extern const KernelEntry kSumS8Entry;
extern const KernelEntry kSumS16Entry;
extern const KernelEntry kReduceProdF32Entry;
extern const KernelEntry kSumS32Entry;

}  // namespace mote
