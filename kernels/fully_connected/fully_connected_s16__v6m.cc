// ARMv6-M (Cortex-M0/M0+) 16x8 fully connected layer, bit-exact with fully_connected_s16
// for every shape, both accumulators, per-tensor or per-channel. Thumb-1 has no long
// multiply; here
//  - four output features per inner loop (v6m::dot_s16_4x1: each input value is loaded
//    once for four weights, 4 instructions per multiply-accumulate), summed in int32 runs
//    of at most kExactTaps16x8V6m products (exact: each is below 2^22 in magnitude) that
//    are added in int64;
//  - the filter offset, when not zero, is taken out of the loop:
//      sum_k (w + filter_offset) * x = sum_k w * x + filter_offset * sum_k x
//    with the second sum computed once per input row, in int64 (exact, so equal to the
//    reference's int64 sum and, mod 2^32, to its wrapping int32 one);
//  - the int64 requantization takes two 32-bit MULS when the accumulator fits int32
//    (quant/quant_math64_v6m.h).
// No scratch.
#include "fully_connected/fully_connected.h"
#include "fully_connected/fully_connected_s16_common.h"
#include "isa/v6m.h"
#include "kernel_util.h"
#include "quant/quant_math64_v6m.h"

namespace mote {
namespace {

struct Scale64V6m {
  int32_t operator()(int64_t acc, int32_t multiplier, int32_t shift) const {
    return requant64_v6m_any(acc, multiplier, shift);
  }
};

}  // namespace

void fully_connected_s16__v6m(const FullyConnectedS16Params& params, const int32_t* multipliers,
                              const int32_t* shifts, int32_t batches, int32_t in_features,
                              int32_t out_features, const int16_t* input, const int8_t* weights,
                              const void* bias, int16_t* output) {
  const int32_t filter_offset = -params.filter_zero_point;
  const int32_t channel_step = params.channel_count == 1 ? 0 : 1;
  const auto finish = [&](int32_t n, int64_t sum) {
    const int32_t c = n * channel_step;
    return fully_connected_s16_output(params, sum, bias, n, multipliers[c], shifts[c], Scale64V6m());
  };
  for (int32_t b = 0; b < batches; ++b) {
    const int16_t* row = input + b * in_features;
    int64_t row_term = 0;  // filter_offset * sum_k x
    if (filter_offset != 0) {
      int64_t sum = 0;
      for (int32_t k = 0; k < in_features; ++k) sum += row[k];
      row_term = sum * filter_offset;
    }
    int32_t n = 0;
    for (; n + 3 < out_features; n += 4) {
      int64_t sums[4] = {row_term, row_term, row_term, row_term};
      const int8_t* w = weights + n * in_features;
      for (int32_t start = 0; start < in_features; start += kExactTaps16x8V6m) {
        const int32_t rest = in_features - start;
        uint32_t acc[4] = {0, 0, 0, 0};
        v6m::dot_s16_4x1(w + start, in_features, row + start,
                         rest < kExactTaps16x8V6m ? rest : kExactTaps16x8V6m, acc);
        for (int32_t j = 0; j < 4; ++j) sums[j] += static_cast<int32_t>(acc[j]);
      }
      for (int32_t j = 0; j < 4; ++j) output[n + j] = finish(n + j, sums[j]);
    }
    for (; n < out_features; ++n) {
      int64_t sum = row_term;
      const int8_t* w = weights + n * in_features;
      for (int32_t start = 0; start < in_features; start += kExactTaps16x8V6m) {
        const int32_t rest = in_features - start;
        sum += static_cast<int32_t>(v6m::dot_s16_1x1(
            w + start, row + start, rest < kExactTaps16x8V6m ? rest : kExactTaps16x8V6m, 0));
      }
      output[n] = finish(n, sum);
    }
    output += out_features;
  }
}

Status fully_connected_s16__v6m_check(const OpContext& ctx) { return fully_connected_s16_check(ctx); }

void fully_connected_s16__v6m_run(const OpContext& ctx) {
  const FullyConnectedS16Args a = fully_connected_s16_args(ctx);
  fully_connected_s16__v6m(*a.params, a.multipliers, a.shifts, a.batches, a.in_features,
                           a.out_features, a.input, a.weights, a.bias, a.output);
}

const KernelEntry kFullyConnectedS16V6mEntry = {fully_connected_s16__v6m_check,
                                                fully_connected_s16__v6m_run};

}  // namespace mote
