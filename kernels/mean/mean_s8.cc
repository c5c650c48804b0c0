// Reference int8 mean over a set of axes, bit-exact with TFLite's QuantizedMeanOrSum
// (the shared integer implementation is in mean_integer.h).
#include "mean/mean.h"
#include "mean/mean_integer.h"

namespace mote {

Status mean_s8_check(const OpContext& ctx) { return mean_integer::check<int8_t, MeanS8Params>(ctx); }

void mean_s8_run(const OpContext& ctx) { mean_integer::run<int8_t, MeanS8Params>(ctx); }

const KernelEntry kMeanS8Entry = {mean_s8_check, mean_s8_run};

}  // namespace mote
