// Batched matrix multiply with numpy broadcasting of the batch dimensions (ONNX MatMul
// when neither side is constant).
//   inputs:  0 A [..., M, K]   rank >= 2
//            1 B [..., K, N]   rank >= 2
//   output:  0   [broadcast(batch dims of A, B)..., M, N]
// Batch dims are right-aligned and broadcast like elementwise ops; ranks up to kMaxRank.
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

struct BatchMatMulParams {
  float act_min, act_max;
};

Status batch_matmul_f32_check(const OpContext& ctx);
void batch_matmul_f32_run(const OpContext& ctx);
extern const KernelEntry kBatchMatMulF32Entry;

// Multiply-accumulates of one op (the registry's macs column; host tools): output
// elements x K.
inline uint64_t batch_matmul_macs(const OpContext& ctx) {
  const TensorDesc& a = ctx.input_desc(0);  // [..., M, K]
  return uint64_t{element_count(ctx.output_desc(0))} * a.dims[a.rank - 1];
}

}  // namespace mote
