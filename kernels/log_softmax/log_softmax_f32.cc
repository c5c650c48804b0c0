// Reference float32 log-softmax (TFLite reference_ops::LogSoftmax).
#include <math.h>

#include "kernel_util.h"
#include "log_softmax/log_softmax.h"

namespace mote {

void log_softmax_f32(uint32_t rows, uint32_t depth, const float* input, float* output) {
  for (uint32_t r = 0; r < rows; ++r) {
    const float* x = input + static_cast<size_t>(r) * depth;
    float* y = output + static_cast<size_t>(r) * depth;
    float max = -3.402823466e+38f;  // std::numeric_limits<float>::lowest()
    for (uint32_t c = 0; c < depth; ++c) max = max < x[c] ? x[c] : max;
    float sum = 0.0f;
    for (uint32_t c = 0; c < depth; ++c) sum += expf(x[c] - max);
    const float log_sum = logf(sum);
    for (uint32_t c = 0; c < depth; ++c) y[c] = x[c] - max - log_sum;
  }
}

Status log_softmax_f32_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 1, 1, 1));
  if (ctx.params_bytes() != 0) return Status::kBadParams;
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  if (!is_f32(in) || !is_f32(out) || !same_shape(in, out) || in.rank < 1) return Status::kBadParams;
  return Status::kOk;
}

void log_softmax_f32_run(const OpContext& ctx) {
  const TensorDesc& in = ctx.input_desc(0);
  const uint32_t depth = static_cast<uint32_t>(in.dims[in.rank - 1]);
  log_softmax_f32(depth == 0 ? 0 : element_count(in) / depth, depth, static_cast<const float*>(ctx.input_data(0)),
                  static_cast<float*>(ctx.output_data(0)));
}

const KernelEntry kLogSoftmaxF32Entry = {log_softmax_f32_check, log_softmax_f32_run};

}  // namespace mote
