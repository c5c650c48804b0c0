// Reference ADD_N (see add_n.h).
#include "add_n/add_n.h"

#include "kernel_util.h"
#include "quant/quant_math.h"

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

int32_t scaled_input(const AddNS8Params& p, int32_t v) {
  const int32_t shifted = wrapping_mul(p.input_offset + v, int32_t{1} << kAddNLeftShift);
  return multiply_by_quantized_multiplier(shifted, p.input_multiplier, p.input_shift);
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
  if (ctx.params_bytes() != sizeof(AddNS8Params)) return Status::kBadParams;
  const AddNS8Params& p = ctx.params<AddNS8Params>();
  if (p.input_offset < -127 || p.input_offset > 128) return Status::kBadParams;
  if (p.output_offset < -128 || p.output_offset > 127) return Status::kBadParams;
  if (p.input_shift < kMinShift || p.input_shift > 0) return Status::kBadParams;
  if (p.output_shift < kMinShift || p.output_shift > 0) return Status::kBadParams;
  return check_add_n(ctx, DType::kInt8);
}

void add_n_s8_run(const OpContext& ctx) {
  const AddNS8Params& p = ctx.params<AddNS8Params>();
  const uint32_t count = element_count(ctx.output_desc(0));
  int8_t* out = static_cast<int8_t*>(ctx.output_data(0));
  const int32_t start = scaled_input(p, 0);
  for (uint32_t i = 0; i < count; ++i) {
    int32_t acc = start;
    for (uint32_t k = 0; k < ctx.input_count(); ++k)
      acc = wrapping_add(acc, scaled_input(p, static_cast<const int8_t*>(ctx.input_data(k))[i]));
    const int32_t raw = multiply_by_quantized_multiplier(acc, p.output_multiplier, p.output_shift) + p.output_offset;
    out[i] = static_cast<int8_t>(clamp_i32(raw, -128, 127));
  }
}

const KernelEntry kAddNF32Entry = {add_n_f32_check, add_n_f32_run};
const KernelEntry kAddNS8Entry = {add_n_s8_check, add_n_s8_run};

}  // namespace mote
