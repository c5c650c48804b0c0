// Lowering of quantized Mote ops (int8, and int16 activations with int8 weights: TFLite
// "16x8") to the integer reference kernels.
//
// Every parameter is derived exactly as TFLite Micro's Prepare() derives it, through the
// host helpers of kernels/quant/quant_math.h, as each kernel header documents: one place
// reproduces TFLite's rounding, this file only picks the helper and its arguments.
// Per-channel arrays (int32 multiplier[C], then int32 shift[C]) follow the param struct.
//
// The kernel is picked by the tensors' dtypes: int8 input -> *_s8, int16 input -> *_s16.
// A quantized op with no integer kernel (an int16 lstm, an int16 softmax, ...) is a
// CompileError naming the node and what is missing.
#include <cmath>
#include <cstdio>
#include <cstring>

#include "lower/node_lowering.h"
#include "lower/variants.h"
#include "quant/quant_math.h"
// Kernel parameter structs.
#include "activation/activation.h"
#include "concat/concat.h"
#include "conv2d/conv2d.h"
#include "depthwise_conv2d/depthwise_conv2d.h"
#include "elementwise/elementwise.h"
#include "fully_connected/fully_connected.h"
#include "leaky_relu/leaky_relu.h"
#include "lstm/lstm.h"
#include "mean/mean.h"
#include "pad/pad.h"
#include "pool2d/pool2d.h"
#include "quantize/quantize.h"
#include "softmax/softmax.h"
#include "strided_slice/strided_slice.h"
#include "transpose/transpose.h"
#include "transpose_conv/transpose_conv.h"

