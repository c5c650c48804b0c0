// Internal to kernels/pool2d: the integer AVERAGE_POOL_2D / MAX_POOL_2D shared by the
// int8 and int16 kernels, which differ only in the element type (TFLite's
// reference_integer_ops::AveragePool / MaxPool overloads for int8 and int16).
//
// Per output pixel the taps inside the image are found once (taps_inside); channels are
// reduced tap by tap so the innermost loop is contiguous. Average sums live in a small
// stack buffer of kChannelBlock int32s, so wide layers are processed in channel blocks.
#pragma once

#include <stdint.h>

#include "kernel_util.h"
#include "mote/kernel.h"
#include "pool2d/pool2d.h"
#include "quant/quant_check.h"
#include "quant/quant_math.h"

namespace mote {
namespace pool2d_integer {

constexpr int32_t kChannelBlock = 32;

// C division rounding half away from zero, as TFLite's average pool.
inline int32_t rounded_average(int32_t sum, int32_t count) {
  return sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count;
}

template <typename T, typename P>
void average(const P& params, const Pool2dShape& shape, const T* input, T* output) {
  const int32_t channels = shape.channels;
  const int32_t in_row_stride = shape.in_w * channels;
  const int32_t in_image_stride = shape.in_h * in_row_stride;
  int32_t sums[kChannelBlock];
  for (int32_t b = 0; b < shape.batch; ++b) {
    const T* image = input + b * in_image_stride;
    for (int32_t oy = 0; oy < shape.out_h; ++oy) {
      const int32_t y0 = oy * params.window.stride_h - params.window.pad_top;
      const TapRange ky = taps_inside(y0, 1, params.kernel_h, shape.in_h);
      for (int32_t ox = 0; ox < shape.out_w; ++ox) {
        const int32_t x0 = ox * params.window.stride_w - params.window.pad_left;
        const TapRange kx = taps_inside(x0, 1, params.kernel_w, shape.in_w);
        const int32_t count = (ky.end - ky.begin) * (kx.end - kx.begin);
        for (int32_t c0 = 0; c0 < channels; c0 += kChannelBlock) {
          const int32_t block = channels - c0 < kChannelBlock ? channels - c0 : kChannelBlock;
          for (int32_t c = 0; c < block; ++c) sums[c] = 0;
          for (int32_t y = ky.begin; y < ky.end; ++y) {
            const T* in_row = image + (y0 + y) * in_row_stride + c0;
            for (int32_t x = kx.begin; x < kx.end; ++x) {
              const T* in_px = in_row + (x0 + x) * channels;
              for (int32_t c = 0; c < block; ++c) sums[c] += in_px[c];
            }
          }
          for (int32_t c = 0; c < block; ++c) {
            output[c0 + c] = static_cast<T>(
                clamp_i32(rounded_average(sums[c], count), params.act_min, params.act_max));
          }
        }
        output += channels;
      }
    }
  }
}

template <typename T, typename P>
void max(const P& params, const Pool2dShape& shape, const T* input, T* output) {
  const int32_t channels = shape.channels;
  const int32_t in_row_stride = shape.in_w * channels;
  const int32_t in_image_stride = shape.in_h * in_row_stride;
  for (int32_t b = 0; b < shape.batch; ++b) {
    const T* image = input + b * in_image_stride;
    for (int32_t oy = 0; oy < shape.out_h; ++oy) {
      const int32_t y0 = oy * params.window.stride_h - params.window.pad_top;
      const TapRange ky = taps_inside(y0, 1, params.kernel_h, shape.in_h);
      for (int32_t ox = 0; ox < shape.out_w; ++ox) {
        const int32_t x0 = ox * params.window.stride_w - params.window.pad_left;
        const TapRange kx = taps_inside(x0, 1, params.kernel_w, shape.in_w);
        for (int32_t c = 0; c < channels; ++c) output[c] = static_cast<T>(IntRange<T>::kMin);
        for (int32_t y = ky.begin; y < ky.end; ++y) {
          const T* in_row = image + (y0 + y) * in_row_stride;
          for (int32_t x = kx.begin; x < kx.end; ++x) {
            const T* in_px = in_row + (x0 + x) * channels;
            for (int32_t c = 0; c < channels; ++c) {
              if (in_px[c] > output[c]) output[c] = in_px[c];
            }
          }
        }
        for (int32_t c = 0; c < channels; ++c) {
          output[c] = static_cast<T>(clamp_i32(output[c], params.act_min, params.act_max));
        }
        output += channels;
      }
    }
  }
}

// max_taps: the most cells a window may have (the caller's overflow bound, if any).
template <typename T, typename P>
Status check(const OpContext& ctx, int64_t max_taps) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 1, 1, 1));
  if (ctx.params_bytes() != sizeof(P)) return Status::kBadParams;
  const P& p = ctx.params<P>();
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  if (!has_dtype(in, IntRange<T>::kDType) || !has_dtype(out, IntRange<T>::kDType) ||
      in.rank != 4 || out.rank != 4) {
    return Status::kBadParams;
  }
  if (!index_math_fits(in) || !index_math_fits(out)) return Status::kBadParams;
  if (out.dims[0] != in.dims[0] || out.dims[3] != in.dims[3]) return Status::kBadParams;
  const WindowGeometry& w = p.window;
  if (w.dilation_h != 1 || w.dilation_w != 1) return Status::kBadParams;  // TFLite has none
  if (!valid_window(in.dims[1], out.dims[1], p.kernel_h, w.stride_h, 1, w.pad_top, w.pad_bottom,
                    false) ||
      !valid_window(in.dims[2], out.dims[2], p.kernel_w, w.stride_w, 1, w.pad_left, w.pad_right,
                    false)) {
    return Status::kBadParams;
  }
  // Every window overlaps a non-empty image: the first starts at -pad_begin > -kernel,
  // the last at most pad_end - kernel < 0 rows before the image's end.
  if (w.pad_top >= p.kernel_h || w.pad_bottom >= p.kernel_h || w.pad_left >= p.kernel_w ||
      w.pad_right >= p.kernel_w || in.dims[1] == 0 || in.dims[2] == 0) {
    return Status::kBadParams;
  }
  if (int64_t{p.kernel_h} * p.kernel_w > max_taps) return Status::kBadParams;
  if (!valid_quant_range<T>(p.act_min, p.act_max)) return Status::kBadParams;
  return Status::kOk;
}

// The largest value of one channel over a window of `rows` x `cols` taps (window: the
// channel's value at the first tap; `channels` values between columns, `row_stride`
// between rows), starting from T's lowest value: the last lone channel of the optimized
// max pools.
template <typename T>
inline int32_t channel_window_max(const T* window, int32_t rows, int32_t cols, int32_t channels,
                                  int32_t row_stride) {
  int32_t m = -(int32_t{1} << (8 * sizeof(T) - 1));  // -128 or -32768
  for (int32_t y = 0; y < rows; ++y, window += row_stride) {
    const T* px = window;
    for (int32_t x = 0; x < cols; ++x, px += channels)
      if (*px > m) m = *px;
  }
  return m;
}

template <typename T, typename P, void (*kPool)(const P&, const Pool2dShape&, const T*, T*)>
void run(const OpContext& ctx) {
  const Pool2dShape shape = pool2d_shape(ctx.input_desc(0), ctx.output_desc(0));
  kPool(ctx.params<P>(), shape, static_cast<const T*>(ctx.input_data(0)),
        static_cast<T*>(ctx.output_data(0)));
}

}  // namespace pool2d_integer
}  // namespace mote
