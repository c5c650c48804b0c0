// Conformance of conv2d_s8__v6m (any kernel, stride, dilation, padding; groups 1) against
// conv2d_s8: kernels 1x1..5x4, strides 1-3, dilation, asymmetric padding, batch 2, channel
// counts around the 4-channel blocks, zero points, clamps, absent bias, extreme
// multipliers / shifts (INT32_MIN and zero included) and wrapping biases. Half the cases are 1x1
// without padding (read in place on the folded path), the others any window (copied into
// the folded path's patch from 16 pixels on), a fifth of them on images large enough for
// the requant floors (128 pixels); some with extreme inputs and weights, most with right
// shifts in every channel (requant_v6m_right_s8), some with one channel outside it, a
// third with small multipliers, shifts -1..-3 and no clamping, so that every rounding of
// the requantization blocks shows (sums around the split at [-2^15, 2^15)). On
// cortex-m0plus this runs the Thumb-1 inner loop. First, the requantization all __v6m
// kernels share (requant_v6m_s8, quant/quant_math_v6m.h) against the reference arithmetic
// on edge and random operands (on cortex-m0plus: its assembly), requant_v6m_right_s8
// likewise for right shifts, and its floor short cut (requant_v6m_right_set_floor) around
// the floor, and requant_v6m_positive_s8 where it applies. A third of the convolutions have
// ReLU-like output ranges with the compiler's floors (positive_v6m_requant), so that
// requant_v6m_positive_s8 takes every channel, half of them with even channel counts (the
// 1x1 path's pixel pairs, v6m::dot_2x2_packed, with an odd pixel left over at times).
#include "conformance.h"
#include "v6m_requant_cases.h"
#include "conv2d/conv2d.h"
#include "quant/quant_math.h"
#include "quant/quant_math_v6m.h"

