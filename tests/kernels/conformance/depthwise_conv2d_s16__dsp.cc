// Conformance of depthwise_conv2d_s16__dsp (depth multiplier 1, any window, stride,
// dilation, padding) against depthwise_conv2d_s16: channel counts with and without a
// remainder past the groups of four, 3x3 and other windows (up to 5x5), strides 1-3,
// dilation, padding 0-2 per side (pixels whose window is mostly padding), batch 2;
// mostly the common quantization (shifts in [-17, -1], small bias: the SMMULR path),
// sometimes any shift and multiplier or a bias near or past the int32 bound (the
// reference path), full-scale inputs and weights, no bias, ReLU and any clamp. One case
// in three is a 3x3 window with stride 1 or 2 across and dilation 1 across (the two-pixel
// interior path): wider images (odd and even out_w, so a lone last pixel runs), padding
// 0-1 (edge pixels beside the pairs), dilation 2 down sometimes, stride 1-3 down.
#include "conformance.h"
#include "depthwise_conv2d/depthwise_conv2d.h"
#include "s16_cases.h"
#include "window_cases.h"

namespace mote::conformance {

int run_depthwise_conv2d_s16__dsp(Rng& rng, int cases) {
  static const char kName[] = "depthwise_conv2d_s16__dsp";
  int failed = 0;
  for (int c = 0; c < cases; ++c) {
    Arena& a = arena();
    a.reset();
    DepthwiseConv2dShape s;
    DepthwiseConv2dS16Params p;
    s.batch = rng.uniform(0, 5) == 0 ? 2 : 1;
    s.in_c = rng.coin() ? 4 * rng.uniform(1, 12) : rng.uniform(1, 23);
    s.out_c = s.in_c;
    const bool pairs = rng.uniform(0, 2) == 0;
    const bool three = pairs || rng.coin();
    s.kernel_h = three ? 3 : rng.uniform(1, 5);
    s.kernel_w = three ? 3 : rng.uniform(1, 5);
    p.depth_multiplier = 1;
    p.window.stride_h = rng.uniform(1, 3);
    p.window.stride_w = pairs ? rng.uniform(1, 2) : rng.uniform(1, 3);
    p.window.dilation_h = rng.uniform(0, pairs ? 3 : 7) == 0 ? 2 : 1;
    p.window.dilation_w = !pairs && rng.uniform(0, 7) == 0 ? 2 : 1;
    draw_padding(rng, pairs ? 1 : 2, &p.window);
    draw_input_extent(rng, p.window, pairs ? 20 : 8, &s);
    const bool common = rng.uniform(0, 3) != 0;
    draw_act_range16(rng, common, &p.act_min, &p.act_max);

    const int32_t in_count = s.batch * s.in_h * s.in_w * s.in_c;
    const int32_t out_count = s.batch * s.out_h * s.out_w * s.out_c;
    const int32_t filter_count = s.kernel_h * s.kernel_w * s.out_c;
    const bool has_bias = rng.uniform(0, 5) != 0;
    int16_t* input = a.alloc_array<int16_t>(in_count);
    int8_t* filter = a.alloc_array<int8_t>(filter_count);
    int64_t* bias = has_bias ? a.alloc_array<int64_t>(s.out_c) : nullptr;
    int32_t* multipliers = a.alloc_array<int32_t>(s.out_c);
    int32_t* shifts = a.alloc_array<int32_t>(s.out_c);
    int16_t* expected = a.alloc_array<int16_t>(out_count);
    int16_t* actual = a.alloc_array<int16_t>(out_count);
    uint32_t* scratch = a.alloc_array<uint32_t>(depthwise_conv2d_s16__dsp_scratch_bytes(s) / 4 + 1);
    if (input == nullptr || filter == nullptr || (has_bias && bias == nullptr) || multipliers == nullptr ||
        shifts == nullptr || expected == nullptr || actual == nullptr || scratch == nullptr) {
      skip_case(kName, c, "arena too small");
      continue;
    }
    fill_s16_operands(rng, input, in_count, filter, filter_count);
    if (has_bias) fill_bias16(rng, 64, bias, s.out_c);
    for (int32_t o = 0; o < s.out_c; ++o) {
      draw_requant16(rng, !common && rng.coin(), 14, &multipliers[o], &shifts[o]);
    }
    depthwise_conv2d_s16(p, multipliers, shifts, s, input, filter, bias, expected);
    depthwise_conv2d_s16__dsp(p, multipliers, shifts, s, input, filter, bias, actual, scratch);
    if (!expect_equal_s16(kName, c, common ? "common" : "any quantization", expected, actual,
                          static_cast<size_t>(out_count))) {
      ++failed;
    }
  }
  return failed;
}

}  // namespace mote::conformance
