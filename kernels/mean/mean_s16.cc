// Reference int16 mean over a set of axes, bit-exact with TFLite's
// QuantizedMeanOrSum<int16_t, int32_t> (the shared integer implementation is in
// mean_integer.h).
#include "mean/mean.h"
#include "mean/mean_integer.h"
#include "mean/mean_s16_runs.h"

namespace mote {

Status mean_s16_check(const OpContext& ctx) {
  return mean_integer::check<int16_t, MeanS16Params>(ctx);
}

void mean_s16_run(const OpContext& ctx) { mean_integer::run<int16_t, MeanS16Params>(ctx); }

bool mean_s16_single_runs(const TensorDesc& input, uint32_t axes_mask) {
  mean_s16_runs::Runs r;
  return mean_s16_runs::make_runs(input, axes_mask, &r);
}

const KernelEntry kMeanS16Entry = {mean_s16_check, mean_s16_run};

}  // namespace mote
