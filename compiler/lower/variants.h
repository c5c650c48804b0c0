// Picks the optimized variant of an integer kernel for the target core (kernels named
// <op>_<dtype>[_<specialization>]__<isa>; kernels/kernel_registry.inc lists each variant,
// its reference and its instruction set). A variant takes the
// same inputs and parameter bytes as its reference kernel and gives identical results;
// it may need arena scratch, which the choice sets. Internal to compiler/lower/.
#pragma once

#include "lower/lower.h"
#include "lower/node_lowering.h"

namespace mote::lower {

// Instruction-set features of a target core that kernel variants use.
struct TargetIsa {
  bool dsp = false;  // Armv7E-M / Armv8-M DSP extension (SMLAD, SXTB16, ...)
  bool mve = false;  // Armv8.1-M Helium (M-profile Vector Extension, integer)
  bool v6m = false;  // Armv6-M (Cortex-M0+): Thumb-1 only, no SIMD, no 64-bit multiply
};
TargetIsa target_isa(Target target);

// Replaces op.kernel (a reference kernel lowered for node l) by the best variant the
// target has for the node's shapes and adds the variant's scratch to op.scratch_bytes.
// Leaves op unchanged where no variant applies.
void select_variant(const NodeLowering& l, Target target, LoweredOp& op);

}  // namespace mote::lower
