// TensorFlow Lite front end: a .tflite file -> an ir::Graph of Mote ops (NHWC, as TFLite
// already is), ready for the Mote-level passes and lowering. No legalize step: filters
// are already OHWI, depthwise filters [1,KH,KW,C*M], fully-connected weights [N,K].
//
// What import does, in order:
//   1. Reads the file and runs the flatbuffer verifier of our schema subset
//      (tflite_schema.fbs; flatc generates the reader at build time). A file without the
//      "TFL3" identifier or one the verifier rejects is refused before anything is read.
//   2. Checks every operator of subgraph 0 (the main graph): the first CUSTOM op is
//      refused first (naming its custom code), then the first builtin op Mote does not
//      import. Further subgraphs are read only as CALL_ONCE init subgraphs (below);
//      IF/WHILE-style ops that would reach others are refused here.
//   3. Converts operators in file order (TFLite's execution order). Tensors are imported
//      as operators reach them: dtype (float32, int8, int16, int32, int64, uint8, bool),
//      static shape (`shape`; a -1 in shape_signature is accepted for the batch dim 0,
//      which takes the file's size as TFLite Micro does, and refused for any other
//      dim), quantization (scale and zero
//      point arrays; quantized_dimension for per-channel), constant data from the
//      buffers. Every int8/int16 tensor must carry quantization parameters, but those
//      only CAST operators use (TFLM casts raw values) and int16 ones only ABS (and
//      CAST) operators use (TFLM's ABS takes unquantized int16).
//
// Mote ops produced (attributes as in compiler/ir/mote_ops.md; operator index -> node in
// file order, plus a reshape before a fully_connected whose input's last dim is not K):
//   CONV_2D conv2d, DEPTHWISE_CONV_2D depthwise_conv2d, FULLY_CONNECTED fully_connected,
//   ADD add, SUB sub, MUL mul, AVERAGE_POOL_2D avg_pool2d, MAX_POOL_2D max_pool2d,
//   SOFTMAX softmax, LOGISTIC sigmoid, TANH tanh, RESHAPE/SQUEEZE reshape,
//   QUANTIZE quantize, DEQUANTIZE dequantize, MEAN mean, PAD/PADV2 pad,
//   CONCATENATION concat, STRIDED_SLICE strided_slice, TRANSPOSE_CONV transpose_conv,
//   LEAKY_RELU leaky_relu, HARD_SWISH hard_swish, RELU/RELU6/RELU_N1_TO_1/RELU_0_TO_1 clamp,
//   PRELU prelu, ELU elu, LOG_SOFTMAX log_softmax, UNIDIRECTIONAL_SEQUENCE_LSTM lstm,
//   ABS/NEG/SIN/COS/LOG/SQRT/RSQRT/SQUARE/EXP/FLOOR/CEIL/ROUND/LOGICAL_NOT unary (fn),
//   MAXIMUM maximum, MINIMUM minimum, SQUARED_DIFFERENCE squared_difference, FLOOR_DIV
//   floor_div, FLOOR_MOD floor_mod, EQUAL/NOT_EQUAL/LESS/LESS_EQUAL/GREATER/GREATER_EQUAL
//   compare (fn), LOGICAL_AND/LOGICAL_OR logical (fn), SELECT_V2 select, CAST cast.
// Resource variables: VAR_HANDLE names a variable by (container, shared_name), the same
// across subgraph 0 and the init subgraphs; each variable becomes one persistent tensor
// (ir::Tensor::is_persistent: state kept between runs) whose dtype and shape every READ
// and ASSIGN must agree on. READ_VARIABLE copy (state -> output), ASSIGN_VARIABLE copy
// (value -> state), in file order. A variable read but never assigned is refused. Its
// initial bytes are its first assignment's zero point (low byte), as TFLite Micro fills
// it. CALL_ONCE imports its init subgraph (no inputs or outputs, no CALL_ONCE inside,
// and no variable touched before the CALL_ONCE) as the graph's init nodes, run first and
// on the first run only; errors there read "subgraph N operator K (NAME): ...".
// Variable tensors (SVDF input 4, LSTM inputs 18 and 19) are persistent tensors too: the
// op reads them, gets an extra output per state for its new value, and a copy after the
// op writes it back; their initial bytes are TFLite Micro's ResetVariableTensors fill
// (the int8 zero point, else zeros: a non-int8 state gets zero point 0, the new-value
// output the file's quantization).
// Fused activations NONE, RELU, RELU6, RELU_N1_TO_1 become act_min/act_max (real-valued
// bounds); TANH and SIGN_BIT are refused. SAME/VALID padding becomes explicit pads
// computed as TFLite's ComputePaddingHeightWidth does.
//
// Errors are CompileError with one line: "<path>: <what>", e.g.
//   "model.tflite: operator 3: op code 150 (GELU) not supported"
//   "model.tflite: operator 2: custom op 'SignalWindow' not supported"
//   "model.tflite: operator 5 (CONV_2D): fused activation TANH not supported"
// Nodes are named after their first output tensor (TFLite operators have no names).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "ir/graph.h"

namespace mote {

// Throws CompileError (one line naming `path`) for anything it cannot import.
ir::Graph import_tflite(const std::string& path);

// The same from a model already in memory; `path` names it in messages and gives the
// graph's name (its stem). The bytes are read during the call only.
ir::Graph import_tflite_buffer(std::span<const uint8_t> bytes, const std::string& path);

// One spatial axis of a TFLite window op (conv, depthwise, pool) with SAME (`same`) or
// VALID padding: the output size and the explicit pads, as tflite::ComputePaddingHeightWidth
// computes them: out from ComputeOutSize, total = max((out - 1) * stride + dilated_kernel -
// in, 0), before = total / 2, the rest after. The importer turns the padding option into
// pads with it; the writer (compiler/emit/tflite_writer.h) finds the option pads match.
struct TfliteWindow {
  int64_t out = 0;
  int64_t pad_before = 0;
  int64_t pad_after = 0;
};
TfliteWindow tflite_window(bool same, int64_t in, int64_t kernel, int64_t stride, int64_t dilation);

// A builtin operator the importer takes: its schema name ("ADD"), every Mote op its
// conversion may emit, and the dtypes it runs in when fewer than those ops' kernels
// run (empty: all of theirs).
struct TfliteOperator {
  std::string name;
  std::vector<ir::Op> becomes;
  std::vector<std::string> takes;
};
// Every builtin operator the importer takes, sorted by name (`mote compile --list-ops`).
std::vector<TfliteOperator> tflite_operators();
// Their names.
std::vector<std::string> tflite_supported_ops();

}  // namespace mote
