// float32 fully connected layer for Helium cores with floating point (MVE-F, cortex-m55),
// every shape the reference takes; each output sums the reference's products in its
// order (bias, then input[k] * weights[n, k] for k = 0, 1, ..., one fused multiply-add
// each, as fully_connected_f32 compiled for the core does), so on the core the two agree
// bit for bit; the conformance suite allows the rounding of any order.
//
// Vectors run across output features: for each k, the weights of eight features (rows K
// values apart) come in with two gather loads that step their own addresses
// (mve::RowsCursor) and are multiplied by input[k] (VFMA by scalar); the last 1..7
// features go four at a time, predicated.
// No scratch.
#include "fully_connected/fully_connected.h"
#include "fully_connected/fully_connected_f32_run.h"
#include "isa/mve_f32.h"
#include "kernel_util.h"

namespace mote {
namespace {

using mve::float32x4_t;

// The outputs n .. n + lanes - 1 (lanes 1..4) of one input row.
template <bool kClamp>
void four_rows(const float* x, const float* rows, int32_t k, const float* bias, int32_t lanes, float32x4_t lo,
               float32x4_t hi, float* out) {
  const uint32_t uk = static_cast<uint32_t>(k);
  const uint32_t offsets[4] = {0, lanes > 1 ? uk : 0, lanes > 2 ? 2 * uk : 0, lanes > 3 ? 3 * uk : 0};
  const mve::uint32x4_t off = mve::vldrwq_u32(offsets);
  const mve::mve_pred16_t pred = mve::vctp32q(static_cast<uint32_t>(lanes));
  float32x4_t acc = bias != nullptr ? mve::vldrwq_z_f32(bias, pred) : mve::vdupq_n_f32(0.0f);
  for (int32_t i = 0; i < k; ++i)
    acc = mve::vfmaq_n_f32(acc, mve::vldrwq_gather_shifted_offset_f32(rows + i, off), x[i]);
  if (kClamp) acc = mve::clamp_lanes(acc, lo, hi);
  mve::vstrwq_p_f32(out, acc, pred);
}

struct Dense {
  template <bool kClamp>
  static void rows(const FullyConnectedParams& params, int32_t batches, int32_t k, int32_t out_features,
                   const float* input, const float* weights, const float* bias, float* output) {
    const float32x4_t lo = mve::vdupq_n_f32(params.act_min);
    const float32x4_t hi = mve::vdupq_n_f32(params.act_max);
    const uint32_t row = 4u * static_cast<uint32_t>(k);  // weight bytes per feature
    const uint32_t offsets[8] = {0, row, 2 * row, 3 * row, 4 * row, 5 * row, 6 * row, 7 * row};
    const mve::uint32x4_t off0 = mve::vldrwq_u32(offsets);
    const mve::uint32x4_t off1 = mve::vldrwq_u32(offsets + 4);
    for (int32_t b = 0; b < batches; ++b, input += k, output += out_features) {
      int32_t n = 0;
      for (; n + 8 <= out_features; n += 8) {
        float32x4_t acc0 = mve::vdupq_n_f32(0.0f);
        float32x4_t acc1 = acc0;
        if (bias != nullptr) {
          acc0 = mve::vldrwq_f32(bias + n);
          acc1 = mve::vldrwq_f32(bias + n + 4);
        }
        mve::RowsCursor rows0(weights + n * k, off0);
        mve::RowsCursor rows1(weights + n * k, off1);
        for (int32_t i = 0; i < k; ++i) {
          const float x = input[i];
          acc0 = mve::vfmaq_n_f32(acc0, rows0.next(), x);
          acc1 = mve::vfmaq_n_f32(acc1, rows1.next(), x);
        }
        if (kClamp) {
          acc0 = mve::clamp_lanes(acc0, lo, hi);
          acc1 = mve::clamp_lanes(acc1, lo, hi);
        }
        mve::vstrwq_f32(output + n, acc0);
        mve::vstrwq_f32(output + n + 4, acc1);
      }
      for (; n < out_features; n += 4) {
        const int32_t lanes = out_features - n < 4 ? out_features - n : 4;
        four_rows<kClamp>(input, weights + n * k, k, bias != nullptr ? bias + n : nullptr, lanes, lo, hi, output + n);
      }
    }
  }
};

}  // namespace

void fully_connected_f32__mve(const FullyConnectedParams& params, int32_t batches, int32_t in_features,
                              int32_t out_features, const float* input, const float* weights, const float* bias,
                              float* output) {
  fully_connected_f32_by_activation<Dense>(params, batches, in_features, out_features, input, weights, bias, output);
}

Status fully_connected_f32__mve_check(const OpContext& ctx) { return fully_connected_f32_check(ctx); }

void fully_connected_f32__mve_run(const OpContext& ctx) { fully_connected_f32_run_op<fully_connected_f32__mve>(ctx); }

const KernelEntry kFullyConnectedF32MveEntry = {fully_connected_f32__mve_check, fully_connected_f32__mve_run};

}  // namespace mote
