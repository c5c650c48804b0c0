// Reference float32 softmax over the last axis. Numerically stable for any beta and any
// magnitude of input: the exponent beta * x[i] - max_j(beta * x[j]) is never positive,
// so exp() lies in (0, 1] and the sum in [1, depth]. May run in place.
#include <math.h>

#include "kernel_util.h"
#include "softmax/softmax.h"

namespace mote {

void softmax_f32(const SoftmaxParams& params, uint32_t outer, uint32_t depth, const float* input,
                 float* output) {
  if (depth == 0) return;
  const float beta = params.beta;
  for (uint32_t row = 0; row < outer; ++row) {
    float max_logit = beta * input[0];
    for (uint32_t i = 1; i < depth; ++i) {
      const float logit = beta * input[i];
      if (logit > max_logit) max_logit = logit;
    }
    float sum = 0.0f;
    for (uint32_t i = 0; i < depth; ++i) {
      const float e = expf(beta * input[i] - max_logit);
      output[i] = e;
      sum += e;
    }
    const float inv_sum = 1.0f / sum;
    for (uint32_t i = 0; i < depth; ++i) output[i] *= inv_sum;
    input += depth;
    output += depth;
  }
}

Status softmax_f32_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 1, 1, 1));
  if (ctx.params_bytes() != sizeof(SoftmaxParams)) return Status::kBadParams;
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  if (!is_f32(in) || !is_f32(out) || in.rank < 1 || !same_shape(in, out)) {
    return Status::kBadParams;
  }
  if (!index_math_fits(in)) return Status::kBadParams;
  // Finite: an infinite or NaN beta turns every output into NaN.
  const float beta = ctx.params<SoftmaxParams>().beta;
  if (!(beta > -INFINITY && beta < INFINITY)) return Status::kBadParams;
  return Status::kOk;
}

void softmax_f32_run(const OpContext& ctx) {
  const TensorDesc& in = ctx.input_desc(0);
  uint32_t outer = 1;
  for (uint32_t i = 0; i + 1 < in.rank; ++i) outer *= in.dims[i];
  softmax_f32(ctx.params<SoftmaxParams>(), outer, in.dims[in.rank - 1],
              static_cast<const float*>(ctx.input_data(0)),
              static_cast<float*>(ctx.output_data(0)));
}

const KernelEntry kSoftmaxF32Entry = {softmax_f32_check, softmax_f32_run};

}  // namespace mote
