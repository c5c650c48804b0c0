// Bilinear resize of NHWC images (TFLite RESIZE_BILINEAR), float32, int8 and int16.
//   input 0 [N,H,W,C], output 0 [N,OH,OW,C] of the same dtype.
//   params: no struct, a tap for each of the OH output rows, then one for each of the OW
//           output columns: `lower` and `upper`, the two input rows (columns) it reads,
//           and `fraction`, the weight of `upper`.
// Output element (n, y, x, c) blends v_ab = input(n, row[y].a, col[x].b, c), a and b each
// lower or upper, with fy = row[y].fraction and fx = col[x].fraction:
//   resize_bilinear_f32 (ResizeBilinearF32Tap), TFLite's reference_ops::ResizeBilinear:
//     v_ll*(1-fy)*(1-fx) + v_ul*fy*(1-fx) + v_lu*(1-fy)*fx + v_uu*fy*fx + 0, in float,
//     left to right, each product and sum rounded (no fused multiply-add).
//   resize_bilinear_s8, resize_bilinear_s16 (ResizeBilinearQuantTap; fractions in 1/1024),
//     TFLite's reference_ops::ResizeBilinearInteger (double rounding, as TFLite Micro builds):
//     acc = v_ll*(1024-fy)*(1024-fx) + v_ul*fy*(1024-fx) + v_lu*(1024-fy)*fx + v_uu*fy*fx
//     out = (acc + (acc > 0 ? 2^19 : -2^19)) / 2^20, the division truncating.
//     Quantized values are blended as they are (TFLite Micro does not requantize).
// The compiler computes the taps as TFLite does (align_corners, half_pixel_centers;
// compiler/ir/mote_ops.md). check(): OH + OW taps, every lower and upper inside the
// input; integer fractions in [-512, 1023], the range TFLite's arithmetic gives (so an
// int8 sum stays below 2^31). The output must not alias the input.
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

struct ResizeBilinearF32Tap {
  int32_t lower;
  int32_t upper;
  float fraction;  // the input coordinate minus `lower`, as TFLite computes it in float
};

struct ResizeBilinearQuantTap {
  int32_t lower;
  int32_t upper;
  int32_t fraction;  // in 1/1024: the scaled input coordinate minus 1024 * lower
};

inline constexpr int32_t kResizeBilinearMinFraction = -512;
inline constexpr int32_t kResizeBilinearMaxFraction = 1023;

Status resize_bilinear_f32_check(const OpContext& ctx);
Status resize_bilinear_s8_check(const OpContext& ctx);
Status resize_bilinear_s16_check(const OpContext& ctx);
void resize_bilinear_f32_run(const OpContext& ctx);
void resize_bilinear_s8_run(const OpContext& ctx);
void resize_bilinear_s16_run(const OpContext& ctx);
extern const KernelEntry kResizeBilinearF32Entry;
extern const KernelEntry kResizeBilinearS8Entry;
extern const KernelEntry kResizeBilinearS16Entry;

}  // namespace mote
