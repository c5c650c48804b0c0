#include <string.h>

#include "kernel_ids.h"

namespace mote {

const char* kernel_name(KernelId id) {
  switch (id) {
    case KernelId::kConv2dF32: return "conv2d_f32";
    case KernelId::kDepthwiseConv2dF32: return "depthwise_conv2d_f32";
    case KernelId::kFullyConnectedF32: return "fully_connected_f32";
    case KernelId::kBatchMatMulF32: return "batch_matmul_f32";
    case KernelId::kAddF32: return "add_f32";
    case KernelId::kSubF32: return "sub_f32";
    case KernelId::kMulF32: return "mul_f32";
    case KernelId::kDivF32: return "div_f32";
    case KernelId::kClampF32: return "clamp_f32";
    case KernelId::kSigmoidF32: return "sigmoid_f32";
    case KernelId::kTanhF32: return "tanh_f32";
    case KernelId::kSoftmaxF32: return "softmax_f32";
    case KernelId::kAvgPool2dF32: return "avg_pool2d_f32";
    case KernelId::kMaxPool2dF32: return "max_pool2d_f32";
    case KernelId::kMeanF32: return "mean_f32";
    case KernelId::kTranspose: return "transpose";
    case KernelId::kConcat: return "concat";
    case KernelId::kPad: return "pad";
    case KernelId::kCopy: return "copy";
    case KernelId::kConv2dS8: return "conv2d_s8";
    case KernelId::kDepthwiseConv2dS8: return "depthwise_conv2d_s8";
    case KernelId::kFullyConnectedS8: return "fully_connected_s8";
    case KernelId::kAddS8: return "add_s8";
    case KernelId::kSubS8: return "sub_s8";
    case KernelId::kMulS8: return "mul_s8";
    case KernelId::kAvgPool2dS8: return "avg_pool2d_s8";
    case KernelId::kMaxPool2dS8: return "max_pool2d_s8";
    case KernelId::kSoftmaxS8: return "softmax_s8";
    case KernelId::kSigmoidS8: return "sigmoid_s8";
    case KernelId::kTanhS8: return "tanh_s8";
    case KernelId::kMeanS8: return "mean_s8";
    case KernelId::kLeakyReluS8: return "leaky_relu_s8";
    case KernelId::kConv2dS16: return "conv2d_s16";
    case KernelId::kDepthwiseConv2dS16: return "depthwise_conv2d_s16";
    case KernelId::kTransposeConvS16: return "transpose_conv_s16";
    case KernelId::kAddS16: return "add_s16";
    case KernelId::kSubS16: return "sub_s16";
    case KernelId::kMulS16: return "mul_s16";
    case KernelId::kLeakyReluS16: return "leaky_relu_s16";
    case KernelId::kQuantizeF32S8: return "quantize_f32_s8";
    case KernelId::kQuantizeF32S16: return "quantize_f32_s16";
    case KernelId::kDequantizeS8F32: return "dequantize_s8_f32";
    case KernelId::kDequantizeS16F32: return "dequantize_s16_f32";
    case KernelId::kRequantizeS8S8: return "requantize_s8_s8";
    case KernelId::kRequantizeS8S16: return "requantize_s8_s16";
    case KernelId::kRequantizeS8S32: return "requantize_s8_s32";
    case KernelId::kRequantizeS16S8: return "requantize_s16_s8";
    case KernelId::kRequantizeS16S16: return "requantize_s16_s16";
    case KernelId::kRequantizeS16S32: return "requantize_s16_s32";
    case KernelId::kRequantizeS32S8: return "requantize_s32_s8";
    case KernelId::kRequantizeS32S16: return "requantize_s32_s16";
    case KernelId::kStridedSlice: return "strided_slice";
    case KernelId::kLstmS8: return "lstm_s8";
    case KernelId::kFullyConnectedS16: return "fully_connected_s16";
    case KernelId::kMeanS16: return "mean_s16";
    case KernelId::kAvgPool2dS16: return "avg_pool2d_s16";
    case KernelId::kMaxPool2dS16: return "max_pool2d_s16";
    case KernelId::kConv2dS8Dsp: return "conv2d_s8__dsp";
    case KernelId::kConv2dS81x1Dsp: return "conv2d_s8_1x1__dsp";
    case KernelId::kDepthwiseConv2dS8Dsp: return "depthwise_conv2d_s8__dsp";
    case KernelId::kDepthwiseConv2dS83x3Dsp: return "depthwise_conv2d_s8_3x3__dsp";
    case KernelId::kFullyConnectedS8Dsp: return "fully_connected_s8__dsp";
    case KernelId::kAddS8Dsp: return "add_s8__dsp";
    case KernelId::kAvgPool2dS8Dsp: return "avg_pool2d_s8__dsp";
    case KernelId::kMaxPool2dS8Dsp: return "max_pool2d_s8__dsp";
    case KernelId::kConv2dS8Mve: return "conv2d_s8__mve";
    case KernelId::kConv2dS81x1Mve: return "conv2d_s8_1x1__mve";
    case KernelId::kDepthwiseConv2dS8Mve: return "depthwise_conv2d_s8__mve";
    case KernelId::kFullyConnectedS8Mve: return "fully_connected_s8__mve";
    case KernelId::kAddS8Mve: return "add_s8__mve";
    case KernelId::kAvgPool2dS8Mve: return "avg_pool2d_s8__mve";
    case KernelId::kMaxPool2dS8Mve: return "max_pool2d_s8__mve";
    case KernelId::kConv2dS8V6m: return "conv2d_s8__v6m";
    case KernelId::kDepthwiseConv2dS8V6m: return "depthwise_conv2d_s8__v6m";
    case KernelId::kFullyConnectedS8V6m: return "fully_connected_s8__v6m";
    case KernelId::kDepthwiseConv2dS8MultDsp: return "depthwise_conv2d_s8_mult__dsp";
    case KernelId::kAddS8LutDsp: return "add_s8_lut__dsp";
    case KernelId::kInvalid:
    case KernelId::kCount: break;
  }
  return "";
}

KernelId kernel_id_from_name(const char* name) {
  if (name == nullptr || name[0] == '\0') return KernelId::kInvalid;
  for (uint32_t i = 1; i < kKernelCount; ++i) {
    const KernelId id = static_cast<KernelId>(i);
    if (strcmp(kernel_name(id), name) == 0) return id;
  }
  return KernelId::kInvalid;
}

}  // namespace mote
