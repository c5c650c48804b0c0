// The Mote ops: the op vocabulary of ir::Graph, one per kernel family, NHWC where a
// layout matters. compiler/ir/mote_ops.md specifies each op's tensors and attributes;
// the list itself is compiler/ir/ops.inc.
//
// Code that dispatches on an op (the lowering) does it with a switch over Op that has no
// `default:`; the compiler library builds with -Werror=switch, so an op added to ops.inc
// is a build error at every such switch until that switch decides what the new op does
// there. Questions about one property of an op ("does it take a fused activation?") are
// columns of ops.inc, read through op_traits(): adding an op states every answer on its
// one line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>

namespace mote::ir {

enum class Op : uint8_t {
#define MOTE_OP(enumerator, name, ...) enumerator,
#include "ir/ops.inc"
#undef MOTE_OP
};

inline constexpr size_t kOpCount = 0
#define MOTE_OP(enumerator, name, ...) +1
#include "ir/ops.inc"
#undef MOTE_OP
    ;

// Where `--quantize` takes an op's int8/int16 output scale from (ops.inc, quant_output).
enum class QuantOutput : uint8_t { kOwnRange, kInputScale, kFixedScale, kIndexOutput, kStaysFloat };

// How the patching search runs an op on a tile of its NHWC output (ops.inc, tiling).
enum class Tiling : uint8_t { kPoolWindow, kFilterWindow, kElementwise, kNone };

// The columns of an op's line in ops.inc.
struct OpTraits {
  bool fuses_activation;   // activation: fused
  bool weighted;           // weights: weighted
  QuantOutput quant_output;
  Tiling tiling;
  bool writes_over_input;  // in_place: over_input
};
const OpTraits& op_traits(Op op);

// The op's snake_case name ("conv2d"), as mote_ops.md, messages and reports spell it.
const char* op_name(Op op);

// Prints op_name(op) (messages, test failures).
std::ostream& operator<<(std::ostream& out, Op op);

}  // namespace mote::ir
