// Helium (MVE) int8 convolution, any KH x KW, stride, dilation and padding, groups == 1,
// bit-exact with conv2d_s8. Output pixels are taken two at a time: each one's window is
// copied into an im2col row of K = KH * KW * C bytes in scratch (taps outside the image
// written as input_zero_point, i.e. x + input_offset == 0, so they add nothing, as the
// reference's skipped taps; windows inside the image copied as KH runs of KW * C bytes),
// then both rows go through the matrix product of
// conv2d_s8_mve_rows.h (2 pixels x 4 channels per block, four outputs requantized per
// vector). The input offset is folded into a per-channel bias computed once per call.
//
// Scratch: out_c int32 (that bias), rounded up to 16 bytes, then two rows of K bytes.
// On a core without MVE the same code runs through the portable definitions of
// kernels/isa/mve.h.
#include "conv2d/conv2d.h"
#include "conv2d/conv2d_s8_mve_rows.h"
#include "conv2d/conv2d_shapes.h"
#include "isa/mve.h"
#include "kernel_util.h"
#include "quant/quant_check.h"

namespace mote {
namespace {

uint32_t bias_bytes(int32_t out_c) { return (static_cast<uint32_t>(out_c) * 4u + 15u) & ~15u; }

// n bytes from src to dst, 16 at a time (the last step predicated).
void copy_bytes(int8_t* dst, const int8_t* src, int32_t n) {
  for (; n > 0; n -= 16, src += 16, dst += 16) {
    const mve::mve_pred16_t p = mve::vctp8q(static_cast<uint32_t>(n));
    mve::vstrbq_p_s8(dst, mve::vldrbq_z_s8(src, p), p);
  }
}

// n bytes of dst set to every lane of value.
void fill_bytes(int8_t* dst, mve::int8x16_t value, int32_t n) {
  for (; n > 0; n -= 16, dst += 16) {
    mve::vstrbq_p_s8(dst, value, mve::vctp8q(static_cast<uint32_t>(n)));
  }
}

// The window of output pixel (oy, ox) of `image` as one row of K bytes.
void im2col_row(const Conv2dS8Params& params, const Conv2dShape& shape, const int8_t* image,
                int32_t oy, int32_t ox, int8_t* row) {
  const int32_t c = shape.in_c;
  const int32_t row_bytes = shape.kernel_w * c;
  const mve::int8x16_t pad = mve::vdupq_n_s8(static_cast<int8_t>(params.input_zero_point));
  const int32_t y0 = oy * params.window.stride_h - params.window.pad_top;
  const int32_t x0 = ox * params.window.stride_w - params.window.pad_left;
  const bool x_inside = x0 >= 0 && x0 + (shape.kernel_w - 1) * params.window.dilation_w < shape.in_w;
  for (int32_t ky = 0; ky < shape.kernel_h; ++ky, row += row_bytes) {
    const int32_t y = y0 + ky * params.window.dilation_h;
    if (y < 0 || y >= shape.in_h) {
      fill_bytes(row, pad, row_bytes);
      continue;
    }
    const int8_t* in_row = image + y * shape.in_w * c;
    if (x_inside && params.window.dilation_w == 1) {
      copy_bytes(row, in_row + x0 * c, row_bytes);
      continue;
    }
    if (params.window.dilation_w == 1) {
      // Taps [lo, hi) inside the row: padding, one run of input, padding.
      const int32_t lo = x0 < 0 ? (-x0 < shape.kernel_w ? -x0 : shape.kernel_w) : 0;
      int32_t hi = shape.in_w - x0;
      hi = hi > shape.kernel_w ? shape.kernel_w : (hi < lo ? lo : hi);
      fill_bytes(row, pad, lo * c);
      copy_bytes(row + lo * c, in_row + (x0 + lo) * c, (hi - lo) * c);
      fill_bytes(row + hi * c, pad, (shape.kernel_w - hi) * c);
      continue;
    }
    for (int32_t kx = 0; kx < shape.kernel_w; ++kx) {
      const int32_t x = x0 + kx * params.window.dilation_w;
      if (x < 0 || x >= shape.in_w) {
        fill_bytes(row + kx * c, pad, c);
      } else {
        copy_bytes(row + kx * c, in_row + x * c, c);
      }
    }
  }
}

// Every output pixel, two at a time: their windows into row0 and row1, then the
// matrix product. A window wholly inside the image with dilation_w 1 is KH runs of
// KW * C contiguous input bytes, copied run by run (one predicated load and store per
// run of at most 16 bytes); the other windows go through im2col_row.
template <int kVectors, bool kRightShifts>
__attribute__((always_inline)) inline void windows_of(const Conv2dS8Params& params,
                                                      const Conv2dShape& shape,
                                                      const Conv2dS8MveRows& r,
                                                      const int8_t* input, int8_t* row0,
                                                      int8_t* row1, int8_t* out) {
  const int32_t c = shape.in_c;
  const int32_t image_step = shape.in_h * shape.in_w * c;
  const int32_t pixels = shape.batch * shape.out_h * shape.out_w;
  const int32_t out_c = shape.out_c;
  const int32_t run = shape.kernel_w * c;
  const int32_t run_step = params.window.dilation_h * shape.in_w * c;
  const int32_t span_h = (shape.kernel_h - 1) * params.window.dilation_h + 1;
  const int32_t span_w = (shape.kernel_w - 1) * params.window.dilation_w + 1;
  const bool runs = params.window.dilation_w == 1;
  const bool short_runs = run <= 16;
  const mve::mve_pred16_t run_pred = mve::vctp8q(static_cast<uint32_t>(run));
  int32_t oy = 0, ox = 0;
  const int8_t* image = input;
  int32_t y0 = -params.window.pad_top;
  bool y_inside = y0 >= 0 && y0 + span_h <= shape.in_h;
  auto next_pixel = [&](int8_t* row) __attribute__((always_inline)) {
    const int32_t x0 = ox * params.window.stride_w - params.window.pad_left;
    if (y_inside && runs && x0 >= 0 && x0 + span_w <= shape.in_w) {
      const int8_t* src = image + (y0 * shape.in_w + x0) * c;
      if (short_runs) {
        for (int32_t ky = 0; ky < shape.kernel_h; ++ky, src += run_step, row += run) {
          mve::vstrbq_p_s8(row, mve::vldrbq_z_s8(src, run_pred), run_pred);
        }
      } else {
        for (int32_t ky = 0; ky < shape.kernel_h; ++ky, src += run_step, row += run) {
          copy_bytes(row, src, run);
        }
      }
    } else {
      im2col_row(params, shape, image, oy, ox, row);
    }
    if (++ox == shape.out_w) {
      ox = 0;
      if (++oy == shape.out_h) {
        oy = 0;
        image += image_step;
      }
      y0 = oy * params.window.stride_h - params.window.pad_top;
      y_inside = y0 >= 0 && y0 + span_h <= shape.in_h;
    }
  };
  int32_t p = 0;
  for (; p + 2 <= pixels; p += 2) {
    next_pixel(row0);
    next_pixel(row1);
    conv2d_s8_mve_rows<kVectors, true, kRightShifts>(r, row0, row1, out, out + out_c);
    out += 2 * out_c;
  }
  if (p < pixels) {
    next_pixel(row0);
    conv2d_s8_mve_rows<kVectors, false, kRightShifts>(r, row0, nullptr, out, nullptr);
  }
}

// The rows with pixels in registers run on a local copy of r, which the output stores
// cannot alias (so its fields stay in registers); the long rows keep the reference
// (measured: fewer instructions there).
template <int kVectors, bool kRightShifts>
void windows(const Conv2dS8Params& params, const Conv2dShape& shape, const Conv2dS8MveRows& r,
             const int8_t* input, int8_t* row0, int8_t* row1, int8_t* out) {
  if (kVectors > 0) {
    const Conv2dS8MveRows local = r;
    windows_of<kVectors, kRightShifts>(params, shape, local, input, row0, row1, out);
  } else {
    windows_of<kVectors, kRightShifts>(params, shape, r, input, row0, row1, out);
  }
}

}  // namespace

uint32_t conv2d_s8__mve_scratch_bytes(int32_t out_c, int32_t kernel_h, int32_t kernel_w,
                                      int32_t in_c) {
  return bias_bytes(out_c) + 2u * static_cast<uint32_t>(kernel_h * kernel_w * in_c);
}

void conv2d_s8__mve(const Conv2dS8Params& params, const int32_t* multipliers,
                    const int32_t* shifts, const Conv2dShape& shape, const int8_t* input,
                    const int8_t* filter, const int32_t* bias, int8_t* output,
                    uint8_t* scratch) {
  const int32_t k = shape.kernel_h * shape.kernel_w * shape.in_c;
  int32_t* bias_eff = reinterpret_cast<int32_t*>(scratch);
  int8_t* row0 = reinterpret_cast<int8_t*>(scratch + bias_bytes(shape.out_c));
  int8_t* row1 = row0 + k;
  conv2d_s8_mve_bias(filter, bias, shape.out_c, k, -params.input_zero_point, bias_eff);
  const Conv2dS8MveRows r = conv2d_s8_mve_rows_prepare(params, multipliers, shifts, filter,
                                                       bias_eff, shape.out_c, k);
  if (k <= 16) {
    if (r.right_shifts) {
      windows<1, true>(params, shape, r, input, row0, row1, output);
    } else {
      windows<1, false>(params, shape, r, input, row0, row1, output);
    }
  } else if (k <= 32) {
    if (r.right_shifts) {
      windows<2, true>(params, shape, r, input, row0, row1, output);
    } else {
      windows<2, false>(params, shape, r, input, row0, row1, output);
    }
  } else if (k <= 48) {
    if (r.right_shifts) {
      windows<3, true>(params, shape, r, input, row0, row1, output);
    } else {
      windows<3, false>(params, shape, r, input, row0, row1, output);
    }
  } else {
    windows<0, false>(params, shape, r, input, row0, row1, output);
  }
}

Status conv2d_s8__mve_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(conv2d_s8_check(ctx));
  const TensorDesc& filter = ctx.input_desc(1);
  const Conv2dS8Params& p = ctx.params<Conv2dS8Params>();
  if (p.groups != 1) return Status::kBadParams;
  const uint64_t k = uint64_t{filter.dims[1]} * filter.dims[2] * filter.dims[3];
  const uint64_t needed = bias_bytes(static_cast<int32_t>(filter.dims[0])) + 2u * k;
  const Span<uint8_t> scratch = ctx.scratch();
  if (scratch.size() < needed || reinterpret_cast<uintptr_t>(scratch.data()) % 4 != 0) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void conv2d_s8__mve_run(const OpContext& ctx) {
  const Conv2dS8Operands o = conv2d_s8_operands(ctx);
  conv2d_s8__mve(o.params, o.multipliers, o.shifts, o.shape, o.input, o.filter, o.bias, o.output,
                 ctx.scratch().data());
}

const KernelEntry kConv2dS8MveEntry = {conv2d_s8__mve_check, conv2d_s8__mve_run};

}  // namespace mote
