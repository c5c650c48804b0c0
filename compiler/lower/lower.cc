#include "lower/lower.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "common/error.h"
#include "lower/node_lowering.h"
#include "kernel_registry.h"
// Kernel parameter structs.
#include "activation/activation.h"
#include "batch_matmul/batch_matmul.h"
#include "concat/concat.h"
#include "conv2d/conv2d.h"
#include "depthwise_conv2d/depthwise_conv2d.h"
#include "elementwise/elementwise.h"
#include "fully_connected/fully_connected.h"
#include "lstm/lstm.h"
#include "mean/mean.h"
#include "pad/pad.h"
#include "pool2d/pool2d.h"
#include "softmax/softmax.h"
#include "transpose/transpose.h"

namespace mote::lower {
namespace {

// ---------------------------------------------------------------------------------------
// Kernel choice. This is the one place that maps (op, dtype, target) to a kernel: every
// target runs the reference kernels today. An optimized variant (for example a 1x1
// conv2d for cores with DSP instructions, or a Helium depthwise for cortex-m55) plugs in
// here, chosen by target and by the node's shapes, and must match its reference bit for
// bit (the kernel conformance suite checks that).
// ---------------------------------------------------------------------------------------

using ir::Op;

// The portable reference kernel for an op on `dtype`, or kInvalid when there is none.
KernelId reference_kernel(Op op, DType dtype) {
  const bool f32 = dtype == DType::kFloat32;
  switch (op) {
    // Data movement: any dtype.
    case Op::kTranspose: return KernelId::kTranspose;
    case Op::kConcat: return KernelId::kConcat;
    case Op::kPad: return KernelId::kPad;
    case Op::kStridedSlice: return KernelId::kStridedSlice;
    case Op::kReshape:
    case Op::kCopy: return KernelId::kCopy;
    // Arithmetic: float32.
    case Op::kConv2d: return f32 ? KernelId::kConv2dF32 : KernelId::kInvalid;
    case Op::kDepthwiseConv2d: return f32 ? KernelId::kDepthwiseConv2dF32 : KernelId::kInvalid;
    case Op::kFullyConnected: return f32 ? KernelId::kFullyConnectedF32 : KernelId::kInvalid;
    case Op::kBatchMatMul: return f32 ? KernelId::kBatchMatMulF32 : KernelId::kInvalid;
    case Op::kAdd: return f32 ? KernelId::kAddF32 : KernelId::kInvalid;
    case Op::kSub: return f32 ? KernelId::kSubF32 : KernelId::kInvalid;
    case Op::kMul: return f32 ? KernelId::kMulF32 : KernelId::kInvalid;
    case Op::kDiv: return f32 ? KernelId::kDivF32 : KernelId::kInvalid;
    case Op::kClamp: return f32 ? KernelId::kClampF32 : KernelId::kInvalid;
    case Op::kSigmoid: return f32 ? KernelId::kSigmoidF32 : KernelId::kInvalid;
    case Op::kTanh: return f32 ? KernelId::kTanhF32 : KernelId::kInvalid;
    case Op::kSoftmax: return f32 ? KernelId::kSoftmaxF32 : KernelId::kInvalid;
    case Op::kAvgPool2d: return f32 ? KernelId::kAvgPool2dF32 : KernelId::kInvalid;
    case Op::kMaxPool2d: return f32 ? KernelId::kMaxPool2dF32 : KernelId::kInvalid;
    case Op::kMean: return f32 ? KernelId::kMeanF32 : KernelId::kInvalid;
    // Quantized only (lower_quantized.cc).
    case Op::kTransposeConv:
    case Op::kLeakyRelu:
    case Op::kQuantize:
    case Op::kDequantize:
    case Op::kLstm: return KernelId::kInvalid;
  }
  return KernelId::kInvalid;
}

KernelId select_kernel(Op op, DType dtype, Target target) {
  const KernelId reference = reference_kernel(op, dtype);
  switch (target) {
    case Target::kHost:
    case Target::kCortexM0Plus:  // Armv6-M: no DSP; the reference kernels are the fast path
    case Target::kCortexM3:
    case Target::kCortexM4:      // Armv7E-M DSP variants go here
    case Target::kCortexM7:
    case Target::kCortexM33:
    case Target::kCortexM55:     // Helium (MVE) variants go here
      return reference;
  }
  return reference;
}

// Scratch the chosen kernel needs for this node (its *_scratch_bytes() partner). Of the
// reference kernels only lstm_s8 needs any (its cell state); optimized variants (im2col
// buffers, ...) will.
uint64_t scratch_bytes_for(KernelId kernel, const ir::Graph& graph, const ir::Node& node) {
  switch (kernel) {
    case KernelId::kLstmS8:  // lowering checked input [.., .., I] and output [.., .., H]
      return lstm_s8_scratch_bytes(static_cast<uint32_t>(graph.tensors[node.inputs[0]].shape.back()),
                                   static_cast<uint32_t>(graph.tensors[node.outputs[0]].shape.back()));
    default: return 0;
  }
}

}  // namespace

// The kernels' placement facts come from the registry (kernels/kernel_registry.inc).
bool streams_elementwise(KernelId kernel) {
  return kernel_placement(kernel) == KernelPlacement::kElementwise;
}

uint32_t pixel_stream_block(KernelId kernel, const ir::Shape& in, const ir::Shape& out) {
  if (in.size() != 4 || out.size() != 4) return 0;
  return kernel_pixel_stream_block(kernel, {in[0], in[1], in[2], in[3], out[1], out[2], out[3]});
}

namespace {

// The smallest shift (bytes the output starts below the input) at which a pixel-streaming
// kernel never writes over input it still reads: whenever output pixel p is the lowest
// one whose input is still to be read, the kernel has written at most pixels < p + block,
// and those bytes must not pass the first input byte that pixel p or any later pixel
// reads (first tap row and column, clamped to the image; a suffix minimum because padding
// clamps several output rows to the same first row).
uint64_t pixel_stream_shift(const ir::Tensor& in, const ir::Tensor& out, const WindowGeometry& g,
                            uint32_t block) {
  const int64_t n = in.shape[0], h = in.shape[1], w = in.shape[2], c = in.shape[3];
  const int64_t oh = out.shape[1], ow = out.shape[2], oc = out.shape[3];
  const int64_t in_elem = dtype_size(in.dtype), out_elem = dtype_size(out.dtype);
  const int64_t pixels = n * oh * ow;
  std::vector<int64_t> first_read(static_cast<size_t>(pixels));
  for (int64_t p = 0; p < pixels; ++p) {
    const int64_t b = p / (oh * ow), oy = (p / ow) % oh, ox = p % ow;
    const int64_t row = std::min(h - 1, std::max<int64_t>(0, oy * g.stride_h - g.pad_top));
    const int64_t col = std::min(w - 1, std::max<int64_t>(0, ox * g.stride_w - g.pad_left));
    first_read[static_cast<size_t>(p)] = ((b * h + row) * w + col) * c * in_elem;
  }
  for (int64_t p = pixels - 2; p >= 0; --p)
    first_read[static_cast<size_t>(p)] = std::min(first_read[static_cast<size_t>(p)], first_read[static_cast<size_t>(p + 1)]);
  int64_t shift = 0;
  for (int64_t p = 0; p < pixels; ++p) {
    const int64_t written_end = std::min<int64_t>(pixels, p + block) * oc * out_elem;
    shift = std::max(shift, written_end - first_read[static_cast<size_t>(p)]);
  }
  return static_cast<uint64_t>(shift);
}

}  // namespace

void choose_in_place(const ir::Graph& graph, const ir::Node& node, LoweredOp& op) {
  op.in_place_input = -1;
  op.in_place_shift = 0;
  if (node.outputs.size() != 1) return;
  const ir::Tensor& out = graph.tensors[node.outputs[0]];
  if (streams_elementwise(op.kernel)) {
    for (size_t i = 0; i < node.inputs.size(); ++i) {
      const int id = node.inputs[i];
      if (id == ir::kNoTensor) continue;
      const ir::Tensor& in = graph.tensors[id];
      if (in.is_constant || in.shape != out.shape) continue;
      if (dtype_size(in.dtype) < dtype_size(out.dtype)) continue;
      op.in_place_input = static_cast<int>(i);
      return;
    }
    return;
  }
  if (node.inputs.empty() || node.inputs[0] == ir::kNoTensor) return;
  const ir::Tensor& in = graph.tensors[node.inputs[0]];
  const uint32_t block = pixel_stream_block(op.kernel, in.shape, out.shape);
  if (block == 0) return;
  WindowGeometry window;
  if (in.is_constant || in.shape.size() != 4 || out.shape.size() != 4 || in.elements() == 0 ||
      out.elements() == 0 || !kernel_window(op.kernel, op.params.data(), op.params.size(), &window)) {
    return;
  }
  op.in_place_input = 0;
  op.in_place_shift = pixel_stream_shift(in, out, window, block);
}

namespace {

void expect_bias(const NodeLowering& l, size_t index, int64_t channels) {
  if (!l.has_input(index)) return;
  const ir::Tensor& bias = l.input(index);
  l.expect_dtype(bias, "bias", DType::kFloat32);
  l.expect_shape(bias, "bias", {channels});
}

LoweredOp lower_conv2d(const NodeLowering& l) {
  l.expect_io(2, 3, 1);
  const ir::Tensor& in = l.input(0);
  const ir::Tensor& filter = l.input(1);
  const ir::Tensor& out = l.output(0);
  l.expect_rank(in, "input", 4);
  l.expect_rank(filter, "filter", 4);
  l.expect_rank(out, "output", 4);
  l.expect_dtype(filter, "filter", in.dtype);
  l.expect_dtype(out, "output", in.dtype);

  Conv2dParams p{};
  p.window = l.window();
  const int64_t group = l.node().get_int("group", 1);
  if (group < 1 || group > kMaxI32) l.fail("group " + std::to_string(group) + " must be >= 1");
  p.groups = static_cast<int32_t>(group);
  l.act(&p.act_min, &p.act_max);

  const int64_t n = in.shape[0], h = in.shape[1], w = in.shape[2], c = in.shape[3];
  const int64_t o = filter.shape[0], kh = filter.shape[1], kw = filter.shape[2];
  if (c % group != 0 || o % group != 0) {
    l.fail("group " + std::to_string(group) + " does not divide input channels " +
           std::to_string(c) + " and output channels " + std::to_string(o));
  }
  if (filter.shape[3] != c / group) {
    l.fail("filter '" + filter.name + "' has shape " + shape_string(filter.shape) +
           ", expected dim 3 = input channels / group = " + std::to_string(c / group));
  }
  expect_bias(l, 2, o);
  const int64_t oh = window_output_h(p.window, h, kh, false);
  const int64_t ow = window_output_w(p.window, w, kw, false);
  if (oh < 1 || ow < 1) l.fail("kernel " + std::to_string(kh) + "x" + std::to_string(kw) +
                               " does not fit the padded " + std::to_string(h) + "x" +
                               std::to_string(w) + " input");
  l.expect_shape(out, "output", {n, oh, ow, o});

  LoweredOp op;
  op.params = params_bytes(p);
  op.macs = static_cast<uint64_t>(out.elements()) * static_cast<uint64_t>(kh * kw * (c / group));
  return op;
}

LoweredOp lower_depthwise_conv2d(const NodeLowering& l) {
  l.expect_io(2, 3, 1);
  const ir::Tensor& in = l.input(0);
  const ir::Tensor& filter = l.input(1);
  const ir::Tensor& out = l.output(0);
  l.expect_rank(in, "input", 4);
  l.expect_rank(filter, "filter", 4);
  l.expect_rank(out, "output", 4);
  l.expect_dtype(filter, "filter", in.dtype);
  l.expect_dtype(out, "output", in.dtype);

  DepthwiseConv2dParams p{};
  p.window = l.window();
  l.act(&p.act_min, &p.act_max);

  const int64_t n = in.shape[0], h = in.shape[1], w = in.shape[2], c = in.shape[3];
  const int64_t kh = filter.shape[1], kw = filter.shape[2], oc = filter.shape[3];
  if (filter.shape[0] != 1) {
    l.fail("filter '" + filter.name + "' has shape " + shape_string(filter.shape) +
           ", expected [1,KH,KW,C*M]");
  }
  const int64_t multiplier = l.node().get_int("depth_multiplier", c > 0 ? oc / c : 1);
  if (multiplier < 1 || c * multiplier != oc) {
    l.fail("filter '" + filter.name + "' has " + std::to_string(oc) + " channels, expected input channels " +
           std::to_string(c) + " * depth_multiplier " + std::to_string(multiplier));
  }
  p.depth_multiplier = static_cast<int32_t>(multiplier);
  expect_bias(l, 2, oc);
  const int64_t oh = window_output_h(p.window, h, kh, false);
  const int64_t ow = window_output_w(p.window, w, kw, false);
  if (oh < 1 || ow < 1) l.fail("kernel " + std::to_string(kh) + "x" + std::to_string(kw) +
                               " does not fit the padded " + std::to_string(h) + "x" +
                               std::to_string(w) + " input");
  l.expect_shape(out, "output", {n, oh, ow, oc});

  LoweredOp op;
  op.params = params_bytes(p);
  op.macs = static_cast<uint64_t>(out.elements()) * static_cast<uint64_t>(kh * kw);
  return op;
}

LoweredOp lower_fully_connected(const NodeLowering& l) {
  l.expect_io(2, 3, 1);
  const ir::Tensor& in = l.input(0);
  const ir::Tensor& weights = l.input(1);
  const ir::Tensor& out = l.output(0);
  l.expect_min_rank(in, "input", 1);
  l.expect_rank(weights, "weights", 2);
  l.expect_min_rank(out, "output", 1);
  l.expect_dtype(weights, "weights", in.dtype);
  l.expect_dtype(out, "output", in.dtype);
  const int64_t k = in.shape.back();
  const int64_t n = weights.shape[0];
  if (weights.shape[1] != k) {
    l.fail("weights '" + weights.name + "' has shape " + shape_string(weights.shape) +
           ", expected [N," + std::to_string(k) + "] to match input " + shape_string(in.shape));
  }
  expect_bias(l, 2, n);
  // B is the product of the leading dims (as the kernel computes it; also right for K == 0).
  const int64_t batches = ir::element_count(ir::Shape(in.shape.begin(), in.shape.end() - 1));
  if (out.shape.back() != n || out.elements() != batches * n) {
    l.fail("output '" + out.name + "' has shape " + shape_string(out.shape) + ", expected " +
           std::to_string(batches * n) + " elements with last dim " + std::to_string(n));
  }
  FullyConnectedParams p{};
  l.act(&p.act_min, &p.act_max);
  LoweredOp op;
  op.params = params_bytes(p);
  op.macs = static_cast<uint64_t>(batches) * static_cast<uint64_t>(n) * static_cast<uint64_t>(k);
  return op;
}

LoweredOp lower_batch_matmul(const NodeLowering& l) {
  l.expect_io(2, 2, 1);
  const ir::Tensor& a = l.input(0);
  const ir::Tensor& b = l.input(1);
  const ir::Tensor& out = l.output(0);
  l.expect_min_rank(a, "A", 2);
  l.expect_min_rank(b, "B", 2);
  l.expect_dtype(b, "B", a.dtype);
  l.expect_dtype(out, "output", a.dtype);
  const int64_t m = a.shape[a.shape.size() - 2], k = a.shape.back();
  const int64_t n = b.shape.back();
  if (b.shape[b.shape.size() - 2] != k) {
    l.fail("A '" + a.name + "' " + shape_string(a.shape) + " and B '" + b.name + "' " +
           shape_string(b.shape) + " disagree on K");
  }
  ir::Shape batch;
  if (!broadcast_shapes(ir::Shape(a.shape.begin(), a.shape.end() - 2),
                        ir::Shape(b.shape.begin(), b.shape.end() - 2), &batch)) {
    l.fail("batch dims of A " + shape_string(a.shape) + " and B " + shape_string(b.shape) +
           " do not broadcast");
  }
  ir::Shape expected = batch;
  expected.push_back(m);
  expected.push_back(n);
  l.expect_shape(out, "output", expected);
  BatchMatMulParams p{};
  l.act(&p.act_min, &p.act_max);
  LoweredOp op;
  op.params = params_bytes(p);
  op.macs = static_cast<uint64_t>(ir::element_count(batch)) * static_cast<uint64_t>(m * n * k);
  return op;
}

LoweredOp lower_binary(const NodeLowering& l) {
  l.expect_io(2, 2, 1);
  const ir::Tensor& a = l.input(0);
  const ir::Tensor& b = l.input(1);
  const ir::Tensor& out = l.output(0);
  l.expect_dtype(b, "b", a.dtype);
  l.expect_dtype(out, "output", a.dtype);
  ir::Shape expected;
  if (!broadcast_shapes(a.shape, b.shape, &expected)) {
    l.fail("inputs '" + a.name + "' " + shape_string(a.shape) + " and '" + b.name + "' " +
           shape_string(b.shape) + " do not broadcast");
  }
  l.expect_shape(out, "output", expected);
  BinaryParams p{};
  l.act(&p.act_min, &p.act_max);
  LoweredOp op;
  op.params = params_bytes(p);
  return op;
}

void expect_same_shape_unary(const NodeLowering& l) {
  l.expect_io(1, 1, 1);
  l.expect_dtype(l.output(0), "output", l.input(0).dtype);
  l.expect_shape(l.output(0), "output", l.input(0).shape);
}

LoweredOp lower_clamp(const NodeLowering& l) {
  expect_same_shape_unary(l);
  const double lo = l.node().get_float("min", -std::numeric_limits<double>::infinity());
  const double hi = l.node().get_float("max", std::numeric_limits<double>::infinity());
  if (std::isnan(lo) || std::isnan(hi) || lo > hi) {
    l.fail("range [" + std::to_string(lo) + ", " + std::to_string(hi) + "] is empty or NaN");
  }
  ClampParams p{};
  p.min = static_cast<float>(lo);
  p.max = static_cast<float>(hi);
  LoweredOp op;
  op.params = params_bytes(p);
  return op;
}

LoweredOp lower_unary_no_params(const NodeLowering& l) {
  expect_same_shape_unary(l);
  return LoweredOp{};
}

LoweredOp lower_softmax(const NodeLowering& l) {
  expect_same_shape_unary(l);
  l.expect_min_rank(l.input(0), "input", 1);
  SoftmaxParams p{};
  p.beta = static_cast<float>(l.node().get_float("beta", 1.0));
  LoweredOp op;
  op.params = params_bytes(p);
  return op;
}

LoweredOp lower_pool2d(const NodeLowering& l, bool average) {
  l.expect_io(1, 1, 1);
  const ir::Tensor& in = l.input(0);
  const ir::Tensor& out = l.output(0);
  l.expect_rank(in, "input", 4);
  l.expect_rank(out, "output", 4);
  l.expect_dtype(out, "output", in.dtype);
  Pool2dParams p{};
  const auto kernel = l.ints("kernel", 2, {}, 1);
  p.kernel_h = kernel[0];
  p.kernel_w = kernel[1];
  p.window = l.window();
  p.count_include_pad = average ? (l.node().get_int("count_include_pad", 0) != 0 ? 1 : 0) : 0;
  l.act(&p.act_min, &p.act_max);

  const int64_t n = in.shape[0], h = in.shape[1], w = in.shape[2], c = in.shape[3];
  const int64_t oh = out.shape[1], ow = out.shape[2];
  const int64_t floor_h = window_output_h(p.window, h, p.kernel_h, false);
  const int64_t floor_w = window_output_w(p.window, w, p.kernel_w, false);
  const bool fits_h = oh >= 1 && (oh == floor_h || oh == window_output_h(p.window, h, p.kernel_h, true));
  const bool fits_w = ow >= 1 && (ow == floor_w || ow == window_output_w(p.window, w, p.kernel_w, true));
  if (out.shape[0] != n || out.shape[3] != c || !fits_h || !fits_w) {
    const ir::Shape floor_shape = {n, floor_h, floor_w, c};
    l.fail("output '" + out.name + "' has shape " + shape_string(out.shape) + ", expected " +
           shape_string(floor_shape) + " (or its ceil_mode form)");
  }
  LoweredOp op;
  op.params = params_bytes(p);
  return op;
}

LoweredOp lower_mean(const NodeLowering& l) {
  l.expect_io(1, 1, 1);
  const ir::Tensor& in = l.input(0);
  const ir::Tensor& out = l.output(0);
  l.expect_dtype(out, "output", in.dtype);
  const size_t rank = in.shape.size();
  std::vector<int64_t> axes = l.node().get_ints("axes");
  if (!l.node().has("axes")) {
    for (size_t i = 0; i < rank; ++i) axes.push_back(static_cast<int64_t>(i));
  }
  MeanParams p{};
  int64_t kept = 1;
  for (int64_t axis : axes) {
    if (axis < 0 || static_cast<size_t>(axis) >= rank) {
      l.fail("axis " + std::to_string(axis) + " is out of range for input rank " + std::to_string(rank));
    }
    if (p.axes_mask & (1u << axis)) l.fail("axis " + std::to_string(axis) + " is listed twice");
    p.axes_mask |= 1u << axis;
  }
  for (size_t i = 0; i < rank; ++i)
    if (!(p.axes_mask & (1u << i))) kept *= in.shape[i];
  if (out.elements() != kept) {
    l.fail("output '" + out.name + "' has shape " + shape_string(out.shape) + " (" +
           std::to_string(out.elements()) + " elements), expected " + std::to_string(kept) +
           " kept elements");
  }
  LoweredOp op;
  op.params = params_bytes(p);
  return op;
}

LoweredOp lower_transpose(const NodeLowering& l) {
  l.expect_io(1, 1, 1);
  const ir::Tensor& in = l.input(0);
  const ir::Tensor& out = l.output(0);
  l.expect_dtype(out, "output", in.dtype);
  const size_t rank = in.shape.size();
  std::vector<int64_t> perm = l.node().get_ints("perm");
  if (!l.node().has("perm")) {
    for (size_t i = rank; i-- > 0;) perm.push_back(static_cast<int64_t>(i));  // ONNX default
  }
  if (perm.size() != rank) {
    l.fail("perm has " + std::to_string(perm.size()) + " entries, expected input rank " +
           std::to_string(rank));
  }
  TransposeParams p{};
  std::vector<bool> seen(rank, false);
  ir::Shape expected(rank);
  for (size_t i = 0; i < rank; ++i) {
    if (perm[i] < 0 || static_cast<size_t>(perm[i]) >= rank || seen[perm[i]]) {
      l.fail("perm " + shape_string(perm) + " is not a permutation of 0.." + std::to_string(rank - 1));
    }
    seen[perm[i]] = true;
    p.perm[i] = static_cast<uint32_t>(perm[i]);
    expected[i] = in.shape[perm[i]];
  }
  l.expect_shape(out, "output", expected);
  LoweredOp op;
  op.params = params_bytes(p);
  return op;
}

LoweredOp lower_concat(const NodeLowering& l) {
  l.expect_io(1, 255, 1);
  const ir::Tensor& first = l.input(0);
  const ir::Tensor& out = l.output(0);
  const int64_t axis = l.node().get_int("axis", 0);
  if (axis < 0 || static_cast<size_t>(axis) >= first.shape.size()) {
    l.fail("axis " + std::to_string(axis) + " is out of range for input rank " +
           std::to_string(first.shape.size()));
  }
  ir::Shape expected = first.shape;
  expected[axis] = 0;
  for (size_t i = 0; i < l.node().inputs.size(); ++i) {
    if (!l.has_input(i)) l.fail("input " + std::to_string(i) + " is missing");
    const ir::Tensor& t = l.input(i);
    l.expect_dtype(t, "input", first.dtype);
    ir::Shape masked = t.shape;
    if (masked.size() == first.shape.size()) masked[axis] = first.shape[axis];
    if (masked != first.shape) {
      l.fail("input '" + t.name + "' has shape " + shape_string(t.shape) + ", expected " +
             shape_string(first.shape) + " except on axis " + std::to_string(axis));
    }
    expected[axis] += t.shape[axis];
  }
  l.expect_dtype(out, "output", first.dtype);
  l.expect_shape(out, "output", expected);
  ConcatParams p{};
  p.axis = static_cast<uint32_t>(axis);
  LoweredOp op;
  op.params = params_bytes(p);
  return op;
}

// One element of `value` in `dtype`, as little-endian bytes.
void pad_value_bytes(const NodeLowering& l, DType dtype, double value, uint8_t out[8]) {
  std::memset(out, 0, 8);
  auto store = [&](auto v) { std::memcpy(out, &v, sizeof(v)); };
  switch (dtype) {
    case DType::kFloat32: store(static_cast<float>(value)); return;
    case DType::kInt8: store(static_cast<int8_t>(std::clamp(value, -128.0, 127.0))); return;
    case DType::kUInt8: store(static_cast<uint8_t>(std::clamp(value, 0.0, 255.0))); return;
    case DType::kInt16: store(static_cast<int16_t>(std::clamp(value, -32768.0, 32767.0))); return;
    case DType::kInt32: store(static_cast<int32_t>(std::clamp(value, -2147483648.0, 2147483647.0))); return;
    case DType::kInt64: store(static_cast<int64_t>(value)); return;
    case DType::kBool: store(static_cast<uint8_t>(value != 0.0)); return;
  }
  l.fail("unknown dtype");
}

LoweredOp lower_pad(const NodeLowering& l) {
  l.expect_io(1, 1, 1);
  const ir::Tensor& in = l.input(0);
  const ir::Tensor& out = l.output(0);
  l.expect_dtype(out, "output", in.dtype);
  const size_t rank = in.shape.size();
  const std::vector<int64_t> pads = l.node().get_ints("pads");
  if (pads.size() != 2 * rank) {
    l.fail("pads has " + std::to_string(pads.size()) + " values, expected 2 * rank = " +
           std::to_string(2 * rank));
  }
  PadParams p{};
  const std::string mode = l.node().get_string("mode", "constant");
  if (mode == "constant") {
    p.mode = static_cast<uint32_t>(PadMode::kConstant);
  } else if (mode == "reflect") {
    p.mode = static_cast<uint32_t>(PadMode::kReflect);
  } else if (mode == "edge") {
    p.mode = static_cast<uint32_t>(PadMode::kEdge);
  } else {
    l.fail("mode '" + mode + "' is not supported (expected constant, reflect or edge)");
  }
  ir::Shape expected(rank);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t before = pads[i], after = pads[rank + i];
    if (before < 0 || after < 0 || before > kMaxI32 || after > kMaxI32) {
      l.fail("pads " + shape_string(pads) + " must be non-negative");
    }
    if (mode == "reflect" && (before >= in.shape[i] || after >= in.shape[i])) {
      l.fail("reflect padding " + std::to_string(before) + "/" + std::to_string(after) +
             " on axis " + std::to_string(i) + " must be smaller than the dim " +
             std::to_string(in.shape[i]));
    }
    if (mode == "edge" && in.shape[i] == 0 && (before > 0 || after > 0)) {
      l.fail("edge padding of an empty axis " + std::to_string(i));
    }
    p.before[i] = static_cast<int32_t>(before);
    p.after[i] = static_cast<int32_t>(after);
    expected[i] = before + in.shape[i] + after;
  }
  pad_value_bytes(l, in.dtype, l.node().get_float("value", 0.0), p.value);
  l.expect_shape(out, "output", expected);
  LoweredOp op;
  op.params = params_bytes(p);
  return op;
}

LoweredOp lower_copy(const NodeLowering& l) {
  l.expect_io(1, 1, 1);
  const ir::Tensor& in = l.input(0);
  const ir::Tensor& out = l.output(0);
  l.expect_dtype(out, "output", in.dtype);
  if (out.elements() != in.elements()) {
    l.fail("output '" + out.name + "' has shape " + shape_string(out.shape) + " (" +
           std::to_string(out.elements()) + " elements), expected " + std::to_string(in.elements()) +
           " elements like input " + shape_string(in.shape));
  }
  return LoweredOp{};
}

void check_tensor_dims(const NodeLowering& l, const ir::Tensor& t) {
  if (t.shape.size() > kMaxRank) {
    l.fail("tensor '" + t.name + "' has rank " + std::to_string(t.shape.size()) +
           ", at most " + std::to_string(kMaxRank) + " is supported");
  }
  for (int64_t d : t.shape) {
    if (d < 0 || d > kMaxI32) {
      l.fail("tensor '" + t.name + "' has shape " + shape_string(t.shape) +
             " with a dim outside [0, 2^31)");
    }
  }
}

}  // namespace

