// Conformance of conv2d_s8_1x1_relu__dsp (1x1 kernel, no padding, any stride, groups 1,
// the ReLU-like layers whose records apply) against conv2d_s8: the records cases below,
// which also draw layers outside its rule (other clamps, negative multipliers, fewer
// than 16 pixels in blocks, in_c 8 / 16: the kernel then runs the reference).
#include "conformance.h"
#include "conv2d/conv2d.h"
#include "conv2d_s8_dsp_cases.h"

namespace mote::conformance {

namespace {

// The records path (group counts a multiple of 4, at least 16 pixels in whole blocks,
// act_min >= output zp): C 32 / 64 / 128 / 256 mostly (and others of 4u groups, u odd
// or even), every channel's record in scratch or chunks of wide_channels
// (remainders of every size; fewer than kMinChunk: the old loops), odd pixel counts (a
// last single pixel, a last block moved back), zp -128 mostly, narrower clamps (the pass
// after), other clamps (the old loops), shifts -5..-10 and any (-1..-22: channels
// without a record, by block_matmul_fast, at most 8 per chunk, else the chunk ends),
// dead or saturated channels (multiplier 0, shift -31 or 0, huge biases: constants),
// extreme inputs and weights, biases near the bound of |acc| 2^k < 2^31, and the output
// over the input as the memory plan may place it (one pass). The bytes past the scratch
// must stay as they are.
int run_records_cases(Rng& rng, int cases) {
  const char* name = "conv2d_s8_1x1_relu__dsp";
  int failed = 0;
  for (int c = 0; c < cases; ++c) {
    arena().reset();
    Conv2dShape s;
    Conv2dS8Params p;
    s.batch = rng.uniform(0, 5) == 0 ? 2 : 1;
    const int32_t c_kind = rng.uniform(0, 5);
    // Group counts 4u (in_c 16u - 0..3): both entries of the records' 8-group MAC loop.
    s.in_c = c_kind <= 1 ? 64 : c_kind == 2 ? 32 : c_kind == 3 ? (rng.coin() ? 128 : 256)
                                               : 16 * rng.uniform(1, 12) - rng.uniform(0, 3);
    s.out_c = rng.uniform(0, 2) == 0 ? rng.uniform(1, 24) : rng.uniform(25, 80);
    s.kernel_h = s.kernel_w = 1;
    p.window.stride_h = rng.uniform(0, 3) == 0 ? 2 : 1;
    p.window.stride_w = rng.uniform(0, 3) == 0 ? 2 : 1;
    p.window.dilation_h = p.window.dilation_w = 1;
    p.groups = 1;
    p.window.pad_top = p.window.pad_left = p.window.pad_bottom = p.window.pad_right = 0;
    s.out_h = rng.uniform(2, 9);
    s.out_w = rng.uniform(3, 9);
    // Valid shapes only (out = floor((in - 1) / stride) + 1): the unread input column
    // or row past the last window with stride 2.
    s.in_h = (s.out_h - 1) * p.window.stride_h + 1 + rng.uniform(0, p.window.stride_h - 1);
    s.in_w = (s.out_w - 1) * p.window.stride_w + 1 + rng.uniform(0, p.window.stride_w - 1);
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
    const int32_t unit = static_cast<int32_t>(conv2d_s8_1x1_relu__dsp_record_bytes(s.in_c));
    const int32_t w_kind = rng.uniform(0, 3);
    const int32_t wide = unit == 0 ? 0 : w_kind == 0 ? s.out_c : w_kind == 1 ? rng.uniform(1, s.out_c)
                                                 : rng.uniform(8, 8 + s.out_c / 2);
    const int32_t wide_channels = wide < s.out_c ? wide : s.out_c;
    Conv2dS8Case k;
    if (!alloc_conv2d_s8_case(name, c, s, rng.uniform(0, 7) != 0,
                              conv2d_s8_1x1_relu__dsp_scratch_bytes(s.in_c, wide_channels), 0, &k)) {
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
          (static_cast<int32_t>(conv2d_s8_1x1_relu__dsp_stream_block(stream)) + rng.uniform(0, 2)) * s.out_c;
      int8_t* const shared = arena().alloc_array<int8_t>(below + k.in_count);
      if (shared == nullptr) {
        skip_case(name, c, "arena too small");
        continue;
      }
      for (int32_t i = 0; i < k.in_count; ++i) shared[below + i] = k.input[i];
      conv2d_s8(p, k.multipliers, k.shifts, s, k.input, k.filter, k.bias, k.expected);
      conv2d_s8_1x1_relu__dsp(p, k.multipliers, k.shifts, s, shared + below, k.filter, k.bias, shared, k.scratch,
                         wide_channels);
      if (!expect_equal_s8(name, c, "records in place", k.expected, shared, static_cast<size_t>(k.out_count))) {
        ++failed;
        continue;
      }
    } else if (!check_conv2d_s8_case(name, c, "records", p, s, k, conv2d_s8_1x1_relu__dsp)) {
      ++failed;
      continue;
    }
    if (!past_scratch_intact(name, c, past_scratch)) ++failed;
  }
  return failed;
}
}  // namespace

int run_conv2d_s8_1x1_relu__dsp(Rng& rng, int cases) { return run_records_cases(rng, cases); }

}  // namespace mote::conformance
