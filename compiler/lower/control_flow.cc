// Lowering of the control ops the link lays `while` and `if` out with
// (link/control_flow.h): jump and branch, their targets op indices of the laid-out
// graph (one op per node there). `while` and `if` themselves never reach the lowering.
#include <string>

#include "control/control.h"
#include "lower/node_lowering.h"

namespace mote::lower {
namespace {

uint32_t target_of(const NodeLowering& l) {
  const int64_t target = l.node().get_int("target", -1);
  if (target < 0 || target > static_cast<int64_t>(UINT32_MAX))
    l.fail("target " + std::to_string(target) + " is not an op index");
  return static_cast<uint32_t>(target);
}

}  // namespace

// jump: no inputs, no outputs.
LoweredOp lower_jump(const NodeLowering& l) {
  if (!l.node().inputs.empty() || !l.node().outputs.empty())
    l.fail("takes no inputs and no outputs, has " + std::to_string(l.node().inputs.size()) + " and " +
           std::to_string(l.node().outputs.size()));
  return lowered(KernelId::kJump, params_bytes(JumpParams{target_of(l)}));
}

// branch: input 0 a bool condition (element 0 read), then the tensors it keeps live.
LoweredOp lower_branch(const NodeLowering& l) {
  if (!l.node().outputs.empty()) l.fail("has outputs, expected none");
  if (l.input(0).dtype != DType::kBool || l.input(0).elements() < 1)
    l.fail("condition '" + l.input(0).name + "' is " + ir::dtype_name(l.input(0).dtype) + " " +
           ir::shape_string(l.input(0).shape) + ", expected bool with an element");
  if (l.node().inputs.size() > 255) l.fail("lists " + std::to_string(l.node().inputs.size()) + " inputs, at most 255");
  const int64_t when = l.node().get_int("when", -1);
  if (when != 0 && when != 1) l.fail("when " + std::to_string(when) + " is not 0 or 1");
  return lowered(KernelId::kBranch, params_bytes(BranchParams{target_of(l), static_cast<uint32_t>(when)}));
}

// while, if: regions the link lays out first.
void lower_region_op(const NodeLowering& l) {
  l.fail("holds regions: the link lays it out with jump and branch before lowering (link/control_flow.h)");
}

}  // namespace mote::lower
