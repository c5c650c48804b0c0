// rnn_s16: the integer RNN of rnn.h with int16 activations (16x8; rnn_integer.h, int64
// sums and TFLite's 64-bit requantization).
#include "rnn/rnn.h"
#include "rnn/rnn_integer.h"

namespace mote {

Status rnn_s16_check(const OpContext& ctx) { return rnn_integer_check(ctx, DType::kInt16, DType::kInt64); }

void rnn_s16_run(const OpContext& ctx) { rnn_integer_run<int16_t, int64_t>(ctx); }

const KernelEntry kRnnS16Entry = {rnn_s16_check, rnn_s16_run};

}  // namespace mote
