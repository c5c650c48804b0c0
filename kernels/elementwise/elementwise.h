// Binary elementwise ops with numpy-style broadcasting: add, sub, mul, div.
//   inputs:  0 a, 1 b    ranks <= kMaxRank, right-aligned broadcast
//   output:  0           the broadcast shape (rank = max rank of a, b)
// The result is clamped to [act_min, act_max] (fused activation).
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

struct BinaryParams {
  float act_min, act_max;
};

// Broadcast geometry: output dims and each input's element strides (0 on broadcast
// dims), padded on the left to kMaxRank.
struct BroadcastShape {
  int32_t out_dims[kMaxRank];
  int32_t a_strides[kMaxRank];
  int32_t b_strides[kMaxRank];
};

// Fills `shape` from the three descriptors; false when a and b do not broadcast to out.
bool make_broadcast_shape(const TensorDesc& a, const TensorDesc& b, const TensorDesc& out,
                          BroadcastShape* shape);

void add_f32(const BinaryParams& params, const BroadcastShape& shape, const float* a,
             const float* b, float* out);
void sub_f32(const BinaryParams& params, const BroadcastShape& shape, const float* a,
             const float* b, float* out);
void mul_f32(const BinaryParams& params, const BroadcastShape& shape, const float* a,
             const float* b, float* out);
void div_f32(const BinaryParams& params, const BroadcastShape& shape, const float* a,
             const float* b, float* out);

Status binary_f32_check(const OpContext& ctx);  // shared by add/sub/mul/div
void add_f32_run(const OpContext& ctx);
void sub_f32_run(const OpContext& ctx);
void mul_f32_run(const OpContext& ctx);
void div_f32_run(const OpContext& ctx);
extern const KernelEntry kAddF32Entry;
extern const KernelEntry kSubF32Entry;
extern const KernelEntry kMulF32Entry;
extern const KernelEntry kDivF32Entry;

}  // namespace mote
