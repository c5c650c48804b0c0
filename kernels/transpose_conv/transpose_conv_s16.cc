// Reference 16x8 transposed convolution, bit-exact with TFLite's int16
// reference_integer_ops::TransposeConv.
//
// TFLite scatters every input pixel into an int64 scratch copy of the output. This
// kernel gathers instead: for each output element it visits exactly the (input pixel,
// tap) pairs that scatter onto it. The int64 sums are exact, so the order does not
// matter and the results are identical, without the output-sized scratch buffer.
#include "kernel_util.h"
#include "quant/quant_check.h"
#include "quant/quant_math.h"
#include "transpose_conv/transpose_conv.h"

namespace mote {

void transpose_conv_s16(const TransposeConvS16Params& params, const int32_t* multipliers,
                        const int32_t* shifts, const TransposeConvShape& shape,
                        const int16_t* input, const int8_t* filter, const int64_t* bias,
                        int16_t* output) {
  const int32_t in_row_stride = shape.in_w * shape.in_c;
  const int32_t in_image_stride = shape.in_h * in_row_stride;
  const int32_t filter_row_stride = shape.kernel_w * shape.in_c;
  const int32_t filter_oc_stride = shape.kernel_h * filter_row_stride;

  for (int32_t b = 0; b < shape.batch; ++b) {
    const int16_t* image = input + b * in_image_stride;
    for (int32_t oy = 0; oy < shape.out_h; ++oy) {
      // Output row oy receives input row iy through tap ky when
      // iy * stride_h + ky == oy + pad_top.
      const int32_t ty = oy + params.pad_top;
      for (int32_t ox = 0; ox < shape.out_w; ++ox) {
        const int32_t tx = ox + params.pad_left;
        for (int32_t oc = 0; oc < shape.out_c; ++oc) {
          const int8_t* filter_oc = filter + oc * filter_oc_stride;
          int64_t acc = 0;
          for (int32_t ky = ty % params.stride_h; ky < shape.kernel_h && ky <= ty;
               ky += params.stride_h) {
            const int32_t iy = (ty - ky) / params.stride_h;
            if (iy >= shape.in_h) continue;
            for (int32_t kx = tx % params.stride_w; kx < shape.kernel_w && kx <= tx;
                 kx += params.stride_w) {
              const int32_t ix = (tx - kx) / params.stride_w;
              if (ix >= shape.in_w) continue;
              const int16_t* in_px = image + iy * in_row_stride + ix * shape.in_c;
              const int8_t* w = filter_oc + ky * filter_row_stride + kx * shape.in_c;
              for (int32_t ic = 0; ic < shape.in_c; ++ic) {
                acc += static_cast<int64_t>(in_px[ic] * w[ic]);
              }
            }
          }
          if (bias != nullptr) acc = wrapping_add64(acc, bias[oc]);
          const int32_t scaled = multiply_by_quantized_multiplier64(acc, multipliers[oc], shifts[oc]);
          *output++ = static_cast<int16_t>(clamp_i32(scaled, params.act_min, params.act_max));
        }
      }
    }
  }
}

Status transpose_conv_s16_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 2, 3, 1));
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& filter = ctx.input_desc(1);
  const TensorDesc& out = ctx.output_desc(0);
  if (!is_s16(in) || !is_s8(filter) || !is_s16(out)) return Status::kBadParams;
  if (in.rank != 4 || filter.rank != 4 || out.rank != 4) return Status::kBadParams;
  const uint32_t out_c = filter.dims[0];
  if (!params_with_arrays(ctx, sizeof(TransposeConvS16Params), 2, out_c)) {
    return Status::kBadParams;
  }
  const TransposeConvS16Params& p = ctx.params<TransposeConvS16Params>();
  if (!index_math_fits(in) || !index_math_fits(filter) || !index_math_fits(out)) {
    return Status::kBadParams;
  }
  if (filter.dims[3] != in.dims[3] || out.dims[0] != in.dims[0] || out.dims[3] != out_c) {
    return Status::kBadParams;
  }
  if (p.stride_h < 1 || p.stride_w < 1 || p.pad_top < 0 || p.pad_left < 0) {
    return Status::kBadParams;
  }
  // Bounds oy + pad_top and the tap loops in int32.
  if (int64_t{out.dims[1]} + p.pad_top + filter.dims[1] + p.stride_h > INT32_MAX ||
      int64_t{out.dims[2]} + p.pad_left + filter.dims[2] + p.stride_w > INT32_MAX) {
    return Status::kBadParams;
  }
  if (ctx.input_count() == 3 && ctx.has_input(2)) {
    const TensorDesc& bias = ctx.input_desc(2);
    if (!is_s64(bias) || bias.rank != 1 || bias.dims[0] != out_c) return Status::kBadParams;
  }
  if (!valid_quant_range<int16_t>(p.act_min, p.act_max)) return Status::kBadParams;
  if (!shifts_in_range(params_array(p, 1, out_c), out_c, kMinShift, kMaxShift64)) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void transpose_conv_s16_run(const OpContext& ctx) {
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& filter = ctx.input_desc(1);
  const TensorDesc& out = ctx.output_desc(0);
  TransposeConvShape shape;
  shape.batch = static_cast<int32_t>(in.dims[0]);
  shape.in_h = static_cast<int32_t>(in.dims[1]);
  shape.in_w = static_cast<int32_t>(in.dims[2]);
  shape.in_c = static_cast<int32_t>(in.dims[3]);
  shape.out_h = static_cast<int32_t>(out.dims[1]);
  shape.out_w = static_cast<int32_t>(out.dims[2]);
  shape.out_c = static_cast<int32_t>(out.dims[3]);
  shape.kernel_h = static_cast<int32_t>(filter.dims[1]);
  shape.kernel_w = static_cast<int32_t>(filter.dims[2]);
  const TransposeConvS16Params& p = ctx.params<TransposeConvS16Params>();
  const uint32_t out_c = filter.dims[0];
  const int64_t* bias =
      ctx.input_count() == 3 ? static_cast<const int64_t*>(ctx.input_data(2)) : nullptr;
  transpose_conv_s16(p, params_array(p, 0, out_c), params_array(p, 1, out_c), shape,
                     static_cast<const int16_t*>(ctx.input_data(0)),
                     static_cast<const int8_t*>(ctx.input_data(1)), bias,
                     static_cast<int16_t*>(ctx.output_data(0)));
}

const KernelEntry kTransposeConvS16Entry = {transpose_conv_s16_check, transpose_conv_s16_run};

}  // namespace mote
