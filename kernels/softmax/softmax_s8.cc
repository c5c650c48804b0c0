// Reference int8-input softmax, bit-exact with TFLite's reference_ops::Softmax for int8
// input and int8 or int16 output (gemmlowp fixed point; see softmax.h). Two passes per row, like TFLite:
// the first sums the exponentials, the second recomputes each one and scales it by the
// reciprocal of the sum (no scratch memory).
#include "kernel_util.h"
#include "quant/fixed_point.h"
#include "quant/quant_check.h"
#include "quant/quant_math.h"
#include "softmax/softmax.h"

namespace mote {
namespace {

constexpr int32_t kScaledDiffIntegerBits = 5;
constexpr int32_t kAccumulationIntegerBits = 12;

// exp(beta * input_scale * diff) in Q0, for diff >= diff_min.
inline int32_t scaled_exp(const SoftmaxS8Params& p, int32_t diff) {
  const int32_t shifted = static_cast<int32_t>(static_cast<uint32_t>(diff) << p.input_left_shift);
  const int32_t rescaled = saturating_rounding_doubling_high_mul(shifted, p.input_multiplier);
  return fixed_point::exp_on_negative_values<kScaledDiffIntegerBits>(rescaled);
}

// OutT: int8_t (zero point -128) or int16_t (zero point -32768).
template <typename OutT>
void softmax_s8_to(const SoftmaxS8Params& params, uint32_t outer, uint32_t depth, const int8_t* input,
                   OutT* output) {
  constexpr int32_t kOutMin = IntRange<OutT>::kMin;
  constexpr int32_t kOutMax = IntRange<OutT>::kMax;
  constexpr int32_t kOutBits = static_cast<int32_t>(sizeof(OutT) * 8);
  for (uint32_t i = 0; i < outer; ++i, input += depth, output += depth) {
    int32_t max = -128;
    for (uint32_t c = 0; c < depth; ++c) {
      if (input[c] > max) max = input[c];
    }

    int32_t sum_of_exps = 0;  // Q12.19
    for (uint32_t c = 0; c < depth; ++c) {
      const int32_t diff = input[c] - max;
      if (diff >= params.diff_min) {
        sum_of_exps = wrapping_add(
            sum_of_exps, rounding_divide_by_pot(scaled_exp(params, diff), kAccumulationIntegerBits));
      }
    }

    // TFLite GetReciprocal: 1 / sum as a Q0 value times 2^num_bits_over_unit.
    const uint32_t sum_bits = static_cast<uint32_t>(sum_of_exps);
    const int32_t headroom_plus_one = count_leading_zeros(sum_bits);
    const int32_t num_bits_over_unit = kAccumulationIntegerBits - headroom_plus_one;
    const uint32_t normalized = headroom_plus_one < 32 ? sum_bits << headroom_plus_one : 0u;
    const int32_t shifted_sum_minus_one = static_cast<int32_t>(normalized - (1u << 31));
    const int32_t shifted_scale =
        fixed_point::one_over_one_plus_x_for_x_in_0_1(shifted_sum_minus_one);

    int32_t exponent = num_bits_over_unit + 31 - kOutBits;
    if (exponent < 0) exponent = 0;
    if (exponent > 31) exponent = 31;
    for (uint32_t c = 0; c < depth; ++c) {
      const int32_t diff = input[c] - max;
      if (diff >= params.diff_min) {
        const int32_t e = scaled_exp(params, diff);
        const int32_t unsat = rounding_divide_by_pot(
            saturating_rounding_doubling_high_mul(shifted_scale, e), exponent);
        output[c] = static_cast<OutT>(clamp_i32(wrapping_add(unsat, kOutMin), kOutMin, kOutMax));
      } else {
        output[c] = static_cast<OutT>(kOutMin);
      }
    }
  }
}

}  // namespace

void softmax_s8(const SoftmaxS8Params& params, uint32_t outer, uint32_t depth, const int8_t* input,
                int8_t* output) {
  softmax_s8_to(params, outer, depth, input, output);
}
void softmax_s8_s16(const SoftmaxS8Params& params, uint32_t outer, uint32_t depth, const int8_t* input,
                    int16_t* output) {
  softmax_s8_to(params, outer, depth, input, output);
}

namespace {

Status softmax_s8_check_as(const OpContext& ctx, DType out_dtype) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 1, 1, 1));
  if (ctx.params_bytes() != sizeof(SoftmaxS8Params)) return Status::kBadParams;
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  if (!is_s8(in) || !has_dtype(out, out_dtype) || in.rank < 1 || !same_shape(in, out)) {
    return Status::kBadParams;
  }
  if (!index_math_fits(in)) return Status::kBadParams;
  const SoftmaxS8Params& p = ctx.params<SoftmaxS8Params>();
  if (p.input_left_shift < 0 || p.input_left_shift > 31 || p.diff_min > 0) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

// The rows of the last axis: *outer rows of *depth elements.
void softmax_rows(const TensorDesc& in, uint32_t* outer, uint32_t* depth) {
  *depth = in.dims[in.rank - 1];
  *outer = *depth == 0 ? 0 : element_count(in) / *depth;
}

}  // namespace

Status softmax_s8_check(const OpContext& ctx) { return softmax_s8_check_as(ctx, DType::kInt8); }
Status softmax_s8_s16_check(const OpContext& ctx) { return softmax_s8_check_as(ctx, DType::kInt16); }

void softmax_s8_run(const OpContext& ctx) {
  uint32_t outer = 0, depth = 0;
  softmax_rows(ctx.input_desc(0), &outer, &depth);
  softmax_s8(ctx.params<SoftmaxS8Params>(), outer, depth, static_cast<const int8_t*>(ctx.input_data(0)),
             static_cast<int8_t*>(ctx.output_data(0)));
}
void softmax_s8_s16_run(const OpContext& ctx) {
  uint32_t outer = 0, depth = 0;
  softmax_rows(ctx.input_desc(0), &outer, &depth);
  softmax_s8_s16(ctx.params<SoftmaxS8Params>(), outer, depth, static_cast<const int8_t*>(ctx.input_data(0)),
                 static_cast<int16_t*>(ctx.output_data(0)));
}

const KernelEntry kSoftmaxS8Entry = {softmax_s8_check, softmax_s8_run};
const KernelEntry kSoftmaxS8S16Entry = {softmax_s8_s16_check, softmax_s8_s16_run};

}  // namespace mote
