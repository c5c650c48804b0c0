// int8 fully connected layer with the Armv7E-M DSP extension, bit-exact with
// fully_connected_s8 (fully_connected_s8.cc).
//
// Algorithm. The input offset is added to the activations as they are widened to int16
// (x + input_offset is in [-255, 255]), four features per two words in the order that
// sxtb16 / sxtb16_ror8 of a weight word produce:
//   word 2g   = [x(4g) , x(4g+2)]      word 2g+1 = [x(4g+1), x(4g+3)]
// so each weight word (four int8 weights as stored) costs two extends and two SMLADs.
// The filter offset is applied as
//   sum_k (w + filter_offset) * (x + input_offset)
//     = sum_k w * (x + input_offset) + filter_offset * sum_k (x + input_offset)
// which is the same int32 value modulo 2^32, so the wrapping sums agree exactly; the
// second sum is only formed when the filter offset is not zero.
//
// Two row paths, chosen from K alone (so the compiler's scratch size says which runs):
// - K <= kFullyConnectedDspWidenMax: each batch row is widened once into scratch. When
//   the weight rows are 4-byte aligned (aligned weights, K % 4 == 0), two rows take
//   eight features per step: one LDM of the four activation words, one LDRD per row,
//   eight extends and eight SMLADs, 40 instructions per 32 MACs in the unrolled loop
//   (fully_connected_s8_dsp_core.h); otherwise four rows take four features per step
//   with word loads (21 per 16 MACs).
// - longer rows use no scratch: four rows take four features per step and the activation
//   word is widened on the fly (23 instructions per 16 MACs), which costs little on the
//   long, narrow layers this is for (micro_speech's 4000 -> 4).
// Rows go in blocks of kBlockRows: the block's sums, the features past the last multiple
// of four one by one, then the block's requantization (bias and filter-offset term added
// there; per-tensor and per-channel fast loops in fully_connected_s8_dsp_core.h).
#include "fully_connected/fully_connected.h"
#include "fully_connected/fully_connected_s8_dsp_core.h"
#include "isa/dsp.h"
#include "kernel_util.h"
#include "quant/quant_check.h"
#include "quant/quant_math.h"
#include "quant/quant_math_dsp.h"

