// Reference 16x8 2-D convolution (int16 activations, int8 weights), bit-exact with the
// int16 overload of TFLite's reference_integer_ops::ConvPerChannel<AccumScalar>.
//
// With the int64 accumulator nothing can overflow for valid shapes (|filter * input| <
// 2^22 and fewer than 2^31 taps); only adding an arbitrary int64 bias may wrap. The
// int32 accumulator wraps like TFLite's.
#include "conv2d/conv2d.h"
#include "conv2d/conv2d_shapes.h"
#include "kernel_util.h"
#include "quant/quant_check.h"
#include "quant/quant_math.h"

namespace mote {
namespace {

// Accumulator policy: int64 sums with the int64 requantization, or wrapping int32 sums
// with the int32 one.
struct Accumulate64 {
  using Acc = int64_t;
  using Bias = int64_t;
  static Acc add_bias(Acc acc, Bias bias) { return wrapping_add64(acc, bias); }
  static int32_t scale(Acc acc, int32_t multiplier, int32_t shift) {
    return multiply_by_quantized_multiplier64(acc, multiplier, shift);
  }
};
struct Accumulate32 {
  using Acc = uint32_t;
  using Bias = int32_t;
  static Acc add_bias(Acc acc, Bias bias) { return acc + static_cast<uint32_t>(bias); }
  static int32_t scale(Acc acc, int32_t multiplier, int32_t shift) {
    return multiply_by_quantized_multiplier(static_cast<int32_t>(acc), multiplier, shift);
  }
};

template <typename Policy>
void conv2d_s16_impl(const Conv2dS16Params& params, const int32_t* multipliers,
                     const int32_t* shifts, const Conv2dShape& shape, const int16_t* input,
                     const int8_t* filter, const typename Policy::Bias* bias,
                     int16_t* output) {
  using Acc = typename Policy::Acc;
  const int32_t in_c_per_group = shape.in_c / params.groups;
  const int32_t out_c_per_group = shape.out_c / params.groups;
  const int32_t filter_row_stride = shape.kernel_w * in_c_per_group;
  const int32_t filter_oc_stride = shape.kernel_h * filter_row_stride;
  const int32_t in_row_stride = shape.in_w * shape.in_c;
  const int32_t in_image_stride = shape.in_h * in_row_stride;

  for (int32_t b = 0; b < shape.batch; ++b) {
    const int16_t* image = input + b * in_image_stride;
    for (int32_t oy = 0; oy < shape.out_h; ++oy) {
      const int32_t y0 = oy * params.window.stride_h - params.window.pad_top;
      const TapRange ky_range = taps_inside(y0, params.window.dilation_h, shape.kernel_h, shape.in_h);
      for (int32_t ox = 0; ox < shape.out_w; ++ox) {
        const int32_t x0 = ox * params.window.stride_w - params.window.pad_left;
        const TapRange kx_range =
            taps_inside(x0, params.window.dilation_w, shape.kernel_w, shape.in_w);
        for (int32_t oc = 0; oc < shape.out_c; ++oc) {
          const int16_t* image_group = image + (oc / out_c_per_group) * in_c_per_group;
          const int8_t* filter_oc = filter + oc * filter_oc_stride;
          Acc acc = 0;
          for (int32_t ky = ky_range.begin; ky < ky_range.end; ++ky) {
            const int16_t* in_row = image_group + (y0 + ky * params.window.dilation_h) * in_row_stride;
            const int8_t* filter_row = filter_oc + ky * filter_row_stride;
            for (int32_t kx = kx_range.begin; kx < kx_range.end; ++kx) {
              const int16_t* in_px = in_row + (x0 + kx * params.window.dilation_w) * shape.in_c;
              const int8_t* w = filter_row + kx * in_c_per_group;
              for (int32_t ic = 0; ic < in_c_per_group; ++ic) {
                acc += static_cast<Acc>(w[ic] * in_px[ic]);
              }
            }
          }
          if (bias != nullptr) acc = Policy::add_bias(acc, bias[oc]);
          const int32_t scaled = Policy::scale(acc, multipliers[oc], shifts[oc]);
          *output++ = static_cast<int16_t>(clamp_i32(scaled, params.act_min, params.act_max));
        }
      }
    }
  }
}

}  // namespace

void conv2d_s16(const Conv2dS16Params& params, const int32_t* multipliers,
                const int32_t* shifts, const Conv2dShape& shape, const int16_t* input,
                const int8_t* filter, const void* bias, int16_t* output) {
  if (params.accumulator == 32) {
    conv2d_s16_impl<Accumulate32>(params, multipliers, shifts, shape, input, filter,
                                  static_cast<const int32_t*>(bias), output);
  } else {
    conv2d_s16_impl<Accumulate64>(params, multipliers, shifts, shape, input, filter,
                                  static_cast<const int64_t*>(bias), output);
  }
}

Status conv2d_s16_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 2, 3, 1));
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& filter = ctx.input_desc(1);
  const TensorDesc& out = ctx.output_desc(0);
  if (!is_s16(in) || !is_s8(filter) || !is_s16(out)) return Status::kBadParams;
  if (in.rank != 4 || filter.rank != 4) return Status::kBadParams;
  const uint32_t out_c = filter.dims[0];
  if (!params_with_arrays(ctx, sizeof(Conv2dS16Params), 2, out_c)) return Status::kBadParams;
  const Conv2dS16Params& p = ctx.params<Conv2dS16Params>();
  if (!conv2d_shapes_valid(p, in, filter, out)) return Status::kBadParams;
  if (p.accumulator != 32 && p.accumulator != 64) return Status::kBadParams;
  if (ctx.input_count() == 3 && ctx.has_input(2)) {
    const TensorDesc& bias = ctx.input_desc(2);
    const bool dtype_ok = p.accumulator == 64 ? is_s64(bias) : is_s32(bias);
    if (!dtype_ok || bias.rank != 1 || bias.dims[0] != out_c) return Status::kBadParams;
  }
  if (!valid_quant_range<int16_t>(p.act_min, p.act_max)) return Status::kBadParams;
  const int32_t max_shift = p.accumulator == 64 ? kMaxShift64 : kMaxShift;
  if (!shifts_in_range(params_array(p, 1, out_c), out_c, kMinShift, max_shift)) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void conv2d_s16_run(const OpContext& ctx) {
  const TensorDesc& filter = ctx.input_desc(1);
  const Conv2dShape shape = window_shape(ctx.input_desc(0), filter, ctx.output_desc(0));
  const Conv2dS16Params& p = ctx.params<Conv2dS16Params>();
  const uint32_t out_c = filter.dims[0];
  const void* bias = ctx.input_count() == 3 ? ctx.input_data(2) : nullptr;
  conv2d_s16(p, params_array(p, 0, out_c), params_array(p, 1, out_c), shape,
             static_cast<const int16_t*>(ctx.input_data(0)),
             static_cast<const int8_t*>(ctx.input_data(1)), bias,
             static_cast<int16_t*>(ctx.output_data(0)));
}

const KernelEntry kConv2dS16Entry = {conv2d_s16_check, conv2d_s16_run};

}  // namespace mote
