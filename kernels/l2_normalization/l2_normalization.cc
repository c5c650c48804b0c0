// Reference L2_NORMALIZATION (see l2_normalization.h).
#include "l2_normalization/l2_normalization.h"

#include <math.h>

#include "kernel_util.h"
#include "quant/fixed_point.h"

namespace mote {
namespace {

Status check_l2(const OpContext& ctx, DType dtype) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 1, 1, 1));
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  if (!has_dtype(in, dtype) || !has_dtype(out, dtype) || !same_shape(in, out)) return Status::kBadParams;
  return in.rank >= 1 && in.rank <= 4 && index_math_fits(in) ? Status::kOk : Status::kBadParams;
}

// The vectors along the last axis: count and length.
void vectors(const OpContext& ctx, uint32_t* count, uint32_t* depth) {
  const TensorDesc& in = ctx.input_desc(0);
  *depth = in.dims[in.rank - 1];
  *count = *depth == 0 ? 0 : element_count(in) / *depth;
}

}  // namespace

Status l2_normalization_f32_check(const OpContext& ctx) {
  if (ctx.params_bytes() != 0) return Status::kBadParams;
  return check_l2(ctx, DType::kFloat32);
}

void l2_normalization_f32_run(const OpContext& ctx) {
  uint32_t count = 0, depth = 0;
  vectors(ctx, &count, &depth);
  const float* x = static_cast<const float*>(ctx.input_data(0));
  float* y = static_cast<float*>(ctx.output_data(0));
  for (uint32_t i = 0; i < count; ++i, x += depth, y += depth) {
    float squared = 0.0f;
    for (uint32_t c = 0; c < depth; ++c) squared += x[c] * x[c];
    float norm = sqrtf(squared);
    if (norm < 1e-6f) norm = 1e-6f;  // std::max(norm, epsilon): a NaN stays
    for (uint32_t c = 0; c < depth; ++c) y[c] = x[c] / norm;
  }
}

Status l2_normalization_s8_check(const OpContext& ctx) {
  if (ctx.params_bytes() != sizeof(L2NormalizationS8Params)) return Status::kBadParams;
  const int32_t zp = ctx.params<L2NormalizationS8Params>().input_zero_point;
  if (zp < -128 || zp > 127) return Status::kBadParams;
  return check_l2(ctx, DType::kInt8);
}

void l2_normalization_s8_run(const OpContext& ctx) {
  uint32_t count = 0, depth = 0;
  vectors(ctx, &count, &depth);
  const int32_t zp = ctx.params<L2NormalizationS8Params>().input_zero_point;
  const int8_t* x = static_cast<const int8_t*>(ctx.input_data(0));
  int8_t* y = static_cast<int8_t*>(ctx.output_data(0));
  for (uint32_t i = 0; i < count; ++i, x += depth, y += depth) {
    int32_t acc = 0;
    for (uint32_t c = 0; c < depth; ++c) acc = wrapping_add(acc, (x[c] - zp) * (x[c] - zp));
    int32_t multiplier = 0, shift = 0;
    fixed_point::inv_sqrt_multiplier_exp(acc < 0 ? INT32_MAX : acc, &multiplier, &shift);
    for (uint32_t c = 0; c < depth; ++c) {
      const int32_t q = multiply_by_quantized_multiplier(x[c] - zp, multiplier, shift + 7);
      y[c] = static_cast<int8_t>(clamp_i32(q, -128, 127));
    }
  }
}

const KernelEntry kL2NormalizationF32Entry = {l2_normalization_f32_check, l2_normalization_f32_run};
const KernelEntry kL2NormalizationS8Entry = {l2_normalization_s8_check, l2_normalization_s8_run};

}  // namespace mote
