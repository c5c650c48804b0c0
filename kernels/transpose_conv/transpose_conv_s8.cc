// Reference int8 transposed convolution, bit-exact with TFLite's int8
// reference_integer_ops::TransposeConv (int32 accumulator, int32 bias, per-channel
// requantization).
#include "quant/quant_check.h"
#include "quant/quant_math.h"
#include "transpose_conv/transpose_conv_gather.h"

namespace mote {

void transpose_conv_s8(const TransposeConvS8Params& params, const int32_t* multipliers,
                       const int32_t* shifts, const TransposeConvShape& shape, const int8_t* input,
                       const int8_t* filter, const int32_t* bias, int8_t* output) {
  const int32_t input_offset = -params.input_zero_point;
  // Each term is at most 255 * 128 in magnitude; the sum wraps as two's complement.
  transpose_conv_gather<int32_t>(
      params, shape, input, filter, output,
      [input_offset](int32_t acc, int8_t x, int8_t w) { return wrapping_add(acc, (x + input_offset) * w); },
      [&](int32_t acc, int32_t oc) {
        if (bias != nullptr) acc = wrapping_add(acc, bias[oc]);
        const int32_t scaled = multiply_by_quantized_multiplier(acc, multipliers[oc], shifts[oc]);
        return static_cast<int8_t>(
            clamp_i32(wrapping_add(scaled, params.output_zero_point), params.act_min, params.act_max));
      });
}

Status transpose_conv_s8_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 2, 3, 1));
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& filter = ctx.input_desc(1);
  const TensorDesc& out = ctx.output_desc(0);
  if (!is_s8(in) || !is_s8(filter) || !is_s8(out) || filter.rank != 4) return Status::kBadParams;
  const uint32_t out_c = filter.dims[0];
  if (!params_with_arrays(ctx, sizeof(TransposeConvS8Params), 2, out_c)) return Status::kBadParams;
  const TransposeConvS8Params& p = ctx.params<TransposeConvS8Params>();
  if (!transpose_conv_tensors_valid(ctx, p)) return Status::kBadParams;
  if (ctx.input_count() == 3 && ctx.has_input(2) && !is_s32(ctx.input_desc(2))) return Status::kBadParams;
  if (!valid_zero_point<int8_t>(p.input_zero_point) || !valid_zero_point<int8_t>(p.output_zero_point) ||
      !valid_quant_range<int8_t>(p.act_min, p.act_max)) {
    return Status::kBadParams;
  }
  if (!shifts_in_range(params_array(p, 1, out_c), out_c, kMinShift, kMaxShift)) return Status::kBadParams;
  return Status::kOk;
}

void transpose_conv_s8_run(const OpContext& ctx) {
  const TransposeConvS8Params& p = ctx.params<TransposeConvS8Params>();
  const uint32_t out_c = ctx.input_desc(1).dims[0];
  transpose_conv_s8(p, params_array(p, 0, out_c), params_array(p, 1, out_c), window_shape(ctx.input_desc(0), ctx.input_desc(1), ctx.output_desc(0)),
                    static_cast<const int8_t*>(ctx.input_data(0)), static_cast<const int8_t*>(ctx.input_data(1)),
                    transpose_conv_bias<int32_t>(ctx), static_cast<int8_t*>(ctx.output_data(0)));
}

const KernelEntry kTransposeConvS8Entry = {transpose_conv_s8_check, transpose_conv_s8_run};

}  // namespace mote
