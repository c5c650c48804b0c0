// Internal to kernels/resize_cubic/: the check and the pixel walk the float and int8
// kernels share; each supplies its header and tap types and its blend of one pixel.
#pragma once

#include <stdint.h>

#include "kernel_util.h"
#include "resize_cubic/resize_cubic.h"

namespace mote {
namespace resize_cubic_internal {

template <typename Header, typename Tap>
const Tap* row_taps(const OpContext& ctx) {
  return reinterpret_cast<const Tap*>(&ctx.params<uint8_t>() + sizeof(Header));
}

// Input 0 and output 0 [N,H,W,C] / [N,OH,OW,C] of `dtype`, the header then OH + OW taps
// whose indices lie inside the input, whose `inside` is 0 or 1 and whose weights
// `weight_ok` accepts.
template <typename Header, typename Tap, typename WeightOk>
Status check(const OpContext& ctx, DType dtype, WeightOk weight_ok) {
  MOTE_RETURN_IF_ERROR(check_resize_images(ctx, dtype));
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  const uint64_t taps = uint64_t{out.dims[1]} + out.dims[2];
  if (ctx.params_bytes() != sizeof(Header) + taps * sizeof(Tap)) return Status::kBadParams;
  const Tap* tap = row_taps<Header, Tap>(ctx);
  for (uint64_t i = 0; i < taps; ++i) {
    const uint32_t limit = i < out.dims[1] ? in.dims[1] : in.dims[2];
    if (tap[i].inside != 0 && tap[i].inside != 1) return Status::kBadParams;
    for (int k = 0; k < kResizeCubicTaps; ++k) {
      if (tap[i].index[k] < 0 || static_cast<uint32_t>(tap[i].index[k]) >= limit || !weight_ok(tap[i].weight[k]))
        return Status::kBadParams;
    }
  }
  return Status::kOk;
}

// For each output pixel: fill(out) when its row or column is extrapolated, else
// blend(row pointers of the 4 row taps, row tap, column tap, out), C channels each.
template <typename T, typename Header, typename Tap, typename Fill, typename Blend>
void walk(const OpContext& ctx, Fill fill, Blend blend) {
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  const uint32_t channels = in.dims[3];
  const uint32_t row_elements = in.dims[2] * channels;
  const uint32_t image_elements = in.dims[1] * row_elements;
  const Tap* rows = row_taps<Header, Tap>(ctx);
  const Tap* cols = rows + out.dims[1];
  const T* input = static_cast<const T*>(ctx.input_data(0));
  T* output = static_cast<T*>(ctx.output_data(0));
  for (uint32_t n = 0; n < in.dims[0]; ++n) {
    const T* image = input + n * image_elements;
    for (uint32_t y = 0; y < out.dims[1]; ++y) {
      const Tap& r = rows[y];
      const T* tap_rows[kResizeCubicTaps];
      for (int i = 0; i < kResizeCubicTaps; ++i) tap_rows[i] = image + static_cast<uint32_t>(r.index[i]) * row_elements;
      for (uint32_t x = 0; x < out.dims[2]; ++x) {
        if (r.inside == 0 || cols[x].inside == 0) {
          fill(channels, output);
        } else {
          blend(tap_rows, r, cols[x], channels, output);
        }
        output += channels;
      }
    }
  }
}

}  // namespace resize_cubic_internal
}  // namespace mote
