// Conformance of conv2d_s8_1x1__dsp (1x1 kernel, no padding, any stride, groups 1)
// against conv2d_s8 on the pointwise cases of conv2d_s8_dsp_cases.h, plus cases for its
// small-channel path (in_c 8 or 16, full clamp range, multipliers >= 0, shifts in
// [-22, -1], |bias| <= 2^29), some just outside those limits, a third aimed at its
// shifted mode (output zero point -128, shifts -3..-9 with a few -1, -2, -10 and
// multiplier-0 channels, and biases of 2^21..2^25 with small multipliers that push some
// scaled accumulators past int32 without a constant output: sign mode again), and long columns with 1, 5 or 9 output
// pixels (the last 5-pixel block and the single-pixel column).
#include "conformance.h"
#include "conv2d/conv2d.h"
#include "conv2d_s8_dsp_cases.h"

namespace mote::conformance {

namespace {

// The shared cases' forms (they draw wide_channels, which this kernel does not take).
uint32_t scratch_bytes_1x1(int32_t /*kernel_h*/, int32_t /*kernel_w*/, int32_t in_c, int32_t /*wide_channels*/) {
  return conv2d_s8_1x1__dsp_scratch_bytes(in_c);
}
void run_1x1(const Conv2dS8Params& params, const int32_t* multipliers, const int32_t* shifts,
             const Conv2dShape& shape, const int8_t* input, const int8_t* filter, const int32_t* bias,
             int8_t* output, uint8_t* scratch, int32_t /*wide_channels*/) {
  conv2d_s8_1x1__dsp(params, multipliers, shifts, shape, input, filter, bias, output, scratch);
}

// Cases that must take shifted mode (every channel fits it), counted by
// run_small_channel_cases.
int run_small_channel_cases(Rng& rng, int cases, int& shifted_cases) {
  const char* name = "conv2d_s8_1x1__dsp";
  int failed = 0;
  for (int c = 0; c < cases; ++c) {
    arena().reset();
    Conv2dShape s;
    Conv2dS8Params p;
    s.batch = rng.uniform(0, 4) == 0 ? 2 : 1;
    s.in_c = rng.coin() ? 8 : 16;
    s.out_c = rng.uniform(0, 3) == 0 ? rng.uniform(33, 70) : rng.uniform(1, 32);
    s.kernel_h = s.kernel_w = 1;
    p.window.stride_h = rng.uniform(0, 2) == 0 ? 2 : 1;
    p.window.stride_w = rng.uniform(0, 2) == 0 ? rng.uniform(2, 3) : 1;
    p.window.dilation_h = p.window.dilation_w = 1;
    p.groups = 1;
    p.window.pad_top = p.window.pad_left = p.window.pad_bottom = p.window.pad_right = 0;
    s.in_h = rng.uniform(1, 9);
    s.in_w = rng.uniform(1, 9);
    s.out_h = (s.in_h - 1) / p.window.stride_h + 1;
    s.out_w = (s.in_w - 1) / p.window.stride_w + 1;
    const bool extreme = rng.uniform(0, 3) == 0;
    p.input_zero_point = extreme ? (rng.coin() ? -128 : 127) : rng.uniform(-128, 127);
    p.output_zero_point = rng.coin() ? -128 : rng.uniform(-128, 127);
    p.act_min = -128;
    p.act_max = 127;

    // Sometimes an input that is not 4-aligned.
    const int32_t in_shift = rng.uniform(0, 3) == 0 ? rng.uniform(1, 3) : 0;
    const bool no_bias = rng.uniform(0, 5) == 0;
    Conv2dS8Case k;
    if (!alloc_conv2d_s8_case(name, c, s, !no_bias, conv2d_s8_1x1__dsp_scratch_bytes(s.in_c),
                              in_shift, &k)) {
      continue;
    }
    int8_t* const input = k.input;
    int8_t* const filter = k.filter;
    int32_t* const bias = k.bias;
    int32_t* const multipliers = k.multipliers;
    int32_t* const shifts = k.shifts;
    const int32_t in_count = k.in_count, filter_count = k.filter_count;
    if (extreme) {  // the largest accumulators
      fill_s8_range(rng, input, in_count, p.input_zero_point > 0 ? -128 : 127,
                    p.input_zero_point > 0 ? -128 : 127);
      fill_s8_range(rng, filter, filter_count, -128, -128);
    } else {
      fill_s8(rng, input, in_count);
      fill_s8(rng, filter, filter_count);
    }
    if (bias != nullptr) {
      if (extreme) {
        for (int32_t o = 0; o < s.out_c; ++o) bias[o] = rng.coin() ? (1 << 29) : -(1 << 29);
      } else {
        fill_s32(rng, bias, s.out_c, -100000, 100000);
      }
    }
    for (int32_t o = 0; o < s.out_c; ++o) {
      const int32_t kind = rng.uniform(0, 9);
      multipliers[o] = kind == 0   ? 0
                       : kind == 1 ? INT32_MAX
                       : kind == 2 ? rng.uniform(0, INT32_MAX)
                                   : rng.uniform(1 << 30, INT32_MAX);
      shifts[o] = kind == 3 ? -22 : kind == 4 ? -1 : rng.uniform(-22, -1);
    }
    // Aimed at shifted mode: fits unless a channel draws -1, -2 or -10 (or the extreme
    // biases), which then leaves its chunk in sign mode.
    const bool aim_shifted = rng.uniform(0, 2) == 0;
    bool fits = aim_shifted && !extreme;
    if (aim_shifted) {
      p.output_zero_point = -128;
      for (int32_t o = 0; o < s.out_c; ++o) {
        shifts[o] = rng.uniform(-9, -3);
        if (rng.uniform(0, 15) == 0) multipliers[o] = 0;  // a constant output
      }
      if (rng.coin()) {  // one channel at the border: d 9, 8 (weights that may not fit) or 0
        shifts[rng.uniform(0, s.out_c - 1)] = rng.coin() ? -10 : rng.uniform(-2, -1);
        fits = false;
      }
      if (bias != nullptr && rng.uniform(0, 2) == 0) {  // scaled accumulators near 2^31
        for (int32_t o = 0; o < s.out_c; ++o) {
          bias[o] = (rng.coin() ? 1 : -1) * rng.uniform(1 << 21, 1 << 25);
          multipliers[o] = rng.uniform(1 << 12, 1 << 18);
        }
        fits = false;
      }
    }
    if (rng.uniform(0, 7) == 0) {  // just outside the path's limits
      const int32_t o = rng.uniform(0, s.out_c - 1);
      switch (rng.uniform(0, 4)) {
        case 0: shifts[o] = -23; break;
        case 1: shifts[o] = 0; break;
        case 2: multipliers[o] = -1; break;
        case 3: p.act_min = -127; break;
        default:
          if (bias != nullptr) bias[o] = -(1 << 29) - 1;
          break;
      }
      fits = false;
    }
    if (fits) ++shifted_cases;
    if (!check_conv2d_s8_case(name, c, "small channels", p, s, k, run_1x1)) ++failed;
  }
  return failed;
}

// Long columns with 1, 5 or 9 output pixels: the last block of 5 pixels (in_c % 8 == 0,
// >= 192) and the single-pixel column (in_c % 16 == 0), any quantization.
int run_long_column_cases(Rng& rng, int cases) {
  const char* name = "conv2d_s8_1x1__dsp";
  int failed = 0;
  for (int c = 0; c < cases; ++c) {
    arena().reset();
    Conv2dShape s;
    Conv2dS8Params p;
    s.batch = 1;
    const int32_t kind = rng.uniform(0, 3);
    s.in_c = kind == 0 ? 8 * rng.uniform(24, 40) : kind == 1 ? 16 * rng.uniform(1, 20)
                                                             : rng.uniform(180, 270);
    s.out_c = rng.uniform(1, 8);
    s.kernel_h = s.kernel_w = 1;
    p.window.stride_h = rng.uniform(1, 2);
    p.window.stride_w = rng.uniform(1, 2);
    p.window.dilation_h = p.window.dilation_w = 1;
    p.groups = 1;
    p.window.pad_top = p.window.pad_left = p.window.pad_bottom = p.window.pad_right = 0;
    const int32_t shape_kind = rng.uniform(0, 3);
    s.out_h = shape_kind == 0 ? 1 : shape_kind == 1 ? 3 : rng.uniform(1, 4);
    s.out_w = shape_kind == 0 ? (rng.coin() ? 1 : 5) : shape_kind == 1 ? 3 : rng.uniform(1, 4);
    s.in_h = (s.out_h - 1) * p.window.stride_h + 1;
    s.in_w = (s.out_w - 1) * p.window.stride_w + 1;
    p.input_zero_point = rng.uniform(-128, 127);
    p.output_zero_point = rng.uniform(-128, 127);
    p.act_min = rng.coin() ? -128 : rng.uniform(-128, 0);
    p.act_max = rng.coin() ? 127 : rng.uniform(0, 127);
    const bool with_bias = rng.uniform(0, 5) != 0;
    Conv2dS8Case k;
    if (!alloc_conv2d_s8_case(name, c, s, with_bias, conv2d_s8_1x1__dsp_scratch_bytes(s.in_c), 0,
                              &k)) {
      continue;
    }
    fill_s8(rng, k.input, k.in_count);
    fill_s8(rng, k.filter, k.filter_count);
    if (k.bias != nullptr) fill_s32(rng, k.bias, s.out_c, -2000000, 2000000);
    const bool extreme = rng.uniform(0, 3) == 0;
    for (int32_t o = 0; o < s.out_c; ++o) {
      k.multipliers[o] = conv2d_dsp_random_multiplier(rng, extreme && rng.coin());
      k.shifts[o] = extreme ? rng.uniform(-31, 30) : rng.uniform(-12, 0);
    }
    if (!check_conv2d_s8_case(name, c, "long columns", p, s, k, run_1x1)) ++failed;
  }
  return failed;
}


}  // namespace

int run_conv2d_s8_1x1__dsp(Rng& rng, int cases) {
  const int failed = run_conv2d_s8_dsp_cases(rng, cases, "conv2d_s8_1x1__dsp", 1, run_1x1, scratch_bytes_1x1);
  int shifted_cases = 0;
  int small_failed = run_small_channel_cases(rng, cases, shifted_cases);
  // A check that the cases reach shifted mode (with cases enough).
  const int32_t want[1] = {1};
  const int32_t got[1] = {cases < 200 || shifted_cases >= cases / 20};
  if (!expect_equal_s32("conv2d_s8_1x1__dsp", -1, "small-channel cases in shifted mode", want, got, 1)) {
    ++small_failed;
  }
  return failed + small_failed + run_long_column_cases(rng, cases) +
         run_conv2d_s8_wide_cases(rng, cases, "conv2d_s8_1x1__dsp", run_1x1, scratch_bytes_1x1, true);
}

}  // namespace mote::conformance
