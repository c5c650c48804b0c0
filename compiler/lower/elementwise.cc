// Lowering of the elementwise ops: add, sub, mul, div (numpy broadcast), clamp, sigmoid,
// tanh, leaky_relu, softmax (along the last axis), quantize and dequantize.
//
// Each op runs one check on every dtype (check_binary, check_same_shape_unary); the dtype
// then decides only the kernel and the parameter struct it fills: float32 kernels take
// the attributes as they are, the integer ones (int8, int16) their fixed-point form,
// derived as TFLite Micro derives it (quantization.h).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "lower/node_lowering.h"
#include "lower/quantization.h"
// Kernel parameter structs.
#include "activation/activation.h"
#include "add_n/add_n.h"
#include "cumsum/cumsum.h"
#include "l2_normalization/l2_normalization.h"
#include "elementwise/elementwise.h"
#include "leaky_relu/leaky_relu.h"
#include "quantize/quantize.h"
#include "softmax/softmax.h"

namespace mote::lower {
namespace {

// a and b broadcast (numpy) to the output's shape.
void check_broadcast(const NodeLowering& l) {
  const ir::Tensor& a = l.input(0);
  const ir::Tensor& b = l.input(1);
  ir::Shape expected;
  if (!broadcast_shapes(a.shape, b.shape, &expected)) {
    l.fail("inputs '" + a.name + "' " + shape_string(a.shape) + " and '" + b.name + "' " +
           shape_string(b.shape) + " do not broadcast");
  }
  l.expect_shape(l.output(0), "output", expected);
}

// a and b broadcast (numpy) to the output's shape; a, b and the output have one dtype.
DType check_binary(const NodeLowering& l) {
  l.expect_io(2, 2, 1);
  const DType dtype = expect_same_dtype(l);
  l.expect_dtype(l.input(1), "b", dtype);
  check_broadcast(l);
  return dtype;
}

// The float32 binary kernels: BinaryParams, the fused activation as it is.
LoweredOp binary_f32(const NodeLowering& l, KernelId kernel) {
  expect_float32(l);
  BinaryParams p{};
  l.act(&p.act_min, &p.act_max);
  return lowered(kernel, params_bytes(p));
}

// Which quantized int32 tensors TensorFlow Lite Micro refuses for an int32 binary op: ADD
// and DIV its inputs', SUB its inputs' and output's; MUL none (it ignores quantization).
enum class Int32Quantization { kRefuseInputs, kRefuseInputsAndOutput, kIgnore };

// The int32 binary kernels (add_s32, sub_s32, mul_s32, div_s32: BinaryS32Params): int32
// a, b and output that broadcast, the arithmetic on the raw values as TensorFlow Lite
// Micro does (`verb` names it in the refusal). With `clamp`, the fused activation's int32
// range (the integers within [act_min, act_max]); without, the whole int32 range (TFLM's
// ADD ignores the activation).
LoweredOp binary_s32(const NodeLowering& l, KernelId kernel, const char* verb, bool clamp, Int32Quantization quant) {
  l.expect_io(2, 2, 1);
  const auto refuse_quantized = [&](const ir::Tensor& t, const char* role) {
    if (!t.quant.empty())
      l.fail(l.label(t, role) + " is a quantized int32 tensor; TensorFlow Lite Micro " + verb +
             " int32 only without quantization");
  };
  if (quant != Int32Quantization::kIgnore) {
    refuse_quantized(l.input(0), "input");
    refuse_quantized(l.input(1), "input");
  }
  if (quant == Int32Quantization::kRefuseInputsAndOutput) refuse_quantized(l.output(0), "output");
  l.expect_dtype(l.input(1), "b", DType::kInt32);
  l.expect_dtype(l.output(0), "output", DType::kInt32);
  check_broadcast(l);
  BinaryS32Params p{INT32_MIN, INT32_MAX};
  if (clamp) {
    float lo = 0, hi = 0;
    l.act(&lo, &hi);
    const auto saturate = [](double v) { return static_cast<int32_t>(std::clamp(v, double{INT32_MIN}, double{INT32_MAX})); };
    p = BinaryS32Params{saturate(std::ceil(lo)), saturate(std::floor(hi))};
    if (p.act_min > p.act_max) l.fail("fused activation range holds no int32 value");
  }
  return lowered(kernel, params_bytes(p));
}

// One input, one output of its shape, any dtypes (quantize, dequantize).
void expect_same_shape(const NodeLowering& l) {
  l.expect_io(1, 1, 1);
  l.expect_shape(l.output(0), "output", l.input(0).shape);
}

// TFLite fixes the output quantization of softmax, logistic and tanh; it accepts a scale
// within 0.1% of the nominal one (TF_LITE_ENSURE_NEAR) and the exact zero point.
void expect_fixed_output_quant(const NodeLowering& l, float scale, int32_t zero_point) {
  const TensorQuant q = per_tensor(l, l.output(0), "output");
  if (std::fabs(q.scale - scale) > 0.001f * scale || q.zero_point != zero_point) {
    l.fail(l.label(l.output(0), "output") + " has scale " + float_string(q.scale) + ", zero point " +
           std::to_string(q.zero_point) + "; TFLite requires scale " + float_string(scale) +
           ", zero point " + std::to_string(zero_point));
  }
}

// TFLite's int8 running sum (quant/integer_sum.h) from input to output quantization.
IntegerSumParams integer_sum_params(const NodeLowering& l, const TensorQuant& in_q, const TensorQuant& out_q) {
  AddSubMultipliers m{};
  if (!add_multipliers(in_q.scale, in_q.scale, out_q.scale, kIntegerSumLeftShift, &m)) {
    l.fail("input scale " + float_string(in_q.scale) + " and output scale " + float_string(out_q.scale) +
           " give an output multiplier outside (0, 1)");
  }
  return IntegerSumParams{-in_q.zero_point, out_q.zero_point, m.input1_multiplier, m.input1_shift,
                          m.output_multiplier, m.output_shift};
}

}  // namespace

// add_n: two or more inputs of the output's shape and dtype; float32, or int8 with every
// input quantized alike (TensorFlow Lite Micro requires it) and TFLite's ADD multipliers.
LoweredOp lower_add_n(const NodeLowering& l) {
  const size_t n = l.node().inputs.size();
  l.expect_io(2, n < 2 ? 2 : n, 1);
  if (n > 255) l.fail("has " + std::to_string(n) + " inputs, at most 255 are supported");
  const ir::Tensor& out = l.output(0);
  for (size_t k = 0; k < n; ++k) {
    l.expect_shape(l.input(k), "input", out.shape);
    l.expect_dtype(l.input(k), "input", out.dtype);
  }
  if (!l.quantized()) {
    expect_float32(l);
    return lowered(KernelId::kAddNF32);
  }
  if (out.dtype != DType::kInt8) {
    l.fail(l.label(l.input(0), "input") + " has dtype " + dtype_name(out.dtype) +
           ", expected float32 or int8 (TensorFlow Lite Micro's add_n)");
  }
  const TensorQuant in_q = per_tensor(l, l.input(0), "input");
  for (size_t k = 1; k < n; ++k) {
    if (!same_quant(l.input(0), l.input(k)))
      l.fail(l.label(l.input(k), "input") + " is not quantized like input 0 (TensorFlow Lite Micro requires it)");
  }
  return lowered(KernelId::kAddNS8, params_bytes(integer_sum_params(l, in_q, per_tensor(l, out, "output"))));
}

// cumsum: float32, or int8 with TFLite's running sum from the input's to the output's
// quantization (TensorFlow Lite Micro's dtypes).
LoweredOp lower_cumsum(const NodeLowering& l) {
  const DType dtype = check_same_shape_unary(l);
  const int64_t rank = static_cast<int64_t>(l.input(0).shape.size());
  const int64_t axis = l.node().get_int("axis", -1);
  if (axis < 0 || axis >= rank) l.fail("axis " + std::to_string(axis) + " is outside [0, " + std::to_string(rank) + ")");
  const int64_t exclusive = l.node().get_int("exclusive", 0), reverse = l.node().get_int("reverse", 0);
  if ((exclusive != 0 && exclusive != 1) || (reverse != 0 && reverse != 1))
    l.fail("exclusive " + std::to_string(exclusive) + " and reverse " + std::to_string(reverse) + " must be 0 or 1");
  const CumsumParams p{static_cast<uint32_t>(axis), static_cast<uint8_t>(exclusive), static_cast<uint8_t>(reverse), {}};
  if (!l.quantized()) {
    expect_float32(l);
    return lowered(KernelId::kCumsumF32, params_bytes(p));
  }
  if (dtype != DType::kInt8) {
    l.fail(l.label(l.input(0), "input") + " has dtype " + dtype_name(dtype) +
           ", expected float32 or int8 (TensorFlow Lite Micro's cumsum)");
  }
  const IntegerSumParams sum =
      integer_sum_params(l, per_tensor(l, l.input(0), "input"), per_tensor(l, l.output(0), "output"));
  return lowered(KernelId::kCumsumS8, params_bytes(CumsumS8Params{p, sum}));
}

// l2_normalization: float32, or int8 with the output TFLite requires (scale 1/128, zero
// point 0; the kernel writes that scale whatever the tensor says).
LoweredOp lower_l2_normalization(const NodeLowering& l) {
  const DType dtype = check_same_shape_unary(l);
  const size_t rank = l.input(0).shape.size();
  if (rank < 1 || rank > 4) l.fail(l.label(l.input(0), "input") + " has rank " + std::to_string(rank) + ", expected 1 to 4");
  if (!l.quantized()) {
    expect_float32(l);
    return lowered(KernelId::kL2NormalizationF32);
  }
  if (dtype != DType::kInt8) {
    l.fail(l.label(l.input(0), "input") + " has dtype " + dtype_name(dtype) +
           ", expected float32 or int8 (TensorFlow Lite Micro's l2_normalization)");
  }
  const TensorQuant in_q = per_tensor(l, l.input(0), "input");
  expect_fixed_output_quant(l, 1.0f / 128.0f, 0);
  return lowered(KernelId::kL2NormalizationS8, params_bytes(L2NormalizationS8Params{in_q.zero_point}));
}

// add, sub: float32 (the fused activation as it is), int8 and int16 (rescaled), int32
// unquantized (wrapping; sub clamps to the activation, add does not, as TFLM).
LoweredOp lower_add_sub(const NodeLowering& l) {
  l.expect_io(2, 2, 1);
  const bool add = l.node().op == ir::Op::kAdd;
  if (l.input(0).dtype == DType::kInt32) {
    if (add) return binary_s32(l, KernelId::kAddS32, "adds", false, Int32Quantization::kRefuseInputs);
    return binary_s32(l, KernelId::kSubS32, "subtracts", true, Int32Quantization::kRefuseInputsAndOutput);
  }
  const DType dtype = check_binary(l);
  if (!l.quantized()) return binary_f32(l, add ? KernelId::kAddF32 : KernelId::kSubF32);
  const TensorQuant a_q = per_tensor(l, l.input(0), "a");
  const TensorQuant b_q = per_tensor(l, l.input(1), "b");
  const TensorQuant out_q = per_tensor(l, l.output(0), "output");
  const bool s8 = dtype == DType::kInt8;
  // TFLite Micro's ADD/SUB use the general rescaling for int16 too (left shift 15): they
  // do not read pot_scale_int16.
  AddSubMultipliers m{};
  const int32_t left_shift = s8 ? kAddSubLeftShiftS8 : kAddSubLeftShiftS16;
  const bool ok = add ? add_multipliers(a_q.scale, b_q.scale, out_q.scale, left_shift, &m)
                      : sub_multipliers(a_q.scale, b_q.scale, out_q.scale, left_shift, &m);
  if (!ok) {
    l.fail("scales " + float_string(a_q.scale) + ", " + float_string(b_q.scale) + " -> " +
           float_string(out_q.scale) + " give a rescaling multiplier outside (0, 1)");
  }
  int32_t act_min = 0, act_max = 0;
  act_range(l, out_q, dtype, &act_min, &act_max);
  const QuantAddSubParams p{a_q.zero_point,      b_q.zero_point,      out_q.zero_point,
                            m.input1_multiplier, m.input1_shift,      m.input2_multiplier,
                            m.input2_shift,      m.output_multiplier, m.output_shift,
                            act_min,             act_max};
  if (add) return lowered(s8 ? KernelId::kAddS8 : KernelId::kAddS16, params_bytes(p));
  return lowered(s8 ? KernelId::kSubS8 : KernelId::kSubS16, params_bytes(p));
}

// mul: float32, int8 and int16 (requantized), int32 unquantized (wrapping, clamped to the
// fused activation).
LoweredOp lower_mul(const NodeLowering& l) {
  l.expect_io(2, 2, 1);
  if (l.input(0).dtype == DType::kInt32) {
    return binary_s32(l, KernelId::kMulS32, "multiplies", true, Int32Quantization::kIgnore);
  }
  const DType dtype = check_binary(l);
  if (!l.quantized()) return binary_f32(l, KernelId::kMulF32);
  const auto [a_q, b_q, out_q] = binary_quant(l, dtype, "a", "b");
  const bool s8 = dtype == DType::kInt8;
  QuantMulParams p{};
  p.input1_zero_point = a_q.zero_point;
  p.input2_zero_point = b_q.zero_point;
  p.output_zero_point = out_q.zero_point;
  mul_multiplier(a_q.scale, b_q.scale, out_q.scale, &p.output_multiplier, &p.output_shift);
  expect_shift(l, p.output_shift, kMinShift, kMaxShift, "requantization");
  act_range(l, out_q, dtype, &p.act_min, &p.act_max);
  return lowered(s8 ? KernelId::kMulS8 : KernelId::kMulS16, params_bytes(p));
}

// div: float32 (the fused activation as it is); int32 without quantization, as TFLM
// requires (the activation's bounds as integers); int8 with TFLM's multiplier, the float
// s_a / (s_b * s_out) widened to double (elementwise.h has the arithmetic).
LoweredOp lower_div(const NodeLowering& l) {
  l.expect_io(2, 2, 1);
  const DType dtype = l.input(0).dtype;
  if (dtype != DType::kFloat32 && dtype != DType::kInt32 && dtype != DType::kInt8) {
    l.fail(l.label(l.input(0), "input") + " has dtype " + dtype_name(dtype) +
           ", expected float32, int32 or int8 (TensorFlow Lite Micro's div)");
  }
  if (dtype == DType::kInt32) {
    return binary_s32(l, KernelId::kDivS32, "divides", true, Int32Quantization::kRefuseInputs);
  }
  check_binary(l);
  if (!l.quantized()) return binary_f32(l, KernelId::kDivF32);
  const auto [a_q, b_q, out_q] = binary_quant(l, dtype, "a", "b");
  QuantMulParams p{};
  p.input1_zero_point = a_q.zero_point;
  p.input2_zero_point = b_q.zero_point;
  p.output_zero_point = out_q.zero_point;
  quantize_multiplier(static_cast<double>(a_q.scale / (b_q.scale * out_q.scale)), &p.output_multiplier,
                      &p.output_shift);
  expect_shift(l, p.output_shift, kDivS8MinShift, kDivS8MaxShift, "division");
  act_range(l, out_q, dtype, &p.act_min, &p.act_max);
  return lowered(KernelId::kDivS8, params_bytes(p));
}

// clamp: min, max (double, default -inf/+inf). float32: the kernel's bounds as they are;
// int8, int16: TFLite's quantized RELU family (ReluX): the input requantized to the
// output's scale, the bounds quantized in it. Attribute requantize = 0 (TFLite Micro's
// RELU6) keeps the input's quantized values: the bounds in the input's quantization, no
// rescaling. ratio_in_float = 1 (TFLite's RELU_N1_TO_1, RELU_0_TO_1) forms the scale
// ratio in float as TFLite's ReluPrepare does.
LoweredOp lower_clamp(const NodeLowering& l) {
  const DType dtype = check_same_shape_unary(l);
  const double lo = l.node().get_float("min", -std::numeric_limits<double>::infinity());
  const double hi = l.node().get_float("max", std::numeric_limits<double>::infinity());
  if (std::isnan(lo) || std::isnan(hi) || lo > hi) {
    l.fail("range [" + std::to_string(lo) + ", " + std::to_string(hi) + "] is empty or NaN");
  }
  if (!l.quantized()) {
    expect_float32(l);
    ClampParams p{};
    p.min = static_cast<float>(lo);
    p.max = static_cast<float>(hi);
    return lowered(KernelId::kClampF32, params_bytes(p));
  }
  const TensorQuant in_q = per_tensor(l, l.input(0), "input");
  const TensorQuant out_q = per_tensor(l, l.output(0), "output");
  ClampQuantParams p{};
  p.input_zero_point = in_q.zero_point;
  TensorQuant bounds_q = out_q;
  const bool requantize = l.node().get_int("requantize", 1) != 0;
  // TFLite's int16 RELU requantizes symmetric values; TFLM's RELU6 (no requantization)
  // takes any zero point.
  if (dtype == DType::kInt16 && requantize) expect_symmetric(l, in_q, out_q);
  if (!requantize) {
    bounds_q = in_q;
    p.output_zero_point = in_q.zero_point;
    quantize_multiplier(1.0, &p.multiplier, &p.shift);  // exactly x
  } else {
    p.output_zero_point = out_q.zero_point;
    if (l.node().get_int("ratio_in_float", 0) != 0) {
      requantize_multiplier_float_ratio(in_q.scale, out_q.scale, &p.multiplier, &p.shift);
    } else {
      requantize_multiplier(in_q.scale, out_q.scale, &p.multiplier, &p.shift);
    }
    expect_shift(l, p.shift, kMinShift, kMaxShift, "requantization");
  }
  if (!clamp_range_quantized(static_cast<float>(lo), static_cast<float>(hi), bounds_q.scale, bounds_q.zero_point,
                             type_min(dtype), type_max(dtype), &p.act_min, &p.act_max)) {
    l.fail("range [" + float_string(lo) + ", " + float_string(hi) + "] does not quantize at scale " +
           float_string(bounds_q.scale) + ", zero point " + std::to_string(bounds_q.zero_point));
  }
  return lowered(dtype == DType::kInt8 ? KernelId::kClampS8 : KernelId::kClampS16, params_bytes(p));
}

// int16 sigmoid, tanh as TFLite Micro's Prepare takes them (logistic_common.cc, tanh.cc):
// zero points 0, an output scale whose rounded log2 is exactly -15, and the input scale
// turned into the table's multiplier and shift (activation.h, SigmoidTanhS16Params).
LoweredOp lower_sigmoid_tanh_s16(const NodeLowering& l, bool sigmoid) {
  const char* op = ir::op_name(l.node().op);
  const TensorQuant in_q = per_tensor(l, l.input(0), "input");
  const TensorQuant out_q = per_tensor(l, l.output(0), "output");
  expect_symmetric(l, in_q, out_q);
  int32_t out_log2 = 0;
  if (!checked_log2(out_q.scale, &out_log2) || out_log2 != -15) {
    l.fail(l.label(l.output(0), "output") + " has scale " + float_string(out_q.scale) +
           "; TFLite's int16 " + op + " requires 2^-15");
  }
  SigmoidTanhS16Params p{};
  int32_t in_log2 = 0;
  const bool power_of_two = checked_log2(in_q.scale, &in_log2);
  const int32_t pot_shift = 12 + in_log2;  // (15 - 3 integer bits) + log2(scale)
  if (power_of_two && (pot_shift == 0 || (!sigmoid && pot_shift == 1))) {
    p.input_multiplier = 3 << pot_shift;
    p.input_left_shift = 0;
  } else {
    // The input rescaled to 1 / (3 * 4096) units, as TFLite Micro computes it.
    double multiplier = static_cast<double>(in_q.scale) * 4096.0 * 3.0;
    int32_t shift = 0;
    while (multiplier <= 32767.0 / 2.0 && shift <= 30) {
      ++shift;
      multiplier *= 2.0;
    }
    if (!(multiplier >= 1.0 && multiplier < 32768.0)) {
      l.fail(l.label(l.input(0), "input") + " has scale " + float_string(in_q.scale) +
             ", outside what TFLite's int16 " + op + " supports (its table multiplier " +
             float_string(multiplier) + " is not in [1, 32767])");
    }
    p.input_multiplier = static_cast<int32_t>(multiplier);
    p.input_left_shift = shift;
  }
  return lowered(sigmoid ? KernelId::kSigmoidS16 : KernelId::kTanhS16, params_bytes(p));
}

// sigmoid, tanh: float32 (no parameters), int8 (TFLite's fixed output quantization) or
// int16 (lower_sigmoid_tanh_s16).
LoweredOp lower_sigmoid_tanh(const NodeLowering& l) {
  const DType dtype = check_same_shape_unary(l);
  const bool sigmoid = l.node().op == ir::Op::kSigmoid;
  if (!l.quantized()) {
    expect_float32(l);
    return lowered(sigmoid ? KernelId::kSigmoidF32 : KernelId::kTanhF32);
  }
  if (dtype == DType::kInt16) return lower_sigmoid_tanh_s16(l, sigmoid);
  if (dtype != DType::kInt8) {
    l.fail(l.label(l.input(0), "input") + " has dtype " + dtype_name(dtype) + ", expected float32, int8 or int16");
  }
  const TensorQuant in_q = per_tensor(l, l.input(0), "input");
  if (sigmoid) expect_fixed_output_quant(l, 1.0f / 256.0f, -128);
  else expect_fixed_output_quant(l, 1.0f / 128.0f, 0);
  SigmoidTanhS8Params p{};
  p.input_zero_point = in_q.zero_point;
  if (!sigmoid_tanh_s8_params(in_q.scale, &p.input_multiplier, &p.input_left_shift, &p.input_range_radius)) {
    l.fail("input scale " + float_string(in_q.scale) + " is outside what TFLite's int8 " +
           ir::op_name(l.node().op) + " supports");
  }
  return lowered(sigmoid ? KernelId::kSigmoidS8 : KernelId::kTanhS8, params_bytes(p));
}

namespace {

// softmax int8 -> int8 (output scale 1/256, zero point -128) or int8 -> int16 (1/65536,
// -32768), TFLite's fixed output quantization.
LoweredOp lower_softmax_s8(const NodeLowering& l, float beta, bool int16_output) {
  const TensorQuant in_q = per_tensor(l, l.input(0), "input");
  if (int16_output) expect_fixed_output_quant(l, 1.0f / 65536.0f, -32768);
  else expect_fixed_output_quant(l, 1.0f / 256.0f, -128);
  SoftmaxS8Params p{};
  if (!softmax_s8_params(beta, in_q.scale, &p.input_multiplier, &p.input_left_shift, &p.diff_min)) {
    l.fail("beta " + float_string(beta) + " * input scale " + float_string(in_q.scale) +
           " is too small for TFLite's int8 softmax");
  }
  return lowered(int16_output ? KernelId::kSoftmaxS8S16 : KernelId::kSoftmaxS8, params_bytes(p));
}

// softmax int16 -> int16: input zero point 0, output scale 1/32768 and zero point 0 (TFLM
// requires them); the input rescaled so that [-65535, 0] is [-10, 0], the tables TFLM's.
LoweredOp lower_softmax_s16(const NodeLowering& l, float beta) {
  const TensorQuant in_q = per_tensor(l, l.input(0), "input");
  if (in_q.zero_point != 0) {
    l.fail(l.label(l.input(0), "input") + " has zero point " + std::to_string(in_q.zero_point) +
           "; TFLite's int16 softmax requires 0");
  }
  expect_fixed_output_quant(l, 1.0f / 32768.0f, 0);
  const int64_t depth = l.input(0).shape.back();
  if (depth > static_cast<int64_t>(kSoftmaxS16MaxDepth)) {
    l.fail("rows of " + std::to_string(depth) + " elements overflow TFLite's int16 softmax sum (at most " +
           std::to_string(kSoftmaxS16MaxDepth) + ")");
  }
  SoftmaxS16Params p{};
  quantize_multiplier(static_cast<double>(in_q.scale) * static_cast<double>(beta) / (10.0 / 65535.0),
                      &p.input_multiplier, &p.input_left_shift);
  expect_shift(l, p.input_left_shift, kMinShift, kMaxShift, "input");
  softmax_s16_tables(p.exp_lut, p.one_over_one_plus_x_lut);
  return lowered(KernelId::kSoftmaxS16, params_bytes(p));
}

}  // namespace

// leaky_relu: float32 (x > 0 ? x : x * alpha, alpha as the file's float), int8 and int16
// (x for x >= 0, alpha * x below, requantized).
LoweredOp lower_leaky_relu(const NodeLowering& l) {
  const DType dtype = check_same_shape_unary(l);
  const double alpha = l.node().get_float("alpha", 0.2);
  if (!std::isfinite(alpha)) l.fail("alpha " + float_string(alpha) + " is not finite");
  if (!l.quantized()) {
    expect_float32(l);
    return lowered(KernelId::kLeakyReluF32, params_bytes(LeakyReluF32Params{static_cast<float>(alpha)}));
  }
  const TensorQuant in_q = per_tensor(l, l.input(0), "input");
  const TensorQuant out_q = per_tensor(l, l.output(0), "output");
  LeakyReluQuantParams p{};
  p.input_zero_point = in_q.zero_point;
  p.output_zero_point = out_q.zero_point;
  leaky_relu_multipliers(in_q.scale, static_cast<float>(alpha), out_q.scale, &p.alpha_multiplier,
                         &p.alpha_shift, &p.identity_multiplier, &p.identity_shift);
  expect_shift(l, p.alpha_shift, kMinShift, kMaxShift, "alpha");
  expect_shift(l, p.identity_shift, kMinShift, kMaxShift, "identity");
  if (p.alpha_multiplier == std::numeric_limits<int32_t>::min()) l.fail("alpha multiplier overflows");
  return lowered(dtype == DType::kInt8 ? KernelId::kLeakyReluS8 : KernelId::kLeakyReluS16, params_bytes(p));
}

// softmax along the last axis: float32 (beta as it is); int8 -> int8 or int16 (TFLite's
// fixed output quantization, beta folded into the input multiplier); int16 -> int16 (TFLM's
// tables, input zero point 0).
LoweredOp lower_softmax(const NodeLowering& l) {
  l.expect_io(1, 1, 1);
  l.expect_shape(l.output(0), "output", l.input(0).shape);
  l.expect_min_rank(l.input(0), "input", 1);
  const float beta = static_cast<float>(l.node().get_float("beta", 1.0));
  const DType in_dtype = l.input(0).dtype;
  const DType out_dtype = l.output(0).dtype;
  if (in_dtype == DType::kInt8 && out_dtype == DType::kInt16) return lower_softmax_s8(l, beta, true);
  const DType dtype = expect_same_dtype(l);
  if (!l.quantized()) {
    expect_float32(l);
    SoftmaxParams p{};
    p.beta = beta;
    return lowered(KernelId::kSoftmaxF32, params_bytes(p));
  }
  if (dtype == DType::kInt16) return lower_softmax_s16(l, beta);
  if (dtype != DType::kInt8) {
    l.fail(l.label(l.input(0), "input") + " has dtype " + dtype_name(dtype) +
           ", expected float32, int8 or int16 (TensorFlow Lite Micro's softmax)");
  }
  return lower_softmax_s8(l, beta, false);
}

// quantize: float -> int8/int16, or requantize between int8/int16/int32 and uint8 <-> int8.
LoweredOp lower_quantize(const NodeLowering& l) {
  expect_same_shape(l);
  const ir::Tensor& in = l.input(0);
  const ir::Tensor& out = l.output(0);
  if (in.dtype == DType::kFloat32) {
    const TensorQuant out_q = per_tensor(l, out, "output");
    const std::vector<uint8_t> params = params_bytes(AffineQuantParams{out_q.scale, out_q.zero_point});
    if (out.dtype == DType::kInt8) return lowered(KernelId::kQuantizeF32S8, params);
    if (out.dtype == DType::kInt16) return lowered(KernelId::kQuantizeF32S16, params);
    l.fail(l.label(out, "output") + " has dtype " + dtype_name(out.dtype) + ", expected int8 or int16");
  }
  const auto quantized_type = [](DType t) { return is_integer(t) || t == DType::kUInt8; };
  if (!quantized_type(in.dtype) || !quantized_type(out.dtype)) {
    l.fail(std::string("quantize from ") + dtype_name(in.dtype) + " to " + dtype_name(out.dtype) +
           " is not supported");
  }
  const TensorQuant in_q = per_tensor(l, in, "input");
  const TensorQuant out_q = per_tensor(l, out, "output");
  struct Pair { DType from, to; KernelId kernel; };
  static const Pair kPairs[] = {
      {DType::kInt8, DType::kInt8, KernelId::kRequantizeS8S8},
      {DType::kInt8, DType::kInt16, KernelId::kRequantizeS8S16},
      {DType::kInt8, DType::kInt32, KernelId::kRequantizeS8S32},
      {DType::kInt16, DType::kInt8, KernelId::kRequantizeS16S8},
      {DType::kInt16, DType::kInt16, KernelId::kRequantizeS16S16},
      {DType::kInt16, DType::kInt32, KernelId::kRequantizeS16S32},
      {DType::kInt32, DType::kInt8, KernelId::kRequantizeS32S8},
      {DType::kInt32, DType::kInt16, KernelId::kRequantizeS32S16},
      {DType::kUInt8, DType::kInt8, KernelId::kRequantizeU8S8},
      {DType::kInt8, DType::kUInt8, KernelId::kRequantizeS8U8},
  };
  for (const Pair& pair : kPairs) {
    if (pair.from != in.dtype || pair.to != out.dtype) continue;
    RequantizeParams p{};
    p.input_zero_point = in_q.zero_point;
    p.output_zero_point = out_q.zero_point;
    requantize_multiplier(in_q.scale, out_q.scale, &p.multiplier, &p.shift);
    expect_shift(l, p.shift, kMinShift, kMaxShift, "requantization");
    return lowered(pair.kernel, params_bytes(p));
  }
  l.fail(std::string("requantize from ") + dtype_name(in.dtype) + " to " + dtype_name(out.dtype) +
         " is not supported");
}

// dequantize: int8/int16/uint8 -> float32.
LoweredOp lower_dequantize(const NodeLowering& l) {
  expect_same_shape(l);
  const ir::Tensor& in = l.input(0);
  l.expect_dtype(l.output(0), "output", DType::kFloat32);
  const TensorQuant in_q = per_tensor(l, in, "input");
  const std::vector<uint8_t> params = params_bytes(AffineQuantParams{in_q.scale, in_q.zero_point});
  if (in.dtype == DType::kInt8) return lowered(KernelId::kDequantizeS8F32, params);
  if (in.dtype == DType::kInt16) return lowered(KernelId::kDequantizeS16F32, params);
  if (in.dtype == DType::kUInt8) return lowered(KernelId::kDequantizeU8F32, params);
  l.fail(l.label(in, "input") + " has dtype " + dtype_name(in.dtype) + ", expected int8, int16 or uint8");
}

}  // namespace mote::lower
