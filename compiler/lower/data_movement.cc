// Lowering of the data movement ops: transpose, concat, pad, reshape and copy,
// strided_slice, gather, gather_nd, depth_to_space, space_to_depth, batch_to_space and
// space_to_batch. Their kernels move elements of any dtype unchanged (quantized values
// too, as TFLite Micro's RESHAPE, SQUEEZE, PAD, STRIDED_SLICE, TRANSPOSE and the
// space/depth/batch ops copy them),
// so one lowering serves every dtype; on quantized tensors concat requires its inputs
// quantized like its output, and pad quantizes its value with the output's parameters.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "lower/node_lowering.h"
#include "lower/quantization.h"
// Kernel parameter structs.
#include "batch_to_space/batch_to_space.h"
#include "concat/concat.h"
#include "depth_to_space/depth_to_space.h"
#include "fill_bytes/fill_bytes.h"
#include "gather/gather.h"
#include "pad/pad.h"
#include "space_to_batch/space_to_batch.h"
#include "space_to_depth/space_to_depth.h"
#include "strided_slice/strided_slice.h"
#include "transpose/transpose.h"

namespace mote::lower {
namespace {

// One element of `value` in `dtype`, as little-endian bytes (saturated to the dtype).
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

// The pad element of a quantized output: the real value quantized with the output's
// parameters (PAD: 0 -> the zero point; PADV2: its constant, which shares the output's
// quantization), which must lie within the dtype.
double quantized_pad_value(const NodeLowering& l, double value) {
  const ir::Tensor& out = l.output(0);
  const TensorQuant out_q = per_tensor(l, out, "output");
  const double q = out_q.zero_point + std::round(value / static_cast<double>(out_q.scale));
  if (!(q >= type_min(out.dtype) && q <= type_max(out.dtype))) {
    l.fail("pad value " + float_string(value) + " quantizes to " + float_string(q) + ", outside " +
           dtype_name(out.dtype));
  }
  return q;
}

// depth_to_space (to_space) and space_to_depth: input and output [N,H,W,C] of one dtype,
// block_size b >= 1; the side with the larger image (depth_to_space's output,
// space_to_depth's input) is [N, h*b, w*b, c] when the other is [N, h, w, c*b*b].
int32_t check_block_move(const NodeLowering& l, bool to_space) {
  expect_unary_io(l);
  l.expect_rank(l.input(0), "input", 4);
  l.expect_rank(l.output(0), "output", 4);
  const int64_t b = l.node().get_int("block_size", 0);
  if (b < 1 || b > kMaxI32) l.fail("block_size " + std::to_string(b) + " is not >= 1");
  const ir::Shape& s = (to_space ? l.output(0) : l.input(0)).shape;
  const ir::Shape& d = (to_space ? l.input(0) : l.output(0)).shape;
  if (s[0] != d[0] || s[1] != d[1] * b || s[2] != d[2] * b || d[3] != s[3] * b * b) {
    l.fail("input " + shape_string(l.input(0).shape) + " and output " + shape_string(l.output(0).shape) +
           " do not match block_size " + std::to_string(b));
  }
  return static_cast<int32_t>(b);
}

// batch_to_space (to_space) and space_to_batch: input and output [B,H,W,C] or [B,H,C] of
// one dtype and rank, block [bh,bw] >= 1 and crops / pads [top,bottom,left,right] >= 0
// (rank 3: bw 1, left = right = 0); the batched side (batch_to_space's input,
// space_to_batch's output) is [B*bh*bw, h, w, C] when the image side with its crops put
// back or its pads added spans [B, h*bh, w*bw, C]. Returns the block and the amounts.
void check_batch_move(const NodeLowering& l, bool to_space, std::vector<int64_t>* block,
                      std::vector<int64_t>* amounts) {
  expect_unary_io(l);
  const ir::Tensor& in = l.input(0);
  const size_t rank = in.shape.size();
  if (rank != 3 && rank != 4) l.fail(l.label(in, "input") + " has shape " + shape_string(in.shape) + ", expected rank 3 or 4");
  l.expect_rank(l.output(0), "output", rank);
  *block = l.node().get_ints("block");
  *amounts = l.node().get_ints(to_space ? "crops" : "pads");
  const char* what = to_space ? "crops" : "pads";
  if (block->size() != 2 || amounts->size() != 4) l.fail(std::string("block and ") + what + " must hold 2 and 4 values");
  for (int64_t b : *block)
    if (b < 1 || b > kMaxI32) l.fail("block " + shape_string(*block) + " must be >= 1");
  for (int64_t a : *amounts)
    if (a < 0 || a > kMaxI32) l.fail(std::string(what) + " " + shape_string(*amounts) + " must be >= 0");
  if (rank == 3 && ((*block)[1] != 1 || (*amounts)[2] != 0 || (*amounts)[3] != 0))
    l.fail(std::string("a rank-3 input takes block [bh,1] and no left or right ") + what);
  const ir::Shape& batched = (to_space ? l.input(0) : l.output(0)).shape;
  const ir::Shape& image = (to_space ? l.output(0) : l.input(0)).shape;
  ir::Shape expected_batched = image;
  expected_batched[0] = image[0] * (*block)[0] * (*block)[1];
  for (size_t axis = 1; axis + 1 < rank; ++axis) {
    // The image with its crops put back, or its pads added: the blocks tile it.
    const int64_t full = image[axis] + (*amounts)[2 * axis - 2] + (*amounts)[2 * axis - 1];
    expected_batched[axis] = full / (*block)[axis - 1];
    if (full % (*block)[axis - 1] != 0) expected_batched[axis] = -1;  // matches no shape
  }
  if (batched != expected_batched) {
    l.fail("input " + shape_string(in.shape) + " and output " + shape_string(l.output(0).shape) + " do not match block " +
           shape_string(*block) + " and " + what + " " + shape_string(*amounts));
  }
}

}  // namespace

// batch_to_space: the output [B/(bh*bw), H*bh-top-bottom, W*bw-left-right, C] (mote_ops.md).
LoweredOp lower_batch_to_space(const NodeLowering& l) {
  std::vector<int64_t> block, crops;
  check_batch_move(l, true, &block, &crops);
  BatchToSpaceParams p{};
  p.block_h = static_cast<int32_t>(block[0]);
  p.block_w = static_cast<int32_t>(block[1]);
  p.crop_top = static_cast<int32_t>(crops[0]);
  p.crop_left = static_cast<int32_t>(crops[2]);
  return lowered(KernelId::kBatchToSpace, params_bytes(p));
}

// space_to_batch: the output [B*bh*bw, (top+H+bottom)/bh, (left+W+right)/bw, C], padded
// with real 0 (the output's zero point on quantized tensors, as TFLite pads).
LoweredOp lower_space_to_batch(const NodeLowering& l) {
  std::vector<int64_t> block, pads;
  check_batch_move(l, false, &block, &pads);
  SpaceToBatchParams p{};
  p.block_h = static_cast<int32_t>(block[0]);
  p.block_w = static_cast<int32_t>(block[1]);
  p.pad_top = static_cast<int32_t>(pads[0]);
  p.pad_left = static_cast<int32_t>(pads[2]);
  pad_value_bytes(l, l.output(0).dtype, l.quantized() ? quantized_pad_value(l, 0.0) : 0.0, p.pad_value);
  return lowered(KernelId::kSpaceToBatch, params_bytes(p));
}

// depth_to_space: the output [N,H*b,W*b,C/(b*b)] (mote_ops.md).
LoweredOp lower_depth_to_space(const NodeLowering& l) {
  DepthToSpaceParams p{};
  p.block_size = check_block_move(l, true);
  return lowered(KernelId::kDepthToSpace, params_bytes(p));
}

// space_to_depth: the output [N,H/b,W/b,C*b*b] (mote_ops.md).
LoweredOp lower_space_to_depth(const NodeLowering& l) {
  SpaceToDepthParams p{};
  p.block_size = check_block_move(l, false);
  return lowered(KernelId::kSpaceToDepth, params_bytes(p));
}

// transpose: output axis i is input axis perm[i] (default: the axes reversed, as ONNX).
LoweredOp lower_transpose(const NodeLowering& l) {
  expect_unary_io(l);
  const ir::Tensor& in = l.input(0);
  const ir::Tensor& out = l.output(0);
  const size_t rank = in.shape.size();
  std::vector<int64_t> perm = l.node().get_ints("perm");
  if (!l.node().has("perm")) {
    for (size_t i = rank; i-- > 0;) perm.push_back(static_cast<int64_t>(i));  // ONNX default
  }
  if (perm.size() != rank) {
    l.fail("perm has " + std::to_string(perm.size()) + " entries, expected input rank " +
           std::to_string(rank));
  }
  if (!ir::is_permutation(perm, rank))
    l.fail("perm " + shape_string(perm) + " is not a permutation of 0.." + std::to_string(rank - 1));
  TransposeParams p{};
  for (size_t i = 0; i < rank; ++i) p.perm[i] = static_cast<uint32_t>(perm[i]);
  l.expect_shape(out, "output", ir::permuted(in.shape, perm));
  return lowered(KernelId::kTranspose, params_bytes(p));
}

// concat: inputs of one dtype and rank that agree on every axis but `axis`, joined along
// it; on quantized tensors each input quantized like the output (no requantizing concat).
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
    if (l.quantized() && !same_quant(t, out)) {
      l.fail(l.label(t, "input") + " is quantized differently from the output; concat of "
             "differently quantized inputs (a requantizing concat) is not supported");
    }
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
  return lowered(KernelId::kConcat, params_bytes(p));
}

