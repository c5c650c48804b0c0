// Internal to kernels/resize_bilinear/: the check and the pixel walk the float and
// integer kernels share; each supplies its tap type and its blend of four elements.
#pragma once

#include <stdint.h>

#include "kernel_util.h"
#include "resize_bilinear/resize_bilinear.h"

namespace mote {
namespace resize_bilinear_internal {

template <typename Tap>
const Tap* row_taps(const OpContext& ctx) {
  return &ctx.params<Tap>();
}

// Input 0 and output 0 [N,H,W,C] / [N,OH,OW,C] of `dtype`, OH + OW taps whose rows and
// columns lie inside the input and whose fractions `fraction_ok` accepts.
template <typename Tap, typename FractionOk>
Status check(const OpContext& ctx, DType dtype, FractionOk fraction_ok) {
  MOTE_RETURN_IF_ERROR(check_resize_images(ctx, dtype));
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  const uint64_t taps = uint64_t{out.dims[1]} + out.dims[2];
  if (ctx.params_bytes() != taps * sizeof(Tap)) return Status::kBadParams;
  const Tap* tap = row_taps<Tap>(ctx);
  for (uint64_t i = 0; i < taps; ++i) {
    const uint32_t limit = i < out.dims[1] ? in.dims[1] : in.dims[2];
    if (tap[i].lower < 0 || tap[i].upper < 0 || static_cast<uint32_t>(tap[i].lower) >= limit ||
        static_cast<uint32_t>(tap[i].upper) >= limit || !fraction_ok(tap[i].fraction)) {
      return Status::kBadParams;
    }
  }
  return Status::kOk;
}

// For each output pixel, blend(ll, ul, lu, uu, row tap, column tap, channels, out): the
// four input pixels (row lower/upper, column lower/upper) and the output pixel.
template <typename T, typename Tap, typename Blend>
void walk(const OpContext& ctx, Blend blend) {
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  const uint32_t channels = in.dims[3];
  const uint32_t row_elements = in.dims[2] * channels;
  const uint32_t image_elements = in.dims[1] * row_elements;
  const Tap* rows = row_taps<Tap>(ctx);
  const Tap* cols = rows + out.dims[1];
  const T* input = static_cast<const T*>(ctx.input_data(0));
  T* output = static_cast<T*>(ctx.output_data(0));
  for (uint32_t n = 0; n < in.dims[0]; ++n) {
    const T* image = input + n * image_elements;
    for (uint32_t y = 0; y < out.dims[1]; ++y) {
      const T* lower_row = image + static_cast<uint32_t>(rows[y].lower) * row_elements;
      const T* upper_row = image + static_cast<uint32_t>(rows[y].upper) * row_elements;
      for (uint32_t x = 0; x < out.dims[2]; ++x) {
        const uint32_t left = static_cast<uint32_t>(cols[x].lower) * channels;
        const uint32_t right = static_cast<uint32_t>(cols[x].upper) * channels;
        blend(lower_row + left, upper_row + left, lower_row + right, upper_row + right, rows[y], cols[x],
              channels, output);
        output += channels;
      }
    }
  }
}

}  // namespace resize_bilinear_internal
}  // namespace mote
