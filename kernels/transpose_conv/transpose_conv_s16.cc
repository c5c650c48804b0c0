// Reference 16x8 transposed convolution, bit-exact with TFLite's int16
// reference_integer_ops::TransposeConv (int64 accumulator and bias).
#include "quant/quant_check.h"
#include "quant/quant_math.h"
#include "transpose_conv/transpose_conv_gather.h"

namespace mote {

void transpose_conv_s16(const TransposeConvS16Params& params, const int32_t* multipliers,
                        const int32_t* shifts, const TransposeConvShape& shape,
                        const int16_t* input, const int8_t* filter, const int64_t* bias,
                        int16_t* output) {
  transpose_conv_gather<int64_t>(
      params, shape, input, filter, output,
      [](int64_t acc, int16_t x, int8_t w) { return acc + static_cast<int64_t>(x * w); },
      [&](int64_t acc, int32_t oc) {
        if (bias != nullptr) acc = wrapping_add64(acc, bias[oc]);
        const int32_t scaled = multiply_by_quantized_multiplier64(acc, multipliers[oc], shifts[oc]);
        return static_cast<int16_t>(clamp_i32(scaled, params.act_min, params.act_max));
      });
}

Status transpose_conv_s16_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 2, 3, 1));
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& filter = ctx.input_desc(1);
  const TensorDesc& out = ctx.output_desc(0);
  if (!is_s16(in) || !is_s8(filter) || !is_s16(out) || filter.rank != 4) return Status::kBadParams;
  const uint32_t out_c = filter.dims[0];
  if (!params_with_arrays(ctx, sizeof(TransposeConvS16Params), 2, out_c)) {
    return Status::kBadParams;
  }
  const TransposeConvS16Params& p = ctx.params<TransposeConvS16Params>();
  if (!transpose_conv_tensors_valid(ctx, p)) return Status::kBadParams;
  if (ctx.input_count() == 3 && ctx.has_input(2) && !is_s64(ctx.input_desc(2))) return Status::kBadParams;
  if (!valid_quant_range<int16_t>(p.act_min, p.act_max)) return Status::kBadParams;
  if (!shifts_in_range(params_array(p, 1, out_c), out_c, kMinShift, kMaxShift64)) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void transpose_conv_s16_run(const OpContext& ctx) {
  const TransposeConvS16Params& p = ctx.params<TransposeConvS16Params>();
  const uint32_t out_c = ctx.input_desc(1).dims[0];
  transpose_conv_s16(p, params_array(p, 0, out_c), params_array(p, 1, out_c), window_shape(ctx.input_desc(0), ctx.input_desc(1), ctx.output_desc(0)),
                     static_cast<const int16_t*>(ctx.input_data(0)),
                     static_cast<const int8_t*>(ctx.input_data(1)), transpose_conv_bias<int64_t>(ctx),
                     static_cast<int16_t*>(ctx.output_data(0)));
}

const KernelEntry kTransposeConvS16Entry = {transpose_conv_s16_check, transpose_conv_s16_run};

}  // namespace mote
