// ONNX front end: a .onnx file -> an ir::Graph of Mote ops (compiler/ir/mote_ops.md),
// through the importer's own stages over a source graph of ONNX ops (source_graph.h):
//
//   read_model             the file -> SourceGraph: ONNX names, semantics and layouts
//                          (NCHW), every attribute normalized (below)
//   remove_identities      Identity, Dropout, no-op Casts -> aliases of their input
//   fold_constants_source  constant subgraphs (shape arithmetic, ...) -> constants
//   fuse_normalization     PyTorch's LayerNorm and GroupNorm decompositions -> one op
//   fold_batch_norm        BatchNormalization -> into the Conv before it, or Mul + Add
//   fold_channel_shuffles  Reshape/Transpose/Reshape permuting only the channels -> Gather
//   narrow_int64           computed int64 data provably within int32 -> int32
//   legalize               ONNX ops -> Mote ops, choosing the layout (NHWC inside)
//
// import_onnx() runs them all; compile() then sees only Mote ops. Each stage keeps the
// graph valid (topological order, shapes on every tensor) and throws CompileError naming
// the node when it meets something it cannot handle. The stages are exposed one by one
// for tests.
//
// read_model, in order:
//   1. Reads and parses the file, runs onnx::checker::check_model, and accepts only
//      default-domain opsets 11 to 17.
//   2. Sets the graph inputs' shapes given (InputShape) and fixes a symbolic batch axis
//      (axis 0) of the others to 1, noted in the graph's notes.
//   3. Runs ONNX shape inference. When it leaves a tensor's shape unknown (a Reshape,
//      Expand or ConstantOfShape whose shape comes from a Shape/Gather/Concat subgraph,
//      which ONNX 1.12's inference does not propagate), import evaluates the constant
//      parts of the graph on the host (source_eval.h) and infers again.
//   4. Converts initializers and Constant nodes to constant tensors (float32, int64,
//      int32, int16, int8, uint8, bool; raw or typed fields; external data is refused)
//      and every other node to a SourceNode with its attributes normalized (below).
//      Every tensor gets a fully static shape or import fails naming the tensor.
// Errors are CompileError with one line: "<path>: <what>", e.g.
//   "model.onnx: node 'Conv_3' (Conv): attribute 'auto_pad' value 'FOO' not supported".
// A node without a name is named after its first output.
//
// Normalized source ops (attributes always present unless marked optional; axes are
// non-negative; ints are int64, floats double):
//   Conv               inputs X, W, [B]; kernel_shape, strides, dilations, pads
//                      [begin..., end...] (auto_pad resolved), group
//   ConvTranspose      inputs X, W, [B] (1-D and 2-D); kernel_shape, strides, dilations,
//                      group, pads [begin..., end...] of any sign with auto_pad,
//                      output_shape (the spec's split) and output_padding (a smaller end
//                      pad) folded in
//   Resize             inputs X, [scales], [sizes], [roi] (moved last); mode ("nearest",
//                      "linear", "cubic"), coordinate_transformation_mode (every one of
//                      opsets 11-17), nearest_mode, cubic_coeff_a (-0.75), exclude_outside
//                      (0/1), extrapolation_value (0)
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
//   ReduceMean, ReduceMax, ReduceMin, ReduceSum, ReduceProd, ReduceL1, ReduceL2,
//   ReduceSumSquare, ReduceLogSumExp
//                      axes (sorted; from the attribute or ReduceSum's constant input;
//                      all axes when absent or empty), keepdims, noop (1: no axes given
//                      and noop_with_empty_axes 1: an identity, axes empty); input data only
//   ArgMax, ArgMin     axis, keepdims, select_last_index
//   LogSoftmax         axis, coerce_2d (as Softmax)
//   Elu                alpha
//   Selu               alpha, gamma
//   Celu               alpha (finite, non-zero)
//   DepthToSpace       blocksize, mode ("DCR" or "CRD"); rank-4 input
//   SpaceToDepth       blocksize; rank-4 input
//   Erf, Pow, Sqrt, Exp, Log, Abs, Neg, Reciprocal, Softplus, Max, Min, Floor, Ceil,
//   Round, Sign
//                      no attributes (Max and Min: one or more inputs)
//   Dropout            input data only, output only (inference: an identity)
//   Squeeze            axes (sorted, of the input) and input data only
//   Unsqueeze          axes (sorted, of the output) and input data only
//   Shape              start, end (clamped to [0, rank])
//   Gather             axis
//   Slice              inputs data, starts, ends, [axes], [steps] (ONNX inputs)
//   Split              axis, split (the part sizes, one per output, adding up to the dim:
//                      from the attribute or the constant input, equal parts when absent);
//                      input data only; every output kept
//   Expand             inputs data, shape (ONNX inputs)
//   Equal, Where       no attributes (evaluated while importing on constants; on computed
//                      tensors compare "equal" and select)
//   Less, LessOrEqual, Greater, GreaterOrEqual, Not, And, Or, Xor
//                      no attributes (compare and logical)
//   Tile               inputs input, repeats (repeats constant)
//   Cast               to (a mote::DType value; equals the output tensor's dtype)
//   ConstantOfShape    value (double), dtype (the fill's mote::DType value)
//   Einsum             equation (no spaces, explicit "->", each "..." replaced by digits
//                      naming its axes aligned right, "0" the outermost)
//   CumSum             axis (from the constant input), exclusive, reverse; input x only
//   TopK               inputs X, K; axis, largest; both outputs (sorted 0 is served sorted)
//   Trilu              k (from the constant input, 0 when absent), upper; input only
//                      (rank >= 2)
//   Mod                fmod (0: floor_mod, the sign of the divisor; 1: C fmod)
//   ScatterND          inputs data, indices, updates; reduction ("none", "add", "mul",
//                      "max", "min"); evaluated while importing (constant inputs only)
//   Size               no attributes
//   HardSigmoid        alpha, beta
//   HardSwish          no attributes
//   LeakyRelu          alpha
//   PRelu              inputs X, slope
//   LayerNormalization inputs X, Scale, [B]; axis, epsilon (stash_type 1 only); output Y
//                      only (Mean, InvStdDev refused when read). fuse_normalization also
//                      writes it for the decomposed pattern of opsets below 17.
//   InstanceNormalization inputs input, scale, B; epsilon
//   LSTM               inputs X, W, R, [B], [initial_h], [initial_c]; direction, hidden_size
//                      (R's); every output (an omitted one before a kept one: a placeholder
//                      tensor). Refused: layout 1, clip, input_forget 1, activations other
//                      than the default, activation_alpha/beta, sequence_lens, P
//   GRU                as LSTM (inputs X, W, R, [B], [initial_h]), and linear_before_reset
//   RNN                as GRU, activations Tanh or Relu (attribute activation "relu"
//                      when Relu; absent: tanh)
//   GroupNormalization (the importer's own, written by fuse_normalization for PyTorch's
//                      GroupNorm export; not ONNX opset 18's op) inputs X [N,C,...],
//                      scale [C], B [C]; num_groups, epsilon: each batch's groups of
//                      C/num_groups channels normalized over their channels and positions
#pragma once

