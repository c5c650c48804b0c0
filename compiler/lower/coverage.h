// What an importer's operators run as, read from the kernel registry: per operator, the
// dtypes of the reference kernels of the Mote ops it becomes, and the optimized variants
// among those ops' kernels with the cores that have their instruction set. `mote compile
// --list-ops` prints it; the README's operator table is that output (tests/cli checks).
//
// Which Mote op a kernel runs comes from its name (kernel_registry.inc: <op>_<dtype>...):
// the longest Mote op name that is the kernel's name or starts it followed by '_';
// a few prefixes are aliases (kAliases in coverage.cc: requantize_* kernels run quantize,
// min_max_* maximum and minimum, math_*, abs_*, rsqrt_*, logical_not unary), and reshape
// runs on copy's kernels.
// CoverageRules.EveryKernelRunsAMoteOp checks that every kernel's name maps to an op.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ir/ops.h"
#include "kernel_ids.h"

namespace mote::lower {

// The Mote op kernel `id` runs (nullopt: its name follows no op name).
std::optional<ir::Op> kernel_op(KernelId id);

// Every kernel that runs `op`, in id order.
std::vector<KernelId> kernels_of(ir::Op op);

// The dtypes a kernel's name states: "int8", "float32", a conversion "uint8->int8", or
// "any" for a kernel of every dtype (copy, transpose).
std::string kernel_dtypes(KernelId id);

struct Coverage {
  std::vector<std::string> dtypes;     // of the reference kernels, in a fixed order
  std::vector<std::string> optimized;  // "dsp: int8 (cortex-m4 cortex-m7 cortex-m33 cortex-m55)"
};
// `takes` (an operator's narrower dtypes, TfliteOperator::takes) replaces the reference
// dtypes and limits the optimized ones to those it lists; empty: the kernels' own.
Coverage coverage_of(const std::vector<ir::Op>& ops, const std::vector<std::string>& takes = {});

// One line of `mote compile --list-ops`: "  NAME  dtypes  [optimized]", no newline. An
// operator that becomes no Mote op (VAR_HANDLE, CALL_ONCE: the importer resolves them)
// reads "no kernel (resolved while importing)".
std::string coverage_line(const std::string& name, const Coverage& coverage);

}  // namespace mote::lower
