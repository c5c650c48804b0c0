// Reference int8 fully connected layer, bit-exact with TFLite's
// reference_integer_ops::FullyConnected (per-tensor) and FullyConnectedPerChannel: the
// two differ only in where the multiplier comes from and in the filter offset, which the
// per-channel form never applies (the compiler passes 0 for it).
#include "fully_connected/fully_connected.h"
#include "kernel_util.h"
#include "quant/quant_check.h"
#include "quant/quant_math.h"

namespace mote {

void fully_connected_s8(const FullyConnectedS8Params& params, const int32_t* multipliers,
                        const int32_t* shifts, int32_t batches, int32_t in_features,
                        int32_t out_features, const int8_t* input, const int8_t* weights,
                        const int32_t* bias, int8_t* output) {
  const int32_t input_offset = -params.input_zero_point;
  const int32_t filter_offset = -params.filter_zero_point;
  const int32_t channel_step = params.channel_count == 1 ? 0 : 1;
  for (int32_t b = 0; b < batches; ++b) {
    const int8_t* row = input + b * in_features;
    for (int32_t n = 0; n < out_features; ++n) {
      const int8_t* w = weights + n * in_features;
      uint32_t acc = 0;
      for (int32_t k = 0; k < in_features; ++k) {
        acc += static_cast<uint32_t>((w[k] + filter_offset) * (row[k] + input_offset));
      }
      if (bias != nullptr) acc += static_cast<uint32_t>(bias[n]);
      const int32_t c = n * channel_step;
      const int32_t scaled =
          multiply_by_quantized_multiplier(static_cast<int32_t>(acc), multipliers[c], shifts[c]);
      *output++ = static_cast<int8_t>(
          clamp_i32(wrapping_add(scaled, params.output_zero_point), params.act_min, params.act_max));
    }
  }
}

Status fully_connected_s8_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 2, 3, 1));
  if (ctx.params_bytes() < sizeof(FullyConnectedS8Params)) return Status::kBadParams;
  const FullyConnectedS8Params& p = ctx.params<FullyConnectedS8Params>();
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& weights = ctx.input_desc(1);
  const TensorDesc& out = ctx.output_desc(0);
  if (!is_s8(in) || !is_s8(weights) || !is_s8(out)) return Status::kBadParams;
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
  if (!params_with_arrays(ctx, sizeof(FullyConnectedS8Params), 2, p.channel_count)) {
    return Status::kBadParams;
  }
  if (ctx.input_count() == 3 && ctx.has_input(2)) {
    const TensorDesc& bias = ctx.input_desc(2);
    if (!is_s32(bias) || bias.rank != 1 || bias.dims[0] != out_features) {
      return Status::kBadParams;
    }
  }
  if (!valid_zero_point<int8_t>(p.input_zero_point) ||
      !valid_zero_point<int8_t>(p.filter_zero_point) ||
      !valid_zero_point<int8_t>(p.output_zero_point) ||
      !valid_quant_range<int8_t>(p.act_min, p.act_max)) {
    return Status::kBadParams;
  }
  if (!shifts_in_range(params_array(p, 1, p.channel_count), p.channel_count, kMinShift,
                       kMaxShift)) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void fully_connected_s8_run(const OpContext& ctx) {
  const TensorDesc& weights = ctx.input_desc(1);
  const FullyConnectedS8Params& p = ctx.params<FullyConnectedS8Params>();
  const int32_t in_features = static_cast<int32_t>(weights.dims[1]);
  const int32_t out_features = static_cast<int32_t>(weights.dims[0]);
  const int32_t batches = static_cast<int32_t>(element_count(ctx.output_desc(0))) / out_features;
  const int32_t* bias =
      ctx.input_count() == 3 ? static_cast<const int32_t*>(ctx.input_data(2)) : nullptr;
  fully_connected_s8(p, params_array(p, 0, p.channel_count), params_array(p, 1, p.channel_count),
                     batches, in_features, out_features,
                     static_cast<const int8_t*>(ctx.input_data(0)),
                     static_cast<const int8_t*>(ctx.input_data(1)), bias,
                     static_cast<int8_t*>(ctx.output_data(0)));
}

const KernelEntry kFullyConnectedS8Entry = {fully_connected_s8_check, fully_connected_s8_run};

}  // namespace mote
