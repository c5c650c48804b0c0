// What the two int8 pointwise DSP kernels share (conv2d_s8_1x1__dsp.cc, the general one,
// and conv2d_s8_1x1_relu__dsp.cc, the records one): the walk over output pixels and the
// last single pixel. Inline functions, so a firmware linking both keeps one copy.
#pragma once

#include <stdint.h>

#include "conv2d/conv2d.h"
#include "conv2d/conv2d_s8_dsp_block.h"
#include "kernel_util.h"

namespace mote {
namespace conv2d_1x1_dsp {

// Output pixel p's input pixel (src), with its image, row and position (oy, ox) in the
// image, for a 1x1 window of any stride over batch * out_h * out_w output pixels.
struct PixelWalk {
  const int8_t* input;
  int32_t image_step, pixel_step, row_step, image_pixels, out_w, out_h;
  int32_t oy = 0, ox = 0;
  const int8_t* image = nullptr;
  const int8_t* row = nullptr;
  const int8_t* src = nullptr;

  PixelWalk(const Conv2dS8Params& params, const Conv2dShape& shape, const int8_t* in)
      : input(in),
        image_step(shape.in_h * shape.in_w * shape.in_c),
        pixel_step(params.window.stride_w * shape.in_c),
        row_step(params.window.stride_h * shape.in_w * shape.in_c),
        image_pixels(shape.out_h * shape.out_w),
        out_w(shape.out_w),
        out_h(shape.out_h),
        image(in),
        row(in),
        src(in) {}

  void seek(int32_t p) {
    const int32_t in_image = p % image_pixels;
    image = input + (p / image_pixels) * image_step;
    oy = in_image / out_w;
    ox = in_image % out_w;
    row = image + oy * row_step;
    src = row + ox * pixel_step;
  }
  void next() {
    if (++ox < out_w) {
      src += pixel_step;
      return;
    }
    ox = 0;
    if (++oy < out_h) {
      row += row_step;
    } else {
      oy = 0;
      image += image_step;
      row = image;
    }
    src = row;
  }
  // The block of 4 output pixels at p (moved back to end at block_pixels when fewer are
  // left: p becomes block_pixels - 4) expanded into the interleaved columns; the walk then
  // stands at the pixel after the block.
  void expand_block(int32_t& p, int32_t block_pixels, int32_t c, uint32_t offsets, uint32_t* columns) {
    if (p + conv2d_dsp::kBlockPixels > block_pixels) {
      p = block_pixels - conv2d_dsp::kBlockPixels;
      seek(p);
    }
    for (int32_t i = 0; i < conv2d_dsp::kBlockPixels; ++i) {
      conv2d_dsp::expand_into_column(src, c, offsets, columns, i, 0);
      next();
    }
  }
};

// A last single pixel when C % 16 == 0 and the filter is 4-aligned: its C values (plus
// the offset) as one contiguous int16 column (word 2g = (x[4g], x[4g+2]), word 2g + 1 =
// (x[4g+1], x[4g+3])), then per channel 16 MACs in 21 instructions on DSP cores (LDM of
// four weight words and of the column, SXTB16 of the weights, SMLAD).
inline bool single_fits(int32_t c, const int8_t* filter) {
  return c % 16 == 0 && c > 0 && (reinterpret_cast<uintptr_t>(filter) & 3u) == 0;
}

inline __attribute__((noinline)) void run_single_column(const int8_t* src, int32_t c, uint32_t offsets,
                                                        const int8_t* filter, const int32_t* bias,
                                                        int32_t out_c, const conv2d_dsp::OutputQuant& q,
                                                        uint32_t* column, int8_t* out) {
  for (int32_t g = 0; g < c / 4; ++g) {
    const uint32_t x = dsp::load_u32(src + 4 * g);
    column[2 * g] = dsp::sxtab16(offsets, x);
    column[2 * g + 1] = dsp::sxtab16_ror8(offsets, x);
  }
  const uint32_t* const column_end = column + c / 2;
  const uint32_t* w = reinterpret_cast<const uint32_t*>(filter);
  for (int32_t o = 0; o < out_c; ++o) {
    int32_t acc = bias != nullptr ? bias[o] : 0;
    const uint32_t* x = column;
#if MOTE_HAS_DSP
    register int32_t acc_r __asm__("r10") = acc;
    register const uint32_t* w_r __asm__("r11") = w;
    register const uint32_t* x_r __asm__("r12") = x;
    register const uint32_t* end_r __asm__("lr") = column_end;
    __asm__ volatile(
        "1:\n\t"
        "ldm %[w]!, {r0, r1, r2, r3}\n\t"
        "ldm %[x]!, {r4, r5, r6, r8}\n\t"
        "sxtb16 r9, r0\n\t"
        "sxtb16 r0, r0, ror #8\n\t"
        "smlad %[acc], r4, r9, %[acc]\n\t"
        "smlad %[acc], r5, r0, %[acc]\n\t"
        "sxtb16 r9, r1\n\t"
        "sxtb16 r1, r1, ror #8\n\t"
        "smlad %[acc], r6, r9, %[acc]\n\t"
        "smlad %[acc], r8, r1, %[acc]\n\t"
        "ldm %[x]!, {r4, r5, r6, r8}\n\t"
        "sxtb16 r9, r2\n\t"
        "sxtb16 r2, r2, ror #8\n\t"
        "smlad %[acc], r4, r9, %[acc]\n\t"
        "smlad %[acc], r5, r2, %[acc]\n\t"
        "sxtb16 r9, r3\n\t"
        "sxtb16 r3, r3, ror #8\n\t"
        "smlad %[acc], r6, r9, %[acc]\n\t"
        "smlad %[acc], r8, r3, %[acc]\n\t"
        "cmp %[x], %[end]\n\t"
        "bne 1b\n\t"
        : [acc] "+r"(acc_r), [w] "+r"(w_r), [x] "+r"(x_r)
        : [end] "r"(end_r)
        : "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r8", "r9", "cc", "memory");
    acc = acc_r;
    w = w_r;
#else
    do {
      const uint32_t wv = *w++;
      acc = dsp::smlad(x[0], dsp::sxtb16(wv), acc);
      acc = dsp::smlad(x[1], dsp::sxtb16_ror8(wv), acc);
      x += 2;
    } while (x != column_end);
#endif
    const int32_t v =
        wrapping_add(multiply_by_quantized_multiplier(acc, q.multipliers[o], q.shifts[o]),
                     q.zero_point);
    out[o] = static_cast<int8_t>(clamp_i32(v, q.act_min, q.act_max));
  }
}

// A last single output pixel (src its input): the contiguous column when it fits, else
// column 0 of the block (conv2d_dsp::run_single).
inline void run_last_pixel(const int8_t* src, int32_t c, uint32_t offsets, const int8_t* filter,
                           const int32_t* bias, int32_t out_c, const conv2d_dsp::OutputQuant& q,
                           uint32_t* columns, int8_t* out) {
  if (single_fits(c, filter)) {
    run_single_column(src, c, offsets, filter, bias, out_c, q, columns, out);
    return;
  }
  conv2d_dsp::expand_into_column(src, c, offsets, columns, 0, 0);
  conv2d_dsp::run_single(columns, c, filter, bias, out_c, q, out);
}

}  // namespace conv2d_1x1_dsp
}  // namespace mote
