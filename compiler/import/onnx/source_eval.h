// Host evaluation of ONNX source ops on constant tensors, and small helpers on constant
// tensor data shared by the ONNX importer's stages.
//
// The evaluator covers the ops that shape computations in exported models are made of
// (Shape, Gather, Unsqueeze, Concat, Reshape, ...) plus elementwise arithmetic and data
// movement on constants. It works on the normalized attributes the ONNX importer emits
// (see import/onnx/onnx_importer.h) and computes output shapes itself, so the importer
// can use it to resolve shapes ONNX's own shape inference leaves unknown.
// Cost: one pass over the data per op; meant for shape tensors and weights, not for
// activations.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "import/onnx/source_graph.h"
#include "ir/graph.h"

namespace mote::onnx_import {

// The ops evaluate_source_node() handles, and whether `op` is one.
const std::set<std::string>& host_evaluable_ops();
bool is_host_evaluable(const std::string& op);

// True when `node` can be evaluated now: every present input is constant, except for
// Shape and Size, which read only their input's (static) shape.
bool inputs_ready_for_evaluation(const SourceGraph& graph, const SourceNode& node);

// Evaluates `node`. inputs[i] is nullptr for an omitted optional input; output_dtypes[j]
// is the dtype of output j. Returns one constant tensor per output (empty name, shape
// computed here). Throws CompileError("node 'N' (Op): ...") for inputs it cannot
// evaluate (e.g. an index out of range).
std::vector<ir::Tensor> evaluate_source_node(const SourceNode& node,
                                             const std::vector<const ir::Tensor*>& inputs,
                                             const std::vector<DType>& output_dtypes);

// Element values of a constant tensor as int64 (integer and bool dtypes; float32 is
// truncated toward zero) or as double (any dtype).
std::vector<int64_t> read_ints(const ir::Tensor& tensor);
std::vector<double> read_doubles(const ir::Tensor& tensor);

// Little-endian bytes of values stored as `dtype` (integers wrap, floats round to float32,
// bool is 0/1).
std::vector<uint8_t> encode_values(DType dtype, const std::vector<double>& values);
std::vector<uint8_t> encode_ints(DType dtype, const std::vector<int64_t>& values);
std::vector<uint8_t> float_bytes(const std::vector<float>& values);

// out.shape[i] = in.shape[perm[i]], data moved accordingly (any dtype).
ir::Tensor permute_tensor(const ir::Tensor& tensor, const std::vector<int64_t>& perm);

// A constant `c` that broadcasts (numpy, right-aligned) to `shape` and varies only along
// the dims where kept[i] is true: its values over those dims (row-major), as float, e.g.
// a LayerNorm scale over the last dims or a per-channel [C,1,1] factor over dim 1. Empty
// when c is not a constant of at most shape's rank whose dims are 1 or shape's, 1 on
// every dim not kept.
std::vector<float> broadcast_along(const ir::Tensor& c, const ir::Shape& shape, const std::vector<bool>& kept);

// numpy broadcast of two shapes; throws CompileError(what) when they do not broadcast.
ir::Shape broadcast_shapes(const ir::Shape& a, const ir::Shape& b, const std::string& what);

// One axis of an ONNX Slice after its rules: negative starts/ends count from the end
// (INT64_MIN/INT64_MAX saturate), then clamp to [0, dim] (step > 0) or [-1, dim - 1]
// (step < 0). Element i of the result is input index begin + i * step, i < count
// (count may be 0).
struct SliceAxis {
  int64_t begin = 0;
  int64_t step = 1;
  int64_t count = 0;
};
// Per axis of `shape` (axes not listed: the whole dim). `axes` and `steps` empty: ONNX's
// defaults (0..n-1 and all 1). Throws CompileError("node 'N' (Op): ...") for lists of
// different lengths, an axis out of range or repeated, and step 0.
std::vector<SliceAxis> slice_axes(const SourceNode& node, const ir::Shape& shape,
                                  const std::vector<int64_t>& starts, const std::vector<int64_t>& ends,
                                  std::vector<int64_t> axes, std::vector<int64_t> steps);

// The IR's message helpers: "[1,3,224,224]", "float32".
using ir::dtype_name;
using ir::shape_string;

}  // namespace mote::onnx_import
