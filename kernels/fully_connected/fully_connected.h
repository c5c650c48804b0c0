// Fully connected (dense) layer: output = input * weights^T + bias, then clamp.
//   inputs:  0 input   [..., K]  treated as [B, K] with B = elements / K
//            1 weights [N, K]
//            2 bias    [N]       (optional)
//   output:  0         [B, N]    (any shape with B * N elements whose last dim is N)
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

struct FullyConnectedParams {
  float act_min, act_max;
};

void fully_connected_f32(const FullyConnectedParams& params, int32_t batches, int32_t in_features,
                         int32_t out_features, const float* input, const float* weights,
                         const float* bias, float* output);

Status fully_connected_f32_check(const OpContext& ctx);
void fully_connected_f32_run(const OpContext& ctx);
extern const KernelEntry kFullyConnectedF32Entry;

}  // namespace mote
