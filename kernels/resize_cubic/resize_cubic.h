// Separable resize of NHWC images through up to four weighted taps per output row and
// column, float32: ONNX Resize's cubic mode (any cubic_coeff_a, exclude_outside, every
// coordinate transform) and the tf_crop_and_resize crops of every mode (nearest and linear
// taps, with an extrapolation value for points outside the input).
//   input 0 [N,H,W,C], output 0 [N,OH,OW,C], both float32.
//   params: ResizeCubicParams, then a ResizeCubicTap for each of the OH output rows, then
//           one for each of the OW output columns.
// Output element (n, y, x, c), with r = row[y] and q = col[x]:
//   extrapolation_value                                    when r.inside or q.inside is 0;
//   sum_i r.weight[i] * (sum_j q.weight[j] * input(n, r.index[i], q.index[j], c)) otherwise,
//   in float, i and j from 0 to 3 in order (the inner sum over columns first, as ONNX's
//   reference resizes the last axis first).
// The compiler computes indices and weights on the host (compiler/lower/resize.cc, the
// formulas in compiler/ir/mote_ops.md): edge clamping is an index repeated, an unused tap a
// weight 0. check(): OH + OW taps, every index inside the input, inside 0 or 1. The
// output must not alias the input.
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

Status resize_cubic_f32_check(const OpContext& ctx);
void resize_cubic_f32_run(const OpContext& ctx);
extern const KernelEntry kResizeCubicF32Entry;

}  // namespace mote