namespace mote {

namespace {

using fc_dsp::dot_block_aligned;
using fc_dsp::dot_row;
using fc_dsp::dot_row_direct;
using fc_dsp::dot_rows4_direct;
using fc_dsp::finish_block;
using fc_dsp::Finisher;

// Rows up to this many features are widened once into scratch (2 * K bytes).
constexpr int32_t kFullyConnectedDspWidenMax = 1024;
// Output rows per block: their accumulators live on the stack between the dot products
// and the requantization, so neither loop carries the other's registers.
constexpr int32_t kBlockRows = 32;

bool widens_in_scratch(int32_t in_features) {
  return in_features <= kFullyConnectedDspWidenMax;
}

// Four rows (w, w + stride, ...) against the widened row x, `groups` groups of four:
// acc[0..3] = the sums; the activation words are loaded once for all four rows.
inline void dot_rows4(const int8_t* w, int32_t stride, const uint32_t* x, int32_t groups,
                      int32_t* acc) {
  const int8_t* w0 = w;
  const int8_t* w1 = w + stride;
  const int8_t* w2 = w1 + stride;
  const int8_t* w3 = w2 + stride;
  int32_t acc0 = 0, acc1 = 0, acc2 = 0, acc3 = 0;
  auto step = [&]() {
    uint32_t x02, x13;
    dsp::load2_u32_advance(x, x02, x13);
    fc_dsp::group4(w0, w1, w2, w3, x02, x13, acc0, acc1, acc2, acc3);
  };
  const uint32_t* const quads_end = x + 2 * (groups & ~3);
  while (x != quads_end) {
    step();
    step();
    step();
    step();
  }
  for (int32_t g = groups & 3; g > 0; --g) step();
  acc[0] = acc0;
  acc[1] = acc1;
  acc[2] = acc2;
  acc[3] = acc3;
}

// As dot_block_aligned for rows of any alignment.
MOTE_FC_DSP_HOT void dot_block(const int8_t* w, int32_t in_features, const uint32_t* x,
                               int32_t count, int32_t* acc) {
  const int32_t groups = in_features / 4;
  int32_t i = 0;
  for (; i + 4 <= count; i += 4) dot_rows4(w + i * in_features, in_features, x, groups, acc + i);
  for (; i < count; ++i) acc[i] = dot_row(w + i * in_features, x, groups, 0);
}

// As dot_block against the int8 row `row`, widened on the fly (no scratch).
MOTE_FC_DSP_HOT void dot_block_direct(const int8_t* w, int32_t in_features, const int8_t* row,
                                      uint32_t offset2, int32_t count, int32_t* acc) {
  const int32_t groups = in_features / 4;
  int32_t i = 0;
  for (; i + 4 <= count; i += 4) {
    dot_rows4_direct(w + i * in_features, in_features, row, offset2, groups, acc + i);
  }
  for (; i < count; ++i) acc[i] = dot_row_direct(w + i * in_features, row, offset2, groups, 0);
}

}  // namespace

uint32_t fully_connected_s8__dsp_scratch_bytes(int32_t in_features) {
  if (!widens_in_scratch(in_features)) return 0;
  return static_cast<uint32_t>(in_features / 4) * 8u;
}

void fully_connected_s8__dsp(const FullyConnectedS8Params& params, const int32_t* multipliers,
                             const int32_t* shifts, int32_t batches, int32_t in_features,
                             int32_t out_features, const int8_t* input, const int8_t* weights,
                             const int32_t* bias, int8_t* output, uint32_t* scratch) {
  const int32_t input_offset = -params.input_zero_point;
  const int32_t filter_offset = -params.filter_zero_point;
  const int32_t channel_count = static_cast<int32_t>(params.channel_count);
  const Finisher finish{multipliers,
                        shifts,
                        channel_count == 1 ? 0 : 1,
                        requant_dsp_applies(multipliers, channel_count),
                        params.output_zero_point,
                        params.act_min,
                        params.act_max};
  const int32_t groups = in_features / 4;
  const int32_t tail_begin = groups * 4;
  const uint32_t offset2 = dsp::pack16(input_offset, input_offset);
  const bool widen = widens_in_scratch(in_features);
  // Rows 4-byte aligned: the LDRD path (the widened row is a multiple of 8 bytes apart).
  const bool aligned =
      widen && (in_features & 3) == 0 && (reinterpret_cast<uintptr_t>(weights) & 3u) == 0;

  for (int32_t b = 0; b < batches; ++b) {
    const int8_t* row = input + b * in_features;
    if (widen) {
      uint32_t* out = scratch;
      for (int32_t g = 0; g < groups; ++g) {
        const uint32_t xv = dsp::load_u32(row + 4 * g);
        dsp::store2_u32_advance<8>(out, dsp::sxtab16(offset2, xv), dsp::sxtab16_ror8(offset2, xv));
      }
    }
    // filter_offset * sum_k (x + input_offset), only when the filter offset is not zero.
    uint32_t offset_term = 0;
    if (filter_offset != 0) {
      uint32_t row_sum = 0;
      for (int32_t k = 0; k < in_features; ++k) {
        row_sum += static_cast<uint32_t>(row[k] + input_offset);
      }
      offset_term = static_cast<uint32_t>(filter_offset) * row_sum;
    }
    auto tail = [&](const int8_t* w, int32_t begin, int32_t acc) {
      uint32_t a = static_cast<uint32_t>(acc);
      for (int32_t k = begin; k < in_features; ++k) {
        a += static_cast<uint32_t>(w[k] * (row[k] + input_offset));
      }
      return static_cast<int32_t>(a);
    };

    // Blocks of rows: the dot products, the scalar tail (K % 4 features), then the
    // block's outputs (bias and filter-offset term added there).
    for (int32_t n0 = 0; n0 < out_features; n0 += kBlockRows) {
      const int32_t count = out_features - n0 < kBlockRows ? out_features - n0 : kBlockRows;
      const int8_t* w = weights + n0 * in_features;
      int32_t acc[kBlockRows];
      if (aligned) {
        dot_block_aligned(w, in_features, scratch, count, acc);
      } else if (widen) {
        dot_block(w, in_features, scratch, count, acc);
      } else {
        dot_block_direct(w, in_features, row, offset2, count, acc);
      }
      if (tail_begin != in_features) {
        for (int32_t i = 0; i < count; ++i) acc[i] = tail(w + i * in_features, tail_begin, acc[i]);
      }
      finish_block(finish, n0, count, acc, bias != nullptr ? bias + n0 : nullptr, offset_term,
                   output + n0);
    }
    output += out_features;
  }
}

Status fully_connected_s8__dsp_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(fully_connected_s8_check(ctx));
  const int32_t in_features = static_cast<int32_t>(ctx.input_desc(1).dims[1]);
  if (ctx.scratch().size() < fully_connected_s8__dsp_scratch_bytes(in_features)) {
    return Status::kBadParams;
  }
  if (fully_connected_s8__dsp_scratch_bytes(in_features) != 0 &&
      (reinterpret_cast<uintptr_t>(ctx.scratch().data()) & 3u) != 0) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void fully_connected_s8__dsp_run(const OpContext& ctx) {
  const TensorDesc& weights = ctx.input_desc(1);
  const FullyConnectedS8Params& p = ctx.params<FullyConnectedS8Params>();
  const int32_t in_features = static_cast<int32_t>(weights.dims[1]);
  const int32_t out_features = static_cast<int32_t>(weights.dims[0]);
  const int32_t batches = static_cast<int32_t>(element_count(ctx.output_desc(0))) / out_features;
  const int32_t* bias =
      ctx.input_count() == 3 ? static_cast<const int32_t*>(ctx.input_data(2)) : nullptr;
  fully_connected_s8__dsp(p, params_array(p, 0, p.channel_count),
                          params_array(p, 1, p.channel_count), batches, in_features, out_features,
                          static_cast<const int8_t*>(ctx.input_data(0)),
                          static_cast<const int8_t*>(ctx.input_data(1)), bias,
                          static_cast<int8_t*>(ctx.output_data(0)),
                          reinterpret_cast<uint32_t*>(ctx.scratch().data()));
}

const KernelEntry kFullyConnectedS8DspEntry = {fully_connected_s8__dsp_check,
                                               fully_connected_s8__dsp_run};

}  // namespace mote
