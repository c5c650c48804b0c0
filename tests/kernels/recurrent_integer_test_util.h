// What the integer GRU and RNN kernel tests (gru_s8_test.cc, rnn_s8_test.cc) share: the
// op's tensors (x, w, r, bias, h0 -> y, h) for int8 activations and int32 biases or, for
// 16x8, int16 activations and int64 biases; their data held as int64 values.
#pragma once

#include <math.h>

#include <cmath>
#include <vector>

#include "kernel_test_util.h"

namespace mote::testing {

struct RecurrentData {
  std::vector<int64_t> x, w, r, bias, h0;
};

struct RecurrentOp {
  TestOp op;
  uint32_t x = 0, w = 0, r = 0, bias = 0, h0 = 0, y = 0, h = 0;
};

inline std::vector<int64_t> widened(const std::vector<int32_t>& v) { return {v.begin(), v.end()}; }

template <typename T>
std::vector<T> narrowed(const std::vector<int64_t>& v) {
  return std::vector<T>(v.begin(), v.end());
}

// The tensors of `gates` gates of H units over x [T, B, I] (time major) or [B, T, I].
inline void build_recurrent(RecurrentOp* o, uint32_t gates, uint32_t b, uint32_t t, uint32_t i, uint32_t h,
                            bool time_major, bool int16) {
  const DType act = int16 ? DType::kInt16 : DType::kInt8;
  const std::vector<uint32_t> seq = time_major ? std::vector<uint32_t>{t, b} : std::vector<uint32_t>{b, t};
  o->x = o->op.add_input(act, {seq[0], seq[1], i});
  o->w = o->op.add_input(DType::kInt8, {gates * h, i});
  o->r = o->op.add_input(DType::kInt8, {gates * h, h});
  o->bias = o->op.add_input(int16 ? DType::kInt64 : DType::kInt32, {2 * gates * h});
  o->h0 = o->op.add_input(act, {b, h});
  o->y = o->op.add_output(act, {seq[0], seq[1], h});
  o->h = o->op.add_output(act, {b, h});
}

inline void set_recurrent_data(RecurrentOp* o, const RecurrentData& d, bool int16) {
  o->op.set_data(o->w, narrowed<int8_t>(d.w));
  o->op.set_data(o->r, narrowed<int8_t>(d.r));
  if (int16) {
    o->op.set_data(o->x, narrowed<int16_t>(d.x));
    o->op.set_data(o->h0, narrowed<int16_t>(d.h0));
    o->op.set_data(o->bias, d.bias);
  } else {
    o->op.set_data(o->x, narrowed<int8_t>(d.x));
    o->op.set_data(o->h0, narrowed<int8_t>(d.h0));
    o->op.set_data(o->bias, narrowed<int32_t>(d.bias));
  }
}

// Output t's values as int64.
inline std::vector<int64_t> recurrent_output(RecurrentOp* o, uint32_t t, bool int16) {
  if (int16) {
    const std::vector<int16_t> v = o->op.data<int16_t>(t);
    return {v.begin(), v.end()};
  }
  const std::vector<int8_t> v = o->op.data<int8_t>(t);
  return {v.begin(), v.end()};
}

// The largest |y - real| with real clamped to the activation's range (a NaN counts as
// infinitely far).
inline double worst_error(const std::vector<int64_t>& y, const std::vector<double>& real, bool int16) {
  const double lo = int16 ? -32768 : -128, hi = int16 ? 32767 : 127;
  double worst = 0;
  for (size_t k = 0; k < y.size() && k < real.size(); ++k) {
    if (std::isnan(real[k])) return INFINITY;
    worst = fmax(worst, fabs(double(y[k]) - fmin(fmax(real[k], lo), hi)));
  }
  return y.size() == real.size() ? worst : INFINITY;
}

}  // namespace mote::testing
