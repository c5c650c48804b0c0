// TFLite's CUMSUM as TensorFlow Lite Micro's cumsum.cc runs it (reference_ops::CumSum).
//   input 0   [d0 .. d(r-1)], r >= 1, float32 or int8
//   output 0  the input's shape and dtype
// Along `axis`, for every position of the other dims: output at axis index d is the sum
// of the inputs at j <= d (j < d when exclusive; j >= d / j > d when reverse), added from
// the start of the walk (index 0, or the last index when reverse) towards d.
// cumsum_f32 (CumsumParams): float accumulator from 0.
// cumsum_s8 (CumsumS8Params): TFLite's int8 running sum (quant/integer_sum.h), the
// accumulator starting from the scaled input offset; exclusive outputs the accumulator
// before adding the element (the first one is output(scaled(0))).
// check(): dtypes, the output's shape the input's, axis < rank, flags 0 or 1,
// valid_integer_sum.
#pragma once

#include <stdint.h>

#include "mote/kernel.h"
#include "quant/integer_sum.h"

namespace mote {

struct CumsumParams {
  uint32_t axis;
  uint8_t exclusive;  // 0 or 1
  uint8_t reverse;    // 0 or 1
  uint8_t reserved[2];
};

struct CumsumS8Params {
  CumsumParams cumsum;
  IntegerSumParams sum;
};

Status cumsum_f32_check(const OpContext& ctx);
void cumsum_f32_run(const OpContext& ctx);
Status cumsum_s8_check(const OpContext& ctx);
void cumsum_s8_run(const OpContext& ctx);

extern const KernelEntry kCumsumF32Entry;
extern const KernelEntry kCumsumS8Entry;

}  // namespace mote
