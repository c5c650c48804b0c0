// What the int16 MEAN variants (mean_s16__dsp, mean_s16__mve, mean_s16__v6m) share
// (internal to kernels/mean): the shapes they take, their check, and the run that hands
// the reduction to the variant's loops.
//
// They take the axis sets whose kept elements form one evenly strided run and whose
// reduced elements (per output) form another (mean_integer::Shape with kept_rank <= 1
// and reduced_rank == 1), in one of two layouts:
//   spatial      consecutive outputs are consecutive input elements (kept step 1), each
//                reducing `count` elements `step` apart: the mean over H, W of NHWC
//                (global average pooling), the channels of a pixel side by side;
//   contiguous   each output reduces `count` consecutive elements (step 1), outputs
//                kept_step apart: the mean over the innermost axes.
// At least one element is reduced and one output written. Other axis sets keep the
// reference (check refuses them; mean_s16_single_runs tells the compiler the same).
#pragma once

#include <stdint.h>

#include "kernel_util.h"
#include "mean/mean.h"
#include "mean/mean_integer.h"
#include "quant/quant_math.h"

namespace mote {
namespace mean_s16_runs {

struct Runs {
  int32_t out_count;
  int32_t kept_step;     // between consecutive outputs' first elements
  int32_t reduce_count;  // elements per output (>= 1)
  int32_t step;          // between an output's elements
  bool contiguous;       // step == 1 (else kept_step == 1)
};

inline bool make_runs(const TensorDesc& in, uint32_t axes_mask, Runs* r) {
  mean_integer::Shape s;
  mean_integer::make_shape(in, axes_mask, &s);
  if (s.out_count <= 0 || s.reduce_count <= 0 || s.kept_rank > 1 || s.reduced_rank != 1) return false;
  r->out_count = s.out_count;
  r->kept_step = s.kept_strides[0];
  r->reduce_count = s.reduce_count;
  r->step = s.reduced_strides[0];
  r->contiguous = r->step == 1;
  return r->contiguous || (s.kept_rank == 1 && r->kept_step == 1);
}

// mean_s16's check, plus the shapes above.
inline Status check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(mean_s16_check(ctx));
  Runs r;
  if (!make_runs(ctx.input_desc(0), ctx.params<MeanS16Params>().axes_mask, &r)) return Status::kBadParams;
  return Status::kOk;
}

// The reference's output for the wrapping int32 sum of an output's `count` inputs.
struct ReferenceFinish {
  int32_t zero_point_sum;  // input_zero_point * count, truncated like TFLite's int32 cast
  int32_t multiplier, shift, output_zero_point;
};

inline ReferenceFinish reference_finish(const MeanS16Params& p, int32_t count) {
  ReferenceFinish f;
  f.zero_point_sum = truncate_to_i32(int64_t{p.input_zero_point} * count);
  f.multiplier = p.multiplier;
  f.shift = p.shift;
  f.output_zero_point = p.output_zero_point;
  return f;
}

inline int16_t finish(const ReferenceFinish& f, uint32_t sum) {
  const int32_t x = wrapping_sub(static_cast<int32_t>(sum), f.zero_point_sum);
  const int32_t out = wrapping_add(multiply_by_quantized_multiplier(x, f.multiplier, f.shift), f.output_zero_point);
  return static_cast<int16_t>(clamp_i32(out, -32768, 32767));
}

// Whether sum - input_zero_point * count lies in [-2^30, 2^30 - 1] for every int16 input
// (so that it is exact in int32 and may be doubled).
inline bool offset_sum_fits_30(const MeanS16Params& p, int32_t count) {
  const int64_t lo = (int64_t{-32768} - p.input_zero_point) * count;
  const int64_t hi = (int64_t{32767} - p.input_zero_point) * count;
  return lo >= -(int64_t{1} << 30) && hi < (int64_t{1} << 30);
}

// Runs Loops::spatial(p, r, in, out) or Loops::contiguous(p, r, in, out) over the op.
template <typename Loops>
void run(const OpContext& ctx) {
  const MeanS16Params& p = ctx.params<MeanS16Params>();
  Runs r;
  (void)make_runs(ctx.input_desc(0), p.axes_mask, &r);  // check() accepted it
  const int16_t* in = static_cast<const int16_t*>(ctx.input_data(0));
  int16_t* out = static_cast<int16_t*>(ctx.output_data(0));
  if (r.contiguous) {
    Loops::contiguous(p, r, in, out);
  } else {
    Loops::spatial(p, r, in, out);
  }
}

}  // namespace mean_s16_runs
}  // namespace mote
