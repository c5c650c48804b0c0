// Conformance of depthwise_conv2d_s8_mult__dsp against depthwise_conv2d_s8: depth
// multipliers 2-9, one to five input channels, filters 1x1 to 6x9 (row lengths that are
// and are not multiples of four), strides 1-3, dilations 1-2, any padding, batches, zero
// points, clamps, absent bias, extreme multipliers / shifts and wrapping biases.
#include "conformance.h"
#include "depthwise_conv2d/depthwise_conv2d.h"

namespace mote::conformance {

int run_depthwise_conv2d_s8_mult__dsp(Rng& rng, int cases) {
  static const char kName[] = "depthwise_conv2d_s8_mult__dsp";
  int failed = 0;
  for (int c = 0; c < cases; ++c) {
    Arena& a = arena();
    a.reset();
    DepthwiseConv2dS8Params p;
    DepthwiseConv2dShape s;
    s.batch = rng.uniform(1, 4) == 4 ? 2 : 1;
    s.in_h = rng.uniform(1, 12);
    s.in_w = rng.uniform(1, 14);
    s.in_c = rng.coin() ? 1 : rng.uniform(1, 5);
    s.kernel_h = rng.uniform(1, 6);
    s.kernel_w = rng.coin() ? 4 * rng.uniform(1, 2) : rng.uniform(1, 9);
    p.window.stride_h = rng.uniform(1, 3);
    p.window.stride_w = rng.uniform(1, 3);
    p.window.dilation_h = rng.uniform(0, 3) == 0 ? 2 : 1;
    p.window.dilation_w = rng.uniform(0, 3) == 0 ? 2 : 1;
    p.window.pad_top = rng.uniform(0, 3);
    p.window.pad_left = rng.uniform(0, 3);
    p.window.pad_bottom = rng.uniform(0, 3);
    p.window.pad_right = rng.uniform(0, 3);
    const int32_t span_h = p.window.dilation_h * (s.kernel_h - 1) + 1;
    const int32_t span_w = p.window.dilation_w * (s.kernel_w - 1) + 1;
    if (s.in_h + p.window.pad_top + p.window.pad_bottom < span_h || s.in_w + p.window.pad_left + p.window.pad_right < span_w) {
      --c;  // not a valid geometry; draw again
      continue;
    }
    s.out_h = (s.in_h + p.window.pad_top + p.window.pad_bottom - span_h) / p.window.stride_h + 1;
    s.out_w = (s.in_w + p.window.pad_left + p.window.pad_right - span_w) / p.window.stride_w + 1;
    p.depth_multiplier = rng.uniform(2, 9);
    s.out_c = s.in_c * p.depth_multiplier;
    p.input_zero_point = rng.uniform(0, 3) == 0 ? 0 : rng.uniform(-128, 127);
    p.output_zero_point = rng.uniform(-128, 127);
    p.act_min = rng.coin() ? -128 : rng.uniform(-128, 127);
    p.act_max = rng.coin() ? 127 : rng.uniform(p.act_min, 127);
    const bool extreme = rng.uniform(0, 4) == 0;
    const bool positive_shifts = rng.uniform(0, 4) == 0;

    const int32_t in_count = s.batch * s.in_h * s.in_w * s.in_c;
    const int32_t filter_count = s.kernel_h * s.kernel_w * s.out_c;
    const int32_t out_count = s.batch * s.out_h * s.out_w * s.out_c;
    int8_t* input = a.alloc_array<int8_t>(in_count);
    int8_t* filter = a.alloc_array<int8_t>(filter_count);
    int32_t* bias = rng.uniform(0, 3) == 0 ? nullptr : a.alloc_array<int32_t>(s.out_c);
    int32_t* multipliers = a.alloc_array<int32_t>(s.out_c);
    int32_t* shifts = a.alloc_array<int32_t>(s.out_c);
    int8_t* expected = a.alloc_array<int8_t>(out_count);
    int8_t* actual = a.alloc_array<int8_t>(out_count);
    void* scratch = a.alloc(depthwise_conv2d_s8_mult__dsp_scratch_bytes(p, s) + 4, 4);
    int8_t* arranged = a.alloc_array<int8_t>(depthwise_conv2d_s8_mult__dsp_arranged_bytes(s));
    if (input == nullptr || filter == nullptr || multipliers == nullptr || shifts == nullptr ||
        expected == nullptr || actual == nullptr || scratch == nullptr || arranged == nullptr) {
      skip_case("depthwise_conv2d_s8_mult__dsp", c, "arena too small");
      continue;
    }
    fill_s8(rng, input, in_count);
    fill_s8(rng, filter, filter_count);
    if (bias != nullptr) {
      fill_s32(rng, bias, s.out_c, extreme ? INT32_MIN : -30000, extreme ? INT32_MAX : 30000);
    }
    for (int32_t i = 0; i < s.out_c; ++i) {
      const bool wild = extreme && rng.coin();
      multipliers[i] = !wild ? rng.uniform(1 << 30, INT32_MAX)
                             : (rng.coin() ? INT32_MIN : -rng.uniform(0, INT32_MAX));
      shifts[i] = wild ? rng.uniform(-31, 30) : rng.uniform(-12, positive_shifts ? 1 : -1);
    }
    depthwise_conv2d_s8(p, multipliers, shifts, s, input, filter, bias, expected);
    depthwise_conv2d_s8_mult__dsp_arrange(s, filter, arranged);
    depthwise_conv2d_s8_mult__dsp(p, multipliers, shifts, s, input, arranged, bias, actual, scratch);
    if (!expect_equal_s8(kName, c, extreme ? "extreme" : "random", expected, actual,
                         static_cast<size_t>(out_count))) {
      ++failed;
    }
  }
  return failed;
}

}  // namespace mote::conformance
