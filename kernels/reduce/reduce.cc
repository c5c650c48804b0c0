// Reference REDUCE_MAX, REDUCE_MIN and SUM (see reduce.h). The walk over kept and
// reduced indices is the integer MEAN's (kernels/mean/mean_integer.h), shared.
#include <float.h>

#include "kernel_util.h"
#include "mean/mean_integer.h"
#include "reduce/reduce.h"

namespace mote {
namespace {

using mean_integer::Shape;

// For each output element, folds its input elements in increasing input order:
// acc = step(acc, x), from `start`.
template <typename T, typename Step>
void fold(const Shape& s, const T* input, T* output, T start, Step step) {
  int32_t kept_idx[kMaxRank] = {};
  for (int32_t o = 0; o < s.out_count; ++o) {
    T acc = start;
    mean_integer::walk_reduced(s, input + mean_integer::kept_offset(s, kept_idx),
                               [&acc, &step](T x) { acc = step(acc, x); });
    output[o] = acc;
    advance_index(kept_idx, s.kept_dims, kMaxRank);
  }
}

// Input and output of `dtype`, axes inside the rank, kept element count == output's.
Status check_reduce(const OpContext& ctx, DType dtype) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 1, 1, 1));
  if (ctx.params_bytes() != sizeof(ReduceParams)) return Status::kBadParams;
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  if (!has_dtype(in, dtype) || !has_dtype(out, dtype)) return Status::kBadParams;
  if (!index_math_fits(in) || !index_math_fits(out)) return Status::kBadParams;
  const uint32_t mask = ctx.params<ReduceParams>().axes_mask;
  if ((mask >> in.rank) != 0) return Status::kBadParams;
  int64_t kept = 1;
  for (uint32_t i = 0; i < in.rank; ++i)
    if ((mask >> i & 1u) == 0) kept *= in.dims[i];
  return kept == static_cast<int64_t>(element_count(out)) ? Status::kOk : Status::kBadParams;
}

template <typename T, typename Step>
void run_fold(const OpContext& ctx, T start, Step step) {
  Shape shape;
  mean_integer::make_shape(ctx.input_desc(0), ctx.params<ReduceParams>().axes_mask, &shape);
  fold<T>(shape, static_cast<const T*>(ctx.input_data(0)), static_cast<T*>(ctx.output_data(0)), start, step);
}

constexpr auto kMax = [](auto acc, auto x) { return x > acc ? x : acc; };
constexpr auto kMin = [](auto acc, auto x) { return x < acc ? x : acc; };

}  // namespace

Status reduce_max_f32_check(const OpContext& ctx) { return check_reduce(ctx, DType::kFloat32); }
void reduce_max_f32_run(const OpContext& ctx) { run_fold<float>(ctx, -FLT_MAX, kMax); }
Status reduce_max_s8_check(const OpContext& ctx) { return check_reduce(ctx, DType::kInt8); }
void reduce_max_s8_run(const OpContext& ctx) { run_fold<int8_t>(ctx, INT8_MIN, kMax); }
Status reduce_min_f32_check(const OpContext& ctx) { return check_reduce(ctx, DType::kFloat32); }
void reduce_min_f32_run(const OpContext& ctx) { run_fold<float>(ctx, FLT_MAX, kMin); }
Status reduce_min_s8_check(const OpContext& ctx) { return check_reduce(ctx, DType::kInt8); }
void reduce_min_s8_run(const OpContext& ctx) { run_fold<int8_t>(ctx, INT8_MAX, kMin); }

Status sum_f32_check(const OpContext& ctx) { return check_reduce(ctx, DType::kFloat32); }
void sum_f32_run(const OpContext& ctx) {
  run_fold<float>(ctx, 0.0f, [](float acc, float x) { return x + acc; });
}
Status sum_s32_check(const OpContext& ctx) { return check_reduce(ctx, DType::kInt32); }
void sum_s32_run(const OpContext& ctx) {
  run_fold<int32_t>(ctx, 0, [](int32_t acc, int32_t x) {
    return static_cast<int32_t>(static_cast<uint32_t>(acc) + static_cast<uint32_t>(x));  // wraps
  });
}
Status reduce_prod_f32_check(const OpContext& ctx) { return check_reduce(ctx, DType::kFloat32); }
void reduce_prod_f32_run(const OpContext& ctx) {
  run_fold<float>(ctx, 1.0f, [](float acc, float x) { return acc * x; });
}
Status sum_s8_check(const OpContext& ctx) { return mean_integer::check<int8_t, SumQuantParams>(ctx); }
void sum_s8_run(const OpContext& ctx) { mean_integer::run<int8_t, SumQuantParams>(ctx); }
Status sum_s16_check(const OpContext& ctx) { return mean_integer::check<int16_t, SumQuantParams>(ctx); }
void sum_s16_run(const OpContext& ctx) { mean_integer::run<int16_t, SumQuantParams>(ctx); }

const KernelEntry kReduceMaxF32Entry = {reduce_max_f32_check, reduce_max_f32_run};
const KernelEntry kReduceMaxS8Entry = {reduce_max_s8_check, reduce_max_s8_run};
const KernelEntry kReduceMinF32Entry = {reduce_min_f32_check, reduce_min_f32_run};
const KernelEntry kReduceMinS8Entry = {reduce_min_s8_check, reduce_min_s8_run};
const KernelEntry kSumF32Entry = {sum_f32_check, sum_f32_run};
const KernelEntry kSumS8Entry = {sum_s8_check, sum_s8_run};
const KernelEntry kSumS16Entry = {sum_s16_check, sum_s16_run};
const KernelEntry kReduceProdF32Entry = {reduce_prod_f32_check, reduce_prod_f32_run};
const KernelEntry kSumS32Entry = {sum_s32_check, sum_s32_run};

}  // namespace mote
