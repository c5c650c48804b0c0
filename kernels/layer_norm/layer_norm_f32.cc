// Reference layer_norm_f32 (see layer_norm.h).
#include "layer_norm/layer_norm.h"

#include <math.h>

#include "kernel_util.h"

namespace mote {
namespace {

// Elements per row: the product of dims axis .. rank-1.
uint32_t row_length(const TensorDesc& x, uint32_t axis) {
  uint32_t n = 1;
  for (uint32_t i = axis; i < x.rank; ++i) n *= x.dims[i];
  return n;
}

// sum(v[i] - offset) over n elements, adding blocks of 32.
float blocked_sum(const float* v, uint32_t n, float offset, bool squared) {
  float total = 0.0f;
  for (uint32_t start = 0; start < n; start += 32) {
    const uint32_t end = n - start < 32 ? n : start + 32;
    float block = 0.0f;
    for (uint32_t i = start; i < end; ++i) {
      const float d = v[i] - offset;
      block += squared ? d * d : d;
    }
    total += block;
  }
  return total;
}

// Input 2 (the bias) is given: listed and present.
bool has_bias(const OpContext& ctx) { return ctx.input_count() > 2 && ctx.has_input(2); }

}  // namespace

Status layer_norm_f32_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 2, 3, 1));
  if (ctx.params_bytes() != sizeof(LayerNormParams)) return Status::kBadParams;
  const LayerNormParams& p = ctx.params<LayerNormParams>();
  const TensorDesc& x = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  if (!is_f32(x) || !is_f32(out) || !same_shape(x, out) || !index_math_fits(x)) return Status::kBadParams;
  if (p.axis >= x.rank) return Status::kBadParams;
  const uint32_t n = row_length(x, p.axis);
  const TensorDesc& scale = ctx.input_desc(1);
  if (!is_f32(scale) || element_count(scale) != n) return Status::kBadParams;
  if (has_bias(ctx)) {
    const TensorDesc& bias = ctx.input_desc(2);
    if (!is_f32(bias) || element_count(bias) != n) return Status::kBadParams;
  }
  return Status::kOk;
}

void layer_norm_f32_run(const OpContext& ctx) {
  const LayerNormParams& p = ctx.params<LayerNormParams>();
  const TensorDesc& xd = ctx.input_desc(0);
  const uint32_t n = row_length(xd, p.axis);
  if (n == 0) return;
  const uint32_t rows = element_count(xd) / n;
  const float* x = static_cast<const float*>(ctx.input_data(0));
  const float* scale = static_cast<const float*>(ctx.input_data(1));
  const float* bias = has_bias(ctx) ? static_cast<const float*>(ctx.input_data(2)) : nullptr;
  float* y = static_cast<float*>(ctx.output_data(0));
  const float count = static_cast<float>(n);
  for (uint32_t r = 0; r < rows; ++r, x += n, y += n) {
    const float mean = blocked_sum(x, n, 0.0f, false) / count;
    const float var = blocked_sum(x, n, mean, true) / count;
    const float inv = 1.0f / sqrtf(var + p.epsilon);
    for (uint32_t i = 0; i < n; ++i) {
      const float v = (x[i] - mean) * inv * scale[i];
      y[i] = bias != nullptr ? v + bias[i] : v;
    }
  }
}

const KernelEntry kLayerNormF32Entry = {layer_norm_f32_check, layer_norm_f32_run};

}  // namespace mote
