// What every LSTM kernel (lstm_s8, lstm_f32, lstm_s16) shares: the tensor layout check
// and the row arithmetic of a sequence laid out batch major or time major. The layout is
// TFLite's UNIDIRECTIONAL_SEQUENCE_LSTM as TensorFlow Lite Micro takes it (lstm.h):
//   0 x [B, T, I] ([T, B, I] when time_major); 1..8 the eight gate weights ([H, I] and
//   [H, H]); 9..11 absent (no peephole); 12..15 the gate biases [H]; 16, 17 absent (no
//   projection); 18 h0 and 19 c0 with B * H elements each; 20..23 absent (no layer norm);
//   output 0 y [B, T, H] ([T, B, H]); outputs 1 and 2, the hidden and cell state after
//   the sequence, B * H elements each as h0 and c0 (written back into the variables).
#pragma once

#include <stdint.h>
#include <string.h>

#include "kernel_util.h"
#include "mote/kernel.h"

namespace mote {

constexpr uint32_t kLstmInputCount = 24;
constexpr uint32_t kLstmHiddenStateInput = 18;
constexpr uint32_t kLstmCellStateInput = 19;

struct LstmDims {
  int32_t batches, steps, inputs, units;
  bool time_major;
  // The row of (batch b, step t) in x and y, and the row one step earlier.
  int32_t row(int32_t b, int32_t t) const { return time_major ? t * batches + b : b * steps + t; }
  int32_t previous_row(int32_t row_index) const { return time_major ? row_index - batches : row_index - 1; }
};

// The element types of each tensor class: x, h0 and y (activation), the eight weights,
// the four biases, and c0 (cell).
struct LstmDtypes {
  DType activation, weight, bias, cell;
};

// kOk and *dims filled when ctx has the layout above with dtypes `types`; kBadParams for
// anything else. time_major must be 0 or 1.
inline Status lstm_check_layout(const OpContext& ctx, uint32_t time_major, const LstmDtypes& types,
                                LstmDims* dims) {
  if (ctx.input_count() != kLstmInputCount || ctx.output_count() != 3 || time_major > 1) {
    return Status::kBadParams;
  }
  for (uint32_t i = 0; i < kLstmInputCount; ++i) {
    const bool required = i <= 8 || (i >= 12 && i <= 15) || i == kLstmHiddenStateInput ||
                          i == kLstmCellStateInput;
    if (ctx.has_input(i) != required) return Status::kBadParams;
  }
  const TensorDesc& x = ctx.input_desc(0);
  const TensorDesc& y = ctx.output_desc(0);
  if (!has_dtype(x, types.activation) || !has_dtype(y, types.activation) || x.rank != 3 ||
      y.rank != 3 || !index_math_fits(x) || !index_math_fits(y)) {
    return Status::kBadParams;
  }
  const uint32_t inputs = x.dims[2];
  const uint32_t units = y.dims[2];
  if (y.dims[0] != x.dims[0] || y.dims[1] != x.dims[1] || inputs == 0 || units == 0) {
    return Status::kBadParams;
  }
  const uint32_t batches = time_major ? x.dims[1] : x.dims[0];
  for (uint32_t g = 0; g < 4; ++g) {
    const TensorDesc& wx = ctx.input_desc(1 + g);
    const TensorDesc& wh = ctx.input_desc(5 + g);
    const TensorDesc& bias = ctx.input_desc(12 + g);
    if (!has_dtype(wx, types.weight) || wx.rank != 2 || wx.dims[0] != units || wx.dims[1] != inputs ||
        !has_dtype(wh, types.weight) || wh.rank != 2 || wh.dims[0] != units || wh.dims[1] != units ||
        !has_dtype(bias, types.bias) || bias.rank != 1 || bias.dims[0] != units) {
      return Status::kBadParams;
    }
  }
  const TensorDesc& h0 = ctx.input_desc(kLstmHiddenStateInput);
  const TensorDesc& c0 = ctx.input_desc(kLstmCellStateInput);
  const uint64_t state = uint64_t{batches} * units;
  const TensorDesc& h_next = ctx.output_desc(1);
  const TensorDesc& c_next = ctx.output_desc(2);
  if (!has_dtype(h0, types.activation) || !has_dtype(c0, types.cell) || element_count(h0) != state ||
      element_count(c0) != state || !index_math_fits(h0) || !index_math_fits(c0) ||
      !has_dtype(h_next, types.activation) || !has_dtype(c_next, types.cell) || element_count(h_next) != state ||
      element_count(c_next) != state) {
    return Status::kBadParams;
  }
  dims->batches = static_cast<int32_t>(batches);
  dims->steps = static_cast<int32_t>(time_major ? x.dims[0] : x.dims[1]);
  dims->inputs = static_cast<int32_t>(inputs);
  dims->units = static_cast<int32_t>(units);
  dims->time_major = time_major != 0;
  return Status::kOk;
}

// The layout of a context lstm_check_layout accepted (time_major as checked).
inline LstmDims lstm_dims(const OpContext& ctx, uint32_t time_major) {
  const TensorDesc& x = ctx.input_desc(0);
  LstmDims d;
  d.batches = static_cast<int32_t>(time_major ? x.dims[1] : x.dims[0]);
  d.steps = static_cast<int32_t>(time_major ? x.dims[0] : x.dims[1]);
  d.inputs = static_cast<int32_t>(x.dims[2]);
  d.units = static_cast<int32_t>(ctx.output_desc(0).dims[2]);
  d.time_major = time_major != 0;
  return d;
}

// Batch row b's cell state, kept in output 2 while the sequence runs: c0's row to start.
template <typename T>
inline T* lstm_begin_cell(const OpContext& ctx, int32_t b, int32_t units) {
  T* cell = static_cast<T*>(ctx.output_data(2)) + b * units;
  memcpy(cell, static_cast<const T*>(ctx.input_data(kLstmCellStateInput)) + b * units, units * sizeof(T));
  return cell;
}

// Batch row b's hidden state after the sequence into output 1: y's row at the last step
// (h0's row for an empty sequence).
template <typename T>
inline void lstm_end_hidden(const OpContext& ctx, const LstmDims& d, int32_t b) {
  const T* last = d.steps > 0 ? static_cast<const T*>(ctx.output_data(0)) + d.row(b, d.steps - 1) * d.units
                              : static_cast<const T*>(ctx.input_data(kLstmHiddenStateInput)) + b * d.units;
  memcpy(static_cast<T*>(ctx.output_data(1)) + b * d.units, last, d.units * sizeof(T));
}

// The walk every int8/int16 LSTM variant shares: batch row by batch row, step by step,
// step(t, x_row, next_x_row, h_row, y_row, cell) computes y_row (the new hidden state)
// from the step's input row, the previous hidden state h_row (h0's row at the first step,
// then y's previous row) and the batch row's cell state, which it updates in place
// (output 2's row, c0's row to start); next_x_row is the input row of step t + 1 of the
// same batch row (nullptr at the last step). Output 1 gets each batch row's last hidden
// state.
template <typename Act, typename Step>
inline void lstm_walk(const OpContext& ctx, const LstmDims& d, Step&& step) {
  const Act* x = static_cast<const Act*>(ctx.input_data(0));
  const Act* h0 = static_cast<const Act*>(ctx.input_data(kLstmHiddenStateInput));
  Act* y = static_cast<Act*>(ctx.output_data(0));
  for (int32_t b = 0; b < d.batches; ++b) {
    int16_t* cell = lstm_begin_cell<int16_t>(ctx, b, d.units);
    for (int32_t t = 0; t < d.steps; ++t) {
      const int32_t row = d.row(b, t);
      const Act* h = t == 0 ? h0 + b * d.units : y + d.previous_row(row) * d.units;
      const Act* next_x = t + 1 < d.steps ? x + d.row(b, t + 1) * d.inputs : nullptr;
      step(t, x + row * d.inputs, next_x, h, y + row * d.units, cell);
    }
    lstm_end_hidden<Act>(ctx, d, b);
  }
}

// True when the scratch span holds `bytes` at `align`.
inline bool lstm_scratch_fits(const OpContext& ctx, uint64_t bytes, uintptr_t align) {
  const Span<uint8_t> scratch = ctx.scratch();
  return scratch.size() >= bytes && reinterpret_cast<uintptr_t>(scratch.data()) % align == 0;
}

}  // namespace mote
