// Reference float32 batched matrix multiply with numpy batch broadcasting.
//
// Batch dims (all but the last two) are right-aligned into kMaxRank - 2 slots; a slot
// where an operand has size 1 gets matrix stride 0 so that operand is reused. Each
// output row is accumulated over k in order (out[m, :] += a[m, k] * b[k, :]), which
// walks B and the output contiguously.
#include "batch_matmul/batch_matmul.h"

#include "kernel_util.h"

namespace mote {
namespace {

constexpr int32_t kBatchSlots = kMaxRank - 2;

struct BatchMatMulShape {
  int32_t m, k, n;
  int32_t batch_dims[kBatchSlots];  // output batch dims, right-aligned
  int32_t a_strides[kBatchSlots];   // in matrices of A; 0 where A broadcasts
  int32_t b_strides[kBatchSlots];
};

// Size of batch slot `slot` of t (1 when t has fewer batch dims).
uint32_t batch_dim(const TensorDesc& t, int32_t slot) {
  const int32_t i = slot - (kBatchSlots - (t.rank - 2));
  return i < 0 ? 1u : t.dims[i];
}

void make_shape(const TensorDesc& a, const TensorDesc& b, const TensorDesc& out,
                BatchMatMulShape* shape) {
  shape->m = static_cast<int32_t>(a.dims[a.rank - 2]);
  shape->k = static_cast<int32_t>(a.dims[a.rank - 1]);
  shape->n = static_cast<int32_t>(b.dims[b.rank - 1]);
  int32_t a_stride = 1;
  int32_t b_stride = 1;
  for (int32_t slot = kBatchSlots - 1; slot >= 0; --slot) {
    const int32_t a_dim = static_cast<int32_t>(batch_dim(a, slot));
    const int32_t b_dim = static_cast<int32_t>(batch_dim(b, slot));
    shape->batch_dims[slot] = static_cast<int32_t>(batch_dim(out, slot));
    shape->a_strides[slot] = a_dim == 1 ? 0 : a_stride;
    shape->b_strides[slot] = b_dim == 1 ? 0 : b_stride;
    a_stride *= a_dim;
    b_stride *= b_dim;
  }
}

void batch_matmul_f32(const BatchMatMulParams& params, const BatchMatMulShape& shape,
                      const float* a, const float* b, float* out) {
  const int32_t a_matrix = shape.m * shape.k;
  const int32_t b_matrix = shape.k * shape.n;
  int32_t batches = 1;
  for (int32_t slot = 0; slot < kBatchSlots; ++slot) batches *= shape.batch_dims[slot];

  int32_t idx[kBatchSlots] = {};
  for (int32_t batch = 0; batch < batches; ++batch) {
    int32_t a_offset = 0;
    int32_t b_offset = 0;
    for (int32_t slot = 0; slot < kBatchSlots; ++slot) {
      a_offset += idx[slot] * shape.a_strides[slot];
      b_offset += idx[slot] * shape.b_strides[slot];
    }
    const float* a_mat = a + a_offset * a_matrix;
    const float* b_mat = b + b_offset * b_matrix;
    for (int32_t m = 0; m < shape.m; ++m) {
      const float* a_row = a_mat + m * shape.k;
      for (int32_t n = 0; n < shape.n; ++n) out[n] = 0.0f;
      for (int32_t k = 0; k < shape.k; ++k) {
        const float a_mk = a_row[k];
        const float* b_row = b_mat + k * shape.n;
        for (int32_t n = 0; n < shape.n; ++n) out[n] += a_mk * b_row[n];
      }
      for (int32_t n = 0; n < shape.n; ++n) {
        out[n] = clamp_value(out[n], params.act_min, params.act_max);
      }
      out += shape.n;
    }
    advance_index(idx, shape.batch_dims, kBatchSlots);
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
  if (a.rank < 2 || b.rank < 2) return Status::kBadParams;
  if (out.rank != (a.rank > b.rank ? a.rank : b.rank)) return Status::kBadParams;
  if (!index_math_fits(a) || !index_math_fits(b) || !index_math_fits(out)) {
    return Status::kBadParams;
  }
  if (a.dims[a.rank - 1] != b.dims[b.rank - 2]) return Status::kBadParams;
  if (out.dims[out.rank - 2] != a.dims[a.rank - 2] ||
      out.dims[out.rank - 1] != b.dims[b.rank - 1]) {
    return Status::kBadParams;
  }
  for (int32_t slot = 0; slot < kBatchSlots; ++slot) {
    const uint32_t a_dim = batch_dim(a, slot);
    const uint32_t b_dim = batch_dim(b, slot);
    const uint32_t out_dim = batch_dim(out, slot);
    const bool ok = (a_dim == b_dim && out_dim == a_dim) || (a_dim == 1 && out_dim == b_dim) ||
                    (b_dim == 1 && out_dim == a_dim);
    if (!ok) return Status::kBadParams;
  }
  if (!valid_act_range(p.act_min, p.act_max)) return Status::kBadParams;
  return Status::kOk;
}

void batch_matmul_f32_run(const OpContext& ctx) {
  BatchMatMulShape shape;
  make_shape(ctx.input_desc(0), ctx.input_desc(1), ctx.output_desc(0), &shape);
  batch_matmul_f32(ctx.params<BatchMatMulParams>(), shape,
                   static_cast<const float*>(ctx.input_data(0)),
                   static_cast<const float*>(ctx.input_data(1)),
                   static_cast<float*>(ctx.output_data(0)));
}

const KernelEntry kBatchMatMulF32Entry = {batch_matmul_f32_check, batch_matmul_f32_run};

}  // namespace mote
