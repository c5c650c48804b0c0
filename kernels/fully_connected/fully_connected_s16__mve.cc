// Helium (MVE) 16x8 fully connected layer (int16 activations, int8 weights), bit-exact
// with fully_connected_s16 for both accumulators, per-tensor and per-channel, any filter
// zero point. Four weight rows at a time against one input row: per 8 features one
// VLDRH of the input, four VLDRB.S16 of the rows and four VMLADAVA.S16. The int32 sums
// of at most kChunk features are exact (|w * x| <= 2^22, so |sum| <= 2^30) and are added
// into int64 totals after each chunk, so
//   total = sum_k w[k] * x[k] + filter_offset * sum_k x[k]
// is the reference's exact sum of (w + filter_offset) * x; the int64 accumulator adds the
// bias to it (wrapping) and requantizes it as the reference does, the int32 one takes
// its low 32 bits, which is the reference's wrapping sum. One output at a time is
// requantized with the reference's scalar arithmetic (a layer has few outputs per MAC).
//
// No scratch. On a core without MVE the same code runs through the portable definitions
// of kernels/isa/mve.h.
#include "fully_connected/fully_connected.h"
#include "fully_connected/fully_connected_s16_common.h"
#include "isa/mve.h"
#include "isa/mve_dot_s16x8.h"
#include "kernel_util.h"
#include "quant/quant_check.h"
#include "quant/quant_math.h"

namespace mote {
namespace {

constexpr int32_t kChunk = 256;

// Sums of four rows (w0..w3, k values each) against x, in int64.
struct Totals {
  int64_t t0, t1, t2, t3;
};

__attribute__((always_inline)) inline Totals rows_1x4(const int16_t* x, const int8_t* w0,
                                                      const int8_t* w1, const int8_t* w2,
                                                      const int8_t* w3, int32_t k) {
  Totals t{0, 0, 0, 0};
  while (k > 0) {
    const int32_t chunk = k < kChunk ? k : kChunk;
    k -= chunk;
    const mve::Dot4 d = mve::dot_s16x8_x4(x, w0, w1, w2, w3, chunk);
    x += chunk;
    w0 += chunk;
    w1 += chunk;
    w2 += chunk;
    w3 += chunk;
    t.t0 += d.a0;
    t.t1 += d.a1;
    t.t2 += d.a2;
    t.t3 += d.a3;
  }
  return t;
}

// sum_k x[k], exact (|x| <= 2^15, fewer than 2^31 features: chunks of 2^15 values).
int64_t row_sum(const int16_t* x, int32_t k) {
  int64_t total = 0;
  while (k > 0) {
    const int32_t chunk = k < 32768 ? k : 32768;
    k -= chunk;
    int32_t sum = 0;
    for (int32_t n = chunk; n > 0; n -= 8, x += 8) {
      sum = mve::vaddvaq_s16(sum, mve::vldrhq_z_s16(x, mve::vctp16q(static_cast<uint32_t>(n))));
    }
    total += sum;
  }
  return total;
}

}  // namespace

void fully_connected_s16__mve(const FullyConnectedS16Params& params, const int32_t* multipliers,
                              const int32_t* shifts, int32_t batches, int32_t in_features,
                              int32_t out_features, const int16_t* input, const int8_t* weights,
                              const void* bias, int16_t* output) {
  const int64_t filter_offset = -params.filter_zero_point;
  const int32_t channel_step = params.channel_count == 1 ? 0 : 1;
  const int32_t k = in_features;
  for (int32_t b = 0; b < batches; ++b) {
    const int16_t* row = input + b * k;
    const int64_t offset_sum = filter_offset == 0 ? 0 : filter_offset * row_sum(row, k);
    for (int32_t n = 0; n < out_features; n += 4) {
      const int32_t left = out_features - n;
      const int8_t* w0 = weights + n * k;
      const int8_t* w1 = left > 1 ? w0 + k : w0;
      const int8_t* w2 = left > 2 ? w0 + 2 * k : w0;
      const int8_t* w3 = left > 3 ? w0 + 3 * k : w0;
      const Totals t = rows_1x4(row, w0, w1, w2, w3, k);
      const int64_t totals[4] = {t.t0, t.t1, t.t2, t.t3};
      const int32_t count = left < 4 ? left : 4;
      for (int32_t i = 0; i < count; ++i) {
        const int32_t o = n + i;
        const int32_t c = o * channel_step;
        *output++ = fully_connected_s16_output(params, totals[i] + offset_sum, bias, o,
                                               multipliers[c], shifts[c]);
      }
    }
  }
}

Status fully_connected_s16__mve_check(const OpContext& ctx) { return fully_connected_s16_check(ctx); }

void fully_connected_s16__mve_run(const OpContext& ctx) {
  const FullyConnectedS16Args a = fully_connected_s16_args(ctx);
  fully_connected_s16__mve(*a.params, a.multipliers, a.shifts, a.batches, a.in_features,
                           a.out_features, a.input, a.weights, a.bias, a.output);
}

const KernelEntry kFullyConnectedS16MveEntry = {fully_connected_s16__mve_check,
                                                fully_connected_s16__mve_run};

}  // namespace mote
