// Conformance of conv2d_s16__v6m (any kernel, stride, dilation, padding; groups 1; int64
// and int32 accumulators) against conv2d_s16. First the 16x8 requantization the __v6m
// kernels share (requant64_v6m_any, quant/quant_math64_v6m.h) against
// multiply_by_quantized_multiplier64 on edge and random accumulators and multipliers,
// every shift. Then convolutions: pointwise (MobileNet's 1x1 layers) and windows up to
// 5x5, channel counts around the 4-channel blocks, strides 1-3, dilation, padding past
// the window (pixels with no tap inside), batch 2, windows past one exact int32 run (511
// products, split within and across window rows), full-scale inputs and weights, biases
// near and past int32's bound, any multiplier and shift, no bias, ReLU and any clamp;
// window sums at their largest with biases at and one past the int32 fast path's bound.
#include "conformance.h"
#include "conv2d/conv2d.h"
#include "quant/quant_math.h"
#include "quant/quant_math64_v6m.h"
#include "s16_cases.h"
#include "window_cases.h"

namespace mote::conformance {
namespace {

// 1 (and a message) if requant64_v6m_any, or for an int32 acc requant64_v6m_s16 (on
// cortex-m0plus its assembly), differs from the reference for these operands.
int check_one64(int64_t acc, int32_t m, int32_t shift) {
  const int32_t expected = multiply_by_quantized_multiplier64(acc, m, shift);
  const int32_t actual = requant64_v6m_any(acc, m, shift);
  if (expected == actual && (acc != static_cast<int32_t>(acc) ||
                             requant64_v6m_s16(static_cast<int32_t>(acc), m, shift, -32768, 32767) ==
                                 clamp_i32(expected, -32768, 32767))) {
    return 0;
  }
  print("conv2d_s16__v6m: requant64_v6m_any / _s16(");
  print_int(acc);
  print(", ");
  print_int(m);
  print(", ");
  print_int(shift);
  print(") = ");
  print_int(actual);
  print(", expected ");
  print_int(expected);
  print("\n");
  return 1;
}

// 1 if requant64_v6m_any differs from the reference for some operands (edges, rounding
// ties, random), else 0.
int check_requant64(Rng& rng, int count) {
  static const int64_t kAccEdges[] = {INT32_MIN, INT32_MIN + 1, -(int64_t{1} << 30), -65537, -65536,
                                      -32769, -32768, -1, 0, 1, 32767, 32768, 65535, 65536,
                                      int64_t{1} << 30, INT32_MAX - 1, INT32_MAX,
                                      int64_t{INT32_MAX} + 1, int64_t{INT32_MIN} - 1,
                                      int64_t{1} << 40, -(int64_t{1} << 46)};
  static const int32_t kMulEdges[] = {INT32_MIN, INT32_MIN + 1, -65536, -1, 0, 1, 32767, 32768,
                                      1 << 30, 0x7FFEFFFF, 0x7FFF0000, INT32_MAX};
  const int acc_edges = static_cast<int>(sizeof(kAccEdges) / sizeof(kAccEdges[0]));
  const int mul_edges = static_cast<int>(sizeof(kMulEdges) / sizeof(kMulEdges[0]));
  for (int i = 0; i < count; ++i) {
    int64_t acc;
    int32_t m;
    if (i % 2 == 1) {  // rounding ties: acc * r within 1 of an odd multiple of 2^(t-1)
      const int32_t shift = rng.uniform(kMinShift, kMaxShift64);
      const int32_t t = 15 - shift;
      const int32_t a = t - 1 < 15 ? rng.uniform(0, t - 1) : rng.uniform(t - 31 > 0 ? t - 31 : 0, 15);
      const int32_t r = rng.coin() && a < 15 ? (1 << a) : -(1 << a);  // 2^15 is no reduced multiplier
      m = r == -32768 ? INT32_MIN : r * 65536;
      const int32_t top = 30 - (t - 1 - a);  // odd multiples that keep acc within int32
      const int64_t odd = 2 * static_cast<int64_t>(rng.uniform(0, (1 << (top > 0 ? top : 0)) - 1)) + 1;
      acc = (rng.coin() ? odd : -odd) * (int64_t{1} << (t - 1 - a)) + rng.uniform(-1, 1);
      if (check_one64(acc, m, shift) != 0) return 1;
      continue;
    }
    if (i < acc_edges * mul_edges) {
      acc = kAccEdges[i / mul_edges];
      m = kMulEdges[i % mul_edges];
    } else {
      acc = rng.uniform(INT32_MIN, INT32_MAX) >> rng.uniform(0, 31);
      if (rng.uniform(0, 7) == 0) acc = static_cast<int64_t>((uint64_t{rng.next()} << 32) | rng.next()) >> 16;
      m = rng.coin() ? rng.uniform(1 << 30, INT32_MAX) : rng.uniform(INT32_MIN, INT32_MAX);
    }
    for (int32_t shift = kMinShift; shift <= kMaxShift64; ++shift) {
      if (check_one64(acc, m, shift) != 0) return 1;
    }
  }
  return 0;
}

}  // namespace

int run_conv2d_s16__v6m(Rng& rng, int cases) {
  static const char kName[] = "conv2d_s16__v6m";
  int failed = check_requant64(rng, 300 + 20 * cases);
  for (int c = 0; c < cases; ++c) {
    arena().reset();
    Conv2dShape s;
    Conv2dS16Params p;
    const int32_t kind = rng.uniform(0, 5);
    s.batch = rng.uniform(0, 4) == 0 ? 2 : 1;
    s.in_c = rng.coin() ? rng.uniform(1, 9) : rng.uniform(1, 64);
    s.out_c = rng.coin() ? rng.uniform(1, 9) : rng.uniform(1, 24);
    p.window = WindowGeometry{};
    p.window.stride_h = rng.uniform(1, 3);
    p.window.stride_w = rng.uniform(1, 3);
    p.window.dilation_h = 1;
    p.window.dilation_w = 1;
    if (kind <= 1) {  // pointwise, mostly without padding
      s.kernel_h = 1;
      s.kernel_w = 1;
      if (rng.coin()) p.window.stride_h = p.window.stride_w = 1;
      if (rng.uniform(0, 3) == 0) draw_padding(rng, 1, &p.window);
    } else if (kind == 2) {  // long windows: runs split at 511 products
      s.in_c = rng.uniform(200, 600);
      s.kernel_h = rng.uniform(1, 2);
      s.kernel_w = rng.uniform(1, 3);
      s.out_c = rng.uniform(1, 6);
      if (rng.coin()) p.window.dilation_w = 2;
      draw_padding(rng, 1, &p.window);
    } else {
      s.kernel_h = rng.uniform(1, 5);
      s.kernel_w = rng.uniform(1, 5);
      if (rng.uniform(0, 3) == 0) p.window.dilation_h = rng.uniform(2, 3);
      if (rng.uniform(0, 3) == 0) p.window.dilation_w = rng.uniform(2, 3);
      draw_padding(rng, rng.coin() ? 2 : 6, &p.window);
    }
    p.groups = 1;
    p.accumulator = rng.uniform(0, 3) == 0 ? 32 : 64;
    draw_input_extent(rng, p.window, kind == 2 ? 1 : 6, &s);
    const bool common = rng.uniform(0, 2) != 0;
    draw_act_range16(rng, common, &p.act_min, &p.act_max);

    const int32_t k = s.kernel_h * s.kernel_w * s.in_c;
    const int32_t in_count = s.batch * s.in_h * s.in_w * s.in_c;
    const int32_t out_count = s.batch * s.out_h * s.out_w * s.out_c;
    S16Case t;
    const int32_t bias_count = rng.uniform(0, 3) != 0 ? s.out_c : 0;
    if (!draw_s16_case(rng, in_count, s.out_c * k, p.accumulator, bias_count, s.out_c, out_count, &t)) {
      skip_case(kName, c, "arena too small");
      continue;
    }
    for (int32_t o = 0; o < s.out_c; ++o) {
      draw_requant16(rng, !common, p.accumulator == 64 ? kMaxShift64 : kMaxShift, &t.multipliers[o], &t.shifts[o]);
    }
    // One case in six: window sums at 2^15 * sum|w| and biases at the int32 fast path's
    // bound (k <= 511 keeps the sums themselves within int32).
    if (p.accumulator == 64 && k <= 511 && rng.uniform(0, 5) == 0) {
      make_extreme_sums16(rng, t, in_count, s.out_c, k, k, 1);
    }
    conv2d_s16(p, t.multipliers, t.shifts, s, t.input, t.weights, t.bias, t.expected);
    const uint32_t scratch_bytes = conv2d_s16__v6m_scratch_bytes(s.out_c, s.kernel_h, s.kernel_w, s.in_c);
    uint8_t* scratch = arena().alloc_array<uint8_t>(scratch_bytes);
    if (scratch == nullptr) {
      skip_case(kName, c, "arena too small");
      continue;
    }
    conv2d_s16__v6m(p, t.multipliers, t.shifts, s, t.input, t.weights, t.bias, t.actual, scratch);
    if (!expect_equal_s16(kName, c, p.accumulator == 64 ? "int64 accumulator" : "int32 accumulator",
                          t.expected, t.actual, static_cast<size_t>(out_count))) {
      ++failed;
    }
  }
  return failed;
}

}  // namespace mote::conformance
