// 2-D convolution, NHWC.
//   inputs:  0 input  [N, H, W, C]
//            1 filter [O, KH, KW, C / groups]   (OHWI)
//            2 bias   [O]                        (optional)
//   output:  0        [N, OH, OW, O]
//   OH = (H + pad_top + pad_bottom - dilation_h * (KH - 1) - 1) / stride_h + 1 (same for W).
// groups divides both C and O; output channel o reads input channels
// [(o / (O / groups)) * (C / groups), +C / groups). Padding reads as zero.
// The result is clamped to [act_min, act_max] (fused ReLU/ReLU6/Clip; +-inf for none).
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

struct Conv2dParams {
  int32_t stride_h, stride_w;
  int32_t dilation_h, dilation_w;
  int32_t pad_top, pad_left, pad_bottom, pad_right;
  int32_t groups;
  float act_min, act_max;
};

// Shapes as the kernel sees them, filled from the tensor descriptors.
struct Conv2dShape {
  int32_t batch, in_h, in_w, in_c;
  int32_t out_h, out_w, out_c;
  int32_t kernel_h, kernel_w;
};

void conv2d_f32(const Conv2dParams& params, const Conv2dShape& shape, const float* input,
                const float* filter, const float* bias, float* output);

Status conv2d_f32_check(const OpContext& ctx);
void conv2d_f32_run(const OpContext& ctx);
extern const KernelEntry kConv2dF32Entry;

}  // namespace mote
