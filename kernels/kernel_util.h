// Helpers shared by the kernels' check and run functions (internal to kernels/).
//
// Index math convention: kernels index with int32. Every check makes sure that holds by
// accepting only tensors for which index_math_fits() is true and window geometries that
// valid_window() accepts, so no product or coordinate a kernel computes can overflow.
#pragma once

#include <stdint.h>

#include "mote/kernel.h"
#include "window_geometry.h"

namespace mote {

// Verifies the op's io list: an input count in [min_inputs, max_inputs], exactly
// `outputs` outputs, inputs [0, min_inputs) and every output present. Inputs past
// min_inputs are optional (may be kNoTensor). Returns kBadOp otherwise.
Status check_io(const OpContext& ctx, uint32_t min_inputs, uint32_t max_inputs,
                uint32_t outputs);

inline bool is_f32(const TensorDesc& t) { return has_dtype(t, DType::kFloat32); }

// Same rank and dims.
bool same_shape(const TensorDesc& a, const TensorDesc& b);

// True when the product of any subset of t's dims fits in int32 (zero dims count as 1,
// so an empty tensor with a huge other dim is refused too).
bool index_math_fits(const TensorDesc& t);

// The resize kernels' tensors: one input and one output, both [N,H,W,C] / [N,OH,OW,C] of
// `dtype` with index_math_fits(), the same N and C. kBadOp / kBadParams otherwise.
Status check_resize_images(const OpContext& ctx, DType dtype);

// A fused activation range: lo <= hi; NaN fails, infinities (no activation) pass.
inline bool valid_act_range(float lo, float hi) { return lo <= hi; }

// One spatial dimension of a sliding-window op (conv, depthwise conv, pool): kernel,
// stride, dilation >= 1, pads >= 0, the dilated kernel fits in the padded input, and out
// is window_output_size() (window_geometry.h), or also its ceil_mode form when
// allow_ceil. Also refuses geometries whose coordinates would not fit int32 (see
// taps_inside()).
bool valid_window(int64_t in, int64_t out, int64_t kernel, int64_t stride, int64_t dilation,
                  int64_t pad_begin, int64_t pad_end, bool allow_ceil);

// Kernel taps k in [begin, end) are those with 0 <= start + k * dilation < size, for a
// window starting at `start` (which may be negative: padding). Empty when begin == end.
struct TapRange {
  int32_t begin;
  int32_t end;
};
inline TapRange taps_inside(int32_t start, int32_t dilation, int32_t kernel, int32_t size) {
  TapRange r;
  r.begin = start >= 0 ? 0 : (-start + dilation - 1) / dilation;
  r.end = start >= size ? 0 : (size - start + dilation - 1) / dilation;
  if (r.end > kernel) r.end = kernel;
  if (r.end < r.begin) r.end = r.begin;
  return r;
}

inline float clamp_value(float v, float lo, float hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

// True when clamp_value(v, lo, hi) is v for every v (the range of no fused activation).
inline bool float_act_is_identity(float lo, float hi) {
  return lo == -__builtin_inff() && hi == __builtin_inff();
}

// Copies t's dims right-aligned into dims6 (leading entries 1), so that a rank-r tensor
// is walked as a kMaxRank-D one with its real innermost dim last.
void right_aligned_dims(const TensorDesc& t, int32_t dims6[kMaxRank]);

// N, H, W, C of an [N,H,W,C] tensor, or of an [N,H,C] one taken as [N,H,1,C] (TFLite's
// BATCH_TO_SPACE_ND and SPACE_TO_BATCH_ND take both).
inline void nhc_as_nhwc(const TensorDesc& t, uint32_t d[4]) {
  d[0] = t.dims[0];
  d[1] = t.dims[1];
  d[2] = t.rank == 4 ? t.dims[2] : 1;
  d[3] = t.dims[t.rank - 1];
}

// Drops dims of size 1 from dims/strides[0..n) and merges each dim into the one before it
// when the two are adjacent in memory (outer stride == inner stride * inner dim), so a
// row-major walk of the result visits the same offsets in the same order. Pads with 1s.
// Returns the dims left.
inline int32_t collapse_dims(int32_t* dims, int32_t* strides, int32_t n) {
  int32_t kept = 0;
  for (int32_t i = 0; i < n; ++i) {
    if (dims[i] == 1) continue;
    if (kept > 0 && strides[kept - 1] == strides[i] * dims[i]) {
      dims[kept - 1] *= dims[i];
      strides[kept - 1] = strides[i];
      continue;
    }
    dims[kept] = dims[i];
    strides[kept++] = strides[i];
  }
  for (int32_t i = kept; i < n; ++i) {
    dims[i] = 1;
    strides[i] = 0;
  }
  return kept;
}

// collapse_dims with the dims left right-aligned (1s and stride 0 in front), for walks
// that take their innermost dims from the end.
inline void collapse_dims_right(int32_t* dims, int32_t* strides, int32_t n) {
  const int32_t pad = n - collapse_dims(dims, strides, n);
  for (int32_t i = n - 1; i >= 0; --i) {
    dims[i] = i >= pad ? dims[i - pad] : 1;
    strides[i] = i >= pad ? strides[i - pad] : 0;
  }
}

// Advances a row-major multi-index idx[0..n) over dims[0..n) by one (wraps to zeros).
inline void advance_index(int32_t* idx, const int32_t* dims, int32_t n) {
  for (int32_t i = n - 1; i >= 0; --i) {
    if (++idx[i] < dims[i]) return;
    idx[i] = 0;
  }
}

}  // namespace mote
