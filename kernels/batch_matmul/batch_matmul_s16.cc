// Reference int16 batched matrix multiply (TFLite's BatchMatMul<int16_t, int64_t>):
// int64 accumulators, zero points 0, one per-tensor multiplier (batch_matmul.h).
#include "batch_matmul/batch_matmul_quant.h"

namespace mote {
namespace {

struct Int64Sum {
  static int64_t accumulate(int64_t acc, int64_t a, int64_t b) { return wrapping_add64(acc, wrapping_mul64(a, b)); }
};

}  // namespace

Status batch_matmul_s16_check(const OpContext& ctx) {
  return batch_matmul::check_quant<int16_t>(ctx, true, kMaxShift64);
}

void batch_matmul_s16_run(const OpContext& ctx) {
  const BatchMatMulQuantParams& p = ctx.params<BatchMatMulQuantParams>();
  struct Requant : Int64Sum {
    const BatchMatMulQuantParams& p;
    int32_t operator()(int64_t acc) const {
      return multiply_by_quantized_multiplier64(acc, p.output_multiplier, p.output_shift);
    }
  };
  batch_matmul::run_quant<int16_t, int64_t>(ctx, Requant{{}, p});
}

const KernelEntry kBatchMatMulS16Entry = {batch_matmul_s16_check, batch_matmul_s16_run};

}  // namespace mote
