// Helium (MVE) int8 1x1 convolution (pointwise), bit-exact with conv2d_s8: kernel 1x1,
// no padding, groups == 1, any stride. Each output pixel's input pixel is a row of C
// contiguous bytes, so the op is a matrix product of pixel rows by filter rows
// (conv2d_s8_mve_rows.h: 2 pixels x 4 channels per block, a pixel of C <= 32 bytes
// loaded once per pixel pair, four outputs requantized per vector). The input offset is
// folded into a per-channel bias computed once per call into scratch (out_c int32).
//
// On a core without MVE the same code runs through the portable definitions of
// kernels/isa/mve.h.
#include "conv2d/conv2d.h"
#include "conv2d/conv2d_s8_mve_rows.h"
#include "conv2d/conv2d_shapes.h"
#include "kernel_util.h"
#include "quant/quant_check.h"

namespace mote {

uint32_t conv2d_s8_1x1__mve_scratch_bytes(int32_t out_c) {
  return static_cast<uint32_t>(out_c) * 4u;
}

namespace {

// The input pixel of each output pixel, in output order. With stride 1 the pixels are
// every k bytes of the input (one long row).
struct PixelWalk {
  const int8_t* image;
  const int8_t* row;
  int32_t ox, oy;
  int32_t out_w, out_h;
  int32_t col_step, row_step, image_step;

  const int8_t* next() {
    const int8_t* px = row + ox * col_step;
    if (++ox == out_w) {
      ox = 0;
      if (++oy == out_h) {
        oy = 0;
        image += image_step;
        row = image;
      } else {
        row += row_step;
      }
    }
    return px;
  }
};

template <int kVectors, bool kRightShifts, int kRowBytes>
__attribute__((always_inline)) inline void pointwise_pixels(const Conv2dS8MveRows& r,
                                                            PixelWalk walk, int32_t pixels,
                                                            int8_t* out) {
  const int32_t out_c = r.out_c;
  int32_t p = 0;
  for (; p + 2 <= pixels; p += 2) {
    const int8_t* x0 = walk.next();
    const int8_t* x1 = walk.next();
    conv2d_s8_mve_rows<kVectors, true, kRightShifts, kRowBytes>(r, x0, x1, out, out + out_c);
    out += 2 * out_c;
  }
  if (p < pixels) {
    conv2d_s8_mve_rows<kVectors, false, kRightShifts, kRowBytes>(r, walk.next(), nullptr, out,
                                                                 nullptr);
  }
}

// The rows with pixels in registers run on a local copy of r, which the output stores
// cannot alias (so its fields stay in registers); the long rows keep the reference
// (measured: fewer instructions there).
template <int kVectors, bool kRightShifts, int kRowBytes = 0>
void pointwise(const Conv2dS8MveRows& r, PixelWalk walk, int32_t pixels, int8_t* out) {
  if (kVectors > 0) {
    const Conv2dS8MveRows local = r;
    pointwise_pixels<kVectors, kRightShifts, kRowBytes>(local, walk, pixels, out);
  } else {
    pointwise_pixels<kVectors, kRightShifts, kRowBytes>(r, walk, pixels, out);
  }
}

}  // namespace

void conv2d_s8_1x1__mve(const Conv2dS8Params& params, const int32_t* multipliers,
                        const int32_t* shifts, const Conv2dShape& shape, const int8_t* input,
                        const int8_t* filter, const int32_t* bias, int8_t* output,
                        int32_t* scratch) {
  const int32_t k = shape.in_c;
  int32_t* bias_eff = scratch;
  conv2d_s8_mve_bias(filter, bias, shape.out_c, k, -params.input_zero_point, bias_eff);
  const Conv2dS8MveRows r = conv2d_s8_mve_rows_prepare(params, multipliers, shifts, filter,
                                                       bias_eff, shape.out_c, k);
  const int32_t pixels = shape.batch * shape.out_h * shape.out_w;
  const bool contiguous = params.window.stride_w == 1 && params.window.stride_h == 1;
  PixelWalk walk;
  walk.image = walk.row = input;
  walk.ox = walk.oy = 0;
  walk.out_w = contiguous ? pixels : shape.out_w;
  walk.out_h = contiguous ? 1 : shape.out_h;
  walk.col_step = params.window.stride_w * k;
  walk.row_step = params.window.stride_h * shape.in_w * k;
  walk.image_step = shape.in_h * shape.in_w * k;
  if (k <= 16) {
    if (r.right_shifts && k == 8) {
      pointwise<1, true, 8>(r, walk, pixels, output);
    } else if (r.right_shifts && k == 16) {
      pointwise<1, true, 16>(r, walk, pixels, output);
    } else if (r.right_shifts) {
      pointwise<1, true>(r, walk, pixels, output);
    } else {
      pointwise<1, false>(r, walk, pixels, output);
    }
  } else if (k <= 32) {
    if (r.right_shifts) {
      pointwise<2, true>(r, walk, pixels, output);
    } else {
      pointwise<2, false>(r, walk, pixels, output);
    }
  } else {
    pointwise<0, false>(r, walk, pixels, output);
  }
}

Status conv2d_s8_1x1__mve_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(conv2d_s8_check(ctx));
  const TensorDesc& filter = ctx.input_desc(1);
  const Conv2dS8Params& p = ctx.params<Conv2dS8Params>();
  if (filter.dims[1] != 1 || filter.dims[2] != 1 || p.groups != 1) return Status::kBadParams;
  if (p.window.pad_top != 0 || p.window.pad_left != 0 || p.window.pad_bottom != 0 || p.window.pad_right != 0) {
    return Status::kBadParams;
  }
  const Span<uint8_t> scratch = ctx.scratch();
  if (scratch.size() < conv2d_s8_1x1__mve_scratch_bytes(static_cast<int32_t>(filter.dims[0])) ||
      reinterpret_cast<uintptr_t>(scratch.data()) % 4 != 0) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void conv2d_s8_1x1__mve_run(const OpContext& ctx) {
  const Conv2dS8Operands o = conv2d_s8_operands(ctx);
  conv2d_s8_1x1__mve(o.params, o.multipliers, o.shifts, o.shape, o.input, o.filter, o.bias, o.output,
                     reinterpret_cast<int32_t*>(ctx.scratch().data()));
}

const KernelEntry kConv2dS81x1MveEntry = {conv2d_s8_1x1__mve_check, conv2d_s8_1x1__mve_run};

}  // namespace mote
