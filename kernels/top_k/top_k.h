// ONNX TopK (torch.topk, torch.sort, and TFLite's TOPK_V2 along the last axis).
//   input 0   [d0 .. d(r-1)], r >= 1, float32
//   output 0  values: the input's shape with d(axis) replaced by k, float32
//   output 1  indices: the same shape, int32 or int64 (ONNX)
// For every position of the other dims, the k best values along `axis` in order, best
// first, and their indices along it. Best: the largest (largest 1) or the smallest
// (largest 0); NaN ranks above every number, as in PyTorch and numpy (so it is first
// with largest, never picked with smallest while numbers remain). Equal values keep the
// order of their indices (the lower index first, as ONNX specifies).
// Algorithm: one pass over the axis, each element inserted into the sorted prefix of
// the outputs after every entry it does not beat (a partial insertion sort): O(n * k)
// per row, no scratch. check(): dtypes, axis < rank, 1 <= k <= d(axis), the outputs'
// shapes (element counts), index math in int32.
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

struct TopKParams {
  uint32_t axis;
  uint32_t k;
  uint32_t largest;  // 1: the largest values; 0: the smallest
};

Status top_k_f32_check(const OpContext& ctx);
void top_k_f32_run(const OpContext& ctx);

extern const KernelEntry kTopKF32Entry;

}  // namespace mote
