// The shape checks svdf_f32 and svdf_s8 share (internal to kernels/svdf/).
#pragma once

#include <stdint.h>
#include <string.h>

#include "kernel_util.h"
#include "svdf/svdf.h"

namespace mote {

// The five inputs (bias optional) and two outputs have the shapes of svdf.h's contract
// for `rank`, and the new state (output 1) has the state's dtype, elements of
// `state_bytes`, aligned to them. The other dtypes are the caller's to check.
inline bool svdf_shapes_valid(const OpContext& ctx, int32_t rank, uint32_t state_bytes) {
  if (ctx.input_count() != 5 || ctx.output_count() != 2) return false;
  if (!ctx.has_input(0) || !ctx.has_input(1) || !ctx.has_input(2) || !ctx.has_input(4)) return false;
  const TensorDesc& x = ctx.input_desc(0);
  const TensorDesc& wf = ctx.input_desc(1);
  const TensorDesc& wt = ctx.input_desc(2);
  const TensorDesc& state = ctx.input_desc(4);
  const TensorDesc& y = ctx.output_desc(0);
  const TensorDesc& next = ctx.output_desc(1);
  if (x.rank != 2 || wf.rank != 2 || wt.rank != 2 || y.rank != 2) return false;
  const TensorDesc* const all[] = {&x, &wf, &wt, &state, &y, &next};
  for (const TensorDesc* t : all)
    if (!index_math_fits(*t)) return false;
  const uint32_t batches = x.dims[0], filters = wf.dims[0], memory = wt.dims[1];
  if (rank < 1 || filters % static_cast<uint32_t>(rank) != 0 || wf.dims[1] != x.dims[1] || wt.dims[0] != filters ||
      memory == 0 || x.dims[1] == 0 || filters == 0 || batches == 0) {
    return false;
  }
  const uint32_t units = filters / static_cast<uint32_t>(rank);
  if (y.dims[0] != batches || y.dims[1] != units || element_count(state) != batches * filters * memory) return false;
  if (ctx.has_input(3) && element_count(ctx.input_desc(3)) != units) return false;
  return next.dtype == state.dtype && element_count(next) == batches * filters * memory &&
         dtype_size(static_cast<DType>(next.dtype)) == state_bytes &&
         reinterpret_cast<uintptr_t>(ctx.output_data(1)) % state_bytes == 0;
}

// The sizes of a checked op, and its new state (output 1): the state (input 4) shifted
// left by one element as one buffer, as TFLite Micro shifts its variable tensor (the last
// element, each filter's newest column, is the caller's to write). shift false: the
// caller shifts it (the variants, as they read it).
struct SvdfRun {
  int32_t batches, inputs, filters, memory, rank, units;
  void* state;
};

inline SvdfRun svdf_begin(const OpContext& ctx, int32_t rank, uint32_t state_bytes, bool shift = true) {
  SvdfRun r;
  r.batches = static_cast<int32_t>(ctx.input_desc(0).dims[0]);
  r.inputs = static_cast<int32_t>(ctx.input_desc(0).dims[1]);
  r.filters = static_cast<int32_t>(ctx.input_desc(1).dims[0]);
  r.memory = static_cast<int32_t>(ctx.input_desc(2).dims[1]);
  r.rank = rank;
  r.units = r.filters / rank;
  r.state = ctx.output_data(1);
  if (!shift) return r;
  const uint32_t count = static_cast<uint32_t>(r.batches * r.filters * r.memory);
  memcpy(r.state, static_cast<const uint8_t*>(ctx.input_data(4)) + state_bytes, (count - 1) * state_bytes);
  return r;
}

}  // namespace mote
