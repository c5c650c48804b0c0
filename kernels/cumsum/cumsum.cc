// Reference CUMSUM (see cumsum.h).
#include "cumsum/cumsum.h"

#include "kernel_util.h"

namespace mote {
namespace {

Status check_cumsum(const OpContext& ctx, DType dtype, const CumsumParams& p) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 1, 1, 1));
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  if (!has_dtype(in, dtype) || !has_dtype(out, dtype) || !same_shape(in, out)) return Status::kBadParams;
  if (!index_math_fits(in) || p.axis >= in.rank) return Status::kBadParams;
  return p.exclusive <= 1 && p.reverse <= 1 ? Status::kOk : Status::kBadParams;
}

// Calls line(first, step, depth) for every line along the axis: its elements are first,
// first + step, ... (depth of them), from index 0 or, when reverse, from the last.
template <typename Line>
void for_each_line(const OpContext& ctx, const CumsumParams& p, Line line) {
  const TensorDesc& in = ctx.input_desc(0);
  int32_t outer = 1, inner = 1;
  for (uint32_t i = 0; i < p.axis; ++i) outer *= static_cast<int32_t>(in.dims[i]);
  for (uint32_t i = p.axis + 1; i < in.rank; ++i) inner *= static_cast<int32_t>(in.dims[i]);
  const int32_t depth = static_cast<int32_t>(in.dims[p.axis]);
  // The first element of the walk and the step to the next one, in elements.
  const int32_t first = p.reverse ? (depth - 1) * inner : 0;
  const int32_t step = p.reverse ? -inner : inner;
  for (int32_t o = 0; o < outer; ++o)
    for (int32_t j = 0; j < inner; ++j) line(o * depth * inner + j + first, step, depth);
}

}  // namespace

Status cumsum_f32_check(const OpContext& ctx) {
  if (ctx.params_bytes() != sizeof(CumsumParams)) return Status::kBadParams;
  return check_cumsum(ctx, DType::kFloat32, ctx.params<CumsumParams>());
}

void cumsum_f32_run(const OpContext& ctx) {
  const CumsumParams& p = ctx.params<CumsumParams>();
  const float* x = static_cast<const float*>(ctx.input_data(0));
  float* y = static_cast<float*>(ctx.output_data(0));
  for_each_line(ctx, p, [&](int32_t at, int32_t step, int32_t depth) {
    float acc = 0.0f;
    for (int32_t d = 0; d < depth; ++d, at += step) {
      if (p.exclusive) {
        y[at] = acc;
        acc += x[at];
      } else {
        acc += x[at];
        y[at] = acc;
      }
    }
  });
}

Status cumsum_s8_check(const OpContext& ctx) {
  if (ctx.params_bytes() != sizeof(CumsumS8Params)) return Status::kBadParams;
  const CumsumS8Params& p = ctx.params<CumsumS8Params>();
  if (!valid_integer_sum(p.sum)) return Status::kBadParams;
  return check_cumsum(ctx, DType::kInt8, p.cumsum);
}

void cumsum_s8_run(const OpContext& ctx) {
  const CumsumS8Params& p = ctx.params<CumsumS8Params>();
  const int8_t* x = static_cast<const int8_t*>(ctx.input_data(0));
  int8_t* y = static_cast<int8_t*>(ctx.output_data(0));
  const int32_t start = integer_sum_term(p.sum, 0);
  for_each_line(ctx, p.cumsum, [&](int32_t at, int32_t step, int32_t depth) {
    int32_t acc = start;
    for (int32_t d = 0; d < depth; ++d, at += step) {
      const int32_t before = acc;
      acc = wrapping_add(acc, integer_sum_term(p.sum, x[at]));
      y[at] = integer_sum_output(p.sum, p.cumsum.exclusive ? before : acc);
    }
  });
}

const KernelEntry kCumsumF32Entry = {cumsum_f32_check, cumsum_f32_run};
const KernelEntry kCumsumS8Entry = {cumsum_s8_check, cumsum_s8_run};

}  // namespace mote
