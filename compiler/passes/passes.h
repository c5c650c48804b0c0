// Graph passes over Mote ops, in the order compile() runs them after import:
//   fill_state -> fold_constants -> fuse_activations
// and, at lowering, single_channel_depthwise_to_conv on a copy (kept where it does not
// raise the arena: compiler.cc),
// and, with --quantize, divisions_to_multiplications before calibration.
// (The ONNX importer's source-level stages, on ONNX ops, are its own:
// import/onnx/onnx_importer.h.) Each pass keeps the graph valid (topological order,
// shapes on every tensor) and throws CompileError naming the node when it meets
// something it cannot handle.
#pragma once

#include <string>
#include <vector>

#include "ir/graph.h"

namespace mote::passes {

// Puts a fill_bytes init node per persistent tensor (state) ahead of every other node:
// it writes the low byte of the tensor's zero point (0 for float) into each byte, TFLite
// Micro's reset value, on the first run after load() or reset_state().
void fill_state(ir::Graph& graph);
// Evaluates Mote nodes whose inputs are all constant with the host reference kernels.
void fold_constants(ir::Graph& graph);
// fold_constants' step on node k: when its inputs are all constant and it writes no
// state, evaluates it, makes its outputs constants and erases it; true when it did (the
// tensors stay: no remove_dead). The .tflite importer folds a WHILE loop as it unrolls it.
bool fold_node(ir::Graph& graph, size_t k);
// conv2d/depthwise_conv2d/fully_connected/batch_matmul/add/sub/mul/div/pools followed
// by clamp (sole consumer, not a graph output) -> act_min/act_max on the producer.
void fuse_activations(ir::Graph& graph);
// depthwise_conv2d of a one-channel input (float32 or int8) -> conv2d with groups 1 and
// the filter [1,KH,KW,M] transposed to [M,KH,KW,1]: the same results, computed by the
// convolution kernels (TFLite writes such a depthwise for a Conv2D on one channel).
// Returns the names of the nodes it rewrote.
std::vector<std::string> single_channel_depthwise_to_conv(ir::Graph& graph);
// With --quantize, before calibration: div by a float32 constant -> mul by its
// reciprocal (div has no integer kernel, mul has). The float program keeps div:
// x * (1/c) can differ from x / c by a rounding unless c is a power of two.
void divisions_to_multiplications(ir::Graph& graph);

}  // namespace mote::passes
