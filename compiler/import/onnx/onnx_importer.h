// ONNX front end: a .onnx file -> an ir::Graph of source ops (ONNX names, ONNX semantics,
// NCHW), ready for the source-level passes and legalize_onnx (passes/passes.h).
//
// What import does, in order:
//   1. Reads and parses the file, runs onnx::checker::check_model, and accepts only
//      default-domain opsets 11 to 17.
//   2. Runs ONNX shape inference. When it leaves a tensor's shape unknown (a Reshape,
//      Expand or ConstantOfShape whose shape comes from a Shape/Gather/Concat subgraph,
//      which ONNX 1.12's inference does not propagate), import evaluates the constant
//      parts of the graph on the host (passes/source_eval.h) and infers again.
//   3. Converts initializers and Constant nodes to constant tensors (float32, int64,
//      int32, int16, int8, uint8, bool; raw or typed fields; external data is refused)
//      and every other node to an ir::Node with its attributes normalized (below).
//      Every tensor gets a fully static shape or import fails naming the tensor.
// Errors are CompileError with one line: "<path>: <what>", e.g.
//   "model.onnx: node 'Conv_3' (Conv): attribute 'auto_pad' value 'FOO' not supported".
// A node without a name is named after its first output.
//
// Normalized source ops (attributes always present unless marked optional; axes are
// non-negative; ints are int64, floats double):
//   Conv               inputs X, W, [B]; kernel_shape, strides, dilations, pads
//                      [begin..., end...] (auto_pad resolved), group
//   Gemm               inputs A, B, [C]; alpha, beta, transA, transB
//   MatMul, Add, Sub, Mul, Div, Relu, Sigmoid, Tanh, GlobalAveragePool, GlobalMaxPool,
//   Identity, Range    no attributes
//   Clip               min, max (+-inf when absent) and input X only, when the bounds are
//                      constant at import; otherwise inputs X, [min], [max] unchanged
//   Softmax            axis; coerce_2d = 1 for opset 11-12 when axis is not the last
//                      (softmax over the input flattened to [prod(:axis), prod(axis:)])
//   BatchNormalization inputs X, scale, B, mean, var; epsilon; output Y only
//   AveragePool        kernel_shape, strides, pads, dilations (all 1), ceil_mode,
//                      count_include_pad
//   MaxPool            kernel_shape, strides, pads, dilations, ceil_mode; output Y only
//   Flatten            axis in [0, rank]
//   Reshape            inputs data, shape; allowzero (the output tensor's shape is final)
//   Transpose          perm
//   Concat             axis
//   Pad                mode ("constant", "reflect", "edge"), pads [begin..., end...]
//                      (non-negative), value (double); input data only (the pads and
//                      constant_value inputs must be constant)
//   ReduceMean         axes (sorted; all axes when absent in the model), keepdims
//   Dropout            input data only, output only (inference: an identity)
//   Squeeze            axes (sorted, of the input) and input data only
//   Unsqueeze          axes (sorted, of the output) and input data only
//   Shape              start, end (clamped to [0, rank])
//   Gather             axis
//   Slice              inputs data, starts, ends, [axes], [steps] (ONNX inputs)
//   Cast               to (a mote::DType value; equals the output tensor's dtype)
//   ConstantOfShape    value (double), dtype (the fill's mote::DType value)
//   Size               no attributes
//   HardSigmoid        alpha, beta
//   HardSwish          no attributes
//   LeakyRelu          alpha
//   PRelu              inputs X, slope
#pragma once

#include <string>

#include "ir/graph.h"

namespace mote {

// Throws CompileError (one line naming `path`) for anything it cannot import.
ir::Graph import_onnx(const std::string& path);

}  // namespace mote
