// Depthwise 2-D convolution, NHWC.
//   inputs:  0 input  [N, H, W, C]
//            1 filter [1, KH, KW, C * depth_multiplier]
//            2 bias   [C * depth_multiplier]   (optional)
//   output:  0        [N, OH, OW, C * depth_multiplier]
// Output channel c * depth_multiplier + m reads input channel c. Output size, padding
// and activation as conv2d.h.
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

struct DepthwiseConv2dParams {
  int32_t stride_h, stride_w;
  int32_t dilation_h, dilation_w;
  int32_t pad_top, pad_left, pad_bottom, pad_right;
  int32_t depth_multiplier;
  float act_min, act_max;
};

struct DepthwiseConv2dShape {
  int32_t batch, in_h, in_w, in_c;
  int32_t out_h, out_w, out_c;
  int32_t kernel_h, kernel_w;
};

void depthwise_conv2d_f32(const DepthwiseConv2dParams& params, const DepthwiseConv2dShape& shape,
                          const float* input, const float* filter, const float* bias,
                          float* output);

Status depthwise_conv2d_f32_check(const OpContext& ctx);
void depthwise_conv2d_f32_run(const OpContext& ctx);
extern const KernelEntry kDepthwiseConv2dF32Entry;

}  // namespace mote
