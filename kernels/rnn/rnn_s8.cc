// rnn_s8: the integer RNN of rnn.h with int8 activations (rnn_integer.h; int32 sums).
#include "rnn/rnn.h"
#include "rnn/rnn_integer.h"

namespace mote {

Status rnn_s8_check(const OpContext& ctx) { return rnn_integer_check(ctx, DType::kInt8, DType::kInt32); }

void rnn_s8_run(const OpContext& ctx) { rnn_integer_run<int8_t, int32_t>(ctx); }

const KernelEntry kRnnS8Entry = {rnn_s8_check, rnn_s8_run};

}  // namespace mote
