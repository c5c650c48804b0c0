// Armv7E-M DSP 16x8 fully connected layer (int16 activations, int8 weights), both
// accumulators, per-tensor or per-channel; bit-exact with fully_connected_s16.
//
// Algorithm. Each input row is written once into scratch as interleaved int16 pairs,
// (x[4g], x[4g+2]) and (x[4g+1], x[4g+3]) per group of four features (PKHBT / PKHTB),
// zero-padded to a whole group: the halves SXTB16 and SXTB16 ROR #8 split a weight word
// into. Outputs then run in pairs, the pair's two weight rows against each input group
// loaded once (one LDRD of input, and per row one LDR, two SXTB16 and two SMLADs per four
// weights; a last odd output alone), in int32 sums over chunks of at most
// kMaxExactTaps16x8 features (exact), added in int64. A weight row's last partial group is
// assembled from its bytes.
//
// The filter zero point (per-tensor weights) is applied as
// sum((w - zp) * x) = sum(w * x) - zp * sum(x), with sum(x) formed once per row in int64;
// both sides are exact in int64 and agree modulo 2^32 for the int32 accumulator.
// Requantization: accumulator 64, shift in [-17, -1] and the accumulator within int32:
// one SMMULR (quant/quant_math64_dsp.h); otherwise the reference functions.
//
// Scratch: 8 * ceil(in_features / 4) bytes, 4-aligned.
#include "fully_connected/fully_connected.h"
#include "fully_connected/fully_connected_s16_common.h"
#include "isa/dsp.h"
#include "kernel_util.h"
#include "quant/quant_check.h"
#include "quant/quant_math.h"
#include "quant/quant_math64_dsp.h"

