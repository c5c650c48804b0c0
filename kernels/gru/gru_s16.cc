// gru_s16: the integer GRU of gru.h with int16 activations (16x8; gru_integer.h, int64
// sums and TFLite's 64-bit requantization).
#include "gru/gru.h"
#include "gru/gru_integer.h"

namespace mote {

Status gru_s16_check(const OpContext& ctx) { return gru_integer_check(ctx, DType::kInt16, DType::kInt64); }

void gru_s16_run(const OpContext& ctx) { gru_integer_run<int16_t, int64_t>(ctx); }

const KernelEntry kGruS16Entry = {gru_s16_check, gru_s16_run};

}  // namespace mote