namespace mote::conformance {
namespace {

// The operands of a failed requantization (floor: INT32_MIN when there is none).
void print_operands(int32_t acc, int32_t floor, int32_t multiplier, int32_t shift) {
  print("  acc ");
  print_int(acc);
  if (floor != INT32_MIN) {
    print(" floor ");
    print_int(floor);
  }
  print(" multiplier ");
  print_int(multiplier);
  print(" shift ");
  print_int(shift);
  print("\n");
}

// 1 if requant_v6m_s8 differs from the reference for some operands, else 0.
int check_requant(Rng& rng, int count) {
  static const int32_t kEdges[] = {INT32_MIN, INT32_MIN + 1, -(1 << 30) - 1, -(1 << 30), -65537,
                                   -65536, -32769, -32768, -1, 0, 1, 32767, 32768, 65535,
                                   1 << 30, (1 << 30) + 1, 0x7FFF7FFF, 0x7FFF8000,
                                   INT32_MAX - 1, INT32_MAX};
  const int edges = static_cast<int>(sizeof(kEdges) / sizeof(kEdges[0]));
  for (int i = 0; i < count; ++i) {
    int32_t acc, m;
    if (i < edges * edges) {
      acc = kEdges[i / edges];
      m = kEdges[i % edges];
    } else {
      acc = rng.uniform(INT32_MIN, INT32_MAX);
      m = rng.uniform(INT32_MIN, INT32_MAX);
      if (rng.coin()) acc >>= rng.uniform(0, 31);
      if (rng.coin()) m = rng.uniform(1 << 30, INT32_MAX);
    }
    const int32_t shift = rng.uniform(kMinShift, kMaxShift);
    const int32_t zp = rng.uniform(-128, 127);
    const int32_t lo = rng.coin() ? -128 : rng.uniform(-128, 127);
    const int32_t hi = rng.coin() ? 127 : rng.uniform(lo, 127);
    const int8_t expected = static_cast<int8_t>(
        clamp_i32(wrapping_add(multiply_by_quantized_multiplier(acc, m, shift), zp), lo, hi));
    const int8_t actual = requant_v6m_s8(acc, m, shift, zp, lo, hi);
    // requant_v6m_right_s8 with a right shift (the shift's sign flipped when needed),
    // all right shifts for the edge operands.
    const int32_t right = i < edges * edges ? -1 - i % 31 : (shift < 0 ? shift : -1 - shift);
    if (requant_v6m_right_applies(m, right)) {
      const int8_t expected_right = static_cast<int8_t>(
          clamp_i32(wrapping_add(multiply_by_quantized_multiplier(acc, m, right), zp), lo, hi));
      const int8_t actual_right = requant_v6m_right_s8(acc, requant_v6m_right_prepare(m, right), zp, lo, hi);
      if (!expect_equal_s8("conv2d_s8__v6m", i, "requant_v6m_right_s8", &expected_right, &actual_right, 1)) {
        print_operands(acc, INT32_MIN, m, right);
        return 1;
      }
    }
    if (!expect_equal_s8("conv2d_s8__v6m", i, "requant_v6m_s8", &expected, &actual, 1)) {
      print_operands(acc, INT32_MIN, m, shift);
      return 1;
    }
  }
  return 0;
}

// 1 if requant_v6m_right_s8 with a floor from requant_v6m_right_set_floor differs from the
// reference for some operands: around the floor (where the short cut starts), at the int32
// ends and at random, for random, tiny, negative and extreme multipliers and clamps
// (act_min == act_max included).
int check_requant_floor(Rng& rng, int count) {
  for (int i = 0; i < count; ++i) {
    int32_t m = rng.uniform(1 << 30, INT32_MAX);
    switch (rng.uniform(0, 5)) {
      case 0: m = rng.uniform(INT32_MIN + 1, INT32_MAX); break;
      case 1: m = rng.uniform(1, 1000); break;
      case 2: m = rng.coin() ? INT32_MAX : 1; break;
      default: break;
    }
    const int32_t shift = rng.coin() ? rng.uniform(-12, -1) : rng.uniform(kMinShift, -1);
    int32_t zp = rng.uniform(-128, 127);
    const int32_t lo = rng.coin() ? -128 : rng.uniform(-128, 127);
    const int32_t hi = rng.coin() ? 127 : rng.uniform(lo, 127);
    if (rng.coin()) zp = rng.uniform(-128, lo);  // often requant_v6m_positive_s8's range
    if (!requant_v6m_right_applies(m, shift)) continue;
    RequantV6mRight q = requant_v6m_right_prepare(m, shift);
    requant_v6m_right_set_floor(q, m, zp, lo, hi);
    // check()'s validation: the floor found is safe, one more is not (it is the least), and
    // one less is not either (it is exact: requant_v6m_positive_s8 relies on that).
    const bool inner = q.floor != INT32_MIN && q.floor != INT32_MAX;
    if (!requant_v6m_floor_valid(q.floor, m, shift, zp, lo, hi) ||
        (inner && requant_v6m_floor_valid(q.floor + 1, m, shift, zp, lo, hi)) ||
        (inner && q.floor - 1 != INT32_MIN && requant_v6m_floor_valid(q.floor - 1, m, shift, zp, lo, hi))) {
      print("conv2d_s8__v6m: requant_v6m_floor_valid wrong for floor ");
      print_int(q.floor);
      print("\n");
      return 1;
    }
    for (int j = 0; j < 12; ++j) {
      int32_t acc;
      if (j < 6) {
        acc = static_cast<int32_t>(static_cast<uint32_t>(q.floor) + static_cast<uint32_t>(j - 3));
      } else if (j < 8) {
        acc = j == 6 ? INT32_MIN : INT32_MAX;
      } else {
        acc = rng.uniform(INT32_MIN, INT32_MAX);
        if (rng.coin()) acc >>= rng.uniform(0, 31);
      }
      const int8_t expected =
          static_cast<int8_t>(clamp_i32(wrapping_add(multiply_by_quantized_multiplier(acc, m, shift), zp), lo, hi));
      const int8_t actual = requant_v6m_right_s8(acc, q, zp, lo, hi);
      if (!expect_equal_s8("conv2d_s8__v6m", i, "requant floor", &expected, &actual, 1)) {
        print_operands(acc, q.floor, m, shift);
        return 1;
      }
      if (requant_v6m_positive_output_applies(zp, lo, hi) && requant_v6m_positive_applies(m, shift, q.floor, zp, lo)) {
        RequantV6mRight positive = q;
        requant_v6m_positive_prepare(positive);
        const int8_t actual_positive =
            requant_v6m_positive_s8(acc, positive, requant_v6m_output_constants(zp, lo, hi));
        if (!expect_equal_s8("conv2d_s8__v6m", i, "requant positive", &expected, &actual_positive, 1)) {
          print_operands(acc, q.floor, m, shift);
          return 1;
        }
      }
    }
  }
  return 0;
}

}  // namespace

int run_conv2d_s8__v6m(Rng& rng, int cases) {
  static const char kName[] = "conv2d_s8__v6m";
  int failed = check_requant(rng, 400 + 100 * cases);
  failed += check_requant_floor(rng, 20 + cases / 2);
  for (int c = 0; c < cases; ++c) {
    Arena& a = arena();
    a.reset();
    Conv2dShape s;
    Conv2dS8Params p;
    s.batch = rng.uniform(0, 3) == 0 ? 2 : 1;
    s.in_c = rng.coin() ? rng.uniform(1, 9) : rng.uniform(1, 48);
    s.out_c = rng.coin() ? rng.uniform(1, 9) : rng.uniform(1, 24);
    // A third with ReLU-like output ranges (requant_v6m_positive_s8 when the floors are
    // there), half of those with even channel counts (the 1x1 path's pixel pairs).
    const bool positive = rng.uniform(0, 2) == 0;
    if (positive && rng.coin()) {
      s.in_c += s.in_c & 1;
      s.out_c += s.out_c & 1;
    }
    const bool pointwise = rng.coin();  // 1x1 without padding: the folded 1x1 path
    s.kernel_h = pointwise ? 1 : rng.uniform(1, 5);
    s.kernel_w = pointwise ? 1 : rng.uniform(1, 4);
    p.window.stride_h = rng.uniform(1, 3);
    p.window.stride_w = rng.uniform(1, 3);
    p.groups = 1;
    p.window.dilation_h = rng.uniform(0, 3) == 0 ? rng.uniform(2, 3) : 1;
    p.window.dilation_w = rng.uniform(0, 3) == 0 ? rng.uniform(2, 3) : 1;
    const int32_t eff_h = p.window.dilation_h * (s.kernel_h - 1) + 1;
    const int32_t eff_w = p.window.dilation_w * (s.kernel_w - 1) + 1;
    p.window.pad_top = rng.uniform(0, eff_h - 1);
    p.window.pad_bottom = rng.uniform(0, eff_h - 1);
    p.window.pad_left = rng.uniform(0, eff_w - 1);
    p.window.pad_right = rng.uniform(0, eff_w - 1);
    if (pointwise) p.window.pad_top = p.window.pad_bottom = p.window.pad_left = p.window.pad_right = 0;
    const int32_t min_h = eff_h - p.window.pad_top - p.window.pad_bottom;
    const int32_t min_w = eff_w - p.window.pad_left - p.window.pad_right;
    // Some images large enough for the requant floors (128 pixels or more).
    const int32_t grow = rng.uniform(0, 5) == 0 ? 24 : 6;
    s.in_h = (min_h > 1 ? min_h : 1) + rng.uniform(0, grow);
    s.in_w = (min_w > 1 ? min_w : 1) + rng.uniform(0, grow);
    if (grow > 6) {  // keep the large images quick
      s.in_c = s.in_c < 8 ? s.in_c : rng.uniform(1, 8);
      s.out_c = s.out_c < 17 ? s.out_c : 17;
    }
    s.out_h = (s.in_h + p.window.pad_top + p.window.pad_bottom - eff_h) / p.window.stride_h + 1;
    s.out_w = (s.in_w + p.window.pad_left + p.window.pad_right - eff_w) / p.window.stride_w + 1;
    p.input_zero_point = rng.uniform(0, 3) == 0 ? 0 : rng.uniform(-128, 127);
    p.output_zero_point = rng.uniform(-128, 127);
    p.act_min = rng.coin() ? -128 : rng.uniform(-128, 127);
    p.act_max = rng.coin() ? 127 : rng.uniform(p.act_min, 127);
    const bool extreme = rng.uniform(0, 3) == 0;

    const int32_t in_count = s.batch * s.in_h * s.in_w * s.in_c;
    const int32_t filter_count = s.out_c * s.kernel_h * s.kernel_w * s.in_c;
    const int32_t out_count = s.batch * s.out_h * s.out_w * s.out_c;
    int8_t* input = a.alloc_array<int8_t>(in_count);
    int8_t* filter = a.alloc_array<int8_t>(filter_count);
    int32_t* bias = rng.uniform(0, 3) == 0 ? nullptr : a.alloc_array<int32_t>(s.out_c);
    int32_t* multipliers = a.alloc_array<int32_t>(s.out_c);
    int32_t* shifts = a.alloc_array<int32_t>(s.out_c);
    // Half the cases with the compiler's requant floors, half without (searched at run time
    // from 128 pixels).
    int32_t* floors = rng.coin() || positive ? a.alloc_array<int32_t>(s.out_c) : nullptr;
    // Half with the compiler's folded biases, half summed at run time.
    int32_t* folded_bias = rng.coin() ? a.alloc_array<int32_t>(s.out_c) : nullptr;
    int8_t* expected = a.alloc_array<int8_t>(out_count);
    int8_t* actual = a.alloc_array<int8_t>(out_count);
    if (input == nullptr || filter == nullptr || multipliers == nullptr || shifts == nullptr ||
        expected == nullptr || actual == nullptr) {
      skip_case("conv2d_s8__v6m", c, "arena too small");
      continue;
    }
    const uint32_t scratch_bytes = conv2d_s8__v6m_scratch_bytes(p, s.kernel_h, s.kernel_w, s.in_c, s.out_c);
    int32_t* scratch = scratch_bytes == 0 ? nullptr : a.alloc_array<int32_t>(scratch_bytes / 4);
    if (scratch_bytes != 0 && scratch == nullptr) {
      skip_case("conv2d_s8__v6m", c, "arena too small");
      continue;
    }
    fill_s8(rng, input, in_count);
    fill_s8(rng, filter, filter_count);
    if (rng.uniform(0, 3) == 0) {  // extreme inputs and weights
      const int8_t x = rng.coin() ? -128 : 127;
      for (int32_t i = 0; i < in_count; ++i) input[i] = rng.uniform(0, 7) == 0 ? input[i] : x;
      for (int32_t i = 0; i < filter_count; ++i) filter[i] = rng.coin() ? -128 : (rng.coin() ? 127 : filter[i]);
    }
    if (bias != nullptr) {
      fill_s32(rng, bias, s.out_c, extreme ? INT32_MIN : -60000, extreme ? INT32_MAX : 60000);
    }
    for (int32_t o = 0; o < s.out_c; ++o) {
      const bool wild = extreme && rng.coin();
      multipliers[o] = !wild ? rng.uniform(1 << 30, INT32_MAX)
                             : (rng.coin() ? INT32_MIN : rng.uniform(INT32_MIN, INT32_MAX));
      shifts[o] = wild ? rng.uniform(-31, 30) : rng.uniform(-12, 1);
      if (!wild && rng.coin()) shifts[o] = rng.uniform(-12, -1);
      if (wild && rng.coin()) shifts[o] = rng.uniform(-31, -1);
    }
    perturb_v6m_requant(rng, p, s.out_c, multipliers, shifts, bias);
    if (positive) positive_v6m_requant(rng, p, s.out_c, multipliers, shifts, bias);
    if (rng.uniform(0, 7) == 0) {  // one channel outside requant_v6m_right_s8
      const int32_t o = rng.uniform(0, s.out_c - 1);
      if (rng.coin()) multipliers[o] = INT32_MIN;
      else shifts[o] = rng.uniform(0, 3);
    }
    if (floors != nullptr) conv2d_s8__v6m_floors(p, multipliers, shifts, s.out_c, floors);
    if (folded_bias != nullptr) {
      conv2d_s8__v6m_folded_bias(p, filter, bias, s.kernel_h * s.kernel_w * s.in_c, s.out_c, folded_bias);
    }
    conv2d_s8(p, multipliers, shifts, s, input, filter, bias, expected);
    conv2d_s8__v6m(p, multipliers, shifts, floors, folded_bias, s, input, filter, bias, actual, scratch);
    if (!expect_equal_s8(kName, c, "conv", expected, actual, static_cast<size_t>(out_count))) {
      ++failed;
    }
  }
  return failed;
}

}  // namespace mote::conformance
