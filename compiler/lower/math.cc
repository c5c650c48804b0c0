// Lowering of the elementwise math ops TensorFlow Lite Micro has beside the arithmetic
// of elementwise.cc: unary (fn = abs, neg, sin, cos, log, sqrt, rsqrt, square, exp,
// floor, ceil, round, logical_not), maximum, minimum, squared_difference, floor_div,
// floor_mod, compare (fn = equal, not_equal, less, less_equal, greater, greater_equal),
// logical (fn = and, or), select and cast.
//
// unary: float32 takes every function (math_f32, the function in its parameters); int8
// and int16 take only what TFLM has an integer kernel for (ABS int8/int16, RSQRT int8),
// with the multipliers derived as TFLM's Prepare derives them; bool takes logical_not.
// The binary ops broadcast as add does (numpy rules); each one check (check_broadcast)
// serves every dtype, which then picks the kernel.
#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <string>

#include "lower/node_lowering.h"
#include "lower/quantization.h"
// Kernel parameter structs.
#include "binary_math/binary_math.h"
#include "logical/logical.h"
#include "cast/cast.h"
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
    {"erf", UnaryFn::kErf},       {"softplus", UnaryFn::kSoftplus}, {"sign", UnaryFn::kSign},
};

// ABS on int8 / int16 (TFLM's AbsEvalQuantized): rescaled only when the scales differ,
// by quantize_multiplier(input_scale / output_scale) with the division in float. An
// int16 input and output without quantization take TFLM's plain std::abs.
LoweredOp lower_abs_quant(const NodeLowering& l, DType dtype) {
  const bool unquantized_in = l.input(0).quant.empty(), unquantized_out = l.output(0).quant.empty();
  if (dtype == DType::kInt16 && unquantized_in && unquantized_out) {
    AbsQuantParams p{};
    p.mode = static_cast<int32_t>(AbsMode::kAbsUnquantized);
    return lowered(KernelId::kAbsS16, params_bytes(p));
  }
  const TensorQuant in_q = per_tensor(l, l.input(0), "input");
  const TensorQuant out_q = per_tensor(l, l.output(0), "output");
  if (dtype == DType::kInt16) expect_symmetric(l, in_q, out_q);
  AbsQuantParams p{};
  p.input_zero_point = in_q.zero_point;
  p.output_zero_point = out_q.zero_point;
  const bool rescale = in_q.scale != out_q.scale;
  p.mode = static_cast<int32_t>(rescale ? AbsMode::kAbsRescale : AbsMode::kAbsSameScale);
  if (rescale) {
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
  if (f->fn == UnaryFn::kErf || f->fn == UnaryFn::kSoftplus)
    l.fail(name + " of " + dtype_name(dtype) + " is not supported (float32 only: TFLite has no such operator)");
  const char* takes = f->fn == UnaryFn::kAbs     ? "float32, int8 and int16"
                      : f->fn == UnaryFn::kRsqrt ? "float32 and int8"
                                                 : "float32 only";
  l.fail(name + " of " + dtype_name(dtype) + " is not supported (TensorFlow Lite Micro takes " + takes + ")");
}

// ---- binary ops -------------------------------------------------------------------------

namespace {

// Two inputs of one dtype that broadcast to output 0's shape; the output has `out_dtype`
// (the inputs' when kInputDtype). Returns the inputs' dtype.
constexpr DType kInputDtype = static_cast<DType>(0);
DType check_broadcast(const NodeLowering& l, DType out_dtype) {
  l.expect_io(2, 2, 1);
  const ir::Tensor& a = l.input(0);
  const ir::Tensor& b = l.input(1);
  l.expect_dtype(b, "b", a.dtype);
  l.expect_dtype(l.output(0), "output", out_dtype == kInputDtype ? a.dtype : out_dtype);
  ir::Shape expected;
  if (!broadcast_shapes(a.shape, b.shape, &expected)) {
    l.fail("inputs '" + a.name + "' " + shape_string(a.shape) + " and '" + b.name + "' " + shape_string(b.shape) +
           " do not broadcast");
  }
  l.expect_shape(l.output(0), "output", expected);
  return a.dtype;
}

[[noreturn]] void fail_dtype(const NodeLowering& l, DType dtype, const char* takes) {
  l.fail(std::string(ir::op_name(l.node().op)) + " of " + dtype_name(dtype) + " is not supported (" + takes + ")");
}

// The function named by attribute `fn`, its index in `names`.
int32_t function_index(const NodeLowering& l, std::initializer_list<const char*> names) {
  const std::string fn = l.node().get_string("fn");
  int32_t index = 0;
  for (const char* name : names) {
    if (fn == name) return index;
    ++index;
  }
  l.fail("attribute 'fn' \"" + fn + "\" is not a function of " + ir::op_name(l.node().op));
}

}  // namespace

// maximum, minimum: the stored values compared (TFLM's MaximumOp / MinimumOp), so the
// quantized kernels need no parameters but the choice.
LoweredOp lower_min_max(const NodeLowering& l) {
  const DType dtype = check_broadcast(l, kInputDtype);
  const MinMaxParams p{l.node().op == ir::Op::kMaximum ? 1 : 0};
  switch (dtype) {
    case DType::kFloat32: return lowered(KernelId::kMinMaxF32, params_bytes(p));
    case DType::kInt8: return lowered(KernelId::kMinMaxS8, params_bytes(p));
    case DType::kInt16: return lowered(KernelId::kMinMaxS16, params_bytes(p));
    case DType::kInt32: return lowered(KernelId::kMinMaxS32, params_bytes(p));
    case DType::kInt64: return lowered(KernelId::kMinMaxS64, params_bytes(p));
    default: fail_dtype(l, dtype, "TensorFlow Lite Micro takes float32, int8, int16, int32 and int64");
  }
}

// squared_difference: float32 and int32 as they are; int8 and int16 as TFLM's
// PrepareQuantized derives them (left shift 7 for int8, 0 for int16, whose zero points
// are 0): input multipliers scale / (2 * max scale), output multiplier
// (2 * max scale)^2 / (2^(2 * left shift) * output scale).
LoweredOp lower_squared_difference(const NodeLowering& l) {
  const DType dtype = check_broadcast(l, kInputDtype);
  if (dtype == DType::kFloat32) return lowered(KernelId::kSquaredDifferenceF32);
  if (dtype == DType::kInt32) return lowered(KernelId::kSquaredDifferenceS32);
  if (dtype != DType::kInt8 && dtype != DType::kInt16) {
    fail_dtype(l, dtype, "TensorFlow Lite Micro takes float32, int32, int8 and int16");
  }
  const auto [a_q, b_q, out_q] = binary_quant(l, dtype, "a", "b");
  const bool s8 = dtype == DType::kInt8;
  const int32_t left_shift = s8 ? kSquaredDifferenceLeftShiftS8 : kSquaredDifferenceLeftShiftS16;
  const double twice_max_input_scale = 2.0 * static_cast<double>(std::max(a_q.scale, b_q.scale));
  const double output_real = twice_max_input_scale * twice_max_input_scale /
                             static_cast<double>(static_cast<float>(1 << (2 * left_shift)) * out_q.scale);
  SquaredDifferenceQuantParams p{};
  p.input1_zero_point = a_q.zero_point;
  p.input2_zero_point = b_q.zero_point;
  p.output_zero_point = out_q.zero_point;
  quantize_multiplier(static_cast<double>(a_q.scale) / twice_max_input_scale, &p.input1_multiplier, &p.input1_shift);
  quantize_multiplier(static_cast<double>(b_q.scale) / twice_max_input_scale, &p.input2_multiplier, &p.input2_shift);
  quantize_multiplier(output_real, &p.output_multiplier, &p.output_shift);
  expect_shift(l, p.output_shift, kMinShift, kMaxShift, "output");
  return lowered(s8 ? KernelId::kSquaredDifferenceS8 : KernelId::kSquaredDifferenceS16, params_bytes(p));
}

// floor_div, floor_mod: float32 (TFLM) and int32 (TFLite).
LoweredOp lower_floor_div_mod(const NodeLowering& l) {
  const DType dtype = check_broadcast(l, kInputDtype);
  const bool div = l.node().op == ir::Op::kFloorDiv;
  if (dtype == DType::kFloat32) return lowered(div ? KernelId::kFloorDivF32 : KernelId::kFloorModF32);
  if (dtype == DType::kInt32) return lowered(div ? KernelId::kFloorDivS32 : KernelId::kFloorModS32);
  fail_dtype(l, dtype, "TensorFlow Lite takes float32 and int32");
}

// pow: float32 only (TFLite's POW also takes int32, which no importer produces).
LoweredOp lower_pow(const NodeLowering& l) {
  const DType dtype = check_broadcast(l, kInputDtype);
  if (dtype != DType::kFloat32) fail_dtype(l, dtype, "float32 only");
  return lowered(KernelId::kPowF32);
}

// compare: bool output. float32, int16, int32, int64 and bool (equal, not_equal) compare the
// stored values; int8 rescales both inputs first (TFLM's ComparisonsPrepare: each
// input's scale, which must be below 1, as its multiplier).
LoweredOp lower_compare(const NodeLowering& l) {
  const DType dtype = check_broadcast(l, DType::kBool);
  const int32_t fn = function_index(l, {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal"});
  const CompareParams p{fn};
  switch (dtype) {
    case DType::kFloat32: return lowered(KernelId::kCompareF32, params_bytes(p));
    case DType::kInt16: return lowered(KernelId::kCompareS16, params_bytes(p));
    case DType::kInt32: return lowered(KernelId::kCompareS32, params_bytes(p));
    case DType::kInt64: return lowered(KernelId::kCompareS64, params_bytes(p));
    case DType::kBool:
      if (fn > static_cast<int32_t>(CompareFn::kNotEqual)) {
        l.fail(l.node().get_string("fn") + " of bool is not supported (TensorFlow Lite takes equal and not_equal)");
      }
      return lowered(KernelId::kCompareBool, params_bytes(p));
    case DType::kInt8: break;
    default: fail_dtype(l, dtype, "TensorFlow Lite Micro takes float32, int8, int16, int32, int64 and bool");
  }
  CompareS8Params q{};
  q.fn = fn;
  const TensorQuant a_q = per_tensor(l, l.input(0), "a");
  const TensorQuant b_q = per_tensor(l, l.input(1), "b");
  for (const TensorQuant* t : {&a_q, &b_q}) {
    if (!(t->scale < 1.0f)) {
      l.fail("input scale " + float_string(t->scale) + " is not below 1, as TFLite's int8 comparison requires");
    }
  }
  q.input1_zero_point = a_q.zero_point;
  q.input2_zero_point = b_q.zero_point;
  quantize_multiplier(a_q.scale, &q.input1_multiplier, &q.input1_shift);
  quantize_multiplier(b_q.scale, &q.input2_multiplier, &q.input2_shift);
  expect_shift(l, q.input1_shift, kMinShift, 0, "input 0");
  expect_shift(l, q.input2_shift, kMinShift, 0, "input 1");
  return lowered(KernelId::kCompareS8, params_bytes(q));
}

// logical: and, or of bool tensors.
LoweredOp lower_logical(const NodeLowering& l) {
  const DType dtype = check_broadcast(l, DType::kBool);
  if (dtype != DType::kBool) fail_dtype(l, dtype, "expected bool");
  const int32_t is_or = function_index(l, {"and", "or"});
  return lowered(KernelId::kLogicalBinary, params_bytes(LogicalBinaryParams{is_or}));
}

// select: condition (bool), x, y broadcast to the output; x, y and the output share a
// dtype of 1, 2 or 4 bytes, copied unchanged.
LoweredOp lower_select(const NodeLowering& l) {
  l.expect_io(3, 3, 1);
  const ir::Tensor& condition = l.input(0);
  const ir::Tensor& x = l.input(1);
  l.expect_dtype(condition, "condition", DType::kBool);
  l.expect_dtype(l.input(2), "y", x.dtype);
  l.expect_dtype(l.output(0), "output", x.dtype);
  if (x.dtype == DType::kInt64) fail_dtype(l, x.dtype, "elements of 1, 2 or 4 bytes are copied");
  ir::Shape xy, expected;
  if (!broadcast_shapes(x.shape, l.input(2).shape, &xy) || !broadcast_shapes(condition.shape, xy, &expected)) {
    l.fail("condition " + shape_string(condition.shape) + ", x " + shape_string(x.shape) + " and y " +
           shape_string(l.input(2).shape) + " do not broadcast");
  }
  l.expect_shape(l.output(0), "output", expected);
  return lowered(KernelId::kSelect);
}

// cast: TFLM's pairs (float32, int8, int16, int32, bool -> float32, int8, int16, int32)
// and int64 -> and <- those, raw values (quantization is not applied, as TFLM).
LoweredOp lower_cast(const NodeLowering& l) {
  l.expect_io(1, 1, 1);
  const ir::Tensor& in = l.input(0);
  const ir::Tensor& out = l.output(0);
  l.expect_shape(out, "output", in.shape);
  const auto numeric = [](DType d) {
    return d == DType::kFloat32 || d == DType::kInt8 || d == DType::kInt16 || d == DType::kInt32 ||
           d == DType::kInt64;
  };
  if (!(numeric(in.dtype) || in.dtype == DType::kBool) || !numeric(out.dtype)) {
    l.fail(std::string("cast from ") + dtype_name(in.dtype) + " to " + dtype_name(out.dtype) +
           " is not supported (float32, int8, int16, int32, int64 and bool cast to float32, int8, int16, int32 and "
           "int64)");
  }
  return lowered(KernelId::kCast);
}

}  // namespace mote::lower