namespace mote::lower {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

bool is_integer(DType dtype) {
  return dtype == DType::kInt8 || dtype == DType::kInt16 || dtype == DType::kInt32;
}

int32_t type_min(DType dtype) {
  switch (dtype) {
    case DType::kInt8: return -128;
    case DType::kInt16: return -32768;
    default: return std::numeric_limits<int32_t>::min();
  }
}

int32_t type_max(DType dtype) {
  switch (dtype) {
    case DType::kInt8: return 127;
    case DType::kInt16: return 32767;
    default: return std::numeric_limits<int32_t>::max();
  }
}

std::string float_string(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

// Per-tensor quantization of an activation tensor.
struct TensorQuant {
  float scale;
  int32_t zero_point;
};

TensorQuant per_tensor(const NodeLowering& l, const ir::Tensor& t, const char* role) {
  const ir::QuantParams& q = t.quant;
  if (q.scales.empty()) l.fail(l.label(t, role) + " (" + dtype_string(t.dtype) + ") has no quantization parameters");
  if (q.scales.size() != 1 || q.zero_points.size() != 1) {
    l.fail(l.label(t, role) + " has " + std::to_string(q.scales.size()) +
           " quantization scales, expected one (per-tensor)");
  }
  const float scale = q.scales[0];
  if (!(scale > 0.0f) || !std::isfinite(scale)) {
    l.fail(l.label(t, role) + " has quantization scale " + float_string(scale) +
           ", expected a positive finite value");
  }
  const int32_t zp = q.zero_points[0];
  if (zp < type_min(t.dtype) || zp > type_max(t.dtype)) {
    l.fail(l.label(t, role) + " has zero point " + std::to_string(zp) + ", outside " +
           dtype_string(t.dtype));
  }
  return {scale, zp};
}

bool same_quant(const ir::Tensor& a, const ir::Tensor& b) {
  return a.quant.scales == b.quant.scales && a.quant.zero_points == b.quant.zero_points;
}

// Filter scales, one per output channel: per-channel along `axis`, or the per-tensor scale
// repeated (TFLite uses filter_scale[0] for every channel then).
std::vector<float> channel_scales(const NodeLowering& l, const ir::Tensor& filter, int32_t axis,
                                  int64_t channels) {
  const ir::QuantParams& q = filter.quant;
  if (q.scales.empty()) l.fail(l.label(filter, "filter") + " has no quantization parameters");
  std::vector<float> scales;
  if (q.scales.size() == 1) {
    scales.assign(static_cast<size_t>(channels), q.scales[0]);
  } else if (static_cast<int64_t>(q.scales.size()) == channels && q.axis == axis) {
    scales = q.scales;
  } else {
    l.fail(l.label(filter, "filter") + " has " + std::to_string(q.scales.size()) +
           " quantization scales on axis " + std::to_string(q.axis) + ", expected 1 or " +
           std::to_string(channels) + " on axis " + std::to_string(axis));
  }
  for (float s : scales) {
    if (!(s > 0.0f) || !std::isfinite(s)) {
      l.fail(l.label(filter, "filter") + " has quantization scale " + float_string(s) +
             ", expected positive finite scales");
    }
  }
  return scales;
}

// act_min/act_max (real-valued, mote_ops.md) -> the quantized clamp range. TFLite only has
// the fused activations NONE, RELU, RELU6 and RELU_N1_TO_1, so the bounds must be one of
// those; TFLite's CalculateActivationRangeQuantized (activation_range_quantized) does the
// conversion.
void act_range(const NodeLowering& l, const TensorQuant& out, DType dtype, int32_t* act_min,
               int32_t* act_max) {
  const double lo = l.node().get_float("act_min", -kInf);
  const double hi = l.node().get_float("act_max", kInf);
  FusedActivation activation;
  if (lo == -kInf && hi == kInf) {
    activation = FusedActivation::kNone;
  } else if (lo == 0.0 && hi == kInf) {
    activation = FusedActivation::kRelu;
  } else if (lo == 0.0 && hi == 6.0) {
    activation = FusedActivation::kRelu6;
  } else if (lo == -1.0 && hi == 1.0) {
    activation = FusedActivation::kReluN1To1;
  } else {
    l.fail("fused activation range [" + float_string(lo) + ", " + float_string(hi) +
           "] on a quantized op is not one of TFLite's (none, [0,inf) ReLU, [0,6] ReLU6, [-1,1])");
  }
  if (!activation_range_quantized(activation, out.scale, out.zero_point, type_min(dtype),
                                  type_max(dtype), act_min, act_max) ||
      *act_min > *act_max) {
    l.fail("fused activation range [" + float_string(lo) + ", " + float_string(hi) +
           "] does not quantize at output scale " + float_string(out.scale) + ", zero point " +
           std::to_string(out.zero_point));
  }
}

void expect_shift(const NodeLowering& l, int32_t shift, int32_t lo, int32_t hi, const std::string& what) {
  if (shift < lo || shift > hi) {
    l.fail(what + " shift " + std::to_string(shift) + " is outside the kernel's range [" +
           std::to_string(lo) + ", " + std::to_string(hi) + "] (scales too far apart)");
  }
}

// The struct's bytes, then the int32 arrays in order.
template <typename P>
std::vector<uint8_t> params_with_arrays(const P& params, const std::vector<const std::vector<int32_t>*>& arrays) {
  std::vector<uint8_t> bytes = params_bytes(params);
  for (const std::vector<int32_t>* a : arrays) {
    const size_t at = bytes.size();
    bytes.resize(at + a->size() * sizeof(int32_t));
    if (!a->empty()) std::memcpy(bytes.data() + at, a->data(), a->size() * sizeof(int32_t));
  }
  return bytes;
}

void expect_bias_dtype(const NodeLowering& l, size_t index, int64_t channels,
                       std::initializer_list<DType> allowed) {
  if (!l.has_input(index)) return;
  const ir::Tensor& bias = l.input(index);
  l.expect_shape(bias, "bias", {channels});
  for (DType d : allowed)
    if (bias.dtype == d) return;
  std::string names;
  for (DType d : allowed) names += std::string(names.empty() ? "" : " or ") + dtype_string(d);
  l.fail(l.label(bias, "bias") + " has dtype " + dtype_string(bias.dtype) + ", expected " + names);
}

// Activation dtype of a weighted op: int8 (s8 kernels) or int16 (16x8 kernels).
DType activation_dtype(const NodeLowering& l) {
  const DType dtype = l.input(0).dtype;
  if (dtype != DType::kInt8 && dtype != DType::kInt16) {
    l.fail(l.label(l.input(0), "input") + " has dtype " + dtype_string(dtype) +
           ", expected int8 or int16 (float activations with int8 weights are not supported)");
  }
  l.expect_dtype(l.output(0), "output", dtype);
  return dtype;
}

// Accumulator width of a 16x8 CONV_2D or FULLY_CONNECTED, as TFLite Micro picks it in
// Eval: int32 when the bias is int32, or when there is no bias and the op's
// quantized_bias_type option is INT32 (attribute "quantized_bias_type" = "int32"); int64
// otherwise (int64 bias, or no bias with the option unset or INT64).
int32_t accumulator_bits_16x8(const NodeLowering& l, size_t bias_index) {
  if (l.has_input(bias_index)) return l.input(bias_index).dtype == DType::kInt32 ? 32 : 64;
  const std::string type = l.node().get_string("quantized_bias_type", "int64");
  if (type == "int32") return 32;
  if (type != "int64") {
    l.fail("attribute 'quantized_bias_type' is '" + type + "', expected int32 or int64");
  }
  return 64;
}

void expect_zero_point_zero(const NodeLowering& l, const ir::Tensor& t, const char* role, int32_t zp) {
  if (zp != 0) {
    l.fail(l.label(t, role) + " has zero point " + std::to_string(zp) +
           ", expected 0 (int16 activations are symmetric in TFLite)");
  }
}

// ---------------------------------------------------------------------------------------
// Convolutions
// ---------------------------------------------------------------------------------------

void expect_conv_output(const NodeLowering& l, const WindowGeometry& w, int64_t kh, int64_t kw, int64_t channels) {
  const ir::Tensor& in = l.input(0);
  const ir::Tensor& out = l.output(0);
  const int64_t oh = window_output_h(w, in.shape[1], kh, false);
  const int64_t ow = window_output_w(w, in.shape[2], kw, false);
  if (oh < 1 || ow < 1) {
    l.fail("kernel " + std::to_string(kh) + "x" + std::to_string(kw) + " does not fit the padded " +
           std::to_string(in.shape[1]) + "x" + std::to_string(in.shape[2]) + " input");
  }
  l.expect_shape(out, "output", {in.shape[0], oh, ow, channels});
}

// multiplier[c], shift[c] of a conv-like op (conv_channel_multiplier per channel).
void channel_multipliers(const NodeLowering& l, float input_scale, const std::vector<float>& filter_scales,
                         float output_scale, int32_t max_shift, std::vector<int32_t>* multipliers,
                         std::vector<int32_t>* shifts) {
  for (size_t c = 0; c < filter_scales.size(); ++c) {
    int32_t m = 0, s = 0;
    conv_channel_multiplier(input_scale, filter_scales[c], output_scale, &m, &s);
    expect_shift(l, s, kMinShift, max_shift, "channel " + std::to_string(c) + " requantization");
    multipliers->push_back(m);
    shifts->push_back(s);
  }
}

LoweredOp lower_conv2d_quant(const NodeLowering& l) {
  l.expect_io(2, 3, 1);
  const ir::Tensor& in = l.input(0);
  const ir::Tensor& filter = l.input(1);
  const ir::Tensor& out = l.output(0);
  l.expect_rank(in, "input", 4);
  l.expect_rank(filter, "filter", 4);
  l.expect_rank(out, "output", 4);
  const DType dtype = activation_dtype(l);
  l.expect_dtype(filter, "filter", DType::kInt8);

  const WindowGeometry w = l.window();
  const int64_t group = l.node().get_int("group", 1);
  const int64_t c = in.shape[3], o = filter.shape[0], kh = filter.shape[1], kw = filter.shape[2];
  if (group < 1 || group > kMaxI32 || c % group != 0 || o % group != 0 || filter.shape[3] != c / group) {
    l.fail("filter '" + filter.name + "' " + shape_string(filter.shape) + " and group " +
           std::to_string(group) + " do not match input channels " + std::to_string(c));
  }
  expect_conv_output(l, w, kh, kw, o);

  const TensorQuant in_q = per_tensor(l, in, "input");
  const TensorQuant out_q = per_tensor(l, out, "output");
  const std::vector<float> filter_scales = channel_scales(l, filter, 0, o);
  std::vector<int32_t> multipliers, shifts;
  LoweredOp op;
  if (dtype == DType::kInt8) {
    expect_bias_dtype(l, 2, o, {DType::kInt32});
    Conv2dS8Params p{};
    p.window = w;
    p.groups = static_cast<int32_t>(group);
    p.input_zero_point = in_q.zero_point;
    p.output_zero_point = out_q.zero_point;
    act_range(l, out_q, dtype, &p.act_min, &p.act_max);
    channel_multipliers(l, in_q.scale, filter_scales, out_q.scale, kMaxShift, &multipliers, &shifts);
    op.kernel = KernelId::kConv2dS8;
    op.params = params_with_arrays(p, {&multipliers, &shifts});
  } else {
    expect_bias_dtype(l, 2, o, {DType::kInt64, DType::kInt32});
    expect_zero_point_zero(l, in, "input", in_q.zero_point);
    expect_zero_point_zero(l, out, "output", out_q.zero_point);
    Conv2dS16Params p{};
    p.window = w;
    p.groups = static_cast<int32_t>(group);
    p.accumulator = accumulator_bits_16x8(l, 2);
    act_range(l, out_q, dtype, &p.act_min, &p.act_max);
    channel_multipliers(l, in_q.scale, filter_scales, out_q.scale,
                        p.accumulator == 64 ? kMaxShift64 : kMaxShift, &multipliers, &shifts);
    op.kernel = KernelId::kConv2dS16;
    op.params = params_with_arrays(p, {&multipliers, &shifts});
  }
  op.macs = static_cast<uint64_t>(out.elements()) * static_cast<uint64_t>(kh * kw * (c / group));
  return op;
}

LoweredOp lower_depthwise_conv2d_quant(const NodeLowering& l) {
  l.expect_io(2, 3, 1);
  const ir::Tensor& in = l.input(0);
  const ir::Tensor& filter = l.input(1);
  const ir::Tensor& out = l.output(0);
  l.expect_rank(in, "input", 4);
  l.expect_rank(filter, "filter", 4);
  l.expect_rank(out, "output", 4);
  const DType dtype = activation_dtype(l);
  l.expect_dtype(filter, "filter", DType::kInt8);

  const WindowGeometry w = l.window();
  const int64_t c = in.shape[3], kh = filter.shape[1], kw = filter.shape[2], oc = filter.shape[3];
  const int64_t multiplier = l.node().get_int("depth_multiplier", c > 0 ? oc / c : 1);
  if (filter.shape[0] != 1 || multiplier < 1 || c * multiplier != oc) {
    l.fail("filter '" + filter.name + "' has shape " + shape_string(filter.shape) +
           ", expected [1,KH,KW," + std::to_string(c) + "*depth_multiplier]");
  }
  expect_conv_output(l, w, kh, kw, oc);

  const TensorQuant in_q = per_tensor(l, in, "input");
  const TensorQuant out_q = per_tensor(l, out, "output");
  const std::vector<float> filter_scales = channel_scales(l, filter, 3, oc);
  std::vector<int32_t> multipliers, shifts;
  LoweredOp op;
  if (dtype == DType::kInt8) {
    expect_bias_dtype(l, 2, oc, {DType::kInt32});
    DepthwiseConv2dS8Params p{};
    p.window = w;
    p.depth_multiplier = static_cast<int32_t>(multiplier);
    p.input_zero_point = in_q.zero_point;
    p.output_zero_point = out_q.zero_point;
    act_range(l, out_q, dtype, &p.act_min, &p.act_max);
    channel_multipliers(l, in_q.scale, filter_scales, out_q.scale, kMaxShift, &multipliers, &shifts);
    op.kernel = KernelId::kDepthwiseConv2dS8;
    op.params = params_with_arrays(p, {&multipliers, &shifts});
  } else {
    expect_bias_dtype(l, 2, oc, {DType::kInt64});
    expect_zero_point_zero(l, in, "input", in_q.zero_point);
    expect_zero_point_zero(l, out, "output", out_q.zero_point);
    DepthwiseConv2dS16Params p{};
    p.window = w;
    p.depth_multiplier = static_cast<int32_t>(multiplier);
    act_range(l, out_q, dtype, &p.act_min, &p.act_max);
    channel_multipliers(l, in_q.scale, filter_scales, out_q.scale, kMaxShift64, &multipliers, &shifts);
    op.kernel = KernelId::kDepthwiseConv2dS16;
    op.params = params_with_arrays(p, {&multipliers, &shifts});
  }
  op.macs = static_cast<uint64_t>(out.elements()) * static_cast<uint64_t>(kh * kw);
  return op;
}

LoweredOp lower_fully_connected_quant(const NodeLowering& l) {
  l.expect_io(2, 3, 1);
  const ir::Tensor& in = l.input(0);
  const ir::Tensor& weights = l.input(1);
  const ir::Tensor& out = l.output(0);
  l.expect_min_rank(in, "input", 1);
  l.expect_rank(weights, "weights", 2);
  l.expect_min_rank(out, "output", 1);
  const DType dtype = activation_dtype(l);
  l.expect_dtype(weights, "weights", DType::kInt8);
  const int64_t n = weights.shape[0], k = weights.shape[1];
  if (in.shape.back() != k) {
    l.fail("weights '" + weights.name + "' has shape " + shape_string(weights.shape) + ", expected [N," +
           std::to_string(in.shape.back()) + "] to match input " + shape_string(in.shape));
  }
  const int64_t batches = ir::element_count(ir::Shape(in.shape.begin(), in.shape.end() - 1));
  if (out.shape.back() != n || out.elements() != batches * n) {
    l.fail("output '" + out.name + "' has shape " + shape_string(out.shape) + ", expected " +
           std::to_string(batches * n) + " elements with last dim " + std::to_string(n));
  }
  const TensorQuant in_q = per_tensor(l, in, "input");
  const TensorQuant out_q = per_tensor(l, out, "output");
  const int32_t accumulator = dtype == DType::kInt8 ? 32 : accumulator_bits_16x8(l, 2);
  if (dtype == DType::kInt8) {
    expect_bias_dtype(l, 2, n, {DType::kInt32});
  } else {
    expect_bias_dtype(l, 2, n, {DType::kInt64, DType::kInt32});
    expect_zero_point_zero(l, in, "input", in_q.zero_point);
    expect_zero_point_zero(l, out, "output", out_q.zero_point);
  }
  const int32_t max_shift = accumulator == 64 ? kMaxShift64 : kMaxShift;
  int32_t filter_zero_point = 0;
  std::vector<int32_t> multipliers, shifts;
  if (weights.quant.scales.size() == 1) {
    // Per-tensor: TFLite's GetQuantizedConvolutionMultipler (float product).
    const TensorQuant w_q = per_tensor(l, weights, "weights");
    filter_zero_point = w_q.zero_point;
    int32_t m = 0, s = 0;
    fully_connected_multiplier(in_q.scale, w_q.scale, out_q.scale, &m, &s);
    expect_shift(l, s, kMinShift, max_shift, "requantization");
    multipliers.push_back(m);
    shifts.push_back(s);
  } else {
    // Per-channel: the filter offset is never applied.
    channel_multipliers(l, in_q.scale, channel_scales(l, weights, 0, n), out_q.scale, max_shift,
                        &multipliers, &shifts);
  }
  const uint32_t channel_count = static_cast<uint32_t>(multipliers.size());
  LoweredOp op;
  if (dtype == DType::kInt8) {
    FullyConnectedS8Params p{};
    p.input_zero_point = in_q.zero_point;
    p.filter_zero_point = filter_zero_point;
    p.output_zero_point = out_q.zero_point;
    act_range(l, out_q, dtype, &p.act_min, &p.act_max);
    p.channel_count = channel_count;
    op.kernel = KernelId::kFullyConnectedS8;
    op.params = params_with_arrays(p, {&multipliers, &shifts});
  } else {
    FullyConnectedS16Params p{};
    p.filter_zero_point = filter_zero_point;
    p.accumulator = accumulator;
    act_range(l, out_q, dtype, &p.act_min, &p.act_max);
    p.channel_count = channel_count;
    op.kernel = KernelId::kFullyConnectedS16;
    op.params = params_with_arrays(p, {&multipliers, &shifts});
  }
  op.macs = static_cast<uint64_t>(batches) * static_cast<uint64_t>(n) * static_cast<uint64_t>(k);
  return op;
}

LoweredOp lower_transpose_conv_quant(const NodeLowering& l) {
  l.expect_io(2, 3, 1);
  const ir::Tensor& in = l.input(0);
  const ir::Tensor& filter = l.input(1);
  const ir::Tensor& out = l.output(0);
  l.expect_rank(in, "input", 4);
  l.expect_rank(filter, "filter", 4);
  l.expect_rank(out, "output", 4);
  const DType dtype = activation_dtype(l);
  if (dtype != DType::kInt16) l.fail("int8 transpose_conv has no kernel yet (only int16, TFLite 16x8)");
  l.expect_dtype(filter, "filter", DType::kInt8);
  const auto strides = l.ints("strides", 2, {1, 1}, 1);
  const std::vector<int64_t> pads = l.node().get_ints("pads", {0, 0, 0, 0});
  if (pads.size() != 4) l.fail("attribute 'pads' has " + std::to_string(pads.size()) + " values, expected 4");
  const int64_t o = filter.shape[0], kh = filter.shape[1], kw = filter.shape[2];
  if (filter.shape[3] != in.shape[3]) {
    l.fail("filter '" + filter.name + "' has shape " + shape_string(filter.shape) + ", expected [O,KH,KW," +
           std::to_string(in.shape[3]) + "]");
  }
  if (pads[0] < 0 || pads[1] < 0 || pads[0] > kMaxI32 || pads[1] > kMaxI32) {
    l.fail("pads " + shape_string(pads) + ": top and left must be non-negative");
  }
  const int64_t oh = (in.shape[1] - 1) * strides[0] + kh - pads[0] - pads[2];
  const int64_t ow = (in.shape[2] - 1) * strides[1] + kw - pads[1] - pads[3];
  l.expect_shape(out, "output", {in.shape[0], oh, ow, o});
  expect_bias_dtype(l, 2, o, {DType::kInt64});

  const TensorQuant in_q = per_tensor(l, in, "input");
  const TensorQuant out_q = per_tensor(l, out, "output");
  expect_zero_point_zero(l, in, "input", in_q.zero_point);
  expect_zero_point_zero(l, out, "output", out_q.zero_point);
  TransposeConvS16Params p{};
  p.stride_h = strides[0];
  p.stride_w = strides[1];
  p.pad_top = static_cast<int32_t>(pads[0]);
  p.pad_left = static_cast<int32_t>(pads[1]);
  act_range(l, out_q, dtype, &p.act_min, &p.act_max);
  std::vector<int32_t> multipliers, shifts;
  channel_multipliers(l, in_q.scale, channel_scales(l, filter, 0, o), out_q.scale, kMaxShift64,
                      &multipliers, &shifts);
  LoweredOp op;
  op.kernel = KernelId::kTransposeConvS16;
  op.params = params_with_arrays(p, {&multipliers, &shifts});
  op.macs = static_cast<uint64_t>(in.elements()) * static_cast<uint64_t>(o * kh * kw);
  return op;
}

// ---------------------------------------------------------------------------------------
// Elementwise
// ---------------------------------------------------------------------------------------

LoweredOp lower_binary_quant(const NodeLowering& l) {
  l.expect_io(2, 2, 1);
  const ir::Tensor& a = l.input(0);
  const ir::Tensor& b = l.input(1);
  const ir::Tensor& out = l.output(0);
  const DType dtype = activation_dtype(l);
  l.expect_dtype(b, "b", dtype);
  ir::Shape expected;
  if (!broadcast_shapes(a.shape, b.shape, &expected)) {
    l.fail("inputs '" + a.name + "' " + shape_string(a.shape) + " and '" + b.name + "' " +
           shape_string(b.shape) + " do not broadcast");
  }
  l.expect_shape(out, "output", expected);
  const TensorQuant a_q = per_tensor(l, a, "a");
  const TensorQuant b_q = per_tensor(l, b, "b");
  const TensorQuant out_q = per_tensor(l, out, "output");
  const ir::Op kind = l.node().op;
  const bool s8 = dtype == DType::kInt8;
  LoweredOp op;
  if (kind == ir::Op::kAdd || kind == ir::Op::kSub) {
    // TFLite Micro's ADD/SUB use the general rescaling for int16 too (left shift 15): they
    // do not read pot_scale_int16.
    QuantAddSubParams p{};
    p.input1_zero_point = a_q.zero_point;
    p.input2_zero_point = b_q.zero_point;
    p.output_zero_point = out_q.zero_point;
    AddSubMultipliers m{};
    const int32_t left_shift = s8 ? kAddSubLeftShiftS8 : kAddSubLeftShiftS16;
    const bool ok = kind == ir::Op::kAdd ? add_multipliers(a_q.scale, b_q.scale, out_q.scale, left_shift, &m)
                                     : sub_multipliers(a_q.scale, b_q.scale, out_q.scale, left_shift, &m);
    if (!ok) {
      l.fail("scales " + float_string(a_q.scale) + ", " + float_string(b_q.scale) + " -> " +
             float_string(out_q.scale) + " give a rescaling multiplier outside (0, 1)");
    }
    p.input1_multiplier = m.input1_multiplier;
    p.input1_shift = m.input1_shift;
    p.input2_multiplier = m.input2_multiplier;
    p.input2_shift = m.input2_shift;
    p.output_multiplier = m.output_multiplier;
    p.output_shift = m.output_shift;
    act_range(l, out_q, dtype, &p.act_min, &p.act_max);
    op.params = params_bytes(p);
    if (kind == ir::Op::kAdd) op.kernel = s8 ? KernelId::kAddS8 : KernelId::kAddS16;
    else op.kernel = s8 ? KernelId::kSubS8 : KernelId::kSubS16;
  } else if (kind == ir::Op::kMul) {
    if (!s8) {
      expect_zero_point_zero(l, a, "a", a_q.zero_point);
      expect_zero_point_zero(l, b, "b", b_q.zero_point);
      expect_zero_point_zero(l, out, "output", out_q.zero_point);
    }
    QuantMulParams p{};
    p.input1_zero_point = a_q.zero_point;
    p.input2_zero_point = b_q.zero_point;
    p.output_zero_point = out_q.zero_point;
    mul_multiplier(a_q.scale, b_q.scale, out_q.scale, &p.output_multiplier, &p.output_shift);
    expect_shift(l, p.output_shift, kMinShift, kMaxShift, "requantization");
    act_range(l, out_q, dtype, &p.act_min, &p.act_max);
    op.params = params_bytes(p);
    op.kernel = s8 ? KernelId::kMulS8 : KernelId::kMulS16;
  } else {
    l.fail(std::string("quantized ") + ir::op_name(kind) + " has no kernel (expected add, sub or mul)");
  }
  return op;
}

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

LoweredOp lower_softmax_quant(const NodeLowering& l) {
  expect_same_shape(l);
  l.expect_min_rank(l.input(0), "input", 1);
  if (activation_dtype(l) != DType::kInt8) l.fail("int16 softmax has no kernel yet");
  const TensorQuant in_q = per_tensor(l, l.input(0), "input");
  expect_fixed_output_quant(l, 1.0f / 256.0f, -128);
  SoftmaxS8Params p{};
  const float beta = static_cast<float>(l.node().get_float("beta", 1.0));
  if (!softmax_s8_params(beta, in_q.scale, &p.input_multiplier, &p.input_left_shift, &p.diff_min)) {
    l.fail("beta " + float_string(beta) + " * input scale " + float_string(in_q.scale) +
           " is too small for TFLite's int8 softmax");
  }
  LoweredOp op;
  op.kernel = KernelId::kSoftmaxS8;
  op.params = params_bytes(p);
  return op;
}

LoweredOp lower_sigmoid_tanh_quant(const NodeLowering& l, bool sigmoid) {
  expect_same_shape(l);
  if (activation_dtype(l) != DType::kInt8)
    l.fail(std::string("int16 ") + ir::op_name(l.node().op) + " has no kernel yet");
  const TensorQuant in_q = per_tensor(l, l.input(0), "input");
  if (sigmoid) expect_fixed_output_quant(l, 1.0f / 256.0f, -128);
  else expect_fixed_output_quant(l, 1.0f / 128.0f, 0);
  SigmoidTanhS8Params p{};
  p.input_zero_point = in_q.zero_point;
  if (!sigmoid_tanh_s8_params(in_q.scale, &p.input_multiplier, &p.input_left_shift, &p.input_range_radius)) {
    l.fail("input scale " + float_string(in_q.scale) + " is outside what TFLite's int8 " + ir::op_name(l.node().op) +
           " supports");
  }
  LoweredOp op;
  op.kernel = sigmoid ? KernelId::kSigmoidS8 : KernelId::kTanhS8;
  op.params = params_bytes(p);
  return op;
}

LoweredOp lower_leaky_relu_quant(const NodeLowering& l) {
  expect_same_shape(l);
  const DType dtype = activation_dtype(l);
  const TensorQuant in_q = per_tensor(l, l.input(0), "input");
  const TensorQuant out_q = per_tensor(l, l.output(0), "output");
  const double alpha = l.node().get_float("alpha", 0.2);
  if (!std::isfinite(alpha)) l.fail("alpha " + float_string(alpha) + " is not finite");
  LeakyReluQuantParams p{};
  p.input_zero_point = in_q.zero_point;
  p.output_zero_point = out_q.zero_point;
  leaky_relu_multipliers(in_q.scale, static_cast<float>(alpha), out_q.scale, &p.alpha_multiplier,
                         &p.alpha_shift, &p.identity_multiplier, &p.identity_shift);
  expect_shift(l, p.alpha_shift, kMinShift, kMaxShift, "alpha");
  expect_shift(l, p.identity_shift, kMinShift, kMaxShift, "identity");
  if (p.alpha_multiplier == std::numeric_limits<int32_t>::min()) l.fail("alpha multiplier overflows");
  LoweredOp op;
  op.kernel = dtype == DType::kInt8 ? KernelId::kLeakyReluS8 : KernelId::kLeakyReluS16;
  op.params = params_bytes(p);
  return op;
}

// quantize: float -> int8/int16, or requantize between int8/int16/int32.
LoweredOp lower_quantize(const NodeLowering& l) {
  expect_same_shape(l);
  const ir::Tensor& in = l.input(0);
  const ir::Tensor& out = l.output(0);
  LoweredOp op;
  if (in.dtype == DType::kFloat32) {
    const TensorQuant out_q = per_tensor(l, out, "output");
    if (out.dtype == DType::kInt8) op.kernel = KernelId::kQuantizeF32S8;
    else if (out.dtype == DType::kInt16) op.kernel = KernelId::kQuantizeF32S16;
    else l.fail(l.label(out, "output") + " has dtype " + dtype_string(out.dtype) + ", expected int8 or int16");
    op.params = params_bytes(AffineQuantParams{out_q.scale, out_q.zero_point});
    return op;
  }
  if (!is_integer(in.dtype) || !is_integer(out.dtype)) {
    l.fail(std::string("quantize from ") + dtype_string(in.dtype) + " to " + dtype_string(out.dtype) +
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
  };
  for (const Pair& pair : kPairs) {
    if (pair.from != in.dtype || pair.to != out.dtype) continue;
    RequantizeParams p{};
    p.input_zero_point = in_q.zero_point;
    p.output_zero_point = out_q.zero_point;
    requantize_multiplier(in_q.scale, out_q.scale, &p.multiplier, &p.shift);
    expect_shift(l, p.shift, kMinShift, kMaxShift, "requantization");
    op.kernel = pair.kernel;
    op.params = params_bytes(p);
    return op;
  }
  l.fail(std::string("requantize from ") + dtype_string(in.dtype) + " to " + dtype_string(out.dtype) +
         " is not supported");
}

LoweredOp lower_dequantize(const NodeLowering& l) {
  expect_same_shape(l);
  const ir::Tensor& in = l.input(0);
  l.expect_dtype(l.output(0), "output", DType::kFloat32);
  const TensorQuant in_q = per_tensor(l, in, "input");
  LoweredOp op;
  if (in.dtype == DType::kInt8) op.kernel = KernelId::kDequantizeS8F32;
  else if (in.dtype == DType::kInt16) op.kernel = KernelId::kDequantizeS16F32;
  else l.fail(l.label(in, "input") + " has dtype " + dtype_string(in.dtype) + ", expected int8 or int16");
  op.params = params_bytes(AffineQuantParams{in_q.scale, in_q.zero_point});
  return op;
}

// ---------------------------------------------------------------------------------------
// Pooling and reductions
// ---------------------------------------------------------------------------------------

LoweredOp lower_pool2d_quant(const NodeLowering& l, bool average) {
  l.expect_io(1, 1, 1);
  const ir::Tensor& in = l.input(0);
  const ir::Tensor& out = l.output(0);
  l.expect_rank(in, "input", 4);
  l.expect_rank(out, "output", 4);
  const DType dtype = activation_dtype(l);
  if (!same_quant(in, out)) {
    l.fail("input and output quantization differ; TFLite pooling requires them equal");
  }
  const auto kernel = l.ints("kernel", 2, {}, 1);
  const WindowGeometry w = l.window();
  const std::string dtype_name = dtype_string(dtype);
  if (w.dilation_h != 1 || w.dilation_w != 1) l.fail("dilated pooling is not supported on " + dtype_name);
  if (average && l.node().get_int("count_include_pad", 0) != 0) {
    l.fail("count_include_pad is not supported on " + dtype_name +
           " (TFLite averages only the cells inside the image)");
  }
  Pool2dS8Params p{};
  p.kernel_h = kernel[0];
  p.kernel_w = kernel[1];
  p.window = w;
  if (w.pad_top >= p.kernel_h || w.pad_bottom >= p.kernel_h || w.pad_left >= p.kernel_w ||
      w.pad_right >= p.kernel_w) {
    l.fail("pads " + shape_string({w.pad_top, w.pad_left, w.pad_bottom, w.pad_right}) +
           " must be smaller than the kernel");
  }
  const int64_t oh = window_output_h(w, in.shape[1], p.kernel_h, false);
  const int64_t ow = window_output_w(w, in.shape[2], p.kernel_w, false);
  l.expect_shape(out, "output", {in.shape[0], oh, ow, in.shape[3]});
  act_range(l, per_tensor(l, out, "output"), dtype, &p.act_min, &p.act_max);
  LoweredOp op;
  if (dtype == DType::kInt8) {
    op.kernel = average ? KernelId::kAvgPool2dS8 : KernelId::kMaxPool2dS8;
    op.params = params_bytes(p);
  } else {
    // The int16 kernels take the same fields; avg_pool2d_s16 bounds the window (pool2d.h).
    if (average && int64_t{p.kernel_h} * p.kernel_w > 65535) {
      l.fail("int16 average pooling window " + std::to_string(p.kernel_h) + "x" +
             std::to_string(p.kernel_w) + " has more than 65535 cells (its int32 sum could overflow)");
    }
    const Pool2dS16Params p16{p.kernel_h, p.kernel_w, p.window, p.act_min, p.act_max};
    op.kernel = average ? KernelId::kAvgPool2dS16 : KernelId::kMaxPool2dS16;
    op.params = params_bytes(p16);
  }
  return op;
}

LoweredOp lower_mean_quant(const NodeLowering& l) {
  l.expect_io(1, 1, 1);
  const ir::Tensor& in = l.input(0);
  const ir::Tensor& out = l.output(0);
  // int16: the same arithmetic with int16 data and zero points (TFLite Micro requires
  // neither equal scales nor zero point 0 for MEAN).
  const DType dtype = activation_dtype(l);
  const size_t rank = in.shape.size();
  std::vector<int64_t> axes = l.node().get_ints("axes");
  if (!l.node().has("axes"))
    for (size_t i = 0; i < rank; ++i) axes.push_back(static_cast<int64_t>(i));
  MeanS8Params p{};
  for (int64_t axis : axes) {
    if (axis < 0 || static_cast<size_t>(axis) >= rank) {
      l.fail("axis " + std::to_string(axis) + " is out of range for input rank " + std::to_string(rank));
    }
    if (p.axes_mask & (1u << axis)) l.fail("axis " + std::to_string(axis) + " is listed twice");
    p.axes_mask |= 1u << axis;
  }
  int64_t kept = 1, reduced = 1;
  for (size_t i = 0; i < rank; ++i) (p.axes_mask & (1u << i) ? reduced : kept) *= in.shape[i];
  if (out.elements() != kept) {
    l.fail("output '" + out.name + "' has shape " + shape_string(out.shape) + ", expected " +
           std::to_string(kept) + " kept elements");
  }
  const TensorQuant in_q = per_tensor(l, in, "input");
  const TensorQuant out_q = per_tensor(l, out, "output");
  p.input_zero_point = in_q.zero_point;
  p.output_zero_point = out_q.zero_point;
  mean_multiplier(in_q.scale, out_q.scale, reduced, &p.multiplier, &p.shift);
  expect_shift(l, p.shift, kMinShift, kMaxShift, "requantization");
  LoweredOp op;
  if (dtype == DType::kInt8) {
    op.kernel = KernelId::kMeanS8;
    op.params = params_bytes(p);
  } else {
    const MeanS16Params p16{p.axes_mask, p.input_zero_point, p.output_zero_point, p.multiplier, p.shift};
    op.kernel = KernelId::kMeanS16;
    op.params = params_bytes(p16);
  }
  return op;
}

// ---------------------------------------------------------------------------------------
// Data movement on quantized tensors: the bytes move unchanged, as in TFLite Micro
// (RESHAPE, SQUEEZE, PAD, STRIDED_SLICE, TRANSPOSE copy the quantized values).
// ---------------------------------------------------------------------------------------

void expect_same_dtype(const NodeLowering& l) {
  l.expect_dtype(l.output(0), "output", l.input(0).dtype);
}

LoweredOp lower_copy_quant(const NodeLowering& l) {
  l.expect_io(1, 1, 1);
  expect_same_dtype(l);
  if (l.output(0).elements() != l.input(0).elements()) {
    l.fail("output '" + l.output(0).name + "' has shape " + shape_string(l.output(0).shape) +
           ", expected " + std::to_string(l.input(0).elements()) + " elements like input " +
           shape_string(l.input(0).shape));
  }
  LoweredOp op;
  op.kernel = KernelId::kCopy;
  return op;
}

LoweredOp lower_pad_quant(const NodeLowering& l) {
  l.expect_io(1, 1, 1);
  expect_same_dtype(l);
  const ir::Tensor& in = l.input(0);
  const ir::Tensor& out = l.output(0);
  const size_t rank = in.shape.size();
  const std::vector<int64_t> pads = l.node().get_ints("pads");
  if (pads.size() != 2 * rank) {
    l.fail("pads has " + std::to_string(pads.size()) + " values, expected 2 * rank = " + std::to_string(2 * rank));
  }
  if (l.node().get_string("mode", "constant") != "constant") {
    l.fail("mode '" + l.node().get_string("mode") + "' is not supported on quantized tensors (constant only)");
  }
  PadParams p{};
  p.mode = static_cast<uint32_t>(PadMode::kConstant);
  ir::Shape expected(rank);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t before = pads[i], after = pads[rank + i];
    if (before < 0 || after < 0 || before > kMaxI32 || after > kMaxI32) {
      l.fail("pads " + shape_string(pads) + " must be non-negative");
    }
    p.before[i] = static_cast<int32_t>(before);
    p.after[i] = static_cast<int32_t>(after);
    expected[i] = before + in.shape[i] + after;
  }
  l.expect_shape(out, "output", expected);
  // The pad element: the real value quantized with the output's parameters (PAD: 0 -> the
  // zero point; PADV2: its constant, which shares the output's quantization).
  const TensorQuant out_q = per_tensor(l, out, "output");
  const double value = l.node().get_float("value", 0.0);
  const double q = out_q.zero_point + std::round(value / static_cast<double>(out_q.scale));
  if (!(q >= type_min(out.dtype) && q <= type_max(out.dtype))) {
    l.fail("pad value " + float_string(value) + " quantizes to " + float_string(q) + ", outside " +
           dtype_string(out.dtype));
  }
  std::memset(p.value, 0, sizeof p.value);
  if (out.dtype == DType::kInt8) {
    const int8_t v = static_cast<int8_t>(q);
    std::memcpy(p.value, &v, sizeof v);
  } else if (out.dtype == DType::kInt16) {
    const int16_t v = static_cast<int16_t>(q);
    std::memcpy(p.value, &v, sizeof v);
  } else {
    const int32_t v = static_cast<int32_t>(q);
    std::memcpy(p.value, &v, sizeof v);
  }
  LoweredOp op;
  op.kernel = KernelId::kPad;
  op.params = params_bytes(p);
  return op;
}

LoweredOp lower_concat_quant(const NodeLowering& l) {
  l.expect_io(1, 255, 1);
  const ir::Tensor& out = l.output(0);
  for (size_t i = 0; i < l.node().inputs.size(); ++i) {
    if (!l.has_input(i)) l.fail("input " + std::to_string(i) + " is missing");
    const ir::Tensor& t = l.input(i);
    l.expect_dtype(t, "input", out.dtype);
    if (!same_quant(t, out)) {
      l.fail(l.label(t, "input") + " is quantized differently from the output; concat of "
             "differently quantized inputs (a requantizing concat) is not supported");
    }
  }
  const ir::Tensor& first = l.input(0);
  const int64_t axis = l.node().get_int("axis", 0);
  if (axis < 0 || static_cast<size_t>(axis) >= first.shape.size()) {
    l.fail("axis " + std::to_string(axis) + " is out of range for input rank " + std::to_string(first.shape.size()));
  }
  ir::Shape expected = first.shape;
  expected[axis] = 0;
  for (size_t i = 0; i < l.node().inputs.size(); ++i) {
    const ir::Tensor& t = l.input(i);
    ir::Shape masked = t.shape;
    if (masked.size() == first.shape.size()) masked[axis] = first.shape[axis];
    if (masked != first.shape) {
      l.fail("input '" + t.name + "' has shape " + shape_string(t.shape) + ", expected " +
             shape_string(first.shape) + " except on axis " + std::to_string(axis));
    }
    expected[axis] += t.shape[axis];
  }
  l.expect_shape(out, "output", expected);
  ConcatParams p{};
  p.axis = static_cast<uint32_t>(axis);
  LoweredOp op;
  op.kernel = KernelId::kConcat;
  op.params = params_bytes(p);
  return op;
}

// ---------------------------------------------------------------------------------------
// Recurrent
// ---------------------------------------------------------------------------------------

// TFLite Micro's CheckedLog2: round(log2(x)) computed in float (the exactness flag it
// also returns is ignored by the LSTM, and so here).
int32_t checked_log2(float x) {
  const float log2x = std::log(x) * (1.0f / std::log(2.0f));
  return static_cast<int32_t>(std::round(log2x));
}

// UNIDIRECTIONAL_SEQUENCE_LSTM, integer 8x8->16 (kernels/lstm/lstm.h): what TFLite
// Micro's Prepare accepts (ValidateTensorStatus, ValidateTensorSize), with parameters
// derived as its PrepareGateParametersInteger / CreateLstmCellStateInfo do.
LoweredOp lower_lstm_quant(const NodeLowering& l) {
  const ir::Node& node = l.node();
  if (node.inputs.size() != 24) {
    l.fail("has " + std::to_string(node.inputs.size()) + " inputs, expected TFLite's 24");
  }
  if (node.outputs.size() != 1 || node.outputs[0] == ir::kNoTensor) l.fail("expected one output");
  struct Variant { int first, last; const char* what; };
  static const Variant kUnsupported[] = {
      {9, 11, "peephole connections (inputs 9..11, cell-to-gate weights)"},
      {16, 17, "a projection layer (inputs 16..17)"},
      {20, 23, "layer normalization (inputs 20..23)"},
  };
  for (const Variant& v : kUnsupported)
    for (int i = v.first; i <= v.last; ++i)
      if (l.has_input(i)) l.fail(std::string("uses ") + v.what + ", which the integer LSTM kernel does not support");
  for (int i : {1, 5, 12})
    if (!l.has_input(i)) l.fail("input " + std::to_string(i) + " is missing: coupled input and forget gates (CIFG) are not supported by the integer LSTM kernel");
  for (int i : {0, 2, 3, 4, 6, 7, 8, 13, 14, 15, 18, 19})
    if (!l.has_input(i)) l.fail("input " + std::to_string(i) + " is missing");

  const ir::Tensor& x = l.input(0);
  const ir::Tensor& y = l.output(0);
  const ir::Tensor& h0 = l.input(18);
  const ir::Tensor& c0 = l.input(19);
  if (x.dtype != DType::kInt8) {
    l.fail(l.label(x, "input") + " has dtype " + dtype_string(x.dtype) +
           ", expected int8 (only the 8x8->16 integer LSTM is supported; float, hybrid and "
           "int16 LSTMs are not)");
  }
  l.expect_dtype(y, "output", DType::kInt8);
  l.expect_dtype(h0, "hidden state", DType::kInt8);
  l.expect_dtype(c0, "cell state", DType::kInt16);
  l.expect_rank(x, "input", 3);
  l.expect_rank(y, "output", 3);
  const bool time_major = node.get_int("time_major", 0) != 0;
  const int64_t batches = time_major ? x.shape[1] : x.shape[0];
  const int64_t inputs = x.shape[2];
  const int64_t units = h0.shape.empty() ? 0 : h0.shape.back();
  if (units < 1 || h0.elements() != batches * units) {
    l.fail(l.label(h0, "hidden state") + " has shape " + shape_string(h0.shape) + ", expected " +
           std::to_string(batches) + " x units elements");
  }
  if (c0.elements() != batches * units) {
    l.fail(l.label(c0, "cell state") + " has shape " + shape_string(c0.shape) + ", expected " +
           std::to_string(batches * units) + " elements");
  }
  if (!h0.is_constant || !c0.is_constant) {
    l.fail("the hidden and cell state inputs must be constants (the initial state)");
  }
  l.expect_shape(y, "output", {x.shape[0], x.shape[1], units});
  const std::string activation = node.get_string("activation", "tanh");
  if (activation != "tanh") {
    l.fail("cell gate activation '" + activation + "' is not supported (TFLite Micro's integer LSTM: tanh)");
  }

  const TensorQuant x_q = per_tensor(l, x, "input");
  const TensorQuant h_q = per_tensor(l, h0, "hidden state");
  const TensorQuant c_q = per_tensor(l, c0, "cell state");
  expect_zero_point_zero(l, c0, "cell state", c_q.zero_point);
  const float gate_scale = 1.0f / 4096;       // 2^-12: gate pre-activations, Q3.12
  const float gate_out_scale = 1.0f / 32768;  // 2^-15: gate outputs, Q0.15

  static const char* const kGateNames[4] = {"input", "forget", "cell", "output"};
  LstmS8Params p{};
  for (int g = 0; g < 4; ++g) {
    const std::string gate = kGateNames[g];
    const ir::Tensor& wx = l.input(1 + g);
    const ir::Tensor& wh = l.input(5 + g);
    const ir::Tensor& bias = l.input(12 + g);
    const std::string wx_role = gate + " gate input weights";
    const std::string wh_role = gate + " gate recurrent weights";
    l.expect_dtype(wx, wx_role.c_str(), DType::kInt8);
    l.expect_dtype(wh, wh_role.c_str(), DType::kInt8);
    l.expect_shape(wx, wx_role.c_str(), {units, inputs});
    l.expect_shape(wh, wh_role.c_str(), {units, units});
    l.expect_dtype(bias, (gate + " gate bias").c_str(), DType::kInt32);
    l.expect_shape(bias, (gate + " gate bias").c_str(), {units});
    for (const ir::Tensor* w : {&wx, &wh}) {
      if (w->quant.scales.size() > 1) {
        l.fail(l.label(*w, "weights") + " is quantized per channel; TFLite Micro's LSTM uses "
               "per-tensor weight scales only");
      }
    }
    const TensorQuant wx_q = per_tensor(l, wx, wx_role.c_str());
    const TensorQuant wh_q = per_tensor(l, wh, wh_role.c_str());
    LstmGateParams& gp = p.gate[g];
    fully_connected_multiplier(x_q.scale, wx_q.scale, gate_scale, &gp.input_multiplier, &gp.input_shift);
    fully_connected_multiplier(h_q.scale, wh_q.scale, gate_scale, &gp.recurrent_multiplier,
                               &gp.recurrent_shift);
    expect_shift(l, gp.input_shift, kMinShift, kMaxShift, gate + " gate input");
    expect_shift(l, gp.recurrent_shift, kMinShift, kMaxShift, gate + " gate recurrent");
    gp.input_weight_zero_point = wx_q.zero_point;
    gp.recurrent_weight_zero_point = wh_q.zero_point;
  }
  mul_multiplier(gate_out_scale, c_q.scale, c_q.scale, &p.forget_cell.multiplier, &p.forget_cell.shift);
  mul_multiplier(gate_out_scale, gate_out_scale, c_q.scale, &p.input_cell.multiplier, &p.input_cell.shift);
  mul_multiplier(gate_out_scale, gate_out_scale, h_q.scale, &p.hidden.multiplier, &p.hidden.shift);
  expect_shift(l, p.forget_cell.shift, kMinShift, kMaxShift, "forget x cell");
  expect_shift(l, p.input_cell.shift, kMinShift, kMaxShift, "input x cell gate");
  expect_shift(l, p.hidden.shift, kMinShift, kMaxShift, "hidden state");
  p.input_zero_point = x_q.zero_point;
  p.hidden_zero_point = h_q.zero_point;

  // tanh of the cell state: TFLite Micro's lstm_internal::Tanh with the cell scale's power.
  const int32_t power = checked_log2(c_q.scale);
  const int32_t tanh_shift = 12 + power;  // (15 + power) - 3
  if (tanh_shift > 12 || tanh_shift < -31) {
    l.fail(l.label(c0, "cell state") + " has scale " + float_string(c_q.scale) +
           ", outside what the integer LSTM's tanh supports (2^-43 .. 2^0)");
  }
  p.cell_tanh_multiplier = tanh_shift >= 0 ? 3 << tanh_shift : 3;
  p.cell_tanh_shift = tanh_shift >= 0 ? 0 : -tanh_shift;

  const double cell_clip = node.get_float("cell_clip", 0.0);
  if (std::isnan(cell_clip)) l.fail("cell_clip is NaN");
  p.cell_clip_enabled = static_cast<float>(cell_clip) > 0.0f ? 1 : 0;
  if (p.cell_clip_enabled) {
    const double q = std::min(std::max(static_cast<double>(static_cast<float>(cell_clip)) /
                                           static_cast<double>(c_q.scale), -32768.0),
                              32767.0);
    p.cell_clip = static_cast<int16_t>(q);
  }
  p.time_major = time_major ? 1 : 0;

  LoweredOp op;
  op.kernel = KernelId::kLstmS8;
  op.params = params_bytes(p);
  const int64_t steps = time_major ? x.shape[0] : x.shape[1];
  op.macs = static_cast<uint64_t>(batches * steps) * static_cast<uint64_t>(4 * units * (inputs + units));
  return op;
}

}  // namespace

// Any dtype (element bytes): begin/strides/sizes per input axis, as mote_ops.md.
LoweredOp lower_strided_slice(const NodeLowering& l) {
  l.expect_io(1, 1, 1);
  l.expect_dtype(l.output(0), "output", l.input(0).dtype);
  const ir::Tensor& in = l.input(0);
  const size_t rank = in.shape.size();
  const std::vector<int64_t> begin = l.node().get_ints("begin");
  const std::vector<int64_t> strides = l.node().get_ints("strides");
  const std::vector<int64_t> sizes = l.node().get_ints("sizes");
  if (begin.size() != rank || strides.size() != rank || sizes.size() != rank) {
    l.fail("begin, strides and sizes must hold " + std::to_string(rank) + " values each (input " +
           shape_string(in.shape) + ")");
  }
  StridedSliceParams p{};
  int64_t elements = 1;
  for (size_t i = 0; i < kMaxRank; ++i) {
    p.begin[i] = 0;
    p.stride[i] = 1;
    p.count[i] = 1;
  }
  for (size_t i = 0; i < rank; ++i) {
    const int64_t dim = in.shape[i];
    const int64_t last = begin[i] + (sizes[i] - 1) * strides[i];
    if (strides[i] == 0 || sizes[i] < 1 || begin[i] < 0 || begin[i] >= dim || last < 0 || last >= dim ||
        strides[i] > kMaxI32 || strides[i] < -kMaxI32) {
      l.fail("axis " + std::to_string(i) + ": begin " + std::to_string(begin[i]) + ", stride " +
             std::to_string(strides[i]) + ", size " + std::to_string(sizes[i]) + " leave the dim " +
             std::to_string(dim));
    }
    p.begin[i] = static_cast<int32_t>(begin[i]);
    p.stride[i] = static_cast<int32_t>(strides[i]);
    p.count[i] = static_cast<int32_t>(sizes[i]);
    elements *= sizes[i];
  }
  if (l.output(0).elements() != elements) {
    l.fail("output '" + l.output(0).name + "' has shape " + shape_string(l.output(0).shape) + ", expected " +
           std::to_string(elements) + " elements");
  }
  LoweredOp op;
  op.kernel = KernelId::kStridedSlice;
  op.params = params_bytes(p);
  return op;
}

bool is_quantized_node(const ir::Graph& graph, const ir::Node& node) {
  if (node.op == ir::Op::kQuantize || node.op == ir::Op::kDequantize || node.op == ir::Op::kLstm) return true;
  auto quantized = [&](int id) {
    if (id == ir::kNoTensor || id < 0 || static_cast<size_t>(id) >= graph.tensors.size()) return false;
    const ir::Tensor& t = graph.tensors[id];
    return !t.quant.empty() || t.dtype == DType::kInt8 || t.dtype == DType::kInt16;
  };
  // The activations decide (input 0 and the outputs); an int8 weight under a float op
  // (TFLite "hybrid") stays on the float path, which refuses it by dtype.
  if (!node.inputs.empty() && quantized(node.inputs[0])) return true;
  for (int id : node.outputs)
    if (quantized(id)) return true;
  return false;
}

namespace {

// The reference integer kernel for node l (every target runs these).
LoweredOp lower_quantized_reference(const NodeLowering& l) {
  using ir::Op;
  switch (l.node().op) {
    case Op::kConv2d: return lower_conv2d_quant(l);
    case Op::kDepthwiseConv2d: return lower_depthwise_conv2d_quant(l);
    case Op::kFullyConnected: return lower_fully_connected_quant(l);
    case Op::kTransposeConv: return lower_transpose_conv_quant(l);
    case Op::kAdd:
    case Op::kSub:
    case Op::kMul:
    case Op::kDiv: return lower_binary_quant(l);
    case Op::kSoftmax: return lower_softmax_quant(l);
    case Op::kSigmoid: return lower_sigmoid_tanh_quant(l, true);
    case Op::kTanh: return lower_sigmoid_tanh_quant(l, false);
    case Op::kLeakyRelu: return lower_leaky_relu_quant(l);
    case Op::kQuantize: return lower_quantize(l);
    case Op::kDequantize: return lower_dequantize(l);
    case Op::kAvgPool2d: return lower_pool2d_quant(l, true);
    case Op::kMaxPool2d: return lower_pool2d_quant(l, false);
    case Op::kMean: return lower_mean_quant(l);
    case Op::kReshape:
    case Op::kCopy: return lower_copy_quant(l);
    case Op::kPad: return lower_pad_quant(l);
    case Op::kConcat: return lower_concat_quant(l);
    case Op::kStridedSlice: return lower_strided_slice(l);
    case Op::kLstm: return lower_lstm_quant(l);
    case Op::kBatchMatMul:
    case Op::kClamp:
    case Op::kTranspose:  // moves bytes of any dtype: lower_node never sends it here
      break;
  }
  l.fail(std::string("quantized ") + ir::op_name(l.node().op) + " has no integer kernel");
}

}  // namespace

LoweredOp lower_quantized_node(const NodeLowering& l, Target target) {
  LoweredOp op = lower_quantized_reference(l);
  select_variant(l, target, op);  // the target's faster variant, same parameters
  return op;
}

}  // namespace mote::lower
