// Every kernel Mote has, by number. The number is what a program stores in
// OpDesc::kernel; it is stable across releases (append only, never renumber).
//
// Naming: <op>_<dtype>[_<specialization>][__<isa>], matching the file that holds it,
// e.g. kConv2dF32 lives in kernels/conv2d/conv2d_f32.cc.
#pragma once

#include <stdint.h>

namespace mote {

enum class KernelId : uint16_t {
  kInvalid = 0,
  // float32 reference kernels
  kConv2dF32 = 1,
  kDepthwiseConv2dF32 = 2,
  kFullyConnectedF32 = 3,
  kBatchMatMulF32 = 4,
  kAddF32 = 5,
  kSubF32 = 6,
  kMulF32 = 7,
  kDivF32 = 8,
  kClampF32 = 9,
  kSigmoidF32 = 10,
  kTanhF32 = 11,
  kSoftmaxF32 = 12,
  kAvgPool2dF32 = 13,
  kMaxPool2dF32 = 14,
  kMeanF32 = 15,
  // dtype-agnostic data movement (works on element bytes)
  kTranspose = 16,
  kConcat = 17,
  kPad = 18,
  kCopy = 19,

  kCount  // one past the last id; table sizes
};

inline constexpr uint32_t kKernelCount = static_cast<uint32_t>(KernelId::kCount);

// "conv2d_f32", ...; "" for an unknown id. Host-side (compiler, CLI, reports).
const char* kernel_name(KernelId id);

// The inverse of kernel_name(); KernelId::kInvalid for an unknown (or null) name.
KernelId kernel_id_from_name(const char* name);

}  // namespace mote
