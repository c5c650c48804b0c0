// Separable resize of NHWC images through up to four weighted taps per output row and
// column, float32 and int8: ONNX Resize's cubic mode (any cubic_coeff_a, exclude_outside, every
// coordinate transform) and the tf_crop_and_resize crops of every mode (nearest and linear
// taps, with an extrapolation value for points outside the input).
//   input 0 [N,H,W,C], output 0 [N,OH,OW,C], both float32 (resize_cubic_f32) or both int8
//   (resize_cubic_s8).
//   params: ResizeCubicParams (resp. ResizeCubicS8Params), then a ResizeCubicTap (resp.
//           ResizeCubicQuantTap) for each of the OH output rows, then one for each of the
//           OW output columns.
// Output element (n, y, x, c), with r = row[y] and q = col[x]:
//   extrapolation_value                                    when r.inside or q.inside is 0;
//   sum_i r.weight[i] * (sum_j q.weight[j] * input(n, r.index[i], q.index[j], c)) otherwise,
//   in float, i and j from 0 to 3 in order (the inner sum over columns first, as ONNX's
//   reference resizes the last axis first).
// resize_cubic_s8, weights w in 1/4096 (int16 range), v = input - input_zero_point:
//   column blends b_i = sum_j q.w[j] * v(n, r.index[i], q.index[j], c)          (int32)
//   acc = sum_i r.w[i] * b_i                                                    (int64)
//   out = clamp(output_zero_point + multiply_by_quantized_multiplier(
//             (acc + 2^11) >> 12, multiplier, shift), -128, 127)
//   with multiplier, shift from input_scale / output_scale / 4096; an extrapolated
//   element is `extrapolation` (already quantized).
// The compiler computes indices and weights on the host (compiler/lower/resize.cc, the
// formulas in compiler/ir/mote_ops.md): edge clamping is an index repeated, an unused tap a
// weight 0. check(): OH + OW taps, every index inside the input, inside 0 or 1;
// int8: weights in [-32768, 32767], zero points and extrapolation in [-128, 127], shift
// in [kMinShift, 0] (the multiplier below 1, so no left shift wraps). The output must not alias the input.
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

inline constexpr int kResizeCubicTaps = 4;

struct ResizeCubicParams {
  float extrapolation_value;  // the output where a point lies outside the input
};

struct ResizeCubicTap {
  int32_t index[kResizeCubicTaps];  // input rows (columns), each in [0, H) resp. [0, W)
  float weight[kResizeCubicTaps];
  int32_t inside;  // 1: interpolated; 0: the output row (column) is extrapolation_value
};

inline constexpr int32_t kResizeCubicWeightOne = 4096;  // int8 weights' unit

struct ResizeCubicS8Params {
  int32_t input_zero_point;
  int32_t output_zero_point;
  int32_t multiplier;  // input_scale / output_scale / 4096 as multiplier * 2^(shift - 31)
  int32_t shift;
  int32_t extrapolation;  // the quantized output where a point lies outside the input
};

struct ResizeCubicQuantTap {
  int32_t index[kResizeCubicTaps];
  int32_t weight[kResizeCubicTaps];  // in 1/4096, within int16
  int32_t inside;
};

Status resize_cubic_f32_check(const OpContext& ctx);
Status resize_cubic_s8_check(const OpContext& ctx);
void resize_cubic_f32_run(const OpContext& ctx);
void resize_cubic_s8_run(const OpContext& ctx);
extern const KernelEntry kResizeCubicF32Entry;
extern const KernelEntry kResizeCubicS8Entry;

}  // namespace mote
