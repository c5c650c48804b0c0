// ARMv6-M (Cortex-M0/M0+) int8 fully connected layer, bit-exact with fully_connected_s8
// for every shape. Four output features per inner loop (v6m::dot_4x1: each input byte is
// loaded and offset once for four weights, 4 instructions per multiply-accumulate), and
// requantization without __aeabi_lmul (quant/quant_math_v6m.h).
// The filter offset, when not zero, is taken out of the loop:
//   sum_k (w + filter_offset) * (x + input_offset)
//     = sum_k w * (x + input_offset) + filter_offset * sum_k (x + input_offset)
// with the second sum computed once per input row; both sides are equal mod 2^32, which is
// all the reference's wrapping int32 accumulator keeps. No scratch.
#include "fully_connected/fully_connected.h"
#include "isa/v6m.h"
#include "kernel_util.h"
#include "quant/quant_check.h"
#include "quant/quant_math_v6m.h"

namespace mote {

uint32_t fully_connected_s8__v6m_scratch_bytes() { return 0; }

void fully_connected_s8__v6m(const FullyConnectedS8Params& params, const int32_t* multipliers,
                             const int32_t* shifts, int32_t batches, int32_t in_features,
                             int32_t out_features, const int8_t* input, const int8_t* weights,
                             const int32_t* bias, int8_t* output) {
  const int32_t input_offset = -params.input_zero_point;
  const int32_t filter_offset = -params.filter_zero_point;
  const int32_t channel_step = params.channel_count == 1 ? 0 : 1;
  const auto finish = [&](int32_t n, uint32_t acc) {
    if (bias != nullptr) acc += static_cast<uint32_t>(bias[n]);
    const int32_t c = n * channel_step;
    return requant_v6m_s8(static_cast<int32_t>(acc), multipliers[c], shifts[c],
                          params.output_zero_point, params.act_min, params.act_max);
  };
  for (int32_t b = 0; b < batches; ++b) {
    const int8_t* row = input + b * in_features;
    uint32_t row_term = 0;  // filter_offset * sum_k (x + input_offset)
    if (filter_offset != 0) {
      uint32_t sum = 0;
      for (int32_t k = 0; k < in_features; ++k) sum += static_cast<uint32_t>(row[k] + input_offset);
      row_term = sum * static_cast<uint32_t>(filter_offset);
    }
    int32_t n = 0;
    for (; n + 3 < out_features; n += 4) {
      uint32_t acc[4] = {row_term, row_term, row_term, row_term};
      v6m::dot_4x1(weights + n * in_features, in_features, row, in_features, input_offset, acc);
      for (int32_t j = 0; j < 4; ++j) output[n + j] = finish(n + j, acc[j]);
    }
    for (; n < out_features; ++n) {
      const uint32_t acc =
          v6m::dot_1x1(weights + n * in_features, row, in_features, input_offset, row_term);
      output[n] = finish(n, acc);
    }
    output += out_features;
  }
}

Status fully_connected_s8__v6m_check(const OpContext& ctx) { return fully_connected_s8_check(ctx); }

void fully_connected_s8__v6m_run(const OpContext& ctx) {
  const TensorDesc& weights = ctx.input_desc(1);
  const FullyConnectedS8Params& p = ctx.params<FullyConnectedS8Params>();
  const int32_t in_features = static_cast<int32_t>(weights.dims[1]);
  const int32_t out_features = static_cast<int32_t>(weights.dims[0]);
  const int32_t batches = static_cast<int32_t>(element_count(ctx.output_desc(0))) / out_features;
  const int32_t* bias =
      ctx.input_count() == 3 ? static_cast<const int32_t*>(ctx.input_data(2)) : nullptr;
  fully_connected_s8__v6m(p, params_array(p, 0, p.channel_count),
                          params_array(p, 1, p.channel_count), batches, in_features,
                          out_features, static_cast<const int8_t*>(ctx.input_data(0)),
                          static_cast<const int8_t*>(ctx.input_data(1)), bias,
                          static_cast<int8_t*>(ctx.output_data(0)));
}

const KernelEntry kFullyConnectedS8V6mEntry = {fully_connected_s8__v6m_check,
                                               fully_connected_s8__v6m_run};

}  // namespace mote
