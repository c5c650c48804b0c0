// ARMv6-M (Cortex-M0/M0+) 16x8 convolution (int16 activations, int8 weights), any KH x
// KW, stride, dilation and padding, groups == 1, both accumulator forms; bit-exact with
// conv2d_s16. Thumb-1 has no long multiply: the reference's int64 sums and int64
// requantization are library calls per product and per output. Here
//  - products are summed in int32 runs of at most kExactTaps16x8V6m (each product is
//    below 2^22 in magnitude, so a run's sum is exact) and only the run sums are added in
//    int64: one run per pixel for windows of up to 511 taps;
//  - four output channels per inner loop (v6m::dot_s16_4x1, 4 instructions per
//    multiply-accumulate): each input value is loaded once for four weights;
//  - with dilation_w == 1 the KW taps of a window row are KW * C consecutive values of
//    both the input row and the filter row, one inner loop each; taps_inside() (which
//    divides) only for pixels at the image border;
//  - with the int64 accumulator, when every channel's shift is <= -1 and
//    2^15 * sum|w| + |bias| < 2^31 (checked once per run: the whole window's sum is
//    then one exact int32), the bias folds into per-channel constants made once per run
//    in scratch and each output takes 13 instructions and the clamp
//    (requant64_v6m_fast, quant/quant_math64_v6m.h); otherwise each output takes
//    requant64_v6m_output (32-bit MULS while the sum plus bias fits int32, else the
//    reference). The int32 accumulator's requantization takes four MULS
//    (quant/quant_math_v6m.h).
// The int32 accumulator form keeps the low 32 bits of the same sums, which is the
// reference's wrapping sum. Scratch: 16 bytes per output channel, 4-aligned.
#include "conv2d/conv2d.h"
#include "conv2d/conv2d_shapes.h"
#include "conv2d/conv2d_v6m_runs.h"
#include "isa/v6m.h"
#include "kernel_util.h"
#include "quant/quant_check.h"
#include "quant/quant_math64_v6m.h"
#include "quant/quant_math_v6m.h"

