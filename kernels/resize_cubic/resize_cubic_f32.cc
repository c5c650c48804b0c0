// Reference float32 separable resize: for each output pixel, the column taps blend each of
// the four tap rows, then the row taps blend those four values.
#include "resize_cubic/resize_cubic.h"
#include "resize_cubic/resize_cubic_walk.h"

namespace mote {
namespace {

using resize_cubic_internal::check;
using resize_cubic_internal::walk;

bool any_weight(float) { return true; }

}  // namespace

Status resize_cubic_f32_check(const OpContext& ctx) {
  return check<ResizeCubicParams, ResizeCubicTap>(ctx, DType::kFloat32, any_weight);
}

void resize_cubic_f32_run(const OpContext& ctx) {
  const float extrapolation = ctx.params<ResizeCubicParams>().extrapolation_value;
  auto fill = [extrapolation](uint32_t channels, float* out) {
    for (uint32_t c = 0; c < channels; ++c) out[c] = extrapolation;
  };
  auto blend = [](const float* const* rows, const ResizeCubicTap& r, const ResizeCubicTap& q, uint32_t channels,
                  float* out) {
    for (uint32_t c = 0; c < channels; ++c) {
      float sum = 0.0f;
      for (int i = 0; i < kResizeCubicTaps; ++i) {
        float blended = 0.0f;
        for (int j = 0; j < kResizeCubicTaps; ++j)
          blended += q.weight[j] * rows[i][static_cast<uint32_t>(q.index[j]) * channels + c];
        sum += r.weight[i] * blended;
      }
      out[c] = sum;
    }
  };
  walk<float, ResizeCubicParams, ResizeCubicTap>(ctx, fill, blend);
}

const KernelEntry kResizeCubicF32Entry = {resize_cubic_f32_check, resize_cubic_f32_run};

}  // namespace mote
