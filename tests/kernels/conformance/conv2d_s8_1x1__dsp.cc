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

uint32_t scratch_bytes_1x1(int32_t /*kernel_h*/, int32_t /*kernel_w*/, int32_t in_c, int32_t wide_channels) {
  return conv2d_s8_1x1__dsp_scratch_bytes(in_c, wide_channels);
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
    if (!alloc_conv2d_s8_case(name, c, s, !no_bias, conv2d_s8_1x1__dsp_scratch_bytes(s.in_c, 0),
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
    if (!check_conv2d_s8_case(name, c, "small channels", p, s, k, conv2d_s8_1x1__dsp)) ++failed;
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
    if (!alloc_conv2d_s8_case(name, c, s, with_bias, conv2d_s8_1x1__dsp_scratch_bytes(s.in_c, 0), 0,
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
    if (!check_conv2d_s8_case(name, c, "long columns", p, s, k, conv2d_s8_1x1__dsp)) ++failed;
  }
  return failed;
}


// The records path (group counts a multiple of 4, at least 16 pixels in whole blocks,
// act_min >= output zp): C 32 / 64 / 128 / 256 mostly (and others rounding up to such
// group counts), every channel's record in scratch or chunks of wide_channels
// (remainders of every size; fewer than kMinChunk: the old loops), odd pixel counts (a
// last single pixel, a last block moved back), zp -128 mostly, narrower clamps (the pass
// after), other clamps (the old loops), shifts -5..-10 and any (-1..-22: channels
// without a record, by block_matmul_fast, at most 8 per chunk, else the chunk ends),
// dead or saturated channels (multiplier 0, shift -31 or 0, huge biases: constants),
// extreme inputs and weights, biases near the bound of |acc| 2^k < 2^31, and the output
// over the input as the memory plan may place it (one pass). The bytes past the scratch
// must stay as they are.
int run_records_cases(Rng& rng, int cases) {
  const char* name = "conv2d_s8_1x1__dsp";
  int failed = 0;
  for (int c = 0; c < cases; ++c) {
    arena().reset();
    Conv2dShape s;
    Conv2dS8Params p;
    s.batch = rng.uniform(0, 5) == 0 ? 2 : 1;
    const int32_t c_kind = rng.uniform(0, 5);
    s.in_c = c_kind <= 1 ? 64 : c_kind == 2 ? 32 : c_kind == 3 ? (rng.coin() ? 128 : 256)
                                               : 16 * rng.uniform(1, 6) * 2 - rng.uniform(0, 3);
    s.out_c = rng.uniform(0, 2) == 0 ? rng.uniform(1, 24) : rng.uniform(25, 80);
    s.kernel_h = s.kernel_w = 1;
    p.window.stride_h = rng.uniform(0, 3) == 0 ? 2 : 1;
    p.window.stride_w = rng.uniform(0, 3) == 0 ? 2 : 1;
    p.window.dilation_h = p.window.dilation_w = 1;
    p.groups = 1;
    p.window.pad_top = p.window.pad_left = p.window.pad_bottom = p.window.pad_right = 0;
    s.out_h = rng.uniform(2, 9);
    s.out_w = rng.uniform(3, 9);
    s.in_h = (s.out_h - 1) * p.window.stride_h + 1 + rng.uniform(0, 1);
    s.in_w = (s.out_w - 1) * p.window.stride_w + 1 + rng.uniform(0, 1);
    // One in three: the output over the input as the memory plan may place it (the
    // kernel's block rule of pixels below, up to 2 more; stride 1, out_c == in_c), where a
    // second chunk must not run.
    const bool in_place = rng.uniform(0, 2) == 0;
    if (in_place) {
      s.batch = 1;
      s.out_c = s.in_c;
      p.window.stride_h = p.window.stride_w = 1;
      s.in_h = s.out_h;
      s.in_w = s.out_w;
    }
    const bool extreme = rng.uniform(0, 4) == 0;
    p.input_zero_point = extreme ? (rng.coin() ? -128 : 127) : rng.coin() ? -128 : rng.uniform(-128, 127);
    const int32_t q_kind = rng.uniform(0, 5);
    p.output_zero_point = q_kind <= 2 ? -128 : rng.uniform(-128, 127);
    p.act_min = q_kind <= 3 ? p.output_zero_point : rng.uniform(-128, 127);  // q_kind 4: any
    if (rng.uniform(0, 4) == 0) p.act_min = rng.uniform(p.act_min, 127);
    p.act_max = rng.uniform(0, 3) != 0 ? 127 : rng.uniform(p.act_min, 127);
    const int32_t unit = static_cast<int32_t>(conv2d_s8_1x1__dsp_wide_channel_bytes(s.in_c));
    const int32_t w_kind = rng.uniform(0, 3);
    const int32_t wide = unit == 0 ? 0 : w_kind == 0 ? s.out_c : w_kind == 1 ? rng.uniform(1, s.out_c)
                                                 : rng.uniform(8, 8 + s.out_c / 2);
    const int32_t wide_channels = wide < s.out_c ? wide : s.out_c;
    Conv2dS8Case k;
    if (!alloc_conv2d_s8_case(name, c, s, rng.uniform(0, 7) != 0,
                              conv2d_s8_1x1__dsp_scratch_bytes(s.in_c, wide_channels), 0, &k)) {
      continue;
    }
    k.wide_channels = wide_channels;
    uint8_t* const past_scratch = alloc_past_scratch();
    if (past_scratch == nullptr) {
      skip_case(name, c, "arena too small");
      continue;
    }
    if (extreme) {  // the largest accumulators, both signs
      fill_s8_range(rng, k.input, k.in_count, p.input_zero_point > 0 ? -128 : 127,
                    p.input_zero_point > 0 ? -128 : 127);
      const int8_t w = rng.coin() ? -128 : 127;
      fill_s8_range(rng, k.filter, k.filter_count, w, w);
      for (int32_t i = 0; i < k.filter_count; i += rng.uniform(1, 9)) k.filter[i] = static_cast<int8_t>(rng.uniform(-128, 127));
    } else {
      fill_s8(rng, k.input, k.in_count);
      fill_s8(rng, k.filter, k.filter_count);
    }
    // Half the cases as a trained ReLU layer (every channel has a record, dead ones as
    // constants); else any shifts, large biases, channels without a record.
    const bool clean = rng.coin();
    const bool any_shift = !clean && rng.uniform(0, 2) == 0;
    const bool big_bias = !clean && rng.uniform(0, 2) == 0;
    for (int32_t o = 0; o < s.out_c; ++o) {
      k.multipliers[o] = rng.uniform(0, 9) == 0 ? rng.uniform(0, INT32_MAX) : rng.uniform(1 << 30, INT32_MAX);
      k.shifts[o] = any_shift ? rng.uniform(-22, -1) : rng.uniform(-10, -5);
      if (k.bias != nullptr) {
        k.bias[o] = big_bias && rng.uniform(0, 3) == 0 ? rng.uniform(-(1 << 26), 1 << 26) : rng.uniform(-40000, 40000);
      }
    }
    // Degenerate channels: dead (multiplier 0, shift -31), saturated (a huge bias, shift
    // 0), shifts just outside the modes, a bias near their bounds, a negative multiplier.
    const int32_t odd = rng.uniform(0, 3);
    for (int32_t i = 0; i < odd; ++i) {
      const int32_t o = rng.uniform(0, s.out_c - 1);
      switch (clean ? rng.uniform(0, 1) : rng.uniform(0, 8)) {
        case 0: k.multipliers[o] = 0; break;
        case 1: k.shifts[o] = -31; break;
        case 2: k.shifts[o] = rng.uniform(-31, -23); break;
        case 3:
          k.shifts[o] = rng.uniform(-2, 0);
          if (k.bias != nullptr) k.bias[o] = rng.coin() ? (1 << 30) : -(1 << 30);
          break;
        case 4: k.shifts[o] = rng.uniform(-2, 3); break;
        case 5: k.shifts[o] = rng.coin() ? -2 : -11; break;
        case 6:
          if (k.bias != nullptr) {  // |acc| near 2^(19 + right) (records) or 2^30
            const int32_t right = -k.shifts[o];
            const int64_t bound = right <= 10 && right >= 4 ? (int64_t{1} << (19 + right)) : (int64_t{1} << 30);
            const int64_t b = bound - int64_t{s.in_c} * 255 * 128 - rng.uniform(-2, 1);
            k.bias[o] = static_cast<int32_t>(rng.coin() ? b : -b);
          }
          break;
        case 7: k.multipliers[o] = -rng.uniform(1, INT32_MAX); break;
        default:
          if (k.bias != nullptr) k.bias[o] = INT32_MIN;
          break;
      }
    }
    if (in_place) {
      const PixelStreamShape stream = {s.batch, s.in_h, s.in_w, s.in_c, s.out_h, s.out_w, s.out_c};
      const int32_t below =
          (static_cast<int32_t>(conv2d_s8_1x1__dsp_stream_block(stream)) + rng.uniform(0, 2)) * s.out_c;
      int8_t* const shared = arena().alloc_array<int8_t>(below + k.in_count);
      if (shared == nullptr) {
        skip_case(name, c, "arena too small");
        continue;
      }
      for (int32_t i = 0; i < k.in_count; ++i) shared[below + i] = k.input[i];
      conv2d_s8(p, k.multipliers, k.shifts, s, k.input, k.filter, k.bias, k.expected);
      conv2d_s8_1x1__dsp(p, k.multipliers, k.shifts, s, shared + below, k.filter, k.bias, shared, k.scratch,
                         wide_channels);
      if (!expect_equal_s8(name, c, "records in place", k.expected, shared, static_cast<size_t>(k.out_count))) {
        ++failed;
        continue;
      }
    } else if (!check_conv2d_s8_case(name, c, "records", p, s, k, conv2d_s8_1x1__dsp)) {
      ++failed;
      continue;
    }
    if (!past_scratch_intact(name, c, past_scratch)) ++failed;
  }
  return failed;
}
}  // namespace

int run_conv2d_s8_1x1__dsp(Rng& rng, int cases) {
  const int failed = run_conv2d_s8_dsp_cases(rng, cases, "conv2d_s8_1x1__dsp", 1,
                                             conv2d_s8_1x1__dsp, scratch_bytes_1x1);
  int shifted_cases = 0;
  int small_failed = run_small_channel_cases(rng, cases, shifted_cases);
  // A check that the cases reach shifted mode (with cases enough).
  const int32_t want[1] = {1};
  const int32_t got[1] = {cases < 200 || shifted_cases >= cases / 20};
  if (!expect_equal_s32("conv2d_s8_1x1__dsp", -1, "small-channel cases in shifted mode", want, got, 1)) {
    ++small_failed;
  }
  return failed + small_failed + run_long_column_cases(rng, cases) + run_records_cases(rng, cases) +
         run_conv2d_s8_wide_cases(rng, cases, "conv2d_s8_1x1__dsp", conv2d_s8_1x1__dsp, scratch_bytes_1x1,
                                  true);
}

}  // namespace mote::conformance
