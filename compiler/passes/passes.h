// Graph passes, in the order compile() runs them:
//   source level (ONNX ops):  remove_identities -> fold_constants_source -> fold_batch_norm
//   legalize_onnx:            ONNX ops -> Mote ops, NHWC layout chosen here
//   Mote level:               fold_constants -> fuse_activations
// Each pass keeps the graph valid (topological order, shapes on every tensor) and
// throws CompileError naming the node when it meets something it cannot handle.
#pragma once

#include "ir/graph.h"

namespace mote::passes {

// Identity, Dropout (inference) and no-op Casts become aliases of their input.
void remove_identities(ir::Graph& graph);
// Evaluates source nodes whose inputs are all constant (Shape of static tensors,
// Gather/Unsqueeze/Concat/Cast on shape data, arithmetic on constants, ...).
void fold_constants_source(ir::Graph& graph);
// Conv followed by BatchNormalization (sole consumer) -> Conv with scaled weights/bias;
// a BatchNormalization left alone becomes Mul + Add with per-channel constants.
void fold_batch_norm(ir::Graph& graph);
// ONNX ops -> Mote ops (compiler/ir/mote_ops.md). Tensors of spatial ops are NHWC inside;
// graph inputs/outputs keep the model's layout (transposes inserted at the boundary,
// adjacent inverse transposes cancelled). Throws for an unsupported op or attribute.
void legalize_onnx(ir::Graph& graph);
// Evaluates Mote nodes whose inputs are all constant with the host reference kernels.
void fold_constants(ir::Graph& graph);
// conv2d/depthwise_conv2d/fully_connected/batch_matmul/add/sub/mul/div/pools followed
// by clamp (sole consumer, not a graph output) -> act_min/act_max on the producer.
void fuse_activations(ir::Graph& graph);

}  // namespace mote::passes
