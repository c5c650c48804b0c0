// Internal to kernels/mean and kernels/reduce: the integer MEAN shared by mean_s8 and
// mean_s16 (and the integer SUM, kernels/reduce, with its own multiplier), which differ
// only in the element type (TFLite's QuantizedMeanOrSum<T, int32_t> for T = int8, int16).
//
// Gather order, no scratch memory: the input's dims are split into kept and reduced
// ones; for each output element (kept multi-index, in output order) the reduced
// multi-index is walked and summed. Wrapping int32 addition is associative, so the sum
// equals TFLite's (which scatters into an int32 scratch buffer) bit for bit.
#pragma once

#include <stdint.h>

#include "kernel_util.h"
#include "mote/kernel.h"
#include "quant/quant_check.h"
#include "quant/quant_math.h"

namespace mote {
namespace mean_integer {

struct Shape {
  int32_t kept_dims[kMaxRank];       // kept axes in order, then 1s
  int32_t kept_strides[kMaxRank];    // their input strides
  int32_t reduced_dims[kMaxRank];    // reduced axes in order, then 1s
  int32_t reduced_strides[kMaxRank];
  int32_t kept_rank;                 // entries of kept_dims in use (0 when nothing is)
  int32_t reduced_rank;              // entries of reduced_dims in use (0 when nothing is)
  int32_t out_count;
  int32_t reduce_count;
};

inline void make_shape(const TensorDesc& in, uint32_t axes_mask, Shape* s) {
  int32_t strides[kMaxRank];
  int32_t stride = 1;
  for (int32_t i = static_cast<int32_t>(in.rank) - 1; i >= 0; --i) {
    strides[i] = stride;
    stride *= static_cast<int32_t>(in.dims[i]);
  }
  for (uint32_t i = 0; i < kMaxRank; ++i) {
    s->kept_dims[i] = s->reduced_dims[i] = 1;
    s->kept_strides[i] = s->reduced_strides[i] = 0;
  }
  uint32_t kept = 0;
  uint32_t reduced = 0;
  s->out_count = 1;
  s->reduce_count = 1;
  for (uint32_t i = 0; i < in.rank; ++i) {
    const int32_t dim = static_cast<int32_t>(in.dims[i]);
    if ((axes_mask >> i & 1u) != 0) {
      s->reduced_dims[reduced] = dim;
      s->reduced_strides[reduced++] = strides[i];
      s->reduce_count *= dim;
    } else {
      s->kept_dims[kept] = dim;
      s->kept_strides[kept++] = strides[i];
      s->out_count *= dim;
    }
  }
  // An empty tensor has no walk to shorten (and zero dims would break the merge rule).
  if (s->reduce_count != 0 && s->out_count != 0) {
    s->kept_rank = collapse_dims(s->kept_dims, s->kept_strides, static_cast<int32_t>(kept));
    s->reduced_rank =
        collapse_dims(s->reduced_dims, s->reduced_strides, static_cast<int32_t>(reduced));
  } else {
    s->kept_rank = static_cast<int32_t>(kept);
    s->reduced_rank = static_cast<int32_t>(reduced);
  }
}

// Calls f(x) for the reduced elements of the output element whose first input element
// is at `at`, in increasing input order (so float folds keep TFLite's order). The common
// cases (nothing reduced, or one run of evenly strided elements such as the H*W pixels
// of a channel) walk one pointer; the rest walk the multi-index.
template <typename T, typename F>
inline void walk_reduced(const Shape& s, const T* at, F&& f) {
  if (s.reduced_rank <= 1) {
    const int32_t step = s.reduced_strides[0];
    for (int32_t r = 0; r < s.reduce_count; ++r, at += step) f(*at);
    return;
  }
  int32_t reduced_idx[kMaxRank] = {};
  for (int32_t r = 0; r < s.reduce_count; ++r) {
    int32_t offset = 0;
    for (uint32_t i = 0; i < kMaxRank; ++i) offset += reduced_idx[i] * s.reduced_strides[i];
    f(at[offset]);
    advance_index(reduced_idx, s.reduced_dims, kMaxRank);
  }
}

// Offset of the first input element of the output element at kept multi-index idx.
inline int32_t kept_offset(const Shape& s, const int32_t* idx) {
  int32_t base = 0;
  for (uint32_t i = 0; i < kMaxRank; ++i) base += idx[i] * s.kept_strides[i];
  return base;
}

// P has axes_mask, input_zero_point, output_zero_point, multiplier, shift.
template <typename T, typename P>
void reduce(const P& p, const Shape& s, const T* input, T* output) {
  if (s.reduce_count == 0) {
    for (int32_t o = 0; o < s.out_count; ++o) output[o] = 0;
    return;
  }
  // input_zero_point * n in int64, narrowed like TFLite's int32 cast.
  const int64_t zero_point_sum = int64_t{p.input_zero_point} * s.reduce_count;
  const auto finish = [&](uint32_t sum) {
    const int32_t shifted =
        truncate_to_i32(static_cast<int64_t>(static_cast<int32_t>(sum)) - zero_point_sum);
    const int32_t out = wrapping_add(multiply_by_quantized_multiplier(shifted, p.multiplier, p.shift),
                                     p.output_zero_point);
    return static_cast<T>(clamp_i32(out, IntRange<T>::kMin, IntRange<T>::kMax));
  };
  if (s.kept_rank <= 1 && s.reduced_rank <= 1) {
    // One run of outputs and one run of reduced elements each (the pixels of each channel
    // of an NHWC image, or the channels of each pixel): two pointers, the sum two at a time.
    const int32_t kept_step = s.kept_strides[0];
    const int32_t step = s.reduced_strides[0];
    const T* at = input;
    for (int32_t o = 0; o < s.out_count; ++o, at += kept_step) {
      uint32_t sum0 = 0, sum1 = 0;
      const T* x = at;
      int32_t r = s.reduce_count;
      for (; r >= 2; r -= 2, x += 2 * step) {
        sum0 += static_cast<uint32_t>(static_cast<int32_t>(x[0]));
        sum1 += static_cast<uint32_t>(static_cast<int32_t>(x[step]));
      }
      if (r != 0) sum0 += static_cast<uint32_t>(static_cast<int32_t>(x[0]));
      output[o] = finish(sum0 + sum1);
    }
    return;
  }
  int32_t kept_idx[kMaxRank] = {};
  for (int32_t o = 0; o < s.out_count; ++o) {
    uint32_t sum = 0;
    walk_reduced(s, input + kept_offset(s, kept_idx),
                 [&sum](T x) { sum += static_cast<uint32_t>(static_cast<int32_t>(x)); });
    output[o] = finish(sum);
    advance_index(kept_idx, s.kept_dims, kMaxRank);
  }
}

template <typename T, typename P>
Status check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 1, 1, 1));
  if (ctx.params_bytes() != sizeof(P)) return Status::kBadParams;
  const P& p = ctx.params<P>();
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  if (!has_dtype(in, IntRange<T>::kDType) || !has_dtype(out, IntRange<T>::kDType)) {
    return Status::kBadParams;
  }
  if (!index_math_fits(in) || !index_math_fits(out)) return Status::kBadParams;
  if ((p.axes_mask >> in.rank) != 0) return Status::kBadParams;
  int64_t kept = 1;
  for (uint32_t i = 0; i < in.rank; ++i) {
    if ((p.axes_mask >> i & 1u) == 0) kept *= in.dims[i];
  }
  if (kept != static_cast<int64_t>(element_count(out))) return Status::kBadParams;
  if (!valid_zero_point<T>(p.input_zero_point) || !valid_zero_point<T>(p.output_zero_point) ||
      !valid_shift(p.shift)) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

template <typename T, typename P>
void run(const OpContext& ctx) {
  const P& p = ctx.params<P>();
  Shape shape;
  make_shape(ctx.input_desc(0), p.axes_mask, &shape);
  reduce<T, P>(p, shape, static_cast<const T*>(ctx.input_data(0)), static_cast<T*>(ctx.output_data(0)));
}

}  // namespace mean_integer
}  // namespace mote
