// Reference int8 average and max pooling, bit-exact with TFLite's
// reference_integer_ops::AveragePool / MaxPool (the shared integer implementation is in
// pool2d_integer.h).
#include "pool2d/pool2d.h"
#include "pool2d/pool2d_integer.h"

namespace mote {

void avg_pool2d_s8(const Pool2dS8Params& params, const Pool2dShape& shape, const int8_t* input,
                   int8_t* output) {
  pool2d_integer::average<int8_t>(params, shape, input, output);
}

void max_pool2d_s8(const Pool2dS8Params& params, const Pool2dShape& shape, const int8_t* input,
                   int8_t* output) {
  pool2d_integer::max<int8_t>(params, shape, input, output);
}

Status pool2d_s8_check(const OpContext& ctx) {
  // A window sum of int8 values must fit int32.
  return pool2d_integer::check<int8_t, Pool2dS8Params>(ctx, int64_t{1} << 24);
}

void avg_pool2d_s8_run(const OpContext& ctx) {
  pool2d_integer::run<int8_t, Pool2dS8Params, avg_pool2d_s8>(ctx);
}
void max_pool2d_s8_run(const OpContext& ctx) {
  pool2d_integer::run<int8_t, Pool2dS8Params, max_pool2d_s8>(ctx);
}

const KernelEntry kAvgPool2dS8Entry = {pool2d_s8_check, avg_pool2d_s8_run};
const KernelEntry kMaxPool2dS8Entry = {pool2d_s8_check, max_pool2d_s8_run};

}  // namespace mote
