// The Mote ops: the op vocabulary of ir::Graph, one per kernel family, NHWC where a
// layout matters. compiler/ir/mote_ops.md specifies each op's tensors and attributes;
// the list itself is compiler/ir/ops.inc.
//
// Code that dispatches on an op (lowering, quantization, patching, the passes) does it
// with a switch over Op that has no `default:`; the compiler library builds with
// -Werror=switch, so an op added to ops.inc is a build error at every such switch until
// that switch decides what the new op does there. Questions about one property of an op
// ("does it take a fused activation?") are small switch-based predicates beside the code
// that asks them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>

namespace mote::ir {

enum class Op : uint8_t {
#define MOTE_OP(enumerator, name) enumerator,
#include "ir/ops.inc"
#undef MOTE_OP
};

inline constexpr size_t kOpCount = 0
#define MOTE_OP(enumerator, name) +1
#include "ir/ops.inc"
#undef MOTE_OP
    ;

// The op's snake_case name ("conv2d"), as mote_ops.md, messages and reports spell it.
const char* op_name(Op op);

// Prints op_name(op) (messages, test failures).
std::ostream& operator<<(std::ostream& out, Op op);

}  // namespace mote::ir
