// Reference int16 softmax, bit-exact with TFLite's reference_ops::SoftmaxInt16 (tables
// with interpolation; see softmax.h). Two passes per row: the first writes each element's
// exp into the output row and sums them, the second scales them by the reciprocal.
#include "kernel_util.h"
#include "quant/quant_check.h"
#include "quant/quant_math.h"
#include "softmax/softmax.h"

namespace mote {
namespace {

int16_t saturate_s16(int32_t v) { return static_cast<int16_t>(clamp_i32(v, INT16_MIN, INT16_MAX)); }

}  // namespace

int16_t softmax_s16_lut_lookup(const int16_t* lut, int16_t value) {
  const int32_t index = 256 + (value >> 7);  // [0, 511]
  const int32_t offset = value & 0x7f;
  const int32_t base = lut[index];
  const int32_t slope = static_cast<int16_t>(lut[index + 1] - base);  // truncated, as TFLite
  const int32_t delta = (slope * offset + 64) >> 7;
  return static_cast<int16_t>(base + delta);
}

void softmax_s16(const SoftmaxS16Params& params, uint32_t outer, uint32_t depth, const int16_t* input,
                 int16_t* output) {
  for (uint32_t i = 0; i < outer; ++i, input += depth, output += depth) {
    int32_t max = INT16_MIN;
    for (uint32_t c = 0; c < depth; ++c) {
      if (input[c] > max) max = input[c];
    }
    int32_t sum_of_exps = 0;  // Q16.15
    for (uint32_t c = 0; c < depth; ++c) {
      const int32_t diff = input[c] - max;
      const int32_t scaled = multiply_by_quantized_multiplier(diff, params.input_multiplier, params.input_left_shift);
      // scaled <= 0 for the compiler's params; a larger left shift wraps (as TFLM's int32
      // arithmetic on a Cortex-M), so the recentring wraps too.
      const int16_t e = softmax_s16_lut_lookup(params.exp_lut, saturate_s16(wrapping_add(scaled, 32767)));
      output[c] = e;
      sum_of_exps = wrapping_add(sum_of_exps, e);
    }
    // check() bounds the row so that sum_of_exps < 2^31; a corrupted table may still make
    // it 0 or negative: keep the shifts defined (h - 1 in [0, 31], 31 - h in [1, 31]).
    int32_t headroom_plus_one = count_leading_zeros(static_cast<uint32_t>(sum_of_exps));
    if (headroom_plus_one < 1) headroom_plus_one = 1;
    if (headroom_plus_one > 30) headroom_plus_one = 30;
    const int64_t normalized = static_cast<int64_t>(static_cast<uint64_t>(static_cast<int64_t>(sum_of_exps))
                                                    << (headroom_plus_one - 1));
    const int32_t shifted_sum = static_cast<int32_t>((normalized + (1 << 13)) >> 14);
    const int16_t reciprocal =
        softmax_s16_lut_lookup(params.one_over_one_plus_x_lut, saturate_s16(shifted_sum - ((1 << 15) + (1 << 16))));
    const int32_t right_shift = 31 - headroom_plus_one;
    const int64_t round = int64_t{1} << (right_shift - 1);
    for (uint32_t c = 0; c < depth; ++c) {
      const int64_t product = static_cast<int64_t>(output[c]) * reciprocal + round;
      output[c] = static_cast<int16_t>(clamp_i32(static_cast<int32_t>(product >> right_shift), 0, 32767));
    }
  }
}

Status softmax_s16_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 1, 1, 1));
  if (ctx.params_bytes() != sizeof(SoftmaxS16Params)) return Status::kBadParams;
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  if (!is_s16(in) || !is_s16(out) || in.rank < 1 || !same_shape(in, out)) return Status::kBadParams;
  if (in.dims[in.rank - 1] < 1 || in.dims[in.rank - 1] > kSoftmaxS16MaxDepth) return Status::kBadParams;
  if (!index_math_fits(in)) return Status::kBadParams;
  if (!valid_shift(ctx.params<SoftmaxS16Params>().input_left_shift)) return Status::kBadParams;
  return Status::kOk;
}

void softmax_s16_run(const OpContext& ctx) {
  const TensorDesc& in = ctx.input_desc(0);
  const uint32_t depth = in.dims[in.rank - 1];
  softmax_s16(ctx.params<SoftmaxS16Params>(), element_count(in) / depth, depth,
              static_cast<const int16_t*>(ctx.input_data(0)), static_cast<int16_t*>(ctx.output_data(0)));
}

const KernelEntry kSoftmaxS16Entry = {softmax_s16_check, softmax_s16_run};

}  // namespace mote
