// Lowering of the elementwise math ops TensorFlow Lite Micro has beside the arithmetic
// of elementwise.cc: unary (fn = abs, neg, sin, cos, log, sqrt, rsqrt, square, exp,
// floor, ceil, round, logical_not).
//
// Float32 takes every function (math_f32, the function in its parameters); int8 and
// int16 take only what TFLM has an integer kernel for (ABS int8/int16, RSQRT int8), with
// the multipliers derived as TFLM's Prepare derives them; bool takes logical_not.
#include <cmath>
#include <string>

#include "lower/node_lowering.h"
#include "lower/quantization.h"
// Kernel parameter structs.
#include "unary/unary.h"

namespace mote::lower {
namespace {

struct UnaryFunction {
  const char* name;
  UnaryFn fn;
};

// The float32 functions; logical_not (bool) is the one other.
constexpr UnaryFunction kUnaryFunctions[] = {
    {"abs", UnaryFn::kAbs},       {"neg", UnaryFn::kNeg},       {"sin", UnaryFn::kSin},
    {"cos", UnaryFn::kCos},       {"log", UnaryFn::kLog},       {"sqrt", UnaryFn::kSqrt},
    {"rsqrt", UnaryFn::kRsqrt},   {"square", UnaryFn::kSquare}, {"exp", UnaryFn::kExp},
    {"floor", UnaryFn::kFloor},   {"ceil", UnaryFn::kCeil},     {"round", UnaryFn::kRound},
};

// ABS on int8 / int16 (TFLM's AbsEvalQuantized): rescaled only when the scales differ,
// by quantize_multiplier(input_scale / output_scale) with the division in float.
LoweredOp lower_abs_quant(const NodeLowering& l, DType dtype) {
  const TensorQuant in_q = per_tensor(l, l.input(0), "input");
  const TensorQuant out_q = per_tensor(l, l.output(0), "output");
  if (dtype == DType::kInt16) expect_symmetric(l, in_q, out_q);
  AbsQuantParams p{};
  p.input_zero_point = in_q.zero_point;
  p.output_zero_point = out_q.zero_point;
  p.rescale = in_q.scale != out_q.scale ? 1 : 0;
  if (p.rescale) {
    quantize_multiplier(static_cast<double>(in_q.scale / out_q.scale), &p.multiplier, &p.shift);
    expect_shift(l, p.shift, kMinShift, kMaxShift, "rescaling");
  }
  return lowered(dtype == DType::kInt8 ? KernelId::kAbsS8 : KernelId::kAbsS16, params_bytes(p));
}

// RSQRT on int8 (TFLM's RsqrtEvalQuantized): quantize_multiplier(1 / (sqrtf(input_scale)
// * output_scale)), the product in float.
LoweredOp lower_rsqrt_s8(const NodeLowering& l) {
  const TensorQuant in_q = per_tensor(l, l.input(0), "input");
  const TensorQuant out_q = per_tensor(l, l.output(0), "output");
  RsqrtQuantParams p{};
  p.input_zero_point = in_q.zero_point;
  p.output_zero_point = out_q.zero_point;
  const float denominator = std::sqrt(in_q.scale) * out_q.scale;
  quantize_multiplier(1.0 / static_cast<double>(denominator), &p.multiplier, &p.shift);
  expect_shift(l, p.shift - kRsqrtShift, kMinShift, kMaxShift, "rescaling");
  return lowered(KernelId::kRsqrtS8, params_bytes(p));
}

}  // namespace

LoweredOp lower_unary(const NodeLowering& l) {
  l.expect_io(1, 1, 1);
  const ir::Tensor& in = l.input(0);
  l.expect_shape(l.output(0), "output", in.shape);
  l.expect_dtype(l.output(0), "output", in.dtype);
  const std::string name = l.node().get_string("fn");
  const DType dtype = in.dtype;
  if (name == "logical_not") {
    if (dtype != DType::kBool) l.fail(std::string("logical_not of ") + dtype_name(dtype) + " is not supported (expected bool)");
    return lowered(KernelId::kLogicalNot);
  }
  const UnaryFunction* f = nullptr;
  for (const UnaryFunction& candidate : kUnaryFunctions)
    if (name == candidate.name) f = &candidate;
  if (!f) l.fail("attribute 'fn' \"" + name + "\" is not a unary function");
  if (dtype == DType::kFloat32) return lowered(KernelId::kMathF32, params_bytes(MathF32Params{static_cast<int32_t>(f->fn)}));
  if (f->fn == UnaryFn::kAbs && (dtype == DType::kInt8 || dtype == DType::kInt16)) return lower_abs_quant(l, dtype);
  if (f->fn == UnaryFn::kRsqrt && dtype == DType::kInt8) return lower_rsqrt_s8(l);
  const char* takes = f->fn == UnaryFn::kAbs     ? "float32, int8 and int16"
                      : f->fn == UnaryFn::kRsqrt ? "float32 and int8"
                                                 : "float32 only";
  l.fail(name + " of " + dtype_name(dtype) + " is not supported (TensorFlow Lite Micro takes " + takes + ")");
}

}  // namespace mote::lower
