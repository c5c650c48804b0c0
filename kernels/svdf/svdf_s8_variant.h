// The loop nest the int8 SVDF variants (__dsp, __mve) share around their dot products
// (internal to kernels/svdf/): svdf_s8.cc's algorithm, with the requantizations of
// quant/quant_math_dsp.h (bit-exact with multiply_by_quantized_multiplier; the reference
// function where a multiplier is INT32_MIN) and the dot products supplied by `Dots`:
//
//   Dots::features4(w, inputs, x, input_zero_point, acc)  acc[0..3] = sum_i w_j[i] * (x[i] - zp)
//       for the four rows w_j = w + j * inputs, wrapping int32
//   Dots::features1(w, inputs, x, input_zero_point)     the same for one row
//   Dots::time(w, old, next, n, state_zero_point)        next[m] = old[m] and the sum
//       sum_m w[m] * (old[m] - zp), wrapping, m < n (T = int16_t or int8_t, any alignment)
//
// The state's shift is done by the time products: filter f's new row is its old row from
// element 1 on (n = memory - 1 elements, the last one the next row's first, as the whole
// buffer moves) and its newest column, written first by the feature pass; time() copies
// the n elements as it multiplies them, and the newest column's product is added here.
//
// Each variant is bit-identical with svdf_s8 on every op svdf_s8_check accepts, which is
// also its check: the products wrap mod 2^32 exactly as the reference's sums do.
#pragma once

#include <stdint.h>

#include "kernel_util.h"
#include "quant/quant_check.h"
#include "quant/quant_math.h"
#include "quant/quant_math_dsp.h"
#include "svdf/svdf.h"
#include "svdf/svdf_check.h"

namespace mote::svdf_variant {

template <typename T, typename Dots>
void run(const OpContext& ctx) {
  const SvdfS8Params& p = ctx.params<SvdfS8Params>();
  const SvdfRun r = svdf_begin(ctx, p.rank, sizeof(T), false);
  const int32_t inputs = r.inputs, filters = r.filters, memory = r.memory, rank = r.rank;
  const int8_t* x = static_cast<const int8_t*>(ctx.input_data(0));
  const int8_t* wf = static_cast<const int8_t*>(ctx.input_data(1));
  const T* wt = static_cast<const T*>(ctx.input_data(2));
  const int32_t* bias = ctx.has_input(3) ? static_cast<const int32_t*>(ctx.input_data(3)) : nullptr;
  int8_t* y = static_cast<int8_t*>(ctx.output_data(0));
  T* state = static_cast<T*>(r.state);
  const T* old_state = static_cast<const T*>(ctx.input_data(4));
  const Requantizer feature(p.feature_multiplier, p.feature_shift);
  const Requantizer output(p.output_multiplier, p.output_shift);
  const int32_t input_zp = p.input_zero_point, state_zp = p.state_zero_point;
  // The newest column of filter f: state_zp + clamp_T(requantized dot).
  auto newest = [&](T* s, int32_t f, int32_t dot) {
    s[f * memory + memory - 1] =
        static_cast<T>(state_zp + clamp_i32(feature(dot), IntRange<T>::kMin, IntRange<T>::kMax));
  };
  for (int32_t b = 0; b < r.batches; ++b) {
    T* s = state + b * filters * memory;
    const T* old = old_state + b * filters * memory + 1;
    const int8_t* xb = x + b * inputs;
    int32_t f = 0;
    for (; f + 4 <= filters; f += 4) {
      int32_t acc[4];
      Dots::features4(wf + f * inputs, inputs, xb, input_zp, acc);
      for (int32_t j = 0; j < 4; ++j) newest(s, f + j, acc[j]);
    }
    for (; f < filters; ++f) newest(s, f, Dots::features1(wf + f * inputs, inputs, xb, input_zp));
    const T* w = wt;
    T* sf = s;
    for (int32_t u = 0; u < r.units; ++u) {
      uint32_t acc = bias ? static_cast<uint32_t>(bias[u]) : 0u;
      for (int32_t k = 0; k < rank; ++k) {
        acc += static_cast<uint32_t>(Dots::time(w, old, sf, memory - 1, state_zp));
        acc += static_cast<uint32_t>(wrapping_mul(w[memory - 1], sf[memory - 1] - state_zp));
        w += memory;
        sf += memory;
        old += memory;
      }
      *y++ = static_cast<int8_t>(
          clamp_i32(wrapping_add(output(static_cast<int32_t>(acc)), p.output_zero_point), -128, 127));
    }
  }
}

// A variant's run: run<T, Dots> for weights_time's type (int16 or int8).
template <typename Dots>
void run_any(const OpContext& ctx) {
  if (is_s16(ctx.input_desc(2))) {
    run<int16_t, Dots>(ctx);
  } else {
    run<int8_t, Dots>(ctx);
  }
}

}  // namespace mote::svdf_variant
