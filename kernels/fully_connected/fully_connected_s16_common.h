// What fully_connected_s16 and its variants share: the arguments decoded from an op's
// context, and the per-output tail (bias added in the accumulator's width, requantized,
// clamped to int16; fully_connected.h gives the math).
#pragma once

#include <stdint.h>

#include "fully_connected/fully_connected.h"
#include "quant/quant_check.h"
#include "quant/quant_math.h"

namespace mote {

// multiply_by_quantized_multiplier64, the int64 accumulator's requantization.
struct FullyConnectedS16Scale64 {
  int32_t operator()(int64_t acc, int32_t multiplier, int32_t shift) const {
    return multiply_by_quantized_multiplier64(acc, multiplier, shift);
  }
};

// Output n from sum = sum_k (weights[n, k] - filter_zero_point) * input[k]: with the
// int32 accumulator its low 32 bits (the reference's wrapping sum) plus bias[n] wrapping
// in int32, else the int64 sum plus bias[n] (wrapping) scaled by scale64, which must
// equal multiply_by_quantized_multiplier64 (a variant may pass a faster equal form).
template <typename Scale64 = FullyConnectedS16Scale64>
__attribute__((always_inline)) inline int16_t fully_connected_s16_output(
    const FullyConnectedS16Params& params, int64_t sum, const void* bias, int32_t n,
    int32_t multiplier, int32_t shift, Scale64 scale64 = Scale64()) {
  int32_t scaled;
  if (params.accumulator == 32) {
    uint32_t acc = static_cast<uint32_t>(static_cast<uint64_t>(sum));
    if (bias != nullptr) acc += static_cast<uint32_t>(static_cast<const int32_t*>(bias)[n]);
    scaled = multiply_by_quantized_multiplier(static_cast<int32_t>(acc), multiplier, shift);
  } else {
    int64_t acc = sum;
    if (bias != nullptr) acc = wrapping_add64(acc, static_cast<const int64_t*>(bias)[n]);
    scaled = scale64(acc, multiplier, shift);
  }
  return static_cast<int16_t>(clamp_i32(scaled, params.act_min, params.act_max));
}

// The kernel arguments of an op checked by fully_connected_s16_check.
struct FullyConnectedS16Args {
  const FullyConnectedS16Params* params;
  const int32_t* multipliers;
  const int32_t* shifts;
  int32_t batches, in_features, out_features;
  const int16_t* input;
  const int8_t* weights;
  const void* bias;  // nullptr when absent
  int16_t* output;
};

inline FullyConnectedS16Args fully_connected_s16_args(const OpContext& ctx) {
  const TensorDesc& weights = ctx.input_desc(1);
  const FullyConnectedS16Params& p = ctx.params<FullyConnectedS16Params>();
  FullyConnectedS16Args a;
  a.params = &p;
  a.multipliers = params_array(p, 0, p.channel_count);
  a.shifts = params_array(p, 1, p.channel_count);
  a.in_features = static_cast<int32_t>(weights.dims[1]);
  a.out_features = static_cast<int32_t>(weights.dims[0]);
  a.batches = static_cast<int32_t>(element_count(ctx.output_desc(0))) / a.out_features;
  a.input = static_cast<const int16_t*>(ctx.input_data(0));
  a.weights = static_cast<const int8_t*>(ctx.input_data(1));
  a.bias = ctx.input_count() == 3 ? ctx.input_data(2) : nullptr;
  a.output = static_cast<int16_t*>(ctx.output_data(0));
  return a;
}

}  // namespace mote
