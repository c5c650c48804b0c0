// `mote run` on the host: one timed inference of a loaded program (compiler/host/
// loaded_program.h) with the same runtime and kernels the firmware uses.
#pragma once

#include <cstdint>
#include <vector>

#include "host/loaded_program.h"

namespace mote {

struct HostRunResult {
  std::vector<std::vector<uint8_t>> outputs;
  std::vector<double> op_seconds;
  double total_seconds = 0;
};

// Copies inputs in (sizes must match the program's inputs exactly; the caller checks
// shapes first), runs once with per-op timing, copies outputs out. Throws CompileError.
HostRunResult run_on_host(LoadedProgram& program, const std::vector<std::vector<uint8_t>>& inputs);

}  // namespace mote