// pad: pads [before..., after...] (non-negative); mode constant (value: a real value),
// reflect (pads smaller than the dim), symmetric (pads at most the dim) or edge; quantized
// tensors: constant with the value quantized, or a mirror mode with the output quantized
// like the input (values move unchanged).
LoweredOp lower_pad(const NodeLowering& l) {
  expect_unary_io(l);
  const ir::Tensor& in = l.input(0);
  const ir::Tensor& out = l.output(0);
  const size_t rank = in.shape.size();
  const std::vector<int64_t> pads = l.node().get_ints("pads");
  if (pads.size() != 2 * rank) {
    l.fail("pads has " + std::to_string(pads.size()) + " values, expected 2 * rank = " +
           std::to_string(2 * rank));
  }
  PadParams p{};
  const std::string mode = l.node().get_string("mode", "constant");
  const bool mirror = mode == "reflect" || mode == "symmetric";
  if (l.quantized() && mode != "constant" && !(mirror && same_quant(in, out))) {
    l.fail("mode '" + mode + "' is not supported on quantized tensors (constant, or reflect/symmetric with the " +
           "output quantized like the input)");
  }
  if (mode == "constant") {
    p.mode = static_cast<uint32_t>(PadMode::kConstant);
  } else if (mode == "reflect") {
    p.mode = static_cast<uint32_t>(PadMode::kReflect);
  } else if (mode == "symmetric") {
    p.mode = static_cast<uint32_t>(PadMode::kSymmetric);
  } else if (mode == "edge") {
    p.mode = static_cast<uint32_t>(PadMode::kEdge);
  } else {
    l.fail("mode '" + mode + "' is not supported (expected constant, reflect, symmetric or edge)");
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
    const bool empty_padded = in.shape[i] == 0 && before + after > 0;
    if (mode == "symmetric" && (before > in.shape[i] || after > in.shape[i] || empty_padded)) {
      l.fail("symmetric padding " + std::to_string(before) + "/" + std::to_string(after) + " on axis " +
             std::to_string(i) + " must be at most the dim " + std::to_string(in.shape[i]));
    }
    if (mode == "edge" && in.shape[i] == 0 && (before > 0 || after > 0)) {
      l.fail("edge padding of an empty axis " + std::to_string(i));
    }
    p.before[i] = static_cast<int32_t>(before);
    p.after[i] = static_cast<int32_t>(after);
    expected[i] = before + in.shape[i] + after;
  }
  l.expect_shape(out, "output", expected);
  const double value = l.node().get_float("value", 0.0);
  pad_value_bytes(l, out.dtype, l.quantized() && !mirror ? quantized_pad_value(l, value) : value, p.value);
  return lowered(KernelId::kPad, params_bytes(p));
}

