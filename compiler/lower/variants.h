// Picks the optimized variant of an integer kernel for the target core (kernels named
// <op>_<dtype>[_<specialization>]__<isa>; kernels/kernel_registry.inc lists each variant,
// its reference and its instruction set). A variant takes the
// same inputs and parameter bytes as its reference kernel and gives identical results;
// it may need arena scratch, which the choice sets. Internal to compiler/lower/.
#pragma once

#include <vector>

#include "lower/lower.h"
#include "lower/node_lowering.h"

namespace mote::lower {

// Replaces op.kernel (a reference kernel lowered for node l) by the best variant the
// target has for the node's shapes, other than those in `skipped`, and adds the variant's
// scratch to op.scratch_bytes. Leaves op unchanged where no such variant applies.
void select_variant(const NodeLowering& l, Target target, LoweredOp& op, const std::vector<KernelId>& skipped = {});

// Every variant the target has for node l (op: its reference lowering, unchanged) whose
// rule applies, in select_variant's order of preference.
std::vector<KernelId> applicable_variants(const NodeLowering& l, Target target, const LoweredOp& op);

}  // namespace mote::lower
