// Reference float32 unary math (unary.h): one C library call or IEEE operation per
// element, as TensorFlow Lite Micro computes each function in float.
#include <math.h>

#include "kernel_util.h"
#include "unary/unary.h"

namespace mote {
namespace {

// TFLite's RoundToNearest: half to even, through floor (see unary.h).
float round_half_to_even(float x) {
  const float f = floorf(x);
  const float d = x - f;
  if (d < 0.5f) return f;
  // d == 0.5 only for |x| < 2^23, so f converts to int32 exactly.
  if (d == 0.5f && static_cast<int32_t>(f) % 2 == 0) return f;
  return f + 1.0f;
}

}  // namespace

float math_f32_value(UnaryFn fn, float x) {
  switch (fn) {
    case UnaryFn::kAbs: return fabsf(x);
    case UnaryFn::kNeg: return -x;
    case UnaryFn::kSin: return sinf(x);
    case UnaryFn::kCos: return cosf(x);
    case UnaryFn::kLog: return logf(x);
    case UnaryFn::kSqrt: return sqrtf(x);
    case UnaryFn::kRsqrt: return 1.0f / sqrtf(x);
    case UnaryFn::kSquare: return x * x;
    case UnaryFn::kExp: return expf(x);
    case UnaryFn::kFloor: return floorf(x);
    case UnaryFn::kCeil: return ceilf(x);
    case UnaryFn::kRound: return round_half_to_even(x);
    case UnaryFn::kErf: return erff(x);
    case UnaryFn::kSoftplus: return x > 0.0f ? x + log1pf(expf(-x)) : log1pf(expf(x));
    case UnaryFn::kSign: return x > 0.0f ? 1.0f : x < 0.0f ? -1.0f : x == 0.0f ? 0.0f : x;
  }
  return x;  // unreachable: check() accepts only the functions above
}

void math_f32(const MathF32Params& params, uint32_t count, const float* input, float* output) {
  const UnaryFn fn = static_cast<UnaryFn>(params.fn);
  for (uint32_t i = 0; i < count; ++i) output[i] = math_f32_value(fn, input[i]);
}

Status math_f32_check(const OpContext& ctx) {
  MOTE_RETURN_IF_ERROR(check_io(ctx, 1, 1, 1));
  if (ctx.params_bytes() != sizeof(MathF32Params)) return Status::kBadParams;
  const TensorDesc& in = ctx.input_desc(0);
  const TensorDesc& out = ctx.output_desc(0);
  if (!is_f32(in) || !is_f32(out) || !same_shape(in, out)) return Status::kBadParams;
  const int32_t fn = ctx.params<MathF32Params>().fn;
  if (fn < 0 || fn >= kUnaryFnCount) return Status::kBadParams;
  return Status::kOk;
}

void math_f32_run(const OpContext& ctx) {
  math_f32(ctx.params<MathF32Params>(), element_count(ctx.input_desc(0)),
           static_cast<const float*>(ctx.input_data(0)), static_cast<float*>(ctx.output_data(0)));
}

const KernelEntry kMathF32Entry = {math_f32_check, math_f32_run};

}  // namespace mote
