// Reference float32 separable resize: for each output pixel, the column taps blend each of
// the four tap rows, then the row taps blend those four values.
#include "kernel_util.h"
#include "resize_cubic/resize_cubic.h"

namespace mote {
namespace {

const ResizeCubicTap* row_taps(const OpContext& ctx) {
  const uint8_t* params = &ctx.params<uint8_t>();
  return reinterpret_cast<const ResizeCubicTap*>(params + sizeof(ResizeCubicParams));
}

bool tap_ok(const ResizeCubicTap& tap, uint32_t limit) {
  if (tap.inside != 0 && tap.inside != 1) return false;
  for (int i = 0; i < kResizeCubicTaps; ++i)
    if (tap.index[i] < 0 || static_cast<uint32_t>(tap.index[i]) >= limit) return false;
  return true;
}

}  // namespace

Status resize_cubic_f32_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 1, 1, 1));
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  if (in.rank != 4 || out.rank != 4 || !is_f32(in) || !is_f32(out)) return Status::kBadParams;
  if (!index_math_fits(in) || !index_math_fits(out)) return Status::kBadParams;
  if (out.dims[0] != in.dims[0] || out.dims[3] != in.dims[3]) return Status::kBadParams;
  const uint64_t taps = uint64_t{out.dims[1]} + out.dims[2];
  if (ctx.params_bytes() != sizeof(ResizeCubicParams) + taps * sizeof(ResizeCubicTap)) return Status::kBadParams;
  const ResizeCubicTap* tap = row_taps(ctx);
  for (uint64_t i = 0; i < taps; ++i)
    if (!tap_ok(tap[i], i < out.dims[1] ? in.dims[1] : in.dims[2])) return Status::kBadParams;
  return Status::kOk;
}

void resize_cubic_f32_run(const OpContext& ctx) {
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  const float extrapolation = ctx.params<ResizeCubicParams>().extrapolation_value;
  const uint32_t channels = in.dims[3];
  const uint32_t row_elements = in.dims[2] * channels;
  const uint32_t image_elements = in.dims[1] * row_elements;
  const ResizeCubicTap* rows = row_taps(ctx);
  const ResizeCubicTap* cols = rows + out.dims[1];
  const float* input = static_cast<const float*>(ctx.input_data(0));
  float* output = static_cast<float*>(ctx.output_data(0));
  for (uint32_t n = 0; n < in.dims[0]; ++n) {
    const float* image = input + n * image_elements;
    for (uint32_t y = 0; y < out.dims[1]; ++y) {
      const ResizeCubicTap& r = rows[y];
      for (uint32_t x = 0; x < out.dims[2]; ++x) {
        const ResizeCubicTap& q = cols[x];
        if (r.inside == 0 || q.inside == 0) {
          for (uint32_t c = 0; c < channels; ++c) output[c] = extrapolation;
          output += channels;
          continue;
        }
        for (uint32_t c = 0; c < channels; ++c) {
          float sum = 0.0f;
          for (int i = 0; i < kResizeCubicTaps; ++i) {
            const float* row = image + static_cast<uint32_t>(r.index[i]) * row_elements + c;
            float blended = 0.0f;
            for (int j = 0; j < kResizeCubicTaps; ++j)
              blended += q.weight[j] * row[static_cast<uint32_t>(q.index[j]) * channels];
            sum += r.weight[i] * blended;
          }
          output[c] = sum;
        }
        output += channels;
      }
    }
  }
}

const KernelEntry kResizeCubicF32Entry = {resize_cubic_f32_check, resize_cubic_f32_run};

}  // namespace mote
