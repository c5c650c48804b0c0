// Batched matrix multiply with numpy broadcasting of the batch dimensions (ONNX MatMul
// when neither side is constant, TFLite BATCH_MATMUL).
//   inputs:  0 A [..., M, K], or [..., K, M] read transposed when adj_a   rank >= 2
//            1 B [..., K, N], or [..., N, K] read transposed when adj_b   rank >= 2
//   output:  0   [broadcast(batch dims of A, B)..., M, N]
// Batch dims are right-aligned and broadcast like elementwise ops; ranks up to kMaxRank.
// adj_a / adj_b (0 or 1; TFLite's adj_x / adj_y) swap the operand's last two dims as
// the kernel reads it: nothing is copied. Every output element is a sum over k in
// ascending order, as TFLite's reference BatchMatMul accumulates.
//
// batch_matmul_f32 (BatchMatMulParams): the float sum from 0, clamped to
//   [act_min, act_max].
// batch_matmul_s8 (BatchMatMulQuantParams; TFLite's int8 BatchMatMul with int32
//   accumulators, which wrap):
//     acc = sum_k (a[m, k] - a_zero_point) * (b[k, n] - b_zero_point)
//     out = clamp(multiply_by_quantized_multiplier(acc, output_multiplier, output_shift)
//                 + output_zero_point, act_min, act_max)
//   multiplier = quantize_multiplier(s_a * s_b (float) / s_out) as TFLM's
//   GetQuantizedConvolutionMultipler. check(): zero points and range in int8, shift in
//   [-31, 30].
// batch_matmul_s16 (BatchMatMulQuantParams; TFLite's int16 BatchMatMul, int64
//   accumulators, every zero point 0 as TFLM requires): acc as above in int64,
//   out = clamp(multiply_by_quantized_multiplier64(acc, ...), act_min, act_max).
//   check(): zero points 0, range in int16, shift in [-31, 14].
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

struct BatchMatMulParams {
  float act_min, act_max;
  int32_t adj_a, adj_b;
};

struct BatchMatMulQuantParams {
  int32_t adj_a, adj_b;
  int32_t a_zero_point, b_zero_point, output_zero_point;
  int32_t output_multiplier, output_shift;
  int32_t act_min, act_max;
};

Status batch_matmul_f32_check(const OpContext& ctx);
void batch_matmul_f32_run(const OpContext& ctx);
extern const KernelEntry kBatchMatMulF32Entry;

Status batch_matmul_s8_check(const OpContext& ctx);
void batch_matmul_s8_run(const OpContext& ctx);
extern const KernelEntry kBatchMatMulS8Entry;

Status batch_matmul_s16_check(const OpContext& ctx);
void batch_matmul_s16_run(const OpContext& ctx);
extern const KernelEntry kBatchMatMulS16Entry;

// Multiply-accumulates of one op (the registry's macs column; host tools): output
// elements x K, K = A's elements per matrix / M (whichever of A's dims is M).
inline uint64_t batch_matmul_macs(const OpContext& ctx) {
  const TensorDesc& a = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  const uint64_t m = out.dims[out.rank - 2];
  if (m == 0) return 0;
  const uint64_t k = uint64_t{a.dims[a.rank - 2]} * a.dims[a.rank - 1] / m;
  return uint64_t{element_count(out)} * k;
}

}  // namespace mote