#include <string>
#include <vector>

#include "import/onnx/source_graph.h"
#include "ir/graph.h"

namespace mote {

// A graph input's shape set by the user (`--input-shape name=1x3x96x96`): every dim, >= 1;
// the model's static dims must agree. Inputs not given keep the model's shape, except that
// a symbolic or unknown axis 0 (a batch axis) becomes 1 and the graph's notes say so.
struct InputShape {
  std::string name;
  std::vector<int64_t> dims;
};

// All the stages below, in order. `extra_outputs` names tensors of the model appended to
// its outputs before the source-level stages (ir::BasicGraph::add_named_outputs), so they
// survive and keep the model's layout. Throws CompileError (one line) for anything it
// cannot import.
ir::Graph import_onnx(const std::string& path, const std::vector<std::string>& extra_outputs = {},
                      const std::vector<InputShape>& input_shapes = {});

// An ONNX operator the importer takes: every Mote op its conversion may emit (besides the
// layout's transposes and reshapes), or, when constant_only, none: it is evaluated while
// importing (shape arithmetic) and refused on computed tensors. `takes`: the dtypes it
// runs in when fewer than those ops' kernels take (Exp: float32, though unary has int8
// kernels for Abs); empty: theirs.
struct OnnxOperator {
  std::string name;
  std::vector<ir::Op> becomes;
  bool constant_only = false;
  std::vector<std::string> takes;
};
// Every ONNX operator the importer takes, sorted by name (`mote compile --list-ops`):
// legalize's conversion table plus the operators only evaluated on constants.
std::vector<OnnxOperator> onnx_operators();
// Their names.
std::vector<std::string> onnx_supported_ops();

namespace onnx_import {

// Reading, with the input shapes import_onnx() takes. Throws CompileError "<path>: <what>".
SourceGraph read_model(const std::string& path, const std::vector<InputShape>& input_shapes = {});

// Source level. Errors: CompileError "<file>: node 'N' (Op): <what>" (message_origin()).
// Identity, Dropout (inference) and no-op Casts become aliases of their input.
void remove_identities(SourceGraph& graph);
// Evaluates source nodes whose inputs are all constant (Shape of static tensors,
// Gather/Unsqueeze/Concat/Cast on shape data, arithmetic on constants, ...).
void fold_constants_source(SourceGraph& graph);
// Conv followed by BatchNormalization (sole consumer) -> Conv with scaled weights/bias;
// a BatchNormalization left alone becomes Mul + Add with per-channel constants.
void fold_batch_norm(SourceGraph& graph);
// Recognises the normalizations PyTorch exports as several ops (fuse_normalization.cc
// says which): the opset-13 LayerNorm decomposition (and hand-written ones of the same
// form) -> LayerNormalization; GroupNorm's Reshape -> InstanceNormalization -> Reshape
// [-> Mul -> Add] -> GroupNormalization. What does not match is left as it is.
void fuse_normalization(SourceGraph& graph);
// A channel shuffle (x [N,C,...] -> Reshape [N,g,C/g,...] -> Transpose swapping axes 1
// and 2 -> Reshape [N,C,...], the intermediates read only there) -> one Gather along the
// channels with constant indices.
void fold_channel_shuffles(SourceGraph& graph);
// Computed int64 tensors whose values provably fit int32 (counts of comparisons, ArgMax
// indices and arithmetic on them; narrow_int64.cc says which) -> int32, cast back to int64
// only for a graph output or a reader that needs int64.
void narrow_int64(SourceGraph& graph);

// ONNX ops -> Mote ops (compiler/ir/mote_ops.md). Tensors of spatial ops are NHWC inside;
// graph inputs/outputs keep the model's layout (transposes inserted at the boundary,
// adjacent inverse transposes cancelled). Throws for an unsupported op or attribute.
ir::Graph legalize(SourceGraph graph);
// legalize's conversion table: the operators it converts and the Mote ops each may emit.
std::vector<OnnxOperator> legalized_operators();

}  // namespace onnx_import
}  // namespace mote
