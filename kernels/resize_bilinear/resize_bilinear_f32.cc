// Reference float32 bilinear resize, bit-exact with TFLite's reference_ops::ResizeBilinear.
#include "resize_bilinear/resize_bilinear.h"
#include "resize_bilinear/resize_bilinear_walk.h"

// TFLite rounds every product and sum: no fused multiply-add, which GCC would otherwise
// form on cores whose FPU has one (Cortex-M4, M7, M33, M55).
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

namespace mote {
namespace {

using resize_bilinear_internal::check;
using resize_bilinear_internal::walk;

void blend_f32(const float* ll, const float* ul, const float* lu, const float* uu, const ResizeBilinearF32Tap& row,
               const ResizeBilinearF32Tap& col, uint32_t channels, float* out) {
  const float fy = row.fraction, fx = col.fraction;
  const float gy = 1.0f - fy, gx = 1.0f - fx;
  for (uint32_t c = 0; c < channels; ++c) {
    float sum = ll[c] * gy * gx;
    sum = sum + ul[c] * fy * gx;
    sum = sum + lu[c] * gy * fx;
    sum = sum + uu[c] * fy * fx;
    out[c] = sum + 0.0f;  // TFLite adds its rounding offset, 0 for float (-0 becomes +0)
  }
}

bool any_fraction(float) { return true; }

}  // namespace

Status resize_bilinear_f32_check(const OpContext& ctx) {
  return check<ResizeBilinearF32Tap>(ctx, DType::kFloat32, any_fraction);
}

void resize_bilinear_f32_run(const OpContext& ctx) { walk<float, ResizeBilinearF32Tap>(ctx, blend_f32); }

const KernelEntry kResizeBilinearF32Entry = {resize_bilinear_f32_check, resize_bilinear_f32_run};

}  // namespace mote
