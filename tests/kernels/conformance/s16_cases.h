// Draws shared by the conformance suites of the 16x8 variants (conv2d_s16__dsp,
// depthwise_conv2d_s16__dsp, fully_connected_s16__dsp, conv2d_s16__mve,
// depthwise_conv2d_s16__mve): activation ranges, int16 inputs, extreme filters, biases of
// either accumulator and int64 biases around the Helium variants' int32 bound.
#pragma once

#include <stdint.h>

#include "conformance.h"

namespace mote::conformance {

// [act_min, act_max]: mostly int16's whole range when `common`, else any; one case in
// four ReLU's [0, 32767] (the variants pick a clamp form per range).
inline void draw_act_range16(Rng& rng, bool common, int32_t* act_min, int32_t* act_max) {
  *act_min = common || rng.coin() ? -32768 : rng.uniform(-32768, 32767);
  *act_max = common || rng.coin() ? 32767 : rng.uniform(*act_min, 32767);
  if (rng.uniform(0, 3) == 0) {
    *act_min = 0;
    *act_max = 32767;
  }
}

// int16 inputs and int8 weights: one case in four full scale (INT16_MIN half the time,
// and half of those with every weight -128: the largest products, 2^22), else moderate
// inputs and random weights.
inline void fill_s16_operands(Rng& rng, int16_t* input, int32_t input_count, int8_t* weights,
                              int32_t weight_count) {
  const bool full_scale = rng.uniform(0, 3) == 0;
  for (int32_t i = 0; i < input_count; ++i) {
    input[i] = static_cast<int16_t>(full_scale ? (rng.coin() ? -32768 : rng.uniform(-32768, 32767))
                                               : rng.uniform(-3000, 3000));
  }
  fill_s8(rng, weights, static_cast<size_t>(weight_count));
  if (full_scale && rng.coin()) {
    for (int32_t i = 0; i < weight_count; ++i) weights[i] = -128;
  }
}

// count biases of the accumulator's dtype (int64 for 64, int32 for 32) into bias: one
// case in six near int32's bound, one in six anywhere (int64: shifted right by 0-40),
// else moderate.
inline void fill_bias16(Rng& rng, int32_t accumulator, void* bias, int32_t count) {
  const int32_t kind = rng.uniform(0, 5);
  for (int32_t o = 0; o < count; ++o) {
    if (accumulator == 32) {
      static_cast<int32_t*>(bias)[o] = kind <= 1 ? rng.uniform(INT32_MIN, INT32_MAX) : rng.uniform(-400000, 400000);
      continue;
    }
    int64_t v = rng.uniform(-400000, 400000);
    if (kind == 0) v = (rng.coin() ? 1 : -1) * (int64_t{INT32_MAX} - rng.uniform(0, 1 << 26));
    if (kind == 1) v = static_cast<int64_t>((uint64_t{rng.next()} << 32) | rng.next()) >> rng.uniform(0, 40);
    static_cast<int64_t*>(bias)[o] = v;
  }
}

// A multiplier and shift: the common ones (multiplier in [2^30, 2^31), shift in [-17, -1]:
// the one-SMMULR requantization) unless `wild`: any multiplier (INT32_MIN and INT32_MAX
// often) and any shift up to max_shift (14 for the int64 accumulator, 30 for int32).
inline void draw_requant16(Rng& rng, bool wild, int32_t max_shift, int32_t* multiplier, int32_t* shift) {
  *multiplier = wild ? rng.uniform(INT32_MIN, INT32_MAX) : rng.uniform(1 << 30, INT32_MAX);
  if (wild && rng.coin()) *multiplier = rng.coin() ? INT32_MIN : INT32_MAX;
  *shift = wild ? rng.uniform(-31, max_shift) : rng.uniform(-17, -1);
}

// An int64 bias of kind 0: moderate; 1: within 2 of +-(2^30 - 1), the largest the Helium
// variants sum in int32; 2: just past it; else any int64.
inline int64_t draw_bias64_near_bound(Rng& rng, int32_t kind) {
  const int64_t bound = (int64_t{1} << 30) - 1;
  switch (kind) {
    case 0: return rng.uniform(-70000, 70000);
    case 1: return rng.coin() ? bound - rng.uniform(0, 2) : -bound + rng.uniform(0, 2);
    case 2: return rng.coin() ? bound + 1 : -bound - 1;
    default: {
      const uint64_t hi = rng.next();
      const uint64_t lo = rng.next();
      return static_cast<int64_t>((hi << 32) | lo);
    }
  }
}

// The operands of one 16x8 case in the conformance arena, inputs and weights drawn by
// fill_s16_operands and biases (bias_count of the accumulator's dtype, none when 0) by
// fill_bias16; multipliers and shifts (channels each) and both outputs left to the suite.
struct S16Case {
  int16_t* input;
  int8_t* weights;
  void* bias;  // nullptr when bias_count is 0
  int32_t* multipliers;
  int32_t* shifts;
  int16_t* expected;
  int16_t* actual;
};

// False (a suite then skips the case) when the arena cannot hold them.
inline bool draw_s16_case(Rng& rng, int32_t input_count, int32_t weight_count, int32_t accumulator,
                          int32_t bias_count, int32_t channels, int32_t output_count, S16Case* c) {
  Arena& a = arena();
  c->input = a.alloc_array<int16_t>(input_count);
  c->weights = a.alloc_array<int8_t>(weight_count);
  c->bias = nullptr;
  if (bias_count > 0) c->bias = a.alloc(static_cast<size_t>(bias_count) * (accumulator == 64 ? 8u : 4u), 8);
  c->multipliers = a.alloc_array<int32_t>(channels);
  c->shifts = a.alloc_array<int32_t>(channels);
  c->expected = a.alloc_array<int16_t>(output_count);
  c->actual = a.alloc_array<int16_t>(output_count);
  if (c->input == nullptr || c->weights == nullptr || (bias_count > 0 && c->bias == nullptr) ||
      c->multipliers == nullptr || c->shifts == nullptr || c->expected == nullptr || c->actual == nullptr) {
    return false;
  }
  fill_s16_operands(rng, c->input, input_count, c->weights, weight_count);
  if (bias_count > 0) fill_bias16(rng, accumulator, c->bias, bias_count);
  return true;
}

// Makes an int64-bias case's window sums as large as its weights allow: every input
// -32768 and every weight in [-128, 0] (mostly -128), so a window wholly inside the image
// sums to 2^15 * sum|w| of its channel; then sets each channel's bias to
// 2^31 - 1 - 2^15 * sum|w| + delta (delta in [-1, 1]): the largest sum plus bias that fits
// int32 (delta <= 0) or one past it (delta 1), where the ARMv6-M variants' int32 fast
// path must give way to the exact one. Channel o's taps are weights[o * channel_stride +
// k * tap_stride] for k in [0, taps).
inline void make_extreme_sums16(Rng& rng, const S16Case& c, int32_t input_count, int32_t channels, int32_t taps,
                                int32_t channel_stride, int32_t tap_stride) {
  for (int32_t i = 0; i < input_count; ++i) c.input[i] = -32768;
  int64_t* bias = static_cast<int64_t*>(c.bias);
  const int32_t delta = rng.uniform(-1, 1);
  for (int32_t o = 0; o < channels; ++o) {
    int64_t abs_sum = 0;
    for (int32_t k = 0; k < taps; ++k) {
      int8_t& w = c.weights[o * channel_stride + k * tap_stride];
      w = static_cast<int8_t>(rng.uniform(0, 3) != 0 ? -128 : rng.uniform(-128, 0));
      abs_sum -= w;
    }
    if (bias != nullptr) bias[o] = (int64_t{1} << 31) - 1 - abs_sum * 32768 + delta;
  }
}

}  // namespace mote::conformance
