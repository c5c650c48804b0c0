// Lowering: Mote ops (compiler/ir/mote_ops.md) -> kernel calls.
//
// For each node, lowering checks its tensors against the kernel's rules (ranks, dtypes,
// the output shape the node claims), chooses the kernel for the target, fills the
// kernel's parameter struct from the node's attributes and computes the op's MACs and
// scratch size. The link stage (compiler/link/link.h) then plans memory and serializes.
//
// Everything the runtime's kernel `check` would refuse is refused here first, as a
// CompileError naming the node, so a program the compiler writes always loads.
//
// Nodes on quantized tensors (int8, int16 activations) take the integer kernels: every
// multiplier, shift and clamp range is derived from the tensors' scales with the host
// helpers of kernels/quant/quant_math.h (lower/quantization.h), exactly as each kernel
// header specifies, so the program reproduces TensorFlow Lite Micro bit for bit.
//
// Where an op's lowering goes: one file per op family in compiler/lower/ (conv.cc,
// fully_connected.cc, elementwise.cc, activation.cc, math.cc, pool.cc, data_movement.cc, lstm.cc,
// recurrent.cc, resize.cc, normalization.cc, control_flow.cc), declared in node_lowering.h. An op's lowering function runs one check of the node (tensors,
// attributes, output shape; shared by every dtype) and then, by dtype, fills its float32,
// int8 or int16 kernel's parameter struct. A new op: its function beside its family's
// (or a new family file), one case in lower_node's switch (lower.cc), and its optimized
// variants' rules in variants.cc.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "kernel_ids.h"
#include "target/target.h"

namespace mote::lower {

struct LoweredOp {
  KernelId kernel = KernelId::kInvalid;
  std::vector<uint8_t> params;  // the kernel's parameter struct, byte for byte (may be empty)
  uint64_t macs = 0;            // multiply-accumulates per inference
  uint64_t scratch_bytes = 0;   // arena scratch the kernel needs during this op
  // Scratch the kernel can put to use beyond scratch_bytes (a variant's optional
  // speed-up, e.g. weights widened once per run): up to max_units more units of
  // unit_bytes, each granted one adding unit_bytes to scratch_bytes and 1 to the int32
  // at params offset param_offset (grant_scratch). Grants never raise the arena: the
  // compiler's link (search/search.h) plans once more with the units the live bytes at
  // each op leave room for and keeps that plan if its arena is no larger, and
  // link::assemble grants what still fits in the largest run of arena bytes free at the
  // op (moving its scratch there).
  struct ScratchGrowth {
    uint32_t unit_bytes = 0;
    uint32_t max_units = 0;
    uint32_t param_offset = 0;
  };
  ScratchGrowth scratch_growth;
  // The input whose buffer output 0 may be written over (same offset) when that input
  // dies at this op, or -1: the kernel streams elementwise and the input has the output's
  // shape and elements at least as wide (in_place_input()).
  int in_place_input = -1;
  // How many bytes below that input's offset output 0 starts (0: the same offset).
  uint64_t in_place_shift = 0;
};

// What the memory plan may do with a kernel's output, as the kernel registry states it
// (kernels/kernel_registry.inc, placement column; kernels/kernel_registry.h).
// True for kernels that stream elementwise: output element i is written after input
// element i is read and before any input element at a higher address is, so the output
// may start at the offset of an input with the output's shape and elements at least as
// wide.
bool streams_elementwise(KernelId kernel);

// Pixel-streaming kernels (convolution, depthwise convolution, pooling over NHWC): they
// produce output pixels in order (batch, row, column), and whenever output pixel p is the
// lowest whose input they have still to read, they have written output pixels below
// p + pixel_stream_block(...) only (the kernel's block rule, kernels/window_geometry.h).
// 0 for other kernels, and for shapes a kernel does not stream (in and out: its NHWC
// input 0 and output 0). Such a kernel may write its output over its dying input when the
// output starts far enough below it that nothing it writes reaches input it still reads.
uint32_t pixel_stream_block(KernelId kernel, const ir::Shape& in, const ir::Shape& out);

// The in-place input and shift of `op` lowered for `node` (see LoweredOp): for an
// elementwise streaming kernel, a full-shape input with elements at least as wide, at
// shift 0; for a pixel-streaming kernel, input 0 at the smallest safe shift.
void choose_in_place(const ir::Graph& graph, const ir::Node& node, LoweredOp& op);

// Grants `units` of op.scratch_growth (at most its max_units): scratch_bytes and the
// count in the params grow, max_units shrinks.
void grant_scratch(LoweredOp& op, uint32_t units);

// Lowers one Mote node. Throws CompileError "node 'NAME' (OP): ..." when the node is not a
// Mote op, an attribute is out of range, or a tensor's dtype/shape breaks the kernel's rules.
LoweredOp lower_node(const ir::Graph& graph, const ir::Node& node, Target target);

// lower_node, with the variants in `skipped` passed over: the node takes the next variant
// the target has for it, or its reference kernel (--optimize size gives variants up so).
LoweredOp lower_node(const ir::Graph& graph, const ir::Node& node, Target target,
                     const std::vector<KernelId>& skipped);

// The kernels that can run the node on the target, in lower_node's order of preference:
// the variants whose rules apply, then the reference kernel (always last).
std::vector<KernelId> kernel_candidates(const ir::Graph& graph, const ir::Node& node, Target target);

// A lowered resize's parameters for comparing two lowerings' sampling (the .tflite
// writer's choice of TFLite's resize flags): an integer bilinear tap whose two rows
// (columns) are one, lower == upper, blends the same values whatever its fraction (the
// kernel's weights sum exactly: TFLite's taps at the edges have fraction -256, ONNX's 0),
// so its fraction reads as 0. Other ops: their parameters as they are.
std::vector<uint8_t> resize_sampling(const LoweredOp& op);

// The parameter struct as bytes (every kernel parameter struct is trivially copyable and
// has no padding).
template <typename P>
std::vector<uint8_t> params_bytes(const P& params) {
  const auto* p = reinterpret_cast<const uint8_t*>(&params);
  return std::vector<uint8_t>(p, p + sizeof(P));
}

}  // namespace mote::lower
