// Lowering of svdf (TFLite SVDF) to svdf_f32 and svdf_s8 (kernels/svdf/svdf.h): what
// TFLite Micro's PrepareSvdf accepts, with its parameters.
#include <cmath>
#include <string>

#include "lower/node_lowering.h"
#include "lower/quantization.h"
// Kernel parameter structs.
#include "svdf/svdf.h"

namespace mote::lower {
namespace {

struct SvdfShape {
  int64_t batches = 0, inputs = 0, filters = 0, memory = 0, units = 0;
  int32_t rank = 0;
};

// Shapes as TFLite Micro's Prepare checks them (every dtype).
SvdfShape check_svdf(const NodeLowering& l) {
  l.expect_io(3, 5, 2);  // input 3, the bias, may be absent
  for (int i : {0, 1, 2, 4})
    if (!l.has_input(i)) l.fail("input " + std::to_string(i) + " is missing");
  const ir::Tensor& x = l.input(0);
  const ir::Tensor& wf = l.input(1);
  const ir::Tensor& wt = l.input(2);
  const ir::Tensor& state = l.input(4);
  const ir::Tensor& y = l.output(0);
  l.expect_rank(x, "input", 2);
  l.expect_rank(wf, "weights_feature", 2);
  l.expect_rank(wt, "weights_time", 2);
  l.expect_rank(state, "activation state", 2);
  SvdfShape s;
  s.batches = x.shape[0];
  s.inputs = x.shape[1];
  s.filters = wf.shape[0];
  s.memory = wt.shape[1];
  const int64_t rank = l.node().get_int("rank", 0);
  if (rank < 1 || rank > s.filters || s.filters % rank != 0) {
    l.fail("rank " + std::to_string(rank) + " does not divide the " + std::to_string(s.filters) +
           " filters of weights_feature " + shape_string(wf.shape));
  }
  s.rank = static_cast<int32_t>(rank);
  s.units = s.filters / rank;
  l.expect_shape(wf, "weights_feature", {s.filters, s.inputs});
  l.expect_shape(wt, "weights_time", {s.filters, s.memory});
  l.expect_shape(state, "activation state", {s.batches, s.memory * s.filters});
  l.expect_shape(y, "output", {s.batches, s.units});
  if (l.has_input(3)) l.expect_shape(l.input(3), "bias", {s.units});
  if (!wf.is_constant || !wt.is_constant) l.fail("weights_feature and weights_time must be constants");
  if (!state.is_persistent) l.fail("the activation state (input 4) must be state kept between runs");
  const ir::Tensor& next = l.output(1);
  l.expect_shape(next, "new activation state", state.shape);
  if (next.dtype != state.dtype || next.quant.scales != state.quant.scales)
    l.fail(l.label(next, "new activation state") + " is not typed and scaled as the activation state");
  return s;
}

uint64_t svdf_macs(const SvdfShape& s) {
  return static_cast<uint64_t>(s.batches * s.filters * (s.inputs + s.memory));
}

LoweredOp lower_svdf_f32(const NodeLowering& l, const SvdfShape& s) {
  for (int i : {0, 1, 2, 4}) l.expect_dtype(l.input(i), i == 0 ? "input" : "weights and state", DType::kFloat32);
  if (l.has_input(3)) l.expect_dtype(l.input(3), "bias", DType::kFloat32);
  l.expect_dtype(l.output(0), "output", DType::kFloat32);
  SvdfF32Params p{};
  p.rank = s.rank;
  l.act(&p.act_min, &p.act_max);
  return lowered(KernelId::kSvdfF32, params_bytes(p), svdf_macs(s));
}

LoweredOp lower_svdf_s8(const NodeLowering& l, const SvdfShape& s) {
  const ir::Tensor& x = l.input(0);
  const ir::Tensor& wf = l.input(1);
  const ir::Tensor& wt = l.input(2);
  const ir::Tensor& state = l.input(4);
  const ir::Tensor& y = l.output(0);
  l.expect_dtype(x, "input", DType::kInt8);
  l.expect_dtype(wf, "weights_feature", DType::kInt8);
  l.expect_dtype(y, "output", DType::kInt8);
  if (wt.dtype != DType::kInt16 && wt.dtype != DType::kInt8) {
    l.fail(l.label(wt, "weights_time") + " has dtype " + dtype_name(wt.dtype) + ", expected int16 or int8");
  }
  l.expect_dtype(state, "activation state", wt.dtype);
  if (!l.has_input(3)) l.fail("the int8 SVDF needs a bias (TFLite Micro's Prepare reads its scale)");
  const ir::Tensor& bias = l.input(3);
  l.expect_dtype(bias, "bias", DType::kInt32);
  const TensorQuant x_q = per_tensor(l, x, "input");
  const TensorQuant wf_q = per_tensor(l, wf, "weights_feature");
  const TensorQuant wt_q = per_tensor(l, wt, "weights_time");
  // The state's quantization as TFLite gives it is output 1's: a persistent tensor's zero
  // point is its fill value (the importer's tensor()).
  const TensorQuant state_q = per_tensor(l, l.output(1), "activation state");
  const TensorQuant y_q = per_tensor(l, y, "output");
  const TensorQuant bias_q = per_tensor(l, bias, "bias");
  // TFLite Micro's Prepare: float products, then double.
  const float feature_scale = x_q.scale * wf_q.scale / state_q.scale;
  const float output_scale = state_q.scale * wt_q.scale / y_q.scale;
  const float bias_expected = state_q.scale * wt_q.scale;
  if (!(std::abs(static_cast<double>(bias_q.scale) - static_cast<double>(bias_expected)) < 1e-5)) {
    l.fail(l.label(bias, "bias") + " has scale " + float_string(bias_q.scale) +
           ", expected activation state scale * weights_time scale = " + float_string(bias_expected));
  }
  SvdfS8Params p{};
  p.rank = s.rank;
  quantize_multiplier(static_cast<double>(feature_scale), &p.feature_multiplier, &p.feature_shift);
  quantize_multiplier(static_cast<double>(output_scale), &p.output_multiplier, &p.output_shift);
  expect_shift(l, p.feature_shift, kMinShift, kMaxShift, "input x weights_feature -> state");
  expect_shift(l, p.output_shift, kMinShift, kMaxShift, "state x weights_time -> output");
  p.input_zero_point = x_q.zero_point;
  p.state_zero_point = state_q.zero_point;
  p.output_zero_point = y_q.zero_point;
  return lowered(KernelId::kSvdfS8, params_bytes(p), svdf_macs(s));
}

}  // namespace

// SVDF: float32 (svdf_f32) or int8 (svdf_s8), chosen by input 0's dtype; output 1 is the
// state after this run (the importer copies it back into input 4, the persistent state).
LoweredOp lower_svdf(const NodeLowering& l) {
  const SvdfShape s = check_svdf(l);
  return l.quantized() ? lower_svdf_s8(l, s) : lower_svdf_f32(l, s);
}

}  // namespace mote::lower