LoweredOp lower_node(const ir::Graph& graph, const ir::Node& node, Target target) {
  const NodeLowering l(graph, node);
  if (node.inputs.empty() || node.inputs[0] == ir::kNoTensor) l.fail("input 0 is missing");
  for (int id : node.inputs)
    if (id != ir::kNoTensor) check_tensor_dims(l, l.tensor(id));
  for (int id : node.outputs) check_tensor_dims(l, l.tensor(id));

  // Quantized tensors take the integer kernels (lower_quantized.cc); transpose moves bytes
  // of any dtype.
  if (node.op != Op::kTranspose && is_quantized_node(graph, node)) {
    LoweredOp op = lower_quantized_node(l, target);  // variants set their own scratch
    op.scratch_bytes += scratch_bytes_for(op.kernel, graph, node);
    choose_in_place(graph, node, op);
    return op;
  }

  LoweredOp op;
  switch (node.op) {
    case Op::kConv2d: op = lower_conv2d(l); break;
    case Op::kDepthwiseConv2d: op = lower_depthwise_conv2d(l); break;
    case Op::kFullyConnected: op = lower_fully_connected(l); break;
    case Op::kBatchMatMul: op = lower_batch_matmul(l); break;
    case Op::kAdd:
    case Op::kSub:
    case Op::kMul:
    case Op::kDiv: op = lower_binary(l); break;
    case Op::kClamp: op = lower_clamp(l); break;
    case Op::kSigmoid:
    case Op::kTanh: op = lower_unary_no_params(l); break;
    case Op::kSoftmax: op = lower_softmax(l); break;
    case Op::kAvgPool2d: op = lower_pool2d(l, true); break;
    case Op::kMaxPool2d: op = lower_pool2d(l, false); break;
    case Op::kMean: op = lower_mean(l); break;
    case Op::kTranspose: op = lower_transpose(l); break;
    case Op::kConcat: op = lower_concat(l); break;
    case Op::kPad: op = lower_pad(l); break;
    case Op::kReshape:
    case Op::kCopy: op = lower_copy(l); break;
    case Op::kStridedSlice: op = lower_strided_slice(l); break;
    case Op::kQuantize:
    case Op::kDequantize:
    case Op::kTransposeConv:
    case Op::kLeakyRelu:
    case Op::kLstm:
      l.fail("has no float32 kernel (only quantized int8/int16 tensors are supported)");
  }

  const DType dtype = l.input(0).dtype;
  op.kernel = select_kernel(node.op, dtype, target);
  if (op.kernel == KernelId::kInvalid) {
    l.fail(std::string("dtype ") + dtype_string(dtype) + " is not supported (expected float32)");
  }
  op.scratch_bytes = scratch_bytes_for(op.kernel, graph, node);
  choose_in_place(graph, node, op);
  return op;
}

}  // namespace mote::lower