namespace mote {
namespace {

// One group: four weights at w against the interleaved input words x02, x13.
__attribute__((always_inline)) inline int32_t dot_group(const int8_t* w, uint32_t x02, uint32_t x13,
                                                        int32_t acc) {
  const uint32_t wv = dsp::load_u32(w);
  return dsp::smlad(x13, dsp::sxtb16_ror8(wv), dsp::smlad(x02, dsp::sxtb16(wv), acc));
}

// Sums over `groups` groups of the interleaved input at x times the weights of one row at
// w (four groups per iteration, in two accumulators).
inline int32_t dot_groups(const uint32_t* x, const int8_t* w, int32_t groups) {
  int32_t acc0 = 0, acc1 = 0;
  const int8_t* const end4 = w + 4 * (groups & ~3);
  const int8_t* const end = w + 4 * groups;
  uint32_t x02, x13;
  for (; w != end4; w += 16) {
    dsp::load2_u32_advance(x, x02, x13);
    acc0 = dot_group(w, x02, x13, acc0);
    dsp::load2_u32_advance(x, x02, x13);
    acc1 = dot_group(w + 4, x02, x13, acc1);
    dsp::load2_u32_advance(x, x02, x13);
    acc0 = dot_group(w + 8, x02, x13, acc0);
    dsp::load2_u32_advance(x, x02, x13);
    acc1 = dot_group(w + 12, x02, x13, acc1);
  }
  for (; w != end; w += 4) {
    dsp::load2_u32_advance(x, x02, x13);
    acc0 = dot_group(w, x02, x13, acc0);
  }
  return static_cast<int32_t>(static_cast<uint32_t>(acc0) + static_cast<uint32_t>(acc1));
}

// The same for two rows, at w0 and w1 (each input group loaded once for both).
inline void dot_groups_2rows(const uint32_t* x, const int8_t* w0, const int8_t* w1, int32_t groups,
                             int32_t& sum0, int32_t& sum1) {
  int32_t a0 = 0, a1 = 0;
  const int8_t* const end4 = w0 + 4 * (groups & ~3);
  const int8_t* const end = w0 + 4 * groups;
  while (w0 != end4) {
    dsp::dot_group_s16x8_2rows(x, w0, w1, a0, a1);
    dsp::dot_group_s16x8_2rows(x, w0, w1, a0, a1);
    dsp::dot_group_s16x8_2rows(x, w0, w1, a0, a1);
    dsp::dot_group_s16x8_2rows(x, w0, w1, a0, a1);
  }
  while (w0 != end) dsp::dot_group_s16x8_2rows(x, w0, w1, a0, a1);
  sum0 = a0;
  sum1 = a1;
}

// The last partial group (tail < 4 weights at w) against its interleaved input word pair.
inline int32_t dot_tail(const int8_t* w, int32_t tail, const uint32_t* x) {
  uint32_t wv = static_cast<uint8_t>(w[0]);
  if (tail > 1) wv |= static_cast<uint32_t>(static_cast<uint8_t>(w[1])) << 8;
  if (tail > 2) wv |= static_cast<uint32_t>(static_cast<uint8_t>(w[2])) << 16;
  return dsp::smlad(x[1], dsp::sxtb16_ror8(wv), dsp::smlad(x[0], dsp::sxtb16(wv), 0));
}

// The int64 sums of kRows outputs whose weight rows start at w (rows in_features apart).
template <int32_t kRows>
inline void row_sums(const uint32_t* columns, const int8_t* w, int32_t in_features, int64_t offset_term,
                     int64_t* sums) {
  const int32_t groups = in_features / 4;
  const int32_t tail = in_features % 4;
  constexpr int32_t kChunkGroups = kMaxExactTaps16x8 / 4;
  for (int32_t r = 0; r < kRows; ++r) sums[r] = offset_term;
  for (int32_t g = 0; g < groups; g += kChunkGroups) {
    const int32_t count = groups - g < kChunkGroups ? groups - g : kChunkGroups;
    int32_t chunk[kRows];
    if (kRows == 2) {
      dot_groups_2rows(columns + 2 * g, w + 4 * g, w + in_features + 4 * g, count, chunk[0], chunk[kRows - 1]);
    } else {
      chunk[0] = dot_groups(columns + 2 * g, w + 4 * g, count);
    }
    for (int32_t r = 0; r < kRows; ++r) sums[r] += chunk[r];
  }
  if (tail != 0) {
    for (int32_t r = 0; r < kRows; ++r) sums[r] += dot_tail(w + r * in_features + 4 * groups, tail, columns + 2 * groups);
  }
}

// The int64 requantization, one SMMULR when the shift allows it and the accumulator
// fits int32 (quant/quant_math64_dsp.h), else the reference's.
struct Scale64Smmulr {
  int32_t operator()(int64_t acc, int32_t multiplier, int32_t shift) const {
    if (requant64_smmulr_applies(shift) && acc >= INT32_MIN && acc <= INT32_MAX) {
      return requant64_smmulr(static_cast<int32_t>(acc), requant64_multiplier(multiplier, shift));
    }
    return multiply_by_quantized_multiplier64(acc, multiplier, shift);
  }
};

}  // namespace

uint32_t fully_connected_s16__dsp_scratch_bytes(int32_t in_features) {
  return static_cast<uint32_t>((in_features + 3) / 4) * 8u;
}

void fully_connected_s16__dsp(const FullyConnectedS16Params& params, const int32_t* multipliers,
                              const int32_t* shifts, int32_t batches, int32_t in_features,
                              int32_t out_features, const int16_t* input, const int8_t* weights,
                              const void* bias, int16_t* output, void* scratch) {
  uint32_t* const columns = static_cast<uint32_t*>(scratch);
  const int32_t groups = in_features / 4;
  const int32_t tail = in_features % 4;
  const int32_t channel_step = params.channel_count == 1 ? 0 : 1;
  const int64_t filter_offset = -params.filter_zero_point;
  for (int32_t b = 0; b < batches; ++b) {
    const int16_t* row = input + b * in_features;
    int64_t row_sum = 0;
    uint32_t* dst = columns;
    for (int32_t g = 0; g < groups; ++g, dst += 2) {
      const uint32_t lo = dsp::load_u32(row + 4 * g);
      const uint32_t hi = dsp::load_u32(row + 4 * g + 2);
      dst[0] = dsp::pack_lo_lo(lo, hi);
      dst[1] = dsp::pkhtb_hi_hi(lo, hi);
    }
    if (tail != 0) {
      int32_t v[4] = {0, 0, 0, 0};
      for (int32_t j = 0; j < tail; ++j) v[j] = row[4 * groups + j];
      dst[0] = dsp::pack16(v[0], v[2]);
      dst[1] = dsp::pack16(v[1], v[3]);
    }
    if (filter_offset != 0) {
      for (int32_t k = 0; k < in_features; ++k) row_sum += row[k];
    }
    const int64_t offset_term = filter_offset * row_sum;
    const int8_t* w = weights;
    int32_t n = 0;
    int64_t sums[2];
    for (; n + 2 <= out_features; n += 2, w += 2 * in_features) {
      row_sums<2>(columns, w, in_features, offset_term, sums);
      for (int32_t r = 0; r < 2; ++r) {
        const int32_t c = (n + r) * channel_step;
        *output++ = fully_connected_s16_output(params, sums[r], bias, n + r, multipliers[c], shifts[c],
                                               Scale64Smmulr());
      }
    }
    if (n < out_features) {
      row_sums<1>(columns, w, in_features, offset_term, sums);
      const int32_t c = n * channel_step;
      *output++ = fully_connected_s16_output(params, sums[0], bias, n, multipliers[c], shifts[c], Scale64Smmulr());
    }
  }
}

Status fully_connected_s16__dsp_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(fully_connected_s16_check(ctx));
  const TensorDesc& weights = ctx.input_desc(1);
  const uint64_t needed = (uint64_t{weights.dims[1]} + 3) / 4 * 8u;
  if (ctx.scratch().size() < needed || (reinterpret_cast<uintptr_t>(ctx.scratch().data()) & 3u) != 0) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void fully_connected_s16__dsp_run(const OpContext& ctx) {
  const FullyConnectedS16Args a = fully_connected_s16_args(ctx);
  fully_connected_s16__dsp(*a.params, a.multipliers, a.shifts, a.batches, a.in_features,
                           a.out_features, a.input, a.weights, a.bias, a.output, ctx.scratch().data());
}

const KernelEntry kFullyConnectedS16DspEntry = {fully_connected_s16__dsp_check, fully_connected_s16__dsp_run};

}  // namespace mote
