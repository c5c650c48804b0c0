// The link stage: a graph of Mote ops -> program bytes, once the searches
// (compiler/search/search.h) have fixed the op order, the patching and the kernel choice.
//
//   prepare():  checks the graph's inputs and outputs, lays `while` and `if` out with jumps
//               (link/control_flow.h), gives each graph output that is a
//               constant, a graph input or an earlier output its own copy, dequantizes
//               TFLite hybrid weights (int8 constants read only by float ops), lowers
//               every node for the target (compiler/lower/lower.h) and checks the order
//               produces each tensor before it is read; then indexes the program's
//               tensors, lets an op whose kernel only moves its input's bytes (placement
//               alias: reshape, copy) share its input's buffer, gives the tensors Vela
//               placed (an Ethos-U model's OfflineMemoryAllocation) one block at their
//               offsets (the NPU area) and every arena buffer its lifetime.
//   lay_out():  for a choice of kernels (the prepared ones, or some replaced for the same
//               nodes): the in-place links the kernels allow and one scratch buffer per
//               op that needs one;
//   plan():     the memory plan with the best set of those links
//               (planner/in_place_links.h).
//   assemble(): the program (emit::ProgramSpec -> bytes, emit/program_writer.h) and the
//               report's sizes and per-op rows; an op whose kernel can use more scratch
//               (LoweredOp::scratch_growth) is granted what the plan leaves free at it.
//
// Every check throws CompileError with one line naming the model, node or tensor.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ir/graph.h"
#include "lower/lower.h"
#include "planner/memory_planner.h"
#include "report.h"
#include "target/target.h"

namespace mote::link {

struct Prepared {
  ir::Graph graph;                       // with the output copies, hybrid weights dequantized
  std::vector<lower::LoweredOp> ops;     // per node: the target's kernel
  std::vector<int> program_tensors;      // graph tensor ids in program order (ascending)
  std::vector<uint32_t> program_index;   // per graph tensor: its program index, or kNoTensor
  std::vector<planner::Buffer> buffers;  // per arena buffer: bytes and lifetime, no links
  std::vector<size_t> tensor_buffer;     // per graph tensor: its buffer, SIZE_MAX for none
  std::vector<bool> holds_output;        // per buffer: a graph output lives in it
  std::vector<bool> reassigned;          // per graph tensor: written by several nodes (control flow)
  std::vector<uint64_t> offset_in_buffer;  // per graph tensor: its offset inside its buffer (0 but
                                           // in the NPU area)
  size_t offline_block = SIZE_MAX;         // the buffer of the NPU area (Vela's offline plan), if any

  // A tensor written more than once a run, state (persistent) or a loop variable or IF
  // output (reassigned): its bytes are its own, never shared with an alias or written in
  // place of a dying input.
  bool keeps_own_bytes(int id) const {
    const ir::Tensor& t = graph.tensors[static_cast<size_t>(id)];
    return t.is_persistent || reassigned[static_cast<size_t>(id)] || t.offline_offset >= 0;
  }
};

Prepared prepare(const ir::Graph& graph, Target target);

struct Layout {
  // The prepared buffers with every in-place link the kernels allow (the plan may keep
  // fewer), then the scratch buffers.
  std::vector<planner::Buffer> buffers;
  std::vector<size_t> linked;          // the buffers with an in-place link, in op order
  std::vector<size_t> scratch_buffer;  // per op: its scratch buffer, SIZE_MAX for none
  planner::Plan plan;                  // from plan()
  size_t plans = 0;                    // memory plans the in-place link search made
};

// The buffers for a choice of kernels, `ops` (one per node of prepared.graph: the
// prepared ones, or some replaced by other kernels for the same nodes): in-place links
// and scratch, not yet placed.
Layout lay_out(const Prepared& prepared, const std::vector<lower::LoweredOp>& ops);

// No plan of the layout's buffers fits a smaller arena: the most (aligned) bytes live at
// any op with every link on (turning a link off never lowers it).
uint64_t arena_floor(const Layout& layout);

// Places the buffers: layout.plan with the best set of in-place links
// (planner/in_place_links.h), with the planner's effort (planner/memory_planner.h).
void plan(Layout& layout, planner::Effort effort = planner::Effort::kRepair);

// What assemble() writes: the program and its report, or the report only (no program
// bytes, program_bytes 0) for a search's candidates, which compare reports: writing and
// checksumming a big model's weights took most of its compile time (VGG-11's 531 MB, six
// patching candidates: 35 of 45 s).
enum class Emit { kProgram, kReportOnly };

CompileResult assemble(const Prepared& prepared, const std::vector<lower::LoweredOp>& ops, const Layout& layout,
                       Emit emit = Emit::kProgram);

// prepare, plan and assemble with the target's kernels (no search but the planner's):
// for programs the compiler runs on the host (calibration, constant folding).
CompileResult link_program(const ir::Graph& graph, Target target);

}  // namespace mote::link
