// Lowering of the convolutions: conv2d and depthwise_conv2d on float32, int8 and int16
// activations (int16 with int8 weights: TFLite "16x8"), transpose_conv on float32, int8 and int16.
//
// conv2d and depthwise_conv2d each run one check on every dtype (tensors, attributes and
// the output size by the window rule, window_output_size in kernels/window_geometry.h);
// the dtype then decides only the kernel and the parameter struct it fills: Conv2dParams
// (float32), Conv2dS8Params, Conv2dS16Params, and likewise for depthwise.
#include <cstdlib>
#include <string>
#include <vector>

#include "lower/node_lowering.h"
#include "lower/quantization.h"
// Kernel parameter structs.
#include "conv2d/conv2d.h"
#include "depthwise_conv2d/depthwise_conv2d.h"
#include "transpose_conv/transpose_conv.h"

namespace mote::lower {
namespace {

// What a convolution's check establishes, for every dtype.
struct ConvCheck {
  DType dtype = DType::kFloat32;  // of input 0 and output 0
  WindowGeometry window{};
  int64_t channels = 0;           // output channels: of the output and the bias
  int32_t groups = 1;             // conv2d
  int32_t depth_multiplier = 1;   // depthwise_conv2d
  uint64_t macs = 0;
};

// Input [N,H,W,C], filter and output rank 4; the dtypes; the window attributes.
ConvCheck check_conv_tensors(const NodeLowering& l) {
  l.expect_io(2, 3, 1);
  l.expect_rank(l.input(0), "input", 4);
  l.expect_rank(l.input(1), "filter", 4);
  l.expect_rank(l.output(0), "output", 4);
  ConvCheck c;
  c.dtype = expect_weighted_dtypes(l, "filter");
  c.window = l.window();
  return c;
}

// Output [N, OH, OW, channels] with OH, OW the window rule's, at least 1.
void expect_conv_output(const NodeLowering& l, const WindowGeometry& w, int64_t kh, int64_t kw, int64_t channels) {
  const ir::Tensor& in = l.input(0);
  const int64_t oh = window_output_h(w, in.shape[1], kh, false);
  const int64_t ow = window_output_w(w, in.shape[2], kw, false);
  if (oh < 1 || ow < 1) {
    l.fail("kernel " + std::to_string(kh) + "x" + std::to_string(kw) + " does not fit the padded " +
           std::to_string(in.shape[1]) + "x" + std::to_string(in.shape[2]) + " input");
  }
  l.expect_shape(l.output(0), "output", {in.shape[0], oh, ow, channels});
}

// conv2d: input [N,H,W,C], filter [O,KH,KW,C/group], output [N,OH,OW,O].
ConvCheck check_conv2d(const NodeLowering& l) {
  ConvCheck c = check_conv_tensors(l);
  const ir::Tensor& filter = l.input(1);
  const int64_t group = l.node().get_int("group", 1);
  if (group < 1 || group > kMaxI32) l.fail("group " + std::to_string(group) + " must be >= 1");
  const int64_t in_c = l.input(0).shape[3];
  const int64_t o = filter.shape[0], kh = filter.shape[1], kw = filter.shape[2];
  if (in_c % group != 0 || o % group != 0) {
    l.fail("group " + std::to_string(group) + " does not divide input channels " + std::to_string(in_c) +
           " and output channels " + std::to_string(o));
  }
  if (filter.shape[3] != in_c / group) {
    l.fail("filter '" + filter.name + "' has shape " + shape_string(filter.shape) +
           ", expected dim 3 = input channels / group = " + std::to_string(in_c / group));
  }
  expect_conv_output(l, c.window, kh, kw, o);
  c.channels = o;
  c.groups = static_cast<int32_t>(group);
  c.macs = static_cast<uint64_t>(l.output(0).elements()) * static_cast<uint64_t>(kh * kw * (in_c / group));
  return c;
}

// depthwise_conv2d: input [N,H,W,C], filter [1,KH,KW,C*M], output [N,OH,OW,C*M] with M
// the depth multiplier (attribute, default the filter's channels / C).
ConvCheck check_depthwise_conv2d(const NodeLowering& l) {
  ConvCheck c = check_conv_tensors(l);
  const ir::Tensor& filter = l.input(1);
  const int64_t in_c = l.input(0).shape[3];
  const int64_t kh = filter.shape[1], kw = filter.shape[2], oc = filter.shape[3];
  if (filter.shape[0] != 1) {
    l.fail("filter '" + filter.name + "' has shape " + shape_string(filter.shape) + ", expected [1,KH,KW,C*M]");
  }
  const int64_t multiplier = l.node().get_int("depth_multiplier", in_c > 0 ? oc / in_c : 1);
  if (multiplier < 1 || in_c * multiplier != oc) {
    l.fail("filter '" + filter.name + "' has " + std::to_string(oc) + " channels, expected input channels " +
           std::to_string(in_c) + " * depth_multiplier " + std::to_string(multiplier));
  }
  expect_conv_output(l, c.window, kh, kw, oc);
  c.channels = oc;
  c.depth_multiplier = static_cast<int32_t>(multiplier);
  c.macs = static_cast<uint64_t>(l.output(0).elements()) * static_cast<uint64_t>(kh * kw);
  return c;
}

// The requantization inputs of a quantized convolution: per-tensor input and output, the
// filter's scale per output channel (per-channel along filter_axis, or one for all).
struct ConvQuant {
  TensorQuant in, out;
  std::vector<float> filter_scales;
};

ConvQuant conv_quant(const NodeLowering& l, const ConvCheck& c, int32_t filter_axis) {
  return {per_tensor(l, l.input(0), "input"), per_tensor(l, l.output(0), "output"),
          channel_scales(l, l.input(1), filter_axis, c.channels)};
}

// The float32 parameters: the window and the fused activation as they are.
template <typename P>
std::vector<uint8_t> conv_f32_params(const NodeLowering& l, const ConvCheck& c, P p) {
  expect_float32(l);
  expect_bias(l, 2, c.channels, {DType::kFloat32});
  p.window = c.window;
  l.act(&p.act_min, &p.act_max);
  return params_bytes(p);
}

// The int8 parameters: the window, the zero points, the quantized activation range, then
// multiplier[C] and shift[C].
template <typename P>
std::vector<uint8_t> conv_s8_params(const NodeLowering& l, const ConvCheck& c, const ConvQuant& q, P p) {
  expect_bias(l, 2, c.channels, {DType::kInt32});
  p.window = c.window;
  p.input_zero_point = q.in.zero_point;
  p.output_zero_point = q.out.zero_point;
  act_range(l, q.out, c.dtype, &p.act_min, &p.act_max);
  std::vector<int32_t> multipliers, shifts;
  channel_multipliers(l, q.in.scale, q.filter_scales, q.out.scale, kMaxShift, &multipliers, &shifts);
  return params_with_arrays(p, {&multipliers, &shifts});
}

// The int16 (16x8) parameters: zero points 0, the window, the quantized activation range,
// then multiplier[C] and shift[C], each shift within what the accumulator allows.
template <typename P>
std::vector<uint8_t> conv_s16_params(const NodeLowering& l, const ConvCheck& c, const ConvQuant& q,
                                     std::initializer_list<DType> bias_dtypes, int32_t accumulator, P p) {
  expect_bias(l, 2, c.channels, bias_dtypes);
  expect_symmetric(l, q.in, q.out);
  p.window = c.window;
  act_range(l, q.out, c.dtype, &p.act_min, &p.act_max);
  std::vector<int32_t> multipliers, shifts;
  channel_multipliers(l, q.in.scale, q.filter_scales, q.out.scale, accumulator == 64 ? kMaxShift64 : kMaxShift,
                      &multipliers, &shifts);
  return params_with_arrays(p, {&multipliers, &shifts});
}

}  // namespace

LoweredOp lower_conv2d(const NodeLowering& l) {
  const ConvCheck c = check_conv2d(l);
  if (!l.quantized()) {
    Conv2dParams p{};
    p.groups = c.groups;
    return lowered(KernelId::kConv2dF32, conv_f32_params(l, c, p), c.macs);
  }
  const ConvQuant q = conv_quant(l, c, 0);
  if (c.dtype == DType::kInt8) {
    Conv2dS8Params p{};
    p.groups = c.groups;
    return lowered(KernelId::kConv2dS8, conv_s8_params(l, c, q, p), c.macs);
  }
  Conv2dS16Params p{};
  p.groups = c.groups;
  p.accumulator = accumulator_bits_16x8(l, 2);  // an int32 bias (allowed here) picks 32
  return lowered(KernelId::kConv2dS16, conv_s16_params(l, c, q, {DType::kInt64, DType::kInt32}, p.accumulator, p),
                 c.macs);
}

LoweredOp lower_depthwise_conv2d(const NodeLowering& l) {
  const ConvCheck c = check_depthwise_conv2d(l);
  if (!l.quantized()) {
    DepthwiseConv2dParams p{};
    p.depth_multiplier = c.depth_multiplier;
    return lowered(KernelId::kDepthwiseConv2dF32, conv_f32_params(l, c, p), c.macs);
  }
  const ConvQuant q = conv_quant(l, c, 3);
  if (c.dtype == DType::kInt8) {
    DepthwiseConv2dS8Params p{};
    p.depth_multiplier = c.depth_multiplier;
    return lowered(KernelId::kDepthwiseConv2dS8, conv_s8_params(l, c, q, p), c.macs);
  }
  DepthwiseConv2dS16Params p{};
  p.depth_multiplier = c.depth_multiplier;
  return lowered(KernelId::kDepthwiseConv2dS16, conv_s16_params(l, c, q, {DType::kInt64}, 64, p), c.macs);
}

// transpose_conv (float32; int8 or int16 activations with an int8 filter [O,KH,KW,C/group]):
// input pixel (y, x) scatters into output (y * stride_h - top + ky * dilation_h, likewise
// x), so OH = (H - 1) * stride_h + (KH - 1) * dilation_h + 1 - top - bottom (mote_ops.md),
// likewise OW; any pad may be negative. The kernels gather and need no scratch
// (kernels/transpose_conv/transpose_conv.h).
LoweredOp lower_transpose_conv(const NodeLowering& l) {
  l.expect_io(2, 3, 1);
  const ir::Tensor& in = l.input(0);
  const ir::Tensor& filter = l.input(1);
  const ir::Tensor& out = l.output(0);
  l.expect_rank(in, "input", 4);
  l.expect_rank(filter, "filter", 4);
  l.expect_rank(out, "output", 4);
  const DType dtype = expect_weighted_dtypes(l, "filter");
  const auto strides = l.ints("strides", 2, {1, 1}, 1);
  const auto dilations = l.ints("dilations", 2, {1, 1}, 1);
  const int64_t group = l.node().get_int("group", 1);
  const std::vector<int64_t> pads = l.node().get_ints("pads", {0, 0, 0, 0});
  if (pads.size() != 4) l.fail("attribute 'pads' has " + std::to_string(pads.size()) + " values, expected 4");
  const int64_t o = filter.shape[0], kh = filter.shape[1], kw = filter.shape[2];
  if (group < 1 || in.shape[3] % group != 0 || o % group != 0 || filter.shape[3] != in.shape[3] / group) {
    l.fail("filter '" + filter.name + "' has shape " + shape_string(filter.shape) + ", expected [O,KH,KW," +
           std::to_string(in.shape[3]) + "/" + std::to_string(group) + "] with O a multiple of the group " +
           std::to_string(group));
  }
  constexpr int64_t kMaxPad = int64_t{1} << 30;
  if (std::abs(pads[0]) >= kMaxPad || std::abs(pads[1]) >= kMaxPad)
    l.fail("pads " + shape_string(pads) + ": top and left must be within +-2^30");
  const int64_t oh = (in.shape[1] - 1) * strides[0] + (kh - 1) * dilations[0] + 1 - pads[0] - pads[2];
  const int64_t ow = (in.shape[2] - 1) * strides[1] + (kw - 1) * dilations[1] + 1 - pads[1] - pads[3];
  l.expect_shape(out, "output", {in.shape[0], oh, ow, o});
  const uint64_t macs = static_cast<uint64_t>(in.elements()) * static_cast<uint64_t>(o / group * kh * kw);
  const auto window = [&](auto* p) {
    p->stride_h = static_cast<int32_t>(strides[0]);
    p->stride_w = static_cast<int32_t>(strides[1]);
    p->pad_top = static_cast<int32_t>(pads[0]);
    p->pad_left = static_cast<int32_t>(pads[1]);
    p->dilation_h = static_cast<int32_t>(dilations[0]);
    p->dilation_w = static_cast<int32_t>(dilations[1]);
    p->groups = static_cast<int32_t>(group);
  };

  if (!l.quantized()) {
    expect_float32(l);
    expect_bias(l, 2, o, {DType::kFloat32});
    TransposeConvF32Params p{};
    window(&p);
    l.act(&p.act_min, &p.act_max);
    return lowered(KernelId::kTransposeConvF32, params_bytes(p), macs);
  }
  const TensorQuant in_q = per_tensor(l, in, "input");
  const TensorQuant out_q = per_tensor(l, out, "output");
  const std::vector<float> filter_scales = channel_scales(l, filter, 0, o);
  std::vector<int32_t> multipliers, shifts;
  if (dtype == DType::kInt8) {
    expect_bias(l, 2, o, {DType::kInt32});
    TransposeConvS8Params p{};
    window(&p);
    p.input_zero_point = in_q.zero_point;
    p.output_zero_point = out_q.zero_point;
    act_range(l, out_q, dtype, &p.act_min, &p.act_max);
    channel_multipliers(l, in_q.scale, filter_scales, out_q.scale, kMaxShift, &multipliers, &shifts);
    return lowered(KernelId::kTransposeConvS8, params_with_arrays(p, {&multipliers, &shifts}), macs);
  }
  expect_bias(l, 2, o, {DType::kInt64});
  expect_symmetric(l, in_q, out_q);
  TransposeConvS16Params p{};
  window(&p);
  act_range(l, out_q, dtype, &p.act_min, &p.act_max);
  channel_multipliers(l, in_q.scale, filter_scales, out_q.scale, kMaxShift64, &multipliers, &shifts);
  return lowered(KernelId::kTransposeConvS16, params_with_arrays(p, {&multipliers, &shifts}), macs);
}

}  // namespace mote::lower
