// Conformance of conv2d_s16__dsp (any kernel, stride, dilation, padding; groups 1; int64
// and int32 accumulators) against conv2d_s16: input channels multiple of 4 (columns
// straight from the image) and not (gathered windows), 1x1 and larger windows, windows
// of K 8 and 16 (the small-window chunks of 16 pixels, partial last chunks), padding
// 0-2 per side, strides 1-3, dilation, batch 2, partial pixel blocks, K past one exact
// SMLAD chunk (508 taps), odd out_c; mostly the common quantization (shifts in [-17, -1],
// small int64 bias: the one-SMMULR path), sometimes any shift and multiplier, biases
// near the int32 bound or beyond it, full-scale int16 inputs, no bias, ReLU and any clamp.
#include "conformance.h"
#include "conv2d/conv2d.h"
#include "s16_cases.h"
#include "window_cases.h"

namespace mote::conformance {
int run_conv2d_s16__dsp(Rng& rng, int cases) {
  static const char kName[] = "conv2d_s16__dsp";
  int failed = 0;
  for (int c = 0; c < cases; ++c) {
    Arena& a = arena();
    a.reset();
    Conv2dShape s;
    Conv2dS16Params p;
    const int32_t kind = rng.uniform(0, 7);
    s.batch = rng.uniform(0, 5) == 0 ? 2 : 1;
    s.in_c = rng.coin() ? 4 * rng.uniform(1, 12) : rng.uniform(1, 19);
    s.out_c = rng.uniform(1, 20);
    if (kind == 0) {  // long windows: K past one exact SMLAD chunk
      s.in_c = rng.coin() ? 4 * rng.uniform(40, 90) : rng.uniform(150, 300);
      s.kernel_h = rng.uniform(1, 2);
      s.kernel_w = rng.uniform(1, 2);
      s.out_c = rng.uniform(1, 6);
    } else if (kind <= 3) {  // pointwise; K 8 or 16 take the small-window chunks
      s.kernel_h = 1;
      s.kernel_w = 1;
      if (kind == 1) s.in_c = rng.coin() ? 8 : 16;
    } else if (kind == 4) {  // other windows of K 8 or 16 (gathered when C % 4 != 0)
      s.kernel_h = 2;
      s.kernel_w = rng.coin() ? 1 : 2;
      s.in_c = (rng.coin() ? 8 : 16) / (s.kernel_h * s.kernel_w);
    } else {
      s.kernel_h = rng.uniform(1, 5);
      s.kernel_w = rng.uniform(1, 5);
    }
    p.groups = 1;
    p.accumulator = rng.uniform(0, 4) == 0 ? 32 : 64;
    p.window.stride_h = rng.uniform(1, 3);
    p.window.stride_w = rng.uniform(1, 3);
    p.window.dilation_h = rng.uniform(0, 7) == 0 ? 2 : 1;
    p.window.dilation_w = rng.uniform(0, 7) == 0 ? 2 : 1;
    if (kind == 1 && rng.coin()) {  // 1x1 over contiguous pixels (stride 1, no padding)
      p.window.stride_h = 1;
      p.window.stride_w = 1;
    }
    const bool padded = kind == 1 ? rng.uniform(0, 3) == 0 : rng.coin();
    p.window.pad_top = padded ? rng.uniform(0, 2) : 0;
    p.window.pad_left = padded ? rng.uniform(0, 2) : 0;
    p.window.pad_bottom = padded ? rng.uniform(0, 2) : 0;
    p.window.pad_right = padded ? rng.uniform(0, 2) : 0;
    const int32_t extra = kind == 0 ? 2 : 7;
    draw_input_extent(rng, p.window, extra, &s);
    const bool common = rng.uniform(0, 3) != 0;
    draw_act_range16(rng, common, &p.act_min, &p.act_max);

    const int32_t k = s.kernel_h * s.kernel_w * s.in_c;
    const int32_t in_count = s.batch * s.in_h * s.in_w * s.in_c;
    const int32_t out_count = s.batch * s.out_h * s.out_w * s.out_c;
    const bool has_bias = rng.uniform(0, 5) != 0;
    int16_t* input = a.alloc_array<int16_t>(in_count);
    int8_t* filter = a.alloc_array<int8_t>(s.out_c * k);
    void* bias = nullptr;
    if (has_bias) bias = p.accumulator == 64 ? a.alloc(8u * s.out_c, 8) : a.alloc(4u * s.out_c, 4);
    int32_t* multipliers = a.alloc_array<int32_t>(s.out_c);
    int32_t* shifts = a.alloc_array<int32_t>(s.out_c);
    int16_t* expected = a.alloc_array<int16_t>(out_count);
    int16_t* actual = a.alloc_array<int16_t>(out_count);
    uint8_t* scratch = a.alloc_array<uint8_t>(
        conv2d_s16__dsp_scratch_bytes(s.out_c, s.kernel_h, s.kernel_w, s.in_c));
    if (input == nullptr || filter == nullptr || (has_bias && bias == nullptr) ||
        multipliers == nullptr || shifts == nullptr || expected == nullptr || actual == nullptr ||
        scratch == nullptr) {
      skip_case(kName, c, "arena too small");
      continue;
    }
    fill_s16_operands(rng, input, in_count, filter, s.out_c * k);
    if (has_bias) fill_bias16(rng, p.accumulator, bias, s.out_c);
    const int32_t max_shift = p.accumulator == 64 ? 14 : 30;
    for (int32_t o = 0; o < s.out_c; ++o) {
      draw_requant16(rng, !common && rng.coin(), max_shift, &multipliers[o], &shifts[o]);
      if (!common && rng.uniform(0, 3) == 0) shifts[o] = rng.coin() ? -18 : 0;
    }
    conv2d_s16(p, multipliers, shifts, s, input, filter, bias, expected);
    conv2d_s16__dsp(p, multipliers, shifts, s, input, filter, bias, actual, scratch);
    if (!expect_equal_s16(kName, c, p.accumulator == 64 ? "int64 accumulator" : "int32 accumulator",
                          expected, actual, static_cast<size_t>(out_count))) {
      ++failed;
    }
  }
  return failed;
}

}  // namespace mote::conformance