// reshape, copy: the output holds the input's elements (any shape).
LoweredOp lower_copy(const NodeLowering& l) {
  expect_unary_io(l);
  const ir::Tensor& in = l.input(0);
  const ir::Tensor& out = l.output(0);
  if (out.elements() != in.elements()) {
    l.fail("output '" + out.name + "' has shape " + shape_string(out.shape) + " (" +
           std::to_string(out.elements()) + " elements), expected " + std::to_string(in.elements()) +
           " elements like input " + shape_string(in.shape));
  }
  return lowered(KernelId::kCopy);
}

// fill_bytes: no inputs; every byte of the output is `value` (0..255).
LoweredOp lower_fill_bytes(const NodeLowering& l) {
  if (!l.node().inputs.empty() || l.node().outputs.size() != 1)
    l.fail("takes no inputs and one output, has " + std::to_string(l.node().inputs.size()) + " and " +
           std::to_string(l.node().outputs.size()));
  const int64_t value = l.node().get_int("value", -1);
  if (value < 0 || value > 255) l.fail("value " + std::to_string(value) + " is not a byte (0..255)");
  return lowered(KernelId::kFillBytes, params_bytes(FillBytesParams{static_cast<int32_t>(value)}));
}

// strided_slice: begin/strides/sizes per input axis (mote_ops.md).
LoweredOp lower_strided_slice(const NodeLowering& l) {
  expect_unary_io(l);
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
  return lowered(KernelId::kStridedSlice, params_bytes(p));
}

