// gru_s8: the integer GRU of gru.h with int8 activations (gru_integer.h; int32 sums).
#include "gru/gru.h"
#include "gru/gru_integer.h"

namespace mote {

Status gru_s8_check(const OpContext& ctx) { return gru_integer_check(ctx, DType::kInt8, DType::kInt32); }

void gru_s8_run(const OpContext& ctx) { gru_integer_run<int8_t, int32_t>(ctx); }

const KernelEntry kGruS8Entry = {gru_s8_check, gru_s8_run};

}  // namespace mote