namespace mote {
namespace {

// What every output value's requantization needs.
struct Output {
  const int32_t* multipliers;
  const int32_t* shifts;
  const void* bias;  // int64 (accumulator 64) or int32 (accumulator 32); may be null
  const Requant64V6mFast* fast;  // accumulator 64 on the fast path: out_c entries (scratch), else null
  bool wide;                     // accumulator 64
  int32_t act_min, act_max;
};

__attribute__((always_inline)) inline int16_t finish(int64_t sum, const Output& o, int32_t oc) {
  int32_t scaled;
  if (o.wide) {
    if (o.bias != nullptr) sum = wrapping_add64(sum, static_cast<const int64_t*>(o.bias)[oc]);
    scaled = requant64_v6m_any(sum, o.multipliers[oc], o.shifts[oc]);
  } else {
    uint32_t acc = static_cast<uint32_t>(static_cast<uint64_t>(sum));
    if (o.bias != nullptr) acc += static_cast<uint32_t>(static_cast<const int32_t*>(o.bias)[oc]);
    scaled = requant_v6m(static_cast<int32_t>(acc), requant_v6m_prepare(o.multipliers[oc], o.shifts[oc]));
  }
  return static_cast<int16_t>(clamp_i32(scaled, o.act_min, o.act_max));
}

// The window sums of kChannels (4 or 1) output channels, the first one's filter at
// `filter` and the next filter_oc_stride further: int32 runs of at most
// kExactTaps16x8V6m products, added into int64 sums.
template <int32_t kChannels>
__attribute__((always_inline)) inline void window_sums(const V6mRuns& r, const int16_t* x0,
                                                       const int8_t* filter,
                                                       int32_t filter_oc_stride,
                                                       int64_t sums[kChannels]) {
  uint32_t acc[kChannels] = {};
  int32_t pending = 0;  // products in acc since it was last added to sums
  for (int32_t j = 0; j < kChannels; ++j) sums[j] = 0;
  const int8_t* w_row = filter + r.w_first;
  const int16_t* x_row = x0;
  for (int32_t ry = 0; ry < r.rows; ++ry, w_row += r.w_row, x_row += r.x_row) {
    const int8_t* w = w_row;
    const int16_t* x = x_row;
    for (int32_t rx = 0; rx < r.cols; ++rx, w += r.w_col, x += r.x_col) {
      for (int32_t start = 0; start < r.len; start += kExactTaps16x8V6m) {
        const int32_t rest = r.len - start;
        const int32_t n = rest < kExactTaps16x8V6m ? rest : kExactTaps16x8V6m;
        if (pending + n > kExactTaps16x8V6m) {
          for (int32_t j = 0; j < kChannels; ++j) {
            sums[j] += static_cast<int32_t>(acc[j]);
            acc[j] = 0;
          }
          pending = 0;
        }
        if (kChannels == 4) {
          v6m::dot_s16_4x1(w + start, filter_oc_stride, x + start, n, acc);
        } else {
          acc[0] = v6m::dot_s16_1x1(w + start, x + start, n, acc[0]);
        }
        pending += n;
      }
    }
  }
  for (int32_t j = 0; j < kChannels; ++j) sums[j] += static_cast<int32_t>(acc[j]);
}

// The int64-accumulator output of channel oc from its exact int32 window sum.
__attribute__((always_inline)) inline int16_t finish_exact(int32_t sum, const Output& o, int32_t oc) {
  if (o.fast != nullptr) return static_cast<int16_t>(requant64_v6m_fast(sum, o.fast + oc, o.act_min, o.act_max));
  const int64_t* bias = static_cast<const int64_t*>(o.bias);
  return requant64_v6m_output(sum, bias != nullptr ? bias + oc : nullptr, o.multipliers[oc], o.shifts[oc],
                              o.act_min, o.act_max);
}

// The output channels of a pixel whose window is one run of n values (n <= 511 or the
// fast path: its int32 sums are exact), four at a time, on the fast path; returns how
// many it wrote (out_c rounded down to a multiple of 4). Out of line, with few arguments:
// GCC then keeps the block in registers.
__attribute__((noinline)) int32_t one_run(const int16_t* x, int32_t n, const int8_t* w,
                                          int32_t filter_oc_stride, int32_t out_c, const Output& o,
                                          int16_t* out) {
  const Requant64V6mFast* q = o.fast;
  const int32_t lo = o.act_min, hi = o.act_max;
  int16_t* const end = out + (out_c & ~3);
  for (; out != end; out += 4, q += 4, w += 4 * filter_oc_stride) {
    uint32_t acc[4] = {0, 0, 0, 0};
    v6m::dot_s16_4x1(w, filter_oc_stride, x, n, acc);
    out[0] = static_cast<int16_t>(requant64_v6m_fast<0>(static_cast<int32_t>(acc[0]), q, lo, hi));
    out[1] = static_cast<int16_t>(requant64_v6m_fast<1>(static_cast<int32_t>(acc[1]), q, lo, hi));
    out[2] = static_cast<int16_t>(requant64_v6m_fast<2>(static_cast<int32_t>(acc[2]), q, lo, hi));
    out[3] = static_cast<int16_t>(requant64_v6m_fast<3>(static_cast<int32_t>(acc[3]), q, lo, hi));
  }
  return out_c & ~3;
}

// Bytes of scratch for one window's copy: windows of more than one tap and at most
// kMaxWindowCopy values, else 0 (no copy).
constexpr int32_t kMaxWindowCopy = 1024;
inline uint32_t window_copy_bytes(int32_t kernel_h, int32_t kernel_w, int32_t in_c) {
  const int64_t values = int64_t{kernel_h} * kernel_w * in_c;
  if (int64_t{kernel_h} * kernel_w <= 1 || values > kMaxWindowCopy) return 0;
  return static_cast<uint32_t>((values * 2 + 3) & ~int64_t{3});
}

// The window of one pixel as one run of n values in the filter's layout: its taps inside
// the image copied, the others zero.
__attribute__((noinline)) void copy_window(const V6mRuns& r, const int16_t* image, int32_t n, int16_t* window) {
  if (r.rows * r.cols * r.len != n) {
    for (int32_t i = 0; i < n; ++i) window[i] = 0;
  }
  const int16_t* x_row = image + r.x_first;
  int16_t* d_row = window + r.w_first;
  for (int32_t ry = 0; ry < r.rows; ++ry, x_row += r.x_row, d_row += r.w_row) {
    const int16_t* x = x_row;
    int16_t* d = d_row;
    for (int32_t rx = 0; rx < r.cols; ++rx, x += r.x_col, d += r.w_col) {
      for (int32_t i = 0; i < r.len; ++i) d[i] = x[i];
    }
  }
}

// Every output channel of one pixel on the fast path whose window is the n values at x
// (a pointwise pixel or a window copy): one_run, then the last out_c % 4 channels.
void pointwise_pixel(const int16_t* x, const int8_t* filter, int32_t n, int32_t out_c, const Output& o,
                     int16_t* out) {
  for (int32_t oc = one_run(x, n, filter, n, out_c, o, out); oc < out_c; ++oc) {
    const uint32_t sum = v6m::dot_s16_1x1(filter + oc * n, x, n, 0);
    out[oc] = finish_exact(static_cast<int32_t>(sum), o, oc);
  }
}

// Every output channel of one pixel, four channels per inner loop then one at a time.
// On the fast path, and for windows of at most kExactTaps16x8V6m taps with the int64
// accumulator, each channel sums in one int32 accumulator; others take window_sums'
// int64 runs.
__attribute__((noinline)) void pixel(const V6mRuns& r, const int16_t* image, const int8_t* filter,
                                     int32_t filter_oc_stride, int32_t out_c, const Output& o,
                                     int16_t* out) {
  const int16_t* x0 = image + r.x_first;
  int32_t oc = 0;
  if (o.fast != nullptr && r.rows == 1 && r.cols == 1) {  // one run (1x1)
    oc = one_run(x0, r.len, filter + r.w_first, filter_oc_stride, out_c, o, out);
  } else if (o.fast != nullptr || (o.wide && r.rows * r.cols * r.len <= kExactTaps16x8V6m)) {
    for (; oc + 3 < out_c; oc += 4) {
      uint32_t acc[4] = {0, 0, 0, 0};
      const int8_t* w_row = filter + oc * filter_oc_stride + r.w_first;
      const int16_t* x_row = x0;
      for (int32_t ry = 0; ry < r.rows; ++ry, w_row += r.w_row, x_row += r.x_row) {
        const int8_t* w = w_row;
        const int16_t* x = x_row;
        for (int32_t rx = 0; rx < r.cols; ++rx, w += r.w_col, x += r.x_col) {
          v6m::dot_s16_4x1(w, filter_oc_stride, x, r.len, acc);
        }
      }
      out[oc] = finish_exact(static_cast<int32_t>(acc[0]), o, oc);
      out[oc + 1] = finish_exact(static_cast<int32_t>(acc[1]), o, oc + 1);
      out[oc + 2] = finish_exact(static_cast<int32_t>(acc[2]), o, oc + 2);
      out[oc + 3] = finish_exact(static_cast<int32_t>(acc[3]), o, oc + 3);
    }
  }
  for (; oc + 3 < out_c; oc += 4) {
    int64_t sums[4];
    window_sums<4>(r, x0, filter + oc * filter_oc_stride, filter_oc_stride, sums);
    for (int32_t j = 0; j < 4; ++j) out[oc + j] = finish(sums[j], o, oc + j);
  }
  for (; oc < out_c; ++oc) {
    int64_t sum[1];
    window_sums<1>(r, x0, filter + oc * filter_oc_stride, filter_oc_stride, sum);
    out[oc] = finish(sum[0], o, oc);
  }
}

}  // namespace

uint32_t conv2d_s16__v6m_scratch_bytes(int32_t out_c, int32_t kernel_h, int32_t kernel_w, int32_t in_c) {
  return static_cast<uint32_t>(out_c) * static_cast<uint32_t>(sizeof(Requant64V6mFast)) +
         window_copy_bytes(kernel_h, kernel_w, in_c);
}

void conv2d_s16__v6m(const Conv2dS16Params& params, const int32_t* multipliers,
                     const int32_t* shifts, const Conv2dShape& shape, const int16_t* input,
                     const int8_t* filter, const void* bias, int16_t* output, uint8_t* scratch) {
  const int32_t in_image_stride = shape.in_h * shape.in_w * shape.in_c;
  const int32_t filter_oc_stride = shape.kernel_h * shape.kernel_w * shape.in_c;
  const bool wide = params.accumulator != 32;
  Requant64V6mFast* fast = nullptr;
  if (wide) {
    fast = reinterpret_cast<Requant64V6mFast*>(scratch);
    const int64_t* b = static_cast<const int64_t*>(bias);
    for (int32_t oc = 0; oc < shape.out_c && fast != nullptr; ++oc) {
      const int64_t bo = b != nullptr ? b[oc] : 0;
      const uint32_t bound = v6m_abs_weight_bound(filter + oc * filter_oc_stride, filter_oc_stride, 1, bo);
      if (!requant64_v6m_fast_channel(multipliers[oc], shifts[oc], bo, bound, fast + oc)) {
        fast = nullptr;
      }
    }
  }
  const Output o = {multipliers, shifts, bias, fast, wide, params.act_min, params.act_max};
  const WindowGeometry& g = params.window;
  if (fast != nullptr && filter_oc_stride == shape.in_c && g.stride_h == 1 && g.stride_w == 1 && g.pad_top == 0 &&
      g.pad_left == 0 && shape.out_h == shape.in_h && shape.out_w == shape.in_w) {
    // Pointwise over every pixel: each pixel's window is its own in_c values.
    const int32_t pixels = shape.batch * shape.in_h * shape.in_w;
    for (int32_t px = 0; px < pixels; ++px, input += shape.in_c, output += shape.out_c) {
      pointwise_pixel(input, filter, shape.in_c, shape.out_c, o, output);
    }
    return;
  }
  if (fast != nullptr && window_copy_bytes(shape.kernel_h, shape.kernel_w, shape.in_c) != 0) {
    // Each window copied (zeros for taps outside the image) into one run of
    // filter_oc_stride values laid out as the filter: then one_run's single inner loop.
    int16_t* window =
        reinterpret_cast<int16_t*>(scratch + static_cast<uint32_t>(shape.out_c) * sizeof(Requant64V6mFast));
    for_each_v6m_window(params.window, shape, [&](const V6mRuns& r, int32_t b) {
      copy_window(r, input + b * in_image_stride, filter_oc_stride, window);
      pointwise_pixel(window, filter, filter_oc_stride, shape.out_c, o, output);
      output += shape.out_c;
    });
    return;
  }
  for_each_v6m_window(params.window, shape, [&](const V6mRuns& r, int32_t b) {
    pixel(r, input + b * in_image_stride, filter, filter_oc_stride, shape.out_c, o, output);
    output += shape.out_c;
  });
}

Status conv2d_s16__v6m_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(conv2d_s16_check(ctx));
  if (ctx.params<Conv2dS16Params>().groups != 1) return Status::kBadParams;
  const Span<uint8_t> scratch = ctx.scratch();
  const TensorDesc& filter = ctx.input_desc(1);
  const uint32_t needed =
      conv2d_s16__v6m_scratch_bytes(static_cast<int32_t>(filter.dims[0]), static_cast<int32_t>(filter.dims[1]),
                                    static_cast<int32_t>(filter.dims[2]), static_cast<int32_t>(filter.dims[3]));
  if (scratch.size() < needed ||
      reinterpret_cast<uintptr_t>(scratch.data()) % 4 != 0) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void conv2d_s16__v6m_run(const OpContext& ctx) {
  const TensorDesc& filter = ctx.input_desc(1);
  const Conv2dShape shape = window_shape(ctx.input_desc(0), filter, ctx.output_desc(0));
  const Conv2dS16Params& p = ctx.params<Conv2dS16Params>();
  const uint32_t out_c = filter.dims[0];
  const void* bias = ctx.input_count() == 3 ? ctx.input_data(2) : nullptr;
  conv2d_s16__v6m(p, params_array(p, 0, out_c), params_array(p, 1, out_c), shape,
                  static_cast<const int16_t*>(ctx.input_data(0)),
                  static_cast<const int8_t*>(ctx.input_data(1)), bias,
                  static_cast<int16_t*>(ctx.output_data(0)), ctx.scratch().data());
}

const KernelEntry kConv2dS16V6mEntry = {conv2d_s16__v6m_check, conv2d_s16__v6m_run};

}  // namespace mote
