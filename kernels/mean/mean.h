// Mean over a set of axes (ONNX ReduceMean, GlobalAveragePool in NHWC = mean over H, W).
//   input 0 [d0..d(r-1)], output 0 with element count = product of the kept dims
//   (keepdims or not is only a matter of the output's shape; the data is the same).
// axes_mask bit i set = reduce input axis i.
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

struct MeanParams {
  uint32_t axes_mask;
};

Status mean_f32_check(const OpContext& ctx);
void mean_f32_run(const OpContext& ctx);
extern const KernelEntry kMeanF32Entry;

}  // namespace mote
