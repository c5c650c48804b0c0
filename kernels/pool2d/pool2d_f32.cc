// Reference float32 average, max and L2 pooling (NHWC). For each output pixel the taps inside
// the image are found once (taps_inside); channels are reduced in the output buffer,
// tap by tap, so the innermost loop is contiguous.
//
// A window with no tap inside the image (possible only with ceil_mode or pads larger
// than the kernel) yields 0 for average and L2 pooling and -inf for max pooling, before
// the activation clamp. L2 pooling (TFLite's reference_ops::L2Pool) sums the squares of the
// taps inside the image in window order, then takes sqrtf(sum / count).
#include <math.h>

#include "kernel_util.h"
#include "pool2d/pool2d.h"

namespace mote {
namespace {

// The reduction a pool applies over its window.
enum class PoolKind { kAverage, kMax, kL2 };

template <PoolKind kKind>
void pool2d_f32(const Pool2dParams& params, const Pool2dShape& shape, const float* input,
                float* output) {
  const int32_t channels = shape.channels;
  const int32_t in_row_stride = shape.in_w * channels;
  const int32_t in_image_stride = shape.in_h * in_row_stride;
  // The window region that count_include_pad counts: [-pad_top, in_h + pad_bottom).
  const int32_t padded_h = shape.in_h + params.window.pad_top + params.window.pad_bottom;
  const int32_t padded_w = shape.in_w + params.window.pad_left + params.window.pad_right;

  for (int32_t b = 0; b < shape.batch; ++b) {
    const float* image = input + b * in_image_stride;
    for (int32_t oy = 0; oy < shape.out_h; ++oy) {
      const int32_t y0 = oy * params.window.stride_h - params.window.pad_top;
      const TapRange ky_range = taps_inside(y0, params.window.dilation_h, params.kernel_h, shape.in_h);
      const TapRange ky_padded =
          taps_inside(y0 + params.window.pad_top, params.window.dilation_h, params.kernel_h, padded_h);
      for (int32_t ox = 0; ox < shape.out_w; ++ox) {
        const int32_t x0 = ox * params.window.stride_w - params.window.pad_left;
        const TapRange kx_range =
            taps_inside(x0, params.window.dilation_w, params.kernel_w, shape.in_w);
        const float init = kKind == PoolKind::kMax ? -INFINITY : 0.0f;
        for (int32_t c = 0; c < channels; ++c) output[c] = init;

        for (int32_t ky = ky_range.begin; ky < ky_range.end; ++ky) {
          const float* in_row = image + (y0 + ky * params.window.dilation_h) * in_row_stride;
          for (int32_t kx = kx_range.begin; kx < kx_range.end; ++kx) {
            const float* in_px = in_row + (x0 + kx * params.window.dilation_w) * channels;
            if constexpr (kKind == PoolKind::kMax) {
              for (int32_t c = 0; c < channels; ++c) {
                if (in_px[c] > output[c]) output[c] = in_px[c];
              }
            } else if constexpr (kKind == PoolKind::kL2) {
              for (int32_t c = 0; c < channels; ++c) output[c] += in_px[c] * in_px[c];
            } else {
              for (int32_t c = 0; c < channels; ++c) output[c] += in_px[c];
            }
          }
        }

        float scale = 1.0f;
        if constexpr (kKind == PoolKind::kAverage) {
          // Tap counts multiply as floats: exact below 2^24 and cannot overflow.
          float count;
          if (params.count_include_pad != 0) {
            const TapRange kx_padded =
                taps_inside(x0 + params.window.pad_left, params.window.dilation_w, params.kernel_w, padded_w);
            count = static_cast<float>(ky_padded.end - ky_padded.begin) *
                    static_cast<float>(kx_padded.end - kx_padded.begin);
          } else {
            count = static_cast<float>(ky_range.end - ky_range.begin) *
                    static_cast<float>(kx_range.end - kx_range.begin);
          }
          scale = count > 0.0f ? 1.0f / count : 0.0f;
        }
        if constexpr (kKind == PoolKind::kL2) {
          const int32_t count = (ky_range.end - ky_range.begin) * (kx_range.end - kx_range.begin);
          for (int32_t c = 0; c < channels; ++c) {
            const float l2 = count > 0 ? sqrtf(output[c] / static_cast<float>(count)) : 0.0f;
            output[c] = clamp_value(l2, params.act_min, params.act_max);
          }
        } else {
          for (int32_t c = 0; c < channels; ++c) {
            output[c] = clamp_value(output[c] * scale, params.act_min, params.act_max);
          }
        }
        output += channels;
      }
    }
  }
}

template <void (*kPool)(const Pool2dParams&, const Pool2dShape&, const float*, float*)>
void pool2d_f32_run(const OpContext& ctx) {
  const Pool2dShape shape = pool2d_shape(ctx.input_desc(0), ctx.output_desc(0));
  kPool(ctx.params<Pool2dParams>(), shape, static_cast<const float*>(ctx.input_data(0)),
        static_cast<float*>(ctx.output_data(0)));
}

}  // namespace

void avg_pool2d_f32(const Pool2dParams& params, const Pool2dShape& shape, const float* input,
                    float* output) {
  pool2d_f32<PoolKind::kAverage>(params, shape, input, output);
}

void max_pool2d_f32(const Pool2dParams& params, const Pool2dShape& shape, const float* input,
                    float* output) {
  pool2d_f32<PoolKind::kMax>(params, shape, input, output);
}

void l2_pool2d_f32(const Pool2dParams& params, const Pool2dShape& shape, const float* input,
                   float* output) {
  pool2d_f32<PoolKind::kL2>(params, shape, input, output);
}

Status pool2d_f32_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 1, 1, 1));
  if (ctx.params_bytes() != sizeof(Pool2dParams)) return Status::kBadParams;
  const Pool2dParams& p = ctx.params<Pool2dParams>();
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  if (!is_f32(in) || !is_f32(out) || in.rank != 4 || out.rank != 4) return Status::kBadParams;
  if (!index_math_fits(in) || !index_math_fits(out)) return Status::kBadParams;
  if (out.dims[0] != in.dims[0] || out.dims[3] != in.dims[3]) return Status::kBadParams;
  if (!valid_window(in.dims[1], out.dims[1], p.kernel_h, p.window.stride_h, p.window.dilation_h, p.window.pad_top,
                    p.window.pad_bottom, true) ||
      !valid_window(in.dims[2], out.dims[2], p.kernel_w, p.window.stride_w, p.window.dilation_w, p.window.pad_left,
                    p.window.pad_right, true)) {
    return Status::kBadParams;
  }
  if (p.count_include_pad != 0 && p.count_include_pad != 1) return Status::kBadParams;
  if (!valid_act_range(p.act_min, p.act_max)) return Status::kBadParams;
  return Status::kOk;
}

void avg_pool2d_f32_run(const OpContext& ctx) { pool2d_f32_run<avg_pool2d_f32>(ctx); }
void max_pool2d_f32_run(const OpContext& ctx) { pool2d_f32_run<max_pool2d_f32>(ctx); }
void l2_pool2d_f32_run(const OpContext& ctx) { pool2d_f32_run<l2_pool2d_f32>(ctx); }

const KernelEntry kAvgPool2dF32Entry = {pool2d_f32_check, avg_pool2d_f32_run};
const KernelEntry kMaxPool2dF32Entry = {pool2d_f32_check, max_pool2d_f32_run};
const KernelEntry kL2Pool2dF32Entry = {pool2d_f32_check, l2_pool2d_f32_run};

}  // namespace mote
