// Reference 16x8 fully connected layer (int16 activations, int8 weights), bit-exact with
// the int16 instantiations of TFLite's reference_integer_ops::FullyConnected (per-tensor)
// and FullyConnectedPerChannel, with int64 or int32 accumulation as TFLite Micro picks it.
//
// Each term (weight - filter_zero_point) * input is below 2^24 in magnitude, so the int64
// sum of fewer than 2^31 terms cannot overflow; only adding an arbitrary int64 bias may
// wrap. The int32 accumulator wraps like TFLite's.
#include "fully_connected/fully_connected.h"
#include "fully_connected/fully_connected_s16_common.h"
#include "kernel_util.h"
#include "quant/quant_check.h"
#include "quant/quant_math.h"

namespace mote {
namespace {

// Acc: int64_t (exact sums) or uint32_t (wrapping int32 sums); the tail adds the bias
// and requantizes in the accumulator's width (fully_connected_s16_common.h).
template <typename Acc>
void fully_connected_s16_impl(const FullyConnectedS16Params& params, const int32_t* multipliers,
                              const int32_t* shifts, int32_t batches, int32_t in_features,
                              int32_t out_features, const int16_t* input, const int8_t* weights,
                              const void* bias, int16_t* output) {
  const int32_t filter_offset = -params.filter_zero_point;
  const int32_t channel_step = params.channel_count == 1 ? 0 : 1;
  for (int32_t b = 0; b < batches; ++b) {
    const int16_t* row = input + b * in_features;
    for (int32_t n = 0; n < out_features; ++n) {
      const int8_t* w = weights + n * in_features;
      Acc acc = 0;
      for (int32_t k = 0; k < in_features; ++k) {
        acc += static_cast<Acc>((w[k] + filter_offset) * row[k]);
      }
      const int32_t c = n * channel_step;
      *output++ = fully_connected_s16_output(params, static_cast<int64_t>(acc), bias, n,
                                             multipliers[c], shifts[c]);
    }
  }
}

}  // namespace

void fully_connected_s16(const FullyConnectedS16Params& params, const int32_t* multipliers,
                         const int32_t* shifts, int32_t batches, int32_t in_features,
                         int32_t out_features, const int16_t* input, const int8_t* weights,
                         const void* bias, int16_t* output) {
  if (params.accumulator == 32) {
    fully_connected_s16_impl<uint32_t>(params, multipliers, shifts, batches, in_features,
                                       out_features, input, weights, bias, output);
  } else {
    fully_connected_s16_impl<int64_t>(params, multipliers, shifts, batches, in_features,
                                      out_features, input, weights, bias, output);
  }
}

Status fully_connected_s16_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 2, 3, 1));
  if (ctx.params_bytes() < sizeof(FullyConnectedS16Params)) return Status::kBadParams;
  const FullyConnectedS16Params& p = ctx.params<FullyConnectedS16Params>();
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& weights = ctx.input_desc(1);
  const TensorDesc& out = ctx.output_desc(0);
  if (!is_s16(in) || !is_s8(weights) || !is_s16(out)) return Status::kBadParams;
  if (weights.rank != 2 || out.rank < 1) return Status::kBadParams;
  if (!index_math_fits(in) || !index_math_fits(weights) || !index_math_fits(out)) {
    return Status::kBadParams;
  }
  const int64_t in_features = weights.dims[1];
  const int64_t out_features = weights.dims[0];
  if (out.dims[out.rank - 1] != out_features || out_features == 0) return Status::kBadParams;
  const int64_t batches = static_cast<int64_t>(element_count(out)) / out_features;
  if (static_cast<int64_t>(element_count(in)) != batches * in_features) return Status::kBadParams;
  if (p.channel_count != 1 && p.channel_count != out_features) return Status::kBadParams;
  if (!params_with_arrays(ctx, sizeof(FullyConnectedS16Params), 2, p.channel_count)) {
    return Status::kBadParams;
  }
  if (p.accumulator != 32 && p.accumulator != 64) return Status::kBadParams;
  if (ctx.input_count() == 3 && ctx.has_input(2)) {
    const TensorDesc& bias = ctx.input_desc(2);
    const bool dtype_ok = p.accumulator == 64 ? is_s64(bias) : is_s32(bias);
    if (!dtype_ok || bias.rank != 1 || bias.dims[0] != out_features) return Status::kBadParams;
  }
  if (!valid_zero_point<int8_t>(p.filter_zero_point) ||
      !valid_quant_range<int16_t>(p.act_min, p.act_max)) {
    return Status::kBadParams;
  }
  const int32_t max_shift = p.accumulator == 64 ? kMaxShift64 : kMaxShift;
  if (!shifts_in_range(params_array(p, 1, p.channel_count), p.channel_count, kMinShift,
                       max_shift)) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void fully_connected_s16_run(const OpContext& ctx) {
  const FullyConnectedS16Args a = fully_connected_s16_args(ctx);
  fully_connected_s16(*a.params, a.multipliers, a.shifts, a.batches, a.in_features, a.out_features,
                      a.input, a.weights, a.bias, a.output);
}

const KernelEntry kFullyConnectedS16Entry = {fully_connected_s16_check, fully_connected_s16_run};

}  // namespace mote
