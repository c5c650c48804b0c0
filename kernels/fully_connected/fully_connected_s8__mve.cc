// Helium (MVE) int8 fully connected layer, bit-exact with fully_connected_s8 for every
// valid input. Per input row, four weight rows at a time: one 16-byte input load feeds
// four VMLADAVA (sum w * x), and each weight vector a second VMLADAVA against the input
// offset in every lane (sum w * io; io = 128 takes two, 64 + 64); K % 16 is one
// predicated step. The filter offset is applied afterwards, exactly in wrapping int32:
//   sum (w + fo) * (x + io) = sum w * (x + io) + fo * sum x + K * fo * io
// (io = -input_zero_point, fo = -filter_zero_point), and four outputs are requantized
// per vector (quant/quant_math_mve.h). No scratch.
//
// On a core without MVE the same code runs through the portable definitions of
// kernels/isa/mve.h.
#include "fully_connected/fully_connected.h"
#include "isa/mve.h"
#include "kernel_util.h"
#include "quant/quant_check.h"
#include "quant/quant_math_mve.h"

namespace mote {
namespace {

// acc[j] = sum_k w_j[k] * (x[k] + io), j < 4, over k bytes, wrapping. With io split as
// io_a + io_b (each in [-128, 127], as int8 lane vectors), w * (x + io) is summed as
// w * x + w * io_a (+ w * io_b): three VMLADAVA into the same accumulator instead of a
// separate sum of w (accumulator registers are scarce: VMLADAVA takes even ones only).
// kTwoParts: io_b != 0 (only io == 128 needs it).
template <bool kTwoParts>
void dot_1x4(const int8_t* x, const int8_t* w0, const int8_t* w1, const int8_t* w2,
             const int8_t* w3, int32_t k, int8_t io_a, int8_t io_b, int32_t* acc) {
  const mve::int8x16_t va = mve::vdupq_n_s8(io_a);
  const mve::int8x16_t vb = mve::vdupq_n_s8(io_b);
  int32_t d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  for (int32_t chunks = k >> 4; chunks > 0; --chunks) {
    const mve::int8x16_t vx = mve::vldrbq_s8(x);
    const mve::int8x16_t v0 = mve::vldrbq_s8(w0);
    const mve::int8x16_t v1 = mve::vldrbq_s8(w1);
    const mve::int8x16_t v2 = mve::vldrbq_s8(w2);
    const mve::int8x16_t v3 = mve::vldrbq_s8(w3);
    d0 = mve::vmladavaq_s8(mve::vmladavaq_s8(d0, vx, v0), va, v0);
    d1 = mve::vmladavaq_s8(mve::vmladavaq_s8(d1, vx, v1), va, v1);
    d2 = mve::vmladavaq_s8(mve::vmladavaq_s8(d2, vx, v2), va, v2);
    d3 = mve::vmladavaq_s8(mve::vmladavaq_s8(d3, vx, v3), va, v3);
    if (kTwoParts) {
      d0 = mve::vmladavaq_s8(d0, vb, v0);
      d1 = mve::vmladavaq_s8(d1, vb, v1);
      d2 = mve::vmladavaq_s8(d2, vb, v2);
      d3 = mve::vmladavaq_s8(d3, vb, v3);
    }
    x += 16;
    w0 += 16;
    w1 += 16;
    w2 += 16;
    w3 += 16;
  }
  k &= 15;
  if (k > 0) {
    // Weight lanes past k are 0, so the constant io lanes add nothing there.
    const mve::mve_pred16_t p = mve::vctp8q(static_cast<uint32_t>(k));
    const mve::int8x16_t vx = mve::vldrbq_z_s8(x, p);
    const mve::int8x16_t v0 = mve::vldrbq_z_s8(w0, p);
    const mve::int8x16_t v1 = mve::vldrbq_z_s8(w1, p);
    const mve::int8x16_t v2 = mve::vldrbq_z_s8(w2, p);
    const mve::int8x16_t v3 = mve::vldrbq_z_s8(w3, p);
    d0 = mve::vmladavaq_s8(mve::vmladavaq_s8(d0, vx, v0), va, v0);
    d1 = mve::vmladavaq_s8(mve::vmladavaq_s8(d1, vx, v1), va, v1);
    d2 = mve::vmladavaq_s8(mve::vmladavaq_s8(d2, vx, v2), va, v2);
    d3 = mve::vmladavaq_s8(mve::vmladavaq_s8(d3, vx, v3), va, v3);
    if (kTwoParts) {
      d0 = mve::vmladavaq_s8(d0, vb, v0);
      d1 = mve::vmladavaq_s8(d1, vb, v1);
      d2 = mve::vmladavaq_s8(d2, vb, v2);
      d3 = mve::vmladavaq_s8(d3, vb, v3);
    }
  }
  acc[0] = d0;
  acc[1] = d1;
  acc[2] = d2;
  acc[3] = d3;
}

int32_t row_sum(const int8_t* x, int32_t k) {
  int32_t sum = 0;
  for (; k >= 16; k -= 16, x += 16) sum = mve::vaddvaq_s8(sum, mve::vldrbq_s8(x));
  if (k > 0) {
    sum = mve::vaddvaq_s8(sum, mve::vldrbq_z_s8(x, mve::vctp8q(static_cast<uint32_t>(k))));
  }
  return sum;
}

}  // namespace

uint32_t fully_connected_s8__mve_scratch_bytes() { return 0; }

void fully_connected_s8__mve(const FullyConnectedS8Params& params, const int32_t* multipliers,
                             const int32_t* shifts, int32_t batches, int32_t in_features,
                             int32_t out_features, const int8_t* input, const int8_t* weights,
                             const int32_t* bias, int8_t* output) {
  const int32_t k = in_features;
  const uint32_t input_offset = static_cast<uint32_t>(-params.input_zero_point);
  const uint32_t filter_offset = static_cast<uint32_t>(-params.filter_zero_point);
  // input_offset = -zp in [-127, 128]: io_a + io_b with both in int8, io_b = 0 unless 128.
  const int8_t io_a = static_cast<int8_t>(input_offset == 128u ? 64 : -params.input_zero_point);
  const int8_t io_b = static_cast<int8_t>(input_offset == 128u ? 64 : 0);
  const bool per_channel = params.channel_count != 1;
  const mve::int32x4_t zp = mve::vdupq_n_s32(params.output_zero_point);
  const mve::int32x4_t lo = mve::vdupq_n_s32(params.act_min);
  const mve::int32x4_t hi = mve::vdupq_n_s32(params.act_max);
  const RequantS8x4 per_tensor = requant_s8x4_prepare(mve::vdupq_n_s32(multipliers[0]),
                                                      mve::vdupq_n_s32(shifts[0]));
  for (int32_t b = 0; b < batches; ++b) {
    const int8_t* x = input + b * k;
    int8_t* out = output + b * out_features;
    // fo * sum x + K * fo * io: the same for every output of this row.
    const uint32_t row_term =
        filter_offset == 0
            ? 0u
            : filter_offset * (static_cast<uint32_t>(row_sum(x, k)) +
                               static_cast<uint32_t>(k) * input_offset);
    for (int32_t n = 0; n < out_features; n += 4) {
      const int32_t left = out_features - n < 4 ? out_features - n : 4;
      const int8_t* w = weights + n * k;
      // Rows past the end read row n again; their lanes are not stored.
      int32_t dot[4];
      const int8_t* w1 = left > 1 ? w + k : w;
      const int8_t* w2 = left > 2 ? w + 2 * k : w;
      const int8_t* w3 = left > 3 ? w + 3 * k : w;
      if (io_b == 0) {
        dot_1x4<false>(x, w, w1, w2, w3, k, io_a, io_b, dot);
      } else {
        dot_1x4<true>(x, w, w1, w2, w3, k, io_a, io_b, dot);
      }
      int32_t acc[4], m[4] = {0, 0, 0, 0}, s[4] = {0, 0, 0, 0};
      for (int32_t j = 0; j < 4; ++j) {
        const uint32_t bj = bias != nullptr && j < left ? static_cast<uint32_t>(bias[n + j]) : 0u;
        acc[j] = static_cast<int32_t>(static_cast<uint32_t>(dot[j]) + row_term + bj);
      }
      RequantS8x4 q = per_tensor;
      if (per_channel) {
        if (left == 4) {
          q = requant_s8x4_prepare(mve::vldrwq_s32(multipliers + n), mve::vldrwq_s32(shifts + n));
        } else {
          for (int32_t j = 0; j < left; ++j) {
            m[j] = multipliers[n + j];
            s[j] = shifts[n + j];
          }
          q = requant_s8x4_prepare(mve::vldrwq_s32(m), mve::vldrwq_s32(s));
        }
      }
      const mve::int32x4_t result = requant_s8x4(mve::vldrwq_s32(acc), q, zp, lo, hi);
      if (left == 4) {
        mve::vstrbq_s32(out + n, result);
      } else {
        mve::vstrbq_p_s32(out + n, result, mve::vctp32q(static_cast<uint32_t>(left)));
      }
    }
  }
}

Status fully_connected_s8__mve_check(const OpContext& ctx) { return fully_connected_s8_check(ctx); }

void fully_connected_s8__mve_run(const OpContext& ctx) {
  const TensorDesc& weights = ctx.input_desc(1);
  const FullyConnectedS8Params& p = ctx.params<FullyConnectedS8Params>();
  const int32_t in_features = static_cast<int32_t>(weights.dims[1]);
  const int32_t out_features = static_cast<int32_t>(weights.dims[0]);
  const int32_t batches = static_cast<int32_t>(element_count(ctx.output_desc(0))) / out_features;
  const int32_t* bias =
      ctx.input_count() == 3 ? static_cast<const int32_t*>(ctx.input_data(2)) : nullptr;
  fully_connected_s8__mve(p, params_array(p, 0, p.channel_count),
                          params_array(p, 1, p.channel_count), batches, in_features,
                          out_features, static_cast<const int8_t*>(ctx.input_data(0)),
                          static_cast<const int8_t*>(ctx.input_data(1)), bias,
                          static_cast<int8_t*>(ctx.output_data(0)));
}

const KernelEntry kFullyConnectedS8MveEntry = {fully_connected_s8__mve_check,
                                               fully_connected_s8__mve_run};

}  // namespace mote
