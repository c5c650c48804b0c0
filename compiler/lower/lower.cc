#include "lower/lower.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "common/error.h"
#include "kernel_registry.h"
#include "lower/node_lowering.h"
#include "lower/variants.h"

namespace mote::lower {
namespace {

using ir::Op;

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

// The reference kernel for node l, from its op's lowering (node_lowering.h lists them by
// file): the one switch over every Mote op.
LoweredOp lower_reference(const NodeLowering& l) {
  switch (l.node().op) {
    case Op::kConv2d: return lower_conv2d(l);
    case Op::kDepthwiseConv2d: return lower_depthwise_conv2d(l);
    case Op::kTransposeConv: return lower_transpose_conv(l);
    case Op::kFullyConnected: return lower_fully_connected(l);
    case Op::kBatchMatMul: return lower_batch_matmul(l);
    case Op::kAdd:
    case Op::kSub: return lower_add_sub(l);
    case Op::kAddN: return lower_add_n(l);
    case Op::kCumsum: return lower_cumsum(l);
    case Op::kL2Normalization: return lower_l2_normalization(l);
    case Op::kLayerNorm: return lower_layer_norm(l);
    case Op::kGroupNorm: return lower_group_norm(l);
    case Op::kMul: return lower_mul(l);
    case Op::kDiv: return lower_div(l);
    case Op::kClamp: return lower_clamp(l);
    case Op::kSigmoid:
    case Op::kTanh: return lower_sigmoid_tanh(l);
    case Op::kLeakyRelu: return lower_leaky_relu(l);
    case Op::kHardSwish: return lower_hard_swish(l);
    case Op::kPrelu: return lower_prelu(l);
    case Op::kElu: return lower_elu(l);
    case Op::kGelu: return lower_gelu(l);
    case Op::kLogSoftmax: return lower_log_softmax(l);
    case Op::kSoftmax: return lower_softmax(l);
    case Op::kQuantize: return lower_quantize(l);
    case Op::kDequantize: return lower_dequantize(l);
    case Op::kAvgPool2d:
    case Op::kMaxPool2d: return lower_pool2d(l);
    case Op::kL2Pool2d: return lower_l2_pool2d(l);
    case Op::kMean: return lower_mean(l);
    case Op::kSum: return lower_sum(l);
    case Op::kReduceMax:
    case Op::kReduceMin: return lower_reduce_max_min(l);
    case Op::kArgMax:
    case Op::kArgMin: return lower_arg_min_max(l);
    case Op::kTopK: return lower_top_k(l);
    case Op::kEthosU: return lower_ethos_u(l);
    case Op::kReduceProd: return lower_reduce_prod(l);
    case Op::kTranspose: return lower_transpose(l);
    case Op::kConcat: return lower_concat(l);
    case Op::kPad: return lower_pad(l);
    case Op::kReshape:
    case Op::kCopy: return lower_copy(l);
    case Op::kFillBytes: return lower_fill_bytes(l);
    case Op::kJump: return lower_jump(l);
    case Op::kBranch: return lower_branch(l);
    case Op::kWhile:
    case Op::kIf: lower_region_op(l);
    case Op::kStridedSlice: return lower_strided_slice(l);
    case Op::kGather: return lower_gather(l);
    case Op::kGatherNd: return lower_gather_nd(l);
    case Op::kResizeNearest: return lower_resize_nearest(l);
    case Op::kResizeBilinear: return lower_resize_bilinear(l);
    case Op::kResizeCubic: return lower_resize_cubic(l);
    case Op::kDepthToSpace: return lower_depth_to_space(l);
    case Op::kSpaceToDepth: return lower_space_to_depth(l);
    case Op::kBatchToSpace: return lower_batch_to_space(l);
    case Op::kSpaceToBatch: return lower_space_to_batch(l);
    case Op::kDynamicUpdateSlice: return lower_dynamic_update_slice(l);
    case Op::kLstm: return lower_lstm(l);
    case Op::kGru: return lower_gru(l);
    case Op::kRnn: return lower_rnn(l);
    case Op::kSvdf: return lower_svdf(l);
    case Op::kUnary: return lower_unary(l);
    case Op::kMaximum:
    case Op::kMinimum: return lower_min_max(l);
    case Op::kSquaredDifference: return lower_squared_difference(l);
    case Op::kFloorDiv:
    case Op::kFloorMod: return lower_floor_div_mod(l);
    case Op::kPow: return lower_pow(l);
    case Op::kCompare: return lower_compare(l);
    case Op::kLogical: return lower_logical(l);
    case Op::kSelect: return lower_select(l);
    case Op::kCast: return lower_cast(l);
  }
  l.fail("is not a Mote op");
}

// The node checked and lowered to its reference kernel (lower_node before the variant).
LoweredOp lower_checked_reference(const NodeLowering& l, const ir::Node& node) {
  const bool takes_inputs = node.op != ir::Op::kFillBytes && node.op != ir::Op::kJump;  // the ops without inputs
  if (takes_inputs && (node.inputs.empty() || node.inputs[0] == ir::kNoTensor)) l.fail("input 0 is missing");
  for (int id : node.inputs)
    if (id != ir::kNoTensor) check_tensor_dims(l, l.tensor(id));
  for (int id : node.outputs) check_tensor_dims(l, l.tensor(id));
  return lower_reference(l);
}

}  // namespace

LoweredOp lower_node(const ir::Graph& graph, const ir::Node& node, Target target,
                     const std::vector<KernelId>& skipped) {
  const NodeLowering l(graph, node);
  LoweredOp op = lower_checked_reference(l, node);
  select_variant(l, target, op, skipped);  // the target's faster variant: same inputs and parameters
  choose_in_place(graph, node, op);
  return op;
}

void grant_scratch(LoweredOp& op, uint32_t units) {
  LoweredOp::ScratchGrowth& growth = op.scratch_growth;
  units = std::min(units, growth.max_units);
  if (units == 0 || uint64_t{growth.param_offset} + 4 > op.params.size()) return;
  int32_t count = 0;
  std::memcpy(&count, op.params.data() + growth.param_offset, 4);
  count += static_cast<int32_t>(units);
  std::memcpy(op.params.data() + growth.param_offset, &count, 4);
  op.scratch_bytes += uint64_t{units} * growth.unit_bytes;
  growth.max_units -= units;
}

LoweredOp lower_node(const ir::Graph& graph, const ir::Node& node, Target target) {
  return lower_node(graph, node, target, {});
}

std::vector<KernelId> kernel_candidates(const ir::Graph& graph, const ir::Node& node, Target target) {
  const NodeLowering l(graph, node);
  const LoweredOp reference = lower_checked_reference(l, node);
  std::vector<KernelId> kernels = applicable_variants(l, target, reference);
  kernels.push_back(reference.kernel);
  return kernels;
}

// ---------------------------------------------------------------------------------------
// Placement in the arena: which input's buffer the output may be written over.
// ---------------------------------------------------------------------------------------

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
// clamps several output rows to the same first row). A row-buffering kernel (rows > 0,
// window_geometry.h) needs only that the bytes written by the end of each output row stay
// below the first input row it has not read by then.
uint64_t pixel_stream_shift(const ir::Tensor& in, const ir::Tensor& out, const WindowGeometry& g,
                            uint32_t block, uint32_t rows) {
  const int64_t n = in.shape[0], h = in.shape[1], w = in.shape[2], c = in.shape[3];
  const int64_t oh = out.shape[1], ow = out.shape[2], oc = out.shape[3];
  const int64_t in_elem = dtype_size(in.dtype), out_elem = dtype_size(out.dtype);
  if (rows > 0) {
    int64_t shift = 0;
    for (int64_t b = 0; b < n; ++b) {
      for (int64_t oy = 0; oy < oh; ++oy) {
        const int64_t written_end = (b * oh + oy + 1) * ow * oc * out_elem;
        const int64_t unread_row = std::min(h, std::max<int64_t>(0, oy * g.stride_h - g.pad_top + rows));
        shift = std::max(shift, written_end - (b * h + unread_row) * w * c * in_elem);
      }
    }
    return static_cast<uint64_t>(shift);
  }
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
  const uint32_t rows = kernel_pixel_stream_rows(
      op.kernel, op.params.data(), op.params.size(),
      {in.shape[0], in.shape[1], in.shape[2], in.shape[3], out.shape[1], out.shape[2], out.shape[3]});
  op.in_place_input = 0;
  op.in_place_shift = pixel_stream_shift(in, out, window, block, rows);
}

}  // namespace mote::lower
