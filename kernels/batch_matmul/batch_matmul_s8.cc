// Reference int8 batched matrix multiply (TFLite's BatchMatMul<int8_t, int32_t>):
// int32 accumulators that wrap, one per-tensor multiplier (batch_matmul.h).
#include "batch_matmul/batch_matmul_quant.h"

namespace mote {
namespace {

struct Int32Sum {
  static int32_t accumulate(int32_t acc, int32_t a, int32_t b) { return wrapping_add(acc, wrapping_mul(a, b)); }
};

}  // namespace

Status batch_matmul_s8_check(const OpContext& ctx) {
  return batch_matmul::check_quant<int8_t>(ctx, false, kMaxShift);
}

void batch_matmul_s8_run(const OpContext& ctx) {
  const BatchMatMulQuantParams& p = ctx.params<BatchMatMulQuantParams>();
  struct Requant : Int32Sum {
    const BatchMatMulQuantParams& p;
    int32_t operator()(int32_t acc) const {
      return multiply_by_quantized_multiplier(acc, p.output_multiplier, p.output_shift);
    }
  };
  batch_matmul::run_quant<int8_t, int32_t>(ctx, Requant{{}, p});
}

const KernelEntry kBatchMatMulS8Entry = {batch_matmul_s8_check, batch_matmul_s8_run};

}  // namespace mote