// gather: x's slices along `axis` at the int32 or int64 indices, batch by batch, negative
// ones from the end with negative_from_end (mote_ops.md).
LoweredOp lower_gather(const NodeLowering& l) {
  l.expect_io(2, 2, 1);
  const ir::Tensor& in = l.input(0);
  const ir::Tensor& indices = l.input(1);
  const ir::Tensor& out = l.output(0);
  const int64_t axis = l.node().get_int("axis", 0);
  const int64_t batch_dims = l.node().get_int("batch_dims", 0);
  const int64_t rank = static_cast<int64_t>(in.shape.size());
  const int64_t index_rank = static_cast<int64_t>(indices.shape.size());
  if (axis < 0 || axis >= rank || batch_dims < 0 || batch_dims > axis || batch_dims > index_rank) {
    l.fail("axis " + std::to_string(axis) + " and batch_dims " + std::to_string(batch_dims) +
           " do not fit input " + shape_string(in.shape) + " and indices " + shape_string(indices.shape));
  }
  if (indices.dtype != DType::kInt64) l.expect_dtype(indices, "indices", DType::kInt32);
  const int64_t negative_from_end = l.node().get_int("negative_from_end", 0);
  if (negative_from_end != 0 && negative_from_end != 1)
    l.fail("negative_from_end " + std::to_string(negative_from_end) + " must be 0 or 1");
  l.expect_dtype(out, "output", in.dtype);
  ir::Shape expected(in.shape.begin(), in.shape.begin() + axis);
  for (int64_t i = 0; i < batch_dims; ++i) {
    if (indices.shape[i] != in.shape[i]) {
      l.fail("indices " + shape_string(indices.shape) + " differ from input " + shape_string(in.shape) +
             " in the first " + std::to_string(batch_dims) + " (batch) dims");
    }
  }
  expected.insert(expected.end(), indices.shape.begin() + batch_dims, indices.shape.end());
  expected.insert(expected.end(), in.shape.begin() + axis + 1, in.shape.end());
  l.expect_shape(out, "output", expected);
  GatherParams p{};
  p.axis = static_cast<uint32_t>(axis);
  p.batch_dims = static_cast<uint32_t>(batch_dims);
  p.negative_from_end = static_cast<uint32_t>(negative_from_end);
  return lowered(KernelId::kGather, params_bytes(p));
}

// gather_nd: x's slices at the coordinate rows of the int32 indices (mote_ops.md).
LoweredOp lower_gather_nd(const NodeLowering& l) {
  l.expect_io(2, 2, 1);
  const ir::Tensor& in = l.input(0);
  const ir::Tensor& indices = l.input(1);
  const ir::Tensor& out = l.output(0);
  l.expect_dtype(indices, "indices", DType::kInt32);
  l.expect_dtype(out, "output", in.dtype);
  if (indices.shape.empty() || indices.shape.back() > static_cast<int64_t>(in.shape.size())) {
    l.fail("indices " + shape_string(indices.shape) + " must end in a dim of at most the input's rank " +
           std::to_string(in.shape.size()));
  }
  ir::Shape expected(indices.shape.begin(), indices.shape.end() - 1);
  expected.insert(expected.end(), in.shape.begin() + indices.shape.back(), in.shape.end());
  l.expect_shape(out, "output", expected);
  return lowered(KernelId::kGatherNd);
}

// DYNAMIC_UPDATE_SLICE (kernels/dynamic_update_slice/dynamic_update_slice.h).
LoweredOp lower_dynamic_update_slice(const NodeLowering& l) {
  l.expect_io(3, 3, 1);
  const ir::Tensor& in = l.input(0);
  const ir::Tensor& update = l.input(1);
  const ir::Tensor& indices = l.input(2);
  l.expect_dtype(update, "update", in.dtype);
  l.expect_dtype(l.output(0), "output", in.dtype);
  if (indices.dtype != DType::kInt32 && indices.dtype != DType::kInt64) {
    l.fail(l.label(indices, "start indices") + " has dtype " + dtype_name(indices.dtype) + ", expected int32 or int64");
  }
  l.expect_shape(indices, "start indices", {static_cast<int64_t>(in.shape.size())});
  l.expect_rank(update, "update", in.shape.size());
  for (size_t k = 0; k < in.shape.size(); ++k)
    if (update.shape[k] > in.shape[k]) l.fail("update " + shape_string(update.shape) + " is larger than the operand " + shape_string(in.shape));
  l.expect_shape(l.output(0), "output", in.shape);
  return lowered(KernelId::kDynamicUpdateSlice);
}

}  // namespace mote::lower
