// Reference int8 softmax, bit-exact with TFLite's reference_ops::Softmax for int8 input
// and output (gemmlowp fixed point; see softmax.h). Two passes per row, like TFLite:
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

}  // namespace

void softmax_s8(const SoftmaxS8Params& params, uint32_t outer, uint32_t depth, const int8_t* input,
                int8_t* output) {
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

    int32_t exponent = num_bits_over_unit + 31 - 8;
    if (exponent < 0) exponent = 0;
    if (exponent > 31) exponent = 31;
    for (uint32_t c = 0; c < depth; ++c) {
      const int32_t diff = input[c] - max;
      if (diff >= params.diff_min) {
        const int32_t e = scaled_exp(params, diff);
        const int32_t unsat = rounding_divide_by_pot(
            saturating_rounding_doubling_high_mul(shifted_scale, e), exponent);
        output[c] = static_cast<int8_t>(clamp_i32(wrapping_sub(unsat, 128), -128, 127));
      } else {
        output[c] = -128;
      }
    }
  }
}

Status softmax_s8_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 1, 1, 1));
  if (ctx.params_bytes() != sizeof(SoftmaxS8Params)) return Status::kBadParams;
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  if (!is_s8(in) || !is_s8(out) || in.rank < 1 || !same_shape(in, out)) {
    return Status::kBadParams;
  }
  if (!index_math_fits(in)) return Status::kBadParams;
  const SoftmaxS8Params& p = ctx.params<SoftmaxS8Params>();
  if (p.input_left_shift < 0 || p.input_left_shift > 31 || p.diff_min > 0) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void softmax_s8_run(const OpContext& ctx) {
  const TensorDesc& in = ctx.input_desc(0);
  const uint32_t depth = in.dims[in.rank - 1];
  const uint32_t outer = depth == 0 ? 0 : element_count(in) / depth;
  softmax_s8(ctx.params<SoftmaxS8Params>(), outer, depth,
             static_cast<const int8_t*>(ctx.input_data(0)),
             static_cast<int8_t*>(ctx.output_data(0)));
}

const KernelEntry kSoftmaxS8Entry = {softmax_s8_check, softmax_s8_run};

}  // namespace mote
