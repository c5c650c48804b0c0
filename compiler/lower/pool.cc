// Lowering of pooling and reductions: avg_pool2d, max_pool2d and l2_pool2d (float32 only)
// over NHWC windows; mean, sum, reduce_max and reduce_min over any axes; float32, int8 and
// int16 (reduce_max and reduce_min: float32 and int8, as TensorFlow Lite Micro; sum also
// int32).
//
// Each op runs one check on every dtype (check_pool2d with the window rule,
// window_output_size in kernels/window_geometry.h; check_mean); the dtype then decides
// only the kernel and the parameter struct it fills. The integer pools take what TFLite
// has (no dilation, no count_include_pad, pads smaller than the window); a ceil_mode
// output reaches them as the floor rule's output over a padding grown at the bottom and
// right (the integer pools skip cells outside the image whatever the padding).
#include <string>
#include <vector>

#include "lower/node_lowering.h"
#include "lower/quantization.h"
// Kernel parameter structs.
#include "arg_min_max/arg_min_max.h"
#include "mean/mean.h"
#include "pool2d/pool2d.h"
#include "reduce/reduce.h"
#include "top_k/top_k.h"

namespace mote::lower {
namespace {

// What a pool's check establishes, for every dtype.
struct PoolCheck {
  DType dtype;  // of the input and the output
  int32_t kernel_h, kernel_w;
  WindowGeometry window;
};

// input and output [N,H,W,C] / [N,OH,OW,C], one dtype; attributes kernel (required),
// strides, dilations, pads. OH, OW: the window rule's (floor), or its ceil_mode form.
PoolCheck check_pool2d(const NodeLowering& l) {
  l.expect_io(1, 1, 1);
  const ir::Tensor& in = l.input(0);
  const ir::Tensor& out = l.output(0);
  l.expect_rank(in, "input", 4);
  l.expect_rank(out, "output", 4);
  PoolCheck c{};
  c.dtype = expect_same_dtype(l);
  const auto kernel = l.ints("kernel", 2, {}, 1);
  c.kernel_h = kernel[0];
  c.kernel_w = kernel[1];
  c.window = l.window();

  const int64_t n = in.shape[0], h = in.shape[1], w = in.shape[2], channels = in.shape[3];
  const int64_t oh = out.shape[1], ow = out.shape[2];
  const int64_t floor_h = window_output_h(c.window, h, c.kernel_h, false);
  const int64_t floor_w = window_output_w(c.window, w, c.kernel_w, false);
  const bool fits_h =
      oh >= 1 && (oh == floor_h || oh == window_output_h(c.window, h, c.kernel_h, true));
  const bool fits_w =
      ow >= 1 && (ow == floor_w || ow == window_output_w(c.window, w, c.kernel_w, true));
  if (out.shape[0] != n || out.shape[3] != channels || !fits_h || !fits_w) {
    const ir::Shape floor_shape = {n, floor_h, floor_w, channels};
    l.fail("output '" + out.name + "' has shape " + shape_string(out.shape) + ", expected " +
           shape_string(floor_shape) + " (or its ceil_mode form)");
  }
  return c;
}

// The window the integer pools run: a ceil_mode output's last row (column) of windows,
// beyond the floor rule's, reached by growing pad_bottom (pad_right) until the floor rule
// gives the output's size. Cells in that padding lie outside the image, which the integer
// pools skip (they refuse count_include_pad), so the results are unchanged.
WindowGeometry floor_rule_window(const NodeLowering& l, const PoolCheck& c) {
  WindowGeometry w = c.window;
  const int64_t h = l.input(0).shape[1], width = l.input(0).shape[2];
  const int64_t oh = l.output(0).shape[1], ow = l.output(0).shape[2];
  if (oh != window_output_h(w, h, c.kernel_h, false)) {
    w.pad_bottom = static_cast<int32_t>((oh - 1) * w.stride_h + c.kernel_h - h - w.pad_top);
  }
  if (ow != window_output_w(w, width, c.kernel_w, false)) {
    w.pad_right = static_cast<int32_t>((ow - 1) * w.stride_w + c.kernel_w - width - w.pad_left);
  }
  return w;
}

// The integer pools' limits (TFLite's): input and output quantized alike, no dilation, no
// count_include_pad, pads (ceil_mode's grown ones included) smaller than the window; int16 average: at most 65535 cells
// (avg_pool2d_s16's int32 sum).
void expect_integer_pool(const NodeLowering& l, const PoolCheck& c, const WindowGeometry& w, bool average) {
  if (!same_quant(l.input(0), l.output(0))) {
    l.fail("input and output quantization differ; TFLite pooling requires them equal");
  }
  const std::string dtype = dtype_name(c.dtype);
  if (w.dilation_h != 1 || w.dilation_w != 1) l.fail("dilated pooling is not supported on " + dtype);
  if (average && l.node().get_int("count_include_pad", 0) != 0) {
    l.fail("count_include_pad is not supported on " + dtype +
           " (TFLite averages only the cells inside the image)");
  }
  if (w.pad_top >= c.kernel_h || w.pad_bottom >= c.kernel_h || w.pad_left >= c.kernel_w ||
      w.pad_right >= c.kernel_w) {
    l.fail("pads " + shape_string({w.pad_top, w.pad_left, w.pad_bottom, w.pad_right}) +
           " must be smaller than the kernel");
  }
  if (c.dtype == DType::kInt16 && average && int64_t{c.kernel_h} * c.kernel_w > 65535) {
    l.fail("int16 average pooling window " + std::to_string(c.kernel_h) + "x" + std::to_string(c.kernel_w) +
           " has more than 65535 cells (its int32 sum could overflow)");
  }
}

// What mean's check establishes, for every dtype.
struct MeanCheck {
  DType dtype;  // of the input and the output
  uint32_t axes_mask;  // bit i set: input axis i is reduced
  int64_t reduced;     // input elements per output element
};

// axes (default all) distinct and within the input's rank; the output holds the kept
// elements (keepdims or not: its shape decides).
MeanCheck check_mean(const NodeLowering& l) {
  l.expect_io(1, 1, 1);
  const ir::Tensor& in = l.input(0);
  const ir::Tensor& out = l.output(0);
  MeanCheck c{};
  c.dtype = expect_same_dtype(l);
  const size_t rank = in.shape.size();
  std::vector<int64_t> axes = l.node().get_ints("axes");
  if (!l.node().has("axes")) {
    for (size_t i = 0; i < rank; ++i) axes.push_back(static_cast<int64_t>(i));
  }
  for (int64_t axis : axes) {
    if (axis < 0 || static_cast<size_t>(axis) >= rank) {
      l.fail("axis " + std::to_string(axis) + " is out of range for input rank " + std::to_string(rank));
    }
    if (c.axes_mask & (1u << axis)) l.fail("axis " + std::to_string(axis) + " is listed twice");
    c.axes_mask |= 1u << axis;
  }
  int64_t kept = 1;
  c.reduced = 1;
  for (size_t i = 0; i < rank; ++i) (c.axes_mask & (1u << i) ? c.reduced : kept) *= in.shape[i];
  if (out.elements() != kept) {
    l.fail("output '" + out.name + "' has shape " + shape_string(out.shape) + " (" +
           std::to_string(out.elements()) + " elements), expected " + std::to_string(kept) +
           " kept elements");
  }
  return c;
}

}  // namespace

// l2_pool2d: float32 only (TensorFlow Lite Micro's L2_POOL_2D), cells inside the image.
LoweredOp lower_l2_pool2d(const NodeLowering& l) {
  const PoolCheck c = check_pool2d(l);
  if (l.quantized()) {
    l.fail(l.label(l.input(0), "input") + " has dtype " + dtype_name(c.dtype) +
           ", expected float32 (TensorFlow Lite Micro's l2_pool2d)");
  }
  expect_float32(l);
  if (l.node().get_int("count_include_pad", 0) != 0) l.fail("count_include_pad is not supported on l2_pool2d");
  Pool2dParams p{};
  p.kernel_h = c.kernel_h;
  p.kernel_w = c.kernel_w;
  p.window = c.window;
  l.act(&p.act_min, &p.act_max);
  return lowered(KernelId::kL2Pool2dF32, params_bytes(p));
}

// avg_pool2d, max_pool2d.
LoweredOp lower_pool2d(const NodeLowering& l) {
  const bool average = l.node().op == ir::Op::kAvgPool2d;
  const PoolCheck c = check_pool2d(l);
  if (!l.quantized()) {
    expect_float32(l);
    Pool2dParams p{};
    p.kernel_h = c.kernel_h;
    p.kernel_w = c.kernel_w;
    p.window = c.window;
    p.count_include_pad = average ? (l.node().get_int("count_include_pad", 0) != 0 ? 1 : 0) : 0;
    l.act(&p.act_min, &p.act_max);
    return lowered(average ? KernelId::kAvgPool2dF32 : KernelId::kMaxPool2dF32, params_bytes(p));
  }
  const WindowGeometry window = floor_rule_window(l, c);
  expect_integer_pool(l, c, window, average);
  int32_t act_min = 0, act_max = 0;
  act_range(l, per_tensor(l, l.output(0), "output"), c.dtype, &act_min, &act_max);
  if (c.dtype == DType::kInt8) {
    const Pool2dS8Params p{c.kernel_h, c.kernel_w, window, act_min, act_max};
    return lowered(average ? KernelId::kAvgPool2dS8 : KernelId::kMaxPool2dS8, params_bytes(p));
  }
  const Pool2dS16Params p{c.kernel_h, c.kernel_w, window, act_min, act_max};
  return lowered(average ? KernelId::kAvgPool2dS16 : KernelId::kMaxPool2dS16, params_bytes(p));
}

LoweredOp lower_mean(const NodeLowering& l) {
  const MeanCheck c = check_mean(l);
  if (!l.quantized()) {
    expect_float32(l);
    return lowered(KernelId::kMeanF32, params_bytes(MeanParams{c.axes_mask}));
  }
  // int16: the same arithmetic with int16 data and zero points (TFLite Micro requires
  // neither equal scales nor zero point 0 for MEAN).
  const TensorQuant in_q = per_tensor(l, l.input(0), "input");
  const TensorQuant out_q = per_tensor(l, l.output(0), "output");
  int32_t multiplier = 0, shift = 0;
  mean_multiplier(in_q.scale, out_q.scale, c.reduced, &multiplier, &shift);
  expect_shift(l, shift, kMinShift, kMaxShift, "requantization");
  if (c.dtype == DType::kInt8) {
    return lowered(KernelId::kMeanS8,
                   params_bytes(MeanS8Params{c.axes_mask, in_q.zero_point, out_q.zero_point, multiplier, shift}));
  }
  return lowered(KernelId::kMeanS16,
                 params_bytes(MeanS16Params{c.axes_mask, in_q.zero_point, out_q.zero_point, multiplier, shift}));
}

// sum: float32 in input order; int32 unquantized (ONNX's integer sums, wrapping); int8
// and int16 as TFLite's quantized sum, the integer mean's arithmetic with the
// input-to-output scale ratio and no 1/n.
LoweredOp lower_sum(const NodeLowering& l) {
  const MeanCheck c = check_mean(l);
  if (c.dtype == DType::kInt32 && !l.quantized())
    return lowered(KernelId::kSumS32, params_bytes(ReduceParams{c.axes_mask}));
  if (!l.quantized()) {
    expect_float32(l);
    return lowered(KernelId::kSumF32, params_bytes(ReduceParams{c.axes_mask}));
  }
  const TensorQuant in_q = per_tensor(l, l.input(0), "input");
  const TensorQuant out_q = per_tensor(l, l.output(0), "output");
  SumQuantParams p{c.axes_mask, in_q.zero_point, out_q.zero_point, 0, 0};
  requantize_multiplier(in_q.scale, out_q.scale, &p.multiplier, &p.shift);
  expect_shift(l, p.shift, kMinShift, kMaxShift, "requantization");
  if (c.dtype == DType::kInt8) return lowered(KernelId::kSumS8, params_bytes(p));
  if (c.dtype == DType::kInt16) return lowered(KernelId::kSumS16, params_bytes(p));
  l.fail(std::string("sum of ") + dtype_name(c.dtype) + " is not supported (float32, int32, int8, int16)");
}

// reduce_max, reduce_min: float32, and int8 with the output quantized as the input (TFLite
// Micro compares raw values and requires it).
LoweredOp lower_reduce_max_min(const NodeLowering& l) {
  const MeanCheck c = check_mean(l);
  const bool max = l.node().op == ir::Op::kReduceMax;
  const std::vector<uint8_t> params = params_bytes(ReduceParams{c.axes_mask});
  if (!l.quantized()) {
    expect_float32(l);
    return lowered(max ? KernelId::kReduceMaxF32 : KernelId::kReduceMinF32, params);
  }
  if (c.dtype != DType::kInt8) {
    l.fail(l.label(l.input(0), "input") + " has dtype " + dtype_name(c.dtype) +
           ", expected float32 or int8 (TensorFlow Lite Micro's reduce_max/reduce_min)");
  }
  if (!same_quant(l.input(0), l.output(0)))
    l.fail(l.label(l.output(0), "output") + " is not quantized like the input (TensorFlow Lite Micro requires it)");
  return lowered(max ? KernelId::kReduceMaxS8 : KernelId::kReduceMinS8, params);
}

// reduce_prod: float32 only.
LoweredOp lower_reduce_prod(const NodeLowering& l) {
  const MeanCheck c = check_mean(l);
  expect_float32(l);
  return lowered(KernelId::kReduceProdF32, params_bytes(ReduceParams{c.axes_mask}));
}

// arg_max, arg_min: float32 or int8 input (raw values: any quantization keeps their
// order), int32 (or int64, ONNX) output of the input's shape without the axis (or with it
// kept as 1: keepdims); select_last (0/1) picks the last of tied indices.
LoweredOp lower_arg_min_max(const NodeLowering& l) {
  l.expect_io(1, 1, 1);
  const ir::Tensor& in = l.input(0);
  l.expect_min_rank(in, "input", 1);
  const int64_t rank = static_cast<int64_t>(in.shape.size());
  const int64_t axis = l.node().get_int("axis", -1);
  if (axis < 0 || axis >= rank)
    l.fail("axis " + std::to_string(axis) + " is outside [0, " + std::to_string(rank) + ")");
  ir::Shape expected = in.shape;
  if (l.output(0).shape.size() == in.shape.size()) {
    expected[axis] = 1;
  } else {
    expected.erase(expected.begin() + axis);
  }
  l.expect_shape(l.output(0), "output", expected);
  if (l.output(0).dtype != DType::kInt64) l.expect_dtype(l.output(0), "output", DType::kInt32);
  const int64_t select_last = l.node().get_int("select_last", 0);
  if (select_last != 0 && select_last != 1) l.fail("select_last " + std::to_string(select_last) + " is not 0 or 1");
  if (in.dtype != DType::kFloat32 && in.dtype != DType::kInt8) {
    l.fail(l.label(in, "input") + " has dtype " + dtype_name(in.dtype) +
           ", expected float32 or int8 (TensorFlow Lite Micro's arg_max/arg_min)");
  }
  const bool max = l.node().op == ir::Op::kArgMax;
  const std::vector<uint8_t> params = params_bytes(
      ArgMinMaxParams{static_cast<uint32_t>(axis), static_cast<uint32_t>(select_last)});
  if (in.dtype == DType::kFloat32) return lowered(max ? KernelId::kArgMaxF32 : KernelId::kArgMinF32, params);
  return lowered(max ? KernelId::kArgMaxS8 : KernelId::kArgMinS8, params);
}

// top_k: float32 input; values (float32) and indices (int32, or int64 for ONNX) of the
// input's shape with the axis k long.
LoweredOp lower_top_k(const NodeLowering& l) {
  l.expect_io(1, 1, 2);
  const ir::Tensor& in = l.input(0);
  l.expect_min_rank(in, "input", 1);
  const int64_t rank = static_cast<int64_t>(in.shape.size());
  const int64_t axis = l.node().get_int("axis", -1), k = l.node().get_int("k", 0);
  const int64_t largest = l.node().get_int("largest", 1);
  if (axis < 0 || axis >= rank)
    l.fail("axis " + std::to_string(axis) + " is outside [0, " + std::to_string(rank) + ")");
  if (k < 1 || k > in.shape[axis])
    l.fail("k " + std::to_string(k) + " is outside [1, " + std::to_string(in.shape[axis]) + "]");
  if (largest != 0 && largest != 1) l.fail("largest " + std::to_string(largest) + " is not 0 or 1");
  l.expect_dtype(in, "input", DType::kFloat32);
  l.expect_dtype(l.output(0), "values", DType::kFloat32);
  if (l.output(1).dtype != DType::kInt64) l.expect_dtype(l.output(1), "indices", DType::kInt32);
  ir::Shape expected = in.shape;
  expected[axis] = k;
  l.expect_shape(l.output(0), "values", expected);
  l.expect_shape(l.output(1), "indices", expected);
  return lowered(KernelId::kTopKF32, params_bytes(TopKParams{static_cast<uint32_t>(axis), static_cast<uint32_t>(k),
                                                             static_cast<uint32_t>(largest)}));
}

}  // namespace mote::lower
