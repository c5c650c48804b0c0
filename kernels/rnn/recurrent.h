// What every GRU and RNN kernel (kernels/gru/, kernels/rnn/; float and integer) shares:
// the tensors' check (x [T, B, I] or [B, T, I], w [G*H, I], r [G*H, H], bias [2*G*H], h0
// and the final hidden state B * H elements; y x's layout with H) and the final-state
// copy. The rows of x and y are numbered as the LSTM's (LstmDims, lstm_dims(): the same
// layouts).
#pragma once

#include <stdint.h>
#include <string.h>

#include "kernel_util.h"
#include "lstm/lstm_common.h"
#include "mote/kernel.h"

namespace mote {

// The element types of x, h0, y and the final hidden state (activation), w and r
// (weight), and the bias.
struct RecurrentDtypes {
  DType activation, weight, bias;
};

// Checks the inputs (x, w, r, bias, h0) and outputs (y, h) for G = `gates`.
inline Status recurrent_check_layout(const OpContext& ctx, uint32_t gates, uint32_t time_major,
                                     const RecurrentDtypes& types) {
  if (ctx.input_count() != 5 || ctx.output_count() != 2 || time_major > 1) return Status::kBadParams;
  for (uint32_t i = 0; i < 5; ++i)
    if (!ctx.has_input(i)) return Status::kBadParams;
  const TensorDesc& x = ctx.input_desc(0);
  const TensorDesc& w = ctx.input_desc(1);
  const TensorDesc& r = ctx.input_desc(2);
  const TensorDesc& bias = ctx.input_desc(3);
  const TensorDesc& h0 = ctx.input_desc(4);
  const TensorDesc& y = ctx.output_desc(0);
  const TensorDesc& h = ctx.output_desc(1);
  const TensorDesc* const activations[] = {&x, &h0, &y, &h};
  for (const TensorDesc* t : activations)
    if (!has_dtype(*t, types.activation) || !index_math_fits(*t)) return Status::kBadParams;
  if (!has_dtype(w, types.weight) || !has_dtype(r, types.weight) || !has_dtype(bias, types.bias) ||
      !index_math_fits(w) || !index_math_fits(r) || !index_math_fits(bias)) {
    return Status::kBadParams;
  }
  if (x.rank != 3 || y.rank != 3 || w.rank != 2 || r.rank != 2 || bias.rank != 1) return Status::kBadParams;
  const uint32_t units = y.dims[2], inputs = x.dims[2];
  if (units == 0 || inputs == 0 || y.dims[0] != x.dims[0] || y.dims[1] != x.dims[1]) return Status::kBadParams;
  const uint64_t rows = uint64_t{gates} * units;
  if (w.dims[0] != rows || w.dims[1] != inputs || r.dims[0] != rows || r.dims[1] != units || bias.dims[0] != 2 * rows) {
    return Status::kBadParams;
  }
  const uint64_t state = uint64_t{time_major ? x.dims[1] : x.dims[0]} * units;
  if (element_count(h0) != state || element_count(h) != state) return Status::kBadParams;
  return Status::kOk;
}

// Output 1's row b: y's row of the last step (h0's row when there are no steps).
template <typename T>
inline void recurrent_last_hidden(const OpContext& ctx, const LstmDims& d, int32_t b) {
  const T* y = static_cast<const T*>(ctx.output_data(0));
  const T* h0 = static_cast<const T*>(ctx.input_data(4));
  const T* last = d.steps > 0 ? y + d.row(b, d.steps - 1) * d.units : h0 + b * d.units;
  memcpy(static_cast<T*>(ctx.output_data(1)) + b * d.units, last, d.units * sizeof(T));
}

// The sequence walk of every kernel: step(x_row, h, out) for every batch row b and step t
// in order, h the previous hidden state (h0's row b at t = 0, else y's previous row) and
// out y's row; then output 1's row b.
template <typename T, typename Step>
inline void recurrent_walk(const OpContext& ctx, const LstmDims& d, Step step) {
  const T* x = static_cast<const T*>(ctx.input_data(0));
  const T* h0 = static_cast<const T*>(ctx.input_data(4));
  T* y = static_cast<T*>(ctx.output_data(0));
  for (int32_t b = 0; b < d.batches; ++b) {
    for (int32_t t = 0; t < d.steps; ++t) {
      const int32_t row = d.row(b, t);
      const T* h = t == 0 ? h0 + b * d.units : y + d.previous_row(row) * d.units;
      step(x + row * d.inputs, h, y + row * d.units);
    }
    recurrent_last_hidden<T>(ctx, d, b);
  }
}

}  // namespace mote
