// Reference int16 average and max pooling, bit-exact with the int16 overloads of TFLite's
// reference_integer_ops::AveragePool / MaxPool (the shared integer implementation is in
// pool2d_integer.h).
#include "pool2d/pool2d.h"
#include "pool2d/pool2d_integer.h"

namespace mote {

void avg_pool2d_s16(const Pool2dS16Params& params, const Pool2dShape& shape,
                    const int16_t* input, int16_t* output) {
  pool2d_integer::average<int16_t>(params, shape, input, output);
}

void max_pool2d_s16(const Pool2dS16Params& params, const Pool2dShape& shape,
                    const int16_t* input, int16_t* output) {
  pool2d_integer::max<int16_t>(params, shape, input, output);
}

// 65535 cells of -32768 sum to -2^31 + 32768, so the sum and its rounding (-/+ 32767)
// stay in int32. The max needs no bound.
Status avg_pool2d_s16_check(const OpContext& ctx) {
  return pool2d_integer::check<int16_t, Pool2dS16Params>(ctx, 65535);
}
Status max_pool2d_s16_check(const OpContext& ctx) {
  return pool2d_integer::check<int16_t, Pool2dS16Params>(ctx, INT64_MAX);
}

void avg_pool2d_s16_run(const OpContext& ctx) {
  pool2d_integer::run<int16_t, Pool2dS16Params, avg_pool2d_s16>(ctx);
}
void max_pool2d_s16_run(const OpContext& ctx) {
  pool2d_integer::run<int16_t, Pool2dS16Params, max_pool2d_s16>(ctx);
}

const KernelEntry kAvgPool2dS16Entry = {avg_pool2d_s16_check, avg_pool2d_s16_run};
const KernelEntry kMaxPool2dS16Entry = {max_pool2d_s16_check, max_pool2d_s16_run};

}  // namespace mote
