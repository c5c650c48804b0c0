// Control flow in the op list: the link's first step lays every `while` and `if` node
// (ir::Node::regions, compiler/ir/mote_ops.md) out as plain nodes with `jump` and
// `branch`, whose targets are node indices of the result (one program op per node).
//
//   while (inputs v0.., outputs V.., regions cond -> [c], body -> [n..]):
//       copy v_k -> V_k                    each loop variable's initial value
//       jump  -> C
//     B: body nodes
//       copy n_k -> V_k                    (a result that is another V_j is copied out
//                                           first: the copies must not read a written V)
//     C: cond nodes
//       branch c (when true) -> B          the body runs again while c holds
//   if (inputs c, args.., outputs O.., regions then, else):
//       branch c (when false) -> E
//       then nodes; copy then result_k -> O_k
//       jump -> X
//     E: else nodes; copy else result_k -> O_k
//     X:
// Regions nest (a loop in a body, an if in a loop): each is laid out where it stands.
//
// Memory. V and O are written by more than one node: `reassigned` lists them. The
// link gives them buffers of their own (no alias, no in-place write over or into them)
// and keeps each V live until its loop's branch (`live_until`), so nothing the body or
// the condition computes shares its bytes while the loop runs. Everything else keeps the
// one-writer lifetimes of the op list: a value of one iteration never reaches the next
// but through V, and the branch not taken by an `if` reuses the bytes of the one that ran.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/graph.h"

namespace mote::link {

struct ControlFlowLayout {
  std::vector<bool> reassigned;                    // per tensor: written by several nodes
  std::vector<std::pair<int, uint32_t>> live_until;  // (tensor, node index it must live to)
};

// Replaces graph.nodes by their laid-out form (a graph without regions is unchanged).
// Throws CompileError for a region op whose regions do not match its tensors.
ControlFlowLayout lay_out_control_flow(ir::Graph& graph);

}  // namespace mote::link
