// Lowering of the standalone activations TFLite has as operators of their own:
// hard_swish, prelu, elu, log_softmax. One check of the node for every dtype (check_same_shape_unary), then the
// dtype picks the kernel: float32 as it is, int8 with the fixed-point parameters TFLite
// Micro derives in Prepare (quantization.h).
#include <string>

#include "lower/node_lowering.h"
#include "lower/quantization.h"
// Kernel parameter structs.
#include "elu/elu.h"
#include "gelu/gelu.h"
#include "hard_swish/hard_swish.h"
#include "log_softmax/log_softmax.h"
#include "prelu/prelu.h"

namespace mote::lower {

// hard_swish: float32, or int8 as TFLite Micro takes it (no int16 kernel there).
LoweredOp lower_hard_swish(const NodeLowering& l) {
  const DType dtype = check_same_shape_unary(l);
  if (!l.quantized()) {
    expect_float32(l);
    return lowered(KernelId::kHardSwishF32);
  }
  if (dtype != DType::kInt8) l.fail("int16 hard_swish is not supported (TFLite Micro has int8 only)");
  const TensorQuant in_q = per_tensor(l, l.input(0), "input");
  const TensorQuant out_q = per_tensor(l, l.output(0), "output");
  HardSwishS8Params p{};
  p.input_zero_point = in_q.zero_point;
  p.output_zero_point = out_q.zero_point;
  hard_swish_s8_multipliers(in_q.scale, out_q.scale, &p.reluish_multiplier, &p.reluish_exponent,
                            &p.output_multiplier, &p.output_exponent);
  if (p.output_exponent > 0) {
    l.fail("input scale " + float_string(in_q.scale) + " / 128 over output scale " + float_string(out_q.scale) +
           " is 1 or more; TFLite's int8 hard_swish requires less");
  }
  expect_shift(l, p.reluish_exponent, kMinShift, kMaxShift, "reluish");
  return lowered(KernelId::kHardSwishS8, params_bytes(p));
}

// prelu: float32 (x, alpha, output), int8 (all int8) or int16 (x and output int16,
// alpha int8), as TensorFlow Lite Micro takes them; alpha broadcast against x.
LoweredOp lower_prelu(const NodeLowering& l) {
  l.expect_io(2, 2, 1);
  const ir::Tensor& x = l.input(0);
  const ir::Tensor& alpha = l.input(1);
  ir::Shape expected;
  if (!broadcast_shapes(x.shape, alpha.shape, &expected) || x.shape.size() > 4 || alpha.shape.size() > 4) {
    l.fail("input '" + x.name + "' " + shape_string(x.shape) + " and alpha '" + alpha.name + "' " +
           shape_string(alpha.shape) + " do not broadcast within 4 dimensions");
  }
  l.expect_shape(l.output(0), "output", expected);
  const DType dtype = expect_same_dtype(l);
  if (!l.quantized()) {
    expect_float32(l);
    l.expect_dtype(alpha, "alpha", DType::kFloat32);
    return lowered(KernelId::kPreluF32);
  }
  l.expect_dtype(alpha, "alpha", DType::kInt8);
  const TensorQuant in_q = per_tensor(l, x, "input");
  const TensorQuant alpha_q = per_tensor(l, alpha, "alpha");
  const TensorQuant out_q = per_tensor(l, l.output(0), "output");
  PreluQuantParams p{};
  p.input_zero_point = in_q.zero_point;
  p.alpha_zero_point = alpha_q.zero_point;
  p.output_zero_point = out_q.zero_point;
  prelu_multipliers(in_q.scale, alpha_q.scale, out_q.scale, &p.identity_multiplier, &p.identity_shift,
                    &p.alpha_multiplier, &p.alpha_shift);
  expect_shift(l, p.identity_shift, kMinShift, kMaxShift, "identity");
  expect_shift(l, p.alpha_shift, kMinShift, kMaxShift, "alpha");
  return lowered(dtype == DType::kInt8 ? KernelId::kPreluS8 : KernelId::kPreluS16, params_bytes(p));
}

// elu: float32, or int8 through the lookup table TensorFlow Lite Micro builds (it has no
// int16 ELU).
LoweredOp lower_elu(const NodeLowering& l) {
  const DType dtype = check_same_shape_unary(l);
  if (!l.quantized()) {
    expect_float32(l);
    return lowered(KernelId::kEluF32);
  }
  if (dtype != DType::kInt8) l.fail("int16 elu is not supported (TFLite Micro has int8 only)");
  const TensorQuant in_q = per_tensor(l, l.input(0), "input");
  const TensorQuant out_q = per_tensor(l, l.output(0), "output");
  EluS8Params p{};
  elu_s8_table(in_q.scale, in_q.zero_point, out_q.scale, out_q.zero_point, p.table);
  return lowered(KernelId::kEluS8, params_bytes(p));
}

// gelu: float32, or int8 through a table of the float function (TFLite's int8 GELU is a
// lookup table too).
LoweredOp lower_gelu(const NodeLowering& l) {
  const DType dtype = check_same_shape_unary(l);
  const int64_t approximate = l.node().get_int("approximate", 0);
  if (approximate != 0 && approximate != 1) l.fail("approximate " + std::to_string(approximate) + " is not 0 or 1");
  if (!l.quantized()) {
    expect_float32(l);
    return lowered(KernelId::kGeluF32, params_bytes(GeluF32Params{static_cast<int32_t>(approximate)}));
  }
  if (dtype != DType::kInt8) l.fail("int16 gelu is not supported (int8 only)");
  const TensorQuant in_q = per_tensor(l, l.input(0), "input");
  const TensorQuant out_q = per_tensor(l, l.output(0), "output");
  GeluS8Params p{};
  gelu_s8_table(approximate != 0, in_q.scale, in_q.zero_point, out_q.scale, out_q.zero_point, p.table);
  return lowered(KernelId::kGeluS8, params_bytes(p));
}

// log_softmax along the last axis: float32, or int8 with TFLite's fixed output
// quantization (scale exactly 16/256, zero point 127), as TensorFlow Lite Micro takes it.
LoweredOp lower_log_softmax(const NodeLowering& l) {
  const DType dtype = check_same_shape_unary(l);
  l.expect_min_rank(l.input(0), "input", 1);
  if (!l.quantized()) {
    expect_float32(l);
    return lowered(KernelId::kLogSoftmaxF32);
  }
  if (dtype != DType::kInt8) l.fail("int16 log_softmax is not supported (TFLite Micro has int8 only)");
  const TensorQuant in_q = per_tensor(l, l.input(0), "input");
  const TensorQuant out_q = per_tensor(l, l.output(0), "output");
  if (out_q.scale != 16.0f / 256.0f || out_q.zero_point != 127) {
    l.fail(l.label(l.output(0), "output") + " has scale " + float_string(out_q.scale) + ", zero point " +
           std::to_string(out_q.zero_point) + "; TFLite requires scale 0.0625, zero point 127");
  }
  LogSoftmaxS8Params p{};
  if (!log_softmax_s8_params(in_q.scale, &p.input_multiplier, &p.input_left_shift, &p.reverse_scaling_divisor,
                             &p.reverse_scaling_right_shift, &p.diff_min)) {
    l.fail("input scale " + float_string(in_q.scale) + " is outside what TFLite's int8 log_softmax supports");
  }
  return lowered(KernelId::kLogSoftmaxS8, params_bytes(p));
}

}  // namespace mote::lower
