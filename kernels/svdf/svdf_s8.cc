// Reference int8 SVDF (TFLite Micro's EvalIntegerSvdfReference, int16 or int8
// weights_time and state): contract in svdf.h.
#include "kernel_util.h"
#include "quant/quant_check.h"
#include "quant/quant_math.h"
#include "svdf/svdf.h"
#include "svdf/svdf_check.h"

namespace mote {
namespace {

template <typename T>
void svdf_s8_run_typed(const OpContext& ctx) {
  const SvdfS8Params& p = ctx.params<SvdfS8Params>();
  const SvdfRun r = svdf_begin(ctx, p.rank, sizeof(T));
  const int32_t batches = r.batches, inputs = r.inputs, filters = r.filters, memory = r.memory;
  const int32_t rank = r.rank, units = r.units;
  const int8_t* x = static_cast<const int8_t*>(ctx.input_data(0));
  const int8_t* wf = static_cast<const int8_t*>(ctx.input_data(1));
  const T* wt = static_cast<const T*>(ctx.input_data(2));
  const int32_t* bias = ctx.has_input(3) ? static_cast<const int32_t*>(ctx.input_data(3)) : nullptr;
  int8_t* y = static_cast<int8_t*>(ctx.output_data(0));
  T* state = static_cast<T*>(r.state);
  for (int32_t b = 0; b < batches; ++b) {
    T* s = state + b * filters * memory;
    const int8_t* xb = x + b * inputs;
    for (int32_t f = 0; f < filters; ++f) {
      const int8_t* w = wf + f * inputs;
      int32_t dot = 0;
      for (int32_t i = 0; i < inputs; ++i) dot = wrapping_add(dot, w[i] * (xb[i] - p.input_zero_point));
      dot = multiply_by_quantized_multiplier(dot, p.feature_multiplier, p.feature_shift);
      dot = clamp_i32(dot, IntRange<T>::kMin, IntRange<T>::kMax);
      s[f * memory + memory - 1] = static_cast<T>(p.state_zero_point + dot);
    }
    int8_t* yb = y + b * units;
    for (int32_t u = 0; u < units; ++u) {
      int32_t acc = bias ? bias[u] : 0;
      for (int32_t r = 0; r < rank; ++r) {
        const int32_t f = u * rank + r;
        const T* w = wt + f * memory;
        const T* sf = s + f * memory;
        int32_t t = 0;
        for (int32_t m = 0; m < memory; ++m) t = wrapping_add(t, wrapping_mul(w[m], sf[m] - p.state_zero_point));
        acc = wrapping_add(acc, t);
      }
      const int32_t out = multiply_by_quantized_multiplier(acc, p.output_multiplier, p.output_shift);
      yb[u] = static_cast<int8_t>(clamp_i32(wrapping_add(out, p.output_zero_point), -128, 127));
    }
  }
}

}  // namespace

Status svdf_s8_check(const OpContext& ctx) {
  if (ctx.params_bytes() != sizeof(SvdfS8Params) || ctx.input_count() != 5 || !ctx.has_input(2)) {
    return Status::kBadParams;
  }
  const SvdfS8Params& p = ctx.params<SvdfS8Params>();
  const TensorDesc& wt = ctx.input_desc(2);
  const bool s16 = is_s16(wt);
  if (!svdf_shapes_valid(ctx, p.rank, s16 ? 2 : 1)) return Status::kBadParams;
  if (!is_s8(ctx.input_desc(0)) || !is_s8(ctx.input_desc(1)) || !is_s8(ctx.output_desc(0)) ||
      !(s16 || is_s8(wt)) || ctx.input_desc(4).dtype != wt.dtype ||
      (ctx.has_input(3) && !is_s32(ctx.input_desc(3)))) {
    return Status::kBadParams;
  }
  const bool state_zp_ok = s16 ? valid_zero_point<int16_t>(p.state_zero_point)
                               : valid_zero_point<int8_t>(p.state_zero_point);
  if (!state_zp_ok || !valid_zero_point<int8_t>(p.input_zero_point) ||
      !valid_zero_point<int8_t>(p.output_zero_point) || !valid_shift(p.feature_shift) ||
      !valid_shift(p.output_shift)) {
    return Status::kBadParams;
  }
  return Status::kOk;
}

void svdf_s8_run(const OpContext& ctx) {
  if (is_s16(ctx.input_desc(2))) {
    svdf_s8_run_typed<int16_t>(ctx);
  } else {
    svdf_s8_run_typed<int8_t>(ctx);
  }
}

const KernelEntry kSvdfS8Entry = {svdf_s8_check, svdf_s8_run};

}  // namespace mote
