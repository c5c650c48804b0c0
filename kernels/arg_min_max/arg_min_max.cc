// Reference ARG_MAX and ARG_MIN (see arg_min_max.h).
#include "arg_min_max/arg_min_max.h"

#include "kernel_util.h"

namespace mote {
namespace {

Status check_arg(const OpContext& ctx, DType dtype) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 1, 1, 1));
  if (ctx.params_bytes() != sizeof(ArgMinMaxParams)) return Status::kBadParams;
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  if (!has_dtype(in, dtype) || !(has_dtype(out, DType::kInt32) || has_dtype(out, DType::kInt64)))
    return Status::kBadParams;
  if (!index_math_fits(in) || !index_math_fits(out)) return Status::kBadParams;
  if (ctx.params<ArgMinMaxParams>().select_last > 1) return Status::kBadParams;
  const uint32_t axis = ctx.params<ArgMinMaxParams>().axis;
  if (axis >= in.rank || in.dims[axis] == 0) return Status::kBadParams;
  return element_count(in) / in.dims[axis] == element_count(out) ? Status::kOk : Status::kBadParams;
}

// Walks the input as [outer, axis, inner]; `wins(x, current)` says when x replaces.
template <typename T, typename Index, typename Wins>
void run_arg(const OpContext& ctx, Wins wins) {
  const TensorDesc& in = ctx.input_desc(0);
  const uint32_t axis = ctx.params<ArgMinMaxParams>().axis;
  int32_t outer = 1, inner = 1;
  for (uint32_t i = 0; i < axis; ++i) outer *= static_cast<int32_t>(in.dims[i]);
  for (uint32_t i = axis + 1; i < in.rank; ++i) inner *= static_cast<int32_t>(in.dims[i]);
  const int32_t size = static_cast<int32_t>(in.dims[axis]);
  const T* x = static_cast<const T*>(ctx.input_data(0));
  Index* y = static_cast<Index*>(ctx.output_data(0));
  for (int32_t o = 0; o < outer; ++o) {
    for (int32_t j = 0; j < inner; ++j) {
      const T* row = x + o * size * inner + j;
      T best = row[0];
      int32_t best_index = 0;
      for (int32_t i = 1; i < size; ++i) {
        if (wins(row[i * inner], best)) {
          best = row[i * inner];
          best_index = i;
        }
      }
      y[o * inner + j] = best_index;
    }
  }
}

constexpr auto kGreater = [](auto x, auto current) { return x > current; };
constexpr auto kGreaterEqual = [](auto x, auto current) { return x >= current; };
constexpr auto kLess = [](auto x, auto current) { return x < current; };
constexpr auto kLessEqual = [](auto x, auto current) { return x <= current; };

// Picks the index type from the output's dtype and the comparison from select_last.
template <typename T, bool kMax>
void run_arg_any(const OpContext& ctx) {
  const bool last = ctx.params<ArgMinMaxParams>().select_last != 0;
  const bool wide = has_dtype(ctx.output_desc(0), DType::kInt64);
  if (kMax) {
    if (wide) return last ? run_arg<T, int64_t>(ctx, kGreaterEqual) : run_arg<T, int64_t>(ctx, kGreater);
    return last ? run_arg<T, int32_t>(ctx, kGreaterEqual) : run_arg<T, int32_t>(ctx, kGreater);
  }
  if (wide) return last ? run_arg<T, int64_t>(ctx, kLessEqual) : run_arg<T, int64_t>(ctx, kLess);
  return last ? run_arg<T, int32_t>(ctx, kLessEqual) : run_arg<T, int32_t>(ctx, kLess);
}

}  // namespace

Status arg_max_f32_check(const OpContext& ctx) { return check_arg(ctx, DType::kFloat32); }
void arg_max_f32_run(const OpContext& ctx) { run_arg_any<float, true>(ctx); }
Status arg_max_s8_check(const OpContext& ctx) { return check_arg(ctx, DType::kInt8); }
void arg_max_s8_run(const OpContext& ctx) { run_arg_any<int8_t, true>(ctx); }
Status arg_min_f32_check(const OpContext& ctx) { return check_arg(ctx, DType::kFloat32); }
void arg_min_f32_run(const OpContext& ctx) { run_arg_any<float, false>(ctx); }
Status arg_min_s8_check(const OpContext& ctx) { return check_arg(ctx, DType::kInt8); }
void arg_min_s8_run(const OpContext& ctx) { run_arg_any<int8_t, false>(ctx); }

const KernelEntry kArgMaxF32Entry = {arg_max_f32_check, arg_max_f32_run};
const KernelEntry kArgMaxS8Entry = {arg_max_s8_check, arg_max_s8_run};
const KernelEntry kArgMinF32Entry = {arg_min_f32_check, arg_min_f32_run};
const KernelEntry kArgMinS8Entry = {arg_min_s8_check, arg_min_s8_run};

}  // namespace mote
