// Reference integer-to-integer requantization, bit-exact with TFLite's
// reference_ops::Requantize (see quantize.h). Elementwise; may run in place when input
// and output have the same element size.
#include "kernel_util.h"
#include "quant/quant_check.h"
#include "quant/quant_math.h"
#include "quantize/quantize.h"

namespace mote {
namespace {

template <typename In, typename Out>
void requantize(const RequantizeParams& p, uint32_t count, const In* input, Out* output) {
  for (uint32_t i = 0; i < count; ++i) {
    const int32_t x = wrapping_sub(input[i], p.input_zero_point);
    const int32_t y =
        wrapping_add(multiply_by_quantized_multiplier(x, p.multiplier, p.shift), p.output_zero_point);
    output[i] = static_cast<Out>(clamp_i32(y, IntRange<Out>::kMin, IntRange<Out>::kMax));
  }
}

template <typename In, typename Out>
Status requantize_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 1, 1, 1));
  if (ctx.params_bytes() != sizeof(RequantizeParams)) return Status::kBadParams;
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  if (!has_dtype(in, IntRange<In>::kDType) || !has_dtype(out, IntRange<Out>::kDType) ||
      !same_shape(in, out)) {
    return Status::kBadParams;
  }
  const RequantizeParams& p = ctx.params<RequantizeParams>();
  if (!valid_zero_point<In>(p.input_zero_point) || !valid_zero_point<Out>(p.output_zero_point) ||
      !valid_shift(p.shift)) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

template <typename In, typename Out>
void requantize_run(const OpContext& ctx) {
  requantize(ctx.params<RequantizeParams>(), element_count(ctx.input_desc(0)),
             static_cast<const In*>(ctx.input_data(0)), static_cast<Out*>(ctx.output_data(0)));
}

template <typename In, typename Out>
constexpr KernelEntry requantize_entry() {
  return KernelEntry{requantize_check<In, Out>, requantize_run<In, Out>};
}

}  // namespace

const KernelEntry kRequantizeS8S8Entry = requantize_entry<int8_t, int8_t>();
const KernelEntry kRequantizeS8S16Entry = requantize_entry<int8_t, int16_t>();
const KernelEntry kRequantizeS8S32Entry = requantize_entry<int8_t, int32_t>();
const KernelEntry kRequantizeS16S8Entry = requantize_entry<int16_t, int8_t>();
const KernelEntry kRequantizeS16S16Entry = requantize_entry<int16_t, int16_t>();
const KernelEntry kRequantizeS16S32Entry = requantize_entry<int16_t, int32_t>();
const KernelEntry kRequantizeS32S8Entry = requantize_entry<int32_t, int8_t>();
const KernelEntry kRequantizeS32S16Entry = requantize_entry<int32_t, int16_t>();
const KernelEntry kRequantizeU8S8Entry = requantize_entry<uint8_t, int8_t>();
const KernelEntry kRequantizeS8U8Entry = requantize_entry<int8_t, uint8_t>();

}  // namespace mote
