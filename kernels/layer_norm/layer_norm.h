// Layer normalization (ONNX LayerNormalization, PyTorch nn.LayerNorm): every row of the
// input's last dims normalized to zero mean and unit variance, then scaled and shifted.
//   input 0   x [d0 .. d(r-1)], float32; a row is the dims axis .. r-1 (n elements)
//   input 1   scale [n] (the normalized dims flattened), float32
//   input 2   bias [n], float32, optional (absent: 0)
//   output 0  x's shape, float32
// layer_norm_f32 (LayerNormParams), per row, in float:
//   mean = sum(x) / n, var = sum((x - mean)^2) / n (two passes; the sums add blocks of
//   32 elements, so the rounding error grows with n / 32 + 32, not with n),
//   y = (x - mean) * (1 / sqrtf(var + epsilon)) * scale + bias.
// The integer path has no such kernel (TFLite has none): --quantize keeps it float.
// check(): dtypes, the output's shape, axis < rank, scale and bias of n elements.
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

struct LayerNormParams {
  uint32_t axis;  // the first normalized dim
  float epsilon;
};

Status layer_norm_f32_check(const OpContext& ctx);
void layer_norm_f32_run(const OpContext& ctx);

extern const KernelEntry kLayerNormF32Entry;

}  // namespace mote
