// Conformance of conv2d_s16__mve (groups 1, any window, both accumulators) against
// conv2d_s16: pointwise layers without padding (the variant reads the input in place)
// and windows up to 4x4 with strides, dilation and asymmetric padding; rows of K <= 8
// (two pixels in registers) more often; channel tails 1..17; batch 2; absent bias;
// int64 biases near the fast path's bound (|bias| < 2^30) and far past it, positive
// shifts and K > 256 (the int64 path); extreme multipliers (INT32_MIN, INT32_MAX,
// negative); inputs at the int16 extremes with weights at -128 (the largest sums).
#include "conformance.h"
#include "conv2d/conv2d.h"
#include "s16_cases.h"
#include "window_cases.h"

namespace mote::conformance {

namespace {

int32_t random_multiplier(Rng& rng, bool extreme) {
  if (!extreme) return rng.uniform(1 << 30, INT32_MAX);
  switch (rng.uniform(0, 4)) {
    case 0: return INT32_MIN;
    case 1: return INT32_MAX;
    case 2: return -rng.uniform(1, INT32_MAX);
    case 3: return rng.uniform(0, 5);
    default: return rng.uniform(0x7FFF0000, INT32_MAX);
  }
}

}  // namespace

int run_conv2d_s16__mve(Rng& rng, int cases) {
  const char* name = "conv2d_s16__mve";
  int failed = 0;
  for (int c = 0; c < cases; ++c) {
    Arena& a = arena();
    a.reset();
    const bool pointwise = rng.uniform(0, 2) == 0;
    Conv2dShape s;
    Conv2dS16Params p;
    s.batch = rng.uniform(0, 3) == 0 ? 2 : 1;
    const int32_t channel_kind = rng.uniform(0, 5);
    s.in_c = channel_kind == 0 ? 8 : (channel_kind == 1 ? rng.uniform(1, 8)
                                                        : (channel_kind == 2 ? rng.uniform(250, 300)
                                                                             : rng.uniform(1, 60)));
    s.out_c = rng.coin() ? rng.uniform(1, 17) : rng.uniform(1, 40);
    p.window.stride_h = rng.uniform(1, 3);
    p.window.stride_w = rng.uniform(1, 3);
    p.groups = 1;
    p.accumulator = rng.uniform(0, 3) == 0 ? 32 : 64;
    if (pointwise) {
      s.kernel_h = s.kernel_w = 1;
      p.window.dilation_h = p.window.dilation_w = 1;
      p.window.pad_top = p.window.pad_left = p.window.pad_bottom = p.window.pad_right = 0;
    } else {
      s.kernel_h = rng.uniform(1, 4);
      s.kernel_w = rng.uniform(1, 4);
      if (s.in_c > 100) s.kernel_h = s.kernel_w = 1;
      p.window.dilation_h = rng.uniform(0, 3) == 0 ? 2 : 1;
      p.window.dilation_w = rng.uniform(0, 3) == 0 ? rng.uniform(2, 3) : 1;
      draw_padding(rng, 2, &p.window);
    }
    draw_input_extent(rng, p.window, 5, &s);
    p.act_min = rng.coin() ? -32768 : rng.uniform(-32768, 32767);
    p.act_max = rng.coin() ? 32767 : rng.uniform(p.act_min, 32767);
    const bool extreme = rng.uniform(0, 3) == 0;
    const bool largest_sums = rng.uniform(0, 5) == 0;
    // Every shift negative (with K <= 256 and small biases: the int32 fast path).
    const bool all_negative = rng.coin();
    const int bias_kind = rng.uniform(0, 4) == 0 ? rng.uniform(1, 3) : 0;

    const int32_t in_count = s.batch * s.in_h * s.in_w * s.in_c;
    const int32_t filter_count = s.out_c * s.kernel_h * s.kernel_w * s.in_c;
    const int32_t out_count = s.batch * s.out_h * s.out_w * s.out_c;
    int16_t* input = a.alloc_array<int16_t>(in_count);
    int8_t* filter = a.alloc_array<int8_t>(filter_count);
    const bool has_bias = rng.uniform(0, 3) != 0;
    int64_t* bias64 = has_bias && p.accumulator == 64 ? a.alloc_array<int64_t>(s.out_c) : nullptr;
    int32_t* bias32 = has_bias && p.accumulator == 32 ? a.alloc_array<int32_t>(s.out_c) : nullptr;
    int32_t* multipliers = a.alloc_array<int32_t>(s.out_c);
    int32_t* shifts = a.alloc_array<int32_t>(s.out_c);
    int16_t* expected = a.alloc_array<int16_t>(out_count);
    int16_t* actual = a.alloc_array<int16_t>(out_count);
    uint8_t* scratch = a.alloc_array<uint8_t>(conv2d_s16__mve_scratch_bytes(p, s));
    if (input == nullptr || filter == nullptr || multipliers == nullptr || shifts == nullptr ||
        expected == nullptr || actual == nullptr || scratch == nullptr ||
        (has_bias && bias64 == nullptr && bias32 == nullptr)) {
      skip_case(name, c, "arena too small");
      continue;
    }
    for (int32_t i = 0; i < in_count; ++i) {
      input[i] = static_cast<int16_t>(largest_sums ? -32768 : rng.uniform(-32768, 32767));
    }
    if (largest_sums) {
      fill_s8_range(rng, filter, filter_count, -128, -128);
    } else {
      fill_s8(rng, filter, filter_count);
    }
    for (int32_t o = 0; o < s.out_c; ++o) {
      if (bias64 != nullptr) bias64[o] = draw_bias64_near_bound(rng, bias_kind);
      if (bias32 != nullptr) bias32[o] = extreme ? static_cast<int32_t>(rng.next()) : rng.uniform(-70000, 70000);
      const bool extreme_channel = extreme && rng.coin();
      multipliers[o] = random_multiplier(rng, extreme_channel);
      const int32_t max_shift = p.accumulator == 64 ? 14 : 30;
      shifts[o] = extreme_channel ? rng.uniform(-31, max_shift) : rng.uniform(-20, all_negative ? -1 : 0);
    }
    const void* bias = bias64 != nullptr ? static_cast<const void*>(bias64) : bias32;
    conv2d_s16(p, multipliers, shifts, s, input, filter, bias, expected);
    conv2d_s16__mve(p, multipliers, shifts, s, input, filter, bias, actual, scratch);
    if (!expect_equal_s16(name, c, pointwise ? "1x1" : "conv", expected, actual,
                          static_cast<size_t>(out_count))) {
      ++failed;
    }
  }
  return failed;
}

}  // namespace mote::conformance
