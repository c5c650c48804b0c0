// The .tflite writer (`mote compile --quantize int8 --emit-tflite FILE`): a quantized Mote
// graph, as compiler/ptq/ptq.h quantize_graph() leaves it (before lowering, while every op
// is still a standard TFLite int8 operator), written as a TFLite flatbuffer (schema
// version 3, our schema subset compiler/import/tflite/tflite_schema.fbs) that Arm's Vela
// and TensorFlow Lite Micro take. The point is the NPU path of users coming from PyTorch:
// ONNX -> Mote's post-training quantization -> .tflite -> Vela -> `mote compile --npu`.
//
// What it writes:
//   - one subgraph, the graph's nodes in order as operators; tensors with their dtype,
//     shape and quantization (scale and zero point per tensor, or per channel with
//     quantized_dimension: conv2d filters axis 0, depthwise filters axis 3, biases 0);
//     constants in buffers (buffer 0 the empty sentinel), activations without data.
//   - Mote ops as the TFLite operators the .tflite importer (import/tflite/
//     tflite_importer.h) turns back into the same Mote ops with the same attributes, so
//     importing the file gives the quantized program bit for bit:
//       conv2d CONV_2D, depthwise_conv2d DEPTHWISE_CONV_2D, transpose_conv
//       TRANSPOSE_CONV (SAME or VALID of the conv it inverts; no dilation or groups),
//       fully_connected FULLY_CONNECTED, batch_matmul BATCH_MATMUL, add ADD, sub SUB, mul MUL,
//       avg_pool2d AVERAGE_POOL_2D, max_pool2d MAX_POOL_2D, mean MEAN, sum SUM,
//       reduce_max/min REDUCE_MAX/MIN, reshape RESHAPE, transpose TRANSPOSE,
//       strided_slice STRIDED_SLICE, gather GATHER, concat CONCATENATION, pad PAD, PADV2
//       or MIRROR_PAD, depth_to_space/space_to_depth DEPTH_TO_SPACE/SPACE_TO_DEPTH,
//       softmax SOFTMAX, log_softmax LOG_SOFTMAX, quantize QUANTIZE, dequantize
//       DEQUANTIZE, sigmoid LOGISTIC, tanh TANH, hard_swish HARD_SWISH, elu ELU,
//       leaky_relu LEAKY_RELU, prelu PRELU, clamp RELU/RELU6/RELU_N1_TO_1/RELU_0_TO_1,
//       maximum/minimum MAXIMUM/MINIMUM, arg_max/arg_min ARG_MAX/ARG_MIN, unary, compare
//       and logical their function's operator (ABS, EQUAL, LOGICAL_AND, ...), select
//       SELECT_V2, cast CAST, cumsum CUMSUM, resize_nearest/resize_bilinear
//       RESIZE_NEAREST_NEIGHBOR/RESIZE_BILINEAR (the align_corners/half_pixel_centers
//       pair whose lowering gives the node's taps).
//     act_min/act_max become the fused activation (NONE, RELU, RELU6, RELU_N1_TO_1).
//     Explicit pads become SAME or VALID where TFLite's padding rule gives them; other
//     pads of a convolution (PyTorch's symmetric padding at stride 2) become a PAD
//     operator before it (zero point padding: the same values) and VALID; those of a
//     quantized max pooling (and ceil mode's extra windows) a PADV2 with the lowest value.
//     Operand tensors TFLite wants (RESHAPE's shape, MEAN's axes, PAD's paddings, ...)
//     are int32 constants named after the node.
// Anything else (an op TFLite has no operator for, pads or attributes no TFLite option
// states, state, control flow) is a CompileError of one line naming the node and its op.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/graph.h"

namespace mote {

// The file's bytes. `path` (the model compiled) names the graph in messages:
//   "model.onnx: --emit-tflite: node 'conv1' (conv2d): pads [0,1,2,1] ..."
std::vector<uint8_t> write_tflite(const ir::Graph& graph, const std::string& path);

}  // namespace mote
