// 2-D average and max pooling, NHWC.
//   input 0 [N, H, W, C], output 0 [N, OH, OW, C]
// Window for output (oy, ox): rows oy*stride_h - pad_top + ky*dilation_h, ky < kernel_h
// (same for columns). Positions outside [0, H) x [0, W) are skipped (max) or counted as
// zero only when count_include_pad != 0 and they fall inside the explicit padding
// [-pad_top, H + pad_bottom) (ONNX/PyTorch semantics; ceil_mode's extra row/column, which
// lies beyond pad_bottom/pad_right, is never counted). OH may be the floor or the ceil
// form of (H + pad_top + pad_bottom - dilation_h*(kernel_h-1) - 1) / stride_h + 1.
// The result is clamped to [act_min, act_max].
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

struct Pool2dParams {
  int32_t kernel_h, kernel_w;
  int32_t stride_h, stride_w;
  int32_t dilation_h, dilation_w;
  int32_t pad_top, pad_left, pad_bottom, pad_right;
  int32_t count_include_pad;  // average pool only
  float act_min, act_max;
};

struct Pool2dShape {
  int32_t batch, in_h, in_w, channels;
  int32_t out_h, out_w;
};

void avg_pool2d_f32(const Pool2dParams& params, const Pool2dShape& shape, const float* input,
                    float* output);
void max_pool2d_f32(const Pool2dParams& params, const Pool2dShape& shape, const float* input,
                    float* output);

Status pool2d_f32_check(const OpContext& ctx);
void avg_pool2d_f32_run(const OpContext& ctx);
void max_pool2d_f32_run(const OpContext& ctx);
extern const KernelEntry kAvgPool2dF32Entry;
extern const KernelEntry kMaxPool2dF32Entry;

}  // namespace mote
