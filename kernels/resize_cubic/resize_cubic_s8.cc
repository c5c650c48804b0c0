// Reference int8 separable resize: integer column blends, an int64 row blend, one
// requantization (resize_cubic.h).
#include "quant/quant_math.h"
#include "resize_cubic/resize_cubic.h"
#include "resize_cubic/resize_cubic_walk.h"

namespace mote {
namespace {

using resize_cubic_internal::check;
using resize_cubic_internal::walk;

bool int16_weight(int32_t w) { return w >= -32768 && w <= 32767; }
bool int8_value(int32_t v) { return v >= -128 && v <= 127; }

}  // namespace

Status resize_cubic_s8_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR((check<ResizeCubicS8Params, ResizeCubicQuantTap>(ctx, DType::kInt8, int16_weight)));
  const ResizeCubicS8Params& p = ctx.params<ResizeCubicS8Params>();
  if (!int8_value(p.input_zero_point) || !int8_value(p.output_zero_point) || !int8_value(p.extrapolation) ||
      !valid_shift(p.shift) || p.shift > 0) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void resize_cubic_s8_run(const OpContext& ctx) {
  const ResizeCubicS8Params& p = ctx.params<ResizeCubicS8Params>();
  auto fill = [&p](uint32_t channels, int8_t* out) {
    for (uint32_t c = 0; c < channels; ++c) out[c] = static_cast<int8_t>(p.extrapolation);
  };
  auto blend = [&p](const int8_t* const* rows, const ResizeCubicQuantTap& r, const ResizeCubicQuantTap& q,
                    uint32_t channels, int8_t* out) {
    for (uint32_t c = 0; c < channels; ++c) {
      int64_t acc = 0;
      for (int i = 0; i < kResizeCubicTaps; ++i) {
        int32_t blended = 0;
        for (int j = 0; j < kResizeCubicTaps; ++j)
          blended += q.weight[j] * (rows[i][static_cast<uint32_t>(q.index[j]) * channels + c] - p.input_zero_point);
        acc += int64_t{r.weight[i]} * blended;
      }
      const auto scaled = static_cast<int32_t>((acc + (int64_t{1} << 11)) >> 12);
      const int64_t v = int64_t{p.output_zero_point} + multiply_by_quantized_multiplier(scaled, p.multiplier, p.shift);
      out[c] = static_cast<int8_t>(v < -128 ? -128 : v > 127 ? 127 : v);
    }
  };
  walk<int8_t, ResizeCubicS8Params, ResizeCubicQuantTap>(ctx, fill, blend);
}

const KernelEntry kResizeCubicS8Entry = {resize_cubic_s8_check, resize_cubic_s8_run};

}  // namespace mote
