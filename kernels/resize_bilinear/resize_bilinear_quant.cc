// Reference int8 and int16 bilinear resize, bit-exact with TFLite's
// reference_ops::ResizeBilinearInteger (the same template serves both, as in TFLite). The
// int8 sum fits int32 (|v| <= 128, weights in [-512, 1536], four terms); int16 needs int64.
#include "quant/quant_check.h"
#include "resize_bilinear/resize_bilinear.h"
#include "resize_bilinear/resize_bilinear_walk.h"

namespace mote {
namespace {

using resize_bilinear_internal::check;
using resize_bilinear_internal::walk;

template <typename T, typename Acc>
void blend(const T* ll, const T* ul, const T* lu, const T* uu, const ResizeBilinearQuantTap& row,
           const ResizeBilinearQuantTap& col, uint32_t channels, T* out) {
  constexpr Acc kOne = 1 << 10;
  constexpr Acc kHalf = Acc{1} << 19;
  const Acc fy = row.fraction, fx = col.fraction;
  const Acc w_ll = (kOne - fy) * (kOne - fx), w_ul = fy * (kOne - fx);
  const Acc w_lu = (kOne - fy) * fx, w_uu = fy * fx;
  for (uint32_t c = 0; c < channels; ++c) {
    const Acc acc = ll[c] * w_ll + ul[c] * w_ul + lu[c] * w_lu + uu[c] * w_uu;
    out[c] = static_cast<T>((acc + (acc > 0 ? kHalf : -kHalf)) / (Acc{1} << 20));
  }
}

bool fraction_in_range(int32_t fraction) {
  return fraction >= kResizeBilinearMinFraction && fraction <= kResizeBilinearMaxFraction;
}

}  // namespace

Status resize_bilinear_s8_check(const OpContext& ctx) {
  return check<ResizeBilinearQuantTap>(ctx, DType::kInt8, fraction_in_range);
}
Status resize_bilinear_s16_check(const OpContext& ctx) {
  return check<ResizeBilinearQuantTap>(ctx, DType::kInt16, fraction_in_range);
}

void resize_bilinear_s8_run(const OpContext& ctx) {
  walk<int8_t, ResizeBilinearQuantTap>(ctx, blend<int8_t, int32_t>);
}
void resize_bilinear_s16_run(const OpContext& ctx) {
  walk<int16_t, ResizeBilinearQuantTap>(ctx, blend<int16_t, int64_t>);
}

const KernelEntry kResizeBilinearS8Entry = {resize_bilinear_s8_check, resize_bilinear_s8_run};
const KernelEntry kResizeBilinearS16Entry = {resize_bilinear_s16_check, resize_bilinear_s16_run};

}  // namespace mote
