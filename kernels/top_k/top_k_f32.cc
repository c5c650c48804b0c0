// Reference float32 TopK (see top_k.h).
#include "top_k/top_k.h"

#include "kernel_util.h"

namespace mote {
namespace {

// NaN ranks above every number.
bool is_nan(float v) { return v != v; }
bool above(float a, float b) { return is_nan(b) ? false : is_nan(a) || a > b; }

template <typename Index>
void run_top_k(const OpContext& ctx) {
  const TopKParams& p = ctx.params<TopKParams>();
  const TensorDesc& in = ctx.input_desc(0);
  int32_t outer = 1, inner = 1;
  for (uint32_t i = 0; i < p.axis; ++i) outer *= static_cast<int32_t>(in.dims[i]);
  for (uint32_t i = p.axis + 1; i < in.rank; ++i) inner *= static_cast<int32_t>(in.dims[i]);
  const int32_t size = static_cast<int32_t>(in.dims[p.axis]), k = static_cast<int32_t>(p.k);
  const float* x = static_cast<const float*>(ctx.input_data(0));
  float* values = static_cast<float*>(ctx.output_data(0));
  Index* indices = static_cast<Index*>(ctx.output_data(1));
  for (int32_t o = 0; o < outer; ++o) {
    for (int32_t j = 0; j < inner; ++j) {
      const float* row = x + o * size * inner + j;
      float* v = values + o * k * inner + j;
      Index* idx = indices + o * k * inner + j;
      int32_t filled = 0;
      for (int32_t i = 0; i < size; ++i) {
        const float value = row[i * inner];
        // The first position whose entry `value` beats (equal values stay behind).
        int32_t at = filled;
        while (at > 0 && (p.largest ? above(value, v[(at - 1) * inner]) : above(v[(at - 1) * inner], value))) --at;
        if (at >= k) continue;
        const int32_t last = filled < k ? filled : k - 1;
        for (int32_t s = last; s > at; --s) {
          v[s * inner] = v[(s - 1) * inner];
          idx[s * inner] = idx[(s - 1) * inner];
        }
        v[at * inner] = value;
        idx[at * inner] = static_cast<Index>(i);
        if (filled < k) ++filled;
      }
    }
  }
}

}  // namespace

Status top_k_f32_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 1, 1, 2));
  if (ctx.params_bytes() != sizeof(TopKParams)) return Status::kBadParams;
  const TopKParams& p = ctx.params<TopKParams>();
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& values = ctx.output_desc(0);
  const TensorDesc& indices = ctx.output_desc(1);
  if (!is_f32(in) || !is_f32(values) || !(has_dtype(indices, DType::kInt32) || has_dtype(indices, DType::kInt64)))
    return Status::kBadParams;
  if (!index_math_fits(in) || !index_math_fits(values) || !index_math_fits(indices)) return Status::kBadParams;
  if (p.axis >= in.rank || p.largest > 1 || p.k == 0 || p.k > in.dims[p.axis]) return Status::kBadParams;
  const uint32_t count = element_count(in) / in.dims[p.axis] * p.k;
  return element_count(values) == count && element_count(indices) == count ? Status::kOk : Status::kBadParams;
}

void top_k_f32_run(const OpContext& ctx) {
  if (has_dtype(ctx.output_desc(1), DType::kInt64)) return run_top_k<int64_t>(ctx);
  run_top_k<int32_t>(ctx);
}

const KernelEntry kTopKF32Entry = {top_k_f32_check, top_k_f32_run};

}  // namespace mote
