// Reference float32 mean over a set of axes.
//
// The input is walked once in memory order with a multi-index over its dims (right-
// aligned to kMaxRank); each element is added to the output element its kept
// coordinates select (output stride 0 on reduced axes). The sums are then scaled by
// 1 / (number of reduced elements). The output must not alias the input.
#include <math.h>

#include "kernel_util.h"
#include "mean/mean.h"

namespace mote {
namespace {

struct MeanShape {
  int32_t dims[kMaxRank];         // input dims, right-aligned
  int32_t out_strides[kMaxRank];  // 0 on reduced axes
  int32_t out_count;
  int32_t reduce_count;
};

void make_shape(const TensorDesc& in, uint32_t axes_mask, MeanShape* shape) {
  right_aligned_dims(in, shape->dims);
  const int32_t lead = kMaxRank - in.rank;
  int32_t stride = 1;
  shape->reduce_count = 1;
  for (int32_t i = kMaxRank - 1; i >= 0; --i) {
    const bool reduced = i >= lead && (axes_mask >> (i - lead) & 1u) != 0;
    if (reduced) {
      shape->out_strides[i] = 0;
      shape->reduce_count *= shape->dims[i];
    } else {
      shape->out_strides[i] = stride;
      stride *= shape->dims[i];
    }
  }
  shape->out_count = stride;
}

void mean_f32(const MeanShape& shape, const float* input, float* output) {
  for (int32_t i = 0; i < shape.out_count; ++i) output[i] = 0.0f;
  constexpr int32_t kOuter = kMaxRank - 1;
  const int32_t row = shape.dims[kOuter];
  const int32_t out_step = shape.out_strides[kOuter];
  int32_t rows = 1;
  for (int32_t i = 0; i < kOuter; ++i) rows *= shape.dims[i];

  int32_t idx[kOuter] = {};
  for (int32_t r = 0; r < rows; ++r) {
    int32_t out_offset = 0;
    for (int32_t i = 0; i < kOuter; ++i) out_offset += idx[i] * shape.out_strides[i];
    float* out = output + out_offset;
    for (int32_t x = 0; x < row; ++x) {
      *out += *input++;
      out += out_step;
    }
    advance_index(idx, shape.dims, kOuter);
  }
  // The mean of no elements is NaN, as numpy's.
  const float scale = shape.reduce_count > 0 ? 1.0f / static_cast<float>(shape.reduce_count) : NAN;
  for (int32_t i = 0; i < shape.out_count; ++i) output[i] *= scale;
}

}  // namespace

Status mean_f32_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 1, 1, 1));
  if (ctx.params_bytes() != sizeof(MeanParams)) return Status::kBadParams;
  const uint32_t axes_mask = ctx.params<MeanParams>().axes_mask;
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  if (!is_f32(in) || !is_f32(out)) return Status::kBadParams;
  if (!index_math_fits(in) || !index_math_fits(out)) return Status::kBadParams;
  if ((axes_mask >> in.rank) != 0) return Status::kBadParams;
  int64_t kept = 1;
  for (uint32_t i = 0; i < in.rank; ++i) {
    if ((axes_mask >> i & 1u) == 0) kept *= in.dims[i];
  }
  if (kept != static_cast<int64_t>(element_count(out))) return Status::kBadParams;
  return Status::kOk;
}

void mean_f32_run(const OpContext& ctx) {
  MeanShape shape;
  make_shape(ctx.input_desc(0), ctx.params<MeanParams>().axes_mask, &shape);
  mean_f32(shape, static_cast<const float*>(ctx.input_data(0)),
           static_cast<float*>(ctx.output_data(0)));
}

const KernelEntry kMeanF32Entry = {mean_f32_check, mean_f32_run};

}  // namespace mote
