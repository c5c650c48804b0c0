// What occupies the arena when: every arena buffer of a loaded program with its byte range
// and the ops it is live for, derived from the program alone (the same rules the planner
// uses), and a picture of it (`mote inspect --memory-svg`).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mote/interpreter.h"

namespace mote {

struct ArenaBuffer {
  uint64_t offset = 0, bytes = 0;
  uint32_t first = 0, last = 0;  // ops it is live for, inclusive
  std::string what;              // "tensor 3 'name'" or "scratch of op 7 'name'"
  // Index (in the same list) of the buffer this one is written over in place: an op's
  // output that overlaps an input dying at that op. -1 otherwise.
  int64_t in_place_of = -1;
};

// A tensor lives from the first op that touches it to the last; graph inputs from op 0,
// graph outputs to the last op; scratch only during its op. A copy whose output sits
// exactly on its input (an aliased reshape) is one buffer. An op's output whose bytes
// overlap an input that dies at that op is written in place over it (in_place_of); the
// two share those bytes at that op only.
std::vector<ArenaBuffer> arena_buffers(const Interpreter& interpreter, const ProgramHeader& header);

// The live bytes (16-aligned, as planned) at each op, an in-place pair's shared bytes
// counted once; its maximum is the schedule's lower bound.
std::vector<uint64_t> live_bytes_per_op(const std::vector<ArenaBuffer>& buffers, uint32_t op_count);

// SVG: op index across, arena offset up, one box per buffer (hover shows what it is), the
// op where live bytes peak marked, and the planned arena as the top line.
std::string arena_svg(const Interpreter& interpreter, const ProgramHeader& header, const std::string& title);

}  // namespace mote
