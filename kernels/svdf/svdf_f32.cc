// Reference float32 SVDF (TFLite Micro's EvalFloatSvdfReference): contract in svdf.h.
#include "kernel_util.h"
#include "svdf/svdf.h"
#include "svdf/svdf_check.h"

namespace mote {

Status svdf_f32_check(const OpContext& ctx) {
  if (ctx.params_bytes() != sizeof(SvdfF32Params)) return Status::kBadParams;
  const SvdfF32Params& p = ctx.params<SvdfF32Params>();
  if (!svdf_shapes_valid(ctx, p.rank, sizeof(float))) return Status::kBadParams;
  for (uint32_t i = 0; i < 5; ++i)
    if (ctx.has_input(i) && !has_dtype(ctx.input_desc(i), DType::kFloat32)) return Status::kBadParams;
  if (!has_dtype(ctx.output_desc(0), DType::kFloat32) || !valid_act_range(p.act_min, p.act_max)) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void svdf_f32_run(const OpContext& ctx) {
  const SvdfF32Params& p = ctx.params<SvdfF32Params>();
  const SvdfRun r = svdf_begin(ctx, p.rank, sizeof(float));
  const int32_t batches = r.batches, inputs = r.inputs, filters = r.filters, memory = r.memory;
  const int32_t rank = r.rank, units = r.units;
  const float* x = static_cast<const float*>(ctx.input_data(0));
  const float* wf = static_cast<const float*>(ctx.input_data(1));
  const float* wt = static_cast<const float*>(ctx.input_data(2));
  const float* bias = ctx.has_input(3) ? static_cast<const float*>(ctx.input_data(3)) : nullptr;
  float* y = static_cast<float*>(ctx.output_data(0));
  float* state = static_cast<float*>(r.state);
  for (int32_t b = 0; b < batches; ++b) {
    float* s = state + b * filters * memory;
    const float* xb = x + b * inputs;
    for (int32_t f = 0; f < filters; ++f) {
      const float* w = wf + f * inputs;
      float dot = 0.0f;
      for (int32_t i = 0; i < inputs; ++i) dot += w[i] * xb[i];
      s[f * memory + memory - 1] = dot;
    }
    float* yb = y + b * units;
    for (int32_t u = 0; u < units; ++u) yb[u] = bias ? bias[u] : 0.0f;
    for (int32_t f = 0; f < filters; ++f) {
      const float* w = wt + f * memory;
      const float* sf = s + f * memory;
      float t = 0.0f;
      for (int32_t m = 0; m < memory; ++m) t += w[m] * sf[m];
      yb[f / rank] += t;
    }
    for (int32_t u = 0; u < units; ++u) yb[u] = clamp_value(yb[u], p.act_min, p.act_max);
  }
}

const KernelEntry kSvdfF32Entry = {svdf_f32_check, svdf_f32_run};

}  // namespace mote
