// int8 fully connected layer with the Armv7E-M DSP extension, bit-exact with
// fully_connected_s8 (fully_connected_s8.cc).
//
// Algorithm. Per batch row the input is expanded once into scratch as int16 with the
// input offset added (x + input_offset is in [-255, 255]), four features per two words
// in the order that sxtb16 / sxtb16_ror8 of a weight word produce:
//   word 2g   = [x(4g) , x(4g+2)]      word 2g+1 = [x(4g+1), x(4g+3)]
// so each weight word (four int8 weights as stored) costs one load, two extends and two
// SMLADs; four output rows share the activation loads. The filter offset is applied as
//   sum_k (w + filter_offset) * (x + input_offset)
//     = sum_k w * (x + input_offset) + filter_offset * sum_k (x + input_offset)
// which is the same int32 value modulo 2^32, so the wrapping sums agree exactly.
// Features past the last multiple of four are done one by one.
#include "fully_connected/fully_connected.h"
#include "isa/dsp.h"
#include "kernel_util.h"
#include "quant/quant_check.h"
#include "quant/quant_math.h"
#include "quant/quant_math_dsp.h"

namespace mote {

namespace {

// Sum over the full groups of four of w * x for one weight row.
inline int32_t dot_row(const int8_t* w, const uint32_t* x, int32_t groups, int32_t acc) {
  for (int32_t g = 0; g < groups; ++g) {
    const uint32_t wv = dsp::load_u32(w);
    w += 4;
    acc = dsp::smlad(dsp::sxtb16(wv), x[0], acc);
    acc = dsp::smlad(dsp::sxtb16_ror8(wv), x[1], acc);
    x += 2;
  }
  return acc;
}

// The sums over the full groups of four of four consecutive weight rows (w, w + stride,
// ...) against the expanded row x; the activation words are loaded once for all four.
// Not inlined and not pre-scheduled (GCC's pre-allocation scheduler hoists loads and then
// spills): alone, the compiler keeps its 14 live values in registers.
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((noinline, optimize("no-schedule-insns")))
#endif
void dot_rows4(const int8_t* w, int32_t stride, const uint32_t* x, int32_t groups,
               int32_t* acc) {
  const int8_t* w0 = w;
  const int8_t* w1 = w + stride;
  const int8_t* w2 = w1 + stride;
  const int8_t* w3 = w2 + stride;
  int32_t acc0 = 0, acc1 = 0, acc2 = 0, acc3 = 0;
  auto step = [&]() {
    uint32_t x02, x13;
    dsp::load2_u32_advance(x, x02, x13);
    uint32_t wv = dsp::load_u32(w0);
    w0 += 4;
    acc0 = dsp::smlad(dsp::sxtb16(wv), x02, acc0);
    acc0 = dsp::smlad(dsp::sxtb16_ror8(wv), x13, acc0);
    wv = dsp::load_u32(w1);
    w1 += 4;
    acc1 = dsp::smlad(dsp::sxtb16(wv), x02, acc1);
    acc1 = dsp::smlad(dsp::sxtb16_ror8(wv), x13, acc1);
    wv = dsp::load_u32(w2);
    w2 += 4;
    acc2 = dsp::smlad(dsp::sxtb16(wv), x02, acc2);
    acc2 = dsp::smlad(dsp::sxtb16_ror8(wv), x13, acc2);
    wv = dsp::load_u32(w3);
    w3 += 4;
    acc3 = dsp::smlad(dsp::sxtb16(wv), x02, acc3);
    acc3 = dsp::smlad(dsp::sxtb16_ror8(wv), x13, acc3);
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

}  // namespace

uint32_t fully_connected_s8__dsp_scratch_bytes(int32_t in_features) {
  return static_cast<uint32_t>(in_features / 4) * 8u;
}

void fully_connected_s8__dsp(const FullyConnectedS8Params& params, const int32_t* multipliers,
                             const int32_t* shifts, int32_t batches, int32_t in_features,
                             int32_t out_features, const int8_t* input, const int8_t* weights,
                             const int32_t* bias, int8_t* output, uint32_t* scratch) {
  const int32_t input_offset = -params.input_zero_point;
  const int32_t filter_offset = -params.filter_zero_point;
  const int32_t channel_step = params.channel_count == 1 ? 0 : 1;
  const int32_t channel_count = static_cast<int32_t>(params.channel_count);
  const bool fast_requant = requant_dsp_applies(multipliers, channel_count);
  const int32_t groups = in_features / 4;
  const int32_t tail_begin = groups * 4;
  const uint32_t offset2 = dsp::pack16(input_offset, input_offset);
  const RequantDsp per_tensor = requant_dsp_prepare(multipliers[0], shifts[0]);

  for (int32_t b = 0; b < batches; ++b) {
    const int8_t* row = input + b * in_features;
    // Expand the row; sum of (x + input_offset) for the filter offset term.
    uint32_t row_sum = 0;
    for (int32_t g = 0; g < groups; ++g) {
      const uint32_t xv = dsp::load_u32(row + 4 * g);
      const uint32_t even = dsp::sxtab16(offset2, xv);
      const uint32_t odd = dsp::sxtab16_ror8(offset2, xv);
      scratch[2 * g] = even;
      scratch[2 * g + 1] = odd;
      row_sum += static_cast<uint32_t>(dsp::lo16(even) + dsp::hi16(even) + dsp::lo16(odd) +
                                       dsp::hi16(odd));
    }
    for (int32_t k = tail_begin; k < in_features; ++k) {
      row_sum += static_cast<uint32_t>(row[k] + input_offset);
    }
    const uint32_t offset_term = static_cast<uint32_t>(filter_offset) * row_sum;

    auto finish = [&](int32_t n, uint32_t acc) {
      if (bias != nullptr) acc += static_cast<uint32_t>(bias[n]);
      acc += offset_term;
      const int32_t c = n * channel_step;
      int32_t scaled;
      if (fast_requant) {
        scaled = requant_dsp(static_cast<int32_t>(acc),
                             channel_step == 0 ? per_tensor
                                               : requant_dsp_prepare(multipliers[c], shifts[c]));
      } else {
        scaled = multiply_by_quantized_multiplier(static_cast<int32_t>(acc), multipliers[c],
                                                  shifts[c]);
      }
      output[n] = static_cast<int8_t>(clamp_i32(wrapping_add(scaled, params.output_zero_point),
                                                params.act_min, params.act_max));
    };
    auto tail = [&](const int8_t* w, uint32_t acc) {
      for (int32_t k = tail_begin; k < in_features; ++k) {
        acc += static_cast<uint32_t>(w[k] * (row[k] + input_offset));
      }
      return acc;
    };

    int32_t n = 0;
    for (; n + 4 <= out_features; n += 4) {
      const int8_t* wr = weights + n * in_features;
      int32_t acc[4];
      dot_rows4(wr, in_features, scratch, groups, acc);
      if (tail_begin != in_features) {
        for (int32_t i = 0; i < 4; ++i) {
          acc[i] = static_cast<int32_t>(tail(wr + i * in_features, static_cast<uint32_t>(acc[i])));
        }
      }
      if (!fast_requant) {
        for (int32_t i = 0; i < 4; ++i) finish(n + i, static_cast<uint32_t>(acc[i]));
        continue;
      }
      // The common case inline: requant_dsp() applies to every channel.
      for (int32_t i = 0; i < 4; ++i) {
        uint32_t a = static_cast<uint32_t>(acc[i]) + offset_term;
        if (bias != nullptr) a += static_cast<uint32_t>(bias[n + i]);
        const int32_t c = (n + i) * channel_step;
        const int32_t scaled = requant_dsp(
            static_cast<int32_t>(a),
            channel_step == 0 ? per_tensor : requant_dsp_prepare(multipliers[c], shifts[c]));
        output[n + i] = static_cast<int8_t>(clamp_i32(
            wrapping_add(scaled, params.output_zero_point), params.act_min, params.act_max));
      }
    }
    for (; n < out_features; ++n) {
      const int8_t* w = weights + n * in_features;
      finish(n, tail(w, static_cast<uint32_t>(dot_row(w, scratch, groups, 0))));
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
  if ((reinterpret_cast<uintptr_t>(ctx.scratch().data()) & 3u) != 0) return Status::kBadParams;
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
