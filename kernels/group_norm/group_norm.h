// Group normalization over channels-last data (PyTorch nn.GroupNorm; ONNX
// InstanceNormalization is the case groups = C): the channels are split into `groups`
// consecutive groups, and each (batch, group) is normalized over all its positions and
// channels to zero mean and unit variance, then scaled and shifted per channel.
//   input 0   x [N, s1 .. sk, C], float32 (rank >= 2: batch first, channels last,
//             the dims between are the positions; NHWC, NLC or [N, C])
//   input 1   scale [C], float32
//   input 2   bias [C], float32, optional (absent: 0)
//   output 0  x's shape, float32
// group_norm_f32 (GroupNormParams), per (n, g), over m = positions * C / groups values:
//   mean = sum(x) / m, var = sum((x - mean)^2) / m (two passes in float; a position's
//   channels are summed first, and positions in blocks of 32),
//   y = (x - mean) * (1 / sqrtf(var + epsilon)) * scale[c] + bias[c].
// The integer path has no such kernel (TFLite has none): --quantize keeps it float.
// check(): dtypes, the output's shape, rank >= 2, groups >= 1 dividing C, scale and
// bias of C elements.
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

struct GroupNormParams {
  uint32_t groups;
  float epsilon;
};

Status group_norm_f32_check(const OpContext& ctx);
void group_norm_f32_run(const OpContext& ctx);

extern const KernelEntry kGroupNormF32Entry;

}  // namespace mote
