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
