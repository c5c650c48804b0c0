// Control flow: the two ops a Mote program branches with. The compiler lays TFLite's
// WHILE and IF (computed condition) out in the op list with them (link/control_flow.h):
//   jump    no inputs, no outputs: run() continues at op params.target.
//   branch  input 0 bool (its element 0 is read); any further inputs are only listed
//           (a loop's variables, so the planner keeps them live to the loop's end): when
//           element 0 != 0 equals params.when != 0, run() continues at op params.target,
//           else at the next op.
// A target past the last op ends the run; the executor checks nothing more (see
// runtime/src/interpreter.cc), so a program cannot make these read or write anywhere.
#pragma once

#include <stdint.h>

#include "mote/kernel.h"

namespace mote {

struct JumpParams {
  uint32_t target;  // op index
};

struct BranchParams {
  uint32_t target;  // op index
  uint32_t when;    // 1: jump when the condition holds; 0: when it does not
};

Status jump_check(const OpContext& ctx);
void jump_run(const OpContext& ctx);
extern const KernelEntry kJumpEntry;

Status branch_check(const OpContext& ctx);
void branch_run(const OpContext& ctx);
extern const KernelEntry kBranchEntry;

}  // namespace mote
