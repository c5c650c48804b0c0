// Reference float32 unary activations. Each reads input[i] before writing output[i], so
// all of them may run in place.
#include <math.h>

#include "activation/activation.h"
#include "kernel_util.h"

namespace mote {

void clamp_f32(const ClampParams& params, uint32_t count, const float* input, float* output) {
  for (uint32_t i = 0; i < count; ++i) output[i] = clamp_value(input[i], params.min, params.max);
}

// exp() is only ever taken of a non-positive number, so it cannot overflow:
//   x >= 0: 1 / (1 + e^-x)      x < 0: e^x / (1 + e^x)
void sigmoid_f32(uint32_t count, const float* input, float* output) {
  for (uint32_t i = 0; i < count; ++i) {
    const float x = input[i];
    if (x >= 0.0f) {
      output[i] = 1.0f / (1.0f + expf(-x));
    } else {
      const float e = expf(x);
      output[i] = e / (1.0f + e);
    }
  }
}

void tanh_f32(uint32_t count, const float* input, float* output) {
  for (uint32_t i = 0; i < count; ++i) output[i] = tanhf(input[i]);
}

// One float32 input, one float32 output of the same shape.
static Status check_unary_shapes(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 1, 1, 1));
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  if (!is_f32(in) || !is_f32(out) || !same_shape(in, out)) return Status::kBadParams;
  return Status::kOk;
}

Status clamp_f32_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_unary_shapes(ctx));
  if (ctx.params_bytes() != sizeof(ClampParams)) return Status::kBadParams;
  const ClampParams& p = ctx.params<ClampParams>();
  if (!valid_act_range(p.min, p.max)) return Status::kBadParams;
  return Status::kOk;
}

Status unary_f32_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_unary_shapes(ctx));
  if (ctx.params_bytes() != 0) return Status::kBadParams;
  return Status::kOk;
}

void clamp_f32_run(const OpContext& ctx) {
  clamp_f32(ctx.params<ClampParams>(), element_count(ctx.input_desc(0)),
            static_cast<const float*>(ctx.input_data(0)), static_cast<float*>(ctx.output_data(0)));
}

void sigmoid_f32_run(const OpContext& ctx) {
  sigmoid_f32(element_count(ctx.input_desc(0)), static_cast<const float*>(ctx.input_data(0)),
              static_cast<float*>(ctx.output_data(0)));
}

void tanh_f32_run(const OpContext& ctx) {
  tanh_f32(element_count(ctx.input_desc(0)), static_cast<const float*>(ctx.input_data(0)),
           static_cast<float*>(ctx.output_data(0)));
}

const KernelEntry kClampF32Entry = {clamp_f32_check, clamp_f32_run};
const KernelEntry kSigmoidF32Entry = {unary_f32_check, sigmoid_f32_run};
const KernelEntry kTanhF32Entry = {unary_f32_check, tanh_f32_run};

}  // namespace mote
