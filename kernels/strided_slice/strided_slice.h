// Strided slice of any dtype (TFLite STRIDED_SLICE, ONNX Slice): element bytes only.
//   input 0 [d0 .. d(r-1)], output 0 with the same dtype and product(count) elements
//   (any shape: shrunk axes simply disappear from it).
// Along input axis i the slice visits count[i] indices begin[i], begin[i] + stride[i], ..
// (stride may be negative). Entries past the input's rank are ignored.
// The compiler resolves TFLite's begin/end/strides/masks into (begin, stride, count) with
// strided_slice_resolve() below. check(): every visited index lies inside its axis, stride
// != 0, count >= 0.
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

struct StridedSliceParams {
  int32_t begin[kMaxRank];
  int32_t stride[kMaxRank];
  int32_t count[kMaxRank];
};

// Host helper (pure integer code): TFLite's reference StridedSlice index logic
// (strided_slice_logic.h, StridedSliceStartForAxis / StridedSliceEndForAxis, which TFLM's
// kernel evaluates) for an input of `rank` dims and begin/end/strides of `rank` entries;
// offset is StridedSliceOptions.offset (end is relative to begin). Ellipsis and new-axis
// masks are not supported by TFLM and must be 0. Fills params for all rank axes; false if
// a stride is 0 or rank > kMaxRank.
bool strided_slice_resolve(uint32_t rank, const int32_t* dims, const int32_t* begin,
                           const int32_t* end, const int32_t* strides, uint32_t begin_mask,
                           uint32_t end_mask, uint32_t shrink_axis_mask, bool offset,
                           StridedSliceParams* params);

Status strided_slice_check(const OpContext& ctx);
void strided_slice_run(const OpContext& ctx);
extern const KernelEntry kStridedSliceEntry;

}  // namespace mote
