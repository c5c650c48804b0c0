// Reference ADD_N (see add_n.h).
#include "add_n/add_n.h"

#include "kernel_util.h"

namespace mote {
namespace {

// Two or more inputs, each present and of the output's dtype and dims.
Status check_add_n(const OpContext& ctx, DType dtype) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 2, 255, 1));
  const TensorDesc& out = ctx.output_desc(0);
  if (!has_dtype(out, dtype) || !index_math_fits(out)) return Status::kBadParams;
  for (uint32_t k = 0; k < ctx.input_count(); ++k) {
    if (!ctx.has_input(k)) return Status::kBadOp;
    const TensorDesc& in = ctx.input_desc(k);
    if (!has_dtype(in, dtype) || !same_shape(in, out)) return Status::kBadParams;
  }
  return Status::kOk;
}

}  // namespace

Status add_n_f32_check(const OpContext& ctx) {
  if (ctx.params_bytes() != 0) return Status::kBadParams;
  return check_add_n(ctx, DType::kFloat32);
}

void add_n_f32_run(const OpContext& ctx) {
  const uint32_t count = element_count(ctx.output_desc(0));
  float* out = static_cast<float*>(ctx.output_data(0));
  for (uint32_t i = 0; i < count; ++i) {
    float sum = 0.0f;
    for (uint32_t k = 0; k < ctx.input_count(); ++k) sum += static_cast<const float*>(ctx.input_data(k))[i];
    out[i] = sum;
  }
}

Status add_n_s8_check(const OpContext& ctx) {
  if (ctx.params_bytes() != sizeof(IntegerSumParams)) return Status::kBadParams;
  if (!valid_integer_sum(ctx.params<IntegerSumParams>())) return Status::kBadParams;
  return check_add_n(ctx, DType::kInt8);
}

void add_n_s8_run(const OpContext& ctx) {
  const IntegerSumParams& p = ctx.params<IntegerSumParams>();
  const uint32_t count = element_count(ctx.output_desc(0));
  int8_t* out = static_cast<int8_t*>(ctx.output_data(0));
  const int32_t start = integer_sum_term(p, 0);
  for (uint32_t i = 0; i < count; ++i) {
    int32_t acc = start;
    for (uint32_t k = 0; k < ctx.input_count(); ++k)
      acc = wrapping_add(acc, integer_sum_term(p, static_cast<const int8_t*>(ctx.input_data(k))[i]));
    out[i] = integer_sum_output(p, acc);
  }
}

const KernelEntry kAddNF32Entry = {add_n_f32_check, add_n_f32_run};
const KernelEntry kAddNS8Entry = {add_n_s8_check, add_n_s8_run};

}  // namespace mote
