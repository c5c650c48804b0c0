// Reference float32 batched matrix multiply with numpy batch broadcasting.
//
// Each output row is accumulated over k in order (out[m, :] += a[m, k] * b[k, :]): every
// element's sum runs over k ascending from 0, and B and the output are walked
// contiguously unless B is read transposed (adj_b).
#include "batch_matmul/batch_matmul.h"
#include "batch_matmul/batch_matmul_shape.h"

namespace mote {
namespace {

void matrix_f32(const BatchMatMulParams& params, const batch_matmul::Shape& s, const float* a, const float* b,
                float* out) {
  for (int32_t m = 0; m < s.m; ++m) {
    const float* a_row = a + m * s.a_m_step;
    for (int32_t n = 0; n < s.n; ++n) out[n] = 0.0f;
    for (int32_t k = 0; k < s.k; ++k) {
      const float a_mk = a_row[k * s.a_k_step];
      const float* b_row = b + k * s.b_k_step;
      if (s.b_n_step == 1) {
        for (int32_t n = 0; n < s.n; ++n) out[n] += a_mk * b_row[n];
      } else {
        for (int32_t n = 0; n < s.n; ++n) out[n] += a_mk * b_row[n * s.b_n_step];
      }
    }
    for (int32_t n = 0; n < s.n; ++n) out[n] = clamp_value(out[n], params.act_min, params.act_max);
    out += s.n;
  }
}

}  // namespace

Status batch_matmul_f32_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 2, 2, 1));
  if (ctx.params_bytes() != sizeof(BatchMatMulParams)) return Status::kBadParams;
  const BatchMatMulParams& p = ctx.params<BatchMatMulParams>();
  const TensorDesc& a = ctx.input_desc(0);
  const TensorDesc& b = ctx.input_desc(1);
  const TensorDesc& out = ctx.output_desc(0);
  if (!is_f32(a) || !is_f32(b) || !is_f32(out)) return Status::kBadParams;
  if (!batch_matmul::valid_shapes(a, b, out, p.adj_a, p.adj_b)) return Status::kBadParams;
  if (!valid_act_range(p.act_min, p.act_max)) return Status::kBadParams;
  return Status::kOk;
}

void batch_matmul_f32_run(const OpContext& ctx) {
  const BatchMatMulParams& p = ctx.params<BatchMatMulParams>();
  const batch_matmul::Shape s =
      batch_matmul::make_shape(ctx.input_desc(0), ctx.input_desc(1), ctx.output_desc(0), p.adj_a, p.adj_b);
  batch_matmul::for_each_batch(s, static_cast<const float*>(ctx.input_data(0)),
                               static_cast<const float*>(ctx.input_data(1)), static_cast<float*>(ctx.output_data(0)),
                               [&](const float* a, const float* b, float* out) { matrix_f32(p, s, a, b, out); });
}

const KernelEntry kBatchMatMulF32Entry = {batch_matmul_f32_check, batch_matmul_f32_run};

}  // namespace mote
